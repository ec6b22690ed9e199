//! Mutable views: the `*_mut` forms of the view methods. On a [`TensorViewMut`] they take the view
//! by value and keep its lifetime, so they chain and bind to one `let`
//! (`let c = x.t_mut().narrow_mut::<0>(0, 2);`, as ndarray's `slice_move`); on owned and shared
//! tensors they borrow the tensor mutably. Each result writes through to the source. Every one of
//! them addresses distinct elements of a non-overlapping source, so none can create two
//! coordinates for one element (`expand` has no mutable form).
//!
//! Typed forms take their axes as const generics (negative counts from the end), checked at
//! compile time for tuple shapes; the `_dyn` forms take runtime axes and give [`DynShape`] views.
use super::{SharedTensor, Tensor, TensorBase, TensorViewMut};
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::index::{apply_args, SliceArg};
use crate::layout::{normalize_axis, normalize_insert_axis, Layout};
use crate::shape::*;
use crate::storage::Element;

impl<'a, T: Element, S: Shape> TensorViewMut<'a, T, S> {
    /// The same storage under a layout derived from this view's (a subset of its elements, so
    /// still non-overlapping and inside the buffer).
    #[inline]
    fn remap<S2: Shape>(self, layout: Layout) -> TensorViewMut<'a, T, S2> {
        TensorBase::from_parts(self.data, layout)
    }
    #[inline]
    fn axis_of(&self, a: isize) -> Result<usize, ShapeError> {
        normalize_axis(a, self.rank())
    }

    /// The transpose of a matrix, mutably (PyTorch `t()` of a tensor you then write):
    /// `[m, n] -> [n, m]`; rank 0 and 1 unchanged.
    ///
    /// # Panics
    /// For a [`DynShape`] view with more than 2 dims.
    #[track_caller]
    pub fn t_mut(self) -> TensorViewMut<'a, T, <S as TransposeShape>::Out>
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
        self.remap(l)
    }

    /// Axes `A` and `B` swapped, mutably (PyTorch `transpose(A, B)`).
    ///
    /// # Panics
    /// For a [`DynShape`] view whose rank has no such axis.
    #[track_caller]
    pub fn transpose_mut<const A: isize, const B: isize>(self) -> TensorViewMut<'a, T, <S as SwapAxes<A, B>>::Out>
    where
        S: SwapAxes<A, B>,
    {
        let l = self.layout().transpose(self.axis_of(A).or_panic(), self.axis_of(B).or_panic()).or_panic();
        self.remap(l)
    }

    /// The axes reordered, mutably (PyTorch `permute`): `permute_mut::<Axes![1, 0]>()`.
    #[track_caller]
    pub fn permute_mut<P: PermuteShape<S>>(self) -> TensorViewMut<'a, T, P::Out> {
        let l = self.layout().permute(&P::AXES[..self.rank()]).or_panic();
        self.remap(l)
    }

    /// Axis `A` (size 1) removed, mutably (PyTorch `squeeze(A)`).
    ///
    /// # Errors
    /// [`ShapeError::Squeeze`] when a runtime dim is not 1; [`ShapeError::Axis`] for a
    /// [`DynShape`] view without axis `A`.
    pub fn try_squeeze_mut<const A: isize>(self) -> Result<TensorViewMut<'a, T, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
    {
        let l = self.layout().squeeze(self.axis_of(A)?)?;
        Ok(self.remap(l))
    }
    /// [`try_squeeze_mut`](Self::try_squeeze_mut), panicking with the error's message.
    #[track_caller]
    pub fn squeeze_mut<const A: isize>(self) -> TensorViewMut<'a, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
    {
        self.try_squeeze_mut::<A>().or_panic()
    }

    /// A size-1 axis inserted at `A`, mutably (PyTorch `unsqueeze(A)`; `-1` appends).
    ///
    /// # Panics
    /// For a [`DynShape`] view whose rank has no insertion point `A`.
    #[track_caller]
    pub fn unsqueeze_mut<const A: isize>(self) -> TensorViewMut<'a, T, <S as InsertAxis<A>>::Out>
    where
        S: InsertAxis<A>,
    {
        let l = self.layout().unsqueeze(normalize_insert_axis(A, self.rank()).or_panic()).or_panic();
        self.remap(l)
    }

    /// `len` elements of axis `A` from `start`, mutably (PyTorch `narrow(A, start, len)`); the dim
    /// becomes `Dyn`.
    ///
    /// # Errors
    /// [`ShapeError::Range`] when the range leaves the dim; [`ShapeError::Axis`].
    pub fn try_narrow_mut<const A: isize>(
        self,
        start: isize,
        len: usize,
    ) -> Result<TensorViewMut<'a, T, <S as SetAxis<A, Dyn>>::Out>, ShapeError>
    where
        S: SetAxis<A, Dyn>,
    {
        let l = self.layout().narrow(self.axis_of(A)?, start, len)?;
        Ok(self.remap(l))
    }
    /// [`try_narrow_mut`](Self::try_narrow_mut), panicking with the error's message.
    #[track_caller]
    pub fn narrow_mut<const A: isize>(
        self,
        start: isize,
        len: usize,
    ) -> TensorViewMut<'a, T, <S as SetAxis<A, Dyn>>::Out>
    where
        S: SetAxis<A, Dyn>,
    {
        self.try_narrow_mut::<A>(start, len).or_panic()
    }

    /// The slice at `index` along axis `A`, which is removed, mutably (PyTorch `select(A, index)`;
    /// `x.select_mut::<1>(0)` is the column `x[:, 0]` to write).
    ///
    /// # Errors
    /// [`ShapeError::Index`]; [`ShapeError::Axis`].
    pub fn try_select_mut<const A: isize>(
        self,
        index: isize,
    ) -> Result<TensorViewMut<'a, T, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        let l = self.layout().select(self.axis_of(A)?, index)?;
        Ok(self.remap(l))
    }
    /// [`try_select_mut`](Self::try_select_mut), panicking with the error's message.
    #[track_caller]
    pub fn select_mut<const A: isize>(self, index: isize) -> TensorViewMut<'a, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.try_select_mut::<A>(index).or_panic()
    }

    /// Axis `A` reversed, mutably (PyTorch `flip(A)`, as a view).
    ///
    /// # Panics
    /// For a [`DynShape`] view whose rank has no axis `A`.
    #[track_caller]
    pub fn flip_mut<const A: isize>(self) -> TensorViewMut<'a, T, S>
    where
        S: RemoveAxis<A>,
    {
        let l = self.layout().flip(self.axis_of(A).or_panic()).or_panic();
        self.remap(l)
    }

    /// Dim `SRC` moved to position `DST`, mutably (PyTorch `movedim`).
    ///
    /// # Panics
    /// For a [`DynShape`] view whose rank has no such axis.
    #[track_caller]
    pub fn movedim_mut<const SRC: isize, const DST: isize>(self) -> TensorViewMut<'a, T, <S as MoveAxis<SRC, DST>>::Out>
    where
        S: MoveAxis<SRC, DST>,
    {
        let l = self.layout().movedim(self.axis_of(SRC).or_panic(), self.axis_of(DST).or_panic()).or_panic();
        self.remap(l)
    }

    /// The diagonal of dims `D1` and `D2`, mutably (PyTorch `diagonal(offset, D1, D2)`: write it
    /// to set a matrix's diagonal). Its elements are distinct, so writing through it is defined.
    ///
    /// # Panics
    /// For a [`DynShape`] view whose rank has no such axes, or when `D1 == D2`.
    #[track_caller]
    pub fn diagonal_mut<const D1: isize, const D2: isize>(
        self,
        offset: isize,
    ) -> TensorViewMut<'a, T, <S as DiagonalShape<D1, D2>>::Out>
    where
        S: DiagonalShape<D1, D2>,
    {
        let l = self.layout().diagonal(self.axis_of(D1).or_panic(), self.axis_of(D2).or_panic(), offset).or_panic();
        self.remap(l)
    }

    /// A mutable view from runtime index items (PyTorch `x.index({...})` to write through; see
    /// [`SliceArg`]).
    ///
    /// # Errors
    /// As [`apply_args`].
    pub fn try_slice_mut(self, args: &[SliceArg]) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = apply_args(self.layout(), args)?;
        Ok(self.remap(l))
    }
    /// [`try_slice_mut`](Self::try_slice_mut), panicking with the error's message.
    #[track_caller]
    pub fn slice_mut(self, args: &[SliceArg]) -> TensorViewMut<'a, T, DynShape> {
        self.try_slice_mut(args).or_panic()
    }

    /// Runtime-axis forms for data-driven code, each a [`DynShape`] mutable view.
    ///
    /// `transpose_dyn_mut(a, b)`: PyTorch `transpose(a, b)` (negative axes count from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn transpose_dyn_mut(self, a: isize, b: isize) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().transpose(self.axis_of(a)?, self.axis_of(b)?)?;
        Ok(self.remap(l))
    }
    /// PyTorch `permute(axes)` with runtime axes, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Permutation`].
    pub fn permute_dyn_mut(self, axes: &[usize]) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().permute(axes)?;
        Ok(self.remap(l))
    }
    /// PyTorch `squeeze(axis)` with a runtime axis, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Squeeze`].
    pub fn squeeze_dyn_mut(self, axis: isize) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().squeeze(self.axis_of(axis)?)?;
        Ok(self.remap(l))
    }
    /// PyTorch `unsqueeze(axis)` with a runtime axis, mutably.
    ///
    /// # Errors
    /// [`ShapeError::InsertAxis`], [`ShapeError::RankTooLarge`].
    pub fn unsqueeze_dyn_mut(self, axis: isize) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().unsqueeze(normalize_insert_axis(axis, self.rank())?)?;
        Ok(self.remap(l))
    }
    /// PyTorch `narrow(axis, start, len)` with a runtime axis, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Range`].
    pub fn narrow_dyn_mut(
        self,
        axis: isize,
        start: isize,
        len: usize,
    ) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().narrow(self.axis_of(axis)?, start, len)?;
        Ok(self.remap(l))
    }
    /// PyTorch `select(axis, index)` with a runtime axis, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::Index`].
    pub fn select_dyn_mut(self, axis: isize, index: isize) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().select(self.axis_of(axis)?, index)?;
        Ok(self.remap(l))
    }
    /// PyTorch `flip(dims)` with runtime axes, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when an axis appears twice.
    pub fn flip_dyn_mut(self, axes: &[isize]) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().flip_axes(axes)?;
        Ok(self.remap(l))
    }
    /// PyTorch `movedim(src, dst)` with runtime axes, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn movedim_dyn_mut(self, src: isize, dst: isize) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().movedim(self.axis_of(src)?, self.axis_of(dst)?)?;
        Ok(self.remap(l))
    }
    /// PyTorch `diagonal(offset, dim1, dim2)` with runtime axes, mutably.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when the two axes are the same.
    pub fn diagonal_dyn_mut(
        self,
        offset: isize,
        dim1: isize,
        dim2: isize,
    ) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.layout().diagonal(self.axis_of(dim1)?, self.axis_of(dim2)?, offset)?;
        Ok(self.remap(l))
    }
}

