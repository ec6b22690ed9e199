//! Operations along one axis that keep the shape: `cumsum`, `cumprod`, `softmax`,
//! `log_softmax`, `sort`, `argsort`; and `dist`. The axis is a const parameter checked at compile time for tuple
//! shapes (`cumsum::<1>()`), or a runtime value (`cumsum_dyn(1)`); either way the result has the
//! input's shape type.
use crate::error::{OrPanic, ShapeError};
use crate::kernels::scan;
use crate::layout::normalize_axis;
use crate::layout::{Layout, LayoutRepr};
use crate::num::Num;
use crate::ops::reduce::Norm;
use crate::shape::{BroadcastShape, RemoveAxis, Shape};
use crate::storage::{Data, DataMut, Element, Out, OutData};
use crate::tensor::OutTensor;
use crate::tensor::TensorBase;
use num_traits::Float;

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// A new tensor of `self`'s shape (row-major, inline for an inline input) written by the
    /// per-line kernel `k` along `axis`.
    fn per_line<U: Element>(
        &self,
        axis: isize,
        k: impl FnOnce(&mut [U], &[D::Elem], &Layout, usize) -> Result<(), ShapeError>,
    ) -> Result<OutTensor<D, U, S>, ShapeError> {
        let axis = normalize_axis(axis, self.rank())?;
        let lay = LayoutRepr::try_from_layout::<S>(Layout::contiguous(self.sizes())?)?;
        let mut out = <Out<D, U, S>>::zeroed(self.numel())?;
        k(out.as_mut_slice(), self.data.as_slice(), self.layout(), axis)?;
        Ok(TensorBase::from_lay(out, lay))
    }

    fn cumsum_rt(&self, axis: isize) -> Result<OutTensor<D, <D::Elem as Num>::Sum, S>, ShapeError>
    where
        D::Elem: Num,
    {
        self.per_line(axis, scan::cumsum)
    }

    fn cumprod_rt(&self, axis: isize) -> Result<OutTensor<D, <D::Elem as Num>::Sum, S>, ShapeError>
    where
        D::Elem: Num,
    {
        self.per_line(axis, scan::cumprod)
    }

    fn softmax_rt(&self, axis: isize, log: bool) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        D::Elem: Float + Num<Sum = D::Elem>,
    {
        self.per_line(axis, |o, s, l, a| scan::softmax(o, s, l, a, log))
    }
}

macro_rules! along_axis {
    ($doc:literal, $torch:literal, $out:ty, [$($bound:tt)*], |$s:ident, $ax:ident| $run:expr,
     $m:ident $try_m:ident $dy:ident $try_dy:ident) => {
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            $($bound)*
        {
            #[doc = concat!($doc, " along axis `A` (PyTorch `", $torch, "(dim=A)`): same shape. The axis is checked at compile time for tuple shapes.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Axis`] for a [`DynShape`](crate::DynShape) tensor without axis `A`; an integer result past 64 bits; [`ShapeError::Alloc`]."]
            pub fn $try_m<const A: isize>(&self) -> Result<OutTensor<D, $out, S>, ShapeError>
            where
                S: RemoveAxis<A>,
            {
                let ($s, $ax) = (self, A);
                $run
            }
            #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
            #[track_caller]
            pub fn $m<const A: isize>(&self) -> OutTensor<D, $out, S>
            where
                S: RemoveAxis<A>,
            {
                self.$try_m::<A>().or_panic()
            }
            #[doc = concat!($doc, " along a runtime axis (negative counts from the end; PyTorch `", $torch, "(dim=axis)`): same shape.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Axis`]; an integer result past 64 bits; [`ShapeError::Alloc`]."]
            pub fn $try_dy(&self, axis: isize) -> Result<OutTensor<D, $out, S>, ShapeError> {
                let ($s, $ax) = (self, axis);
                $run
            }
            #[doc = concat!("[`", stringify!($try_dy), "`](Self::", stringify!($try_dy), "), panicking with the error's message.")]
            #[track_caller]
            pub fn $dy(&self, axis: isize) -> OutTensor<D, $out, S> {
                self.$try_dy(axis).or_panic()
            }
        }
    };
}

along_axis!("Cumulative sum (exact for integers, as `i64`/`u64`; Kahan-compensated for floats)", "cumsum",
    <D::Elem as Num>::Sum, [D::Elem: Num], |s, a| s.cumsum_rt(a), cumsum try_cumsum cumsum_dyn try_cumsum_dyn);
along_axis!("Cumulative product (checked for integers, as `i64`/`u64`)", "cumprod",
    <D::Elem as Num>::Sum, [D::Elem: Num], |s, a| s.cumprod_rt(a), cumprod try_cumprod cumprod_dyn try_cumprod_dyn);
along_axis!("Softmax `exp(x) / sum(exp(x))`, computed stably (shifted by the line's maximum)", "softmax",
    D::Elem, [D::Elem: Float + Num<Sum = D::Elem>], |s, a| s.softmax_rt(a, false), softmax try_softmax softmax_dyn try_softmax_dyn);
along_axis!("Log-softmax `x - logsumexp(x)`, computed stably", "log_softmax",
    D::Elem, [D::Elem: Float + Num<Sum = D::Elem>], |s, a| s.softmax_rt(a, true), log_softmax try_log_softmax log_softmax_dyn try_log_softmax_dyn);

