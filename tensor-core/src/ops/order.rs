//! Sorting and order statistics along one axis: `sort`/`argsort` (the shape kept), `topk`
//! (`k` along the axis, with its post-monomorphisation check), `kthvalue`, `median`,
//! `nanmedian`, `quantile`, `nanquantile` (the axis removed, or kept as a size-1 dim by the
//! `_keepdim` forms). The axis is an argument: `Ax::<N>` or a dim name (static result types) or an
//! `isize` (`Dyn` dims); the `_dyn` forms give [`DynShape`] results.
//! The per-line kernels are in `kernels/scan.rs`; the lines come from `scan.rs`'s `lines_last`.
use crate::dim::{Const, Dyn};
use crate::error::ConstMsg;
use crate::error::{OrPanic, ShapeError};
use crate::kernels::{self, scan};
use crate::layout::normalize_axis;
use crate::layout::Layout;
use crate::num::Num;
use crate::ops::reduce::Norm;
use crate::shape::{BroadcastShape, Shape};
use crate::shape::{DropAxis, DynShape, HasAxis, KeepAxis, ReplaceAxis};
use crate::storage::{Data, Element};
use crate::tensor::literal::static_dim;
use crate::tensor::OutTensor;
use crate::tensor::{Tensor, TensorBase};
use num_traits::Float;
use shaped_macros::try_twin;

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

    /// The positions that sort each line along `axis` (PyTorch `argsort(dim=axis, descending,
    /// stable=True)`, NumPy `argsort(axis=axis, kind='stable')`): same shape, `i64` positions within
    /// the line. Ascending, or descending with `descending`; stable either way (equal elements
    /// keep their order). NaN sorts above every number, as in PyTorch: last ascending, first
    /// descending. The axis is checked at compile time for tuple shapes.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[3.0, 1.0, 2.0], [f32::NAN, 0.0, -1.0]]);
    /// assert_eq!(x.argsort(Ax::<1>, false).to_vec(), [1, 2, 0, 2, 1, 0]);
    /// assert_eq!(x.argsort(Ax::<1>, true).to_vec(), [0, 2, 1, 0, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis;
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_argsort<X, M>(&self, axis: X, descending: bool) -> Result<OutTensor<D, i64, S>, ShapeError>
    where
        S: HasAxis<X, M>,
    {
        self.argsort_rt(<S as HasAxis<X, M>>::axis_index(&axis), descending)
    }
    /// [`try_argsort`](Self::try_argsort) along a runtime axis (negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_argsort_dyn(&self, axis: isize, descending: bool) -> Result<OutTensor<D, i64, S>, ShapeError> {
        self.argsort_rt(axis, descending)
    }

    /// Each line along `axis` sorted (PyTorch `sort(dim=axis, descending, stable=True)`, NumPy
    /// `sort(axis=axis, kind='stable')`): `(values, indices)`, both of `self`'s shape, `indices` the
    /// `i64` positions the values came from (as [`argsort`](Self::argsort)). Stable; NaN above
    /// every number (last ascending, first descending), as PyTorch.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![5]> = Tensor::from([3, 1, 3, 0, 2]);
    /// let (v, i) = x.sort(Ax::<0>, true);
    /// assert_eq!(v.to_vec(), [3, 3, 2, 1, 0]);
    /// assert_eq!(i.to_vec(), [0, 2, 4, 1, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis;
    /// [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_sort<X, M>(
        &self,
        axis: X,
        descending: bool,
    ) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError>
    where
        S: HasAxis<X, M>,
    {
        self.sort_rt(<S as HasAxis<X, M>>::axis_index(&axis), descending)
    }
    /// [`try_sort`](Self::try_sort) along a runtime axis (negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_sort_dyn(
        &self,
        axis: isize,
        descending: bool,
    ) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError> {
        self.sort_rt(axis, descending)
    }
}

/// The build-time check of `topk::<K>(axis)`: `K` no larger than a static dim at `axis`.
struct TopkCheck<S, X, M, const K: usize>(core::marker::PhantomData<(S, X, M)>);
impl<S: ReplaceAxis<X, M, Const<K>>, X, M, const K: usize> TopkCheck<S, X, M, K> {
    const FITS: () = if let Some(a) = <S as ReplaceAxis<X, M, Const<K>>>::AT {
        if let Some((axis, n)) = static_dim::<S>(a) {
            if K > n {
                let m = ConstMsg::new().str("topk: k = ").num(K).str(" is larger than dimension ").num(axis);
                m.str(" of size ").num(n).fail()
            }
        }
    };
}

