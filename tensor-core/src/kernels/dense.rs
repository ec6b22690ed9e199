//! Direct code for square matrices: determinant and inverse in closed form up to 4x4 (cofactors)
//! and by elimination with partial pivoting above, on row-major buffers. The callers pass a work
//! buffer of `n * n` elements (on the stack up to [`SMALL`] x [`SMALL`], so small matrices
//! allocate nothing) and the order `n` as a constant for static shapes, so the loops unroll.
//!
//! Singularity is judged after the fact by the reciprocal condition number in the 1-norm,
//! `rcond = 1 / (‖A‖₁ · ‖A⁻¹‖₁)`: an inverse with `rcond <= n · ε` (or with a non-finite element)
//! is noise, and the callers report [`ShapeError::Singular`](crate::ShapeError::Singular)
//! instead of returning it. An exactly singular matrix has an infinite or NaN "inverse" and is
//! caught the same way.
//!
//! Scale: the closed forms multiply up to `n` elements, which overflows or underflows for
//! matrices far from unit scale (`1e200 · I`, `1e-30 · I` in f32) although their inverse and often
//! their determinant are representable. The direct results are taken only when a range test
//! shows that nothing can overflow or underflow (the Frobenius bound of `bound_accepts`,
//! `‖A‖_F^(2n)` normal for `det`); otherwise the matrix is scaled by a power of two (exact) to
//! elements near 1, computed, and scaled back, in cold functions off the fast path.
use super::scale::{exponent, ldexp};
#[cfg(feature = "linalg")]
use crate::num::Lapack;
use crate::num::MatrixFloat;
use num_traits::Float;

/// The largest order whose work buffer lives on the stack.
pub(crate) const SMALL: usize = 8;

/// The 1-norm (largest absolute column sum) of the row-major `n`x`n` matrix `a`.
#[inline(always)]
fn norm1<T: Float>(a: &[T], n: usize) -> T {
    let mut best = T::zero();
    for j in 0..n {
        let mut s = T::zero();
        for i in 0..n {
            s = s + a[i * n + j].abs();
        }
        // A NaN column sum is dropped here; the callers catch NaN elsewhere (a NaN entry makes
        // the determinant NaN, a NaN inverse element fails the finiteness check).
        best = if s > best { s } else { best };
    }
    best
}

/// Whether `inv` (the computed inverse of a matrix of 1-norm `na`) is usable: finite, and the
/// matrix not singular to working precision (see the module docs).
#[inline(always)]
pub(crate) fn well_conditioned<T: Float>(na: T, inv: &[T], n: usize) -> bool {
    if !inv[..n * n].iter().all(|v| v.is_finite()) {
        return false;
    }
    let ni = norm1(inv, n);
    let eps = T::epsilon() * T::from(n).unwrap_or_else(T::one);
    // rcond = 1 / prod > eps, without a division; NaN fails every comparison (singular).
    let prod = na * ni;
    prod.is_finite() && prod > T::zero() && prod * eps < T::one() || n == 0
}

/// The determinant of the row-major `n`x`n` matrix `a`; 1 for `n == 0`. `work` holds `n * n`
/// elements (used above 4x4). Computed directly when `‖A‖_F^(2n)` is a normal number (no product
/// of `n` elements can overflow, and underflow in one is far below the rounding error); else on
/// a copy whose rows are scaled by powers of two (exact) to a largest element near 1, unscaled at
/// the end: exact scaling, so the result is `sⁿ det(A)` to rounding whenever it is
/// representable, and ±inf or (gradually) 0 as IEEE when it is not. NaN or infinite elements
/// give what the direct formula gives.
#[inline(always)]
pub(crate) fn det<T: Float>(a: &[T], n: usize, work: &mut [T]) -> T {
    debug_assert!(a.len() >= n * n);
    let d = match n {
        0 => return T::one(),
        1 => return a[0],
        2 => {
            // Two products: a normal result cannot hide an overflow (inf or NaN) and an underflow
            // in one product is below its rounding error.
            let d = a[0] * a[3] - a[1] * a[2];
            if d.is_normal() {
                return d;
            }
            d
        }
        3 => cofactors3(a).1,
        4 => cofactors4(a).1,
        _ => {
            let m = &mut work[..n * n];
            m.copy_from_slice(&a[..n * n]);
            eliminate(m, n)
        }
    };
    if n > 2 && normal_power(a, n) {
        return d;
    }
    det_rescaled(a, n, work, d)
}