/// The `&mut self` forms of the mutable view methods for owned and shared tensors: each is the
/// method of the same name on [`as_view_mut()`](TensorBase::as_view_mut).
macro_rules! forward_mut {
    ($($Kind:ident),*) => {$(
        impl<T: Element, S: Shape> $Kind<T, S> {
            /// See [`TensorViewMut::t_mut`].
            #[track_caller]
            pub fn t_mut(&mut self) -> TensorViewMut<'_, T, <S as TransposeShape>::Out>
            where
                S: TransposeShape,
            {
                self.as_view_mut().t_mut()
            }
            /// See [`TensorViewMut::transpose_mut`].
            #[track_caller]
            pub fn transpose_mut<const A: isize, const B: isize>(&mut self) -> TensorViewMut<'_, T, <S as SwapAxes<A, B>>::Out>
            where
                S: SwapAxes<A, B>,
            {
                self.as_view_mut().transpose_mut::<A, B>()
            }
            /// See [`TensorViewMut::permute_mut`].
            #[track_caller]
            pub fn permute_mut<P: PermuteShape<S>>(&mut self) -> TensorViewMut<'_, T, P::Out> {
                self.as_view_mut().permute_mut::<P>()
            }
            /// See [`TensorViewMut::try_squeeze_mut`].
            ///
            /// # Errors
            /// As [`TensorViewMut::try_squeeze_mut`].
            pub fn try_squeeze_mut<const A: isize>(&mut self) -> Result<TensorViewMut<'_, T, <S as RemoveAxis<A>>::Out>, ShapeError>
            where
                S: RemoveAxis<A>,
                <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
            {
                self.as_view_mut().try_squeeze_mut::<A>()
            }
            /// See [`TensorViewMut::squeeze_mut`].
            #[track_caller]
            pub fn squeeze_mut<const A: isize>(&mut self) -> TensorViewMut<'_, T, <S as RemoveAxis<A>>::Out>
            where
                S: RemoveAxis<A>,
                <S as RemoveAxis<A>>::Removed: Squeezable<S, A>,
            {
                self.as_view_mut().squeeze_mut::<A>()
            }
            /// See [`TensorViewMut::unsqueeze_mut`].
            #[track_caller]
            pub fn unsqueeze_mut<const A: isize>(&mut self) -> TensorViewMut<'_, T, <S as InsertAxis<A>>::Out>
            where
                S: InsertAxis<A>,
            {
                self.as_view_mut().unsqueeze_mut::<A>()
            }
            /// See [`TensorViewMut::try_narrow_mut`].
            ///
            /// # Errors
            /// As [`TensorViewMut::try_narrow_mut`].
            pub fn try_narrow_mut<const A: isize>(&mut self, start: isize, len: usize) -> Result<TensorViewMut<'_, T, <S as SetAxis<A, Dyn>>::Out>, ShapeError>
            where
                S: SetAxis<A, Dyn>,
            {
                self.as_view_mut().try_narrow_mut::<A>(start, len)
            }
            /// See [`TensorViewMut::narrow_mut`].
            #[track_caller]
            pub fn narrow_mut<const A: isize>(&mut self, start: isize, len: usize) -> TensorViewMut<'_, T, <S as SetAxis<A, Dyn>>::Out>
            where
                S: SetAxis<A, Dyn>,
            {
                self.as_view_mut().narrow_mut::<A>(start, len)
            }
            /// See [`TensorViewMut::try_select_mut`].
            ///
            /// # Errors
            /// As [`TensorViewMut::try_select_mut`].
            pub fn try_select_mut<const A: isize>(&mut self, index: isize) -> Result<TensorViewMut<'_, T, <S as RemoveAxis<A>>::Out>, ShapeError>
            where
                S: RemoveAxis<A>,
            {
                self.as_view_mut().try_select_mut::<A>(index)
            }
            /// See [`TensorViewMut::select_mut`].
            #[track_caller]
            pub fn select_mut<const A: isize>(&mut self, index: isize) -> TensorViewMut<'_, T, <S as RemoveAxis<A>>::Out>
            where
                S: RemoveAxis<A>,
            {
                self.as_view_mut().select_mut::<A>(index)
            }
            /// See [`TensorViewMut::flip_mut`].
            #[track_caller]
            pub fn flip_mut<const A: isize>(&mut self) -> TensorViewMut<'_, T, S>
            where
                S: RemoveAxis<A>,
            {
                self.as_view_mut().flip_mut::<A>()
            }
            /// See [`TensorViewMut::movedim_mut`].
            #[track_caller]
            pub fn movedim_mut<const SRC: isize, const DST: isize>(&mut self) -> TensorViewMut<'_, T, <S as MoveAxis<SRC, DST>>::Out>
            where
                S: MoveAxis<SRC, DST>,
            {
                self.as_view_mut().movedim_mut::<SRC, DST>()
            }
            /// See [`TensorViewMut::diagonal_mut`].
            #[track_caller]
            pub fn diagonal_mut<const D1: isize, const D2: isize>(&mut self, offset: isize) -> TensorViewMut<'_, T, <S as DiagonalShape<D1, D2>>::Out>
            where
                S: DiagonalShape<D1, D2>,
            {
                self.as_view_mut().diagonal_mut::<D1, D2>(offset)
            }
            /// See [`TensorViewMut::try_slice_mut`].
            ///
            /// # Errors
            /// As [`TensorViewMut::try_slice_mut`].
            pub fn try_slice_mut(&mut self, args: &[SliceArg]) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().try_slice_mut(args)
            }
            /// See [`TensorViewMut::slice_mut`].
            #[track_caller]
            pub fn slice_mut(&mut self, args: &[SliceArg]) -> TensorViewMut<'_, T, DynShape> {
                self.as_view_mut().slice_mut(args)
            }
            /// See [`TensorViewMut::transpose_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`].
            pub fn transpose_dyn_mut(&mut self, a: isize, b: isize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().transpose_dyn_mut(a, b)
            }
            /// See [`TensorViewMut::permute_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Permutation`].
            pub fn permute_dyn_mut(&mut self, axes: &[usize]) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().permute_dyn_mut(axes)
            }
            /// See [`TensorViewMut::squeeze_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`], [`ShapeError::Squeeze`].
            pub fn squeeze_dyn_mut(&mut self, axis: isize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().squeeze_dyn_mut(axis)
            }
            /// See [`TensorViewMut::unsqueeze_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::InsertAxis`], [`ShapeError::RankTooLarge`].
            pub fn unsqueeze_dyn_mut(&mut self, axis: isize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().unsqueeze_dyn_mut(axis)
            }
            /// See [`TensorViewMut::narrow_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`], [`ShapeError::Range`].
            pub fn narrow_dyn_mut(&mut self, axis: isize, start: isize, len: usize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().narrow_dyn_mut(axis, start, len)
            }
            /// See [`TensorViewMut::select_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`], [`ShapeError::Index`].
            pub fn select_dyn_mut(&mut self, axis: isize, index: isize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().select_dyn_mut(axis, index)
            }
            /// See [`TensorViewMut::flip_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when an axis appears twice.
            pub fn flip_dyn_mut(&mut self, axes: &[isize]) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().flip_dyn_mut(axes)
            }
            /// See [`TensorViewMut::movedim_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`].
            pub fn movedim_dyn_mut(&mut self, src: isize, dst: isize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().movedim_dyn_mut(src, dst)
            }
            /// See [`TensorViewMut::diagonal_dyn_mut`].
            ///
            /// # Errors
            /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when the two axes are the same.
            pub fn diagonal_dyn_mut(&mut self, offset: isize, dim1: isize, dim2: isize) -> Result<TensorViewMut<'_, T, DynShape>, ShapeError> {
                self.as_view_mut().diagonal_dyn_mut(offset, dim1, dim2)
            }
        }
    )*};
}
forward_mut!(Tensor, SharedTensor);
