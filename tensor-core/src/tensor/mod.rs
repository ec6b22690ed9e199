//! The tensor struct: one type, [`TensorBase<D, S>`], generic over the storage kind `D` and the
//! shape type `S`. [`Tensor`] owns its elements, [`TensorView`] and [`TensorViewMut`] borrow
//! them, [`TensorCow`] is either. Static and dynamic tensors differ only in `S`.
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{CastShape, DynShape, ElemIndex, Shape};
use crate::storage::{CowRepr, Data, DataMut, Element, OwnedRepr};
use alloc::vec::Vec;
use core::marker::PhantomData;
use shaped_macros::try_twin;

mod batch;
mod chunks;
pub use chunks::{AxisChunksExact, ChunksOf};
mod construct;
mod fill;
pub mod iter;
pub use iter::{DynIndex, MatrixShape, ShapeIndex};
pub mod join;
mod shared;
pub use shared::SharedTensor;
pub mod literal;
#[cfg(feature = "rand")]
pub mod random;
mod reshape;
mod small;
pub(crate) mod views;
pub use small::{stensor, ArrayShape, MAX_INLINE_BYTES};

/// A strided tensor: a storage `D`, a [`Layout`] (sizes, strides, offset) and a shape type `S`
/// whose rank and static sizes the compiler checks. Use the aliases [`Tensor`], [`TensorView`],
/// [`TensorViewMut`] and [`TensorCow`].
///
/// This page lists every method, over a thousand with their `try_` and `_dyn` forms. The module
/// `shaped::guide` sorts them by topic (creation, indexing and views, element-wise math,
/// reductions, shape operations, linear algebra, convolution and pooling, sorting and selection,
/// random tensors, interop), one page each with a linked table, and
/// `shaped::guide::for_pytorch_users` maps PyTorch's, NumPy's, ndarray's and nalgebra's names to
/// these.
pub struct TensorBase<D: Data, S: Shape> {
    pub(crate) data: D,
    /// The layout as the storage kind keeps it: a [`Layout`], or nothing for inline storage of a
    /// static shape (read it with [`layout`](Self::layout)).
    lay: D::Lay<S>,
    _shape: PhantomData<S>,
}

/// An owned tensor ([`OwnedRepr`] storage: a `Vec<T>` whose large buffers are reused after a drop,
/// see [`set_buffer_cache_limit`](crate::set_buffer_cache_limit)). Cloning copies the elements.
pub type Tensor<T, S> = TensorBase<OwnedRepr<T>, S>;
/// A borrowed view: shares the elements of another tensor, never copies.
pub type TensorView<'a, T, S> = TensorBase<&'a [T], S>;
/// A mutably borrowed view: writes go to the viewed tensor.
pub type TensorViewMut<'a, T, S> = TensorBase<&'a mut [T], S>;
/// Borrowed or owned: what [`reshape`](TensorBase::reshape) and
/// [`contiguous`](TensorBase::contiguous) return (they copy only when they must).
pub type TensorCow<'a, T, S> = TensorBase<CowRepr<'a, T>, S>;
/// A small tensor whose elements live in the value itself, with no heap allocation and no stored
/// layout: `STensor<f32, Shape![4, 4]>` holds a `[[f32; 4]; 4]` (64 bytes, its whole size) and is
/// `Copy`. For small, fully static shapes (3-vectors, 4x4 transforms, Kalman filters).
///
/// It is a [`TensorBase`] like the others, so every method works on it; views of it are ordinary
/// [`TensorView`]s. Results live inline when an operand is inline and the result's shape is fully
/// static: element-wise operations, compound assignment, reductions, `matmul`, `mv`, `dot`,
/// `outer`, `cross`, `inv` and `solve` then run with constant sizes and strides and allocate
/// nothing, including products with a view of an inline tensor (`p.matmul(&f.t())`). A
/// one-operand operation on a view (`x.t().sum_axis(Ax::<0>)`) gives a heap [`Tensor`], as for any
/// view; `to_inline()` copies a static view back inline. Operations that gather or select by
/// index tensors (`index_select`, `gather`, `where_`) give heap tensors.
///
/// Inline results are capped at [`MAX_INLINE_BYTES`] (64 KiB) so that none can exhaust a thread's
/// stack: an operation whose inline result would be larger (a broadcast of an inline row against
/// an inline column of 129 elements each) fails to build, with a message that says to convert an
/// operand with `to_heap()`. For a shape with `Dyn` dims the alias is a heap [`Tensor`].
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{stensor, Shape, STensor, Tensor};
///
/// let f = STensor::<f64, Shape![2, 2]>::new([[1., 0.1], [0., 1.]]); // or stensor([[..]])
/// let p = stensor([[2., 0.], [0., 3.]]);          // the shape from the array: [2, 2]
/// let q = f.matmul(&p).matmul(&f.t()) + p;        // inline all the way: no allocation
/// let x = q.solve(&stensor([1., 2.]));            // STensor<f64, Shape![2]>
/// assert_eq!(size_of_val(&q), 32);
/// assert!((q.mv(&x).at([0]) - 1.).abs() < 1e-12);
/// let heap: Tensor<f64, Shape![2, 2]> = q.to_heap(); // and back with to_inline()
/// # let _ = heap;
/// ```
pub type STensor<T, S> = TensorBase<<<S as Shape>::Arr<T> as crate::storage::ArrLevel>::Store, S>;