/// The `k` largest (or smallest) elements along an axis.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The first `k` of each line of the sort along `axis` (descending for `largest`), as
    /// tensors of shape `S2`, which the caller gives with `k` at `axis`.
    fn topk_rt<S2: Shape>(&self, k: usize, axis: isize, largest: bool) -> Result<Pair<D::Elem, S2>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        if k > n {
            return Err(ShapeError::Range { start: 0, end: k as i128, axis: ax, size: n });
        }
        // The lines as contiguous rows (the axis moved last: a view, copied only when the rows
        // are not contiguous), `k` results per row written at the final size, then the axis
        // moved back.
        let r = self.rank();
        let rows = self.lines_last(ax)?;
        let count = rows.len().checked_div(n).unwrap_or(0) * k;
        let (mut values, mut idx) = (kernels::try_with_capacity(count)?, kernels::try_with_capacity(count)?);
        scan::topk_rows(&rows, n, k, largest, &mut values, &mut idx)?;
        let mut sizes = self.sizes().to_vec();
        sizes[ax] = k;
        if ax + 1 == r || count == 0 {
            return Ok((Tensor::try_from_vec(&sizes, values)?, Tensor::try_from_vec(&sizes, idx)?));
        }
        let mut msizes = sizes.clone();
        msizes.remove(ax);
        msizes.push(k);
        let back = Layout::contiguous(&msizes)?.movedim(r - 1, ax)?;
        let values = kernels::to_vec(&values, &back)?;
        let idx = kernels::to_vec(&idx, &back)?;
        Ok((Tensor::try_from_vec(&sizes, values)?, Tensor::try_from_vec(&sizes, idx)?))
    }

    /// The `K` largest elements along `axis` (the `K` smallest when `largest` is false),
    /// sorted, with their `i64` positions: PyTorch `topk(K, dim=axis, largest, sorted=True)`.
    /// `self`'s shape with `Const<K>` at `axis`, so `[B, N]` gives `[B, K]`. Equal elements come
    /// in the order of their positions; NaN counts as larger than every number (PyTorch). `K`
    /// larger than a static dim `axis` is an error when the program is built, naming `K`, the dim
    /// and its size; against a `Dyn` dim it is checked at run time.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Const, Ax, Shape, Tensor};
    /// let x: Tensor<f32, Shape![2, 4]> = Tensor::from([[1.0, 9.0, 3.0, 7.0], [0.0, -1.0, 5.0, 5.0]]);
    /// let (v, i): (Tensor<f32, Shape![2, 2]>, _) = x.topk(Const::<2>, Ax::<1>, true);
    /// assert_eq!(v.to_vec(), [9.0, 7.0, 5.0, 5.0]);
    /// assert_eq!(i.to_vec(), [1, 3, 2, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Range`] when `K` is larger than a `Dyn` dim `axis`; [`ShapeError::Axis`] for a
    /// runtime axis, or a [`DynShape`] tensor, whose rank has no such axis; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    pub fn try_topk<const K: usize, X, M, Y: Shape>(
        &self,
        k: Const<K>,
        axis: X,
        largest: bool,
    ) -> Result<(Tensor<D::Elem, Y>, Tensor<i64, Y>), ShapeError>
    where
        S: ReplaceAxis<X, M, Const<K>, Out = Y>,
    {
        let () = TopkCheck::<S, X, M, K>::FITS;
        let _ = k;
        self.topk_rt(K, <S as ReplaceAxis<X, M, Const<K>>>::axis_index(&axis), largest)
    }
    /// [`try_topk`](Self::try_topk), panicking with the error's message.
    #[track_caller]
    #[allow(clippy::type_complexity)]
    pub fn topk<const K: usize, X, M, Y: Shape>(
        &self,
        k: Const<K>,
        axis: X,
        largest: bool,
    ) -> (Tensor<D::Elem, Y>, Tensor<i64, Y>)
    where
        S: ReplaceAxis<X, M, Const<K>, Out = Y>,
    {
        // Checked here rather than through `try_topk`, so that a failure names the user's call.
        let () = TopkCheck::<S, X, M, K>::FITS;
        let _ = k;
        let _ = k;
        self.topk_rt(K, <S as ReplaceAxis<X, M, Const<K>>>::axis_index(&axis), largest).or_panic()
    }
    /// [`try_topk`](Self::try_topk) with a runtime `k`: `Dyn` at `axis`.
    ///
    /// # Errors
    /// [`ShapeError::Range`] when `k` is larger than dim `axis`; [`ShapeError::Axis`];
    /// [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_topk_axis<X, M, Y: Shape>(
        &self,
        k: usize,
        axis: X,
        largest: bool,
    ) -> Result<(Tensor<D::Elem, Y>, Tensor<i64, Y>), ShapeError>
    where
        S: ReplaceAxis<X, M, Dyn, Out = Y>,
    {
        self.topk_rt(k, <S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis), largest)
    }
    /// [`try_topk`](Self::try_topk) with a runtime `k` and axis (negative counts from the end):
    /// [`DynShape`] results.
    ///
    /// # Errors
    /// [`ShapeError::Range`] when `k` is larger than the dim; [`ShapeError::Axis`];
    /// [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_topk_dyn(
        &self,
        k: usize,
        axis: isize,
        largest: bool,
    ) -> Result<(Tensor<D::Elem, DynShape>, Tensor<i64, DynShape>), ShapeError> {
        self.topk_rt(k, axis, largest)
    }
}