/// Whether `‖A‖_F^(2n)` is a normal number.
#[inline(always)]
fn normal_power<T: Float>(a: &[T], n: usize) -> bool {
    let f2 = frobenius2(&a[..n * n]);
    let mut pow = T::one();
    for _ in 0..n {
        pow = pow * f2;
    }
    pow.is_normal()
}

/// [`det`] of a matrix outside the direct code's range: each row scaled by the power of two that
/// brings its largest element into `[0.5, 1)`, the determinant of that, scaled back. `d` is the
/// direct result, returned as it is when an element is NaN or infinite.
#[cold]
#[inline(never)]
fn det_rescaled<T: Float>(a: &[T], n: usize, work: &mut [T], d: T) -> T {
    if !a[..n * n].iter().all(|x| x.is_finite()) {
        return d;
    }
    let mut stack = [T::zero(); 16];
    let m: &mut [T] = if n <= 4 { &mut stack[..n * n] } else { &mut work[..n * n] };
    let mut e = 0i32;
    for (row, dst) in a[..n * n].chunks_exact(n).zip(m.chunks_exact_mut(n)) {
        let big = row.iter().fold(T::zero(), |b, x| b.max(x.abs()));
        if big == T::zero() {
            return T::zero();
        }
        let k = exponent(big);
        e += k;
        for (o, &x) in dst.iter_mut().zip(row) {
            *o = ldexp(x, -k);
        }
    }
    let ds = match n {
        2 => m[0] * m[3] - m[1] * m[2],
        3 => cofactors3(m).1,
        4 => cofactors4(m).1,
        _ => eliminate(m, n),
    };
    ldexp(ds, e)
}

/// The determinant of the row-major `n`x`n` matrix `m` by Gaussian elimination with partial
/// pivoting, in place (0 at an exactly zero pivot).
#[inline(always)]
fn eliminate<T: Float>(m: &mut [T], n: usize) -> T {
    let mut d = T::one();
    for k in 0..n {
        let p = pivot(m, n, k);
        if m[p * n + k] == T::zero() {
            return T::zero();
        }
        if p != k {
            swap_rows(m, n, p, k);
            d = -d;
        }
        let piv = m[k * n + k];
        d = d * piv;
        for i in k + 1..n {
            let f = m[i * n + k] / piv;
            for j in k + 1..n {
                m[i * n + j] = m[i * n + j] - f * m[k * n + j];
            }
        }
    }
    d
}

/// The adjugate (transposed cofactor matrix) of a row-major 3x3 matrix, row-major, and the
/// determinant (expanded along the first row): `a · adj = det(a) · I`.
#[inline(always)]
fn cofactors3<T: Float>(a: &[T]) -> ([T; 9], T) {
    let c = [
        a[4] * a[8] - a[5] * a[7],
        a[2] * a[7] - a[1] * a[8],
        a[1] * a[5] - a[2] * a[4],
        a[5] * a[6] - a[3] * a[8],
        a[0] * a[8] - a[2] * a[6],
        a[2] * a[3] - a[0] * a[5],
        a[3] * a[7] - a[4] * a[6],
        a[1] * a[6] - a[0] * a[7],
        a[0] * a[4] - a[1] * a[3],
    ];
    (c, a[0] * c[0] + a[1] * c[3] + a[2] * c[6])
}

