//! Conversions to and from other crates' types, zero-copy where the layouts allow.
//!
//! Always available (no feature): row-major views of slices
//! ([`TensorView::from_slice`](crate::TensorView::from_slice),
//! [`TensorViewMut::from_slice_mut`](crate::TensorViewMut::from_slice_mut)), the contiguous
//! elements as a slice ([`TensorBase::as_slice`](crate::TensorBase::as_slice)), nested arrays for
//! fully static shapes ([`TensorBase::to_array`](crate::TensorBase::to_array),
//! [`Tensor::into_array`](crate::Tensor::into_array)) and `TryFrom<Vec<T>>` for static shapes.
//!
//! Behind optional features (none default; all need `std`):
//! - `ndarray` (module `interop::ndarray`): views both ways without copying (strides,
//!   negative ones included), owned arrays both ways (O(1) when row-major).
//! - `nalgebra` (module `interop::nalgebra`): strided matrix views of rank-2 tensors, copies
//!   to and from `SMatrix`, `DMatrix` and `DVector`.
//! - `faer` (or `linalg`) (module `interop::faer`): `MatRef`/`MatMut` views of rank-2 tensors,
//!   copies from faer matrices.
//! - `approx` (module `interop::approx`): `AbsDiffEq`, `RelativeEq` and `UlpsEq` for tensors.
//!
//! Why `as_slice` returns an `Option` and there is no `AsRef<[T]>`: an owned [`Tensor`] need not
//! be contiguous (`TensorBase::try_from_parts` accepts any layout that fits its buffer without
//! overlap, e.g. a transposed one), and `AsRef` cannot fail.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::{static_sizes, AllStatic, Shape};
use crate::storage::{ArrLevel, Data, DataMut, Element, InlineArray};
use crate::tensor::{Tensor, TensorBase, TensorView, TensorViewMut};
use alloc::vec::Vec;
use shaped_macros::try_twin;

#[cfg(feature = "approx")]
pub mod approx;
#[cfg(any(feature = "faer", feature = "linalg"))]
pub mod faer;
#[cfg(feature = "nalgebra")]
pub mod nalgebra;
#[cfg(feature = "ndarray")]
pub mod ndarray;

/// The row-major layout of `sizes` after checking them against `S` and `len` elements.
fn row_major_checked<S: Shape>(sizes: &[usize], len: usize) -> Result<Layout, ShapeError> {
    S::check_sizes(sizes)?;
    let l = Layout::contiguous(sizes)?;
    if l.numel() != len {
        return Err(ShapeError::DataLength { len, sizes: sizes.into() });
    }
    Ok(l)
}

impl<'a, T: Element, S: Shape> TensorView<'a, T, S> {
    /// A row-major view of `data` with the given sizes: `&[T]` of length `n0 * n1 * ..` ->
    /// `[n0, n1, ..]`, O(1), no copy (NumPy `frombuffer(..).reshape(..)`, ndarray
    /// `ArrayView::from_shape`).
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when `sizes` do not fit `S`; [`ShapeError::DataLength`] when
    /// `data.len()` is not their product; [`ShapeError::RankTooLarge`], [`ShapeError::Overflow`].
    #[doc(alias = "from_shape")]
    #[doc(alias = "frombuffer")]
    #[try_twin]
    pub fn try_from_slice(data: &'a [T], sizes: &[usize]) -> Result<Self, ShapeError> {
        let l = row_major_checked::<S>(sizes, data.len())?;
        TensorBase::try_from_parts(data, l)
    }
}

impl<'a, T: Element, S: Shape> TensorViewMut<'a, T, S> {
    /// A mutable row-major view of `data` with the given sizes (see
    /// [`TensorView::try_from_slice`]); writes go to `data`. O(1), no copy.
    ///
    /// # Errors
    /// As [`TensorView::try_from_slice`].
    #[doc(alias = "from_shape")]
    #[try_twin]
    pub fn try_from_slice_mut(data: &'a mut [T], sizes: &[usize]) -> Result<Self, ShapeError> {
        let l = row_major_checked::<S>(sizes, data.len())?;
        TensorBase::try_from_parts(data, l)
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The elements as one slice in row-major order, when they are contiguous in it
    /// ([`is_contiguous`](Self::is_contiguous)); `None` otherwise (a transposed, strided or
    /// reversed view, or an owned tensor built with such a layout). O(1) (ndarray `as_slice`,
    /// nalgebra `as_slice`). There is no `AsRef<[T]>`: see the [module docs](crate::interop).
    #[doc(alias = "as_ref")]
    pub fn as_slice(&self) -> Option<&[D::Elem]> {
        let (off, n) = (self.storage_offset(), self.numel());
        if n == 0 {
            return Some(&[]);
        }
        self.is_contiguous().then(|| &self.data.as_slice()[off..off + n])
    }

    /// The nested array (`[[T; 3]; 2]` for `Shape![2, 3]`) holding a copy of the elements in
    /// row-major order, for a fully static shape (ranks 0..=5; `Shape![]` gives a
    /// [`Scalar`](crate::Scalar)). O(n). The array is returned by value, on the stack: for large
    /// shapes prefer [`to_vec`](Self::to_vec).
    #[doc(alias = "to_nested")]
    pub fn to_array(&self) -> <S::Arr<D::Elem> as ArrLevel>::Array
    where
        S: AllStatic,
        <S::Arr<D::Elem> as ArrLevel>::Array: InlineArray<Elem = D::Elem>,
    {
        let mut a = <<S::Arr<D::Elem> as ArrLevel>::Array as InlineArray>::ZEROED;
        crate::kernels::copy_into(a.flat_mut(), self.data.as_slice(), self.layout());
        a
    }
}

impl<D: DataMut, S: Shape> TensorBase<D, S> {
    /// [`as_slice`](Self::as_slice), mutably: `None` when the elements are not contiguous in
    /// row-major order.
    #[doc(alias = "as_mut")]
    pub fn as_slice_mut(&mut self) -> Option<&mut [D::Elem]> {
        let (off, n) = (self.storage_offset(), self.numel());
        if n == 0 {
            return Some(&mut []);
        }
        if self.is_contiguous() {
            Some(&mut self.data.as_mut_slice()[off..off + n])
        } else {
            None
        }
    }
}

impl<T: Element, S: AllStatic> Tensor<T, S> {
    /// The elements as a nested array (`[[T; 3]; 2]` for `Shape![2, 3]`): the consuming form of
    /// [`to_array`](TensorBase::to_array) (one copy out of the heap buffer, O(n)).
    pub fn into_array(self) -> <S::Arr<T> as ArrLevel>::Array
    where
        <S::Arr<T> as ArrLevel>::Array: InlineArray<Elem = T>,
    {
        self.to_array()
    }
}

/// A row-major tensor of a fully static shape from a `Vec` holding its elements, the sizes read
/// from the type: `Tensor::<f32, Shape![2, 3]>::try_from(vec![0.; 6])`. O(1), the `Vec` is
/// moved. The error is [`ShapeError::DataLength`] when the length is not the shape's element
/// count (the `Vec` is dropped). For shapes with `Dyn` dims use `Tensor::try_from_vec`.
impl<T: Element, S: AllStatic> TryFrom<Vec<T>> for Tensor<T, S> {
    type Error = ShapeError;
    fn try_from(v: Vec<T>) -> Result<Self, ShapeError> {
        let (sizes, rank) = static_sizes::<S>();
        let l = row_major_checked::<S>(&sizes[..rank], v.len())?;
        TensorBase::try_from_parts(v, l)
    }
}
