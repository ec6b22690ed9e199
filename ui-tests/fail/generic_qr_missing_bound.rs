// `qr`, `svd` and `lu` type `K = min(M, N)`, which the type system computes for concrete sizes but
// not for generic ones: generic code states it with the bound `Shape![M, N]: MinShape` (see
// `pass/generic_linalg.rs`). The error says so, and names no typenum trait.
use shaped::prelude::*;

fn factor<const M: usize, const N: usize>(a: &Tensor<f64, Shape![M, N]>) -> usize {
    let (q, _r) = a.qr();
    q.numel()
}

fn main() {
    let _ = factor(&Tensor::<f64, Shape![3, 2]>::ones());
}
