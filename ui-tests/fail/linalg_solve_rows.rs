// `a.solve(b)` for `a: [3, 3]` needs `b: [3]` or `[3, k]`: a right side with 4 rows is refused,
// and so is a batch of right sides whose batch dim differs from the matrices'.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![3, 3]> = Tensor::zeros();
    let _ = a.solve(&Tensor::<f64, Shape![4]>::zeros());
    let _ = a.solve(&Tensor::<f64, Shape![4, 2]>::zeros());
    let batch: Tensor<f64, Shape![2, 3, 3]> = Tensor::zeros();
    let _ = batch.solve(&Tensor::<f64, Shape![5, 3, 1]>::zeros());
}
