//! ndarray 0.17 (feature `ndarray`): views both ways without copying, owned arrays both ways.
//!
//! | from | to | method | cost |
//! |---|---|---|---|
//! | any tensor | `ArrayView<T, S::NdDim>` | [`to_ndarray_view`](crate::TensorBase::to_ndarray_view) | O(1) |
//! | [`TensorView`] | `ArrayView<'a, ..>` | [`into_ndarray_view`](crate::TensorView::into_ndarray_view) | O(1) |
//! | writable tensor | `ArrayViewMut` | [`to_ndarray_view_mut`](crate::TensorBase::to_ndarray_view_mut) | O(1) |
//! | [`TensorViewMut`] | `ArrayViewMut<'a, ..>` | [`into_ndarray_view_mut`](crate::TensorViewMut::into_ndarray_view_mut) | O(1) |
//! | [`Tensor`] | `Array<T, S::NdDim>` | [`into_ndarray`](crate::Tensor::into_ndarray) | O(1) when row-major from offset 0, else a copy |
//! | `ArrayView` | [`TensorView`] | [`try_from_ndarray_view`](crate::TensorView::try_from_ndarray_view) | O(1); error when the view has gaps |
//! | `ArrayViewMut` | [`TensorViewMut`] | [`try_from_ndarray_view_mut`](crate::TensorViewMut::try_from_ndarray_view_mut) | O(1); error when the view has gaps |
//! | `Array` | [`Tensor`] | [`try_from_ndarray`](crate::Tensor::try_from_ndarray) | O(1) when in standard layout, else a copy |
//!
//! The shape type picks the ndarray dimension ([`NdShape`]): tuple shapes of rank 0..=6 give
//! `Ix0..Ix6`, [`DynShape`] gives `IxDyn`. Arrays come in with any dimension
//! type; their sizes are checked against `S` at run time.
//!
//! Strides carry over, negative ones included (ndarray's `invert_axis` flips an axis of a view
//! built with the absolute strides). Into this crate, a view is taken without a copy only when
//! its elements fill the memory they span (contiguous in some axis order, ndarray's
//! `as_slice_memory_order`): a view with gaps between its elements (`s![.., ..;2]`) cannot be
//! borrowed as one slice, because the gaps may belong to another live mutable view
//! (`split_at`, `multi_slice_mut`). Copy it first (`Tensor::try_from_ndarray(v.to_owned())`).
//! No `unsafe` code is involved in either direction.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::{DynShape, Shape};
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{Tensor, TensorBase, TensorView, TensorViewMut};
use alloc::format;
use alloc::vec::Vec;
use ndarray::{Array, ArrayView, ArrayViewMut, Axis, Dimension, ShapeBuilder};
use shaped_macros::try_twin;

/// A shape type with an ndarray dimension type: `Ix0..Ix6` for tuple shapes of that rank,
/// `IxDyn` for [`DynShape`].
pub trait NdShape: Shape {
    /// The ndarray dimension type (`Ix2` for `Shape![2, 3]` and `Shape![_, _]`).
    type NdDim: Dimension;
}
impl NdShape for DynShape {
    type NdDim = ndarray::IxDyn;
}
impl NdShape for () {
    type NdDim = ndarray::Ix0;
}
macro_rules! nd_shape {
    ($($ix:ident: $($d:ident),+;)*) => {$(
        impl<$($d: crate::Dim),+> NdShape for ($($d,)+) where ($($d,)+): Shape {
            type NdDim = ndarray::$ix;
        }
    )*};
}
nd_shape! {
    Ix1: A; Ix2: A, B; Ix3: A, B, C; Ix4: A, B, C, D; Ix5: A, B, C, D, E; Ix6: A, B, C, D, E, F;
}

/// An ndarray dimension value of `sizes.len()` axes holding `vals`.
fn dim_of<E: Dimension>(vals: impl ExactSizeIterator<Item = usize>) -> E {
    let mut d = E::zeros(vals.len());
    for (o, v) in d.slice_mut().iter_mut().zip(vals) {
        *o = v;
    }
    d
}

/// Where the view of `l` starts in its buffer and how far it reaches: `lo..=hi`, or `None` when
/// it is empty. The layout invariant (and [`Layout::fits`], checked when the tensor was built)
/// makes both in range.
fn low_high(l: &Layout) -> Option<(usize, usize)> {
    l.span().map(|(lo, hi)| (lo as usize, hi as usize))
}

/// The message of an ndarray error on a layout that this crate accepted (it cannot happen: the
/// layout fits its buffer, and writable layouts do not overlap).
const NDARRAY_REFUSED: &str = "ndarray refused a layout that fits its buffer (a bug in shaped's interop)";

