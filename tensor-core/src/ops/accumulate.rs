//! Accumulating writes by index tensors, as PyTorch: `scatter_add`, `scatter_reduce` and
//! `index_add` (beside them the overwriting `index_copy` and `index_fill`; each takes the axis
//! argument, `x.scatter_add_(axis, &i, &src)` with `Ax::<A>`, an `isize` or a name). Unlike `scatter`, duplicate positions
//! combine instead of overwriting: every
//! value aimed at a position reaches it, in the index's row-major order.
//!
//! The element rule is that of the arithmetic operators (`num`'s module docs): integer sums and
//! products wrap, as PyTorch's `scatter_add_` and `index_add_` do on integer tensors; floats
//! follow IEEE 754. Every index entry is checked before the first write, so an error leaves the
//! tensor unchanged. Index entries must be in `0..n` (`n` the size of the written dim): as in
//! PyTorch, a negative entry is an error ([`ShapeError::IndexEntry`], naming the entry and its
//! position in the index), not a count from the end as in `gather` and `index_select`.
use super::index_write::all;
use super::select::{axis_write, check_scatter};
use crate::cast::CastFrom;
use crate::error::ShapeError;
use crate::index::IndexElem;
use crate::kernels;
use crate::layout::Layout;
use crate::num::Num;
use crate::shape::{HasAxis, SameRank, Shape, VectorShape};
use crate::storage::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};
use shaped_macros::try_twin;

/// How [`scatter_reduce_`](TensorBase::scatter_reduce_) combines the values that reach one
/// position: PyTorch's `reduce` argument of `scatter_reduce` (`"sum"`, `"prod"`, `"mean"`,
/// `"amax"`, `"amin"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScatterReduce {
    /// The sum (integers wrap).
    Sum,
    /// The product (integers wrap).
    Prod,
    /// The mean: the sum divided by the number of values, rounded toward negative infinity for
    /// integers (PyTorch's floor division).
    Mean,
    /// The largest value; NaN when any is NaN (PyTorch `amax`).
    Amax,
    /// The smallest value; NaN when any is NaN (PyTorch `amin`).
    Amin,
}

impl ScatterReduce {
    /// The value that leaves every other unchanged under this reduction (the start of a
    /// position whose own value is left out).
    fn identity<T: Num>(self) -> T {
        match self {
            ScatterReduce::Sum | ScatterReduce::Mean => T::ZERO,
            ScatterReduce::Prod => T::ONE,
            ScatterReduce::Amax => T::LOWEST,
            ScatterReduce::Amin => T::HIGHEST,
        }
    }
    /// One step of the reduction.
    #[inline(always)]
    fn step<T: Num>(self, a: T, b: T) -> T {
        match self {
            ScatterReduce::Sum | ScatterReduce::Mean => T::add(a, b),
            ScatterReduce::Prod => T::mul(a, b),
            ScatterReduce::Amax => T::max(a, b),
            ScatterReduce::Amin => T::min(a, b),
        }
    }
}

/// `a / n` for a positive count `n`, rounded toward negative infinity for integers.
fn mean_of<T: Num + CastFrom<u64>>(a: T, n: u64) -> T {
    let c = T::cast_from(n);
    let q = T::div(a, c);
    if T::INTEGER && T::mul(q, c) != a && a < T::ZERO {
        T::sub(q, T::ONE)
    } else {
        q
    }
}