/// The adjugate (transposed cofactor matrix) of a row-major 4x4 matrix, row-major, and the
/// determinant: `a · adj = det(a) · I`. Built from the twelve 2x2 sub-determinants of the top and
/// bottom row pairs (Laplace expansion by complementary minors), which the cofactors share.
#[inline(always)]
fn cofactors4<T: Float>(m: &[T]) -> ([T; 16], T) {
    let s0 = m[0] * m[5] - m[4] * m[1];
    let s1 = m[0] * m[6] - m[4] * m[2];
    let s2 = m[0] * m[7] - m[4] * m[3];
    let s3 = m[1] * m[6] - m[5] * m[2];
    let s4 = m[1] * m[7] - m[5] * m[3];
    let s5 = m[2] * m[7] - m[6] * m[3];
    let c5 = m[10] * m[15] - m[14] * m[11];
    let c4 = m[9] * m[15] - m[13] * m[11];
    let c3 = m[9] * m[14] - m[13] * m[10];
    let c2 = m[8] * m[15] - m[12] * m[11];
    let c1 = m[8] * m[14] - m[12] * m[10];
    let c0 = m[8] * m[13] - m[12] * m[9];
    let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
    let adj = [
        m[5] * c5 - m[6] * c4 + m[7] * c3,
        -m[1] * c5 + m[2] * c4 - m[3] * c3,
        m[13] * s5 - m[14] * s4 + m[15] * s3,
        -m[9] * s5 + m[10] * s4 - m[11] * s3,
        -m[4] * c5 + m[6] * c2 - m[7] * c1,
        m[0] * c5 - m[2] * c2 + m[3] * c1,
        -m[12] * s5 + m[14] * s2 - m[15] * s1,
        m[8] * s5 - m[10] * s2 + m[11] * s1,
        m[4] * c4 - m[5] * c2 + m[7] * c0,
        -m[0] * c4 + m[1] * c2 - m[3] * c0,
        m[12] * s4 - m[13] * s2 + m[15] * s0,
        -m[8] * s4 + m[9] * s2 - m[11] * s0,
        -m[4] * c3 + m[5] * c1 - m[6] * c0,
        m[0] * c3 - m[1] * c1 + m[2] * c0,
        -m[12] * s3 + m[13] * s1 - m[14] * s0,
        m[8] * s3 - m[9] * s1 + m[10] * s0,
    ];
    (adj, det)
}

/// The row at or below `k` with the largest absolute value in column `k`.
#[inline(always)]
fn pivot<T: Float>(m: &[T], n: usize, k: usize) -> usize {
    let mut p = k;
    for i in k + 1..n {
        if m[i * n + k].abs() > m[p * n + k].abs() {
            p = i;
        }
    }
    p
}

#[inline(always)]
fn swap_rows<T: Float>(m: &mut [T], n: usize, a: usize, b: usize) {
    for j in 0..n {
        m.swap(a * n + j, b * n + j);
    }
}

/// Writes the inverse of the row-major `n`x`n` matrix `a` into `out` (row-major, `n * n` long)
/// and returns whether it is usable ([`well_conditioned`]); when it is not, `out` holds garbage
/// that the caller must not return. `work` holds `n * n` elements (used above 4x4).
///
/// The closed forms up to 4x4 are taken when a bound that cannot overflow or underflow accepts
/// them (the Frobenius test of [`bound_accepts`]); otherwise, and when the elimination above 4x4
/// fails, the inverse is computed again from a copy scaled by the power of two that brings the
/// largest element into `[0.5, 1)` (exact) and scaled back ([`inv_rescaled`]), so that a
/// well-conditioned matrix inverts at any scale at which its inverse is representable.
#[inline(always)]
pub(crate) fn inv_into<T: Float>(out: &mut [T], a: &[T], n: usize, work: &mut [T]) -> bool {
    debug_assert!(a.len() >= n * n && out.len() == n * n);
    match n {
        0 => return true,
        1..=4 => {
            if closed_inverse(out, a, n, true) {
                return true;
            }
        }
        _ => {
            work[..n * n].copy_from_slice(&a[..n * n]);
            gauss_jordan(out, work, n);
            if well_conditioned(norm1(a, n), out, n) {
                return true;
            }
        }
    }
    inv_rescaled(out, a, n, work)
}

/// `out = adj(a) / det(a)` by the closed forms (`n <= 4`), and whether the inverse is usable: by
/// [`bound_accepts`] alone when `bound_only`, else also by the exact test [`exact_accepts`].
#[inline(always)]
fn closed_inverse<T: Float>(out: &mut [T], a: &[T], n: usize, bound_only: bool) -> bool {
    match n {
        1 => scaled_adjugate(out, a, &[T::one()], a[0], 1, bound_only),
        2 => scaled_adjugate(out, a, &[a[3], -a[1], -a[2], a[0]], a[0] * a[3] - a[1] * a[2], 2, bound_only),
        3 => {
            let (c, d) = cofactors3(a);
            scaled_adjugate(out, a, &c, d, 3, bound_only)
        }
        _ => {
            let (c, d) = cofactors4(a);
            scaled_adjugate(out, a, &c, d, 4, bound_only)
        }
    }
}