/// What an operation on a tensor with storage `D` returns, with elements `T` and shape `S`: a heap
/// [`Tensor`] for heap-backed and borrowed storage, an [`STensor`] (no allocation) when `D` is
/// inline and `S` fully static. `Tensor<T, S>` in all code that does not use inline tensors.
pub type OutTensor<D, T, S> = TensorBase<crate::storage::Out<D, T, S>, S>;
/// What an operation on tensors with storages `D1` and `D2` returns: inline when either is inline
/// and `S` is fully static (so `a.matmul(&b.t())` of inline `a` and `b` stays inline), a heap
/// [`Tensor`] otherwise.
pub type OutTensor2<D1, D2, T, S> = TensorBase<crate::storage::Out2<D1, D2, T, S>, S>;

/// What a view method of a tensor with storage `D` returns: a [`TensorView`] of shape `S`. Its
/// lifetime is the borrow of the tensor for owned, shared and mutably borrowed storage, and the
/// source view's own lifetime when `D` is already a view, so views chain without a `let` per step:
/// `let v = x.t().narrow(Ax::<0>, 0, 2);` (ndarray's `slice_move`, `reversed_axes`).
pub type ViewOf<'s, D, S> = TensorBase<<D as Data>::Ref<'s>, S>;

impl<D: Data + Clone, S: Shape> Clone for TensorBase<D, S> {
    fn clone(&self) -> Self {
        TensorBase { data: self.data.clone(), lay: self.lay, _shape: PhantomData }
    }
}
impl<D: Data + Copy, S: Shape> Copy for TensorBase<D, S> {}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Pairs a storage with a layout already known to fit it and to match `S`.
    #[inline]
    pub(crate) fn from_parts(data: impl Into<D>, layout: Layout) -> Self {
        let data = data.into();
        debug_assert!(layout.fits(data.as_slice().len()), "layout {layout:?} outside its buffer");
        debug_assert!(!D::WRITABLE || !layout.may_overlap(), "writable layout {layout:?} overlaps");
        debug_assert!(S::check_sizes(layout.sizes()).is_ok(), "layout {layout:?} does not match {}", S::describe());
        let lay = D::Lay::<S>::try_from_layout::<S>(layout).or_panic();
        TensorBase { data, lay, _shape: PhantomData }
    }

    /// Pairs a storage with its layout as the storage kind keeps it (see
    /// [`LayoutRepr`](crate::layout::LayoutRepr)): for inline storage of a static shape, no
    /// layout at all.
    #[inline(always)]
    pub(crate) fn from_lay(data: D, lay: D::Lay<S>) -> Self {
        debug_assert!(lay.get::<S>().fits(data.as_slice().len()), "layout outside its buffer");
        TensorBase { data, lay, _shape: PhantomData }
    }

    /// A tensor from a storage (for an owned tensor a `Vec<T>` or an [`OwnedRepr`]) and a layout,
    /// after checking that every element the layout reaches lies in the storage, that its sizes
    /// fit `S` and, for storage that can be written (owned, mutable views, shared), that no two
    /// coordinates reach the same element (a checked PyTorch `set_(storage, offset, size,
    /// stride)`; NumPy `as_strided` without the danger).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the layout reaches outside the storage;
    /// [`ShapeError::ShapeMismatch`] when its sizes do not fit `S`; [`ShapeError::Overlap`] when
    /// the storage is writable and two coordinates may reach one element (see
    /// [`Layout::may_overlap`]).
    pub fn try_from_parts(data: impl Into<D>, layout: Layout) -> Result<Self, ShapeError> {
        let data = data.into();
        if D::WRITABLE && layout.may_overlap() {
            return Err(ShapeError::Overlap { sizes: layout.sizes().into(), strides: layout.strides().into() });
        }
        if !layout.fits(data.as_slice().len()) {
            return Err(ShapeError::Invalid(alloc::format!(
                "layout with sizes {:?}, strides {:?} and offset {} reaches outside a storage of {} elements",
                layout.sizes(),
                layout.strides(),
                layout.offset(),
                data.as_slice().len()
            )));
        }
        S::check_sizes(layout.sizes())?;
        let lay = D::Lay::<S>::try_from_layout::<S>(layout)?;
        Ok(TensorBase { data, lay, _shape: PhantomData })
    }

    /// The sizes, one per dim (PyTorch `size()`, NumPy `shape`).
    #[inline]
    #[doc(alias = "size", alias = "dim", alias = "raw_dim", alias = "dims")]
    pub fn sizes(&self) -> &[usize] {
        self.layout().sizes()
    }
    /// The strides in elements, one per dim (PyTorch `stride()`).
    #[inline]
    #[doc(alias = "stride")]
    pub fn strides(&self) -> &[isize] {
        self.layout().strides()
    }
    /// The offset of the first element in the storage (PyTorch `storage_offset()`).
    #[inline]
    pub fn storage_offset(&self) -> usize {
        self.layout().offset()
    }
    /// The number of dims (PyTorch `dim()`).
    #[inline]
    #[doc(alias = "dim", alias = "ndims")]
    pub fn rank(&self) -> usize {
        self.layout().rank()
    }
    /// The number of elements (PyTorch `numel()`).
    #[inline]
    #[doc(alias = "size", alias = "nelement")]
    pub fn numel(&self) -> usize {
        self.layout().numel()
    }
    /// The sizes, one per dim: NumPy's `x.shape` and ndarray's `shape()`, the same slice as
    /// [`sizes`](Self::sizes) (the shape *type* is the tensor's `S` parameter).
    #[inline]
    pub fn shape(&self) -> &[usize] {
        self.sizes()
    }
    /// The number of dims: NumPy's `ndim` and ndarray's `ndim()`, the same as
    /// [`rank`](Self::rank).
    #[inline]
    pub fn ndim(&self) -> usize {
        self.rank()
    }
    /// The number of elements, as ndarray's `len()` and Rust's collections: the same as
    /// [`numel`](Self::numel). (Python's `len(x)` of a PyTorch tensor is the size of its first
    /// dim: `x.sizes()[0]`.)
    #[inline]
    pub fn len(&self) -> usize {
        self.numel()
    }
    /// Whether the tensor has no elements (some dim is 0; a 0-d tensor has one element).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.numel() == 0
    }
    /// The layout: sizes, strides and offset.
    #[inline]
    pub fn layout(&self) -> &Layout {
        self.lay.get::<S>()
    }
    /// Whether the elements are row-major contiguous (PyTorch `is_contiguous()`).
    #[inline]
    #[doc(alias = "is_standard_layout")]
    pub fn is_contiguous(&self) -> bool {
        self.layout().is_contiguous()
    }
    /// The whole underlying storage (the layout says which elements belong to the tensor).
    #[inline]
    pub fn storage(&self) -> &[D::Elem] {
        self.data.as_slice()
    }

    /// A view of the whole tensor: `[..] -> [..]`, no copy (for a view, a copy of it with the same
    /// lifetime).
    #[inline]
    pub fn as_view(&self) -> ViewOf<'_, D, S> {
        TensorBase::from_parts(self.data.view_data(), *self.layout())
    }

    /// A view of the whole tensor with its shape known only at run time, without consuming it:
    /// `[2, 3] -> [..]`, O(1), no copy. Use it to mix a borrowed static tensor with dynamic ones
    /// (`&d + &s.as_dyn()`, although static and dynamic operands also mix directly); `into_dyn`
    /// is the consuming form.
    #[inline]
    pub fn as_dyn(&self) -> ViewOf<'_, D, DynShape> {
        TensorBase::from_parts(self.data.view_data(), *self.layout())
    }

    /// A mutable view of the whole tensor.
    #[inline]
    pub fn as_view_mut(&mut self) -> TensorViewMut<'_, D::Elem, S>
    where
        D: DataMut,
    {
        let layout = *self.layout();
        TensorBase::from_parts(self.data.as_mut_slice(), layout)
    }

    /// The elements in row-major order (NumPy `ravel().tolist()`), copied.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when the copy cannot be allocated (an expanded view may have far
    /// more elements than its storage).
    #[try_twin(
        doc = "The elements in row-major order (NumPy `ravel().tolist()`), copied.",
        alias = "into_raw_vec",
        alias = "tolist"
    )]
    pub fn try_to_vec(&self) -> Result<Vec<D::Elem>, ShapeError> {
        kernels::to_vec(self.data.as_slice(), self.layout())
    }

    /// A contiguous owned copy with the same shape (PyTorch `clone()` of a view).
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when the copy cannot be allocated.
    #[try_twin(doc = "A contiguous owned copy with the same shape (PyTorch `clone()` of a view).")]
    pub fn try_to_owned(&self) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let layout = Layout::contiguous(self.sizes())?;
        Ok(TensorBase::from_parts(self.try_to_vec()?, layout))
    }

    /// The tensor as row-major contiguous: borrows when it already is, copies otherwise
    /// (PyTorch `contiguous()`). Same shape.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when a copy is needed and cannot be allocated.
    #[try_twin(doc = "The tensor as row-major contiguous.", alias = "as_standard_layout", alias = "ascontiguousarray")]
    pub fn try_contiguous(&self) -> Result<TensorCow<'_, D::Elem, S>, ShapeError> {
        Ok(if self.is_contiguous() {
            TensorBase::from_parts(CowRepr::Borrowed(self.data.as_slice()), *self.layout())
        } else {
            let owned = self.try_to_owned()?;
            let layout = *owned.layout();
            TensorBase::from_parts(CowRepr::Owned(owned.data), layout)
        })
    }

    /// The same tensor with its shape known only at run time: O(1), same storage
    /// (`[2, 3] -> [..]`).
    #[inline]
    pub fn into_dyn(self) -> TensorBase<D, DynShape> {
        let layout = *self.layout();
        TensorBase::from_parts(self.data, layout)
    }

    /// The same tensor with the shape type `S2`, after checking the runtime sizes against it:
    /// O(1), same storage. Converts `[..]` or `[_, 3]` to `[2, 3]`, and back.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the rank or a static size differs;
    /// [`ShapeError::Invalid`] for inline storage with a layout other than the row-major one of
    /// a fully static `S2` (which inline tensors of static shapes do not store).
    pub fn try_into_static<S2: Shape>(self) -> Result<TensorBase<D, S2>, ShapeError> {
        S2::check_sizes(self.sizes())?;
        let lay = D::Lay::<S2>::try_from_layout::<S2>(*self.layout())?;
        Ok(TensorBase::from_lay(self.data, lay))
    }

    /// [`try_into_static`](Self::try_into_static) that panics with the error's message.
    #[track_caller]
    pub fn into_static<S2: Shape>(self) -> TensorBase<D, S2> {
        self.try_into_static().or_panic()
    }

    /// The same tensor with the shape type `S2`, checked at compile time: the same rank, and each
    /// dim the same size, so only the labels change (`Const<1>` <-> [`One`](crate::One),
    /// `Const<N>` <-> `Dyn`). O(1), same storage, `[1, 3] -> [1, 3]`. Use it to make a length-1
    /// level of a nested array broadcastable: `Tensor::from([[1., 2.]]).cast_shape::<Shape![1, 2]>()`.
    /// No PyTorch counterpart (PyTorch has no shape types).
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when a `Dyn` dim's runtime size differs from the static size
    /// it is cast to. A static mismatch does not compile.
    pub fn try_cast_shape<S2: Shape>(self) -> Result<TensorBase<D, S2>, ShapeError>
    where
        S: CastShape<S2>,
    {
        self.try_into_static()
    }

    /// [`try_cast_shape`](Self::try_cast_shape) that panics with the error's message.
    #[track_caller]
    pub fn cast_shape<S2: Shape>(self) -> TensorBase<D, S2>
    where
        S: CastShape<S2>,
    {
        self.try_cast_shape().or_panic()
    }

    /// The element at a coordinate, one integer per dim of any integer type (negative counts from
    /// the end): `x.try_at([i, -1])`.
    ///
    /// # Errors
    /// [`ShapeError::Index`] when a coordinate is out of bounds; a rank error for a
    /// [`DynShape`] tensor of another rank.
    pub fn try_at<I: ElemIndex<S>>(&self, index: I) -> Result<D::Elem, ShapeError> {
        Ok(self.data.as_slice()[self.layout().checked_offset_of(index.coords())?])
    }

    /// The element at a coordinate (PyTorch `x[i, j].item()`; negative coordinates count from the
    /// end).
    ///
    /// # Panics
    /// When a coordinate is out of bounds (see [`try_at`](Self::try_at)).
    #[track_caller]
    #[doc(alias = "get", alias = "index")]
    pub fn at<I: ElemIndex<S>>(&self, index: I) -> D::Elem {
        self.try_at(index).or_panic()
    }

    /// The value of a one-element tensor, whatever its rank (PyTorch `item()`): `[] -> T`,
    /// `[1, 1] -> T`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the tensor does not hold exactly one element.
    #[try_twin(alias = "into_scalar")]
    pub fn try_item(&self) -> Result<D::Elem, ShapeError> {
        match self.layout().span() {
            Some((o, _)) if self.numel() == 1 => Ok(self.data.as_slice()[o as usize]),
            _ => Err(ShapeError::Invalid(alloc::format!(
                "item() needs a tensor of one element, got sizes {:?}",
                self.sizes()
            ))),
        }
    }

    /// Writes the element at a coordinate.
    ///
    /// # Errors
    /// As [`try_at`](Self::try_at).
    pub fn try_set<I: ElemIndex<S>>(&mut self, index: I, value: D::Elem) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let o = self.layout().checked_offset_of(index.coords())?;
        self.data.as_mut_slice()[o] = value;
        Ok(())
    }

    /// Writes the element at a coordinate (PyTorch `x[i, j] = v`).
    ///
    /// # Panics
    /// When a coordinate is out of bounds.
    #[track_caller]
    pub fn set<I: ElemIndex<S>>(&mut self, index: I, value: D::Elem)
    where
        D: DataMut,
    {
        self.try_set(index, value).or_panic()
    }

    /// Sets every element to `value` (PyTorch `fill_`). Same shape; writes through views.
    pub fn fill_(&mut self, value: D::Elem)
    where
        D: DataMut,
    {
        let layout = *self.layout();
        kernels::fill(self.data.as_mut_slice(), &layout, value)
    }
    /// [`fill_`](Self::fill_) under its Rust-style name.
    #[doc(alias = "fill_")]
    pub fn fill(&mut self, value: D::Elem)
    where
        D: DataMut,
    {
        self.fill_(value)
    }
}