/// Scatter-adds, scatter-reductions and index-adds (element types with arithmetic).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    axis_write! {
        /// Adds `src` along `axis` at the positions in `index`, in place (PyTorch
        /// `scatter_add_(axis, index, src)`): for `A = 0`, `self[index[i][j]][j] += src[i][j]`, and
        /// every value aimed at one position is added (duplicates accumulate, unlike
        /// [`scatter_`](Self::scatter_)). `index` and `src` have the rank of `self`; `src` is at
        /// least as large as `index` in every dim, and `index` no larger than `self` outside dim `axis`.
        /// Shapes are unchanged.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{Ax, Shape, Tensor};
        /// let mut x: Tensor<f32, Shape![3]> = Tensor::zeros();
        /// x.scatter_add_(Ax::<0>, &Tensor::from([0i64, 2, 0, 0]), &Tensor::from([1.0, 2.0, 3.0, 4.0]));
        /// assert_eq!(x.to_vec(), [8.0, 0.0, 2.0]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Mismatch`] when a rank differs or a size does not fit as above;
        /// [`ShapeError::IndexEntry`] for the first entry (row-major) outside `0..n`, `n` the
        /// size of dim `axis` (negative entries included, as PyTorch), naming it and its position in
        /// `index`; [`ShapeError::Axis`] when a [`DynShape`](crate::DynShape) tensor has no axis
        /// `axis`. An error leaves `self` unchanged.
        #[try_twin(
            doc = "PyTorch `scatter_add_(A, index, src)`.",
            copy = "PyTorch `torch.scatter_add(self, A, index, src)`, same shape as `self`."
        )]
        fn try_scatter_add_(&mut self, axis, index: &TensorBase<_, impl SameRank<S>>,
            src: &TensorBase<_, impl SameRank<S>>) => scatter_add_at;
        /// Reduces the values of `src` aimed along `axis` at each position of `self`, in place
        /// (PyTorch `scatter_reduce_(axis, index, src, reduce, include_self)`): the positions and shape
        /// rules of [`try_scatter_add_`](Self::try_scatter_add_), combined by `reduce`. With
        /// `include_self`, a position's own value takes part (for [`ScatterReduce::Mean`] it counts
        /// as one more value); without it, a position that some index reaches gets the reduction of
        /// the values aimed at it alone. Positions no index reaches keep their value. Shapes are
        /// unchanged.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{Ax, ScatterReduce, Shape, Tensor};
        /// let mut x: Tensor<f64, Shape![3]> = Tensor::from([1.0, 1.0, 1.0]);
        /// let (i, v) = (Tensor::from([0i64, 0, 2]), Tensor::from([4.0, 6.0, 3.0]));
        /// x.scatter_reduce_(Ax::<0>, &i, &v, ScatterReduce::Mean, true);
        /// assert_eq!(x.to_vec(), [11.0 / 3.0, 1.0, 2.0]);
        /// x.scatter_reduce_(Ax::<0>, &i, &v, ScatterReduce::Amax, false);
        /// assert_eq!(x.to_vec(), [6.0, 1.0, 3.0]);
        /// ```
        ///
        /// # Errors
        /// As [`try_scatter_add_`](Self::try_scatter_add_), and [`ShapeError::Alloc`] (the
        /// [`ScatterReduce::Mean`] counts). An error leaves `self` unchanged.
        #[try_twin(
            doc = "PyTorch `scatter_reduce_(A, index, src, reduce, include_self)`.",
            copy = "PyTorch `torch.scatter_reduce(self, A, index, src, reduce, include_self=...)`."
        )]
        fn try_scatter_reduce_(&mut self, axis, index: &TensorBase<_, impl SameRank<S>>,
            src: &TensorBase<_, impl SameRank<S>>; reduce: ScatterReduce, include_self: bool)
            => scatter_reduce_at where D::Elem: CastFrom<u64>;
        /// Adds `alpha * source` into the slices of `axis` at the positions in the 1-D `index`, in
        /// place (PyTorch `index_add_(axis, index, source, alpha=alpha)`): for `A = 0`,
        /// `self[index[i]] += alpha * source[i]`. `source` has `self`'s shape with dim `axis` replaced
        /// by the index's length `K` (`[.., n, ..]` and `[K]` take `[.., K, ..]`); repeated entries
        /// accumulate. Shapes are unchanged.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{Ax, Shape, Tensor};
        /// let mut x: Tensor<i32, Shape![3, 2]> = Tensor::zeros();
        /// let src: Tensor<i32, Shape![3, 2]> = Tensor::from([[1, 2], [3, 4], [5, 6]]);
        /// x.index_add_(Ax::<0>, &Tensor::from([2i64, 0, 2]), &src, 1);
        /// assert_eq!(x.to_vec(), [3, 4, 0, 0, 6, 8]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Mismatch`] naming both shapes when `source` is not `self`'s shape with dim
        /// `axis` of the index's length; [`ShapeError::IndexEntry`] for the first entry outside `0..n`
        /// (negative entries included, as PyTorch); [`ShapeError::Axis`] when a
        /// [`DynShape`](crate::DynShape) tensor has no `axis`. An error leaves `self` unchanged.
        #[try_twin(
            doc = "PyTorch `index_add_(A, index, source, alpha=alpha)`.",
            copy = "PyTorch `torch.index_add(self, A, index, source, alpha=alpha)`."
        )]
        fn try_index_add_(&mut self, axis, index: &TensorBase<_, impl VectorShape>,
            source: &TensorBase<_, impl SameRank<S>>; alpha: D::Elem) => index_add_at;
    }
}

