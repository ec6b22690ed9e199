//! Constructors and conversions of inline tensors ([`STensor`]): the elements in a nested array
//! inside the value, the layout a compile-time constant of the shape.
use super::{STensor, Tensor, TensorBase};
use crate::dim::{ArrDim, ArrayDim, Const};
use crate::error::{OrPanic, ShapeError};
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{AllStatic, Shape};
use crate::storage::{ArrLevel, Data, DataMut, Inline, InlineArray, OutData};

pub use crate::limits::MAX_INLINE_BYTES;

impl<A: InlineArray, S: AllStatic> TensorBase<Inline<A>, S> {
    /// The row-major layout of `S`, checked once per type at build time against the array: its
    /// element count must be `S`'s (the [`STensor`] alias guarantees it) and it must fit
    /// [`MAX_INLINE_BYTES`].
    const CHECKED: () = {
        let mut n = 1usize;
        let mut i = 0;
        while i < crate::MAX_RANK {
            if let Some(d) = S::STATIC[i] {
                n *= d;
            }
            i += 1;
        }
        assert!(n == A::LEN, "inline storage whose array does not hold the shape's elements");
        if core::mem::size_of::<A>() > MAX_INLINE_BYTES {
            let m = crate::error::ConstMsg::new().str("an STensor of ").num(core::mem::size_of::<A>());
            let m = m.str(" bytes is over the ").num(MAX_INLINE_BYTES);
            m.str("-byte inline limit: it belongs on the heap (use Tensor)").fail()
        }
    };

