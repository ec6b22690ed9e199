//! Matrix product of 2-D tensors, and of batches of them, through `matrixmultiply`, directly on
//! strided views.
use crate::error::{OrPanic, ShapeError};
use crate::kernels::Gemm;
use crate::layout::Layout;
use crate::shape::{broadcast_sizes, MatMulShape, Shape};
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};
use alloc::vec::Vec;

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// The matrix product `[m, k] @ [k, n] -> [m, n]` (PyTorch `matmul`/`mm` for 2-D inputs),
    /// and the batched product `[..b1, m, k] @ [..b2, k, n] -> [..broadcast(b1, b2), m, n]`
    /// (PyTorch `matmul`/`bmm` for 3-D and more; ranks up to 6). Either operand may be any strided
    /// view (a transpose, a slice with steps, a broadcast batch): it is read in place, not copied.
    /// Static inner dims and batch dims are checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] naming both shapes when runtime inner dims differ, an operand has
    /// fewer than 2 dims, or the batch dims do not broadcast.
    pub fn try_matmul<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
    ) -> Result<Tensor<D::Elem, <S as MatMulShape<S2>>::Out>, ShapeError>
    where
        S: MatMulShape<S2>,
    {
        let (la, lb) = (&self.layout, &rhs.layout);
        let err = || ShapeError::MatMul { lhs: la.sizes().into(), rhs: lb.sizes().into() };
        let (ra, rb) = (la.rank(), lb.rank());
        if ra < 2 || rb < 2 || la.sizes()[ra - 1] != lb.sizes()[rb - 2] {
            return Err(err());
        }
        let (m, k, n) = (la.sizes()[ra - 2], la.sizes()[ra - 1], lb.sizes()[rb - 1]);
        if ra == 2 && rb == 2 {
            let data = D::Elem::gemm(self.data.as_slice(), la, rhs.data.as_slice(), lb);
            return Ok(TensorBase::from_parts(data, Layout::contiguous(&[m, n])?));
        }
        let (batch, r) = broadcast_sizes(&la.sizes()[..ra - 2], &lb.sizes()[..rb - 2]).map_err(|_| err())?;
        if r + 2 > crate::shape::MAX_RANK {
            return Err(err());
        }
        let batch = &batch[..r];
        let full = |last: [usize; 2]| -> Vec<usize> { batch.iter().copied().chain(last).collect() };
        // Broadcast batch dims get stride 0: every batch reads its operands in place.
        let (ea, eb) = (la.expand(&full([m, k]))?, lb.expand(&full([k, n]))?);
        let out_layout = Layout::contiguous(&full([m, n]))?;
        let mut data = Vec::with_capacity(out_layout.numel());
        let mut idx = [0usize; crate::shape::MAX_RANK];
        for _ in 0..batch.iter().product::<usize>() {
            let sub = |e: &Layout, rows: usize, cols: usize| -> Result<Layout, ShapeError> {
                let off = (0..r).map(|i| idx[i] as isize * e.strides()[i]).sum::<isize>() + e.offset() as isize;
                let off = usize::try_from(off).map_err(|_| err())?;
                Layout::from_parts(&[rows, cols], &e.strides()[r..], off)
            };
            let (sa, sb) = (sub(&ea, m, k)?, sub(&eb, k, n)?);
            data.extend(D::Elem::gemm(self.data.as_slice(), &sa, rhs.data.as_slice(), &sb));
            for i in (0..r).rev() {
                idx[i] += 1;
                if idx[i] < batch[i] {
                    break;
                }
                idx[i] = 0;
            }
        }
        Ok(TensorBase::from_parts(data, out_layout))
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