impl<T: Element, S: Shape> TensorBase<CowRepr<'_, T>, S> {
    /// The tensor as an owned one: moves the buffer when owned, copies when borrowed.
    pub fn into_owned(self) -> Tensor<T, S> {
        let layout = *self.layout();
        match self.data {
            CowRepr::Owned(v) if layout.offset() == 0 && layout.is_contiguous() && v.len() == layout.numel() => {
                TensorBase::from_parts(v, layout)
            }
            data => TensorBase::<CowRepr<'_, T>, S>::from_parts(data, layout).to_owned(),
        }
    }
}

impl<D: Data, S: Shape, I: ElemIndex<S>> core::ops::Index<I> for TensorBase<D, S> {
    type Output = D::Elem;
    /// `x[[i, j]]`: a reference to one element.
    ///
    /// # Panics
    /// When a coordinate is out of bounds.
    #[track_caller]
    fn index(&self, index: I) -> &D::Elem {
        &self.data.as_slice()[self.layout().checked_offset_of(index.coords()).or_panic()]
    }
}
impl<D: DataMut, S: Shape, I: ElemIndex<S>> core::ops::IndexMut<I> for TensorBase<D, S> {
    /// `x[[i, j]] = v`.
    ///
    /// # Panics
    /// When a coordinate is out of bounds.
    #[track_caller]
    fn index_mut(&mut self, index: I) -> &mut D::Elem {
        let o = self.layout().checked_offset_of(index.coords()).or_panic();
        &mut self.data.as_mut_slice()[o]
    }
}

/// Tensors are equal when their sizes and elements are (shape types may differ). Compares in
/// place, without copying either side.
impl<D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> PartialEq<TensorBase<D2, S2>> for TensorBase<D, S> {
    fn eq(&self, other: &TensorBase<D2, S2>) -> bool {
        if self.sizes() != other.sizes() {
            return false;
        }
        let (a, b) = (self.data.as_slice(), other.data.as_slice());
        !crate::kernels::any(self.sizes(), [a, b], [self.layout(), other.layout()], |[x, y]| x != y)
    }
}
