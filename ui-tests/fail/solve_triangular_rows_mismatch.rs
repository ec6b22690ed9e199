// A triangular solve needs a right side with the matrix's row count: `[3, 3]` against `[4]` is
// a compile error naming both shapes.
use shaped::prelude::*;

fn main() {
    let l: Tensor<f64, Shape![3, 3]> = Tensor::eye();
    let b: Tensor<f64, Shape![4]> = Tensor::ones();
    let _ = l.solve_triangular(&b, false, false);
}