/// Sorting along one axis.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    fn argsort_rt(&self, axis: isize, descending: bool) -> Result<OutTensor<D, i64, S>, ShapeError> {
        self.per_line(axis, |o, s, l, a| scan::argsort(o, s, l, a, descending))
    }
    #[allow(clippy::type_complexity)]
    fn sort_rt(
        &self,
        axis: isize,
        descending: bool,
    ) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError> {
        let idx = self.argsort_rt(axis, descending)?;
        let values = self.per_line(axis, |o, s, l, a| scan::take_lines(o, s, l, a, idx.data.as_slice()))?;
        Ok((values, idx))
    }

    /// The positions that sort each line along axis `A` (PyTorch `argsort(dim=A, descending,
    /// stable=True)`, NumPy `argsort(axis=A, kind='stable')`): same shape, `i64` positions within
    /// the line. Ascending, or descending with `descending`; stable either way (equal elements
    /// keep their order). NaN sorts above every number, as in PyTorch: last ascending, first
    /// descending. The axis is checked at compile time for tuple shapes.
    ///
    /// ```
    /// use shaped_core::{Shape, Tensor};
    /// let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[3.0, 1.0, 2.0], [f32::NAN, 0.0, -1.0]]);
    /// assert_eq!(x.argsort::<1>(false).to_vec(), [1, 2, 0, 2, 1, 0]);
    /// assert_eq!(x.argsort::<1>(true).to_vec(), [0, 2, 1, 0, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a [`DynShape`](crate::DynShape) tensor without axis `A`;
    /// [`ShapeError::Alloc`].
    pub fn try_argsort<const A: isize>(&self, descending: bool) -> Result<OutTensor<D, i64, S>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        self.argsort_rt(A, descending)
    }
    /// [`try_argsort`](Self::try_argsort), panicking with the error's message.
    #[track_caller]
    pub fn argsort<const A: isize>(&self, descending: bool) -> OutTensor<D, i64, S>
    where
        S: RemoveAxis<A>,
    {
        self.try_argsort::<A>(descending).or_panic()
    }
    /// [`try_argsort`](Self::try_argsort) along a runtime axis (negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    pub fn try_argsort_dyn(&self, axis: isize, descending: bool) -> Result<OutTensor<D, i64, S>, ShapeError> {
        self.argsort_rt(axis, descending)
    }
    /// [`try_argsort_dyn`](Self::try_argsort_dyn), panicking with the error's message.
    #[track_caller]
    pub fn argsort_dyn(&self, axis: isize, descending: bool) -> OutTensor<D, i64, S> {
        self.try_argsort_dyn(axis, descending).or_panic()
    }

    /// Each line along axis `A` sorted (PyTorch `sort(dim=A, descending, stable=True)`, NumPy
    /// `sort(axis=A, kind='stable')`): `(values, indices)`, both of `self`'s shape, `indices` the
    /// `i64` positions the values came from (as [`argsort`](Self::argsort)). Stable; NaN above
    /// every number (last ascending, first descending), as PyTorch.
    ///
    /// ```
    /// use shaped_core::{Shape, Tensor};
    /// let x: Tensor<i32, Shape![5]> = Tensor::from([3, 1, 3, 0, 2]);
    /// let (v, i) = x.sort::<0>(true);
    /// assert_eq!(v.to_vec(), [3, 3, 2, 1, 0]);
    /// assert_eq!(i.to_vec(), [0, 2, 4, 1, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a [`DynShape`](crate::DynShape) tensor without axis `A`;
    /// [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_sort<const A: isize>(
        &self,
        descending: bool,
    ) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError>
    where
        S: RemoveAxis<A>,
    {
        self.sort_rt(A, descending)
    }
    /// [`try_sort`](Self::try_sort), panicking with the error's message.
    #[track_caller]
    pub fn sort<const A: isize>(&self, descending: bool) -> (OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>)
    where
        S: RemoveAxis<A>,
    {
        self.try_sort::<A>(descending).or_panic()
    }
    /// [`try_sort`](Self::try_sort) along a runtime axis (negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_sort_dyn(
        &self,
        axis: isize,
        descending: bool,
    ) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError> {
        self.sort_rt(axis, descending)
    }
    /// [`try_sort_dyn`](Self::try_sort_dyn), panicking with the error's message.
    #[track_caller]
    pub fn sort_dyn(&self, axis: isize, descending: bool) -> (OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>) {
        self.try_sort_dyn(axis, descending).or_panic()
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float + Num,
{
    /// The norm `p` of `self - other` (broadcast), PyTorch `dist(input, other, p)`: a scalar.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast (static
    /// ones are a compile error); [`ShapeError::Alloc`].
    pub fn try_dist<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        other: &TensorBase<D2, S2>,
        p: Norm,
    ) -> Result<D::Elem, ShapeError>
    where
        S: BroadcastShape<S2>,
    {
        self.try_sub(other)?.try_norm(p)
    }
    /// [`try_dist`](Self::try_dist), panicking with the error's message.
    #[track_caller]
    pub fn dist<D2: Data<Elem = D::Elem>, S2: Shape>(&self, other: &TensorBase<D2, S2>, p: Norm) -> D::Elem
    where
        S: BroadcastShape<S2>,
    {
        self.try_dist(other, p).or_panic()
    }
}
