// Shapes are types: a `[2, 3]` tensor cannot be used where a `[3, 2]` one is expected. Use
// `reshape`, `t()` or `permute` to change the shape, whichever you mean.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _y: Tensor<f32, Shape![3, 2]> = x;
}
