//! Linear algebra that reuses work: triangular solves, and factorisations kept as objects that
//! solve many right-hand sides without factorising again (PyTorch `torch.linalg.solve_triangular`,
//! `cholesky_solve`, `lu_factor` + `lu_solve`; SciPy `cho_factor`/`cho_solve`,
//! `lu_factor`/`lu_solve`), with `det` and `inverse` from the factors; `multi_dot` and
//! `matrix_exp`.
//!
//! A triangular solve is forward or back substitution (`kernels::dense::solve_tri`) on
//! contiguous copies of the operands (the rows of the right side updated as whole slices); a zero
//! on a non-unit diagonal is a
//! [`ShapeError::Singular`], never inf or NaN from a division by it.
#[cfg(feature = "linalg")]
use crate::error::OrPanic;
use crate::error::ShapeError;
use crate::kernels;
use crate::kernels::dense::solve_tri;
use crate::num::MatrixFloat;
#[cfg(feature = "linalg")]
use crate::shape::{BatchShape, DynShape, MatrixBatch};
use crate::shape::{Shape, SolveRhs, SquareShape};
use crate::storage::Data;
#[cfg(feature = "linalg")]
use crate::storage::Element;
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// The operands of a batched solve: `a` row-major `[ba, n, n]`, `b` row-major `[bb, n, k]`
/// (a vector right side has `k = 1`), with `ba` 1 or equal to `bb`.
struct Batched<T> {
    a: Vec<T>,
    n: usize,
    ba: usize,
    b: Vec<T>,
    k: usize,
    bb: usize,
}

impl<T: MatrixFloat> Batched<T> {
    fn new(
        op: &'static str,
        (a, la): (&[T], &crate::layout::Layout),
        (b, lb): (&[T], &crate::layout::Layout),
    ) -> Result<Self, ShapeError> {
        Self::with(op, (a, la), (b, lb), true)
    }
    /// [`new`](Self::new); a right side of rank `r - 1` is a batch of vectors only when
    /// `vectors`.
    fn with(
        op: &'static str,
        (a, la): (&[T], &crate::layout::Layout),
        (b, lb): (&[T], &crate::layout::Layout),
        vectors: bool,
    ) -> Result<Self, ShapeError> {
        let (sa, sb) = (la.sizes(), lb.sizes());
        let bad = || ShapeError::Mismatch {
            op,
            what: "(a: [..b, n, n], b: [..b, n] or [..b, n, k], with the same batch dims or an unbatched a)".into(),
            lhs: sa.into(),
            rhs: sb.into(),
        };
        let r = sa.len();
        if r < 2 || sa[r - 1] != sa[r - 2] {
            return Err(ShapeError::Invalid(format!(
                "{op}: needs a square [n, n] matrix or a batch [..b, n, n], got sizes {sa:?}"
            )));
        }
        let n = sa[r - 1];
        let vector = vectors && (sb.len() + 1 == r || (r == 2 && sb.len() == 1));
        let (rows, k, bdims) = match (vector, sb.len()) {
            (true, l) if l >= 1 => (sb[l - 1], 1, &sb[..l - 1]),
            (false, l) if l >= 2 => (sb[l - 2], sb[l - 1], &sb[..l - 2]),
            _ => return Err(bad()),
        };
        let adims = &sa[..r - 2];
        if rows != n || (!adims.is_empty() && adims != bdims) {
            return Err(bad());
        }
        let ba: usize = adims.iter().product();
        let bb: usize = bdims.iter().product();
        Ok(Batched { a: kernels::to_vec(a, la)?, n, ba, b: kernels::to_vec(b, lb)?, k, bb })
    }
    /// Runs `f(ai, a_ai, b_i)` on each matrix of the batch (`ai` the index of the matrix of `a`
    /// paired with `b_i`); the first failure is an error naming `op`.
    fn each(&mut self, op: &'static str, mut f: impl FnMut(usize, &[T], &mut [T]) -> bool) -> Result<(), ShapeError> {
        let (n, k) = (self.n, self.k);
        for i in 0..self.bb {
            let ai = if self.ba == 1 { 0 } else { i };
            let usable = f(ai, &self.a[ai * n * n..(ai + 1) * n * n], &mut self.b[i * n * k..(i + 1) * n * k]);
            ShapeError::singular_unless(usable, op, n)?;
        }
        Ok(())
    }
}