/// Order statistics along an axis: `kthvalue`, `median`.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The element at sorted position `pick(line)` of each line along `axis` (ascending, stable)
    /// and its `i64` position, as tensors of shape `S2` (the shape without `axis`). An empty
    /// dim `axis` has nothing to pick: [`ShapeError::Index`] of position 0.
    fn order_stat<S2: Shape>(
        &self,
        axis: isize,
        pick: impl Fn(&[D::Elem]) -> usize,
    ) -> Result<Pair<D::Elem, S2>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        if n == 0 {
            return Err(ShapeError::Index { index: 0, axis: ax, size: 0 });
        }
        let (values, idx) = self.sort_rt(axis, false)?;
        let mut sizes = self.sizes().to_vec();
        sizes.remove(ax);
        let (mut v, mut i) = (alloc::vec::Vec::new(), alloc::vec::Vec::new());
        // Each sorted line moved to the last axis, so that lines are contiguous runs.
        let (lines, idx) = (values.lines_last(ax)?, idx.lines_last(ax)?);
        for (line, pos) in lines.chunks_exact(n).zip(idx.chunks_exact(n)) {
            let p = pick(line);
            v.push(line[p]);
            i.push(pos[p]);
        }
        Ok((Tensor::try_from_vec(&sizes, v)?, Tensor::try_from_vec(&sizes, i)?))
    }

    /// The `k`-th smallest element (`k` from 1, as PyTorch) of each line along `axis` and its
    /// `i64` position: PyTorch `kthvalue(k, dim=axis)`. The shape without `axis`. Among equal elements
    /// the one earliest in the line; NaN counts as larger than every number.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[5, 1, 3], [2, 2, 0]]);
    /// let (v, i): (Tensor<i32, Shape![2]>, _) = x.kthvalue(2, Ax::<1>);
    /// assert_eq!((v.to_vec(), i.to_vec()), (vec![3, 2], vec![2, 0]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Index`] naming `k` when it is 0 or larger than dim `axis`;
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis;
    /// [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_kthvalue<X, M, Y: Shape>(
        &self,
        k: usize,
        axis: X,
    ) -> Result<(Tensor<D::Elem, Y>, Tensor<i64, Y>), ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.try_kthvalue_dyn_as(k, <S as DropAxis<X, M>>::axis_index(&axis))
    }
    /// [`try_kthvalue`](Self::try_kthvalue) along a runtime axis: [`DynShape`]
    /// results.
    ///
    /// # Errors
    /// As [`try_kthvalue`](Self::try_kthvalue), with [`ShapeError::Axis`] for an axis past the
    /// rank.
    #[allow(clippy::type_complexity)]
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_kthvalue_dyn(
        &self,
        k: usize,
        axis: isize,
    ) -> Result<(Tensor<D::Elem, DynShape>, Tensor<i64, DynShape>), ShapeError> {
        self.try_kthvalue_dyn_as(k, axis)
    }
    fn try_kthvalue_dyn_as<S2: Shape>(&self, k: usize, axis: isize) -> Result<Pair<D::Elem, S2>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        if k == 0 || k > n {
            return Err(ShapeError::Index { index: k as i128, axis: ax, size: n });
        }
        self.order_stat(axis, |_| k - 1)
    }

    /// The lower median of each line along `axis` (for `n` elements, the one at sorted
    /// position `(n - 1) / 2`) and its `i64` position: PyTorch `median(dim=axis)`. The shape without
    /// `axis`. A line with a NaN has median NaN, at the position of its first NaN (PyTorch).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<f32, Shape![2, 4]> = Tensor::from([[4.0, 1.0, 3.0, 2.0], [0.0, f32::NAN, 1.0, 2.0]]);
    /// let (v, i) = x.median_axis(Ax::<1>);
    /// assert_eq!((v.to_vec()[0], i.to_vec()), (2.0, vec![3, 1]));
    /// assert!(v.to_vec()[1].is_nan());
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Index`] for an empty dim `axis` (no median); [`ShapeError::Axis`] for a
    /// runtime axis, or a [`DynShape`] tensor, whose rank has no such axis; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_median_axis<X, M, Y: Shape>(&self, axis: X) -> Result<(Tensor<D::Elem, Y>, Tensor<i64, Y>), ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.median_as(<S as DropAxis<X, M>>::axis_index(&axis), false)
    }
    /// [`try_median_axis`](Self::try_median_axis) along a runtime axis:
    /// [`DynShape`] results.
    ///
    /// # Errors
    /// As [`try_median_axis`](Self::try_median_axis), with [`ShapeError::Axis`] for an axis
    /// past the rank.
    #[allow(clippy::type_complexity)]
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_median_axis_dyn(
        &self,
        axis: isize,
    ) -> Result<(Tensor<D::Elem, DynShape>, Tensor<i64, DynShape>), ShapeError> {
        self.median_as(axis, false)
    }
    /// The lower median of all elements (PyTorch `median()` without `dim`): NaN if any element
    /// is NaN.
    ///
    /// # Errors
    /// [`ShapeError::Index`] for an empty tensor; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_median(&self) -> Result<D::Elem, ShapeError> {
        Ok(self.flat()?.median_as::<DynShape>(0, false)?.0.to_vec()[0])
    }
    /// The lower median of each line along `axis` and its position: with `skip_nan`, of the
    /// numbers (a line of NaNs gives its first NaN), otherwise of all elements (NaN, at its first
    /// position, for a line with a NaN).
    #[allow(clippy::eq_op)] // `x != x`: NaN, for every element type
    fn median_as<S2: Shape>(&self, axis: isize, skip_nan: bool) -> Result<Pair<D::Elem, S2>, ShapeError> {
        self.order_stat(axis, |line| {
            // NaNs sort last: the numbers come first.
            let numbers = line.len() - line.iter().rev().take_while(|&&x| x != x).count();
            if numbers == 0 || (numbers < line.len() && !skip_nan) {
                numbers
            } else {
                (numbers - 1) / 2
            }
        })
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The lower median of the non-NaN elements of each line along `axis` and its `i64`
    /// position (PyTorch `nanmedian(dim=axis)`): the shape without `axis`. A line of NaNs only gives
    /// NaN (at the position of its first NaN). For integers, [`median_axis`](Self::median_axis).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<f32, Shape![2, 4]> = Tensor::from([[3.0, f32::NAN, 1.0, 2.0], [f32::NAN; 4]]);
    /// let (v, i) = x.nanmedian_axis(Ax::<1>);
    /// assert_eq!((v.to_vec()[0], i.to_vec()[0]), (2.0, 3));
    /// assert!(v.to_vec()[1].is_nan());
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Index`] for an empty line; [`ShapeError::Axis`] for a [`DynShape`] tensor
    /// whose rank has no such axis; [`ShapeError::Alloc`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_nanmedian_axis<X, M, Y: Shape>(
        &self,
        axis: X,
    ) -> Result<(Tensor<D::Elem, Y>, Tensor<i64, Y>), ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.median_as(<S as DropAxis<X, M>>::axis_index(&axis), true)
    }
    /// [`try_nanmedian_axis`](Self::try_nanmedian_axis) along a runtime axis: [`DynShape`]
    /// results.
    ///
    /// # Errors
    /// As [`try_nanmedian_axis`](Self::try_nanmedian_axis).
    #[allow(clippy::type_complexity)]
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_nanmedian_axis_dyn(
        &self,
        axis: isize,
    ) -> Result<(Tensor<D::Elem, DynShape>, Tensor<i64, DynShape>), ShapeError> {
        self.median_as(axis, true)
    }
    /// The lower median of the non-NaN elements (PyTorch `nanmedian()` without `dim`): NaN when
    /// every element is NaN.
    ///
    /// # Errors
    /// [`ShapeError::Index`] for an empty tensor; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_nanmedian(&self) -> Result<D::Elem, ShapeError> {
        Ok(self.flat()?.median_as::<DynShape>(0, true)?.0.to_vec()[0])
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float + Num,
{
    /// The `q`-quantile of each line along `axis` by linear interpolation between the sorted
    /// elements at `floor` and `ceil` of `q * (n - 1)` (NumPy's and PyTorch's `'linear'`), as a
    /// tensor of shape `S2`; with `skip_nan`, over the non-NaN elements (`nanquantile`, NaN for
    /// a line of NaNs), otherwise NaN for a line with a NaN.
    fn quantile_as<S2: Shape>(
        &self,
        q: D::Elem,
        axis: isize,
        skip_nan: bool,
    ) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        if !(q >= <D::Elem as Element>::ZERO && q <= <D::Elem as Element>::ONE) {
            return Err(ShapeError::Invalid(alloc::format!("quantile: q = {q:?} is outside [0, 1]")));
        }
        if n == 0 {
            return Err(ShapeError::Index { index: 0, axis: ax, size: 0 });
        }
        let (values, _) = self.sort_rt(axis, false)?;
        let lines = values.lines_last(ax)?;
        let mut sizes = self.sizes().to_vec();
        sizes.remove(ax);
        let mut out = crate::kernels::try_with_capacity(lines.len() / n)?;
        for line in lines.chunks_exact(n) {
            let numbers = n - line.iter().rev().take_while(|x| x.is_nan()).count();
            if numbers == 0 || (numbers < n && !skip_nan) {
                out.push(D::Elem::nan());
                continue;
            }
            let line = &line[..numbers];
            // PyTorch's `quantile`: `lerp` between the elements at `floor(pos)` and `ceil(pos)`
            // (the same element when `pos` is whole, so that `[-inf, 1, inf]` at 0.5 is 1 and not
            // `1 + 0 * inf`), with `pos - floor(pos)` as the weight.
            let pos = q * <D::Elem as num_traits::NumCast>::from(numbers - 1).unwrap_or_else(D::Elem::nan);
            let index = |x: D::Elem| <usize as num_traits::NumCast>::from(x).unwrap_or(0).min(numbers - 1);
            let lo = pos.floor();
            let (a, b) = (line[index(lo)], line[index(pos.ceil())]);
            out.push(crate::num::lerp(a, b, pos - lo));
        }
        Tensor::try_from_vec(&sizes, out)
    }

    /// The `q`-quantile (`0 <= q <= 1`) of each line along `axis`, interpolating linearly
    /// between the two nearest sorted elements (PyTorch `quantile(q, dim=axis)`, NumPy
    /// `np.quantile(x, q, axis=axis)`, both `'linear'`): the shape without `axis`. NaN for a line
    /// holding a NaN; `q = 0.5` is the mean of the two middle elements where
    /// [`median_axis`](Self::median_axis) takes the lower.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<f64, Shape![2, 4]> = Tensor::from([[4.0, 1.0, 3.0, 2.0], [0.0, 10.0, 20.0, 30.0]]);
    /// let q: Tensor<f64, Shape![2]> = x.quantile(0.25, Ax::<1>);
    /// assert_eq!(q.to_vec(), [1.75, 7.5]);
    /// ```
    /// # extern crate shaped_core as shaped;
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for `q` outside `[0, 1]` (or NaN); [`ShapeError::Index`] for an
    /// empty line; [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis;
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_quantile<X, M, Y: Shape>(&self, q: D::Elem, axis: X) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.quantile_as(q, <S as DropAxis<X, M>>::axis_index(&axis), false)
    }
    /// [`try_quantile`](Self::try_quantile) along a runtime axis: a [`DynShape`] result.
    ///
    /// # Errors
    /// As [`try_quantile`](Self::try_quantile).
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_quantile_dyn(&self, q: D::Elem, axis: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.quantile_as(q, axis, false)
    }
    /// The `q`-quantile of all elements (PyTorch `quantile(q)` without `dim`): a scalar, NaN if
    /// any element is NaN.
    ///
    /// # Errors
    /// As [`try_quantile`](Self::try_quantile), for the flattened tensor.
    #[try_twin]
    pub fn try_quantile_all(&self, q: D::Elem) -> Result<D::Elem, ShapeError> {
        Ok(self.flat()?.quantile_as::<DynShape>(q, 0, false)?.to_vec()[0])
    }
    /// [`try_quantile`](Self::try_quantile) over the non-NaN elements of each line (PyTorch
    /// `nanquantile(q, dim=axis)`, NumPy `np.nanquantile`): NaN only for a line of NaNs.
    ///
    /// # Errors
    /// As [`try_quantile`](Self::try_quantile).
    #[try_twin]
    pub fn try_nanquantile<X, M, Y: Shape>(&self, q: D::Elem, axis: X) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.quantile_as(q, <S as DropAxis<X, M>>::axis_index(&axis), true)
    }
    /// [`try_nanquantile`](Self::try_nanquantile) along a runtime axis: a [`DynShape`] result.
    ///
    /// # Errors
    /// As [`try_quantile`](Self::try_quantile).
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_nanquantile_dyn(&self, q: D::Elem, axis: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.quantile_as(q, axis, true)
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
    #[try_twin]
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
}

