// Broadcasting `[2, 3]` with `[4, 3]` is a compile error: aligned from the right, the sizes 2
// and 4 differ and neither is 1. Make the shapes agree (or use a size-1 dim, `Shape![1, 3]`, to
// broadcast it), or use `Dyn` (`_`) dims to defer the check to run time.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4, 3]> = Tensor::zeros();
    let _ = &a + &b;
}
