// `a.solve(b)` for `a: [3, 3]` and a matrix right side `[4, 2]`: its row count must be 3.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![3, 3]> = Tensor::zeros();
    let _ = a.solve(&Tensor::<f64, Shape![4, 2]>::zeros());
}