/// A result along the runtime `axis` (already checked: the result exists) given back with that
/// axis, which it lacks, as a size-1 dim: `keepdim=True`. The same row-major buffer, one more dim
/// in the layout.
fn keep_axis<T: Element, S2: Shape>(t: Tensor<T, DynShape>, axis: isize) -> Result<Tensor<T, S2>, ShapeError> {
    let l = t.layout().unsqueeze(normalize_axis(axis, t.rank() + 1)?)?;
    S2::check_sizes(l.sizes())?;
    Ok(TensorBase::from_parts(t.data, l))
}

/// `(values, indices)` of an order statistic.
type Pair<T, S> = (Tensor<T, S>, Tensor<i64, S>);

/// [`keep_axis`] for both tensors of an order statistic.
fn keep_pair<T: Element, S2: Shape>((v, i): Pair<T, DynShape>, axis: isize) -> Result<Pair<T, S2>, ShapeError> {
    Ok((keep_axis(v, axis)?, keep_axis(i, axis)?))
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// All elements in row-major order, as a 1-D copy (the whole-tensor statistics).
    fn flat(&self) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        Tensor::try_from_vec(&[self.numel()], self.to_vec())
    }
}

/// The `keepdim=True` forms of the order statistics (`kthvalue`, `median`, `nanmedian`,
/// `quantile`, `nanquantile`): the axis argument (`One` at the axis in the type) and the `_dyn`
/// form.
macro_rules! order_keepdim {
    ($doc:literal, $torch:literal, $errors:literal, $ex:literal, $exdyn:literal, [$($bound:tt)*], $Out:ident,
     ($($p:ident: $pt:ty),*), |$s:ident, $ax:ident| $run:expr,
     $kd:ident $try_kd:ident $kdy:ident $try_kdy:ident) => {
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            $($bound)*
        {
            #[doc = concat!($doc, " along `axis`, kept as a size-1 [`One`](crate::One) dim (PyTorch `", $torch, "dim=axis, keepdim=True)`): `[2, 3]` with `Ax::<1>` gives `[2, 1]`, which broadcasts back against `[2, 3]`. The axis is an `Ax::<N>` or a dim name (checked at compile time for tuple shapes) or an `isize` (checked at run time; the result's dims are `Dyn`).")]
            #[doc = ""]
            #[doc = "```"]
            #[doc = "# extern crate shaped_core as shaped;"]
            #[doc = $ex]
            #[doc = "```"]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = concat!($errors, " [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis; [`ShapeError::Alloc`].")]
            #[allow(clippy::type_complexity)]
            pub fn $try_kd<X, M, Y: Shape>(&self, $($p: $pt,)* axis: X) -> Result<$Out<D::Elem, Y>, ShapeError>
            where
                S: KeepAxis<X, M, Kept = Y>,
            {
                let ($s, $ax) = (self, <S as KeepAxis<X, M>>::axis_index(&axis));
                $run
            }
            #[doc = concat!("[`", stringify!($try_kd), "`](Self::", stringify!($try_kd), "), panicking with the error's message.")]
            #[doc = ""]
            #[doc = "# Panics"]
            #[doc = concat!("As the errors of [`", stringify!($try_kd), "`](Self::", stringify!($try_kd), ").")]
            #[track_caller]
            #[allow(clippy::type_complexity)]
            pub fn $kd<X, M, Y: Shape>(&self, $($p: $pt,)* axis: X) -> $Out<D::Elem, Y>
            where
                S: KeepAxis<X, M, Kept = Y>,
            {
                self.$try_kd::<X, M, Y>($($p,)* axis).or_panic()
            }
            #[doc = concat!($doc, " along a runtime axis (negative counts from the end), kept as a size-1 dim (PyTorch `", $torch, "dim=axis, keepdim=True)`): a [`DynShape`] result, `[2, 3]` with axis `-1` gives `[2, 1]`.")]
            #[doc = ""]
            #[doc = "```"]
            #[doc = "# extern crate shaped_core as shaped;"]
            #[doc = $exdyn]
            #[doc = "```"]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = concat!($errors, " [`ShapeError::Axis`] naming the axis and the rank for an axis outside `-rank..rank`; [`ShapeError::Alloc`].")]
            #[allow(clippy::type_complexity)]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $try_kdy(&self, $($p: $pt,)* axis: isize) -> Result<$Out<D::Elem, DynShape>, ShapeError> {
                let ($s, $ax) = (self, axis);
                $run
            }
            #[doc = concat!("[`", stringify!($try_kdy), "`](Self::", stringify!($try_kdy), "), panicking with the error's message.")]
            #[doc = ""]
            #[doc = "# Panics"]
            #[doc = concat!("As the errors of [`", stringify!($try_kdy), "`](Self::", stringify!($try_kdy), ").")]
            #[track_caller]
            #[allow(clippy::type_complexity)]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $kdy(&self, $($p: $pt,)* axis: isize) -> $Out<D::Elem, DynShape> {
                self.$try_kdy($($p,)* axis).or_panic()
            }
        }
    };
}

