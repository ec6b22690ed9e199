// Least squares of `[5, 3]` against a right side of 4 rows: the row counts must match.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![5, 3]> = Tensor::zeros();
    let b: Tensor<f64, Shape![4, 2]> = Tensor::zeros();
    let _ = a.lstsq(&b);
}
