//! Element types and storage kinds. A tensor is a storage ([`OwnedRepr`] owned, `&[T]` borrowed,
//! `&mut [T]` borrowed mutably, or [`CowRepr`]) plus a [`Layout`].
use crate::layout::Layout;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

pub use crate::element::Element;
pub use inline::{
    ArrLevel, Heap, Inline, InlineArray, LayoutRepr, Level1, Level2, Level3, Level4, Level5, RowMajor, Scalar,
};

mod inline;

mod sealed {
    /// Storage kinds are the crate's own: the layout invariant and the no-overlap rule for
    /// writable storage rely on knowing every one of them.
    pub trait Sealed {}
}
use sealed::Sealed;
impl<T: Element> Sealed for OwnedRepr<T> {}
impl<T> Sealed for &[T] {}
impl<T> Sealed for &mut [T] {}
impl<T> Sealed for Arc<Vec<T>> {}
impl<T: Element> Sealed for CowRepr<'_, T> {}

/// The storage of an owned [`Tensor`](crate::Tensor): a `Vec<T>` (ndarray's `OwnedRepr`) that,
/// when dropped, hands a buffer of 512 KiB or more to the crate's cache of large buffers instead of
/// the allocator, so that the next large result of the same element type reuses memory whose
/// pages are already mapped (see [`set_buffer_cache_limit`](crate::set_buffer_cache_limit)).
/// It dereferences to the `Vec<T>`; [`into_vec`](Self::into_vec) takes the vector out.
#[derive(PartialEq, Eq, Hash, Default)]
pub struct OwnedRepr<T: Element>(Vec<T>);
impl<T: Element> OwnedRepr<T> {
    /// The vector, moved out (it is not cached).
    #[inline]
    pub fn into_vec(mut self) -> Vec<T> {
        core::mem::take(&mut self.0)
    }
}
/// A copy, in a cached buffer when one fits (see [`OwnedRepr`]).
impl<T: Element> Clone for OwnedRepr<T> {
    fn clone(&self) -> Self {
        match crate::memory::cache::take(self.0.len()) {
            Some(mut v) => {
                v.extend_from_slice(&self.0);
                OwnedRepr(v)
            }
            None => OwnedRepr(self.0.clone()),
        }
    }
}
impl<T: Element> From<Vec<T>> for OwnedRepr<T> {
    #[inline]
    fn from(v: Vec<T>) -> Self {
        OwnedRepr(v)
    }
}
impl<T: Element> From<OwnedRepr<T>> for Vec<T> {
    #[inline]
    fn from(o: OwnedRepr<T>) -> Self {
        o.into_vec()
    }
}
impl<T: Element> core::ops::Deref for OwnedRepr<T> {
    type Target = Vec<T>;
    #[inline]
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}
impl<T: Element> core::ops::DerefMut for OwnedRepr<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}
impl<T: Element> fmt::Debug for OwnedRepr<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
impl<T: Element> Drop for OwnedRepr<T> {
    #[inline]
    fn drop(&mut self) {
        crate::memory::cache::give(&mut self.0);
    }
}

/// A storage kind: something that lends a flat slice of elements. Implemented (sealed) for the
/// crate's storage kinds: [`OwnedRepr`] (owned), `&[T]` (view), `&mut [T]` (mutable view),
/// `Arc<Vec<T>>` (shared) and [`CowRepr`].
pub trait Data: Sealed {
    /// Whether tensors of this storage kind can be written through. Their layouts must not let
    /// two coordinates reach the same element (checked where a layout comes from outside).
    const WRITABLE: bool = false;
    /// Whether this is inline storage (a compile-time constant the kernels branch on).
    const INLINE: bool = false;
    /// The element type.
    type Elem: Element;
    /// [`HeapKind`] (every kind but inline storage) or [`InlineKind`]: what decides where the
    /// results of operations on the tensor live ([`Out`], [`Out2`]).
    type Kind: StorageKind;
    /// How a tensor of this storage kind and shape `S` stores its layout ([`LayoutRepr`]): a
    /// [`Layout`], except for inline storage of a fully static shape.
    type Lay<S: crate::Shape>: LayoutRepr;
    /// The storage of a view of this tensor: `&'s [T]`, borrowing it, for owned, shared and
    /// mutably borrowed storage; the view's own `&'a [T]` for a view, so that a view of a view
    /// keeps the original borrow (`x.t().narrow(Ax::<0>, 0, 2)` binds to one `let`, as ndarray's
    /// `slice_move`).
    type Ref<'s>: Data<Elem = Self::Elem> + Copy
    where
        Self: 's;
    /// The whole buffer (the layout says which elements the tensor uses).
    fn as_slice(&self) -> &[Self::Elem];
    /// The buffer as a view's storage (see [`Ref`](Self::Ref)).
    fn view_data(&self) -> Self::Ref<'_>;
}
/// A storage kind that lends its buffer mutably.
pub trait DataMut: Data {
    /// The whole buffer, mutably.
    fn as_mut_slice(&mut self) -> &mut [Self::Elem];
}