/// Triangular solves (float element types with matrix routines).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: MatrixFloat,
{
    /// The solution `x` of `self · x = b` for a triangular `self` (PyTorch
    /// `torch.linalg.solve_triangular(self, b, upper=upper, unitriangular=unitriangular)`,
    /// SciPy `solve_triangular`): `self` is `[n, n]` or a batch `[..b, n, n]`, `b` is `[n]`,
    /// `[n, k]` or the batched forms, and `x` has `b`'s shape. Only the triangle named by
    /// `upper` is read; with `unitriangular` the diagonal is taken as ones and not read. For
    /// `x · self = b` see [`solve_triangular_right`](Self::solve_triangular_right).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let l: Tensor<f64, Shape![2, 2]> = Tensor::from([[2.0, 0.0], [1.0, 4.0]]);
    /// let x: Tensor<f64, Shape![2]> = l.solve_triangular(&Tensor::from([2.0, 9.0]), false, false);
    /// assert_eq!(x.to_vec(), [1.0, 2.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Singular`] when a diagonal element is zero (and `unitriangular` is false);
    /// [`ShapeError::Mismatch`] naming both shapes when runtime sizes do not fit as above (static
    /// ones are a compile error); [`ShapeError::Invalid`] for a runtime non-square `self`;
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_solve_triangular<D2: Data<Elem = D::Elem>, SB: SolveRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
        upper: bool,
        unitriangular: bool,
    ) -> Result<Tensor<D::Elem, SB>, ShapeError>
    where
        S: SquareShape,
    {
        let mut p =
            Batched::new("solve_triangular", (self.data.as_slice(), self.layout()), (b.data.as_slice(), b.layout()))?;
        let (n, k) = (p.n, p.k);
        p.each("solve_triangular", |_, a, x| solve_tri(a, n, x, k, upper, false, unitriangular))?;
        Tensor::try_from_vec(b.sizes(), p.b)
    }

    /// The solution `x` of `x · self = b` for a triangular `self` (PyTorch
    /// `torch.linalg.solve_triangular(self, b, upper=upper, left=False,
    /// unitriangular=unitriangular)`): `self` is `[n, n]` or `[..b, n, n]`, `b` is `[k, n]` or
    /// `[..b, k, n]` (its columns are `self`'s rows), and `x` has `b`'s shape. Solved as
    /// `selfᵀ · xᵀ = bᵀ` with the same kernel, no copy of `self`'s transpose.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let u: Tensor<f64, Shape![2, 2]> = Tensor::from([[2.0, 1.0], [0.0, 4.0]]);
    /// let x: Tensor<f64, Shape![1, 2]> = u.solve_triangular_right(&Tensor::from([[2.0, 9.0]]), true, false);
    /// assert_eq!(x.to_vec(), [1.0, 2.0]); // [1, 2] · u = [2, 9]
    /// ```
    ///
    /// # Errors
    /// As [`try_solve_triangular`](Self::try_solve_triangular); the right side's shape is checked
    /// at run time (its last dim against `n`, its batch dims against `self`'s).
    #[try_twin]
    pub fn try_solve_triangular_right<D2: Data<Elem = D::Elem>, SB: crate::shape::MatrixBatch>(
        &self,
        b: &TensorBase<D2, SB>,
        upper: bool,
        unitriangular: bool,
    ) -> Result<Tensor<D::Elem, SB>, ShapeError>
    where
        S: SquareShape,
    {
        let r = b.rank();
        let lt = b.layout().transpose(r.saturating_sub(2), r.saturating_sub(1))?;
        let mut p =
            Batched::with("solve_triangular", (self.data.as_slice(), self.layout()), (b.data.as_slice(), &lt), false)?;
        let (n, k) = (p.n, p.k);
        // xᵀ solves selfᵀ · xᵀ = bᵀ: the transpose of an upper matrix is lower.
        p.each("solve_triangular", |_, a, x| solve_tri(a, n, x, k, !upper, true, unitriangular))?;
        // p.b holds xᵀ row-major, [..b, n, k]; back to [..b, k, n].
        let mut sizes = lt.sizes().to_vec();
        let xt = Tensor::<D::Elem, crate::shape::DynShape>::try_from_vec(&sizes, p.b)?;
        sizes.swap(r - 2, r - 1);
        let x = kernels::to_vec(xt.data.as_slice(), &xt.layout().transpose(r - 2, r - 1)?)?;
        Tensor::try_from_vec(&sizes, x)
    }

    /// The solution `x` of `A x = self` given the lower Cholesky factor `l` of `A` (`A = l lᵀ`,
    /// from [`cholesky`](Self::cholesky)): PyTorch `torch.cholesky_solve(self, l)`, SciPy
    /// `cho_solve`. Two triangular solves, no factorisation: `self` is the right side (`[n]`,
    /// `[n, k]` or batched), `x` has its shape.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let l: Tensor<f64, Shape![2, 2]> = Tensor::from([[2.0, 0.0], [1.0, 1.0]]); // A = [[4, 2], [2, 2]]
    /// let x = Tensor::from([6.0, 4.0]).cholesky_solve(&l);
    /// assert_eq!(x.to_vec(), [1.0, 1.0]);
    /// ```
    ///
    /// # Errors
    /// As [`try_solve_triangular`](Self::try_solve_triangular) (a zero on `l`'s diagonal is
    /// [`ShapeError::Singular`]).
    #[try_twin]
    pub fn try_cholesky_solve<D2: Data<Elem = D::Elem>, SL: SquareShape>(
        &self,
        l: &TensorBase<D2, SL>,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: SolveRhs<SL>,
    {
        let mut p =
            Batched::new("cholesky_solve", (l.data.as_slice(), l.layout()), (self.data.as_slice(), self.layout()))?;
        let (n, k) = (p.n, p.k);
        p.each("cholesky_solve", |_, a, x| {
            solve_tri(a, n, x, k, false, false, false) && solve_tri(a, n, x, k, true, true, false)
        })?;
        Tensor::try_from_vec(self.sizes(), p.b)
    }
}

