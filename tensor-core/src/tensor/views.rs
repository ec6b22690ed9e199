//! Views that never copy: reshape/view, transpose, permute, t, squeeze, unsqueeze, narrow, select,
//! expand/broadcast_to, flip, movedim, diagonal, unflatten, chunk, split (`flatten`, as `reshape`,
//! copies only when the strides cannot merge the dims). The typed forms take their axes as const
//! generics and compute the result shape type; the `_dyn` forms take runtime axes and return
//! [`DynShape`] views.
use super::{TensorBase, TensorCow, ViewOf};
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::index::{apply_args, SliceArg};
use crate::kernels;
use crate::layout::{normalize_axis, normalize_insert_axis, Layout};
use crate::shape::*;
use crate::storage::{CowRepr, Data};
use alloc::vec::Vec;

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Axis `a` of this tensor (negative counts from the end): the typed forms check it at compile
    /// time for tuple shapes, so this fails only for a [`DynShape`] tensor of another rank.
    #[inline]
    pub(crate) fn ax(&self, a: isize) -> Result<usize, ShapeError> {
        normalize_axis(a, self.rank())
    }

    #[inline]
    pub(crate) fn derive<S2: Shape>(&self, layout: Layout) -> ViewOf<'_, D, S2> {
        TensorBase::from_parts(self.data.view_data(), layout)
    }

    /// The same elements with the static shape `S2`, without copying (PyTorch `view`). The
    /// element counts are checked at compile time.
    ///
    /// # Errors
    /// [`ShapeError::View`] when the strides cannot express `S2` (call `contiguous()` first, or
    /// use [`reshape`](Self::reshape)).
    pub fn try_view<S2: Shape>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let to = S2::STATIC.map(|d| d.unwrap_or(1));
        let l = self.layout().view(&to[..S2::RANK.unwrap_or(0)])?;
        Ok(self.derive(l))
    }
    /// [`try_view`](Self::try_view), panicking with the error's message.
    #[track_caller]
    pub fn view<S2: Shape>(&self) -> ViewOf<'_, D, S2>
    where
        S: ReshapeTo<S2>,
    {
        self.try_view().or_panic()
    }

    /// The same elements with the static shape `S2` (PyTorch `reshape`): a view when the strides
    /// allow it, a contiguous copy otherwise. Element counts are checked at compile time.
    ///
    /// # Panics
    /// When a copy is needed and cannot be allocated (see [`try_reshape`](Self::try_reshape)).
    #[track_caller]
    #[doc(alias = "into_shape_with_order", alias = "to_shape", alias = "into_shape")]
    pub fn reshape<S2: Shape>(&self) -> TensorCow<'_, D::Elem, S2>
    where
        S: ReshapeTo<S2>,
    {
        self.try_reshape().or_panic()
    }
    /// [`reshape`](Self::reshape), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when a copy is needed and cannot be allocated.
    pub fn try_reshape<S2: Shape>(&self) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let to = S2::STATIC.map(|d| d.unwrap_or(1));
        self.reshape_to(&to[..S2::RANK.unwrap_or(0)])
    }

    /// A view with sizes `to` (same element count, checked by the caller) when the strides allow
    /// it, a contiguous copy otherwise.
    fn reshape_to<S2: Shape>(&self, to: &[usize]) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError> {
        Ok(match self.layout().view(to) {
            Ok(l) => TensorBase::from_parts(CowRepr::Borrowed(self.data.as_slice()), l),
            Err(_) => {
                let out = Layout::contiguous(to)?;
                let data = kernels::to_vec(self.data.as_slice(), self.layout())?;
                TensorBase::from_parts(CowRepr::Owned(data.into()), out)
            }
        })
    }

    /// A view with runtime sizes, one of which may be `-1` (inferred): PyTorch `view(sizes)`.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ; [`ShapeError::View`] when the
    /// strides cannot express the sizes without a copy.
    pub fn try_view_dyn(&self, sizes: &[isize]) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        let to = self.layout().infer_sizes(sizes)?;
        Ok(self.derive(self.layout().view(&to)?))
    }
    /// [`try_view_dyn`](Self::try_view_dyn), panicking with the error's message.
    #[track_caller]
    pub fn view_dyn(&self, sizes: &[isize]) -> ViewOf<'_, D, DynShape> {
        self.try_view_dyn(sizes).or_panic()
    }
    /// Runtime sizes with one optional `-1` (PyTorch `reshape(sizes)`): a view when possible,
    /// a copy otherwise.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ.
    pub fn try_reshape_dyn(&self, sizes: &[isize]) -> Result<TensorCow<'_, D::Elem, DynShape>, ShapeError> {
        let to = self.layout().infer_sizes(sizes)?;
        Layout::contiguous(&to)?;
        self.reshape_to(&to)
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
    #[doc(alias = "swap_axes", alias = "swapaxes")]
    pub fn transpose<const A: isize, const B: isize>(&self) -> ViewOf<'_, D, <S as SwapAxes<A, B>>::Out>
    where
        S: SwapAxes<A, B>,
    {
        self.derive(self.layout().transpose(self.ax(A).or_panic(), self.ax(B).or_panic()).or_panic())
    }

    /// The transpose of a matrix (PyTorch `t()`): `[m, n] -> [n, m]`; rank 0 and 1 unchanged.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with more than 2 dims.
    #[track_caller]
    #[doc(alias = "reversed_axes", alias = "transpose", alias = "mT")]
    pub fn t(&self) -> ViewOf<'_, D, <S as TransposeShape>::Out>
    where
        S: TransposeShape,
    {
        if self.rank() > 2 {
            crate::error::fail(ShapeError::Invalid(alloc::format!(
                "t() expects a tensor with at most 2 dims, got {:?}",
                self.sizes()
            )));
        }
        let l = if self.rank() == 2 { self.layout().transpose(0, 1).or_panic() } else { *self.layout() };
        self.derive(l)
    }

    /// Reorders the axes (PyTorch `permute`): `x.permute::<Axes![2, 0, 1]>()` takes `[a, b, c]`
    /// to `[c, a, b]`. The permutation is checked at compile time.
    #[doc(alias = "permuted_axes")]
    pub fn permute<P: PermuteShape<S>>(&self) -> ViewOf<'_, D, P::Out> {
        let r = self.rank();
        self.derive(self.layout().permute(&P::AXES[..r]).or_panic())
    }

    /// Removes axis `A`, which must have size 1 (PyTorch `squeeze(A)`). Squeezing a static dim
    /// whose size is not 1 is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Squeeze`] when a runtime dim is not 1.
    pub fn try_squeeze<const A: isize>(&self) -> Result<ViewOf<'_, D, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
    {
        Ok(self.derive(self.layout().squeeze(self.ax(A)?)?))
    }
    /// [`try_squeeze`](Self::try_squeeze), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "remove_axis")]
    pub fn squeeze<const A: isize>(&self) -> ViewOf<'_, D, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
    {
        self.try_squeeze::<A>().or_panic()
    }

    /// Inserts a size-1 axis at `A` (PyTorch `unsqueeze(A)`): `[2, 3]` with `<1>` gives
    /// `[2, 1, 3]`.
    #[track_caller]
    #[doc(alias = "insert_axis", alias = "expand_dims")]
    pub fn unsqueeze<const A: isize>(&self) -> ViewOf<'_, D, <S as InsertAxis<A>>::Out>
    where
        S: InsertAxis<A>,
    {
        self.derive(self.layout().unsqueeze(normalize_insert_axis(A, self.rank()).or_panic()).or_panic())
    }

    /// Keeps `len` elements of axis `A` from `start` (negative counts from the end): PyTorch
    /// `narrow(A, start, len)`. The narrowed dim becomes `Dyn`; use `t!` for static bounds.
    ///
    /// # Errors
    /// [`ShapeError::Range`] when the range leaves the dim.
    pub fn try_narrow<const A: isize>(
        &self,
        start: isize,
        len: usize,
    ) -> Result<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>, ShapeError>
    where
        S: SetAxis<A, Dyn>,
    {
        Ok(self.derive(self.layout().narrow(self.ax(A)?, start, len)?))
    }
    /// [`try_narrow`](Self::try_narrow), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "slice_axis", alias = "slice_axis_move")]
    pub fn narrow<const A: isize>(&self, start: isize, len: usize) -> ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>
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
    pub fn try_select<const A: isize>(
        &self,
        index: isize,
    ) -> Result<ViewOf<'_, D, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        Ok(self.derive(self.layout().select(self.ax(A)?, index)?))
    }
    /// [`try_select`](Self::try_select), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "index_axis", alias = "index_axis_move")]
    pub fn select<const A: isize>(&self, index: isize) -> ViewOf<'_, D, <S as RemoveAxis<A>>::Out>
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
    pub fn try_expand<S2: AllStatic>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ExpandShape<S2>,
    {
        let to = S2::STATIC.map(|d| d.unwrap_or(1));
        Ok(self.derive(self.layout().expand(&to[..S2::RANK.unwrap_or(0)])?))
    }
    /// [`try_expand`](Self::try_expand), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "broadcast")]
    pub fn expand<S2: AllStatic>(&self) -> ViewOf<'_, D, S2>
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
    pub fn transpose_dyn(&self, a: isize, b: isize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        let r = self.rank();
        Ok(self.derive(self.layout().transpose(normalize_axis(a, r)?, normalize_axis(b, r)?)?))
    }
    /// PyTorch `permute(axes)` with runtime axes.
    ///
    /// # Errors
    /// [`ShapeError::Permutation`].
    pub fn permute_dyn(&self, axes: &[usize]) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().permute(axes)?))
    }
    /// PyTorch `squeeze(axis)` with a runtime axis.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Squeeze`].
    pub fn squeeze_dyn(&self, axis: isize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().squeeze(normalize_axis(axis, self.rank())?)?))
    }
    /// PyTorch `unsqueeze(axis)` with a runtime axis (`0..=rank`, negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::RankTooLarge`].
    pub fn unsqueeze_dyn(&self, axis: isize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().unsqueeze(normalize_insert_axis(axis, self.rank())?)?))
    }
    /// PyTorch `narrow(axis, start, len)` with a runtime axis.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Range`].
    pub fn narrow_dyn(&self, axis: isize, start: isize, len: usize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().narrow(normalize_axis(axis, self.rank())?, start, len)?))
    }
    /// PyTorch `select(axis, index)` with a runtime axis.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Index`].
    pub fn select_dyn(&self, axis: isize, index: isize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().select(normalize_axis(axis, self.rank())?, index)?))
    }
    /// PyTorch `expand(sizes)` with runtime sizes.
    ///
    /// # Errors
    /// [`ShapeError::Expand`].
    pub fn expand_dyn(&self, sizes: &[usize]) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().expand(sizes)?))
    }

    /// Runtime-axis form of [`flip`](Self::flip) for several axes (PyTorch `flip(dims)`, negative
    /// axes count from the end): a reversed view, never a copy.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when an axis appears twice.
    pub fn flip_dyn(&self, axes: &[isize]) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().flip_axes(axes)?))
    }
    /// Runtime-axis form of [`flatten_range`](Self::flatten_range) (PyTorch
    /// `flatten(start_dim, end_dim)`, `end` inclusive, negative axes count from the end; a scalar
    /// flattens to `[1]`): a view when the strides allow it, a copy otherwise.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `start` comes after `end`.
    pub fn flatten_dyn(&self, start: isize, end: isize) -> Result<TensorCow<'_, D::Elem, DynShape>, ShapeError> {
        let r = self.rank().max(1);
        let (sizes, k) = self.layout().flatten_sizes(normalize_axis(start, r)?, normalize_axis(end, r)?)?;
        self.reshape_to(&sizes[..k])
    }
    /// Runtime-axis form of [`unflatten`](Self::unflatten) (PyTorch `unflatten(axis, sizes)`; one
    /// size may be `-1`, inferred). Always a view.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Reshape`] when the sizes do not multiply to the dim;
    /// [`ShapeError::Invalid`] for no sizes; [`ShapeError::RankTooLarge`].
    pub fn unflatten_dyn(&self, axis: isize, sizes: &[isize]) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(self.derive(self.layout().unflatten(normalize_axis(axis, self.rank())?, sizes)?))
    }
    /// Runtime-axis form of [`movedim`](Self::movedim) (PyTorch `movedim(src, dst)`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn movedim_dyn(&self, src: isize, dst: isize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        let r = self.rank();
        Ok(self.derive(self.layout().movedim(normalize_axis(src, r)?, normalize_axis(dst, r)?)?))
    }
    /// Runtime-axis form of [`diagonal`](Self::diagonal), in PyTorch's argument order
    /// `diagonal(offset, dim1, dim2)`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when the two axes are the same.
    pub fn diagonal_dyn(&self, offset: isize, dim1: isize, dim2: isize) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        let r = self.rank();
        Ok(self.derive(self.layout().diagonal(normalize_axis(dim1, r)?, normalize_axis(dim2, r)?, offset)?))
    }
    /// Runtime-axis form of [`chunk`](Self::chunk) (PyTorch `chunk(chunks, axis)`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `chunks` is 0.
    pub fn chunk_dyn(&self, chunks: usize, axis: isize) -> Result<Vec<ViewOf<'_, D, DynShape>>, ShapeError> {
        let ls = self.layout().chunk(normalize_axis(axis, self.rank())?, chunks)?;
        let mut out = kernels::try_with_capacity_uncached(ls.len())?;
        out.extend(ls.into_iter().map(|l| self.derive(l)));
        Ok(out)
    }
    /// Runtime-axis form of [`split`](Self::split) (PyTorch `split(size, axis)`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `size` is 0 and the dim is not empty.
    pub fn split_dyn(&self, size: usize, axis: isize) -> Result<Vec<ViewOf<'_, D, DynShape>>, ShapeError> {
        let ls = self.layout().split(normalize_axis(axis, self.rank())?, size)?;
        let mut out = kernels::try_with_capacity_uncached(ls.len())?;
        out.extend(ls.into_iter().map(|l| self.derive(l)));
        Ok(out)
    }

    /// Axis `A` reversed, as a view with a negative stride: `[[1, 2], [3, 4]]` flipped along
    /// `<1>` reads `[[2, 1], [4, 3]]`. Same shape. The axis is checked at compile time for tuple
    /// shapes; `t!(x[.., ..;-1])` is the same view.
    ///
    /// Mirrors PyTorch `flip(A)` with one deliberate difference: PyTorch's `flip` copies, this
    /// one never does (as NumPy's `flip`), so writes through the source show in the view.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor whose rank has no axis `A` (see [`flip_dyn`](Self::flip_dyn)).
    #[track_caller]
    #[doc(alias = "invert_axis")]
    pub fn flip<const A: isize>(&self) -> ViewOf<'_, D, S>
    where
        S: RemoveAxis<A>,
    {
        self.derive(self.layout().flip(self.ax(A).or_panic()).or_panic())
    }

    /// Every dim merged into one (PyTorch `flatten()`): `[2, 3, 4] -> [_]` (24 elements at run
    /// time; a rank-1 shape keeps its dim, a scalar becomes `[1]`). A view when the strides allow
    /// it (always for contiguous tensors), a contiguous copy otherwise, as
    /// [`reshape`](Self::reshape).
    #[doc(alias = "ravel")]
    pub fn flatten(&self) -> TensorCow<'_, D::Elem, <S as FlattenShape>::Out>
    where
        S: FlattenShape,
    {
        let (sizes, k) = self.layout().flatten_sizes(0, self.rank().max(1) - 1).or_panic();
        self.reshape_to(&sizes[..k]).or_panic()
    }

    /// Dims `START..=END` merged into one `Dyn` dim (PyTorch `flatten(START, END)`, `END`
    /// inclusive): `[2, 3, 4, 5]` with `<1, 2>` gives `[2, _, 5]`. A view when the strides allow
    /// it, a contiguous copy otherwise. The axes are checked at compile time for tuple shapes.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor whose axes are out of range or out of order (see
    /// [`flatten_dyn`](Self::flatten_dyn)).
    #[track_caller]
    pub fn flatten_range<const START: isize, const END: isize>(
        &self,
    ) -> TensorCow<'_, D::Elem, <S as FlattenRange<START, END>>::Out>
    where
        S: FlattenRange<START, END>,
    {
        let r = self.rank().max(1);
        let (sizes, k) = self
            .layout()
            .flatten_sizes(normalize_axis(START, r).or_panic(), normalize_axis(END, r).or_panic())
            .or_panic();
        self.reshape_to(&sizes[..k]).or_panic()
    }

    /// Dim `A` split into the dims of the tuple shape `S2` (PyTorch `unflatten(A, sizes)`):
    /// `[2, 12]` with `<1, Shape![3, 4]>` gives `[2, 3, 4]`. One dim of `S2` may be `Dyn` (`_`):
    /// its size is inferred, as PyTorch's `-1`. Always a view: splitting a dim never needs a copy.
    /// The axis and the result rank (at most 6) are checked at compile time for tuple shapes;
    /// the product of the sizes is checked here.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] naming the requested shape when the sizes of `S2` do not multiply
    /// to dim `A` (or `S2` has more than one `Dyn` dim); for a [`DynShape`] tensor also
    /// [`ShapeError::Axis`], [`ShapeError::RankTooLarge`].
    pub fn try_unflatten<const A: isize, S2: Shape>(
        &self,
    ) -> Result<ViewOf<'_, D, <S as Unflatten<A, S2>>::Out>, ShapeError>
    where
        S: Unflatten<A, S2>,
    {
        let sizes = S2::STATIC.map(|d| d.map_or(-1, |n| n as isize));
        Ok(self.derive(self.layout().unflatten(self.ax(A)?, &sizes[..S2::RANK.unwrap_or(0)])?))
    }
    /// [`try_unflatten`](Self::try_unflatten), panicking with the error's message.
    #[track_caller]
    pub fn unflatten<const A: isize, S2: Shape>(&self) -> ViewOf<'_, D, <S as Unflatten<A, S2>>::Out>
    where
        S: Unflatten<A, S2>,
    {
        self.try_unflatten::<A, S2>().or_panic()
    }

    /// Dim `SRC` moved to position `DST`, the others keeping their order (PyTorch
    /// `torch.movedim(x, SRC, DST)`): `[2, 3, 4]` with `<0, 2>` gives `[3, 4, 2]`. A view; the
    /// axes are checked at compile time for tuple shapes.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor whose rank has no such axis (see
    /// [`movedim_dyn`](Self::movedim_dyn)).
    #[doc(alias = "moveaxis")]
    #[track_caller]
    pub fn movedim<const SRC: isize, const DST: isize>(&self) -> ViewOf<'_, D, <S as MoveAxis<SRC, DST>>::Out>
    where
        S: MoveAxis<SRC, DST>,
    {
        self.derive(self.layout().movedim(self.ax(SRC).or_panic(), self.ax(DST).or_panic()).or_panic())
    }

    /// The diagonal of dims `D1` and `D2` as a view (PyTorch `diagonal(offset, D1, D2)`): both
    /// dims are removed and the diagonal becomes a new last dim of length
    /// `min(n1, n2 - offset)` for `offset >= 0` (`min(n1 + offset, n2)` below it), `Dyn` in the
    /// type: `[3, 4]` with `<0, 1>` and offset 1 gives `[_]` = `[3]` (elements `(0, 1), (1, 2),
    /// (2, 3)`). An offset past the edge gives an empty diagonal, as in PyTorch. The axes are
    /// checked at compile time for tuple shapes (they must differ).
    ///
    /// # Panics
    /// For a [`DynShape`] tensor whose rank has no such axes, or when `D1 == D2` (see
    /// [`diagonal_dyn`](Self::diagonal_dyn)).
    #[track_caller]
    #[doc(alias = "diag")]
    pub fn diagonal<const D1: isize, const D2: isize>(
        &self,
        offset: isize,
    ) -> ViewOf<'_, D, <S as DiagonalShape<D1, D2>>::Out>
    where
        S: DiagonalShape<D1, D2>,
    {
        self.derive(self.layout().diagonal(self.ax(D1).or_panic(), self.ax(D2).or_panic(), offset).or_panic())
    }

    /// PyTorch's other name for [`try_expand`](Self::try_expand) (`broadcast_to(shape)`): the same
    /// zero-copy broadcast to the fully static shape `S2`, with the same compile-time check.
    ///
    /// # Errors
    /// As [`try_expand`](Self::try_expand).
    pub fn try_broadcast_to<S2: AllStatic>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ExpandShape<S2>,
    {
        self.try_expand()
    }
    /// PyTorch's other name for [`expand`](Self::expand) (`torch.broadcast_to`).
    ///
    /// # Panics
    /// As [`expand`](Self::expand).
    #[track_caller]
    #[doc(alias = "broadcast")]
    pub fn broadcast_to<S2: AllStatic>(&self) -> ViewOf<'_, D, S2>
    where
        S: ExpandShape<S2>,
    {
        self.expand()
    }

    /// Dim `A` cut into at most `chunks` views of `ceil(n / chunks)` elements, the last one
    /// shorter (PyTorch `chunk(chunks, A)`: a `[5, 2]` tensor in 3 chunks along `<0>` gives sizes
    /// 2, 2, 1; 6 elements in 4 chunks give 3 pieces of 2, as PyTorch; an empty dim gives `chunks`
    /// empty views). Dim `A` of each view is `Dyn`. No copy.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `chunks` is 0; for a [`DynShape`] tensor also
    /// [`ShapeError::Axis`].
    #[allow(clippy::type_complexity)]
    pub fn try_chunk<const A: isize>(
        &self,
        chunks: usize,
    ) -> Result<Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>, ShapeError>
    where
        S: SetAxis<A, Dyn>,
    {
        let ls = self.layout().chunk(self.ax(A)?, chunks)?;
        let mut out = kernels::try_with_capacity_uncached(ls.len())?;
        out.extend(ls.into_iter().map(|l| self.derive(l)));
        Ok(out)
    }
    /// [`try_chunk`](Self::try_chunk), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "axis_chunks_iter", alias = "array_split")]
    pub fn chunk<const A: isize>(&self, chunks: usize) -> Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>
    where
        S: SetAxis<A, Dyn>,
    {
        self.try_chunk::<A>(chunks).or_panic()
    }

    /// Dim `A` cut into views of `size` elements, the last one possibly shorter (PyTorch
    /// `split(size, A)`: `[5, 2]` split by 2 along `<0>` gives sizes 2, 2, 1; an empty dim gives
    /// one empty view). Dim `A` of each view is `Dyn`. No copy.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `size` is 0 and the dim is not empty (as PyTorch); for a
    /// [`DynShape`] tensor also [`ShapeError::Axis`].
    #[allow(clippy::type_complexity)]
    pub fn try_split<const A: isize>(
        &self,
        size: usize,
    ) -> Result<Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>, ShapeError>
    where
        S: SetAxis<A, Dyn>,
    {
        let ls = self.layout().split(self.ax(A)?, size)?;
        let mut out = kernels::try_with_capacity_uncached(ls.len())?;
        out.extend(ls.into_iter().map(|l| self.derive(l)));
        Ok(out)
    }
    /// [`try_split`](Self::try_split), panicking with the error's message.
    #[track_caller]
    pub fn split<const A: isize>(&self, size: usize) -> Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>
    where
        S: SetAxis<A, Dyn>,
    {
        self.try_split::<A>(size).or_panic()
    }
}

// Slicing by runtime `SliceArg`s (the lower half of `index` applies them to the layout).
impl<D: Data, S: crate::Shape> TensorBase<D, S> {
    /// A view from runtime index items (PyTorch `x.index({...})` with `TensorIndex`); the result
    /// shape is dynamic. `x.try_slice(&[SliceArg::Index(-1), SliceArg::range(1.., 2)])`.
    ///
    /// # Errors
    /// As [`apply_args`].
    pub fn try_slice(&self, args: &[SliceArg]) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        Ok(TensorBase::from_parts(self.data.view_data(), apply_args(self.layout(), args)?))
    }
    /// [`try_slice`](Self::try_slice), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "slice_move", alias = "getitem")]
    pub fn slice(&self, args: &[SliceArg]) -> ViewOf<'_, D, DynShape> {
        self.try_slice(args).or_panic()
    }
}
