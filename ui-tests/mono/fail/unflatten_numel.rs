// `unflatten` splits a dim: `[2, 12]`'s dim 1 into `[5, _]` has no whole size for the `_` (12 is
// not a multiple of 5), so the program does not build, naming both sizes. A run-time dim is
// checked at run time instead (`try_unflatten` returns the error).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 12]> = Tensor::zeros();
    let _ = x.unflatten(Ax::<1>, (Const::<5>, Dyn));
}