/// The runtime-axis forms of `scatter_add`, `scatter_reduce`, `index_add`, `index_copy` and
/// `index_fill` (each in place and as a copy), for [`DynShape`](crate::DynShape) programs; the
/// const-axis forms call these.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    axis_write! {
        /// [`try_scatter_add_`](Self::try_scatter_add_) along a runtime `axis` (negative counts from
        /// the end): PyTorch `scatter_add_(axis, index, src)`. `index` and `src` may have any shape
        /// type; their runtime ranks must be `self`'s.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{DynShape, Tensor};
        /// let mut x: Tensor<i32, DynShape> = Tensor::zeros_sized(&[2, 3]);
        /// let i = Tensor::from([[0i64, 2], [1, 1]]);
        /// x.scatter_add_dyn_(-1, &i, &Tensor::from([[1, 2], [3, 4]]));
        /// assert_eq!(x.to_vec(), [1, 0, 2, 0, 7, 0]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Axis`] naming the axis and the rank for an axis outside `-rank..rank`; the
        /// others as [`try_scatter_add_`](Self::try_scatter_add_). An error leaves `self` unchanged.
        #[try_twin(copy = "PyTorch `torch.scatter_add(self, axis, index, src)`.")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `scatter_add_(axis, &index, &src)`"
        )]
        fn try_scatter_add_dyn_;
        /// The body of `try_scatter_add_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn scatter_add_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>, src: &TensorBase<_, impl Shape>) {
            let axis = check_scatter("scatter_add", axis, self.sizes(), index.sizes(), Some(src.sizes()))?;
            let ld = *self.layout();
            let (idx, li) = (index.data.as_slice(), index.layout());
            let (sd, ls) = (src.data.as_slice(), src.layout());
            kernels::scatter_with(self.data.as_mut_slice(), &ld, axis, idx, li, sd, ls, |d, s| *d = Num::add(*d, s))
        }

        /// [`try_scatter_reduce_`](Self::try_scatter_reduce_) along a runtime `axis` (negative
        /// counts from the end): PyTorch `scatter_reduce_(axis, index, src, reduce, include_self)`.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{DynShape, ScatterReduce, Tensor};
        /// let mut x: Tensor<f64, DynShape> = Tensor::from([[1.0, 1.0, 1.0]]).into_dyn();
        /// let (i, v) = (Tensor::from([[0i64, 0, 2]]), Tensor::from([[4.0, 6.0, 3.0]]));
        /// x.scatter_reduce_dyn_(-1, &i, &v, ScatterReduce::Amax, false);
        /// assert_eq!(x.to_vec(), [6.0, 1.0, 3.0]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Axis`] naming the axis and the rank; the others as
        /// [`try_scatter_reduce_`](Self::try_scatter_reduce_). An error leaves `self` unchanged.
        #[try_twin(copy = "PyTorch `torch.scatter_reduce(self, axis, index, src, reduce, include_self=...)`.")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `scatter_reduce_(axis, &index, &src, reduce, include_self)`"
        )]
        fn try_scatter_reduce_dyn_;
        /// The body of `try_scatter_reduce_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn scatter_reduce_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>, src: &TensorBase<_, impl Shape>;
            reduce: ScatterReduce, include_self: bool) where D::Elem: CastFrom<u64> {
            let axis = check_scatter("scatter_reduce", axis, self.sizes(), index.sizes(), Some(src.sizes()))?;
            let ld = *self.layout();
            let (idx, li) = (index.data.as_slice(), index.layout());
            let (sd, ls) = (src.data.as_slice(), src.layout());
            let step = |d: &mut D::Elem, s| *d = reduce.step(*d, s);
            if include_self && reduce != ScatterReduce::Mean {
                // Every position starts from its own value and needs no count: one pass (which
                // checks every index before its first write).
                return kernels::scatter_with(self.data.as_mut_slice(), &ld, axis, idx, li, sd, ls, step);
            }
            // The number of values aimed at each position, in row-major order of `self`'s sizes
            // (checks every index, before any write): to leave out a position's own value, and for
            // the mean.
            let lc = Layout::contiguous(ld.sizes())?;
            let mut counts = kernels::try_vec(lc.numel(), 0u64)?;
            kernels::scatter_with(&mut counts, &lc, axis, idx, li, &[()], &all(li)?, |c, ()| *c += 1)?;
            let dst = self.data.as_mut_slice();
            if !include_self {
                let start = reduce.identity::<D::Elem>();
                kernels::zip_assign(dst, &ld, &counts, &lc, |d, c| {
                    if c > 0 {
                        *d = start
                    }
                });
            }
            kernels::scatter_with(dst, &ld, axis, idx, li, sd, ls, step)?;
            if reduce == ScatterReduce::Mean {
                kernels::zip_assign(dst, &ld, &counts, &lc, |d, c| {
                    if c > 0 {
                        *d = mean_of(*d, c + include_self as u64)
                    }
                });
            }
            Ok(())
        }

        /// [`try_index_add_`](Self::try_index_add_) along a runtime `axis` (negative counts from the
        /// end): PyTorch `index_add_(axis, index, source, alpha=alpha)`. `index` has runtime rank 1
        /// (or 0: one position); `source` is `self`'s shape with dim `axis` of the index's length.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{DynShape, Tensor};
        /// let mut x: Tensor<i32, DynShape> = Tensor::zeros_sized(&[2, 3]);
        /// x.index_add_dyn_(-1, &Tensor::from([2i64, 2]), &Tensor::from([[1, 2], [3, 4]]), 10);
        /// assert_eq!(x.to_vec(), [0, 0, 30, 0, 0, 70]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Axis`] naming the axis and the rank; [`ShapeError::Invalid`] for an index
        /// of more than 1 dim; [`ShapeError::Mismatch`] naming both shapes when `source` does not
        /// fit; [`ShapeError::IndexEntry`] for an entry outside `0..n` (negative ones included, as
        /// PyTorch's `index_add_`), naming its position. An error leaves `self` unchanged.
        #[try_twin(copy = "PyTorch `torch.index_add(self, axis, index, source, alpha=alpha)`.")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `index_add_(axis, &index, &source, alpha)`"
        )]
        fn try_index_add_dyn_;
        /// The body of `try_index_add_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn index_add_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>,
            source: &TensorBase<_, impl Shape>; alpha: D::Elem) {
            let f = |d: &mut D::Elem, s| *d = Num::add(*d, Num::mul(alpha, s));
            self.index_write("index_add", axis, index, source, f)
        }
    }
}
