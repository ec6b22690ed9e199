//! Constructors of owned tensors.
use super::fill::lin_values;
use super::iter::ShapeIndex;
use super::{Tensor, TensorBase};
use crate::dim::{ArrDim, ArrayDim, Const, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::layout::{LayoutRepr, Offsets};
use crate::shape::{static_sizes, AllStatic, Shape};
use crate::storage::{ArrLevel, BuildData, Element, InlineArray};
use alloc::vec;
use alloc::vec::Vec;
use num_traits::Float;
use num_traits::{NumCast, ToPrimitive};
use shaped_macros::try_twin;

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A tensor of the given runtime sizes (checked against `S`) with every element `value`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::RankTooLarge`];
    /// [`ShapeError::Overflow`] when the element count does not fit `isize`;
    /// [`ShapeError::Alloc`] when the buffer cannot be allocated.
    #[try_twin]
    pub fn try_full_sized(sizes: &[usize], value: T) -> Result<Self, ShapeError> {
        S::check_sizes(sizes)?;
        let layout = Layout::contiguous(sizes)?;
        Ok(TensorBase::from_parts(crate::memory::try_vec(layout.numel(), value)?, layout))
    }
    /// Zeros of the given runtime sizes (checked against `S`): `zeros_sized(&[n, 2])` is PyTorch's
    /// `torch.zeros(n, 2)`.
    ///
    /// # Panics
    /// When the sizes do not fit `S`.
    #[track_caller]
    pub fn zeros_sized(sizes: &[usize]) -> Self {
        Self::full_sized(sizes, T::ZERO)
    }
    /// Ones of the given runtime sizes (checked against `S`).
    ///
    /// # Panics
    /// When the sizes do not fit `S`.
    #[track_caller]
    pub fn ones_sized(sizes: &[usize]) -> Self {
        Self::full_sized(sizes, T::ONE)
    }

    /// A tensor from a row-major buffer and its sizes (checked against `S` and the buffer length):
    /// PyTorch `torch.tensor(data).view(sizes)`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::DataLength`]
    /// when `data.len()` is not the product of the sizes.
    #[try_twin(alias = "from_shape_vec")]
    pub fn try_from_vec(sizes: &[usize], data: Vec<T>) -> Result<Self, ShapeError> {
        S::check_sizes(sizes)?;
        let layout = Layout::contiguous(sizes)?;
        if layout.numel() != data.len() {
            return Err(ShapeError::DataLength { len: data.len(), sizes: sizes.into() });
        }
        Ok(TensorBase::from_parts(data, layout))
    }
}

impl<T: Element> Tensor<T, ()> {
    /// A rank-0 tensor holding one value (PyTorch `torch.tensor(v)`).
    pub fn scalar(value: T) -> Self {
        TensorBase::from_parts(vec![value], Layout::contiguous(&[]).expect("rank 0"))
    }
}

impl<T: Element + NumCast + ToPrimitive> Tensor<T, (Dyn,)> {
    /// `start, start + step, ...` while below `end` (above it for a negative step): PyTorch
    /// `torch.arange(start, end, step)`. The length, `ceil((end - start) / step)`, is known at run
    /// time, so the shape is `[_]`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a zero step, a step whose sign walks away from `end`, a value
    /// that does not fit `T`, or a length that does not fit `isize` (the message names the range);
    /// [`ShapeError::Alloc`] when the buffer cannot be allocated.
    #[try_twin(doc = "`start, start + step, ...` while below `end` (above it for a negative step).")]
    pub fn try_arange_with(start: T, end: T, step: T) -> Result<Self, ShapeError> {
        let f = |v: T| v.to_f64().ok_or_else(|| ShapeError::Invalid("arange bound is not a number".into()));
        let (s, e, st) = (f(start)?, f(end)?, f(step)?);
        if st == 0.0 || (e - s) * st < 0.0 || !((e - s) / st).is_finite() {
            return Err(ShapeError::Invalid(alloc::format!("arange: invalid range {s}..{e} with step {st}")));
        }
        let len = num_traits::Float::ceil((e - s) / st);
        // Checked before anything is allocated: a length past isize (1e60 for 0..1e30 by 1e-30)
        // is an error, not a saturated cast.
        if len >= isize::MAX as f64 {
            return Err(ShapeError::Invalid(alloc::format!(
                "arange({start}, {end}, {step}): {len:.3e} elements, more than a tensor can hold (isize::MAX)"
            )));
        }
        let n = len as usize;
        let layout = Layout::contiguous(&[n])?;
        let mut data = crate::memory::try_with_capacity(n)?;
        for i in 0..n {
            let x = s + i as f64 * st;
            let v = T::from(x).ok_or_else(|| {
                ShapeError::Invalid(alloc::format!(
                    "arange({start}, {end}, {step}): the value {x} does not fit the element type"
                ))
            })?;
            data.push(v);
        }
        Ok(TensorBase::from_parts(data, layout))
    }
}