/// A Cholesky factorisation `A = L Lᵀ` of a symmetric positive-definite matrix (or of each of a
/// batch), kept to solve many right-hand sides (SciPy `cho_factor`; PyTorch
/// `torch.linalg.cholesky` then `torch.cholesky_solve`). Built by
/// [`cholesky_factor`](TensorBase::cholesky_factor).
#[cfg(feature = "linalg")]
#[derive(Clone, Debug)]
pub struct CholeskyFactor<T: Element, S: Shape> {
    l: Tensor<T, S>,
}

/// An LU factorisation with partial pivoting `A = P L U` of a square matrix (or of each of a
/// batch), kept to solve many right-hand sides (PyTorch `torch.linalg.lu_factor` + `lu_solve`,
/// SciPy `lu_factor`/`lu_solve`). Built by [`lu_factor`](TensorBase::lu_factor).
#[cfg(feature = "linalg")]
#[derive(Clone, Debug)]
pub struct LuFactor<T: Element, S: Shape> {
    /// `L` and `U` row-major, `[..b, n, n]` each.
    l: Tensor<T, S>,
    u: Tensor<T, S>,
    /// Per matrix: row `i` of `L U` is row `perm[i]` of `A`.
    perm: Vec<usize>,
    /// Per matrix: the sign of the permutation.
    sign: Vec<T>,
}