/// A tensor of shape `S` (the single-result form of [`order_keepdim!`]).
type One1<T, S> = Tensor<T, S>;

order_keepdim!("The `k`-th smallest element (`k` from 1) of each line and its `i64` position, as [`kthvalue`](Self::kthvalue),",
    "kthvalue(k, ",
    "[`ShapeError::Index`] naming `k` when it is 0 or larger than the dim;",
    "use shaped::{Ax, Shape, Tensor};\nlet x: Tensor<i32, Shape![2, 3]> = Tensor::from([[5, 1, 3], [2, 2, 0]]);\nlet (v, i): (Tensor<i32, Shape![2, 1]>, _) = x.kthvalue_keepdim(2, Ax::<1>);\nassert_eq!((v.to_vec(), i.to_vec()), (vec![3, 2], vec![2, 0]));",
    "use shaped::{DynShape, Tensor};\nlet x: Tensor<i32, DynShape> = Tensor::from([[5, 1, 3], [2, 2, 0]]).into_dyn();\nlet (v, i) = x.kthvalue_keepdim(2, -1);\nassert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&[2, 1][..], vec![3, 2], vec![2, 0]));",
    [D::Elem: Num], Pair, (k: usize), |s, a| keep_pair(s.as_dyn().try_kthvalue(k, a)?, a),
    kthvalue_keepdim try_kthvalue_keepdim kthvalue_keepdim_dyn try_kthvalue_keepdim_dyn);