/// [`inv_into`] on `2^-e · a`, `2^e` the power of two just above the largest `|element|`, with
/// the result scaled back (`A⁻¹ = 2^-e (2^-e A)⁻¹`). The condition test is the same on the scaled
/// copy (`rcond` does not change with scale); the result must be finite after scaling back.
#[cold]
#[inline(never)]
fn inv_rescaled<T: Float>(out: &mut [T], a: &[T], n: usize, work: &mut [T]) -> bool {
    let a = &a[..n * n];
    if !a.iter().all(|x| x.is_finite()) {
        return false;
    }
    let e = exponent(a.iter().fold(T::zero(), |b, x| b.max(x.abs())));
    let mut stack = [T::zero(); 16];
    let m: &mut [T] = if n <= 4 { &mut stack[..n * n] } else { &mut work[..n * n] };
    for (o, &x) in m.iter_mut().zip(a) {
        *o = ldexp(x, -e);
    }
    let ok = if n <= 4 {
        closed_inverse(out, m, n, false)
    } else {
        let na = norm1(m, n);
        gauss_jordan(out, m, n);
        well_conditioned(na, out, n)
    };
    for o in out.iter_mut() {
        *o = ldexp(*o, -e);
    }
    ok && out.iter().all(|v| v.is_finite())
}

/// `out = adj / det` for the closed forms, and whether the inverse is usable: the condition
/// `rcond = |det| / (‖A‖₁ ‖adj‖₁) > n · ε` of [`well_conditioned`], evaluated from the adjugate
/// without a division and off the inverse's critical path: by [`bound_accepts`] alone when
/// `bound_only` (whose acceptance also rules out overflow and underflow), else also by
/// [`exact_accepts`]. False for a zero, NaN or infinite determinant and for non-finite cofactors.
#[inline(always)]
fn scaled_adjugate<T: Float>(out: &mut [T], a: &[T], adj: &[T], det: T, n: usize, bound_only: bool) -> bool {
    let r = T::one() / det;
    for (o, &c) in out.iter_mut().zip(adj) {
        *o = c * r;
    }
    bound_accepts(a, det, n) || !bound_only && exact_accepts(a, adj, det, n)
}

/// A sufficient test for `rcond > n ε`, from `a` alone and off the inverse's critical path (a
/// dozen vector instructions where [`exact_accepts`]'s column sums take a few dozen):
/// Guggenheimer, Edelman and Johnson's bound `κ₂(A) < 2 (‖A‖_F² / n)^(n/2) / |det|`, with
/// `κ₁ ≤ n κ₂`, gives `rcond > n ε` whenever `4 n⁴ ε² (‖A‖_F² / n)ⁿ < det²`, tested as
/// `8 n⁴ ε² (‖A‖_F²)ⁿ < nⁿ det²` (a margin of 2 for rounding, no root, no division). Trusted only
/// when the left side is a normal number (no underflow, no overflow, no NaN); false otherwise and
/// near the limit, where the exact test decides.
#[inline(always)]
fn bound_accepts<T: Float>(a: &[T], det: T, n: usize) -> bool {
    let f2 = frobenius2(&a[..n * n]);
    let (mut pow, mut nn) = (T::one(), 1);
    for _ in 0..n {
        pow = pow * f2;
        nn *= n;
    }
    let lhs = pow * (T::from(8 * n * n * n * n).unwrap_or_else(T::infinity) * T::epsilon() * T::epsilon());
    lhs.is_normal() && det.is_finite() && lhs < det * det * T::from(nn).unwrap_or_else(T::zero)
}

/// The test itself: `rcond = |det| / (‖A‖₁ ‖adj‖₁) > n ε`. False for a zero, NaN or infinite
/// determinant and for non-finite cofactors.
#[inline(always)]
fn exact_accepts<T: Float>(a: &[T], adj: &[T], det: T, n: usize) -> bool {
    let eps = T::epsilon() * T::from(n).unwrap_or_else(T::one);
    let scale = norm1(a, n) * norm1(adj, n);
    // NaN fails every comparison: singular.
    scale.is_finite() && scale * eps < det.abs()
}

