//! Element types and storage kinds. A tensor is a storage (`Vec<T>` owned, `&[T]` borrowed,
//! `&mut [T]` borrowed mutably, or [`CowRepr`]) plus a [`Layout`](crate::Layout).
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

/// A tensor element: f32 (the default), f64, f16 and bf16 (`half`), i8..i64, u8..u64, bool.
pub trait Element: Copy + Send + Sync + PartialEq + PartialOrd + fmt::Debug + fmt::Display + 'static {
    /// The additive identity (`false` for bool).
    const ZERO: Self;
    /// The multiplicative identity (`true` for bool).
    const ONE: Self;
}
macro_rules! element {
    ($($t:ty => $z:expr, $o:expr;)*) => { $(impl Element for $t { const ZERO: Self = $z; const ONE: Self = $o; })* };
}
element! {
    f32 => 0.0, 1.0; f64 => 0.0, 1.0;
    half::f16 => half::f16::ZERO, half::f16::ONE; half::bf16 => half::bf16::ZERO, half::bf16::ONE;
    i8 => 0, 1; i16 => 0, 1; i32 => 0, 1; i64 => 0, 1; isize => 0, 1;
    u8 => 0, 1; u16 => 0, 1; u32 => 0, 1; u64 => 0, 1; usize => 0, 1;
    bool => false, true;
}

mod sealed {
    /// Storage kinds are the crate's own: the layout invariant and the no-overlap rule for
    /// writable storage rely on knowing every one of them.
    pub trait Sealed {}
}
use sealed::Sealed;
impl<T> Sealed for Vec<T> {}
impl<T> Sealed for &[T] {}
impl<T> Sealed for &mut [T] {}
impl<T> Sealed for Arc<Vec<T>> {}
impl<T> Sealed for CowRepr<'_, T> {}

/// A storage kind: something that lends a flat slice of elements. Implemented (sealed) for the
/// crate's storage kinds: `Vec<T>` (owned), `&[T]` (view), `&mut [T]` (mutable view),
/// `Arc<Vec<T>>` (shared) and [`CowRepr`].
pub trait Data: Sealed {
    /// Whether tensors of this storage kind can be written through. Their layouts must not let
    /// two coordinates reach the same element (checked where a layout comes from outside).
    const WRITABLE: bool = false;
    /// The element type.
    type Elem: Element;
    /// The storage of a view of this tensor: `&'s [T]`, borrowing it, for owned, shared and
    /// mutably borrowed storage; the view's own `&'a [T]` for a view, so that a view of a view
    /// keeps the original borrow (`x.t().narrow::<0>(0, 2)` binds to one `let`, as ndarray's
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

impl<T: Element> Data for Vec<T> {
    const WRITABLE: bool = true;
    type Elem = T;
    type Ref<'s> = &'s [T];
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
    #[inline]
    fn view_data(&self) -> &[T] {
        self
    }
}
impl<T: Element> DataMut for Vec<T> {
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<'a, T: Element> Data for &'a [T] {
    type Elem = T;
    type Ref<'s>
        = &'a [T]
    where
        Self: 's;
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
    #[inline]
    fn view_data(&self) -> &'a [T] {
        self
    }
}
impl<T: Element> Data for &mut [T] {
    const WRITABLE: bool = true;
    type Elem = T;
    type Ref<'s>
        = &'s [T]
    where
        Self: 's;
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
    #[inline]
    fn view_data(&self) -> &[T] {
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
impl<T: Element> DataOwned for Vec<T> {
    fn from_vec(v: Vec<T>) -> Self {
        v
    }
}

/// Shared storage: clones share the buffer (Etaler's shallow copy, PyTorch's storage sharing).
/// Writes are copy-on-write: writing through a tensor whose buffer is shared first gives it a
/// private copy (`Arc::make_mut`), so no write is ever seen through another handle. That is a
/// deliberate difference from PyTorch and Etaler, where writes through one handle show in all.
impl<T: Element> Data for Arc<Vec<T>> {
    const WRITABLE: bool = true;
    type Elem = T;
    type Ref<'s> = &'s [T];
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
    #[inline]
    fn view_data(&self) -> &[T] {
        self
    }
}
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
pub enum CowRepr<'a, T> {
    /// A view of the source's buffer.
    Borrowed(&'a [T]),
    /// A fresh contiguous buffer.
    Owned(Vec<T>),
}
impl<T: Element> Data for CowRepr<'_, T> {
    type Elem = T;
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
