//! Constructors that compute their elements: [`from_fn`](Tensor::from_fn), `collect()`
//! ([`FromIterator`]), [`linspace`](Tensor::linspace), [`logspace`](Tensor::logspace),
//! [`eye`](Tensor::eye), and the `*_like` constructors and [`Default`].
use super::iter::ShapeIndex;
use super::{OutTensor, Tensor, TensorBase};
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::layout::Offsets;
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{DynShape, Shape};
use crate::storage::{Data, DataMut, Element, Out, OutData};
use alloc::vec::Vec;
use num_traits::Float;
use shaped_macros::try_twin;

impl<T: Element, S: Shape> Tensor<T, S> {
    /// [`from_fn`](Self::from_fn) for runtime sizes, checked against `S` (for shapes with `Dyn`
    /// dims and [`DynShape`], whose coordinate is a [`DynIndex`](crate::DynIndex)):
    /// `from_fn_sized(&[n, 2], |[i, j]| ..)` for `Shape![_, 2]`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::RankTooLarge`];
    /// [`ShapeError::Overflow`] when the element count does not fit `isize`;
    /// [`ShapeError::Alloc`] when the buffer cannot be allocated.
    #[doc(alias = "fromfunction", alias = "from_shape_fn")]
    pub fn try_from_fn_sized(sizes: &[usize], mut f: impl FnMut(S::Index) -> T) -> Result<Self, ShapeError>
    where
        S: ShapeIndex,
    {
        S::check_sizes(sizes)?;
        let layout = Layout::contiguous(sizes)?;
        let mut data = crate::memory::try_with_capacity(layout.numel())?;
        let mut offsets = Offsets::new(&layout);
        loop {
            let idx = S::index_from(offsets.index());
            if offsets.next().is_none() {
                break;
            }
            data.push(f(idx));
        }
        Ok(TensorBase::from_parts(data, layout))
    }
    /// [`try_from_fn_sized`](Self::try_from_fn_sized), panicking with the error's message.
    #[doc(alias = "fromfunction", alias = "from_shape_fn")]
    #[track_caller]
    pub fn from_fn_sized(sizes: &[usize], f: impl FnMut(S::Index) -> T) -> Self
    where
        S: ShapeIndex,
    {
        Self::try_from_fn_sized(sizes, f).or_panic()
    }

    /// The identity matrix of runtime sizes `n x m` (ones on the main diagonal, zeros elsewhere),
    /// checked against `S` (`Shape![_, _]`, `Shape![3, _]`, [`DynShape`]): PyTorch
    /// `torch.eye(n, m)`, NumPy `np.eye(n, m)`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when `[n, m]` does not fit `S`; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`] when the buffer cannot be allocated.
    #[doc(alias = "identity")]
    #[try_twin(alias = "identity")]
    pub fn try_eye_sized(n: usize, m: usize) -> Result<Self, ShapeError> {
        let mut t = Self::try_full_sized(&[n, m], T::ZERO)?;
        for i in 0..n.min(m) {
            t.data[i * m + i] = T::ONE;
        }
        Ok(t)
    }
}

/// The `i`-th of `steps` values from `start` to `end` inclusive, as PyTorch computes them: the
/// first half counts up from `start`, the second half down from `end`, so both ends are exact.
#[inline]
fn lin_value<T: Float>(start: T, end: T, step: T, i: usize, steps: usize) -> T {
    let f = |k: usize| T::from(k).expect("a step count is representable in every float type");
    if i < steps / 2 || steps == 1 {
        start + step * f(i)
    } else {
        end - step * f(steps - 1 - i)
    }
}

fn lin_data<T: Element + Float>(start: T, end: T, steps: usize, map: impl Fn(T) -> T) -> Result<Vec<T>, ShapeError> {
    crate::memory::try_collect(lin_values(start, end, steps).map(map))
}

/// The `steps` values from `start` to `end` ([`lin_value`]), in order.
pub(super) fn lin_values<T: Float>(start: T, end: T, steps: usize) -> impl ExactSizeIterator<Item = T> {
    let step = if steps > 1 {
        (end - start) / T::from(steps - 1).expect("a step count is representable in every float type")
    } else {
        T::zero()
    };
    (0..steps).map(move |i| lin_value(start, end, step, i, steps))
}

