// Square-only linear algebra on a static `[2, 3]` matrix: `inv`, `det`, `cholesky`, `eigh` and
// `eig` need `[n, n]` (or a batch `[..b, n, n]`); the error names the shape and both sizes.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f64, Shape![2, 3]> = Tensor::zeros();
    let _ = a.inv();
    let _ = a.det();
    let _ = a.cholesky();
    let _ = a.eigh();
    let b: Tensor<f64, Shape![4, 3, 2]> = Tensor::zeros();
    let _ = b.eigvals();
}