#[cfg(feature = "linalg")]
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: MatrixFloat + crate::num::LinalgFloat,
{
    /// The Cholesky factorisation of `self` (`[n, n]` or `[..b, n, n]`, symmetric positive
    /// definite; only the lower triangle is read), kept for [`CholeskyFactor::solve`],
    /// [`det`](CholeskyFactor::det) and [`inverse`](CholeskyFactor::inverse).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f64, Shape![2, 2]> = Tensor::from([[4.0, 2.0], [2.0, 2.0]]);
    /// let f = a.cholesky_factor();
    /// assert_eq!(f.solve(&Tensor::from([6.0, 4.0])).to_vec(), [1.0, 1.0]);
    /// assert_eq!(f.solve(&Tensor::from([2.0, 0.0])).to_vec(), [1.0, -1.0]);
    /// assert_eq!(f.det(), 4.0);
    /// ```
    ///
    /// # Errors
    /// As [`try_cholesky`](Self::try_cholesky): [`ShapeError::NotPositiveDefinite`], ...
    #[try_twin(alias = "cho_factor")]
    pub fn try_cholesky_factor(&self) -> Result<CholeskyFactor<D::Elem, S>, ShapeError>
    where
        S: SquareShape,
    {
        Ok(CholeskyFactor { l: self.try_cholesky()? })
    }

    /// The LU factorisation with partial pivoting of `self` (`[n, n]` or `[..b, n, n]`), kept
    /// for [`LuFactor::solve`], [`det`](LuFactor::det) and [`inverse`](LuFactor::inverse).
    /// Computed by faer. A singular matrix factorises; solving with it is the error.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f64, Shape![2, 2]> = Tensor::from([[0.0, 2.0], [1.0, 1.0]]);
    /// let f = a.lu_factor();
    /// assert_eq!(f.solve(&Tensor::from([4.0, 3.0])).to_vec(), [1.0, 2.0]);
    /// assert_eq!(f.det(), -2.0);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a runtime non-square shape; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_lu_factor(&self) -> Result<LuFactor<D::Elem, S>, ShapeError>
    where
        S: SquareShape,
    {
        let (_, n) = super::square::Mats::square(self.sizes(), "lu_factor")?;
        let (p, l, u): (Tensor<D::Elem, DynShape>, Tensor<D::Elem, DynShape>, Tensor<D::Elem, DynShape>) =
            self.as_dyn().try_lu::<crate::dim::Dyn>()?;
        let pv = p.to_vec();
        let count = if n == 0 { 0 } else { pv.len() / (n * n) };
        let mut perm = Vec::with_capacity(count * n);
        let mut sign = Vec::with_capacity(count);
        for m in 0..count {
            let pm = &pv[m * n * n..(m + 1) * n * n];
            let start = perm.len();
            // P[r][i] = 1: row i of L U is row r of A.
            perm.extend((0..n).map(|i| (0..n).find(|&r| pm[r * n + i] == D::Elem::ONE).unwrap_or(i)));
            let mut seen = alloc::vec![false; n];
            let mut s = D::Elem::ONE;
            for i in 0..n {
                let (mut j, mut len) = (i, 0usize);
                while !seen[j] {
                    seen[j] = true;
                    j = perm[start + j];
                    len += 1;
                }
                if len > 0 && len % 2 == 0 {
                    s = -s;
                }
            }
            sign.push(s);
        }
        let sizes = self.sizes();
        Ok(LuFactor {
            l: Tensor::try_from_vec(sizes, l.to_vec())?,
            u: Tensor::try_from_vec(sizes, u.to_vec())?,
            perm,
            sign,
        })
    }
}

/// The identity batch of `[..b, n, n]`, as a right side.
#[cfg(feature = "linalg")]
fn identities<T: Element, S: Shape>(sizes: &[usize]) -> Result<Tensor<T, S>, ShapeError> {
    let n = sizes.last().copied().unwrap_or(0);
    let count: usize = sizes.iter().product();
    let mut v = kernels::try_vec(count, T::ZERO)?;
    if n > 0 {
        for m in v.chunks_exact_mut(n * n) {
            (0..n).for_each(|i| m[i * n + i] = T::ONE);
        }
    }
    Tensor::try_from_vec(sizes, v)
}

/// The product of each matrix's diagonal of `x` (`[..b, n, n]` row-major), times `scale(i)`.
#[cfg(feature = "linalg")]
fn diag_products<T: MatrixFloat, S: MatrixBatch>(
    x: &[T],
    sizes: &[usize],
    mut f: impl FnMut(usize, T) -> T,
) -> Result<<S::Batch as BatchShape>::Of<T>, ShapeError> {
    let n = sizes.last().copied().unwrap_or(0);
    let batch = &sizes[..sizes.len().saturating_sub(2)];
    S::Batch::build(batch, |out: &mut [T]| {
        for (i, o) in out.iter_mut().enumerate() {
            let p = (0..n).fold(T::ONE, |p, j| p * x[i * n * n + j * n + j]);
            *o = f(i, p);
        }
        Ok(())
    })
}