/// `Σ x²` over `s`, on four independent lanes (one vector register).
#[inline(always)]
fn frobenius2<T: Float>(s: &[T]) -> T {
    let mut lanes = [T::zero(); 4];
    let chunks = s.chunks_exact(4);
    let rest = chunks.remainder().iter().fold(T::zero(), |m, &x| m + x * x);
    for c in chunks {
        for k in 0..4 {
            lanes[k] = lanes[k] + c[k] * c[k];
        }
    }
    rest + ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
}

/// Gauss-Jordan elimination with partial pivoting: `out = m⁻¹`, `m` (row-major `n`x`n`)
/// overwritten (garbage, caught by the caller's check, when `m` is singular).
#[inline(always)]
fn gauss_jordan<T: Float>(out: &mut [T], m: &mut [T], n: usize) {
    out.fill(T::zero());
    for i in 0..n {
        out[i * n + i] = T::one();
    }
    for k in 0..n {
        let p = pivot(m, n, k);
        if p != k {
            swap_rows(m, n, p, k);
            swap_rows(out, n, p, k);
        }
        let r = T::one() / m[k * n + k];
        for j in 0..n {
            m[k * n + j] = m[k * n + j] * r;
            out[k * n + j] = out[k * n + j] * r;
        }
        for i in 0..n {
            if i != k {
                let f = m[i * n + k];
                for j in 0..n {
                    m[i * n + j] = m[i * n + j] - f * m[k * n + j];
                    out[i * n + j] = out[i * n + j] - f * out[k * n + j];
                }
            }
        }
    }
}

/// `out = a^k` for the row-major `n`x`n` matrix `a` by repeated squaring, through the gemm;
/// `a` is overwritten (it holds the running square) and `tmp` holds `2 n²` elements.
pub(crate) fn power<T: Float + crate::kernels::Gemm>(a: &mut [T], n: usize, mut k: u64, out: &mut [T], tmp: &mut [T]) {
    let l = crate::layout::Layout::contiguous(&[n, n]).expect("an n x n matrix that exists");
    out.fill(T::zero());
    for i in 0..n {
        out[i * n + i] = T::one();
    }
    let tmp = &mut tmp[..n * n];
    let mut first = true;
    while k > 0 {
        if k & 1 == 1 {
            if first {
                out.copy_from_slice(a);
                first = false;
            } else {
                crate::kernels::gemm(out, &l, a, &l, tmp);
                out.copy_from_slice(tmp);
            }
        }
        k >>= 1;
        if k > 0 {
            crate::kernels::gemm(a, &l, a, &l, tmp);
            a.copy_from_slice(tmp);
        }
    }
}

// ---------------------------------------------------------------------- the square-matrix types
// `MatrixFloat` (the numeric trait, in `num`) for the four float types, next to the kernels it
// points at: the direct code here for every size and type, and faer's routines
// (`kernels::lapack`) above 8x8 for f32/f64 when `linalg` is on.

impl<T: crate::num::Real, const N: usize> MatrixFloat for crate::num::Dual<T, N> {}
impl MatrixFloat for half::f16 {}
impl MatrixFloat for half::bf16 {}
macro_rules! matrix_float {
    ($($t:ty),*) => {$(
        impl MatrixFloat for $t {
            #[cfg(feature = "linalg")]
            const LAPACK: Option<Lapack<Self>> = Some(Lapack {
                inv: |a, o, s, st, out| crate::kernels::lapack::inv(crate::kernels::lapack::mat(a, o, s, st), out),
                det: |a, o, s, st| crate::kernels::lapack::det(crate::kernels::lapack::mat(a, o, s, st)),
                solve: |a, o, s, st, b, ob, sb, stb, out| {
                    use crate::kernels::lapack::{mat, solve};
                    solve(mat(a, o, s, st), mat(b, ob, sb, stb), out)
                },
            });
        }
    )*};
}
matrix_float!(f32, f64);

