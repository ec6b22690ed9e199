// `x[[0]]` on a rank-2 tensor is a compile error: an element index needs one coordinate per
// dimension. Use `x[[0, j]]`, or `t!(x[0])` for a view of row 0.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x[[0]];
}
