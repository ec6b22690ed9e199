//! Square-matrix operations by direct code: `inv`, `det` and `solve` (closed forms up to 4x4,
//! elimination with partial pivoting above; see `kernels::dense`). Up to 8x8 they allocate
//! nothing for inline tensors; singular matrices are errors, never noise.
use crate::dim::{Const, Dim, Dyn, One, SameDim};
use crate::error::{OrPanic, ShapeError};
use crate::kernels::{self, dense, small};
use crate::layout::{Layout, LayoutRepr};
use crate::num::Num;
use crate::shape::{DynShape, Shape};
use crate::storage::{Data, DataMut, Element, Out, Out2, OutData};

use crate::tensor::{OutTensor, OutTensor2, TensorBase};
use num_traits::Float;

/// A square matrix shape: `[n, n]` with equal static sizes, or `Dyn` sizes (checked at run time),
/// or [`DynShape`] (rank checked at run time too). What `inv`, `det` and `solve` need.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the shape of a square matrix",
    label = "`inv`, `det` and `solve` need a square `[n, n]` matrix"
)]
pub trait SquareShape: Shape {}
impl<const N: usize> SquareShape for (Const<N>, Const<N>) {}
impl<const N: usize> SquareShape for (Const<N>, Dyn) {}
impl<const N: usize> SquareShape for (Dyn, Const<N>) {}
impl SquareShape for (Dyn, Dyn) {}
impl SquareShape for (One, One) {}
impl SquareShape for (One, Dyn) {}
impl SquareShape for (Dyn, One) {}
impl SquareShape for (One, Const<1>) {}
impl SquareShape for (Const<1>, One) {}
impl SquareShape for DynShape {}

/// The right side of `a.solve(b)` for a square `a` of shape `A`: a vector `[n]` or a matrix
/// `[n, k]` whose row count matches `a`'s (a `Dyn` count is checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot solve `{A}` · x = b for b of shape `{Self}`",
    label = "the right side must be `[n]` or `[n, k]` with the matrix's `n` rows"
)]
pub trait SolveRhs<A: Shape>: Shape {}
impl<M: Dim, N: Dim, R: Dim> SolveRhs<(M, N)> for (R,) where R: SameDim<M, (M, N), (R,)> {}
impl<M: Dim, N: Dim, R: Dim, K: Dim> SolveRhs<(M, N)> for (R, K) where R: SameDim<M, (M, N), (R, K)> {}
impl SolveRhs<DynShape> for DynShape {}