fn nd_view<'a, T, E: Dimension>(data: &'a [T], l: &Layout) -> ArrayView<'a, T, E> {
    let shape: E = dim_of(l.sizes().iter().copied());
    let Some((lo, hi)) = low_high(l) else {
        return ArrayView::from_shape(shape, &data[..0]).expect(NDARRAY_REFUSED);
    };
    let abs: E = dim_of(l.strides().iter().map(|s| s.unsigned_abs()));
    // ndarray checks the bounds itself: the view starts at the lowest element with the absolute
    // strides, then each reversed axis is inverted (O(1)).
    let mut v = ArrayView::from_shape(shape.strides(abs), &data[lo..=hi]).expect(NDARRAY_REFUSED);
    for (i, &s) in l.strides().iter().enumerate() {
        if s < 0 {
            v.invert_axis(Axis(i));
        }
    }
    v
}

fn nd_view_mut<'a, T, E: Dimension>(data: &'a mut [T], l: &Layout) -> ArrayViewMut<'a, T, E> {
    let shape: E = dim_of(l.sizes().iter().copied());
    let Some((lo, hi)) = low_high(l) else {
        return ArrayViewMut::from_shape(shape, &mut data[..0]).expect(NDARRAY_REFUSED);
    };
    // Writable layouts never let two coordinates reach one element (checked where they are
    // built), so ndarray's aliasing check passes.
    let abs: E = dim_of(l.strides().iter().map(|s| s.unsigned_abs()));
    let mut v = ArrayViewMut::from_shape(shape.strides(abs), &mut data[lo..=hi]).expect(NDARRAY_REFUSED);
    for (i, &s) in l.strides().iter().enumerate() {
        if s < 0 {
            v.invert_axis(Axis(i));
        }
    }
    v
}

/// The layout of an ndarray view's elements inside the slice of memory they fill, or an error
/// when they do not fill it.
fn layout_in_memory_order(sizes: &[usize], strides: &[isize]) -> Result<Layout, ShapeError> {
    // The memory-order slice starts at the lowest address; the first logical element lies past
    // it by the reach of every reversed axis.
    let offset =
        sizes.iter().zip(strides).filter(|(_, s)| **s < 0).map(|(&n, s)| (n.max(1) - 1) * s.unsigned_abs()).sum();
    Layout::from_parts(sizes, strides, offset)
}

fn gaps_error(sizes: &[usize], strides: &[isize]) -> ShapeError {
    ShapeError::Invalid(format!(
        "an ndarray view with sizes {sizes:?} and strides {strides:?} does not fill the memory it spans, so it cannot be borrowed without a copy: convert `view.to_owned()` with Tensor::try_from_ndarray"
    ))
}

impl<D: Data, S: NdShape> TensorBase<D, S> {
    /// An ndarray view of the tensor: `[n0, n1, ..]` -> `ArrayView<T, S::NdDim>` with the same
    /// sizes and strides (negative ones included), O(1), no copy. Mirrors ndarray `.view()`.
    #[doc(alias = "view")]
    #[doc(alias = "as_ndarray")]
    pub fn to_ndarray_view(&self) -> ArrayView<'_, D::Elem, S::NdDim> {
        nd_view(self.data.as_slice(), self.layout())
    }
}

impl<D: DataMut, S: NdShape> TensorBase<D, S> {
    /// A mutable ndarray view of the tensor (same sizes and strides), O(1); writes go to the
    /// tensor. Mirrors ndarray `.view_mut()`.
    #[doc(alias = "view_mut")]
    pub fn to_ndarray_view_mut(&mut self) -> ArrayViewMut<'_, D::Elem, S::NdDim> {
        let l = *self.layout();
        nd_view_mut(self.data.as_mut_slice(), &l)
    }
}

impl<'a, T: Element, S: NdShape> TensorView<'a, T, S> {
    /// [`to_ndarray_view`](TensorBase::to_ndarray_view) keeping the view's own lifetime `'a`.
    pub fn into_ndarray_view(self) -> ArrayView<'a, T, S::NdDim> {
        nd_view(self.data, self.layout())
    }
}

