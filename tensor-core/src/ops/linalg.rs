//! Decompositions and solvers through faer (feature `linalg`), for one matrix `[m, n]` or a batch
//! `[..b, m, n]` (batched over the leading dims as `torch.linalg`): `slogdet`, `cholesky`, `lu`,
//! `qr`, `svd`, `svdvals`, `eigh`, `eigvalsh`, `eig`, `eigvals`, `pinv`, `matrix_rank`,
//! `matrix_norm` and `lstsq` (the lecture's `torch.gels`). Matrices are read in place through
//! faer views with the tensor's strides (`kernels::lapack`); results are written into the output
//! tensors' buffers. `inv`, `det`, `solve` and `matrix_power` live in `ops/square.rs`.
use super::square::Mats;
use crate::dim::{Const, Dim, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::kernels::lapack;
use crate::layout::Layout;
use crate::memory::try_vec;
use crate::num::LinalgFloat;
use crate::shape::{broadcast_sizes, BatchShape, DynShape, MatrixBatch, MinShape, Shape, SquareShape, MAX_RANK};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::vec::Vec;
use num_complex::Complex;
use shaped_macros::try_twin;

pub use crate::kernels::lapack::MatrixNorm;

/// The result of [`lstsq`](TensorBase::lstsq) (PyTorch's `torch.linalg.lstsq` named tuple,
/// NumPy's `lstsq` tuple, without the residuals).
#[derive(Clone, Debug)]
pub struct Lstsq<X, R, V> {
    /// The minimum-norm least-squares solution `x`: `[n]`, `[n, k]` or `[..b, n, k]`.
    pub solution: X,
    /// The effective rank of each matrix: singular values above `rtol · σ_max` counted.
    pub rank: R,
    /// The singular values of each matrix, nonincreasing: `[..b, min(m, n)]`, the last dim
    /// `Dyn` (so that `lstsq` needs no compile-time `min`, and works in code generic over
    /// sizes).
    pub singular_values: V,
}

/// The three fields, one per line, as PyTorch prints its named tuple:
/// `solution: ...`, `rank: ...`, `singular_values: ...`.
impl<X: core::fmt::Display, R: core::fmt::Display, V: core::fmt::Display> core::fmt::Display for Lstsq<X, R, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "solution: {}", self.solution)?;
        writeln!(f, "rank: {}", self.rank)?;
        write!(f, "singular_values: {}", self.singular_values)
    }
}

/// The right side of `a.lstsq(b)` for `a` of shape `A`: for one matrix `[m, n]`, a vector `[m]`
/// (solution `[n]`) or a matrix `[m, k]` (solution `[n, k]`); [`DynShape`] batches at run time.
#[diagnostic::on_unimplemented(
    message = "cannot solve least squares of `{A}` and `{Self}`",
    label = "`a.lstsq(b)` needs `a: [m, n]` and `b: [m]` or `[m, k]` (use `DynShape` for batches)"
)]
pub trait LstsqRhs<A: Shape>: Shape {
    /// The solution's shape.
    type Out: Shape;
}
impl<M: Dim, N: Dim, M2: Dim> LstsqRhs<(M, N)> for (M2,)
where
    M: SameRows<M2, (M, N), (M2,)>,
{
    type Out = (N,);
}
impl<M: Dim, N: Dim, M2: Dim, K: Dim> LstsqRhs<(M, N)> for (M2, K)
where
    M: SameRows<M2, (M, N), (M2, K)>,
{
    type Out = (N, K);
}
impl LstsqRhs<DynShape> for DynShape {
    type Out = DynShape;
}

/// The two sides of a least-squares problem have the same number of rows (equality only, so it
/// holds for every size; a `Dyn` side is checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot solve least squares of `{LS}` and `{RS}`: row counts `{Self}` and `{Rhs}` differ",
    label = "`a.lstsq(b)` needs `a: [m, n]` and `b: [m]` or `[m, k]`"
)]
pub trait SameRows<Rhs, LS, RS> {}
impl<const M: usize, LS, RS> SameRows<Const<M>, LS, RS> for Const<M> {}
impl<const M: usize, LS, RS> SameRows<Dyn, LS, RS> for Const<M> {}
impl<const M: usize, LS, RS> SameRows<Const<M>, LS, RS> for Dyn {}
impl<LS, RS> SameRows<Dyn, LS, RS> for Dyn {}
impl<LS, RS> SameRows<crate::One, LS, RS> for crate::One {}
impl<LS, RS> SameRows<Dyn, LS, RS> for crate::One {}
impl<LS, RS> SameRows<crate::One, LS, RS> for Dyn {}
impl<N: crate::Tagged, LS, RS> SameRows<N, LS, RS> for N {}
impl<N: crate::Tagged, LS, RS> SameRows<Dyn, LS, RS> for N {}
impl<N: crate::Tagged, LS, RS> SameRows<N, LS, RS> for Dyn {}

