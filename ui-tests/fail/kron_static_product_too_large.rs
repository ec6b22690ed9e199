// Static Kronecker sizes are computed at compile time up to 1024: `[40] ⊗ [40]` would be 1600.
// Use runtime shapes (`as_dyn()`) for larger products.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![40]> = Tensor::zeros();
    let _ = a.kron(&a);
}
