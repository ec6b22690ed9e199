//! Reductions: `sum` and `mean` over everything and along one axis. A static axis removes that
//! dim from the result type.
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{normalize_axis, Layout};
use crate::shape::{DynShape, RemoveAxis, Shape};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use core::ops::Add;
use num_traits::{Float, NumCast};

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Add<Output = D::Elem>,
{
    /// The sum of all elements (PyTorch `sum()`): any shape to a scalar; 0 for no elements.
    pub fn sum(&self) -> D::Elem {
        kernels::sum(self.data.as_slice(), &self.layout)
    }

    /// The mean of all elements (PyTorch `mean()`): NaN for no elements, as in PyTorch. Float
    /// element types only.
    pub fn mean(&self) -> D::Elem
    where
        D::Elem: Float,
    {
        self.sum() / <D::Elem as NumCast>::from(self.numel()).unwrap_or_else(D::Elem::infinity)
    }

    /// Sums along axis `A`, which is removed (PyTorch `sum(dim=A)`): `[2, 3]` with `<1>` gives
    /// `[2]`. The axis is checked at compile time for tuple shapes.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with no axis `A`.
    #[track_caller]
    pub fn sum_axis<const A: usize>(&self) -> Tensor<D::Elem, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        if A >= self.rank() {
            crate::error::fail(ShapeError::Axis { axis: A as isize, rank: self.rank() });
        }
        self.reduce_axis(A)
    }

    /// The mean along axis `A`, which is removed (PyTorch `mean(dim=A)`).
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with no axis `A`.
    #[track_caller]
    pub fn mean_axis<const A: usize>(&self) -> Tensor<D::Elem, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
        D::Elem: Float,
    {
        let n = self.sizes().get(A).copied().unwrap_or(0);
        let s = self.sum_axis::<A>();
        divide(s, n)
    }

    /// Sums along a runtime axis (negative counts from the end), which is removed: PyTorch
    /// `sum(dim=axis)` for data-driven code.
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn try_sum_axis_dyn(&self, axis: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        Ok(self.reduce_axis(normalize_axis(axis, self.rank())?))
    }
    /// [`try_sum_axis_dyn`](Self::try_sum_axis_dyn), panicking with the error's message.
    #[track_caller]
    pub fn sum_axis_dyn(&self, axis: isize) -> Tensor<D::Elem, DynShape> {
        self.try_sum_axis_dyn(axis).or_panic()
    }
    /// The mean along a runtime axis, which is removed (PyTorch `mean(dim=axis)`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn try_mean_axis_dyn(&self, axis: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError>
    where
        D::Elem: Float,
    {
        let a = normalize_axis(axis, self.rank())?;
        Ok(divide(self.reduce_axis(a), self.sizes()[a]))
    }
    /// [`try_mean_axis_dyn`](Self::try_mean_axis_dyn), panicking with the error's message.
    #[track_caller]
    pub fn mean_axis_dyn(&self, axis: isize) -> Tensor<D::Elem, DynShape>
    where
        D::Elem: Float,
    {
        self.try_mean_axis_dyn(axis).or_panic()
    }

    fn reduce_axis<S2: Shape>(&self, axis: usize) -> Tensor<D::Elem, S2> {
        let data = kernels::sum_axis(self.data.as_slice(), &self.layout, axis);
        let l = Layout::contiguous(self.layout.remove(axis).sizes()).expect("sizes of an existing tensor");
        TensorBase::from_parts(data, l)
    }
}

fn divide<T: Element + Float, S: Shape>(s: Tensor<T, S>, n: usize) -> Tensor<T, S> {
    let n = <T as NumCast>::from(n).unwrap_or_else(T::infinity);
    s.map(|v| v / n)
}
