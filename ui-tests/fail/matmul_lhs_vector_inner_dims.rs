// `matmul` multiplies two matrices: a `[3]` vector on the left is not one. Make it a `[1, 3]` row
// with `unsqueeze::<0>()` first.
use shaped::prelude::*;

fn main() {
    let v: Tensor<f32, Shape![3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![3, 2]> = Tensor::zeros();
    let _ = v.matmul(&b);
}
