//! Element types and storage kinds. A tensor is a storage (`Vec<T>` owned, `&[T]` borrowed,
//! `&mut [T]` borrowed mutably, or [`CowRepr`]) plus a [`Layout`](crate::Layout).
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

/// A storage kind: something that lends a flat slice of elements.
pub trait Data {
    /// The element type.
    type Elem: Element;
    /// The whole buffer (the layout says which elements the tensor uses).
    fn as_slice(&self) -> &[Self::Elem];
}
/// A storage kind that lends its buffer mutably.
pub trait DataMut: Data {
    /// The whole buffer, mutably.
    fn as_mut_slice(&mut self) -> &mut [Self::Elem];
}

impl<T: Element> Data for Vec<T> {
    type Elem = T;
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T: Element> DataMut for Vec<T> {
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}
impl<T: Element> Data for &[T] {
    type Elem = T;
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T: Element> Data for &mut [T] {
    type Elem = T;
    #[inline]
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T: Element> DataMut for &mut [T] {
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
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
    #[inline]
    fn as_slice(&self) -> &[T] {
        match self {
            CowRepr::Borrowed(s) => s,
            CowRepr::Owned(v) => v,
        }
    }
}
