//! Tensor contractions beyond `matmul`: the Kronecker product (`kron`) and `tensordot`. Both
//! compute layouts here and leave the element loops to the kernels (`kernels::vector::kron`, the
//! gemm behind `matmul`).
use crate::error::ShapeError;
use crate::kernels::{self, Gemm};
use crate::layout::{kron_layouts, normalize_axis, Layout, LayoutRepr};
use crate::num::Num;
use crate::shape::{DynShape, KronShape, Shape, MAX_RANK};
use crate::storage::{Data, DataMut, Out2, OutData};
use crate::tensor::{OutTensor2, Tensor, TensorBase};
use alloc::format;
use shaped_macros::try_twin;

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The Kronecker product of two tensors of the same rank (PyTorch `torch.kron`, NumPy
    /// `np.kron`): `[a0, a1, ..] ⊗ [b0, b1, ..] -> [a0·b0, a1·b1, ..]`, with element
    /// `out[i0·b0 + j0, i1·b1 + j1, ..] = self[i0, i1, ..] · other[j0, j1, ..]`: a block per
    /// element of `self`, scaled copies of `other`. Ranks 0..=6; either operand may be any
    /// strided view (read in place).
    ///
    /// Result shape: a [`DynShape`] operand gives a [`DynShape`] result. Static shapes give static
    /// sizes, computed at compile time through typenum's bridge: `Const<N·M>` for products up to
    /// 1024 (larger products, or code generic over sizes, are a compile error: use `as_dyn()`),
    /// the other factor when one side is the broadcastable `One` (any size), `Dyn` when either
    /// side is `Dyn`. Operands of different static ranks are a compile error. Unlike PyTorch,
    /// which pads the operand with fewer dims with leading 1s, the ranks must be equal
    /// (`unsqueeze` first). Integer products wrap (see [`crate::num`]).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime ranks differ; [`ShapeError::Overflow`] when the
    /// result's element count does not fit `isize`; [`ShapeError::Alloc`].
    ///
    /// # Example
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
    /// let b: Tensor<i32, Shape![1, 2]> = Tensor::from([[1, 10]]);
    /// let k: Tensor<i32, Shape![2, 4]> = a.kron(&b);
    /// assert_eq!(k.to_vec(), [1, 10, 2, 20, 3, 30, 4, 40]);
    /// // Runtime shapes: the sizes are checked and multiplied at run time.
    /// let d = a.as_dyn().try_kron(&b.as_dyn()).unwrap();
    /// assert_eq!(d.sizes(), [2, 4]);
    /// ```
    #[doc(alias = "kronecker")]
    #[inline]
    #[try_twin(alias = "kronecker")]
    #[rustfmt::skip] // the bound on the signature's line: it is what an error shows
    pub fn try_kron<D2: Data<Elem = D::Elem>, S2: Shape>(&self, other: &TensorBase<D2, S2>) -> Result<OutTensor2<D, D2, D::Elem, <S as KronShape<S2>>::Out>, ShapeError> where S: KronShape<S2> {
        let (la, lb) = (self.layout(), other.layout());
        if la.rank() != lb.rank() {
            return Err(ShapeError::mismatch("kron", "differ in rank", la.sizes(), lb.sizes()));
        }
        let (out, outer, inner) = kron_layouts(la.sizes(), lb.sizes())?;
        let lay = LayoutRepr::row_major::<<S as KronShape<S2>>::Out>(|| Ok(out))?;
        let mut data = Out2::<D, D2, D::Elem, <S as KronShape<S2>>::Out>::zeroed(out.numel())?;
        kernels::vector::kron(
            data.as_mut_slice(),
            (self.data.as_slice(), la, &outer),
            (other.data.as_slice(), lb, &inner),
        );
        Ok(TensorBase::from_lay(data, lay))
    }
}

