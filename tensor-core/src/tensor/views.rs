//! Views that never copy: reshape/view, transpose, permute, t, squeeze, unsqueeze, narrow, select,
//! expand. The typed forms take their axes as const generics and compute the result shape type;
//! the `_dyn` forms take runtime axes and return [`DynShape`] views.
use super::{TensorBase, TensorCow, TensorView};
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{normalize_axis, Layout};
use crate::shape::*;
use crate::storage::{CowRepr, Data};

impl<D: Data, S: Shape> TensorBase<D, S> {
    #[inline]
    fn derive<S2: Shape>(&self, layout: Layout) -> TensorView<'_, D::Elem, S2> {
        TensorBase::from_parts(self.data.as_slice(), layout)
    }

    /// The same elements with the static shape `S2`, without copying (PyTorch `view`). The
    /// element counts are checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::View`] when the strides cannot express `S2` (call `contiguous()` first, or
    /// use [`reshape`](Self::reshape)).
    pub fn try_view<S2: Shape>(&self) -> Result<TensorView<'_, D::Elem, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let to = S2::STATIC.map(|d| d.unwrap_or(1));
        let l = self.layout.view(&to[..S2::RANK.unwrap_or(0)])?;
        Ok(self.derive(l))
    }
    /// [`try_view`](Self::try_view), panicking with the error's message.
    #[track_caller]
    pub fn view<S2: Shape>(&self) -> TensorView<'_, D::Elem, S2>
    where
        S: ReshapeTo<S2>,
    {
        self.try_view().or_panic()
    }

    /// The same elements with the static shape `S2` (PyTorch `reshape`): a view when the strides
    /// allow it, a contiguous copy otherwise. Element counts are checked at compile time.
    pub fn reshape<S2: Shape>(&self) -> TensorCow<'_, D::Elem, S2>
    where
        S: ReshapeTo<S2>,
    {
        let to = S2::STATIC.map(|d| d.unwrap_or(1));
        self.reshape_to(&to[..S2::RANK.unwrap_or(0)])
    }

    fn reshape_to<S2: Shape>(&self, to: &[usize]) -> TensorCow<'_, D::Elem, S2> {
        match self.layout.view(to) {
            Ok(l) => TensorBase::from_parts(CowRepr::Borrowed(self.data.as_slice()), l),
            Err(_) => {
                let data = kernels::to_vec(self.data.as_slice(), &self.layout);
                TensorBase::from_parts(CowRepr::Owned(data), Layout::contiguous(to).expect("same element count"))
            }
        }
    }

    /// A view with runtime sizes, one of which may be `-1` (inferred): PyTorch `view(sizes)`.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ; [`ShapeError::View`] when the
    /// strides cannot express the sizes without a copy.
    pub fn try_view_dyn(&self, sizes: &[isize]) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        let to = self.layout.infer_sizes(sizes)?;
        Ok(self.derive(self.layout.view(&to)?))
    }
    /// [`try_view_dyn`](Self::try_view_dyn), panicking with the error's message.
    #[track_caller]
    pub fn view_dyn(&self, sizes: &[isize]) -> TensorView<'_, D::Elem, DynShape> {
        self.try_view_dyn(sizes).or_panic()
    }
    /// Runtime sizes with one optional `-1` (PyTorch `reshape(sizes)`): a view when possible,
    /// a copy otherwise.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ.
    pub fn try_reshape_dyn(&self, sizes: &[isize]) -> Result<TensorCow<'_, D::Elem, DynShape>, ShapeError> {
        let to = self.layout.infer_sizes(sizes)?;
        Layout::contiguous(&to)?;
        Ok(self.reshape_to(&to))
    }
    /// [`try_reshape_dyn`](Self::try_reshape_dyn), panicking with the error's message.
    #[track_caller]
    pub fn reshape_dyn(&self, sizes: &[isize]) -> TensorCow<'_, D::Elem, DynShape> {
        self.try_reshape_dyn(sizes).or_panic()
    }

    /// Swaps axes `A` and `B` (PyTorch `transpose(A, B)`): `[2, 3, 4]` with `<0, 2>` gives
    /// `[4, 3, 2]`. Axes are checked at compile time for tuple shapes.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor whose rank has no such axis.
    #[track_caller]
    pub fn transpose<const A: usize, const B: usize>(&self) -> TensorView<'_, D::Elem, <S as SwapAxes<A, B>>::Out>
    where
        S: SwapAxes<A, B>,
    {
        self.derive(self.layout.transpose(A, B).or_panic())
    }

    /// The transpose of a matrix (PyTorch `t()`): `[m, n] -> [n, m]`; rank 0 and 1 unchanged.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with more than 2 dims.
    #[track_caller]
    pub fn t(&self) -> TensorView<'_, D::Elem, <S as TransposeShape>::Out>
    where
        S: TransposeShape,
    {
        if self.rank() > 2 {
            crate::error::fail(ShapeError::Invalid(alloc::format!(
                "t() expects a tensor with at most 2 dims, got {:?}",
                self.sizes()
            )));
        }
        let l = if self.rank() == 2 { self.layout.transpose(0, 1).or_panic() } else { self.layout };
        self.derive(l)
    }

    /// Reorders the axes (PyTorch `permute`): `x.permute::<Axes![2, 0, 1]>()` takes `[a, b, c]`
    /// to `[c, a, b]`. The permutation is checked at compile time.
    pub fn permute<P: PermuteShape<S>>(&self) -> TensorView<'_, D::Elem, P::Out> {
        let r = self.rank();
        self.derive(self.layout.permute(&P::AXES[..r]).or_panic())
    }

    /// Removes axis `A`, which must have size 1 (PyTorch `squeeze(A)`). Squeezing a static dim
    /// whose size is not 1 is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Squeeze`] when a runtime dim is not 1.
    pub fn try_squeeze<const A: usize>(&self) -> Result<TensorView<'_, D::Elem, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
    {
        Ok(self.derive(self.layout.squeeze(A)?))
    }
    /// [`try_squeeze`](Self::try_squeeze), panicking with the error's message.
    #[track_caller]
    pub fn squeeze<const A: usize>(&self) -> TensorView<'_, D::Elem, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
    {
        self.try_squeeze::<A>().or_panic()
    }

    /// Inserts a size-1 axis at `A` (PyTorch `unsqueeze(A)`): `[2, 3]` with `<1>` gives
    /// `[2, 1, 3]`.
    #[track_caller]
    pub fn unsqueeze<const A: usize>(&self) -> TensorView<'_, D::Elem, <S as InsertAxis<A>>::Out>
    where
        S: InsertAxis<A>,
    {
        self.derive(self.layout.unsqueeze(A).or_panic())
    }

    /// Keeps `len` elements of axis `A` from `start` (negative counts from the end): PyTorch
    /// `narrow(A, start, len)`. The narrowed dim becomes `Dyn`; use `t!` for static bounds.
    ///
    /// # Errors
    /// [`ShapeError::Range`] when the range leaves the dim.
    pub fn try_narrow<const A: usize>(
        &self,
        start: isize,
        len: usize,
    ) -> Result<TensorView<'_, D::Elem, <S as SetAxis<A, Dyn>>::Out>, ShapeError>
    where
        S: SetAxis<A, Dyn>,
    {
        Ok(self.derive(self.layout.narrow(A, start, len)?))
    }
    /// [`try_narrow`](Self::try_narrow), panicking with the error's message.
    #[track_caller]
    pub fn narrow<const A: usize>(
        &self,
        start: isize,
        len: usize,
    ) -> TensorView<'_, D::Elem, <S as SetAxis<A, Dyn>>::Out>
    where
        S: SetAxis<A, Dyn>,
    {
        self.try_narrow::<A>(start, len).or_panic()
    }

    /// The slice at `index` along axis `A`, which is removed (PyTorch `select(A, index)`;
    /// negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Index`] when the index is out of bounds.
    pub fn try_select<const A: usize>(
        &self,
        index: isize,
    ) -> Result<TensorView<'_, D::Elem, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        Ok(self.derive(self.layout.select(A, index)?))
    }
    /// [`try_select`](Self::try_select), panicking with the error's message.
    #[track_caller]
    pub fn select<const A: usize>(&self, index: isize) -> TensorView<'_, D::Elem, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.try_select::<A>(index).or_panic()
    }

    /// Broadcasts to the fully static shape `S2` without copying (PyTorch `expand`): size-1 dims
    /// repeat with stride 0; new leading dims may be added. Checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when a runtime dim of `self` is neither 1 nor its target.
    pub fn try_expand<S2: AllStatic>(&self) -> Result<TensorView<'_, D::Elem, S2>, ShapeError>
    where
        S: ExpandShape<S2>,
    {
        let to = S2::STATIC.map(|d| d.unwrap_or(1));
        Ok(self.derive(self.layout.expand(&to[..S2::RANK.unwrap_or(0)])?))
    }
    /// [`try_expand`](Self::try_expand), panicking with the error's message.
    #[track_caller]
    pub fn expand<S2: AllStatic>(&self) -> TensorView<'_, D::Elem, S2>
    where
        S: ExpandShape<S2>,
    {
        self.try_expand().or_panic()
    }

    /// Runtime-axis forms, for data-driven code: each returns a [`DynShape`] view.
    ///
    /// `transpose_dyn(a, b)`: PyTorch `transpose(a, b)` (negative axes count from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn transpose_dyn(&self, a: isize, b: isize) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        let r = self.rank();
        Ok(self.derive(self.layout.transpose(normalize_axis(a, r)?, normalize_axis(b, r)?)?))
    }
    /// PyTorch `permute(axes)` with runtime axes.
    ///
    /// # Errors
    /// [`ShapeError::Permutation`].
    pub fn permute_dyn(&self, axes: &[usize]) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        Ok(self.derive(self.layout.permute(axes)?))
    }
    /// PyTorch `squeeze(axis)` with a runtime axis.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Squeeze`].
    pub fn squeeze_dyn(&self, axis: isize) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        Ok(self.derive(self.layout.squeeze(normalize_axis(axis, self.rank())?)?))
    }
    /// PyTorch `unsqueeze(axis)` with a runtime axis (`0..=rank`, negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::RankTooLarge`].
    pub fn unsqueeze_dyn(&self, axis: isize) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        Ok(self.derive(self.layout.unsqueeze(normalize_axis(axis, self.rank() + 1)?)?))
    }
    /// PyTorch `narrow(axis, start, len)` with a runtime axis.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Range`].
    pub fn narrow_dyn(
        &self,
        axis: isize,
        start: isize,
        len: usize,
    ) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        Ok(self.derive(self.layout.narrow(normalize_axis(axis, self.rank())?, start, len)?))
    }
    /// PyTorch `select(axis, index)` with a runtime axis.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Index`].
    pub fn select_dyn(&self, axis: isize, index: isize) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        Ok(self.derive(self.layout.select(normalize_axis(axis, self.rank())?, index)?))
    }
    /// PyTorch `expand(sizes)` with runtime sizes.
    ///
    /// # Errors
    /// [`ShapeError::Expand`].
    pub fn expand_dyn(&self, sizes: &[usize]) -> Result<TensorView<'_, D::Elem, DynShape>, ShapeError> {
        Ok(self.derive(self.layout.expand(sizes)?))
    }
}