#[cfg(feature = "linalg")]
impl<T: MatrixFloat, S: SquareShape> CholeskyFactor<T, S> {
    /// The lower factor `L`, `[..b, n, n]`.
    pub fn l(&self) -> &Tensor<T, S> {
        &self.l
    }
    /// The solution `x` of `A x = b` for each right side `b` (`[n]`, `[n, k]` or batched), of
    /// `b`'s shape: two triangular solves with the kept factor (SciPy `cho_solve`).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] naming both shapes when runtime sizes do not fit;
    /// [`ShapeError::Alloc`].
    #[try_twin(alias = "cho_solve")]
    pub fn try_solve<D2: Data<Elem = T>, SB: SolveRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
    ) -> Result<Tensor<T, SB>, ShapeError> {
        b.try_cholesky_solve(&self.l)
    }
    /// `det(A)`, the squared product of `L`'s diagonal: a scalar for one matrix, `[..b]` for a
    /// batch.
    pub fn det(&self) -> <S::Batch as BatchShape>::Of<T> {
        diag_products::<T, S>(self.l.data.as_slice(), self.l.sizes(), |_, p| p * p).or_panic()
    }
    /// `A⁻¹`, by solving against the identity with the kept factor.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_inverse(&self) -> Result<Tensor<T, S>, ShapeError>
    where
        S: SolveRhs<S>,
    {
        self.try_solve(&identities::<T, S>(self.l.sizes())?)
    }
}

#[cfg(feature = "linalg")]
impl<T: MatrixFloat, S: SquareShape> LuFactor<T, S> {
    /// The unit lower factor `L`, `[..b, n, n]`.
    pub fn l(&self) -> &Tensor<T, S> {
        &self.l
    }
    /// The upper factor `U`, `[..b, n, n]`.
    pub fn u(&self) -> &Tensor<T, S> {
        &self.u
    }
    /// The solution `x` of `A x = b` for each right side `b` (`[n]`, `[n, k]` or batched), of
    /// `b`'s shape: the rows of `b` permuted, then two triangular solves with the kept factors
    /// (PyTorch `torch.linalg.lu_solve`, SciPy `lu_solve`).
    ///
    /// # Errors
    /// [`ShapeError::Singular`] when `U` has a zero on its diagonal (`A` is singular);
    /// [`ShapeError::Mismatch`] naming both shapes when runtime sizes do not fit;
    /// [`ShapeError::Alloc`].
    #[try_twin(alias = "lu_solve")]
    pub fn try_solve<D2: Data<Elem = T>, SB: SolveRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
    ) -> Result<Tensor<T, SB>, ShapeError> {
        // `L` is the batch's `a` (copied once, row-major); `U` and `L` were built row-major.
        let mut p =
            Batched::new("lu_solve", (self.l.data.as_slice(), self.l.layout()), (b.data.as_slice(), b.layout()))?;
        let (n, k) = (p.n, p.k);
        let (u, perm) = (self.u.data.as_slice(), &self.perm);
        let mut rows = kernels::try_vec(n * k, T::ZERO)?;
        p.each("lu_solve", |am, li, x| {
            for (i, row) in rows.chunks_exact_mut(k.max(1)).take(n).enumerate() {
                row.copy_from_slice(&x[perm[am * n + i] * k..][..k]);
            }
            x.copy_from_slice(&rows);
            let ui = &u[am * n * n..][..n * n];
            solve_tri(li, n, x, k, false, false, true) && solve_tri(ui, n, x, k, true, false, false)
        })?;
        Tensor::try_from_vec(b.sizes(), p.b)
    }
    /// `det(A)`: the sign of the permutation times the product of `U`'s diagonal (0 for a
    /// singular matrix); a scalar for one matrix, `[..b]` for a batch.
    pub fn det(&self) -> <S::Batch as BatchShape>::Of<T> {
        diag_products::<T, S>(self.u.data.as_slice(), self.u.sizes(), |i, p| self.sign[i] * p).or_panic()
    }
    /// `A⁻¹`, by solving against the identity with the kept factors.
    ///
    /// # Errors
    /// [`ShapeError::Singular`]; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_inverse(&self) -> Result<Tensor<T, S>, ShapeError>
    where
        S: SolveRhs<S>,
    {
        self.try_solve(&identities::<T, S>(self.u.sizes())?)
    }
}

