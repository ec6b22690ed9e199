// Three indices on a rank-2 tensor are a compile error: each index, range or `..` consumes one
// dimension. Use at most one item per dimension (`None` adds a dim and consumes none).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = t!(x[0, 1, 2]);
}
