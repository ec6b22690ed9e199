//! Constructors and conversions of inline tensors ([`STensor`]): the elements in a nested array
//! inside the value, the layout a compile-time constant of the shape.
use super::{STensor, Tensor, TensorBase};
use crate::dim::{ArrDim, ArrayDim, Const};
use crate::error::{OrPanic, ShapeError};
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{AllStatic, Shape};
use crate::storage::{ArrLevel, Data, DataMut, Inline, InlineArray, OutData};
use shaped_macros::try_twin;

pub use crate::limits::MAX_INLINE_BYTES;

impl<A: InlineArray, S: AllStatic> TensorBase<Inline<A>, S> {
    /// The row-major layout of `S`, checked once per type at build time against the array: its
    /// element count must be `S`'s (the [`STensor`] alias guarantees it) and it must fit
    /// [`MAX_INLINE_BYTES`] (the storage's own check, `Inline::FITS`).
    const CHECKED: () = {
        assert!(
            crate::kernels::small::numel::<S>() == A::LEN,
            "inline storage whose array does not hold the shape's elements"
        );
        Inline::<A>::FITS
    };

    /// A tensor holding the nested array `a` (row-major), with the row-major layout of `S`: what
    /// [`stensor`] and `From` build. O(1), no allocation. (The public constructor is
    /// [`new`](TensorBase::new), shared with the heap.)
    #[inline(always)]
    pub(crate) fn from_inline(a: A) -> Self {
        let () = Self::CHECKED;
        let lay = LayoutRepr::row_major::<S>(|| Ok(S::ROW_MAJOR)).or_panic();
        TensorBase::from_lay(Inline(a), lay)
    }
    /// The nested array, borrowed (row-major).
    #[inline(always)]
    pub fn as_array(&self) -> &A {
        &self.data.0
    }
    /// The nested array, mutably.
    #[inline(always)]
    pub fn as_array_mut(&mut self) -> &mut A {
        &mut self.data.0
    }
    /// The nested array (row-major), by value.
    #[inline(always)]
    pub fn into_array(self) -> A {
        self.data.0
    }
    /// A heap copy with the same shape ([`Tensor`]): O(n).
    ///
    /// # Panics
    /// When the copy cannot be allocated.
    #[track_caller]
    pub fn to_heap(&self) -> Tensor<A::Elem, S> {
        self.to_owned()
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// An inline copy ([`STensor`]) of a tensor of a fully static shape: O(n), no allocation for
    /// a static shape (a shape with `Dyn` dims gives a heap [`Tensor`], as the alias does).
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] only for a shape with `Dyn` dims whose copy cannot be allocated.
    #[try_twin]
    pub fn try_to_inline(&self) -> Result<STensor<D::Elem, S>, ShapeError> {
        let n = self.numel();
        let mut out = <<S::Arr<D::Elem> as ArrLevel>::Store as OutData<D::Elem>>::zeroed(n)?;
        crate::kernels::copy_into(out.as_mut_slice(), self.data.as_slice(), self.layout());
        let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(self.sizes()))?;
        Ok(TensorBase::from_lay(out, lay))
    }
}

/// A nested array that gives an inline tensor's shape (ranks 1 to 4), with the rules of
/// [`Tensor::from`]: a level of length 1 gives the broadcastable [`One`](crate::One), and lengths
/// must be in typenum's range ([`ArrayDim`]). What [`stensor`] takes.
pub trait ArrayShape: InlineArray {
    /// `(ArrDim<A>, ..)`.
    type Shape: AllStatic;
}
/// An inline tensor ([`STensor`]) holding the nested array `a`, its shape read from the array
/// type: `stensor([[1., 2.], [3., 4.]])` is an `STensor<f64, Shape![2, 2]>`. The inline
/// counterpart of [`Tensor::from`] (PyTorch `torch.tensor(data)`); O(1), no allocation.
pub fn stensor<A: ArrayShape>(a: A) -> TensorBase<Inline<A>, A::Shape> {
    TensorBase::from_inline(a)
}
/// `From` a nested array for inline tensors (`let x: STensor<f32, Shape![3]> = [1., 2., 3.].into()`;
/// [`stensor`] infers the shape).
macro_rules! array_shape {
    ($([$($n:ident),+] $ty:ty;)*) => {$(
        impl<T: crate::Element, $(const $n: usize),+> ArrayShape for $ty
        where
            $(Const<$n>: ArrayDim,)+
        {
            type Shape = ($(ArrDim<$n>,)+);
        }
        impl<T: crate::Element, $(const $n: usize),+> From<$ty> for TensorBase<Inline<$ty>, ($(ArrDim<$n>,)+)>
        where
            $(Const<$n>: ArrayDim,)+
        {
            #[inline(always)]
            fn from(a: $ty) -> Self {
                TensorBase::from_inline(a)
            }
        }
    )*};
}
array_shape! {
    [A] [T; A];
    [A, B] [[T; B]; A];
    [A, B, C] [[[T; C]; B]; A];
    [A, B, C, D] [[[[T; D]; C]; B]; A];
}
