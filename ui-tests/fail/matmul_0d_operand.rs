// A 0-d tensor has no matrix product (PyTorch: "both arguments to matmul need to be at least
// 1D"): rejected at compile time for a static shape.
use shaped::prelude::*;

fn main() {
    let s: Tensor<f32, Shape![]> = Tensor::zeros();
    let w: Tensor<f32, Shape![3, 2]> = Tensor::zeros();
    let _ = s.matmul(&w);
}
