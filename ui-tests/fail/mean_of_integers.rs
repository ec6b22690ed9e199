// `mean` (and `var`, `std`) of an integer tensor is refused, as PyTorch refuses it: the mean of
// integers is not an integer. The message says to cast first.
use shaped::prelude::*;

fn main() {
    let counts: Tensor<i64, Shape![2, 3]> = Tensor::ones();
    let _ = counts.mean();
}
