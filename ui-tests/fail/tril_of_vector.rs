// `tril`/`triu` keep a triangle of each matrix of the last two dims: a vector has none, so a
// static shape of rank 1 is a compile error naming it (a `DynShape` tensor's rank is checked at
// run time by `try_tril`).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = x.tril(0);
}
