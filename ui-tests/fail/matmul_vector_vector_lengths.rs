// `[k] @ [k]` is the dot product (a 0-d result, PyTorch `matmul`): vectors of static lengths 3
// and 4 are rejected at compile time.
use shaped::prelude::*;

fn main() {
    let v: Tensor<f32, Shape![3]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = v.matmul(&w);
}
