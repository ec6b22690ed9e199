// A bool mask consumes as many dims as it has: a rank-2 mask after `..` on a rank-2 tensor has
// only one dim left to index. Index with a mask over the remaining dims instead.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let mask: Tensor<bool, Shape![3, 4]> = Tensor::zeros();
    let _ = t!(x[.., &mask]);
}