order_keepdim!("The lower median of each line and its `i64` position, as [`median_axis`](Self::median_axis),",
    "median(",
    "[`ShapeError::Index`] for an empty dim (no median);",
    "use shaped::{Ax, Shape, Tensor};\nlet x: Tensor<f32, Shape![2, 4]> = Tensor::from([[4.0, 1.0, 3.0, 2.0], [0.0, 5.0, 1.0, 2.0]]);\nlet (v, i): (Tensor<f32, Shape![2, 1]>, _) = x.median_keepdim(Ax::<1>);\nassert_eq!((v.to_vec(), i.to_vec()), (vec![2.0, 1.0], vec![3, 2]));",
    "use shaped::{DynShape, Tensor};\nlet x: Tensor<f32, DynShape> = Tensor::from([[4.0, 1.0], [3.0, 2.0]]).into_dyn();\nlet (v, i) = x.median_keepdim(0);\nassert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&[1, 2][..], vec![3.0, 1.0], vec![1, 0]));",
    [D::Elem: Num], Pair, (), |s, a| keep_pair(s.as_dyn().try_median_axis(a)?, a),
    median_keepdim try_median_keepdim median_keepdim_dyn try_median_keepdim_dyn);
order_keepdim!("The lower median of the non-NaN elements of each line and its `i64` position, as [`nanmedian_axis`](Self::nanmedian_axis),",
    "nanmedian(",
    "[`ShapeError::Index`] for an empty dim;",
    "use shaped::{Ax, Shape, Tensor};\nlet x: Tensor<f32, Shape![1, 4]> = Tensor::from([[3.0, f32::NAN, 1.0, 2.0]]);\nlet (v, i): (Tensor<f32, Shape![1, 1]>, _) = x.nanmedian_keepdim(Ax::<1>);\nassert_eq!((v.to_vec(), i.to_vec()), (vec![2.0], vec![3]));",
    "use shaped::{DynShape, Tensor};\nlet x: Tensor<f32, DynShape> = Tensor::from([[3.0, f32::NAN, 1.0, 2.0]]).into_dyn();\nlet (v, i) = x.nanmedian_keepdim(1);\nassert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&[1, 1][..], vec![2.0], vec![3]));",
    [D::Elem: Num], Pair, (), |s, a| keep_pair(s.as_dyn().try_nanmedian_axis(a)?, a),
    nanmedian_keepdim try_nanmedian_keepdim nanmedian_keepdim_dyn try_nanmedian_keepdim_dyn);
