// Index tensors used together must broadcast with each other (PyTorch's rule for advanced
// indexing). Shapes `[2]` and `[3]` do not: with static shapes this is a compile error. Use
// index tensors of matching (or size-1) shapes.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let rows = Tensor::from([0i64, 1]);
    let cols = Tensor::from([0i64, 1, 2]);
    let _ = t!(x[&rows, &cols]);
}
