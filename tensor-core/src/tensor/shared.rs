//! Shared storage and checked strided views: [`SharedTensor`] (clones share the buffer, as in
//! Etaler and PyTorch), deep [`copy`](TensorBase::copy), and [`as_strided`](TensorBase::as_strided)
//! (PyTorch's `set_(storage, offset, size, stride)` / `as_strided`, refusing any view that reaches
//! outside the storage).
use super::{Tensor, TensorBase, TensorView, ViewOf};
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::Layout;
use crate::shape::{DynShape, Shape};
use crate::storage::{Data, DataOwned, Element};
use alloc::sync::Arc;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// A tensor whose storage is reference-counted: `clone()` is O(1) and shares the buffer
/// (Etaler's shallow copy); [`copy`](TensorBase::copy) is the deep copy. Writes are
/// copy-on-write (see [`DataMut`](crate::DataMut) for `Arc<Vec<T>>`), so sharing never makes a
/// write visible through another handle.
pub type SharedTensor<T, S> = TensorBase<Arc<Vec<T>>, S>;

impl<T: Element, S: Shape> Tensor<T, S> {
    /// The same tensor with reference-counted storage: O(1), no copy. Same shape.
    pub fn into_shared(self) -> SharedTensor<T, S> {
        let layout = *self.layout();
        TensorBase::from_parts(Arc::new(self.data.into_vec()), layout)
    }
}

impl<T: Element, S: Shape> SharedTensor<T, S> {
    /// The shared storage itself (PyTorch `storage()`): another handle to the same buffer.
    pub fn storage_shared(&self) -> Arc<Vec<T>> {
        Arc::clone(&self.data)
    }

    /// An owning handle to a view of this tensor's storage, sharing it (no copy): pass a view
    /// derived from `self` (`s.share(&s.t())`, `s.share(&t!(s[.., 1]))`). The result keeps the
    /// view's shape and layout and outlives the borrow.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `view` does not look at this tensor's storage;
    /// [`ShapeError::Overlap`] when two of its coordinates may reach one element (an expanded
    /// view): a shared tensor can be written, so it must not overlap (use `to_owned()`).
    #[try_twin]
    pub fn try_share<S2: Shape>(&self, view: &TensorView<'_, T, S2>) -> Result<SharedTensor<T, S2>, ShapeError> {
        if !core::ptr::eq(view.data.as_ptr(), self.data.as_ptr()) || view.data.len() != self.data.len() {
            return Err(ShapeError::Invalid("share: the view does not look at this tensor's storage".into()));
        }
        // The result can be written (copy-on-write), so an overlapping view is refused.
        TensorBase::try_from_parts(Arc::clone(&self.data), *view.layout())
    }

    /// Whether both tensors use the same storage buffer.
    pub fn shares_storage_with<S2: Shape>(&self, other: &SharedTensor<T, S2>) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }

    /// The number of handles sharing this storage.
    pub fn storage_handles(&self) -> usize {
        Arc::strong_count(&self.data)
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// A deep copy with fresh, contiguous storage of the same kind (Etaler's `copy()`, PyTorch's
    /// `clone()`): same shape; nothing is shared with `self` afterwards.
    ///
    /// # Panics
    /// When the copy cannot be allocated.
    #[track_caller]
    pub fn copy(&self) -> Self
    where
        D: DataOwned,
    {
        let layout = Layout::contiguous(self.sizes()).or_panic();
        TensorBase::from_parts(D::from_vec(kernels::to_vec(self.data.as_slice(), self.layout()).or_panic()), layout)
    }

    /// A view of this tensor's whole storage with the given sizes, strides (in elements, may be
    /// negative or 0) and storage offset (PyTorch `as_strided`, and the lecture's
    /// `set_(storage, storage_offset, size, stride)`). Unlike PyTorch it refuses any layout that
    /// reaches outside the storage.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when an element of the layout lies outside the storage (or below
    /// offset 0); [`ShapeError::RankTooLarge`].
    #[try_twin]
    pub fn try_as_strided(
        &self,
        sizes: &[usize],
        strides: &[isize],
        offset: usize,
    ) -> Result<ViewOf<'_, D, DynShape>, ShapeError> {
        TensorBase::try_from_parts(self.data.view_data(), Layout::from_parts(sizes, strides, offset)?)
    }
}
