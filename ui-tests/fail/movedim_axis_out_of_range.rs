// `movedim::<SRC, DST>()` checks both axes against the rank at compile time: a `[2, 3]` tensor
// has no axis 2.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.movedim(Ax::<0>, Ax::<2>);
}
