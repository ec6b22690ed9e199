//! Matrix product of 2-D tensors through `matrixmultiply`, directly on strided views.
use crate::error::{OrPanic, ShapeError};
use crate::kernels::Gemm;
use crate::layout::Layout;
use crate::shape::{MatMulShape, Shape};
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// The matrix product `[m, k] @ [k, n] -> [m, n]` (PyTorch `matmul`/`mm` for 2-D inputs).
    /// Either operand may be any strided view (a transpose, a slice with steps): it is read in
    /// place, not copied. Static inner dims are checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] naming both shapes when runtime inner dims differ or a
    /// [`DynShape`](crate::DynShape) operand is not 2-D.
    pub fn try_matmul<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
    ) -> Result<Tensor<D::Elem, <S as MatMulShape<S2>>::Out>, ShapeError>
    where
        S: MatMulShape<S2>,
    {
        let (la, lb) = (&self.layout, &rhs.layout);
        if la.rank() != 2 || lb.rank() != 2 || la.sizes()[1] != lb.sizes()[0] {
            return Err(ShapeError::MatMul { lhs: la.sizes().into(), rhs: lb.sizes().into() });
        }
        let data = D::Elem::gemm(self.data.as_slice(), la, rhs.data.as_slice(), lb);
        Ok(TensorBase::from_parts(data, Layout::contiguous(&[la.sizes()[0], lb.sizes()[1]])?))
    }

    /// [`try_matmul`](Self::try_matmul), panicking with the error's message.
    #[track_caller]
    pub fn matmul<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
    ) -> Tensor<D::Elem, <S as MatMulShape<S2>>::Out>
    where
        S: MatMulShape<S2>,
    {
        self.try_matmul(rhs).or_panic()
    }
}