type Vectors<S, K> = <S as MatrixBatch>::Vectors<K>;
type Matrices<S, R, C> = <S as MatrixBatch>::Matrices<R, C>;
type PerMatrix<S, T> = <<S as MatrixBatch>::Batch as BatchShape>::Of<T>;

/// A `try_` method and its panicking twin.
macro_rules! panicking {
    ($(#[$attr:meta])* $name:ident $(<$($g:ident: $gb:path),*>)?, $try_name:ident, ($($arg:ident: $ty:ty),*) -> $out:ty $(; where $($w:tt)+)?) => {
        #[doc = concat!("[`", stringify!($try_name), "`](Self::", stringify!($try_name), "), panicking with the error's message.")]
        $(#[$attr])*
        #[track_caller]
        pub fn $name$(<$($g: $gb),*>)?(&self $(, $arg: $ty)*) -> $out $(where $($w)+)? {
            self.$try_name($($arg),*).or_panic()
        }
    };
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: LinalgFloat,
{
    /// Runs `f(i, matrix)` over the matrices of `self`; the caller has checked the rank.
    fn each(&self, f: impl FnMut(usize, faer::MatRef<'_, D::Elem>) -> Result<(), ShapeError>) -> Result<(), ShapeError>
    where
        S: MatrixBatch,
    {
        // The callers' `Mats::of`/`Mats::square` checked the rank already, naming the operation.
        lapack::for_each_matrix(self.data.as_slice(), self.layout(), f)
    }

    /// The LU decomposition with partial pivoting, `A = P L U`, of a matrix `[m, n]` or each of a
    /// batch (PyTorch `torch.linalg.lu`, SciPy `scipy.linalg.lu`): `P` `[..b, m, m]` a
    /// permutation matrix, `L` `[..b, m, k]` unit lower triangular, `U` `[..b, k, n]` upper
    /// triangular, `k = min(m, n)`. Computed by faer.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a runtime shape has fewer than 2 dims; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_lu<K: Dim>(
        &self,
    ) -> Result<
        (
            Tensor<D::Elem, Matrices<S, S::Rows, S::Rows>>,
            Tensor<D::Elem, Matrices<S, S::Rows, K>>,
            Tensor<D::Elem, Matrices<S, K, S::Cols>>,
        ),
        ShapeError,
    >
    where
        S: MinShape<K = K>,
    {
        let g = Mats::of(self.sizes(), "lu")?;
        let (m, n) = g.mn();
        let k = m.min(n);
        let ((mut p, lp), (mut l, ll), (mut u, lu)) = (g.zeros(&[m, m])?, g.zeros(&[m, k])?, g.zeros(&[k, n])?);
        self.each(|i, a| {
            lapack::lu(a, &mut p[i * m * m..][..m * m], &mut l[i * m * k..][..m * k], &mut u[i * k * n..][..k * n]);
            Ok(())
        })?;
        Ok((Tensor::from_parts(p, lp), Tensor::from_parts(l, ll), Tensor::from_parts(u, lu)))
    }
    panicking!(#[allow(clippy::type_complexity)] lu<K: Dim>, try_lu, () -> (
        Tensor<D::Elem, Matrices<S, S::Rows, S::Rows>>,
        Tensor<D::Elem, Matrices<S, S::Rows, K>>,
        Tensor<D::Elem, Matrices<S, K, S::Cols>>,
    ); where S: MinShape<K = K>);

    /// The reduced QR decomposition `A = Q R` of a matrix `[m, n]` or each of a batch (PyTorch
    /// `torch.linalg.qr(mode='reduced')`, NumPy `np.linalg.qr`): `Q` `[..b, m, k]` with
    /// orthonormal columns, `R` `[..b, k, n]` upper triangular, `k = min(m, n)`. Householder
    /// reflections (faer); the signs of `R`'s diagonal follow faer's reflectors.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a runtime shape has fewer than 2 dims; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_qr<K: Dim>(
        &self,
    ) -> Result<(Tensor<D::Elem, Matrices<S, S::Rows, K>>, Tensor<D::Elem, Matrices<S, K, S::Cols>>), ShapeError>
    where
        S: MinShape<K = K>,
    {
        let g = Mats::of(self.sizes(), "qr")?;
        let (m, n) = g.mn();
        let k = m.min(n);
        let ((mut q, lq), (mut r, lr)) = (g.zeros(&[m, k])?, g.zeros(&[k, n])?);
        self.each(|i, a| {
            lapack::qr(a, &mut q[i * m * k..][..m * k], &mut r[i * k * n..][..k * n]);
            Ok(())
        })?;
        Ok((Tensor::from_parts(q, lq), Tensor::from_parts(r, lr)))
    }
    panicking!(#[allow(clippy::type_complexity)] qr<K: Dim>, try_qr, () -> (Tensor<D::Elem, Matrices<S, S::Rows, K>>, Tensor<D::Elem, Matrices<S, K, S::Cols>>); where S: MinShape<K = K>);

    /// The thin singular value decomposition `A = U diag(S) Vh` of a matrix `[m, n]` or each of
    /// a batch (PyTorch `torch.linalg.svd(full_matrices=False)`, NumPy `np.linalg.svd(a,
    /// full_matrices=False)`): `U` `[..b, m, k]`, `S` `[..b, k]` nonincreasing and nonnegative,
    /// `Vh` `[..b, k, n]`, `k = min(m, n)` (static when `m` and `n` are, within the sizes of the
    /// static rules). Computed by faer, written straight into the results (`U` is stored
    /// column-major, strides `[.., 1, m]`, as LAPACK returns it: call
    /// [`contiguous`](Self::contiguous) for row-major storage). Singular vectors are unique only up
    /// to sign (and rotation within repeated singular values).
    ///
    /// # Errors
    /// [`ShapeError::NoConvergence`]; [`ShapeError::Invalid`] when a runtime shape has fewer
    /// than 2 dims; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_svd<K: Dim>(
        &self,
    ) -> Result<
        (
            Tensor<D::Elem, Matrices<S, S::Rows, K>>,
            Tensor<D::Elem, Vectors<S, K>>,
            Tensor<D::Elem, Matrices<S, K, S::Cols>>,
        ),
        ShapeError,
    >
    where
        S: MinShape<K = K>,
    {
        self.svd_rt(false)
    }

    /// The SVD of each matrix into new tensors: `U` `[..b, m, c]` (column-major matrices), `S`
    /// `[..b, k]`, `Vᴴ` `[..b, r, n]`, with `c = r = k` thin or `c = m`, `r = n` when `full`.
    #[allow(clippy::type_complexity)]
    fn svd_rt<S1: Shape, S2: Shape, S3: Shape>(
        &self,
        full: bool,
    ) -> Result<(Tensor<D::Elem, S1>, Tensor<D::Elem, S2>, Tensor<D::Elem, S3>), ShapeError>
    where
        S: MatrixBatch,
    {
        let g = Mats::of(self.sizes(), "svd")?;
        let (m, n) = g.mn();
        let k = m.min(n);
        let (c, r) = if full { (m, n) } else { (k, k) };
        let ((mut u, lu), (mut s, ls), (mut vh, lv)) = (g.zeros_col_major([m, c])?, g.zeros(&[k])?, g.zeros(&[r, n])?);
        self.each(|i, a| {
            let (ui, vi) = (&mut u[i * m * c..][..m * c], &mut vh[i * r * n..][..r * n]);
            lapack::svd_with(a, &mut s[i * k..][..k], Some(ui), Some(vi), full)
        })?;
        Ok((Tensor::from_parts(u, lu), Tensor::from_parts(s, ls), Tensor::from_parts(vh, lv)))
    }
    panicking!(#[allow(clippy::type_complexity)] svd<K: Dim>, try_svd, () -> (
        Tensor<D::Elem, Matrices<S, S::Rows, K>>,
        Tensor<D::Elem, Vectors<S, K>>,
        Tensor<D::Elem, Matrices<S, K, S::Cols>>,
    ); where S: MinShape<K = K>);

    /// The full singular value decomposition `A = U Σ Vᴴ` of a matrix `[m, n]` or of each of a
    /// batch (PyTorch `torch.linalg.svd(A, full_matrices=True)`, NumPy `np.linalg.svd(A)`): `U`
    /// `[..b, m, m]` and `Vᴴ` `[..b, n, n]` orthogonal, `S` `[..b, k]` nonincreasing with
    /// `k = min(m, n)`. The columns of `U` past `k` (rows of `Vᴴ` past `k`) complete the
    /// orthonormal bases; like the singular vectors they are unique only up to sign (and
    /// rotation within repeated or zero singular values). Computed by faer.
    ///
    /// # Errors
    /// As [`try_svd`](Self::try_svd).
    #[allow(clippy::type_complexity)]
    pub fn try_svd_full<K: Dim>(
        &self,
    ) -> Result<
        (
            Tensor<D::Elem, Matrices<S, S::Rows, S::Rows>>,
            Tensor<D::Elem, Vectors<S, K>>,
            Tensor<D::Elem, Matrices<S, S::Cols, S::Cols>>,
        ),
        ShapeError,
    >
    where
        S: MinShape<K = K>,
    {
        self.svd_rt(true)
    }
    panicking!(#[allow(clippy::type_complexity)] svd_full<K: Dim>, try_svd_full, () -> (
        Tensor<D::Elem, Matrices<S, S::Rows, S::Rows>>,
        Tensor<D::Elem, Vectors<S, K>>,
        Tensor<D::Elem, Matrices<S, S::Cols, S::Cols>>,
    ); where S: MinShape<K = K>);

    /// The singular values of a matrix `[m, n]` or of each of a batch, `[..b, k]` nonincreasing,
    /// `k = min(m, n)` (PyTorch `torch.linalg.svdvals`, NumPy `np.linalg.svd(a,
    /// compute_uv=False)`).
    ///
    /// # Errors
    /// As [`try_svd`](Self::try_svd).
    pub fn try_svdvals<K: Dim>(&self) -> Result<Tensor<D::Elem, Vectors<S, K>>, ShapeError>
    where
        S: MinShape<K = K>,
    {
        let g = Mats::of(self.sizes(), "svdvals")?;
        let (m, n) = g.mn();
        let k = m.min(n);
        let (mut s, ls) = g.zeros(&[k])?;
        self.each(|i, a| lapack::svd(a, &mut s[i * k..][..k], None, None))?;
        Ok(Tensor::from_parts(s, ls))
    }
    panicking!(svdvals<K: Dim>, try_svdvals, () -> Tensor<D::Elem, Vectors<S, K>>; where S: MinShape<K = K>);

    /// The Moore-Penrose pseudo-inverse of a matrix `[m, n] -> [n, m]` or of each of a batch,
    /// through the SVD with singular values at or below `rtol · σ_max` dropped, `rtol = max(m,
    /// n) · ε` (PyTorch `torch.linalg.pinv`, NumPy `np.linalg.pinv` with `rtol=None`).
    ///
    /// # Errors
    /// As [`try_svd`](Self::try_svd).
    pub fn try_pinv(&self) -> Result<Tensor<D::Elem, Matrices<S, S::Cols, S::Rows>>, ShapeError>
    where
        S: MatrixBatch,
    {
        let g = Mats::of(self.sizes(), "pinv")?;
        let (m, n) = g.mn();
        let (mut p, lp) = g.zeros(&[n, m])?;
        self.each(|i, a| lapack::pinv(a, &mut p[i * n * m..][..n * m], None))?;
        Ok(Tensor::from_parts(p, lp))
    }
    panicking!(pinv, try_pinv, () -> Tensor<D::Elem, Matrices<S, S::Cols, S::Rows>>; where S: MatrixBatch);

    /// The numerical rank of a matrix or of each of a batch: the count of singular values above
    /// `rtol · σ_max`, `rtol = max(m, n) · ε` (PyTorch `torch.linalg.matrix_rank`, NumPy
    /// `np.linalg.matrix_rank`). A scalar for one matrix, `[..b]` for a batch.
    ///
    /// # Errors
    /// As [`try_svd`](Self::try_svd).
    pub fn try_matrix_rank(&self) -> Result<PerMatrix<S, usize>, ShapeError>
    where
        S: MatrixBatch,
    {
        let g = Mats::of(self.sizes(), "matrix_rank")?;
        let (m, n) = g.mn();
        let mut s = try_vec(m.min(n), D::Elem::ZERO)?;
        S::Batch::build(g.batch(), |ranks| {
            self.each(|i, a| {
                lapack::svd(a, &mut s, None, None)?;
                let tol = lapack::cutoff(&s, m, n, None);
                ranks[i] = s.iter().filter(|&&v| v > tol).count();
                Ok(())
            })
        })
    }
    panicking!(matrix_rank, try_matrix_rank, () -> PerMatrix<S, usize>; where S: MatrixBatch);

    /// A matrix norm of a matrix or of each of a batch (PyTorch `torch.linalg.matrix_norm`,
    /// NumPy `np.linalg.norm(x, ord)` over the last two axes): see [`MatrixNorm`]. A scalar for
    /// one matrix, `[..b]` for a batch; 0 for an empty matrix.
    ///
    /// # Errors
    /// As [`try_svd`](Self::try_svd) (for [`MatrixNorm::Nuc`] and [`MatrixNorm::Spectral`]).
    #[doc(alias = "norm")]
    pub fn try_matrix_norm(&self, ord: MatrixNorm) -> Result<PerMatrix<S, D::Elem>, ShapeError>
    where
        S: MatrixBatch,
    {
        let g = Mats::of(self.sizes(), "matrix_norm")?;
        S::Batch::build(g.batch(), |out| {
            self.each(|i, a| {
                out[i] = lapack::matrix_norm(a, ord)?;
                Ok(())
            })
        })
    }
    panicking!(#[doc(alias = "norm")] matrix_norm, try_matrix_norm, (ord: MatrixNorm) -> PerMatrix<S, D::Elem>; where S: MatrixBatch);

    /// Solves `self @ x ≈ b` in the least-squares sense and returns the minimum-norm solution
    /// (PyTorch `torch.linalg.lstsq(self, b)` with the `gelsd` driver, NumPy
    /// `np.linalg.lstsq(self, b, rcond=None)`; the lecture's `torch.gels(b, self)`): `self` is
    /// `[m, n]` (any `m`, `n`, any rank), `b` is `[m]` or `[m, k]`, the solution is `[n]` or
    /// `[n, k]`. Through the SVD: singular values at or below `max(m, n) · ε · σ_max` are
    /// treated as zero, so a rank-deficient system gets the solution of least norm (an all-zero
    /// matrix gives zeros). [`DynShape`] tensors batch: `[..b, m, n]` with `[..b, m, k]` (batch
    /// dims broadcast) or `[..b, m]`. Static row counts are checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the runtime row counts differ or `b`'s batch dims do not
    /// broadcast to `self`'s; [`ShapeError::NoConvergence`]; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin(alias = "least_squares")]
    pub fn try_lstsq<D2: Data<Elem = D::Elem>, SB: LstsqRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
    ) -> Result<Lstsq<Tensor<D::Elem, SB::Out>, PerMatrix<S, usize>, Tensor<D::Elem, Vectors<S, Dyn>>>, ShapeError>
    where
        S: MatrixBatch,
    {
        let g = Mats::of(self.sizes(), "lstsq")?;
        let (m, n) = g.mn();
        let kk = m.min(n);
        let (sa, lb, r) = (self.sizes(), b.layout(), self.rank());
        let bs = lb.sizes();
        let err = || {
            ShapeError::Invalid(alloc::format!(
                "lstsq of {sa:?} and {bs:?}: the row counts differ or the batch dims do not match"
            ))
        };
        if bs.is_empty() {
            return Err(err());
        }
        let vector = bs.len() == 1 || (bs.len() == r - 1 && bs[..bs.len() - 1] == sa[..r - 2]);
        let bl = if vector { lb.unsqueeze(bs.len())? } else { *lb };
        let br = bl.rank();
        let (rows, k) = (bl.sizes()[br - 2], bl.sizes()[br - 1]);
        if rows != m || (br > 2 || r > 2) && bl.sizes()[..br - 2] != *g.batch() {
            // Batch dims of the solution must be the matrices' (one factorisation per matrix).
            let same = broadcast_sizes(g.batch(), &bl.sizes()[..br - 2]).ok().filter(|(b, nb)| b[..*nb] == *g.batch());
            if rows != m || same.is_none() {
                return Err(err());
            }
        }
        let bb = g.batch().len();
        let mut full = [0usize; MAX_RANK];
        full[..bb].copy_from_slice(g.batch());
        full[bb..bb + 2].copy_from_slice(&[m, k]);
        let eb = bl.expand(&full[..bb + 2])?;
        let tail = [n, k];
        let (mut x, lx) = g.zeros(&tail[..if vector { 1 } else { 2 }])?;
        let (mut s, ls) = g.zeros(&[kk])?;
        let mut ranks = try_vec(g.batch().iter().product(), 0usize)?;
        let (bdata, (boffs, bsz, bst)) = (b.data.as_slice(), eb.matrices());
        let mut boffs = boffs;
        self.each(|i, a| {
            let bm = lapack::mat(bdata, boffs.next().unwrap_or(0), bsz, bst);
            ranks[i] = lapack::lstsq(a, bm, &mut x[i * n * k..][..n * k], &mut s[i * kk..][..kk], None)?;
            Ok(())
        })?;
        Ok(Lstsq {
            solution: Tensor::from_parts(x, lx),
            rank: S::Batch::build(g.batch(), |v| {
                v.copy_from_slice(&ranks);
                Ok(())
            })?,
            singular_values: Tensor::from_parts(s, ls),
        })
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: LinalgFloat,
{
    /// The sign and the natural log of the absolute value of the determinant, of a square
    /// matrix or of each of a batch (PyTorch `torch.linalg.slogdet`, NumPy `np.linalg.slogdet`):
    /// `det = sign · exp(logabsdet)` without overflow. A singular matrix (an exactly zero LU
    /// pivot) gives `(0, -inf)` as NumPy. Scalars for one matrix, `[..b]` tensors for a batch.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when runtime sizes are not square; [`ShapeError::Alloc`].
    pub fn try_slogdet(&self) -> Result<(PerMatrix<S, D::Elem>, PerMatrix<S, D::Elem>), ShapeError>
    where
        S: SquareShape,
    {
        let (g, _) = Mats::square(self.sizes(), "slogdet")?;
        let mut pairs: Vec<(D::Elem, D::Elem)> = Vec::new();
        self.each(|_, a| {
            pairs.push(lapack::slogdet(a));
            Ok(())
        })?;
        let fill = |f: fn(&(D::Elem, D::Elem)) -> D::Elem| {
            let pairs = &pairs;
            move |v: &mut [D::Elem]| {
                v.iter_mut().zip(pairs).for_each(|(o, p)| *o = f(p));
                Ok(())
            }
        };
        Ok((S::Batch::build(g.batch(), fill(|p| p.0))?, S::Batch::build(g.batch(), fill(|p| p.1))?))
    }
    panicking!(slogdet, try_slogdet, () -> (PerMatrix<S, D::Elem>, PerMatrix<S, D::Elem>); where S: SquareShape);

    /// The lower Cholesky factor `L` (`A = L Lᵀ`) of a symmetric positive-definite matrix or of
    /// each of a batch, `[..b, n, n] -> [..b, n, n]` (PyTorch `torch.linalg.cholesky`, NumPy
    /// `np.linalg.cholesky`). Only the lower triangle of the input is read; `L`'s upper triangle
    /// is zero. Computed by faer.
    ///
    /// # Errors
    /// [`ShapeError::NotPositiveDefinite`] when a matrix is not positive definite (to working
    /// precision); [`ShapeError::Invalid`] when runtime sizes are not square; [`ShapeError::Alloc`].
    pub fn try_cholesky(&self) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: SquareShape,
    {
        let (g, n) = Mats::square(self.sizes(), "cholesky")?;
        let (mut l, ll) = g.zeros(&[n, n])?;
        self.each(|i, a| match lapack::cholesky(a, &mut l[i * n * n..][..n * n]) {
            true => Ok(()),
            false => Err(ShapeError::NotPositiveDefinite { op: "cholesky", n }),
        })?;
        Ok(Tensor::from_parts(l, ll))
    }
    panicking!(cholesky, try_cholesky, () -> Tensor<D::Elem, S>; where S: SquareShape);

    /// The eigenvalues (ascending) and orthonormal eigenvectors (the columns of the second
    /// result) of a symmetric matrix or of each of a batch, `[..b, n, n] -> ([..b, n], [..b, n,
    /// n])` (PyTorch `torch.linalg.eigh`, NumPy `np.linalg.eigh`, both with `UPLO='L'`): only the
    /// lower triangle is read. Eigenvectors are unique only up to sign (and rotation within
    /// repeated eigenvalues). Computed by faer, written straight into the results (the
    /// eigenvectors are stored column-major, strides `[.., 1, n]`, as LAPACK returns them).
    ///
    /// # Errors
    /// [`ShapeError::NoConvergence`]; [`ShapeError::Invalid`] when runtime sizes are not square;
    /// [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_eigh(&self) -> Result<(Tensor<D::Elem, Vectors<S, S::Rows>>, Tensor<D::Elem, S>), ShapeError>
    where
        S: SquareShape,
    {
        let (g, n) = Mats::square(self.sizes(), "eigh")?;
        let ((mut w, lw), (mut v, lv)) = (g.zeros(&[n])?, g.zeros_col_major([n, n])?);
        self.each(|i, a| lapack::eigh(a, &mut w[i * n..][..n], Some(&mut v[i * n * n..][..n * n])))?;
        Ok((Tensor::from_parts(w, lw), Tensor::from_parts(v, lv)))
    }
    panicking!(#[allow(clippy::type_complexity)] eigh, try_eigh, () -> (Tensor<D::Elem, Vectors<S, S::Rows>>, Tensor<D::Elem, S>); where S: SquareShape);

    /// The eigenvalues (ascending) of a symmetric matrix or of each of a batch, `[..b, n, n] ->
    /// [..b, n]` (PyTorch `torch.linalg.eigvalsh`, NumPy `np.linalg.eigvalsh`); only the lower
    /// triangle is read.
    ///
    /// # Errors
    /// As [`try_eigh`](Self::try_eigh).
    pub fn try_eigvalsh(&self) -> Result<Tensor<D::Elem, Vectors<S, S::Rows>>, ShapeError>
    where
        S: SquareShape,
    {
        let (g, n) = Mats::square(self.sizes(), "eigvalsh")?;
        let (mut w, lw) = g.zeros(&[n])?;
        self.each(|i, a| lapack::eigh(a, &mut w[i * n..][..n], None))?;
        Ok(Tensor::from_parts(w, lw))
    }
    panicking!(eigvalsh, try_eigvalsh, () -> Tensor<D::Elem, Vectors<S, S::Rows>>; where S: SquareShape);

    /// The eigenvalues and right eigenvectors (columns of unit 2-norm) of a general square
    /// matrix or of each of a batch, as complex numbers: `[..b, n, n] -> ([..b, n], [..b, n,
    /// n])` of [`Complex`] (PyTorch `torch.linalg.eig`, NumPy `np.linalg.eig`; the lecture's
    /// `torch.eig`). Real eigenvalues have a zero imaginary part; complex ones come in conjugate
    /// pairs. The order of the eigenvalues is faer's (LAPACK's may differ); sort to compare.
    ///
    /// # Errors
    /// As [`try_eigh`](Self::try_eigh).
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_eig(
        &self,
    ) -> Result<(Tensor<Complex<D::Elem>, Vectors<S, S::Rows>>, Tensor<Complex<D::Elem>, S>), ShapeError>
    where
        S: SquareShape,
        Complex<D::Elem>: Element,
    {
        let (g, n) = Mats::square(self.sizes(), "eig")?;
        let ((mut w, lw), (mut v, lv)) = (g.zeros(&[n])?, g.zeros(&[n, n])?);
        self.each(|i, a| lapack::eig(a, &mut w[i * n..][..n], Some(&mut v[i * n * n..][..n * n])))?;
        Ok((Tensor::from_parts(w, lw), Tensor::from_parts(v, lv)))
    }

    /// The eigenvalues of a general square matrix or of each of a batch, `[..b, n, n] -> [..b,
    /// n]` of [`Complex`] (PyTorch `torch.linalg.eigvals`, NumPy `np.linalg.eigvals`).
    ///
    /// # Errors
    /// As [`try_eigh`](Self::try_eigh).
    #[try_twin]
    pub fn try_eigvals(&self) -> Result<Tensor<Complex<D::Elem>, Vectors<S, S::Rows>>, ShapeError>
    where
        S: SquareShape,
        Complex<D::Elem>: Element,
    {
        let (g, n) = Mats::square(self.sizes(), "eigvals")?;
        let (mut w, lw) = g.zeros(&[n])?;
        self.each(|i, a| lapack::eig(a, &mut w[i * n..][..n], None))?;
        Ok(Tensor::from_parts(w, lw))
    }
}

#[allow(unused_imports)]
use Layout as _;
