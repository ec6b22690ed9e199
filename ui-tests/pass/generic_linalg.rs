// Linear algebra in code generic over const sizes, with only the prelude imported.
//
// - `lstsq`, `solve`, `inv`, `det` need nothing beyond the sizes: a Kalman update generic over
//   the state size `N` and the measurement size `Z` compiles as written.
// - `qr`, `svd` and `lu` type `K = min(M, N)`. The type system computes it for concrete sizes;
//   generic code states it with the bound `Shape![M, N]: MinShape`, checked at each use. A
//   `Dyn` dim makes `K` `Dyn` with no bound at all.
#![allow(clippy::type_complexity)]
use shaped::prelude::*;

/// One Kalman measurement update: gain `K = P Hᵀ S⁻¹` through a least-squares solve of
/// `S Kᵀ = H P` (S and P symmetric), then `x + K (z - H x)` and `(I - K H) P`.
fn kalman_update<const N: usize, const Z: usize>(
    x: &Tensor<f64, Shape![N]>,
    p: &Tensor<f64, Shape![N, N]>,
    h: &Tensor<f64, Shape![Z, N]>,
    r: &Tensor<f64, Shape![Z, Z]>,
    z: &Tensor<f64, Shape![Z]>,
) -> (Tensor<f64, Shape![N]>, Tensor<f64, Shape![N, N]>) {
    let s: Tensor<f64, Shape![Z, Z]> = &h.matmul(p).matmul(&h.t()) + r;
    let sol = s.lstsq(&h.matmul(p));
    let gain: Tensor<f64, Shape![N, Z]> = sol.solution.t().contiguous().into_owned();
    let innovation: Tensor<f64, Shape![Z]> = z - &h.matmul(x);
    let x2: Tensor<f64, Shape![N]> = x + &gain.matmul(&innovation);
    let p2: Tensor<f64, Shape![N, N]> = (&Tensor::<f64, Shape![N, N]>::eye() - &gain.matmul(h)).matmul(p);
    assert_eq!(sol.rank, Z);
    assert_eq!(s.solve(z).sizes(), [Z]);
    (x2, p2)
}

/// `qr` and `svd` of an `[M, N]` matrix: the bound names `K`. (The result types are projections
/// here; a caller with concrete sizes sees `[M, K]` and `[K]`.)
fn factor<const M: usize, const N: usize>(a: &Tensor<f64, Shape![M, N]>) -> (Vec<usize>, Vec<f64>)
where
    Shape![M, N]: MinShape,
{
    let (q, _r) = a.qr();
    let (_u, s, _vh) = a.svd();
    (q.sizes().to_vec(), s.to_vec())
}

/// A runtime row count: `K` is `Dyn`, no bound needed.
fn factor_rows<const N: usize>(a: &Tensor<f64, Shape![_, N]>) -> Tensor<f64, Shape![_]> {
    a.svdvals()
}

pub fn main() {
    // A 3-state model (position, velocity, acceleration) measured in position and velocity,
    // unit covariances: S = 2 I, gain = [[0.5, 0], [0, 0.5], [0, 0]].
    let x = Tensor::<f64, Shape![3]>::from([0., 1., 0.]);
    let p = Tensor::<f64, Shape![3, 3]>::eye();
    let h = Tensor::<f64, Shape![2, 3]>::from([[1., 0., 0.], [0., 1., 0.]]);
    let r = Tensor::<f64, Shape![2, 2]>::eye();
    let z = Tensor::<f64, Shape![2]>::from([2., 3.]);
    let (x2, p2) = kalman_update(&x, &p, &h, &r, &z);
    assert!(x2.to_vec().iter().zip([1., 2., 0.]).all(|(a, b)| (a - b).abs() < 1e-12));
    assert!(p2.to_vec().iter().zip([0.5, 0., 0., 0., 0.5, 0., 0., 0., 1.]).all(|(a, b)| (a - b).abs() < 1e-12));

    let a = Tensor::<f64, Shape![3, 2]>::from([[3., 0.], [0., 4.], [0., 0.]]);
    let (q, s) = factor(&a);
    assert_eq!(q, [3, 2]);
    assert!(s.iter().zip([4., 3.]).all(|(a, b)| (a - b).abs() < 1e-12));
    // The same calls with concrete sizes: K = min(3, 2) = 2 in the types.
    let (_q, _r): (Tensor<f64, Shape![3, 2]>, Tensor<f64, Shape![2, 2]>) = a.qr();

    let d = a.clone().cast_shape::<Shape![_, 2]>();
    assert!(factor_rows(&d).to_vec().iter().zip([4., 3.]).all(|(a, b)| (a - b).abs() < 1e-12));
}
