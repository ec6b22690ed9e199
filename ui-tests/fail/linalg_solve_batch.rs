// A batch of right sides must have the matrices' batch dims: `[2, 3, 3]` with `[5, 3, 1]`.
use shaped::prelude::*;

fn main() {
    let batch: Tensor<f64, Shape![2, 3, 3]> = Tensor::zeros();
    let _ = batch.solve(&Tensor::<f64, Shape![5, 3, 1]>::zeros());
}
