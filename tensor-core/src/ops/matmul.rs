//! Matrix product of 2-D tensors, and of batches of them, through `matrixmultiply`, directly on
//! strided views.
use crate::error::{OrPanic, ShapeError};
use crate::kernels::{self, small, Gemm};
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{broadcast_sizes, MatMulShape, Shape, MAX_RANK};
use crate::storage::{Data, DataMut, Out2, OutData};
use crate::tensor::{OutTensor2, TensorBase};

/// `(m, k, n)` of a 2-D static product `S @ S2` small enough for the direct kernel
/// ([`small::matmul`]), or `None`: up to [`small::DIRECT_MATMUL`] multiply-adds when an operand
/// is inline (its strides are constants, so the loops vectorise fully), up to
/// [`small::DIRECT_MATMUL_STRIDED`] otherwise (run-time strides; the gemm wins above).
pub(crate) const fn direct<S: Shape, S2: Shape>(inline: bool) -> Option<(usize, usize, usize)> {
    if !small::is_static::<S>() || !small::is_static::<S2>() {
        return None;
    }
    let limit = if inline { small::DIRECT_MATMUL } else { small::DIRECT_MATMUL_STRIDED };
    match (S::RANK, S2::RANK, S::STATIC[0], S::STATIC[1], S2::STATIC[1]) {
        (Some(2), Some(2), Some(m), Some(k), Some(n)) if m * k * n <= limit => Some((m, k, n)),
        _ => None,
    }
}

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
    /// Integer products wrap on overflow (see [`crate::num`]).
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] naming both shapes when runtime inner dims differ, an operand has
    /// fewer than 2 dims, or the batch dims do not broadcast; [`ShapeError::RankTooLarge`] when the
    /// result would have more than 6 dims; [`ShapeError::Overflow`] when its element count does
    /// not fit `isize`; [`ShapeError::Alloc`] when it cannot be allocated.
    #[inline(always)]
    pub fn try_matmul<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
    ) -> Result<OutTensor2<D, D2, D::Elem, <S as MatMulShape<S2>>::Out>, ShapeError>
    where
        S: MatMulShape<S2>,
    {
        type O<D, D2, S, S2> = Out2<D, D2, <D as Data>::Elem, <S as MatMulShape<S2>>::Out>;
        let (la, lb) = (self.layout(), rhs.layout());
        if let Some((m, k, n)) = const { direct::<S, S2>(D::INLINE || D2::INLINE) } {
            // Static sizes known to the compiler: direct loops, no gemm call, no layout work for
            // inline operands (their offsets and strides are constants too).
            let mut out = O::<D, D2, S, S2>::zeroed(m * n)?;
            let (sa, sb) = ([la.strides()[0], la.strides()[1]], [lb.strides()[0], lb.strides()[1]]);
            let (a, b) = (self.data.as_slice(), rhs.data.as_slice());
            small::matmul((m, k, n), out.as_mut_slice(), a, la.offset(), sa, b, lb.offset(), sb);
            let lay = LayoutRepr::row_major::<<S as MatMulShape<S2>>::Out>(|| Layout::contiguous(&[m, n]))?;
            return Ok(TensorBase::from_lay(out, lay));
        }
        self.matmul_general(rhs)
    }

    /// [`try_matmul`](Self::try_matmul) through the gemm: runtime sizes, large static ones and
    /// batches.
    fn matmul_general<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
    ) -> Result<OutTensor2<D, D2, D::Elem, <S as MatMulShape<S2>>::Out>, ShapeError>
    where
        S: MatMulShape<S2>,
    {
        type O<D, D2, S, S2> = Out2<D, D2, <D as Data>::Elem, <S as MatMulShape<S2>>::Out>;
        let (la, lb) = (self.layout(), rhs.layout());
        let err = || ShapeError::MatMul { lhs: la.sizes().into(), rhs: lb.sizes().into() };
        let (ra, rb) = (la.rank(), lb.rank());
        if ra < 2 || rb < 2 || la.sizes()[ra - 1] != lb.sizes()[rb - 2] {
            return Err(err());
        }
        let (m, k, n) = (la.sizes()[ra - 2], la.sizes()[ra - 1], lb.sizes()[rb - 1]);
        let (a, b) = (self.data.as_slice(), rhs.data.as_slice());
        if ra == 2 && rb == 2 {
            // The output's element count is checked before anything is allocated.
            let out = Layout::contiguous(&[m, n])?;
            let mut data = O::<D, D2, S, S2>::zeroed(out.numel())?;
            kernels::gemm(a, la, b, lb, data.as_mut_slice());
            return Ok(TensorBase::from_lay(data, LayoutRepr::try_from_layout::<<S as MatMulShape<S2>>::Out>(out)?));
        }
        let (batch, r) = broadcast_sizes(&la.sizes()[..ra - 2], &lb.sizes()[..rb - 2]).map_err(|_| err())?;
        if r + 2 > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: r + 2 });
        }
        let batch = &batch[..r];
        let full = |last: [usize; 2]| {
            let mut s = [0usize; MAX_RANK];
            s[..r].copy_from_slice(batch);
            s[r..r + 2].copy_from_slice(&last);
            s
        };
        let out = Layout::contiguous(&full([m, n])[..r + 2])?;
        let lay = LayoutRepr::try_from_layout::<<S as MatMulShape<S2>>::Out>(out)?;
        let mut data = O::<D, D2, S, S2>::zeroed(out.numel())?;
        if out.numel() == 0 {
            // No product to compute (an empty operand's offset and strides are never used).
            return Ok(TensorBase::from_lay(data, lay));
        }
        // Broadcast batch dims get stride 0: every batch reads its operands in place.
        let (ea, eb) = (la.expand(&full([m, k])[..r + 2])?, lb.expand(&full([k, n])[..r + 2])?);
        let mut idx = [0usize; MAX_RANK];
        for c in data.as_mut_slice().chunks_exact_mut(m * n) {
            let (sa, sb) = (ea.select_leading(&idx[..r])?, eb.select_leading(&idx[..r])?);
            kernels::gemm(a, &sa, b, &sb, c);
            for i in (0..r).rev() {
                idx[i] += 1;
                if idx[i] < batch[i] {
                    break;
                }
                idx[i] = 0;
            }
        }
        Ok(TensorBase::from_lay(data, lay))
    }

    /// [`try_matmul`](Self::try_matmul), panicking with the error's message.
    #[track_caller]
    #[inline(always)]
    #[rustfmt::skip] // the bound on the signature's line: it is what an error shows
    pub fn matmul<D2: Data<Elem = D::Elem>, S2: Shape>(&self, rhs: &TensorBase<D2, S2>) -> OutTensor2<D, D2, D::Elem, <S as MatMulShape<S2>>::Out> where S: MatMulShape<S2> {
        self.try_matmul(rhs).or_panic()
    }
}
