//! The bridge to faer (feature `linalg`): shape-erased, one matrix at a time. Each function reads
//! its matrix as a faer `MatRef` over the tensor's own buffer with the tensor's strides (no copy;
//! factorisations that work in place copy once, as LAPACK's callers do) and writes its results
//! into row-major output slices that are the result tensors' buffers. [`for_each_matrix`] walks
//! the matrices of a batch `[..b, m, n]`.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::num::LinalgFloat;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::evd::{self, ComputeEigenvectors};
use faer::linalg::svd::{self, ComputeSvdVectors};
use faer::prelude::*;
use faer::{Accum, MatMut, MatRef, Par, Side};
use num_complex::Complex;

pub(crate) use super::faer_view::mat;

/// Which matrix norm [`matrix_norm`](crate::TensorBase::matrix_norm) computes (PyTorch
/// `torch.linalg.matrix_norm(ord=...)`, NumPy `np.linalg.norm(x, ord=...)` for matrices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixNorm {
    /// Frobenius: `sqrt(Σ x²)` (`ord='fro'`).
    Fro,
    /// Nuclear: the sum of the singular values (`ord='nuc'`).
    Nuc,
    /// Spectral: the largest singular value (`ord=2`).
    Spectral,
    /// The largest absolute column sum (`ord=1`).
    L1,
    /// The largest absolute row sum (`ord=inf`).
    Inf,
}

/// faer's mutable view of a row-major `[m, n]` output buffer.
#[inline]
fn rows_mut<T>(out: &mut [T], m: usize, n: usize) -> MatMut<'_, T> {
    MatMut::from_row_major_slice_mut(out, m, n)
}

