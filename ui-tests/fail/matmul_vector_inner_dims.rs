// `matmul` multiplies two matrices: a `[3]` vector is not one. Make it a `[3, 1]` column with
// `unsqueeze::<1>()` (or a `[1, 3]` row with `unsqueeze::<0>()`).
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let v: Tensor<f32, Shape![3]> = Tensor::zeros();
    let _ = a.matmul(&v);
}
