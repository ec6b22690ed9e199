// Decompositions need a matrix `[m, n]` or a batch `[..b, m, n]`: a vector has no SVD. (rustc reports
// this as E0599, "method exists but its trait bounds were not satisfied", naming the unmet
// `MatrixBatch` bound: the result types project through it.)
use shaped::prelude::*;

fn main() {
    let v: Tensor<f64, Shape![3]> = Tensor::zeros();
    let _ = v.svd();
}