order_keepdim!("The `q`-quantile (`'linear'` interpolation) of each line, as [`quantile`](Self::quantile),",
    "quantile(q, ",
    "[`ShapeError::Invalid`] for `q` outside `[0, 1]` (or NaN); [`ShapeError::Index`] for an empty dim;",
    "use shaped::{Ax, Shape, Tensor};\nlet x: Tensor<f64, Shape![2, 4]> = Tensor::from([[4.0, 1.0, 3.0, 2.0], [0.0, 10.0, 20.0, 30.0]]);\nlet q: Tensor<f64, Shape![2, 1]> = x.quantile_keepdim(0.25, Ax::<1>);\nassert_eq!(q.to_vec(), [1.75, 7.5]);",
    "use shaped::{DynShape, Tensor};\nlet x: Tensor<f64, DynShape> = Tensor::from([[4.0, 1.0, 3.0, 2.0]]).into_dyn();\nlet q = x.quantile_keepdim(0.5, -1);\nassert_eq!((q.sizes(), q.to_vec()), (&[1, 1][..], vec![2.5]));",
    [D::Elem: Float + Num], One1, (q: D::Elem), |s, a| keep_axis(s.as_dyn().try_quantile(q, a)?, a),
    quantile_keepdim try_quantile_keepdim quantile_keepdim_dyn try_quantile_keepdim_dyn);
