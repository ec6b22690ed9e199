//! Reductions: `sum` and `mean` over everything, along one axis, or along several axes, with or
//! without `keepdim`. A static axis removes that dim from the result type, or (keepdim) makes it
//! the broadcastable [`One`], so `x - x.mean_keepdim::<1>()` type-checks for every size.
use crate::dim::One;
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::kernels::small;
use crate::layout::LayoutRepr;
use crate::layout::{normalize_axis, Layout};
use crate::shape::{DynShape, ReduceAxes, RemoveAxis, SetAxis, Shape};
use crate::storage::{Data, Element};
use crate::storage::{DataMut, OutData};
use crate::tensor::{OutTensor, TensorBase};
use core::ops::Add;
use num_traits::{Float, NumCast};

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Add<Output = D::Elem>,
{
    /// The sum of all elements (PyTorch `sum()`): any shape to a scalar; 0 for no elements.
    pub fn sum(&self) -> D::Elem {
        kernels::sum(self.data.as_slice(), self.layout())
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
    pub fn sum_axis<const A: isize>(&self) -> OutTensor<D, D::Elem, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.reduce_axis(self.ax(A).or_panic())
    }

    /// The mean along axis `A`, which is removed (PyTorch `mean(dim=A)`).
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with no axis `A`.
    #[track_caller]
    pub fn mean_axis<const A: isize>(&self) -> OutTensor<D, D::Elem, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
        D::Elem: Float,
    {
        let a = self.ax(A).or_panic();
        divide(self.reduce_axis(a), self.count(&[a]))
    }

    /// Sums along a runtime axis (negative counts from the end), which is removed: PyTorch
    /// `sum(dim=axis)` for data-driven code.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`] when the result cannot be allocated.
    pub fn try_sum_axis_dyn(&self, axis: isize) -> Result<OutTensor<D, D::Elem, DynShape>, ShapeError> {
        self.reduce_axes_rt(&[normalize_axis(axis, self.rank())?], false)
    }
    /// [`try_sum_axis_dyn`](Self::try_sum_axis_dyn), panicking with the error's message.
    #[track_caller]
    pub fn sum_axis_dyn(&self, axis: isize) -> OutTensor<D, D::Elem, DynShape> {
        self.try_sum_axis_dyn(axis).or_panic()
    }
    /// The mean along a runtime axis, which is removed (PyTorch `mean(dim=axis)`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn try_mean_axis_dyn(&self, axis: isize) -> Result<OutTensor<D, D::Elem, DynShape>, ShapeError>
    where
        D::Elem: Float,
    {
        let a = normalize_axis(axis, self.rank())?;
        Ok(divide(self.reduce_axes_rt(&[a], false)?, self.sizes()[a]))
    }
    /// [`try_mean_axis_dyn`](Self::try_mean_axis_dyn), panicking with the error's message.
    #[track_caller]
    pub fn mean_axis_dyn(&self, axis: isize) -> OutTensor<D, D::Elem, DynShape>
    where
        D::Elem: Float,
    {
        self.try_mean_axis_dyn(axis).or_panic()
    }

    /// Sums along axis `A`, kept as a size-1 dim (PyTorch `sum(dim=A, keepdim=True)`): `[2, 3]`
    /// with `<1>` gives `[2, 1]`, whose `1` is [`One`] and so broadcasts back against `[2, 3]`.
    /// The axis is checked at compile time for tuple shapes.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with no axis `A`.
    #[track_caller]
    pub fn sum_keepdim<const A: isize>(&self) -> OutTensor<D, D::Elem, <S as SetAxis<A, One>>::Out>
    where
        S: SetAxis<A, One>,
    {
        self.reduce_axes_rt(&[self.ax(A).or_panic()], true).or_panic()
    }

    /// The mean along axis `A`, kept as a size-1 dim (PyTorch `mean(dim=A, keepdim=True)`):
    /// `[2, 3]` with `<1>` gives `[2, 1]`. Float element types only.
    ///
    /// # Panics
    /// For a [`DynShape`] tensor with no axis `A`.
    #[track_caller]
    pub fn mean_keepdim<const A: isize>(&self) -> OutTensor<D, D::Elem, <S as SetAxis<A, One>>::Out>
    where
        S: SetAxis<A, One>,
        D::Elem: Float,
    {
        let n = self.count(&[self.ax(A).or_panic()]);
        divide(self.sum_keepdim::<A>(), n)
    }

    /// Sums over several axes, which are removed (PyTorch `sum(dim=(0, 2))`): `[2, 3, 4]` with
    /// `Axes![0, 2]` gives `[3]`. The axes are checked at compile time: they must exist, be
    /// distinct and be listed in increasing order.
    pub fn sum_axes<Ax: ReduceAxes<S>>(&self) -> OutTensor<D, D::Elem, Ax::Out> {
        self.reduce_axes_rt(Ax::AXES, false).or_panic()
    }

    /// Sums over several axes, each kept as a size-1 [`One`] dim (PyTorch
    /// `sum(dim=(0, 2), keepdim=True)`): `[2, 3, 4]` with `Axes![0, 2]` gives `[1, 3, 1]`.
    pub fn sum_axes_keepdim<Ax: ReduceAxes<S>>(&self) -> OutTensor<D, D::Elem, Ax::Keep> {
        self.reduce_axes_rt(Ax::AXES, true).or_panic()
    }

    /// The mean over several axes, which are removed (PyTorch `mean(dim=(0, 2))`): `[2, 3, 4]`
    /// with `Axes![0, 2]` gives `[3]`. Float element types only.
    pub fn mean_axes<Ax: ReduceAxes<S>>(&self) -> OutTensor<D, D::Elem, Ax::Out>
    where
        D::Elem: Float,
    {
        divide(self.sum_axes::<Ax>(), self.count(Ax::AXES))
    }

    /// The mean over several axes, each kept as a size-1 [`One`] dim (PyTorch
    /// `mean(dim=(0, 2), keepdim=True)`): `[2, 3, 4]` with `Axes![0, 2]` gives `[1, 3, 1]`.
    pub fn mean_axes_keepdim<Ax: ReduceAxes<S>>(&self) -> OutTensor<D, D::Elem, Ax::Keep>
    where
        D::Elem: Float,
    {
        divide(self.sum_axes_keepdim::<Ax>(), self.count(Ax::AXES))
    }

    /// The number of elements that each output of a reduction over `axes` sums.
    fn count(&self, axes: &[usize]) -> usize {
        axes.iter().map(|&a| self.sizes().get(a).copied().unwrap_or(0)).product()
    }

    /// Sums over increasing `axes`; `keep` leaves size-1 dims. A heap result is reduced one axis
    /// at a time from the last (with the kernels' slice fast paths); an inline result in one
    /// allocation-free pass, with the output offsets computed from the static shape when the input
    /// is inline too.
    fn reduce_axes_rt<S2: Shape>(&self, axes: &[usize], keep: bool) -> Result<OutTensor<D, D::Elem, S2>, ShapeError> {
        type O<D, S2> = crate::storage::Out<D, <D as Data>::Elem, S2>;
        let rank = self.rank();
        if let Some(&a) = axes.iter().find(|&&a| a >= rank) {
            return Err(ShapeError::Axis { axis: a as isize, rank });
        }
        if <O<D, S2> as Data>::INLINE {
            let mask = small::axes_mask(axes);
            let mut out = O::<D, S2>::zeroed(const { small::numel::<S2>() })?;
            if const { D::INLINE && small::is_static::<S>() } {
                small::sum_into::<S, _>(out.as_mut_slice(), self.data.as_slice(), &small::reduce_strides::<S>(mask));
            } else {
                kernels::sum_axes_into(out.as_mut_slice(), self.data.as_slice(), self.layout(), &mask);
            }
            let lay = LayoutRepr::row_major::<S2>(|| Ok(S2::ROW_MAJOR))?;
            return Ok(TensorBase::from_lay(out, lay));
        }
        let mut data: Option<alloc::vec::Vec<D::Elem>> = None;
        let mut layout = *self.layout();
        for &a in axes.iter().rev() {
            let src = data.as_deref().unwrap_or(self.data.as_slice());
            let out = kernels::sum_axis(src, &layout, a)?;
            layout = Layout::contiguous(layout.remove(a).sizes())?;
            data = Some(out);
        }
        let data = match data {
            Some(d) => d,
            None => self.try_to_vec()?,
        };
        if keep {
            let mut sizes = [1usize; crate::shape::MAX_RANK];
            let mut kept = layout.sizes().iter();
            for (i, s) in sizes.iter_mut().enumerate().take(rank) {
                if !axes.contains(&i) {
                    *s = *kept.next().expect("one kept size per kept axis");
                }
            }
            layout = Layout::contiguous(&sizes[..rank])?;
        }
        let lay = LayoutRepr::try_from_layout::<S2>(layout)?;
        Ok(TensorBase::from_lay(O::<D, S2>::from_vec(data), lay))
    }

    /// Sums along one axis that the caller has checked, panicking only when the result cannot be
    /// allocated.
    #[track_caller]
    fn reduce_axis<S2: Shape>(&self, axis: usize) -> OutTensor<D, D::Elem, S2> {
        self.reduce_axes_rt(&[axis], false).or_panic()
    }
}

/// Divides every element of a fresh reduction result by the count `n`, in place.
fn divide<O: OutData<T>, T: Element + Float, S: Shape>(mut s: TensorBase<O, S>, n: usize) -> TensorBase<O, S> {
    let n = <T as NumCast>::from(n).unwrap_or_else(T::infinity);
    for v in s.data.as_mut_slice() {
        *v = *v / n;
    }
    s
}