impl<D: Data, S: SquareShape> TensorBase<D, S>
where
    D::Elem: Float + Num,
{
    /// The order `n` of a square matrix, or the error naming `op`.
    #[inline]
    fn order(&self, op: &'static str) -> Result<usize, ShapeError> {
        match self.sizes() {
            &[m, n] if m == n => Ok(n),
            s => Err(ShapeError::Invalid(alloc::format!("{op}: needs a square [n, n] matrix, got sizes {s:?}"))),
        }
    }

    /// Runs `f(a, n, work)` on the matrix as a row-major `n * n` slice (in place when it is
    /// contiguous, else a copy) with a work buffer of `n * n` elements: on the stack up to
    /// [`dense::SMALL`], none for contiguous matrices up to 4x4 (the closed forms need none).
    #[inline]
    fn with_rows<R>(
        &self,
        op: &'static str,
        f: impl FnOnce(&[D::Elem], usize, &mut [D::Elem]) -> Result<R, ShapeError>,
    ) -> Result<R, ShapeError> {
        let n = self.order(op)?;
        let nn = n * n;
        let contiguous = if const { D::INLINE && small::is_static::<S>() } {
            Some(&self.data.as_slice()[..nn])
        } else {
            kernels::contiguous_slice(self.data.as_slice(), self.layout())
        };
        if let (Some(a), true) = (contiguous, n <= 4) {
            return f(a, n, &mut []);
        }
        let mut stack = [D::Elem::ZERO; 2 * dense::SMALL * dense::SMALL];
        let mut heap;
        let buf: &mut [D::Elem] = if n <= dense::SMALL {
            &mut stack[..2 * nn]
        } else {
            heap = kernels::try_vec(2 * nn, D::Elem::ZERO)?;
            &mut heap
        };
        let (copy, work) = buf.split_at_mut(nn);
        match contiguous {
            Some(a) => f(a, n, work),
            None => {
                kernels::copy_into(copy, self.data.as_slice(), self.layout());
                f(copy, n, work)
            }
        }
    }

    /// The inverse of a square matrix, `[n, n] -> [n, n]` (PyTorch `torch.linalg.inv`, NumPy
    /// `np.linalg.inv`). Closed forms up to 4x4 (cofactors), Gauss-Jordan elimination with
    /// partial pivoting above; inline and allocation-free for an inline matrix up to 8x8. Float
    /// element types. A non-square static shape is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] when the matrix is singular to working precision: its reciprocal
    /// condition number `1 / (‖A‖₁ ‖A⁻¹‖₁)` is at most `n · ε` or the inverse is not finite
    /// (NumPy raises `LinAlgError` only for exact singularity and returns noise otherwise);
    /// [`ShapeError::Invalid`] when runtime sizes are not square; [`ShapeError::Alloc`].
    #[doc(alias = "inverse")]
    #[doc(alias = "try_inverse")]
    #[inline]
    pub fn try_inv(&self) -> Result<OutTensor<D, D::Elem, S>, ShapeError> {
        self.with_rows("inv", |a, n, work| {
            let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(&[n, n]))?;
            let mut out = Out::<D, D::Elem, S>::zeroed(n * n)?;
            if !dense::inv_into(out.as_mut_slice(), a, n, work) {
                return Err(ShapeError::Singular { op: "inv", n });
            }
            Ok(TensorBase::from_lay(out, lay))
        })
    }
    /// [`try_inv`](Self::try_inv), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "inverse")]
    #[inline]
    pub fn inv(&self) -> OutTensor<D, D::Elem, S> {
        self.try_inv().or_panic()
    }

    /// The determinant of a square matrix, `[n, n] -> scalar` (PyTorch `torch.linalg.det`, NumPy
    /// `np.linalg.det`): closed forms up to 4x4, elimination with partial pivoting above; 0 for a
    /// singular matrix (within rounding), 1 for `0x0`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when runtime sizes are not square; [`ShapeError::Alloc`] (above 8x8).
    #[doc(alias = "determinant")]
    #[inline]
    pub fn try_det(&self) -> Result<D::Elem, ShapeError> {
        self.with_rows("det", |a, n, work| Ok(dense::det(a, n, work)))
    }
    /// [`try_det`](Self::try_det), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "determinant")]
    #[inline]
    pub fn det(&self) -> D::Elem {
        self.try_det().or_panic()
    }

    /// Solves `self · x = b` for a square `self` `[n, n]` and `b` `[n]` or `[n, k]`; `x` has
    /// `b`'s shape (PyTorch `torch.linalg.solve`, NumPy `np.linalg.solve`). Computed as
    /// `A⁻¹ · b` with the inverse of [`try_inv`](Self::try_inv) (for the small systems this code
    /// is for, with its singularity check); inline and allocation-free when an operand is inline
    /// and `b`'s shape static, up to 8x8. A static row count that differs is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] as [`try_inv`](Self::try_inv); [`ShapeError::MatMul`] when the
    /// runtime row counts differ; [`ShapeError::Invalid`] when `self` is not square or `b` not
    /// 1-D or 2-D; [`ShapeError::Alloc`].
    #[inline]
    pub fn try_solve<D2: Data<Elem = D::Elem>, SB: SolveRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
    ) -> Result<OutTensor2<D, D2, D::Elem, SB>, ShapeError> {
        let lb = b.layout();
        let (rows, k, sb) = match (lb.sizes(), lb.strides()) {
            (&[r], &[s]) => (r, 1, [s, 1]),
            (&[r, k], &[s0, s1]) => (r, k, [s0, s1]),
            _ => {
                return Err(ShapeError::Invalid(alloc::format!(
                    "solve: the right side must be [n] or [n, k], got sizes {:?}",
                    lb.sizes()
                )))
            }
        };
        self.with_rows("solve", |a, n, work| {
            if rows != n {
                return Err(ShapeError::MatMul { lhs: self.sizes().into(), rhs: lb.sizes().into() });
            }
            let lay = LayoutRepr::row_major::<SB>(|| Layout::contiguous(lb.sizes()))?;
            let mut out = Out2::<D, D2, D::Elem, SB>::zeroed(n * k)?;
            let mut stack = [D::Elem::ZERO; dense::SMALL * dense::SMALL];
            let mut heap;
            let inv: &mut [D::Elem] = if n <= dense::SMALL {
                &mut stack[..n * n]
            } else {
                heap = kernels::try_vec(n * n, D::Elem::ZERO)?;
                &mut heap
            };
            if !dense::inv_into(inv, a, n, work) {
                return Err(ShapeError::Singular { op: "solve", n });
            }
            small::matmul((n, n, k), out.as_mut_slice(), inv, 0, [n as isize, 1], b.data.as_slice(), lb.offset(), sb);
            Ok(TensorBase::from_lay(out, lay))
        })
    }
    /// [`try_solve`](Self::try_solve), panicking with the error's message.
    #[track_caller]
    #[inline]
    pub fn solve<D2: Data<Elem = D::Elem>, SB: SolveRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
    ) -> OutTensor2<D, D2, D::Elem, SB> {
        self.try_solve(b).or_panic()
    }
}