order_keepdim!("The `q`-quantile of the non-NaN elements of each line, as [`nanquantile`](Self::nanquantile),",
    "nanquantile(q, ",
    "[`ShapeError::Invalid`] for `q` outside `[0, 1]` (or NaN); [`ShapeError::Index`] for an empty dim;",
    "use shaped::{Ax, Shape, Tensor};\nlet x: Tensor<f64, Shape![1, 3]> = Tensor::from([[1.0, f64::NAN, 3.0]]);\nlet q: Tensor<f64, Shape![1, 1]> = x.nanquantile_keepdim(0.5, Ax::<1>);\nassert_eq!(q.to_vec(), [2.0]);",
    "use shaped::{DynShape, Tensor};\nlet x: Tensor<f64, DynShape> = Tensor::from([[1.0, f64::NAN, 3.0]]).into_dyn();\nlet q = x.nanquantile_keepdim(0.5, 1);\nassert_eq!((q.sizes(), q.to_vec()), (&[1, 1][..], vec![2.0]));",
    [D::Elem: Float + Num], One1, (q: D::Elem), |s, a| keep_axis(s.as_dyn().try_nanquantile(q, a)?, a),
    nanquantile_keepdim try_nanquantile_keepdim nanquantile_keepdim_dyn try_nanquantile_keepdim_dyn);