/// Calls `f(i, matrix)` for each matrix of the `[..b, m, n]` layout `l` of `data` (rank >= 2),
/// `i` counting in row-major batch order; stops at the first error.
pub(crate) fn for_each_matrix<T>(
    data: &[T],
    l: &Layout,
    mut f: impl FnMut(usize, MatRef<'_, T>) -> Result<(), ShapeError>,
) -> Result<(), ShapeError> {
    // faer's kernels may return with the vector registers dirty (see `clean_vector_state`).
    let _clean = super::faer_view::CleanOnDrop;
    let (offsets, sizes, strides) = l.matrices();
    for (i, off) in offsets.enumerate() {
        f(i, mat(data, off, sizes, strides))?;
    }
    Ok(())
}

/// Scratch memory for a faer routine.
fn scratch(req: faer::dyn_stack::StackReq) -> Result<MemBuffer, ShapeError> {
    MemBuffer::try_new(req).map_err(|_| ShapeError::Alloc { count: req.size_bytes(), elem_size: 1 })
}

fn n_eps<T: LinalgFloat>(n: usize) -> T {
    T::epsilon() * <T as num_traits::NumCast>::from(n.max(1)).unwrap_or_else(T::one)
}

/// The 1-norm (largest absolute column sum) of a matrix, walked in its storage order (column
/// sums accumulated row by row when rows are contiguous); NaN when an element is NaN.
fn norm1<T: LinalgFloat>(a: MatRef<'_, T>) -> T {
    let (m, n) = a.shape();
    let mut sums = alloc::vec![T::zero(); n];
    if a.col_stride().unsigned_abs() <= a.row_stride().unsigned_abs() {
        for i in 0..m {
            for (j, s) in sums.iter_mut().enumerate() {
                *s += a[(i, j)].abs();
            }
        }
    } else {
        for (j, s) in sums.iter_mut().enumerate() {
            *s = (0..m).fold(T::zero(), |acc, i| acc + a[(i, j)].abs());
        }
    }
    sums.into_iter().fold(T::zero(), |best, s| if s > best || s.is_nan() { s } else { best })
}

/// The pivots of an LU factorisation are usable: none is zero, NaN or infinite, and the
/// smallest is above `n · ε` times the largest.
fn pivots_ok<T: LinalgFloat>(u: MatRef<'_, T>) -> bool {
    let n = u.nrows().min(u.ncols());
    let (mut lo, mut hi) = (T::infinity(), T::zero());
    for i in 0..n {
        let p = u[(i, i)].abs();
        if !p.is_finite() {
            return false;
        }
        lo = lo.min(p);
        hi = hi.max(p);
    }
    n == 0 || lo > hi * n_eps::<T>(n)
}

/// The sign (`±1`) of a permutation given by where each position's element comes from.
fn perm_sign<T: LinalgFloat>(fwd: &[usize]) -> T {
    let mut seen = alloc::vec![false; fwd.len()];
    let mut odd = false;
    for s in 0..fwd.len() {
        let mut len = 0;
        let mut i = s;
        while !seen[i] {
            seen[i] = true;
            i = fwd[i];
            len += 1;
        }
        odd ^= len > 0 && len % 2 == 0;
    }
    if odd {
        -T::one()
    } else {
        T::one()
    }
}

/// `out = a⁻¹` (row-major `n * n`) by LU with partial pivoting and faer's triangular inverses;
/// false when `a` is singular to working precision (or its scratch cannot be allocated): `rcond = 1 / (‖A‖₁ ‖A⁻¹‖₁) <= n · ε` or a non-finite element (the rule of
/// `kernels::dense`).
pub(crate) fn inv<T: LinalgFloat>(a: MatRef<'_, T>, out: &mut [T]) -> bool {
    let _clean = super::faer_view::CleanOnDrop;
    let n = a.nrows();
    if n == 0 {
        return true;
    }
    // The LU of Aᵀ (faer copies its input into column-major storage: for a row-major `a`, the
    // transpose copies straight through) and `(Aᵀ)⁻¹` solved into the column-major view of `out`,
    // which read row-major is `A⁻¹`.
    let lu = a.transpose().partial_piv_lu();
    if !pivots_ok(lu.U()) {
        return false;
    }
    let req = faer::linalg::lu::partial_pivoting::inverse::inverse_scratch::<usize, T>(n, Par::Seq);
    let Ok(mut mem) = scratch(req) else { return false };
    let o = MatMut::from_column_major_slice_mut(out, n, n);
    faer::linalg::lu::partial_pivoting::inverse::inverse(o, lu.L(), lu.U(), lu.P(), Par::Seq, MemStack::new(&mut mem));
    if !out.iter().all(|v| v.is_finite()) {
        return false;
    }
    let prod = norm1(a) * norm1(MatRef::from_row_major_slice(out, n, n));
    prod.is_finite() && prod > T::zero() && prod * n_eps::<T>(n) < T::one()
}

/// `(sign, ln|det|)` of a square matrix by LU with partial pivoting: `(0, -inf)` when a pivot is
/// exactly zero (NumPy's `slogdet`), `(1, 0)` for `0x0`.
pub(crate) fn slogdet<T: LinalgFloat>(a: MatRef<'_, T>) -> (T, T) {
    if a.nrows() == 0 {
        return (T::one(), T::zero());
    }
    // The LU of A itself, not of Aᵀ (whose copy into faer's storage is faster): elimination by
    // rows meets two equal rows as an exactly zero pivot (the multiplier is 1), as LAPACK's
    // `getrf` does under NumPy, where two equal columns leave round-off.
    let lu = a.partial_piv_lu();
    let u = lu.U();
    let (mut sign, mut log) = (perm_sign::<T>(lu.P().arrays().0), T::zero());
    for i in 0..a.nrows() {
        let p = u[(i, i)];
        if p == T::zero() || exact_zero_pivot(a, p) {
            return (T::zero(), T::neg_infinity());
        }
        if p < T::zero() {
            sign = -sign;
        }
        log += p.abs().ln();
    }
    (sign, log)
}

/// The determinant of a square matrix by LU with partial pivoting (the product of the pivots
/// and the permutation's sign; 1 for `0x0`; 0 at an exactly zero pivot, see [`slogdet`]). The
/// product is kept as a fraction and a power of two, so that it overflows or underflows only
/// when the determinant itself does (then ±inf or 0, as IEEE).
pub(crate) fn det<T: LinalgFloat>(a: MatRef<'_, T>) -> T {
    let _clean = super::faer_view::CleanOnDrop;
    use crate::kernels::scale::{exponent, ldexp};
    if a.nrows() == 0 {
        return T::one();
    }
    let lu = a.partial_piv_lu();
    let u = lu.U();
    if (0..a.nrows()).any(|i| u[(i, i)] == T::zero() || exact_zero_pivot(a, u[(i, i)])) {
        return T::zero();
    }
    let (mut d, mut e) = (perm_sign::<T>(lu.P().arrays().0), 0i32);
    for i in 0..a.nrows() {
        d *= u[(i, i)];
        let k = exponent(d);
        d = ldexp(d, -k);
        e += k;
    }
    ldexp(d, e)
}

/// Whether a pivot `p` of faer's LU of `a` is NaN only because an earlier pivot was exactly zero:
/// faer then divides 0 by 0 and the NaN spreads through the rest of the factors, where LAPACK's
/// `getrf` skips the column. A NaN in `a` itself stays NaN.
fn exact_zero_pivot<T: LinalgFloat>(a: MatRef<'_, T>, p: T) -> bool {
    p.is_nan() && (0..a.ncols()).all(|j| (0..a.nrows()).all(|i| a[(i, j)].is_finite()))
}

/// `out = a⁻¹ b` (row-major `[n, k]`) by LU with partial pivoting; false when a pivot is zero,
/// non-finite, or at most `n · ε` times the largest (numerically singular), or the solution is
/// not finite.
pub(crate) fn solve<T: LinalgFloat>(a: MatRef<'_, T>, b: MatRef<'_, T>, out: &mut [T]) -> bool {
    let _clean = super::faer_view::CleanOnDrop;
    let (n, k) = (a.nrows(), b.ncols());
    if n == 0 {
        return true;
    }
    // Aᵀ factorised (see `inv`), then (Aᵀ)ᵀ x = b.
    let lu = a.transpose().partial_piv_lu();
    if !pivots_ok(lu.U()) {
        return false;
    }
    let mut x = rows_mut(out, n, k);
    x.copy_from(b);
    lu.solve_transpose_in_place(x);
    out.iter().all(|v| v.is_finite())
}

/// The lower Cholesky factor `L` of a symmetric positive-definite matrix (`a = L Lᵀ`, only the
/// lower triangle of `a` is read), into `out` (row-major `n * n`, upper triangle zero); false
/// when `a` is not positive definite.
pub(crate) fn cholesky<T: LinalgFloat>(a: MatRef<'_, T>, out: &mut [T]) -> bool {
    let n = a.nrows();
    let Ok(llt) = a.llt(Side::Lower) else { return false };
    let l = llt.L();
    for i in 0..n {
        for j in 0..n {
            out[i * n + j] = if j <= i { l[(i, j)] } else { T::zero() };
        }
    }
    true
}

/// `a = P L U` with partial pivoting (PyTorch's convention): `p` is `[m, m]`, `l` `[m, k]` (unit
/// lower), `u` `[k, n]` (upper), `k = min(m, n)`, all row-major.
pub(crate) fn lu<T: LinalgFloat>(a: MatRef<'_, T>, p: &mut [T], l: &mut [T], u: &mut [T]) {
    let (m, n) = a.shape();
    let k = m.min(n);
    if m == 0 {
        return;
    }
    let f = a.partial_piv_lu();
    let (lf, uf) = (f.L(), f.U());
    let finite = |x: MatRef<'_, T>| (0..x.ncols()).all(|j| (0..x.nrows()).all(|i| x[(i, j)].is_finite()));
    if finite(a) && !(finite(lf) && finite(uf)) {
        // An exactly zero pivot: faer's factors are NaN from there on (see `exact_zero_pivot`).
        return lu_skipping_zero_pivots(a, p, l, u);
    }
    let (fwd, _) = f.P().arrays();
    p.fill(T::zero());
    // Row i of the factorised matrix is row fwd[i] of `a`: a = Pᵀ (L U) in faer's terms.
    for (i, &src) in fwd.iter().enumerate() {
        p[src * m + i] = T::one();
    }
    rows_mut(l, m, k).copy_from(lf.get(.., ..k));
    rows_mut(u, k, n).copy_from(uf.get(..k, ..));
    let mut uu = rows_mut(u, k, n);
    for i in 0..k {
        for j in 0..i.min(n) {
            uu[(i, j)] = T::zero();
        }
    }
}

/// `a = P L U` by elimination with partial pivoting that skips a column whose pivot is exactly
/// zero, as LAPACK's `getrf` does: the factors of a singular matrix, which faer's LU fills with
/// NaN after a zero pivot. Used only then.
fn lu_skipping_zero_pivots<T: LinalgFloat>(a: MatRef<'_, T>, p: &mut [T], l: &mut [T], u: &mut [T]) {
    let (m, n) = a.shape();
    let k = m.min(n);
    let mut w: alloc::vec::Vec<T> = (0..m * n).map(|q| a[(q / n, q % n)]).collect();
    let mut perm: alloc::vec::Vec<usize> = (0..m).collect();
    for j in 0..k {
        let r = (j..m).fold(j, |best, i| if w[i * n + j].abs() > w[best * n + j].abs() { i } else { best });
        if r != j {
            for c in 0..n {
                w.swap(r * n + c, j * n + c);
            }
            perm.swap(r, j);
        }
        let piv = w[j * n + j];
        if piv != T::zero() {
            for i in j + 1..m {
                let f = w[i * n + j] / piv;
                w[i * n + j] = f;
                for c in j + 1..n {
                    w[i * n + c] = w[i * n + c] - f * w[j * n + c];
                }
            }
        }
    }
    p.fill(T::zero());
    for (i, &src) in perm.iter().enumerate() {
        p[src * m + i] = T::one();
    }
    for i in 0..m {
        for j in 0..k {
            l[i * k + j] = if i == j {
                T::one()
            } else if i > j {
                w[i * n + j]
            } else {
                T::zero()
            };
        }
    }
    for i in 0..k {
        for j in 0..n {
            u[i * n + j] = if j >= i { w[i * n + j] } else { T::zero() };
        }
    }
}

/// The reduced QR decomposition `a = Q R` by Householder reflections: `q` `[m, k]` with
/// orthonormal columns, `r` `[k, n]` upper triangular, `k = min(m, n)`, row-major.
pub(crate) fn qr<T: LinalgFloat>(a: MatRef<'_, T>, q: &mut [T], r: &mut [T]) {
    let (m, n) = a.shape();
    let k = m.min(n);
    if k == 0 {
        return;
    }
    let f = a.qr();
    rows_mut(q, m, k).copy_from(f.compute_thin_Q());
    rows_mut(r, k, n).copy_from(f.R().get(..k, ..));
}

/// When the largest `|element|` of `a` is far from 1 (outside `2^±(max exponent / 4)`), a copy of
/// `a` scaled by the power of two `2^-e` that brings it into `[0.5, 1)` (exact), and `e`: faer's
/// SVD and eigensolvers lose accuracy or fail to converge near the ends of the exponent range,
/// and singular values and eigenvalues scale back exactly (`σ(A) = 2^e σ(2^-e A)`), the vectors
/// not at all.
fn rescaled<T: LinalgFloat>(a: MatRef<'_, T>) -> Option<(faer::Mat<T>, i32)> {
    use crate::kernels::scale::{exponent, ldexp};
    let (m, n) = a.shape();
    let mut big = T::zero();
    for j in 0..n {
        for i in 0..m {
            let x = a[(i, j)].abs();
            if !x.is_finite() {
                return None;
            }
            big = big.max(x);
        }
    }
    let e = exponent(big);
    if big == T::zero() || e.abs() <= exponent(T::max_value()) / 4 {
        return None;
    }
    Some((faer::Mat::from_fn(m, n, |i, j| ldexp(a[(i, j)], -e)), e))
}

/// The thin SVD `a = U diag(s) Vh`: `u` `[m, k]` **column-major**, `s` `[k]` (nonincreasing),
/// `vh` `[k, n]` row-major, written in place by faer; vectors are skipped when `u`/`vh` are
/// `None`. (faer works on column-major storage: it gets `Aᵀ`, whose view of a row-major `a` is
/// column-major, and writes `Aᵀ = V S Uᵀ`'s `V` as the column-major `[n, k]` that `vh` is.)
pub(crate) fn svd<T: LinalgFloat>(
    a: MatRef<'_, T>,
    s: &mut [T],
    u: Option<&mut [T]>,
    vh: Option<&mut [T]>,
) -> Result<(), ShapeError> {
    svd_with(a, s, u, vh, false)
}

/// [`svd`] with the full square factors when `full`: `u` holds `m * m` elements (column-major
/// `[m, m]`) and `vh` `n * n` (row-major `[n, n]`), as `full_matrices=True`.
pub(crate) fn svd_with<T: LinalgFloat>(
    a: MatRef<'_, T>,
    s: &mut [T],
    u: Option<&mut [T]>,
    vh: Option<&mut [T]>,
    full: bool,
) -> Result<(), ShapeError> {
    let (m, n) = a.shape();
    let k = m.min(n);
    if k == 0 && !full {
        return Ok(());
    }
    if k == 0 {
        // No singular values: the full factors are identities.
        if let Some(u) = u {
            (0..m).for_each(|i| u[i * m + i] = T::one());
        }
        if let Some(vh) = vh {
            (0..n).for_each(|i| vh[i * n + i] = T::one());
        }
        return Ok(());
    }
    let kind = if full { ComputeSvdVectors::Full } else { ComputeSvdVectors::Thin };
    let want = |b: bool| if b { kind } else { ComputeSvdVectors::No };
    let req = svd::svd_scratch::<T>(n, m, want(vh.is_some()), want(u.is_some()), Par::Seq, default());
    let mut mem = scratch(req)?;
    let (ku, kv) = if full { (m, n) } else { (k, k) };
    let v_of_t = vh.map(|vh| MatMut::from_column_major_slice_mut(vh, n, kv));
    let u_of_t = u.map(|u| MatMut::from_column_major_slice_mut(u, m, ku));
    let scaled = rescaled(a);
    let a = scaled.as_ref().map_or(a, |(m, _)| m.as_ref());
    let diag = faer::diag::DiagMut::from_slice_mut(s);
    svd::svd(a.transpose(), diag, v_of_t, u_of_t, Par::Seq, MemStack::new(&mut mem), default())
        .map_err(|_| ShapeError::NoConvergence { op: "svd" })?;
    if let Some((_, e)) = scaled {
        s.iter_mut().for_each(|v| *v = crate::kernels::scale::ldexp(*v, e));
    }
    Ok(())
}

/// Eigenvalues (ascending) and, when `v` is given, orthonormal eigenvectors (the columns of `v`,
/// an `[n, n]` matrix stored **column-major**, as faer writes fastest) of a symmetric matrix; only
/// its lower triangle is read.
pub(crate) fn eigh<T: LinalgFloat>(a: MatRef<'_, T>, w: &mut [T], v: Option<&mut [T]>) -> Result<(), ShapeError> {
    let n = a.nrows();
    if n == 0 {
        return Ok(());
    }
    let want = if v.is_some() { ComputeEigenvectors::Yes } else { ComputeEigenvectors::No };
    let mut mem = scratch(evd::self_adjoint_evd_scratch::<T>(n, want, Par::Seq, default()))?;
    let v = v.map(|v| MatMut::from_column_major_slice_mut(v, n, n));
    let scaled = rescaled(a);
    let a = scaled.as_ref().map_or(a, |(m, _)| m.as_ref());
    let diag = faer::diag::DiagMut::from_slice_mut(w);
    evd::self_adjoint_evd(a, diag, v, Par::Seq, MemStack::new(&mut mem), default())
        .map_err(|_| ShapeError::NoConvergence { op: "eigh" })?;
    if let Some((_, e)) = scaled {
        w.iter_mut().for_each(|v| *v = crate::kernels::scale::ldexp(*v, e));
    }
    Ok(())
}

/// Eigenvalues and, when `v` is given, right eigenvectors (columns of the row-major `[n, n]`
/// `v`, each of unit 2-norm) of a general real matrix, as complex numbers.
pub(crate) fn eig<T: LinalgFloat>(
    a: MatRef<'_, T>,
    w: &mut [Complex<T>],
    v: Option<&mut [Complex<T>]>,
) -> Result<(), ShapeError> {
    let n = a.nrows();
    if n == 0 {
        return Ok(());
    }
    let err = |_| ShapeError::NoConvergence { op: "eig" };
    let scaled = rescaled(a);
    let a = scaled.as_ref().map_or(a, |(m, _)| m.as_ref());
    match v {
        None => {
            for (o, x) in w.iter_mut().zip(a.eigenvalues().map_err(err)?) {
                *o = Complex::new(x.re, x.im);
            }
        }
        Some(v) => {
            let e = a.eigen().map_err(err)?;
            let (s, u) = (e.S(), e.U());
            for i in 0..n {
                let x = &s[i];
                w[i] = Complex::new(x.re, x.im);
            }
            for j in 0..n {
                // Unit 2-norm columns, as LAPACK's geev returns them.
                let norm = (0..n).fold(T::zero(), |acc, i| acc.hypot(u[(i, j)].re.hypot(u[(i, j)].im)));
                let r = if norm > T::zero() { norm.recip() } else { T::one() };
                for i in 0..n {
                    let x = &u[(i, j)];
                    v[i * n + j] = Complex::new(x.re * r, x.im * r);
                }
            }
        }
    }
    if let Some((_, e)) = scaled {
        use crate::kernels::scale::ldexp;
        w.iter_mut().for_each(|z| *z = Complex::new(ldexp(z.re, e), ldexp(z.im, e)));
    }
    Ok(())
}

/// The cutoff below which singular values count as zero: `rtol · σ_max`, with
/// `rtol = max(m, n) · ε` when not given (NumPy's and PyTorch's default).
pub(crate) fn cutoff<T: LinalgFloat>(s: &[T], m: usize, n: usize, rtol: Option<T>) -> T {
    let smax = s.first().copied().unwrap_or_else(T::zero);
    rtol.unwrap_or_else(|| n_eps::<T>(m.max(n))) * smax
}

/// `x = V diag(1/σ) Uᵀ b` over the singular values above the cutoff: the minimum-norm
/// least-squares solution of `a x ≈ b` (`b` `[m, k]`, `x` `[n, k]` row-major), as LAPACK's
/// `gelsd`. Writes the singular values into `s` (`min(m, n)` long) and returns the rank.
pub(crate) fn lstsq<T: LinalgFloat>(
    a: MatRef<'_, T>,
    b: MatRef<'_, T>,
    x: &mut [T],
    s: &mut [T],
    rtol: Option<T>,
) -> Result<usize, ShapeError> {
    let (m, n) = a.shape();
    let (kk, k) = (m.min(n), b.ncols());
    x.fill(T::zero());
    if kk == 0 || k == 0 {
        return Ok(0);
    }
    let mut u = crate::memory::try_vec(m * kk, T::zero())?;
    let mut vh = crate::memory::try_vec(kk * n, T::zero())?;
    svd(a, s, Some(&mut u), Some(&mut vh))?;
    let tol = cutoff(s, m, n, rtol);
    let rank = s.iter().take_while(|&&v| v > tol).count();
    if rank == 0 {
        return Ok(0);
    }
    // c = diag(1/σ) Uᵀ b over the kept singular values, then x = Vᵀ... = Vh[..rank]ᵀ c.
    let mut c = crate::memory::try_vec(rank * k, T::zero())?;
    let ur = MatRef::from_column_major_slice(&u, m, kk).get(.., ..rank);
    faer::linalg::matmul::matmul(rows_mut(&mut c, rank, k), Accum::Replace, ur.transpose(), b, T::one(), Par::Seq);
    for (i, row) in c.chunks_exact_mut(k).enumerate() {
        let r = s[i].recip();
        row.iter_mut().for_each(|v| *v *= r);
    }
    let vr = MatRef::from_row_major_slice(&vh, kk, n).get(..rank, ..);
    let c = MatRef::from_row_major_slice(&c, rank, k);
    faer::linalg::matmul::matmul(rows_mut(x, n, k), Accum::Replace, vr.transpose(), c, T::one(), Par::Seq);
    Ok(rank)
}

/// The pseudo-inverse `[n, m]` of an `[m, n]` matrix through its SVD, singular values at or
/// below the cutoff dropped (PyTorch `linalg.pinv`).
pub(crate) fn pinv<T: LinalgFloat>(a: MatRef<'_, T>, out: &mut [T], rtol: Option<T>) -> Result<(), ShapeError> {
    let m = a.nrows();
    let mut eye = crate::memory::try_vec(m * m, T::zero())?;
    for i in 0..m {
        eye[i * m + i] = T::one();
    }
    let mut s = crate::memory::try_vec(m.min(a.ncols()), T::zero())?;
    lstsq(a, MatRef::from_row_major_slice(&eye, m, m), out, &mut s, rtol).map(drop)
}

/// A matrix norm of `a`.
pub(crate) fn matrix_norm<T: LinalgFloat>(a: MatRef<'_, T>, ord: MatrixNorm) -> Result<T, ShapeError> {
    use MatrixNorm as M;
    let (m, n) = a.shape();
    let abs_sums = |by_rows: bool| {
        let (outer, inner) = if by_rows { (m, n) } else { (n, m) };
        (0..outer).fold(T::zero(), |best, o| {
            let s = (0..inner).fold(T::zero(), |s, i| s + if by_rows { a[(o, i)] } else { a[(i, o)] }.abs());
            if s > best || s.is_nan() {
                s
            } else {
                best
            }
        })
    };
    Ok(match ord {
        M::Fro => a.norm_l2(),
        M::L1 => abs_sums(false),
        M::Inf => abs_sums(true),
        M::Nuc | M::Spectral => {
            let mut s = crate::memory::try_vec(m.min(n), T::zero())?;
            svd(a, &mut s, None, None)?;
            match ord {
                M::Nuc => s.iter().fold(T::zero(), |acc, &v| acc + v),
                _ => s.first().copied().unwrap_or_else(T::zero),
            }
        }
    })
}