impl<T: Element + Float> Tensor<T, (Dyn,)> {
    /// `steps` evenly spaced values from `start` to `end`, both included, with the length known
    /// at run time (shape `[_]`): PyTorch `torch.linspace(start, end, steps)`, NumPy
    /// `np.linspace(start, end, steps)`. `steps = 0` gives an empty tensor, `1` gives `[start]`.
    ///
    /// # Errors
    /// [`ShapeError::Overflow`] when `steps` does not fit `isize`; [`ShapeError::Alloc`] when the
    /// buffer cannot be allocated.
    #[try_twin]
    pub fn try_linspace_sized(start: T, end: T, steps: usize) -> Result<Self, ShapeError> {
        let layout = Layout::contiguous(&[steps])?;
        Ok(TensorBase::from_parts(lin_data(start, end, steps, |v| v)?, layout))
    }
    /// `base^v` for each `v` of [`linspace_sized(start, end, steps)`](Self::linspace_sized),
    /// shape `[_]`: PyTorch `torch.logspace(start, end, steps, base)`, NumPy
    /// `np.logspace(start, end, steps, base=base)`.
    ///
    /// # Errors
    /// As [`try_linspace_sized`](Self::try_linspace_sized).
    #[try_twin]
    pub fn try_logspace_sized(start: T, end: T, steps: usize, base: T) -> Result<Self, ShapeError> {
        let layout = Layout::contiguous(&[steps])?;
        Ok(TensorBase::from_parts(lin_data(start, end, steps, |v| base.powf(v))?, layout))
    }
}

/// `iter.collect::<Tensor<T, Shape![_]>>()`: a 1-D tensor of the items in order (PyTorch
/// `torch.tensor(list(iter))`, NumPy `np.fromiter`; ndarray's `Array1: FromIterator`).
///
/// # Panics
/// When more than `isize::MAX` items arrive (a `Vec` cannot hold them anyway).
impl<T: Element> FromIterator<T> for Tensor<T, (Dyn,)> {
    #[doc(alias = "fromiter")]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let data: Vec<T> = iter.into_iter().collect();
        let layout = Layout::contiguous(&[data.len()]).or_panic();
        TensorBase::from_parts(data, layout)
    }
}
/// `iter.collect::<Tensor<T, DynShape>>()`: a rank-1 [`DynShape`] tensor of the items in order
/// (PyTorch `torch.tensor(list(iter))`, NumPy `np.fromiter`).
impl<T: Element> FromIterator<T> for Tensor<T, DynShape> {
    #[doc(alias = "fromiter")]
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        iter.into_iter().collect::<Tensor<T, (Dyn,)>>().into_dyn()
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// A new contiguous tensor of the same shape (and shape type) with every element `value`:
    /// PyTorch `torch.full_like(x, value)`, NumPy `np.full_like`. Owned on the heap, or inline
    /// when `self` is an inline [`STensor`](crate::STensor) (no allocation).
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when the buffer cannot be allocated.
    #[try_twin]
    pub fn try_full_like(&self, value: D::Elem) -> Result<OutTensor<D, D::Elem, S>, ShapeError> {
        let mut out = <Out<D, D::Elem, S> as OutData<D::Elem>>::zeroed(self.numel())?;
        out.as_mut_slice().fill(value);
        let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(self.sizes()))?;
        Ok(TensorBase::from_lay(out, lay))
    }
    /// Zeros of the same shape: PyTorch `torch.zeros_like(x)`, NumPy `np.zeros_like`. As
    /// [`full_like`](Self::full_like).
    ///
    /// # Panics
    /// When the buffer cannot be allocated.
    #[track_caller]
    pub fn zeros_like(&self) -> OutTensor<D, D::Elem, S> {
        self.full_like(D::Elem::ZERO)
    }
    /// Ones of the same shape: PyTorch `torch.ones_like(x)`, NumPy `np.ones_like`. As
    /// [`full_like`](Self::full_like).
    ///
    /// # Panics
    /// When the buffer cannot be allocated.
    #[track_caller]
    pub fn ones_like(&self) -> OutTensor<D, D::Elem, S> {
        self.full_like(D::Elem::ONE)
    }
}