/// `Tensor::from([1., 2., 3.])`: shape `[3]` from the array type. A level of length 1 becomes the
/// broadcastable [`One`](crate::One) dim, as PyTorch's `torch.tensor` gives a size-1 dim; lengths
/// must be in typenum's range (see [`ArrayDim`]); [`from_array`](TensorBase::from_array) keeps
/// `Const<N>` for every length.
impl<T: Element, const A: usize> From<[T; A]> for Tensor<T, (ArrDim<A>,)>
where
    Const<A>: ArrayDim,
{
    fn from(a: [T; A]) -> Self {
        TensorBase::from_parts(a.to_vec(), Layout::contiguous(&[A]).expect("rank 1"))
    }
}
/// `Tensor::from([[1., 2., 3.], [4., 5., 6.]])`: shape `[2, 3]` from the array type (a level of
/// length 1 gives [`One`](crate::One)).
impl<T: Element, const A: usize, const B: usize> From<[[T; B]; A]> for Tensor<T, (ArrDim<A>, ArrDim<B>)>
where
    Const<A>: ArrayDim,
    Const<B>: ArrayDim,
{
    fn from(a: [[T; B]; A]) -> Self {
        TensorBase::from_parts(a.as_flattened().to_vec(), Layout::contiguous(&[A, B]).expect("rank 2"))
    }
}
/// Shape `[A, B, C]` from a nested array (a level of length 1 gives [`One`](crate::One)).
impl<T: Element, const A: usize, const B: usize, const C: usize> From<[[[T; C]; B]; A]>
    for Tensor<T, (ArrDim<A>, ArrDim<B>, ArrDim<C>)>
where
    Const<A>: ArrayDim,
    Const<B>: ArrayDim,
    Const<C>: ArrayDim,
{
    fn from(a: [[[T; C]; B]; A]) -> Self {
        let data = a.as_flattened().as_flattened().to_vec();
        TensorBase::from_parts(data, Layout::contiguous(&[A, B, C]).expect("rank 3"))
    }
}
/// Shape `[A, B, C, D]` from a nested array (a level of length 1 gives [`One`](crate::One)).
impl<T: Element, const A: usize, const B: usize, const C: usize, const D: usize> From<[[[[T; D]; C]; B]; A]>
    for Tensor<T, (ArrDim<A>, ArrDim<B>, ArrDim<C>, ArrDim<D>)>
where
    Const<A>: ArrayDim,
    Const<B>: ArrayDim,
    Const<C>: ArrayDim,
    Const<D>: ArrayDim,
{
    fn from(a: [[[[T; D]; C]; B]; A]) -> Self {
        let data = a.as_flattened().as_flattened().as_flattened().to_vec();
        TensorBase::from_parts(data, Layout::contiguous(&[A, B, C, D]).expect("rank 4"))
    }
}

