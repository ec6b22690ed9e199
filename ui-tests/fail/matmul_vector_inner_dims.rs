// `[m, k] @ [k]` is a matrix-vector product (PyTorch `matmul`), so the vector's length must equal
// the matrix's columns: `[2, 3] @ [4]` is rejected at compile time, naming both shapes.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let v: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = a.matmul(&v);
}