/// `a @ b` for row-major `[m, k]` and `[k, n]` matrices, through the crate's product.
fn mm<T: MatrixFloat>(a: &[T], (m, k): (usize, usize), b: &[T], n: usize) -> Result<Vec<T>, ShapeError> {
    let ta = Tensor::<T, crate::shape::DynShape>::try_from_vec(&[m, k], a.to_vec())?;
    let tb = Tensor::<T, crate::shape::DynShape>::try_from_vec(&[k, n], b.to_vec())?;
    Ok(ta.try_matmul(&tb)?.to_vec())
}

/// `exp(a)` of one row-major `[n, n]` matrix: Higham's scaling and squaring with the degree-13
/// Padé approximant ("The scaling and squaring method for the matrix exponential revisited",
/// 2005; SciPy's `expm` and PyTorch's `matrix_exp` use the same method).
fn expm<T: MatrixFloat>(a: &[T], n: usize) -> Result<Vec<T>, ShapeError> {
    const B: [f64; 14] = [
        64764752532480000.0,
        32382376266240000.0,
        7771770303897600.0,
        1187353796428800.0,
        129060195264000.0,
        10559470521600.0,
        670442572800.0,
        33522128640.0,
        1323241920.0,
        40840800.0,
        960960.0,
        16380.0,
        182.0,
        1.0,
    ];
    const THETA13: f64 = 5.371920351148152;
    let c = |v: f64| T::from(v).unwrap_or_else(T::nan);
    // The Padé coefficients divided by b0: the quotient (V - U)⁻¹ (V + U) is the same, and
    // V starts at the identity, so exp(0) is exactly I in every float type.
    let b = |i: usize| B[i] / B[0];
    if a.iter().any(|v| !v.is_finite()) {
        return Ok(alloc::vec![T::nan(); n * n]);
    }
    // log2 of the 1-norm (the largest column sum of |a|), in f64. Sums of f64 elements near the
    // type's largest value overflow to inf (`[[1e308, 1e308], [1e308, 1e308]]`): they are
    // summed again with the elements scaled by 2^-512 (exact, every element is then below
    // 2^512), so the squaring count stays finite (it was `log2(inf)` saturated to i32::MAX).
    let log2_norm = |k: i32| {
        let f = libm::exp2(-f64::from(k));
        let norm = (0..n)
            .map(|j| (0..n).fold(0.0f64, |s, i| s + libm::fabs(a[i * n + j].to_f64().unwrap_or(f64::NAN)) * f))
            .fold(0.0, f64::max);
        libm::log2(norm) + f64::from(k)
    };
    let mut log2_norm1 = log2_norm(0);
    if log2_norm1.is_infinite() && log2_norm1 > 0.0 {
        log2_norm1 = log2_norm(512);
    }
    // At most 1024 + 512 + log2(n) + 1 squarings for finite elements of any float type.
    let s = if log2_norm1 > libm::log2(THETA13) { libm::ceil(log2_norm1 - libm::log2(THETA13)) as i32 } else { 0 };
    // A by 2^-s in steps of at most 2^-64, so that the scale itself never underflows (2^-s alone
    // is zero in f64 past s = 1074, in f32 past 149); each step is exact but for underflowing
    // elements, which are negligible against the norm.
    let mut a: Vec<T> = a.to_vec();
    let mut left = s;
    while left > 0 {
        let k = left.min(64);
        let scale = c(libm::exp2(-f64::from(k)));
        a.iter_mut().for_each(|v| *v = *v * scale);
        left -= k;
    }
    let mut eye = alloc::vec![T::ZERO; n * n];
    (0..n).for_each(|i| eye[i * n + i] = T::ONE);
    let a2 = mm(&a, (n, n), &a, n)?;
    let a4 = mm(&a2, (n, n), &a2, n)?;
    let a6 = mm(&a4, (n, n), &a2, n)?;
    let comb = |w: [f64; 4]| -> Vec<T> {
        (0..n * n).map(|i| c(w[0]) * a6[i] + c(w[1]) * a4[i] + c(w[2]) * a2[i] + c(w[3]) * eye[i]).collect()
    };
    let u_in = comb([b(13), b(11), b(9), 0.0]);
    let u_tail = comb([b(7), b(5), b(3), b(1)]);
    let u_sum: Vec<T> = mm(&a6, (n, n), &u_in, n)?.iter().zip(&u_tail).map(|(&x, &y)| x + y).collect();
    let u = mm(&a, (n, n), &u_sum, n)?;
    let v_in = comb([b(12), b(10), b(8), 0.0]);
    let v_tail = comb([b(6), b(4), b(2), b(0)]);
    let v: Vec<T> = mm(&a6, (n, n), &v_in, n)?.iter().zip(&v_tail).map(|(&x, &y)| x + y).collect();
    let p =
        Tensor::<T, crate::shape::DynShape>::try_from_vec(&[n, n], v.iter().zip(&u).map(|(&x, &y)| x - y).collect())?;
    let q =
        Tensor::<T, crate::shape::DynShape>::try_from_vec(&[n, n], v.iter().zip(&u).map(|(&x, &y)| x + y).collect())?;
    let mut x = p.try_solve(&q)?.to_vec();
    for _ in 0..s {
        x = mm(&x, (n, n), &x, n)?;
    }
    Ok(x)
}

