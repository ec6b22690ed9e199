// Comparisons broadcast as `+` does, so `[2, 3]` against `[4, 3]` is a compile error naming the
// shapes, with the same fixes: make the shapes agree, use a size-1 dim, or `Dyn` dims.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4, 3]> = Tensor::zeros();
    let _ = a.greater(&b);
}