/// Nested arrays whose type gives the shape with `Const<N>` dims for every length (no typenum
/// range, so it works in generic code): what [`TensorBase::from_array`] takes.
pub trait NestedArray<T: Element> {
    /// `(Const<A>, ..)`.
    type Shape: Shape;
    /// The elements in row-major order.
    fn flat(&self) -> &[T];
}
impl<T: Element, const A: usize> NestedArray<T> for [T; A] {
    type Shape = (Const<A>,);
    fn flat(&self) -> &[T] {
        self
    }
}
impl<T: Element, const A: usize, const B: usize> NestedArray<T> for [[T; B]; A] {
    type Shape = (Const<A>, Const<B>);
    fn flat(&self) -> &[T] {
        self.as_flattened()
    }
}
impl<T: Element, const A: usize, const B: usize, const C: usize> NestedArray<T> for [[[T; C]; B]; A] {
    type Shape = (Const<A>, Const<B>, Const<C>);
    fn flat(&self) -> &[T] {
        self.as_flattened().as_flattened()
    }
}
impl<T: Element, const A: usize, const B: usize, const C: usize, const D: usize> NestedArray<T>
    for [[[[T; D]; C]; B]; A]
{
    type Shape = (Const<A>, Const<B>, Const<C>, Const<D>);
    fn flat(&self) -> &[T] {
        self.as_flattened().as_flattened().as_flattened()
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A tensor from a nested array of rank 1..=4, with `Const<N>` dims for every length (also in
    /// generic code, `fn f<const N: usize>(a: [f32; N])`): `[[1., 2.]] -> [1, 2]` as
    /// `(Const<1>, Const<2>)`. `Tensor::from` is the same but gives a length-1 level the
    /// broadcastable [`One`](crate::One). Mirrors `torch.tensor(data)`.
    pub fn from_array<Arr: NestedArray<T, Shape = S>>(a: Arr) -> Self {
        let (sizes, rank) = static_sizes::<S>();
        TensorBase::from_parts(a.flat().to_vec(), Layout::contiguous(&sizes[..rank]).expect("nested array"))
    }
}

/// The constructors of fully static shapes, written once for every storage a new tensor can be
/// built in ([`BuildData`]: the heap's [`Tensor`] and the inline [`STensor`](crate::STensor)), so
/// that the storage follows the target type: `let m: STensor<f32, Shape![4, 4]> =
/// STensor::eye();` and `let t: Tensor<f32, Shape![4, 4]> = Tensor::eye();` both infer. Each
/// takes the shape `S` from the type; the `_sized` forms (heap only) take runtime sizes.
impl<D: BuildData, S: Shape> TensorBase<D, S> {
    /// A new tensor of the fully static shape `S` whose `i`-th element in row-major order is
    /// `f(i)`: the one place the constructors below build their storage.
    ///
    /// # Errors
    /// [`ShapeError::Overflow`] when the element count does not fit `isize`;
    /// [`ShapeError::Alloc`] when a heap buffer cannot be allocated.
    #[inline(always)]
    pub(crate) fn try_static_from_fn(f: impl FnMut(usize) -> D::Elem) -> Result<Self, ShapeError>
    where
        S: AllStatic,
    {
        let lay = <D::Lay<S> as LayoutRepr>::row_major::<S>(|| {
            let (sizes, rank) = static_sizes::<S>();
            Layout::contiguous(&sizes[..rank])
        })?;
        let data = D::try_from_fn(lay.get::<S>().numel(), f)?;
        Ok(TensorBase::from_lay(data, lay))
    }

    /// A tensor of the fully static shape `S` with every element `value` (PyTorch `torch.full`;
    /// nalgebra's `repeat`, which is not PyTorch's tiling `repeat`). Heap or inline as the target
    /// type says.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{STensor, Shape, Tensor};
    /// let t: Tensor<f32, Shape![2, 3]> = Tensor::full(7.0);
    /// let s: STensor<f32, Shape![2, 3]> = STensor::full(7.0);
    /// assert_eq!(t.to_vec(), s.to_vec());
    /// ```
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[doc(alias = "from_elem", alias = "from_element")]
    #[inline]
    #[track_caller]
    pub fn full(value: D::Elem) -> Self
    where
        S: AllStatic,
    {
        Self::try_static_from_fn(|_| value).or_panic()
    }
    /// Zeros of the fully static shape `S` (PyTorch `torch.zeros`; nalgebra `zeros`).
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn zeros() -> Self
    where
        S: AllStatic,
    {
        Self::full(D::Elem::ZERO)
    }
    /// Ones of the fully static shape `S` (PyTorch `torch.ones`).
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn ones() -> Self
    where
        S: AllStatic,
    {
        Self::full(D::Elem::ONE)
    }
    /// A tensor holding the nested array `a` (row-major) of the fully static shape `S`:
    /// `STensor::<f32, Shape![2, 2]>::new([[1., 2.], [3., 4.]])`, or with the type from the
    /// target, `let m: STensor<f32, Shape![2, 2]> = STensor::new([[1., 2.], [3., 4.]])`
    /// (PyTorch `torch.tensor(data)`; nalgebra `new`). [`stensor`](crate::stensor) and
    /// [`Tensor::from`] read the shape from the array instead.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{STensor, Shape, Tensor};
    /// let m: STensor<f32, Shape![2, 2]> = STensor::new([[1., 2.], [3., 4.]]);
    /// let h: Tensor<f32, Shape![2, 2]> = Tensor::new([[1., 2.], [3., 4.]]);
    /// assert_eq!(m.to_vec(), h.to_vec());
    /// ```
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn new(a: <S::Arr<D::Elem> as ArrLevel>::Array) -> Self
    where
        S: AllStatic,
        <S::Arr<D::Elem> as ArrLevel>::Array: InlineArray<Elem = D::Elem>,
    {
        let flat = a.flat();
        Self::try_static_from_fn(|i| flat[i]).or_panic()
    }
    /// A tensor of the fully static shape `S` whose element at each coordinate is
    /// `f(coordinate)`, called in row-major order: `from_fn(|[i, j]| 10 * i as i32 + j as i32)`
    /// on `Shape![2, 3]` is `[[0, 1, 2], [10, 11, 12]]`. The coordinate is a `[usize; R]`, `R`
    /// the rank (so that a closure `|[i, j]| ..` needs no annotation when the target type gives
    /// the shape). Mirrors NumPy `np.fromfunction` (called per element, not on index
    /// arrays); ndarray `from_shape_fn`, nalgebra `from_fn`. Heap or inline as the target type
    /// says.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{STensor, Shape, Tensor};
    /// let t = Tensor::<i32, Shape![2, 3]>::from_fn(|[i, j]| 10 * i as i32 + j as i32);
    /// assert_eq!(t.to_vec(), [0, 1, 2, 10, 11, 12]);
    /// let s: STensor<i32, Shape![2, 3]> = STensor::from_fn(|[i, j]| 10 * i as i32 + j as i32);
    /// assert_eq!(s.as_array(), &[[0, 1, 2], [10, 11, 12]]);
    /// ```
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[doc(alias = "fromfunction", alias = "from_shape_fn")]
    #[inline]
    #[track_caller]
    pub fn from_fn<const R: usize>(mut f: impl FnMut([usize; R]) -> D::Elem) -> Self
    where
        S: AllStatic + ShapeIndex<Index = [usize; R]>,
    {
        let lay = S::ROW_MAJOR;
        let mut offsets = Offsets::new(&lay);
        Self::try_static_from_fn(|_| {
            let v = f(S::index_from(offsets.index()));
            offsets.next();
            v
        })
        .or_panic()
    }
}

impl<D: BuildData, const N: usize> TensorBase<D, (Const<N>, Const<N>)> {
    /// The `N x N` identity matrix, shape `[N, N]` from the type: PyTorch `torch.eye(N)`, NumPy
    /// `np.eye(N)`; nalgebra `identity`. Heap or inline as the target type says;
    /// [`eye_sized`](Tensor::eye_sized) takes runtime sizes.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{STensor, Shape, Tensor};
    /// let i = Tensor::<f32, Shape![2, 2]>::eye();
    /// assert_eq!(i.to_vec(), [1., 0., 0., 1.]);
    /// let m: STensor<f32, Shape![4, 4]> = STensor::eye();
    /// assert_eq!(m.sum(), 4.);
    /// ```
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[doc(alias = "identity")]
    #[inline]
    #[track_caller]
    pub fn eye() -> Self {
        Self::try_static_from_fn(|i| if i % (N + 1) == 0 { D::Elem::ONE } else { D::Elem::ZERO }).or_panic()
    }
}

impl<D: BuildData, const N: usize> TensorBase<D, (Const<N>,)> {
    /// `N` evenly spaced values from `start` to `end`, both included (shape `[N]` from the type):
    /// PyTorch `torch.linspace(start, end, N)`, NumPy `np.linspace(start, end, N)`; ndarray
    /// `Array::linspace`. `N = 1` gives `[start]`; values are computed as PyTorch does (from
    /// `start` for the first half, from `end` for the second), so both ends are exact.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let t = Tensor::<f64, Shape![5]>::linspace(0., 1.);
    /// assert_eq!(t.to_vec(), [0., 0.25, 0.5, 0.75, 1.]);
    /// ```
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn linspace(start: D::Elem, end: D::Elem) -> Self
    where
        D::Elem: Float,
    {
        let mut values = lin_values(start, end, N);
        Self::try_static_from_fn(|_| values.next().unwrap_or(end)).or_panic()
    }
    /// `N` values spaced evenly on a log scale: `base^v` for each `v` of
    /// [`linspace(start, end)`](Self::linspace) (shape `[N]` from the type): PyTorch
    /// `torch.logspace(start, end, N, base)`, NumPy `np.logspace(start, end, N, base=base)`;
    /// ndarray `Array::logspace`.
    ///
    /// # Panics
    /// When a heap buffer cannot be allocated.
    #[inline]
    #[track_caller]
    pub fn logspace(start: D::Elem, end: D::Elem, base: D::Elem) -> Self
    where
        D::Elem: Float,
    {
        let mut values = lin_values(start, end, N);
        Self::try_static_from_fn(|_| base.powf(values.next().unwrap_or(end))).or_panic()
    }
    /// `[0, 1, ..., N-1]` as a static `[N]` tensor (PyTorch `torch.arange(N)`).
    ///
    /// # Panics
    /// When a value does not fit the element type (for example 300 in `u8`), or a heap buffer
    /// cannot be allocated.
    #[doc(alias = "range")]
    #[inline]
    #[track_caller]
    pub fn arange() -> Self
    where
        D::Elem: NumCast,
    {
        Self::try_static_from_fn(|i| NumCast::from(i).expect("arange value does not fit the element type")).or_panic()
    }
}

/// Zeros of the fully static shape `S` ([`zeros`](TensorBase::zeros)), heap or inline: PyTorch
/// `torch.zeros(S)`, NumPy `np.zeros(S)`; ndarray `Array::default`, nalgebra `zeros`.
impl<D: BuildData, S: AllStatic> Default for TensorBase<D, S> {
    #[inline]
    fn default() -> Self {
        Self::zeros()
    }
}