/// The matrix exponential and the chained product (float element types with matrix routines).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: MatrixFloat,
{
    /// The matrix exponential `exp(A) = Σ Aᵏ/k!` of a square matrix or of each of a batch,
    /// `[..b, n, n] -> [..b, n, n]` (PyTorch `torch.linalg.matrix_exp`, SciPy `expm`): scaling
    /// and squaring with the degree-13 Padé approximant, as both. A matrix with a non-finite
    /// element gives NaN. Finite elements of any size take at most about `1024 + log2(n)`
    /// squarings (for elements near `f64::MAX`), and an exponential past the type's range has
    /// `inf`/NaN elements, as PyTorch's.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f64, Shape![2, 2]> = Tensor::from([[0.0, 1.0], [0.0, 0.0]]);
    /// assert_eq!(a.matrix_exp().to_vec(), [1.0, 1.0, 0.0, 1.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a runtime non-square shape; [`ShapeError::Singular`] if the
    /// Padé denominator is singular (not for finite input of a representable exponential);
    /// [`ShapeError::Alloc`].
    #[doc(alias = "expm")]
    #[try_twin(alias = "expm")]
    pub fn try_matrix_exp(&self) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: SquareShape,
    {
        let (_, n) = super::square::Mats::square(self.sizes(), "matrix_exp")?;
        let x = kernels::to_vec(self.data.as_slice(), self.layout())?;
        let mut out = kernels::try_with_capacity(x.len())?;
        if n > 0 {
            for m in x.chunks_exact(n * n) {
                out.extend(expm(m, n)?);
            }
        }
        Tensor::try_from_vec(self.sizes(), out)
    }
}

