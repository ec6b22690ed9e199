// `[k] @ [k, n]` multiplies a row vector by a matrix (PyTorch `matmul`), so the vector's length
// must equal the matrix's rows: `[3] @ [4, 2]` is rejected at compile time, naming both shapes.
use shaped::prelude::*;

fn main() {
    let v: Tensor<f32, Shape![3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4, 2]> = Tensor::zeros();
    let _ = v.matmul(&b);
}