/// Normalises `tensordot`'s axis list `axes` of an operand of rank `rank` (negative counts from
/// the end), marking each in `used`.
fn contracted(axes: &[isize], rank: usize, used: &mut [bool; MAX_RANK]) -> Result<[usize; MAX_RANK], ShapeError> {
    let mut out = [0usize; MAX_RANK];
    if axes.len() > rank {
        return Err(ShapeError::Invalid(format!(
            "tensordot: {} axes {axes:?} for a tensor of rank {rank}",
            axes.len()
        )));
    }
    for (o, &a) in out.iter_mut().zip(axes) {
        let i = normalize_axis(a, rank)?;
        if core::mem::replace(&mut used[i], true) {
            return Err(ShapeError::Invalid(format!(
                "tensordot: axis {a} is repeated in {axes:?} (a tensor of rank {rank})"
            )));
        }
        *o = i;
    }
    Ok(out)
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// The tensor contraction over the axes `axes_a` of `self` paired with `axes_b` of `other`
    /// (NumPy `np.tensordot(a, b, axes=(axes_a, axes_b))`, PyTorch `torch.tensordot(a, b,
    /// dims=(axes_a, axes_b))`): sums the products over each pair of contracted axes. The
    /// result's dims are the remaining dims of `self` in order, then those of `other`; it has
    /// rank `rank(self) + rank(other) - 2·axes_a.len()` (at most 6) and a runtime shape. Empty
    /// axis lists give the outer product; contracting every axis of both gives a 0-d result.
    /// Axes may be negative (counted from the end) and listed in any order.
    ///
    /// The contracted axes are permuted to the end of `self` and the front of `other` (views),
    /// each operand is reshaped to a matrix (copied only when its strides cannot express that)
    /// and one [`matmul`](Self::matmul) computes the result. Integer sums wrap (see
    /// [`crate::num`]).
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for an axis out of range; [`ShapeError::Invalid`] for an axis repeated
    /// in a list or a list longer than the rank; [`ShapeError::Mismatch`] when the lists differ
    /// in length or paired axes differ in size; [`ShapeError::RankTooLarge`] when the result
    /// would have more than 6 dims; [`ShapeError::Alloc`].
    ///
    /// # Example
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Shape, Tensor};
    /// // [2, 3, 4] contracted with [4, 3] over (axes 1, 2) and (axes 1, 0): a [2] result.
    /// let a = Tensor::<f32, Shape![2, 3, 4]>::from_vec(&[2, 3, 4], (0..24).map(|x| x as f32).collect());
    /// let b = Tensor::<f32, Shape![4, 3]>::ones();
    /// let c: Tensor<f32, DynShape> = a.tensordot(&b, &[1, 2], &[1, 0]);
    /// assert_eq!(c.sizes(), [2]);
    /// assert_eq!(c.to_vec(), [66., 210.]);
    /// // No axes: the outer product, [2, 3, 4] ⊗ [4, 3] -> [2, 3, 4, 4, 3].
    /// assert_eq!(a.tensordot(&b, &[], &[]).sizes(), [2, 3, 4, 4, 3]);
    /// ```
    #[try_twin(alias = "contract")]
    pub fn try_tensordot<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        other: &TensorBase<D2, S2>,
        axes_a: &[isize],
        axes_b: &[isize],
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let (sa, sb) = (self.sizes(), other.sizes());
        let mismatch = |what| ShapeError::Mismatch { op: "tensordot", what, lhs: sa.into(), rhs: sb.into() };
        if axes_a.len() != axes_b.len() {
            return Err(mismatch(format!(
                "are contracted over axis lists of different lengths ({axes_a:?} and {axes_b:?})"
            )));
        }
        let c = axes_a.len();
        let (mut used_a, mut used_b) = ([false; MAX_RANK], [false; MAX_RANK]);
        let ca = contracted(axes_a, sa.len(), &mut used_a)?;
        let cb = contracted(axes_b, sb.len(), &mut used_b)?;
        if let Some(i) = (0..c).find(|&i| sa[ca[i]] != sb[cb[i]]) {
            return Err(mismatch(format!(
                "differ in the sizes of contracted axes {} and {} ({} and {})",
                axes_a[i], axes_b[i], sa[ca[i]], sb[cb[i]]
            )));
        }
        let (fa, fb) = (sa.len() - c, sb.len() - c);
        if fa + fb > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: fa + fb });
        }
        // `self` as [free dims.., contracted..], `other` as [contracted.., free dims..]; the
        // result's sizes are the free dims of both.
        let (mut pa, mut pb, mut sizes) = ([0usize; MAX_RANK], [0usize; MAX_RANK], [0usize; MAX_RANK]);
        let (mut m, mut k, mut n) = (1usize, 1usize, 1usize);
        for (j, i) in (0..sa.len()).filter(|&i| !used_a[i]).enumerate() {
            (pa[j], sizes[j]) = (i, sa[i]);
            m *= sa[i];
        }
        for (j, i) in (0..sb.len()).filter(|&i| !used_b[i]).enumerate() {
            (pb[c + j], sizes[fa + j]) = (i, sb[i]);
            n *= sb[i];
        }
        for i in 0..c {
            (pa[fa + i], pb[i]) = (ca[i], cb[i]);
            k *= sa[ca[i]];
        }
        let a = self.try_permute_dyn(&pa[..sa.len()])?;
        let b = other.try_permute_dyn(&pb[..sb.len()])?;
        // Element counts of existing tensors: each fits isize.
        let a = a.try_reshape_dyn(&[m as isize, k as isize])?;
        let b = b.try_reshape_dyn(&[k as isize, n as isize])?;
        let p = a.try_matmul(&b)?;
        Ok(TensorBase::from_lay(p.data, Layout::contiguous(&sizes[..fa + fb])?))
    }
}
