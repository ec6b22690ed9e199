// `a.solve(b)` for `a: [3, 3]` needs `b: [3]` or `[3, k]`: a right side with 4 rows is refused
// (linalg_solve_rows_matrix and linalg_solve_batch for the other right sides).
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![3, 3]> = Tensor::zeros();
    let _ = a.solve(&Tensor::<f64, Shape![4]>::zeros());
}