/// [`Data`] for the heap storage kinds whose buffer is the slice they dereference to, one line a
/// kind: `[generics] type, writable: WRITABLE, ref<'s>: Ref<'s>`. `as_slice` and `view_data` are
/// that slice, the kind [`HeapKind`], the layout a [`Layout`].
macro_rules! slice_data {
    ($([$($g:tt)*] $ty:ty, writable: $w:expr, ref<$s:lifetime>: $r:ty;)*) => {$(
        impl<$($g)*> Data for $ty {
            const WRITABLE: bool = $w;
            type Elem = T;
            type Kind = HeapKind;
            type Lay<S: crate::Shape> = Layout;
            type Ref<$s>
                = $r
            where
                Self: $s;
            #[inline]
            fn as_slice(&self) -> &[T] {
                self
            }
            #[inline]
            fn view_data(&self) -> Self::Ref<'_> {
                self
            }
        }
    )*};
}
slice_data! {
    [T: Element] OwnedRepr<T>, writable: true, ref<'s>: &'s [T];
    ['a, T: Element] &'a [T], writable: false, ref<'s>: &'a [T];
    [T: Element] &mut [T], writable: true, ref<'s>: &'s [T];
    [T: Element] Arc<Vec<T>>, writable: true, ref<'s>: &'s [T];
}
impl<T: Element> DataMut for OwnedRepr<T> {
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T: Element> DataMut for &mut [T] {
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

/// A storage kind that owns its buffer (and so can be built from one).
pub trait DataOwned: Data + Sized {
    /// Takes ownership of a buffer.
    fn from_vec(v: Vec<Self::Elem>) -> Self;
}
impl<T: Element> DataOwned for OwnedRepr<T> {
    fn from_vec(v: Vec<T>) -> Self {
        OwnedRepr(v)
    }
}

/// Shared storage: clones share the buffer (Etaler's shallow copy, PyTorch's storage sharing).
/// Writes are copy-on-write: writing through a tensor whose buffer is shared first gives it a
/// private copy (`Arc::make_mut`), so no write is ever seen through another handle. That is a
/// deliberate difference from PyTorch and Etaler, where writes through one handle show in all.
impl<T: Element> DataMut for Arc<Vec<T>> {
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        Arc::make_mut(self).as_mut_slice()
    }
}
impl<T: Element> DataOwned for Arc<Vec<T>> {
    fn from_vec(v: Vec<T>) -> Self {
        Arc::new(v)
    }
}

/// Storage that is either borrowed or owned: what `reshape` returns (it copies only when the
/// strides cannot express the new shape).
#[derive(Clone, Debug)]
pub enum CowRepr<'a, T: Element> {
    /// A view of the source's buffer.
    Borrowed(&'a [T]),
    /// A fresh contiguous buffer (cached when dropped, as a [`Tensor`](crate::Tensor)'s).
    Owned(OwnedRepr<T>),
}
impl<T: Element> Data for CowRepr<'_, T> {
    type Elem = T;
    type Kind = HeapKind;
    type Lay<S: crate::Shape> = Layout;
    type Ref<'s>
        = &'s [T]
    where
        Self: 's;
    #[inline]
    fn as_slice(&self) -> &[T] {
        match self {
            CowRepr::Borrowed(s) => s,
            CowRepr::Owned(v) => v,
        }
    }
    #[inline]
    fn view_data(&self) -> &[T] {
        self.as_slice()
    }
}

/// A storage kind that new tensors can be built in: a heap [`OwnedRepr`] or an [`Inline`] array. The
/// kernels write a new tensor's elements into [`as_mut_slice`](DataMut::as_mut_slice) of a buffer from
/// [`zeroed`](Self::zeroed).
pub trait OutData<T: Element>: DataMut<Elem = T> + Sized {
    /// A buffer of `n` elements, all `T::ZERO` (`n` is the array length for inline storage).
    ///
    /// # Errors
    /// [`ShapeError::Alloc`](crate::ShapeError::Alloc) when a heap buffer cannot be allocated.
    fn zeroed(n: usize) -> Result<Self, crate::ShapeError>;
    /// The storage holding the row-major elements `v` (moved for [`OwnedRepr`], copied into the array
    /// for inline storage, where `v.len()` must be the array length).
    fn from_vec(v: Vec<T>) -> Self;
}
/// A new result's buffer of `n` elements for a kernel that writes every one of them before the
/// tensor is seen: an inline array zeroed as [`OutData::zeroed`], a heap buffer possibly a freed
/// one with its old values ([`try_vec_for_overwrite`](crate::memory::try_vec_for_overwrite): no
/// zero fill).
///
/// # Errors
/// As [`OutData::zeroed`].
#[inline]
pub(crate) fn for_overwrite<T: Element, O: OutData<T>>(n: usize) -> Result<O, crate::ShapeError> {
    if O::INLINE {
        O::zeroed(n)
    } else {
        crate::memory::try_vec_for_overwrite(n).map(O::from_vec)
    }
}

/// A storage kind a constructor builds a new tensor in: the heap's [`OwnedRepr`] or an
/// [`Inline`] array (what [`Tensor`](crate::Tensor) and [`STensor`](crate::STensor) hold).
/// Sealed. The constructors of static shapes (`zeros`, `eye`, `from_fn`, `randn`, ...) are
/// written once over it, so that the storage follows the target type.
pub trait BuildData: DataMut + Sealed + Sized {
    /// A buffer of `n` elements, element `i` being `f(i)`, called in order `0..n` (one pass on
    /// the heap, no allocation inline).
    ///
    /// # Errors
    /// [`ShapeError::Alloc`](crate::ShapeError::Alloc) when a heap buffer cannot be allocated;
    /// [`ShapeError::Invalid`](crate::ShapeError::Invalid) when `n` is not an inline array's
    /// length.
    fn try_from_fn(n: usize, f: impl FnMut(usize) -> Self::Elem) -> Result<Self, crate::ShapeError>;
}
impl<T: Element> BuildData for OwnedRepr<T> {
    #[inline]
    fn try_from_fn(n: usize, f: impl FnMut(usize) -> T) -> Result<Self, crate::ShapeError> {
        crate::memory::try_collect((0..n).map(f)).map(OwnedRepr)
    }
}
impl<T: Element> OutData<T> for OwnedRepr<T> {
    #[inline]
    fn zeroed(n: usize) -> Result<Self, crate::ShapeError> {
        crate::memory::try_vec(n, T::ZERO).map(OwnedRepr)
    }
    #[inline]
    fn from_vec(v: Vec<T>) -> Self {
        OwnedRepr(v)
    }
}
/// The storage kinds as they matter for results: heap-backed ([`HeapKind`]: owned, shared and
/// borrowed storage) or inline ([`InlineKind`]). An operation's result lives inline when an
/// operand is inline and the result's shape is fully static (a matmul or sum of inline tensors, or
/// of an inline tensor and a view of one such as `x.t()`, allocates nothing); on the heap
/// otherwise. See [`Out`] and [`Out2`].
pub trait StorageKind: 'static {
    /// The storage of a result of a one-operand operation (a map, a reduction) of shape `SO`.
    type Unary<T: Element, SO: crate::Shape>: OutData<T>;
    /// The storage of a result of shape `SO` of an operation with operands of kinds `Self` and
    /// `K2`.
    type Binary<K2: StorageKind, T: Element, SO: crate::Shape>: OutData<T>;
    /// `Binary<HeapKind, T, SO>` read from the other side (the dispatch on `K2`).
    #[doc(hidden)]
    type WithHeap<T: Element, SO: crate::Shape>: OutData<T>;
}
/// Heap or borrowed storage: results of operations are heap tensors unless the other operand is
/// inline.
pub struct HeapKind;
/// Inline storage: results of operations are inline when their shape is fully static.
pub struct InlineKind;
impl StorageKind for HeapKind {
    type Unary<T: Element, SO: crate::Shape> = OwnedRepr<T>;
    type Binary<K2: StorageKind, T: Element, SO: crate::Shape> = K2::WithHeap<T, SO>;
    type WithHeap<T: Element, SO: crate::Shape> = OwnedRepr<T>;
}
impl StorageKind for InlineKind {
    type Unary<T: Element, SO: crate::Shape> = <SO::Arr<T> as ArrLevel>::Store;
    type Binary<K2: StorageKind, T: Element, SO: crate::Shape> = <SO::Arr<T> as ArrLevel>::Store;
    type WithHeap<T: Element, SO: crate::Shape> = <SO::Arr<T> as ArrLevel>::Store;
}

/// The storage of the result of a one-operand operation on a tensor with storage `D`: [`OwnedRepr`]
/// (a [`Tensor`](crate::Tensor)) for heap-backed `D`, the inline array of `SO` for inline `D`
/// when `SO` is fully static.
pub type Out<D, T, SO> = <<D as Data>::Kind as StorageKind>::Unary<T, SO>;
/// The storage of the result of an operation on tensors with storages `D1` and `D2`: inline when
/// either is inline and `SO` is fully static, [`OwnedRepr`] otherwise.
pub type Out2<D1, D2, T, SO> = <<D1 as Data>::Kind as StorageKind>::Binary<<D2 as Data>::Kind, T, SO>;
