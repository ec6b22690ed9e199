// A batch of matrices must be square too: `eigvals` of `[4, 3, 2]` (four 3x2 matrices) is refused,
// naming the last two sizes.
use shaped::prelude::*;

fn main() {
    let b: Tensor<f64, Shape![4, 3, 2]> = Tensor::zeros();
    let _ = b.eigvals();
}
