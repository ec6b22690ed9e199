// `det` needs a square `[n, n]` matrix (or a batch `[..b, n, n]`): a static `[2, 3]` is refused,
// naming both sizes.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![2, 3]> = Tensor::zeros();
    let _ = a.det();
}
