// `permute` needs one entry per dimension: three axes for a rank-2 tensor is a compile error.
// Use `(Ax::<1>, Ax::<0>)` for a rank-2 tensor.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.permute((Ax::<2>, Ax::<0>, Ax::<1>));
}
