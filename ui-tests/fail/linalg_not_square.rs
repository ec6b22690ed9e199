// Square-only linear algebra on a static `[2, 3]` matrix: `inv` needs `[n, n]` (or a batch
// `[..b, n, n]`); the error names the shape and both sizes. `det`, `cholesky`, `eigh` and `eig`
// have the same bound (linalg_*_not_square).
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![2, 3]> = Tensor::zeros();
    let _ = a.inv();
}
