//! Least squares through faer (feature `linalg`): the lecture's `torch.gels`, today's
//! `torch.linalg.lstsq`.
use crate::dim::{Const, Dim, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use faer::prelude::*;

impl<D: Data, M: Dim, N: Dim> TensorBase<D, (M, N)>
where
    D::Elem: Element + faer::traits::RealField,
{
    /// Solves `self @ x ≈ b` in the least-squares sense: `self` is `[m, n]` with `m >= n` and full
    /// column rank, `b` is `[m, k]`, `x` is `[n, k]` and minimises `‖self @ x - b‖²`. Mirrors
    /// `torch.linalg.lstsq(self, b).solution` (the lecture's `torch.gels(b, self)`); solved
    /// with faer's Householder QR. Static row counts are checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the row counts differ at run time or `m < n`.
    pub fn try_lstsq<D2: Data<Elem = D::Elem>, M2: Dim, K: Dim>(
        &self,
        b: &TensorBase<D2, (M2, K)>,
    ) -> Result<Tensor<D::Elem, (N, K)>, ShapeError>
    where
        M: SameRows<M2, (M, N), (M2, K)>,
    {
        let (m, n, k) = (self.sizes()[0], self.sizes()[1], b.sizes()[1]);
        if b.sizes()[0] != m {
            return Err(ShapeError::Invalid(alloc::format!(
                "lstsq of {:?} and {:?}: the row counts differ",
                self.sizes(),
                b.sizes()
            )));
        }
        if m < n {
            return Err(ShapeError::Invalid(alloc::format!(
                "lstsq of {:?}: needs at least as many rows as columns",
                self.sizes()
            )));
        }
        let (av, bv) = (self.to_vec(), b.to_vec());
        let a = Mat::from_fn(m, n, |i, j| av[i * n + j]);
        let rhs = Mat::from_fn(m, k, |i, j| bv[i * k + j]);
        let x = a.qr().solve_lstsq(&rhs);
        let data = (0..n * k).map(|p| x[(p / k.max(1), p % k.max(1))]).collect();
        Ok(TensorBase::from_parts(data, Layout::contiguous(&[n, k])?))
    }

    /// [`try_lstsq`](Self::try_lstsq), panicking with the error's message.
    #[track_caller]
    pub fn lstsq<D2: Data<Elem = D::Elem>, M2: Dim, K: Dim>(
        &self,
        b: &TensorBase<D2, (M2, K)>,
    ) -> Tensor<D::Elem, (N, K)>
    where
        M: SameRows<M2, (M, N), (M2, K)>,
    {
        self.try_lstsq(b).or_panic()
    }
}

/// The two sides of a least-squares problem have the same number of rows (equality only, so it
/// holds for every size; a `Dyn` side is checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot solve least squares of `{LS}` and `{RS}`: row counts `{Self}` and `{Rhs}` differ",
    label = "`a.lstsq(b)` needs `a: [m, n]` and `b: [m, k]`"
)]
pub trait SameRows<Rhs, LS, RS> {}
impl<const M: usize, LS, RS> SameRows<Const<M>, LS, RS> for Const<M> {}
impl<const M: usize, LS, RS> SameRows<Dyn, LS, RS> for Const<M> {}
impl<const M: usize, LS, RS> SameRows<Const<M>, LS, RS> for Dyn {}
impl<LS, RS> SameRows<Dyn, LS, RS> for Dyn {}