    /// A tensor holding the nested array `a` (row-major): `STensor::<f32, Shape![2, 2]>::new([[1.,
    /// 2.], [3., 4.]])`. O(1), no allocation.
    #[inline(always)]
    pub fn new(a: A) -> Self {
        let () = Self::CHECKED;
        let lay = LayoutRepr::row_major::<S>(|| Ok(S::ROW_MAJOR)).or_panic();
        TensorBase::from_lay(Inline(a), lay)
    }
    /// Every element `value` (PyTorch `torch.full`; nalgebra's `repeat`), inline.
    #[inline(always)]
    #[doc(alias = "from_elem", alias = "from_element")]
    pub fn full(value: A::Elem) -> Self {
        let mut a = A::ZEROED;
        a.flat_mut().fill(value);
        Self::new(a)
    }
    /// Zeros (PyTorch `torch.zeros`), inline.
    #[inline(always)]
    pub fn zeros() -> Self {
        Self::new(A::ZEROED)
    }
    /// Ones (PyTorch `torch.ones`), inline.
    #[inline(always)]
    pub fn ones() -> Self {
        Self::full(<A::Elem as crate::Element>::ONE)
    }
    /// An inline tensor whose element at each coordinate is `f(coordinate)`, called in row-major
    /// order (the coordinate a `[usize; R]`): the inline [`Tensor::from_fn`], NumPy
    /// `np.fromfunction` per element; nalgebra `from_fn`, ndarray `from_shape_fn`. No allocation.
    ///
    /// ```
    /// use shaped_core::{STensor, Shape};
    /// let t = STensor::<i32, Shape![2, 3]>::from_fn(|[i, j]| 10 * i as i32 + j as i32);
    /// assert_eq!(t.as_array(), &[[0, 1, 2], [10, 11, 12]]);
    /// ```
    #[inline]
    #[doc(alias = "fromfunction", alias = "from_shape_fn")]
    pub fn from_fn(mut f: impl FnMut(S::Index) -> A::Elem) -> Self
    where
        S: crate::tensor::ShapeIndex,
    {
        let mut a = A::ZEROED;
        let lay = S::ROW_MAJOR;
        let mut offsets = crate::layout::Offsets::new(&lay);
        for e in a.flat_mut() {
            *e = f(S::index_from(offsets.index()));
            offsets.next();
        }
        Self::new(a)
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

impl<A: InlineArray, const N: usize> TensorBase<Inline<A>, (Const<N>, Const<N>)>
where
    (Const<N>, Const<N>): AllStatic,
{
    /// The `N x N` identity matrix, inline: the inline [`Tensor::eye`] (PyTorch `torch.eye(N)`,
    /// NumPy `np.eye(N)`; nalgebra `identity`). No allocation.
    ///
    /// ```
    /// use shaped_core::{STensor, Shape};
    /// assert_eq!(STensor::<f32, Shape![2, 2]>::eye().as_array(), &[[1., 0.], [0., 1.]]);
    /// ```
    #[inline]
    #[doc(alias = "identity")]
    pub fn eye() -> Self {
        let mut a = A::ZEROED;
        for e in a.flat_mut().iter_mut().step_by(N + 1) {
            *e = <A::Elem as crate::Element>::ONE;
        }
        Self::new(a)
    }
}

impl<A: InlineArray, const N: usize> TensorBase<Inline<A>, (Const<N>,)>
where
    (Const<N>,): AllStatic,
    A::Elem: num_traits::Float,
{
    /// `N` evenly spaced values from `start` to `end`, both included, inline: the inline
    /// [`Tensor::linspace`] (PyTorch `torch.linspace(start, end, N)`, NumPy `np.linspace`), with
    /// the same values.
    #[inline]
    pub fn linspace(start: A::Elem, end: A::Elem) -> Self {
        Self::lin_with(start, end, |v| v)
    }
    /// `base^v` for each `v` of [`linspace(start, end)`](Self::linspace), inline: the inline
    /// [`Tensor::logspace`] (PyTorch `torch.logspace(start, end, N, base)`).
    #[inline]
    pub fn logspace(start: A::Elem, end: A::Elem, base: A::Elem) -> Self {
        Self::lin_with(start, end, |v| num_traits::Float::powf(base, v))
    }
    /// The `N` values of [`linspace`](Self::linspace), each through `map`.
    fn lin_with(start: A::Elem, end: A::Elem, map: impl Fn(A::Elem) -> A::Elem) -> Self {
        let mut a = A::ZEROED;
        for (e, v) in a.flat_mut().iter_mut().zip(super::fill::lin_values(start, end, N)) {
            *e = map(v);
        }
        Self::new(a)
    }
}

impl<A: InlineArray, const N: usize> TensorBase<Inline<A>, (Const<N>,)>
where
    (Const<N>,): AllStatic,
    A::Elem: num_traits::NumCast,
{
    /// `[0, 1, ..., N-1]`, inline: the inline [`Tensor::arange`] (PyTorch `torch.arange(N)`).
    ///
    /// # Panics
    /// When a value does not fit the element type (for example 300 in `u8`).
    #[doc(alias = "range")]
    #[track_caller]
    pub fn arange() -> Self {
        let mut a = A::ZEROED;
        for (i, e) in a.flat_mut().iter_mut().enumerate() {
            *e = num_traits::cast(i).expect("arange value does not fit the element type");
        }
        Self::new(a)
    }
}

/// Zeros, inline ([`TensorBase::zeros`]): nalgebra `zeros`, ndarray `Array::default`.
impl<A: InlineArray, S: AllStatic> Default for TensorBase<Inline<A>, S> {
    #[inline]
    fn default() -> Self {
        Self::zeros()
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// An inline copy ([`STensor`]) of a tensor of a fully static shape: O(n), no allocation for
    /// a static shape (a shape with `Dyn` dims gives a heap [`Tensor`], as the alias does).
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] only for a shape with `Dyn` dims whose copy cannot be allocated.
    pub fn try_to_inline(&self) -> Result<STensor<D::Elem, S>, ShapeError> {
        let n = self.numel();
        let mut out = <<S::Arr<D::Elem> as ArrLevel>::Store as OutData<D::Elem>>::zeroed(n)?;
        crate::kernels::copy_into(out.as_mut_slice(), self.data.as_slice(), self.layout());
        let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(self.sizes()))?;
        Ok(TensorBase::from_lay(out, lay))
    }
    /// [`try_to_inline`](Self::try_to_inline), panicking with the error's message.
    #[track_caller]
    pub fn to_inline(&self) -> STensor<D::Elem, S> {
        self.try_to_inline().or_panic()
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
    TensorBase::new(a)
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
                TensorBase::new(a)
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