impl<'a, T: Element, S: Shape> TensorView<'a, T, S> {
    /// A view of an ndarray view's elements: `ArrayView<T, E>` of sizes `[n0, ..]` ->
    /// `TensorView<T, S>` of sizes `[n0, ..]`, same strides, O(1), no copy. `E` may be any
    /// dimension type; the sizes are checked against `S` at run time (`DynShape` takes any rank
    /// up to 6).
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::RankTooLarge`]
    /// above rank 6; [`ShapeError::Invalid`] when the view does not fill the memory it spans
    /// (gaps between elements, or a broadcast stride 0): see the [module docs](self).
    #[doc(alias = "from_ndarray_view")]
    pub fn try_from_ndarray_view<E: Dimension>(v: ArrayView<'a, T, E>) -> Result<Self, ShapeError> {
        let (sizes, strides) = (v.shape().to_vec(), v.strides().to_vec());
        from_nd_parts(&sizes, &strides, v.to_slice_memory_order(), &[][..])
    }
}

impl<'a, T: Element, S: NdShape> TensorViewMut<'a, T, S> {
    /// [`to_ndarray_view_mut`](TensorBase::to_ndarray_view_mut) keeping the view's own lifetime.
    pub fn into_ndarray_view_mut(self) -> ArrayViewMut<'a, T, S::NdDim> {
        let l = *self.layout();
        nd_view_mut(self.data, &l)
    }
}

impl<'a, T: Element, S: Shape> TensorViewMut<'a, T, S> {
    /// A mutable view of an ndarray mutable view's elements (see
    /// [`TensorView::try_from_ndarray_view`]), O(1); writes go to the array.
    ///
    /// # Errors
    /// As [`TensorView::try_from_ndarray_view`].
    #[doc(alias = "from_ndarray_view_mut")]
    pub fn try_from_ndarray_view_mut<E: Dimension>(v: ArrayViewMut<'a, T, E>) -> Result<Self, ShapeError> {
        let (sizes, strides) = (v.shape().to_vec(), v.strides().to_vec());
        from_nd_parts(&sizes, &strides, v.into_slice_memory_order(), &mut [][..])
    }
}

/// A tensor of shape `S` over an ndarray view's elements (`data`: the view's memory in memory
/// order, `None` when it leaves gaps) with the view's `sizes` and `strides`; `empty` when a size
/// is 0. The sizes are checked against `S` first.
fn from_nd_parts<D: Data, S: Shape>(
    sizes: &[usize],
    strides: &[isize],
    data: Option<D>,
    empty: D,
) -> Result<TensorBase<D, S>, ShapeError> {
    S::check_sizes(sizes)?;
    if sizes.contains(&0) {
        return TensorBase::try_from_parts(empty, Layout::contiguous(sizes)?);
    }
    let data = data.ok_or_else(|| gaps_error(sizes, strides))?;
    TensorBase::try_from_parts(data, layout_in_memory_order(sizes, strides)?)
}

impl<T: Element, S: NdShape> Tensor<T, S> {
    /// The tensor as an owned ndarray array with the same sizes: `[n0, ..]` ->
    /// `Array<T, S::NdDim>`. O(1) (the buffer is moved) when the tensor is row-major contiguous
    /// from offset 0 over its whole buffer; otherwise one copy in row-major order.
    #[doc(alias = "into_array")]
    pub fn into_ndarray(self) -> Array<T, S::NdDim> {
        let shape: S::NdDim = dim_of(self.sizes().iter().copied());
        let whole = self.is_contiguous() && self.storage_offset() == 0 && self.data.len() == self.numel();
        let v = if whole { self.data.into_vec() } else { self.to_vec() };
        Array::from_shape_vec(shape, v).expect(NDARRAY_REFUSED)
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A tensor from an owned ndarray array of any dimension type: `Array<T, E>` of sizes
    /// `[n0, ..]` -> `Tensor<T, S>`, sizes checked against `S` at run time. O(1) (the buffer is
    /// moved, with its offset) when the array is in standard (row-major) layout; otherwise one
    /// copy in logical order.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::RankTooLarge`]
    /// above rank 6; [`ShapeError::Alloc`] when a copy cannot be allocated.
    #[doc(alias = "from_ndarray")]
    #[try_twin]
    pub fn try_from_ndarray<E: Dimension>(a: Array<T, E>) -> Result<Self, ShapeError> {
        let sizes: Vec<usize> = a.shape().into();
        S::check_sizes(&sizes)?;
        let row_major = Layout::contiguous(&sizes)?;
        if a.is_standard_layout() {
            let (v, off) = a.into_raw_vec_and_offset();
            let l = Layout::from_parts(&sizes, row_major.strides(), off.unwrap_or(0))?;
            return TensorBase::try_from_parts(v, l);
        }
        let mut v = crate::memory::try_vec(0, T::ZERO)?;
        v.try_reserve_exact(a.len()).map_err(|_| ShapeError::Alloc { count: a.len(), elem_size: size_of::<T>() })?;
        v.extend(a.iter().copied());
        TensorBase::try_from_parts(v, row_major)
    }
}
