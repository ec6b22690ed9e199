// `dot` is PyTorch's 1-D dot product: on matrices the error says so and names `matmul`
// (ndarray's `dot`), instead of rustc suggesting `det`.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let _ = a.dot(&b);
}