impl<T: MatrixFloat> Tensor<T, crate::shape::DynShape> {
    /// The product of the matrices `xs` in the order of fewest multiplications (PyTorch
    /// `torch.linalg.multi_dot`, NumPy `np.linalg.multi_dot`): the parenthesisation is chosen by
    /// the classic dynamic programme over the dims. The first operand may be 1-D (a row) and the
    /// last 1-D (a column); those dims are dropped from the result, as NumPy does. A
    /// [`DynShape`] result.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let a = Tensor::<f64, DynShape>::ones_sized(&[10, 100]);
    /// let b = Tensor::<f64, DynShape>::ones_sized(&[100, 5]);
    /// let c = Tensor::<f64, DynShape>::ones_sized(&[5, 50]);
    /// let p = Tensor::multi_dot(&[&a, &b, &c]); // (a b) c: 7,500 products instead of 75,000
    /// assert_eq!(p.sizes(), &[10, 50]);
    /// assert_eq!(p.to_vec()[0], 500.0);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for fewer than two operands or one that is not 2-D (but the 1-D
    /// ends); [`ShapeError::MatMul`] naming both shapes when neighbouring dims differ;
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_multi_dot<S: Shape>(xs: &[&TensorBase<impl Data<Elem = T>, S>]) -> Result<Self, ShapeError> {
        let k = xs.len();
        if k < 2 {
            return Err(ShapeError::Invalid(format!("multi_dot: needs at least two operands, got {k}")));
        }
        let mut mats: Vec<(Vec<T>, usize, usize)> = Vec::with_capacity(k);
        for (i, x) in xs.iter().enumerate() {
            let s = x.sizes();
            let (r, c) = match (s.len(), i) {
                (2, _) => (s[0], s[1]),
                (1, 0) => (1, s[0]),
                (1, j) if j == k - 1 => (s[0], 1),
                _ => return Err(ShapeError::Invalid(format!("multi_dot: operand {i} of shape {s:?} is not a matrix"))),
            };
            if let Some((_, _, pc)) = mats.last() {
                if *pc != r {
                    return Err(ShapeError::MatMul { lhs: xs[i - 1].sizes().into(), rhs: s.into() });
                }
            }
            mats.push((kernels::to_vec(x.data.as_slice(), x.layout())?, r, c));
        }
        // dims[i], dims[i + 1]: the sizes of matrix i; cost[i][j], split[i][j] over chains i..=j.
        let dims: Vec<u128> = core::iter::once(mats[0].1).chain(mats.iter().map(|m| m.2)).map(|d| d as u128).collect();
        let mut cost = alloc::vec![alloc::vec![0u128; k]; k];
        let mut split = alloc::vec![alloc::vec![0usize; k]; k];
        for len in 1..k {
            for i in 0..k - len {
                let j = i + len;
                cost[i][j] = u128::MAX;
                for m in i..j {
                    let step = dims[i].saturating_mul(dims[m + 1]).saturating_mul(dims[j + 1]);
                    let c = cost[i][m].saturating_add(cost[m + 1][j]).saturating_add(step);
                    if c < cost[i][j] {
                        (cost[i][j], split[i][j]) = (c, m);
                    }
                }
            }
        }
        fn chain<T: MatrixFloat>(
            mats: &[(Vec<T>, usize, usize)],
            split: &[Vec<usize>],
            i: usize,
            j: usize,
        ) -> Result<(Vec<T>, usize, usize), ShapeError> {
            if i == j {
                return Ok(mats[i].clone());
            }
            let m = split[i][j];
            let (a, r, kk) = chain(mats, split, i, m)?;
            let (b, _, c) = chain(mats, split, m + 1, j)?;
            Ok((mm(&a, (r, kk), &b, c)?, r, c))
        }
        let (data, r, c) = chain(&mats, &split, 0, k - 1)?;
        let first_1d = xs[0].rank() == 1;
        let last_1d = xs[k - 1].rank() == 1;
        let sizes: Vec<usize> = match (first_1d, last_1d) {
            (true, true) => alloc::vec![],
            (true, false) => alloc::vec![c],
            (false, true) => alloc::vec![r],
            (false, false) => alloc::vec![r, c],
        };
        Tensor::try_from_vec(&sizes, data)
    }
}

#[cfg(feature = "linalg")]
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: crate::num::LinalgFloat,
{
    /// The condition number in the 2-norm, `σ_max / σ_min`, of a matrix or of each of a batch
    /// (PyTorch `torch.linalg.cond(A)`, NumPy `np.linalg.cond(A)`): a scalar for one matrix,
    /// `[..b]` for a batch. `inf` for a singular matrix (σ_min = 0), as both; NaN for an empty
    /// one.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f64, Shape![2, 2]> = Tensor::from([[4.0, 0.0], [0.0, 0.5]]);
    /// assert_eq!(a.cond(), 8.0);
    /// ```
    ///
    /// # Errors
    /// As [`try_svd`](Self::try_svd).
    #[try_twin]
    pub fn try_cond(&self) -> Result<<S::Batch as BatchShape>::Of<D::Elem>, ShapeError>
    where
        S: MatrixBatch,
    {
        let g = super::square::Mats::of(self.sizes(), "cond")?;
        let (m, n) = g.mn();
        let k = m.min(n);
        let s = self.as_dyn().try_svdvals::<crate::dim::Dyn>()?.to_vec();
        S::Batch::build(g.batch(), |out: &mut [D::Elem]| {
            for (i, o) in out.iter_mut().enumerate() {
                *o = if k == 0 { <D::Elem as num_traits::Float>::nan() } else { s[i * k] / s[i * k + k - 1] };
            }
            Ok(())
        })
    }
}
