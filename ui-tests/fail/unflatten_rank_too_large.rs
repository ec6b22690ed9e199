// `unflatten` splices the target shape into the source's: splitting the last dim of a rank-5
// tensor into three dims would give 7 dims, more than the 6 a tensor can have.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 2, 3, 4, 6]> = Tensor::zeros();
    let _ = x.unflatten(Ax::<4>, (One, Const::<2>, Const::<3>));
}