/// Solves `A x = b` in place in `b` (row-major `[n, k]`) for a triangular `A` (row-major
/// `[n, n]`, or its transpose when `trans`): lower (forward substitution) or upper (back
/// substitution), with ones assumed on the diagonal when `unit`. Returns false, leaving `b`
/// unchanged, when a diagonal element is zero (and not assumed one).
pub(crate) fn solve_tri<T: MatrixFloat>(
    a: &[T],
    n: usize,
    b: &mut [T],
    k: usize,
    upper: bool,
    trans: bool,
    unit: bool,
) -> bool {
    let at = |i: usize, j: usize| if trans { a[j * n + i] } else { a[i * n + j] };
    if !unit && (0..n).any(|i| at(i, i) == T::ZERO) {
        return false;
    }
    // Row i depends on the rows solved before it, in the order they were solved: 0.. for a
    // lower matrix, n - 1 downwards for an upper one.
    let solved = |s: usize| if upper { n - 1 - s } else { s };
    for step in 0..n {
        let i = solved(step);
        for j in (0..step).map(solved) {
            let f = at(i, j);
            if f != T::ZERO {
                let (bi, bj) = rows2(b, k, i, j);
                bi.iter_mut().zip(bj).for_each(|(x, &y)| *x = *x - f * y);
            }
        }
        if !unit {
            let d = at(i, i);
            b[i * k..(i + 1) * k].iter_mut().for_each(|x| *x = *x / d);
        }
    }
    true
}

/// Rows `i` (mutable) and `j` (shared) of the row-major `[_, k]` buffer `b`, `i != j`.
fn rows2<T>(b: &mut [T], k: usize, i: usize, j: usize) -> (&mut [T], &[T]) {
    if i < j {
        let (lo, hi) = b.split_at_mut(j * k);
        (&mut lo[i * k..(i + 1) * k], &hi[..k])
    } else {
        let (lo, hi) = b.split_at_mut(i * k);
        (&mut hi[..k], &lo[j * k..(j + 1) * k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, RngExt, SeedableRng};

    /// The bound never accepts a matrix that the exact test rejects: random matrices of orders
    /// 1 to 4, at scales from 1e-30 to 1e30, pushed towards singularity (the last row a
    /// combination of the others plus a perturbation from 1 down to 1e-12).
    #[test]
    fn bound_implies_exact() {
        let mut rng = StdRng::seed_from_u64(13);
        let (mut both, mut exact_only) = (0, 0);
        for _ in 0..20_000 {
            let n = rng.random_range(1..=4usize);
            let scale = 10f64.powi(rng.random_range(-30..=30));
            let delta = 10f64.powi(-rng.random_range(0..=12));
            let mut a = [0f64; 16];
            for v in a.iter_mut().take(n * n) {
                *v = rng.random_range(-1.0..1.0);
            }
            for j in 0..n {
                let combo: f64 = (0..n - 1).map(|i| a[i * n + j] * (i as f64 + 0.5)).sum();
                a[(n - 1) * n + j] = combo + delta * a[(n - 1) * n + j];
            }
            for v in a.iter_mut() {
                *v *= scale;
            }
            let a32: [f32; 16] = core::array::from_fn(|k| a[k] as f32);
            check(&a[..n * n], n, &mut both, &mut exact_only);
            check(&a32[..n * n], n, &mut both, &mut exact_only);
        }
        // Both outcomes occur: the bound takes most well-conditioned matrices, not all.
        assert!(both > 1000 && exact_only > 100, "{both} {exact_only}");
    }

    fn check<T: Float + core::fmt::Debug>(a: &[T], n: usize, both: &mut usize, exact_only: &mut usize) {
        let (adj, det): (alloc::vec::Vec<T>, T) = match n {
            1 => (alloc::vec![T::one()], a[0]),
            2 => (alloc::vec![a[3], -a[1], -a[2], a[0]], a[0] * a[3] - a[1] * a[2]),
            4 => {
                let (c, d) = cofactors4(a);
                (c.to_vec(), d)
            }
            _ => {
                let (c, d) = cofactors3(a);
                (c.to_vec(), d)
            }
        };
        let (fast, exact) = (bound_accepts(a, det, n), exact_accepts(a, &adj, det, n));
        assert!(!fast || exact, "the bound accepts {a:?} (order {n}), the exact test does not");
        *both += usize::from(fast);
        *exact_only += usize::from(exact && !fast);
    }
}
