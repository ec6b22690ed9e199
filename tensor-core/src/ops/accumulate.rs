//! Accumulating writes by index tensors, as PyTorch: `scatter_add`, `scatter_reduce` and
//! `index_add` (beside them the overwriting `index_copy` and `index_fill`; each also with a
//! runtime axis, `x.scatter_add_dyn_(axis, &i, &src)`). Unlike `scatter`, duplicate positions
//! combine instead of overwriting: every
//! value aimed at a position reaches it, in the index's row-major order.
//!
//! The element rule is that of the arithmetic operators (`num`'s module docs): integer sums and
//! products wrap, as PyTorch's `scatter_add_` and `index_add_` do on integer tensors; floats
//! follow IEEE 754. Every index entry is checked before the first write, so an error leaves the
//! tensor unchanged. Index entries must be in `0..n` (`n` the size of the written dim): as in
//! PyTorch, a negative entry is an error ([`ShapeError::IndexEntry`], naming the entry and its
//! position in the index), not a count from the end as in `gather` and `index_select`.
use super::select::{check_axis, check_fits};
use crate::cast::CastFrom;
use crate::dim::Dim;
use crate::error::{OrPanic, ShapeError};
use crate::index::IndexElem;
use crate::kernels;
use crate::layout::Layout;
use crate::num::Num;
use crate::shape::{RemoveAxis, SameRank, Shape};
use crate::storage::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;

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

/// The layout of a 1-D index of `li` read at every coordinate of `sizes`: entry `c[axis]` of the
/// index at coordinate `c` (strides 0 outside `axis`), so that `index_add` is a scatter.
fn along(li: &Layout, sizes: &[usize], axis: usize) -> Result<Layout, ShapeError> {
    let mut l = *li;
    for _ in 0..axis {
        l = l.unsqueeze(0)?;
    }
    while l.rank() < sizes.len() {
        l = l.unsqueeze(l.rank())?;
    }
    l.expand(sizes)
}

/// Scatter-adds, scatter-reductions and index-adds (element types with arithmetic).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// Adds `src` along axis `A` at the positions in `index`, in place (PyTorch
    /// `scatter_add_(A, index, src)`): for `A = 0`, `self[index[i][j]][j] += src[i][j]`, and
    /// every value aimed at one position is added (duplicates accumulate, unlike
    /// [`scatter_`](Self::scatter_)). `index` and `src` have the rank of `self`; `src` is at
    /// least as large as `index` in every dim, and `index` no larger than `self` outside dim `A`.
    /// Shapes are unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let mut x: Tensor<f32, Shape![3]> = Tensor::zeros();
    /// x.scatter_add_::<0>(&Tensor::from([0i64, 2, 0, 0]), &Tensor::from([1.0, 2.0, 3.0, 4.0]));
    /// assert_eq!(x.to_vec(), [8.0, 0.0, 2.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when a rank differs or a size does not fit as above;
    /// [`ShapeError::IndexEntry`] for the first entry (row-major) outside `0..n`, `n` the
    /// size of dim `A` (negative entries included, as PyTorch), naming it and its position in
    /// `index`; [`ShapeError::Axis`] when a [`DynShape`](crate::DynShape) tensor has no axis
    /// `A`. An error leaves `self` unchanged.
    pub fn try_scatter_add_<const A: isize>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_scatter_add_dyn_(A, index, src)
    }
    /// [`try_scatter_add_`](Self::try_scatter_add_), panicking with the error's message: PyTorch
    /// `scatter_add_(A, index, src)`.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_add_`](Self::try_scatter_add_).
    #[track_caller]
    pub fn scatter_add_<const A: isize>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_scatter_add_::<A>(index, src).or_panic()
    }
    /// A copy of `self` with `src` added along axis `A` at the positions in `index` (PyTorch
    /// `torch.scatter_add(self, A, index, src)`): same shape as `self`; the rules of
    /// [`try_scatter_add_`](Self::try_scatter_add_).
    ///
    /// # Errors
    /// As [`try_scatter_add_`](Self::try_scatter_add_), and [`ShapeError::Alloc`].
    pub fn try_scatter_add<const A: isize>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        let mut out = self.try_to_owned()?;
        out.try_scatter_add_::<A>(index, src)?;
        Ok(out)
    }
    /// [`try_scatter_add`](Self::try_scatter_add), panicking with the error's message: PyTorch
    /// `torch.scatter_add(self, A, index, src)`, same shape as `self`.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_add_`](Self::try_scatter_add_).
    #[track_caller]
    pub fn scatter_add<const A: isize>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) -> Tensor<D::Elem, S>
    where
        S: RemoveAxis<A>,
    {
        self.try_scatter_add::<A>(index, src).or_panic()
    }

    /// Reduces the values of `src` aimed along axis `A` at each position of `self`, in place
    /// (PyTorch `scatter_reduce_(A, index, src, reduce, include_self)`): the positions and shape
    /// rules of [`try_scatter_add_`](Self::try_scatter_add_), combined by `reduce`. With
    /// `include_self`, a position's own value takes part (for [`ScatterReduce::Mean`] it counts
    /// as one more value); without it, a position that some index reaches gets the reduction of
    /// the values aimed at it alone. Positions no index reaches keep their value. Shapes are
    /// unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{ScatterReduce, Shape, Tensor};
    /// let mut x: Tensor<f64, Shape![3]> = Tensor::from([1.0, 1.0, 1.0]);
    /// let (i, v) = (Tensor::from([0i64, 0, 2]), Tensor::from([4.0, 6.0, 3.0]));
    /// x.scatter_reduce_::<0>(&i, &v, ScatterReduce::Mean, true);
    /// assert_eq!(x.to_vec(), [11.0 / 3.0, 1.0, 2.0]);
    /// x.scatter_reduce_::<0>(&i, &v, ScatterReduce::Amax, false);
    /// assert_eq!(x.to_vec(), [6.0, 1.0, 3.0]);
    /// ```
    ///
    /// # Errors
    /// As [`try_scatter_add_`](Self::try_scatter_add_), and [`ShapeError::Alloc`] (the
    /// [`ScatterReduce::Mean`] counts). An error leaves `self` unchanged.
    pub fn try_scatter_reduce_<const A: isize>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        D::Elem: CastFrom<u64>,
        S: RemoveAxis<A>,
    {
        self.try_scatter_reduce_dyn_(A, index, src, reduce, include_self)
    }
    /// [`try_scatter_reduce_`](Self::try_scatter_reduce_), panicking with the error's message:
    /// PyTorch `scatter_reduce_(A, index, src, reduce, include_self)`.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_reduce_`](Self::try_scatter_reduce_).
    #[track_caller]
    pub fn scatter_reduce_<const A: isize>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        reduce: ScatterReduce,
        include_self: bool,
    ) where
        D: DataMut,
        D::Elem: CastFrom<u64>,
        S: RemoveAxis<A>,
    {
        self.try_scatter_reduce_::<A>(index, src, reduce, include_self).or_panic()
    }
    /// A copy of `self` with [`try_scatter_reduce_`](Self::try_scatter_reduce_) applied (PyTorch
    /// `torch.scatter_reduce(self, A, index, src, reduce, include_self=...)`): same shape as
    /// `self`.
    ///
    /// # Errors
    /// As [`try_scatter_reduce_`](Self::try_scatter_reduce_).
    pub fn try_scatter_reduce<const A: isize>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        D::Elem: CastFrom<u64>,
        S: RemoveAxis<A>,
    {
        let mut out = self.try_to_owned()?;
        out.try_scatter_reduce_::<A>(index, src, reduce, include_self)?;
        Ok(out)
    }
    /// [`try_scatter_reduce`](Self::try_scatter_reduce), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_reduce_`](Self::try_scatter_reduce_).
    #[track_caller]
    pub fn scatter_reduce<const A: isize>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl SameRank<S>>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Tensor<D::Elem, S>
    where
        D::Elem: CastFrom<u64>,
        S: RemoveAxis<A>,
    {
        self.try_scatter_reduce::<A>(index, src, reduce, include_self).or_panic()
    }

    /// Adds `alpha * source` into the slices of axis `A` at the positions in the 1-D `index`, in
    /// place (PyTorch `index_add_(A, index, source, alpha=alpha)`): for `A = 0`,
    /// `self[index[i]] += alpha * source[i]`. `source` has `self`'s shape with dim `A` replaced
    /// by the index's length `K` (`[.., n, ..]` and `[K]` take `[.., K, ..]`); repeated entries
    /// accumulate. Shapes are unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let mut x: Tensor<i32, Shape![3, 2]> = Tensor::zeros();
    /// let src: Tensor<i32, Shape![3, 2]> = Tensor::from([[1, 2], [3, 4], [5, 6]]);
    /// x.index_add_::<0, _>(&Tensor::from([2i64, 0, 2]), &src, 1);
    /// assert_eq!(x.to_vec(), [3, 4, 0, 0, 6, 8]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] naming both shapes when `source` is not `self`'s shape with dim
    /// `A` of the index's length; [`ShapeError::IndexEntry`] for the first entry outside `0..n`
    /// (negative entries included, as PyTorch); [`ShapeError::Axis`] when a
    /// [`DynShape`](crate::DynShape) tensor has no axis `A`. An error leaves `self` unchanged.
    pub fn try_index_add_<const A: isize, K: Dim>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        alpha: D::Elem,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_index_add_dyn_(A, index, source, alpha)
    }
    /// [`try_index_add_`](Self::try_index_add_), panicking with the error's message: PyTorch
    /// `index_add_(A, index, source, alpha=alpha)`.
    ///
    /// # Panics
    /// As the errors of [`try_index_add_`](Self::try_index_add_).
    #[track_caller]
    pub fn index_add_<const A: isize, K: Dim>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        alpha: D::Elem,
    ) where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_index_add_::<A, K>(index, source, alpha).or_panic()
    }
    /// A copy of `self` with [`try_index_add_`](Self::try_index_add_) applied (PyTorch
    /// `torch.index_add(self, A, index, source, alpha=alpha)`): same shape as `self`.
    ///
    /// # Errors
    /// As [`try_index_add_`](Self::try_index_add_), and [`ShapeError::Alloc`].
    pub fn try_index_add<const A: isize, K: Dim>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        alpha: D::Elem,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        let mut out = self.try_to_owned()?;
        out.try_index_add_::<A, K>(index, source, alpha)?;
        Ok(out)
    }
    /// [`try_index_add`](Self::try_index_add), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_add_`](Self::try_index_add_).
    #[track_caller]
    pub fn index_add<const A: isize, K: Dim>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
        alpha: D::Elem,
    ) -> Tensor<D::Elem, S>
    where
        S: RemoveAxis<A>,
    {
        self.try_index_add::<A, K>(index, source, alpha).or_panic()
    }
}

/// A layout reading one element at every coordinate of `l`'s sizes (stride 0 everywhere).
fn all(l: &Layout) -> Result<Layout, ShapeError> {
    Layout::contiguous(&[])?.expand(l.sizes())
}

/// `index_put_` with index tensors for the leading dims (every numeric element type).
impl<D: Data + DataMut, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// Writes `values` at the coordinates that the integer tensors `indices` give for the
    /// leading dims, in place (PyTorch `index_put_(indices, values, accumulate)`, NumPy
    /// `x[i0, i1] = v`, or `np.add.at` with `accumulate`): the index tensors broadcast to one
    /// shape `B`, and the indexed elements form `[B, ..rest]` (the dims after the indexed ones);
    /// `values` broadcasts to that. With `accumulate` the values are added, so a repeated
    /// coordinate receives the sum of everything aimed at it; without, the last write (in
    /// row-major order of `B`) wins. Negative entries count from the end (PyTorch's `index_put_`
    /// is advanced indexing and accepts them, unlike `scatter_` and `index_add_`). This is
    /// `t!(x[&i, &j] = v)` with a runtime number of index tensors and PyTorch's `accumulate`
    /// switch.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let mut x = Tensor::from([[0, 0], [0, 0]]);
    /// let (i, j) = (Tensor::from([0i64, 1, 0]), Tensor::from([1i64, 1, 1]));
    /// x.index_put_(&[&i, &j], &Tensor::from([5, 6, 7]), true);
    /// assert_eq!(x.to_vec(), [0, 12, 0, 6]);
    /// x.index_put_(&[&i, &j], &Tensor::<i32, shaped::Shape![]>::scalar(1), false);
    /// assert_eq!(x.to_vec(), [0, 1, 0, 1]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Index`] for an entry outside its dim; [`ShapeError::Mismatch`] when the
    /// index shapes do not broadcast together; [`ShapeError::Invalid`] for more index tensors
    /// than dims; [`ShapeError::Expand`] when `values` does not broadcast to the indexed shape;
    /// [`ShapeError::Alloc`]. Every check comes before the first write: an error leaves `self`
    /// unchanged.
    pub fn try_index_put_<SI: Shape>(
        &mut self,
        indices: &[&TensorBase<impl Data<Elem: IndexElem>, SI>],
        values: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        accumulate: bool,
    ) -> Result<(), ShapeError> {
        if indices.len() > self.rank() {
            return Err(ShapeError::Invalid(format!(
                "index_put_: {} index tensors for a tensor of rank {} (shape {:?})",
                indices.len(),
                self.rank(),
                self.sizes()
            )));
        }
        let mut adv = alloc::vec::Vec::with_capacity(indices.len());
        for (d, idx) in indices.iter().enumerate() {
            let flat = kernels::to_vec(idx.data.as_slice(), idx.layout())?;
            let coords = kernels::try_collect(flat.iter().map(|&v| {
                // Beyond isize: out of range of any dim, reported by the plan below.
                isize::try_from(crate::element::ToIndex::to_i128(v)).unwrap_or(isize::MAX)
            }))?;
            adv.push(crate::layout::AdvIndex {
                pos: d,
                axis: d,
                sizes: idx.sizes().to_vec(),
                index: alloc::vec![coords],
            });
        }
        let l = *self.layout();
        let (layout, plan) = crate::layout::advanced_plan(&l, &adv)?;
        let lv = values.layout().expand_for_assign(layout.sizes())?;
        let v = kernels::to_vec(values.data.as_slice(), &lv)?;
        let f = if accumulate { |s: &mut D::Elem, v| *s = Num::add(*s, v) } else { |s: &mut D::Elem, v| *s = v };
        kernels::scatter_runs(self.data.as_mut_slice(), &plan, v, f);
        Ok(())
    }
    /// [`try_index_put_`](Self::try_index_put_), panicking with the error's message.
    #[track_caller]
    pub fn index_put_<SI: Shape>(
        &mut self,
        indices: &[&TensorBase<impl Data<Elem: IndexElem>, SI>],
        values: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        accumulate: bool,
    ) {
        self.try_index_put_(indices, values, accumulate).or_panic()
    }
}

/// The layout of an index of runtime rank 0 or 1 as a 1-D index (rank 0: one entry), or the
/// error naming `op` and the index's sizes.
fn index_1d(op: &str, li: &Layout) -> Result<Layout, ShapeError> {
    match li.rank() {
        0 => li.unsqueeze(0),
        1 => Ok(*li),
        _ => Err(ShapeError::Invalid(format!("{op}: the index must have at most 1 dim, got sizes {:?}", li.sizes()))),
    }
}

/// `source` must be `sizes` with dim `axis` of the index's length `k` (`index_add`, `index_copy`).
fn check_source(op: &'static str, sizes: &[usize], source: &[usize], axis: usize, k: usize) -> Result<(), ShapeError> {
    let fits = source.len() == sizes.len()
        && source.iter().zip(sizes).enumerate().all(|(d, (&s, &n))| if d == axis { s == k } else { s == n });
    if fits {
        return Ok(());
    }
    Err(ShapeError::Mismatch {
        op,
        what: format!("(source must be self's shape with dimension {axis} of the index's length {k})"),
        lhs: sizes.into(),
        rhs: source.into(),
    })
}

/// The runtime-axis forms of `scatter_add`, `scatter_reduce`, `index_add`, `index_copy` and
/// `index_fill` (each in place and as a copy), for [`DynShape`](crate::DynShape) programs; the
/// const-axis forms call these.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
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
    pub fn try_scatter_add_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let axis = check_axis(axis, self.rank())?;
        check_fits("scatter_add", ("index", "self"), index.sizes(), self.sizes(), Some(axis))?;
        check_fits("scatter_add", ("index", "src"), index.sizes(), src.sizes(), None)?;
        let ld = *self.layout();
        let (idx, li) = (index.data.as_slice(), index.layout());
        let (sd, ls) = (src.data.as_slice(), src.layout());
        kernels::scatter_with(self.data.as_mut_slice(), &ld, axis, idx, li, sd, ls, |d, s| *d = Num::add(*d, s))
    }
    /// [`try_scatter_add_dyn_`](Self::try_scatter_add_dyn_), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_add_dyn_`](Self::try_scatter_add_dyn_).
    #[track_caller]
    pub fn scatter_add_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) where
        D: DataMut,
    {
        self.try_scatter_add_dyn_(axis, index, src).or_panic()
    }
    /// A copy of `self` with [`try_scatter_add_dyn_`](Self::try_scatter_add_dyn_) applied
    /// (PyTorch `torch.scatter_add(self, axis, index, src)`): same shape as `self`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([10, 20, 30]).into_dyn();
    /// let y = x.scatter_add_dyn(0, &Tensor::from([2i64, 2]), &Tensor::from([1, 2]));
    /// assert_eq!(y.to_vec(), [10, 20, 33]);
    /// ```
    ///
    /// # Errors
    /// As [`try_scatter_add_dyn_`](Self::try_scatter_add_dyn_), and [`ShapeError::Alloc`].
    pub fn try_scatter_add_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let mut out = self.try_to_owned()?;
        out.try_scatter_add_dyn_(axis, index, src)?;
        Ok(out)
    }
    /// [`try_scatter_add_dyn`](Self::try_scatter_add_dyn), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_add_dyn`](Self::try_scatter_add_dyn).
    #[track_caller]
    pub fn scatter_add_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) -> Tensor<D::Elem, S> {
        self.try_scatter_add_dyn(axis, index, src).or_panic()
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
    pub fn try_scatter_reduce_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        D::Elem: CastFrom<u64>,
    {
        let axis = check_axis(axis, self.rank())?;
        check_fits("scatter_reduce", ("index", "self"), index.sizes(), self.sizes(), Some(axis))?;
        check_fits("scatter_reduce", ("index", "src"), index.sizes(), src.sizes(), None)?;
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
    /// [`try_scatter_reduce_dyn_`](Self::try_scatter_reduce_dyn_), panicking with the error's
    /// message.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_reduce_dyn_`](Self::try_scatter_reduce_dyn_).
    #[track_caller]
    pub fn scatter_reduce_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        reduce: ScatterReduce,
        include_self: bool,
    ) where
        D: DataMut,
        D::Elem: CastFrom<u64>,
    {
        self.try_scatter_reduce_dyn_(axis, index, src, reduce, include_self).or_panic()
    }
    /// A copy of `self` with [`try_scatter_reduce_dyn_`](Self::try_scatter_reduce_dyn_) applied
    /// (PyTorch `torch.scatter_reduce(self, axis, index, src, reduce, include_self=...)`): same
    /// shape as `self`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{ScatterReduce, Tensor};
    /// let x = Tensor::from([1, 1, 1]).into_dyn();
    /// let y = x.scatter_reduce_dyn(0, &Tensor::from([0i64, 0]), &Tensor::from([4, 6]), ScatterReduce::Prod, true);
    /// assert_eq!(y.to_vec(), [24, 1, 1]);
    /// ```
    ///
    /// # Errors
    /// As [`try_scatter_reduce_dyn_`](Self::try_scatter_reduce_dyn_), and [`ShapeError::Alloc`].
    pub fn try_scatter_reduce_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        D::Elem: CastFrom<u64>,
    {
        let mut out = self.try_to_owned()?;
        out.try_scatter_reduce_dyn_(axis, index, src, reduce, include_self)?;
        Ok(out)
    }
    /// [`try_scatter_reduce_dyn`](Self::try_scatter_reduce_dyn), panicking with the error's
    /// message.
    ///
    /// # Panics
    /// As the errors of [`try_scatter_reduce_dyn`](Self::try_scatter_reduce_dyn).
    #[track_caller]
    pub fn scatter_reduce_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        src: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Tensor<D::Elem, S>
    where
        D::Elem: CastFrom<u64>,
    {
        self.try_scatter_reduce_dyn(axis, index, src, reduce, include_self).or_panic()
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
    /// fit; [`ShapeError::Index`] for an entry outside the dim. An error leaves `self`
    /// unchanged.
    pub fn try_index_add_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        alpha: D::Elem,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let f = |d: &mut D::Elem, s| *d = Num::add(*d, Num::mul(alpha, s));
        self.index_write("index_add", axis, index, source, f)
    }
    /// [`try_index_add_dyn_`](Self::try_index_add_dyn_), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_add_dyn_`](Self::try_index_add_dyn_).
    #[track_caller]
    pub fn index_add_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        alpha: D::Elem,
    ) where
        D: DataMut,
    {
        self.try_index_add_dyn_(axis, index, source, alpha).or_panic()
    }
    /// A copy of `self` with [`try_index_add_dyn_`](Self::try_index_add_dyn_) applied (PyTorch
    /// `torch.index_add(self, axis, index, source, alpha=alpha)`): same shape as `self`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([[1, 1], [1, 1]]).into_dyn();
    /// let y = x.index_add_dyn(0, &Tensor::from([1i64]), &Tensor::from([[5, 6]]), 1);
    /// assert_eq!(y.to_vec(), [1, 1, 6, 7]);
    /// ```
    ///
    /// # Errors
    /// As [`try_index_add_dyn_`](Self::try_index_add_dyn_), and [`ShapeError::Alloc`].
    pub fn try_index_add_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        alpha: D::Elem,
    ) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let mut out = self.try_to_owned()?;
        out.try_index_add_dyn_(axis, index, source, alpha)?;
        Ok(out)
    }
    /// [`try_index_add_dyn`](Self::try_index_add_dyn), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_add_dyn`](Self::try_index_add_dyn).
    #[track_caller]
    pub fn index_add_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        alpha: D::Elem,
    ) -> Tensor<D::Elem, S> {
        self.try_index_add_dyn(axis, index, source, alpha).or_panic()
    }
}

/// `index_copy` and `index_fill` (element types of every kind), and the shared walk of the
/// `index_*` writes.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Writes `source` into the slices of dim `axis` at the positions in the 1-D `index`
    /// through `f` (`index_add`, `index_copy`), after checking every shape and entry.
    fn index_write(
        &mut self,
        op: &'static str,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        f: impl FnMut(&mut D::Elem, D::Elem),
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let axis = check_axis(axis, self.rank())?;
        let li = index_1d(op, index.layout())?;
        check_source(op, self.sizes(), source.sizes(), axis, li.numel())?;
        let ld = *self.layout();
        // Checked on the 1-D index first, so that an error names the entry's position in it
        // (negative entries are refused, as PyTorch's index_add_ and index_copy_ do).
        kernels::check_write_indices(index.data.as_slice(), &li, axis, ld.sizes()[axis])?;
        let li = along(&li, source.sizes(), axis)?;
        let (sd, ls) = (source.data.as_slice(), source.layout());
        kernels::scatter_with(self.data.as_mut_slice(), &ld, axis, index.data.as_slice(), &li, sd, ls, f)
    }

    /// Copies the slices of `source` into the slices of dim `axis` at the positions in the 1-D
    /// `index`, in place (PyTorch `index_copy_(axis, index, source)`; negative `axis` counts
    /// from the end): for `axis = 0`, `self[index[i]] = source[i]`. `index` has runtime rank 1
    /// (or 0: one position); `source` is `self`'s shape with dim `axis` of the index's length.
    /// When an entry repeats, the last write (in index order) wins (PyTorch leaves it
    /// unspecified). Shapes are unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let mut x: Tensor<i32, DynShape> = Tensor::zeros_sized(&[3, 2]);
    /// x.index_copy_dyn_(0, &Tensor::from([2i64, 0]), &Tensor::from([[1, 2], [3, 4]]));
    /// assert_eq!(x.to_vec(), [3, 4, 0, 0, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] naming the axis and the rank; [`ShapeError::Invalid`] for an index
    /// of more than 1 dim; [`ShapeError::Mismatch`] naming both shapes when `source` does not
    /// fit; [`ShapeError::Index`] for an entry outside the dim. Every entry is checked before
    /// the first write: an error leaves `self` unchanged.
    pub fn try_index_copy_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        self.index_write("index_copy", axis, index, source, |d, s| *d = s)
    }
    /// [`try_index_copy_dyn_`](Self::try_index_copy_dyn_), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_copy_dyn_`](Self::try_index_copy_dyn_).
    #[track_caller]
    pub fn index_copy_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) where
        D: DataMut,
    {
        self.try_index_copy_dyn_(axis, index, source).or_panic()
    }
    /// A copy of `self` with [`try_index_copy_dyn_`](Self::try_index_copy_dyn_) applied
    /// (PyTorch `torch.index_copy(self, axis, index, source)`): same shape as `self`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([[0, 0, 0], [0, 0, 0]]).into_dyn();
    /// let y = x.index_copy_dyn(1, &Tensor::from([1i64]), &Tensor::from([[7], [8]]));
    /// assert_eq!(y.to_vec(), [0, 7, 0, 0, 8, 0]);
    /// ```
    ///
    /// # Errors
    /// As [`try_index_copy_dyn_`](Self::try_index_copy_dyn_), and [`ShapeError::Alloc`].
    pub fn try_index_copy_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let mut out = self.try_to_owned()?;
        out.try_index_copy_dyn_(axis, index, source)?;
        Ok(out)
    }
    /// [`try_index_copy_dyn`](Self::try_index_copy_dyn), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_copy_dyn`](Self::try_index_copy_dyn).
    #[track_caller]
    pub fn index_copy_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
    ) -> Tensor<D::Elem, S> {
        self.try_index_copy_dyn(axis, index, source).or_panic()
    }

    /// Sets every element of the slices of dim `axis` at the positions in the 1-D `index` to
    /// `value`, in place (PyTorch `index_fill_(axis, index, value)`; negative `axis` counts
    /// from the end): for `axis = 1`, `self[:, index[i]] = value`. `index` has runtime rank 1
    /// (or 0: one position); entries may repeat, and a negative entry counts from the end of the
    /// dim, as PyTorch's `index_fill_` (unlike `index_add_` and `index_copy_`, which refuse it).
    /// Shapes are unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let mut x: Tensor<i32, DynShape> = Tensor::from([[1, 2, 3], [4, 5, 6]]).into_dyn();
    /// x.index_fill_dyn_(-1, &Tensor::from([0i64, 2]), -1);
    /// assert_eq!(x.to_vec(), [-1, 2, -1, -1, 5, -1]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] naming the axis and the rank; [`ShapeError::Invalid`] for an index
    /// of more than 1 dim; [`ShapeError::Index`] for an entry outside `-n..n` (`n` the dim's
    /// size). Every entry is checked before the first write: an error leaves `self` unchanged.
    pub fn try_index_fill_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        value: D::Elem,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let axis = check_axis(axis, self.rank())?;
        index_1d("index_fill", index.layout())?;
        let ld = *self.layout();
        // PyTorch's index_fill_ counts a negative entry from the end (index_add_ and index_copy_
        // refuse it): the entries in `-n..n` as positions in `0..n`, each checked before any
        // write.
        let n = ld.sizes()[axis];
        let entries = index.try_to_vec()?;
        let mut idx = crate::memory::try_vec(entries.len(), 0i64)?;
        for (o, e) in idx.iter_mut().zip(entries) {
            let v = e.to_i128();
            if v < -(n as i128) || v >= n as i128 {
                return Err(ShapeError::Index { index: v, axis, size: n });
            }
            *o = if v < 0 { v + n as i128 } else { v } as i64;
        }
        let mut sizes = ld.sizes().to_vec();
        sizes[axis] = idx.len();
        let li = along(&Layout::contiguous(&[idx.len()])?, &sizes, axis)?;
        let value = [value];
        kernels::scatter_with(
            self.data.as_mut_slice(),
            &ld,
            axis,
            &idx,
            &li,
            &value,
            &all(&li)?,
            |d, v| *d = v,
        )
    }
    /// [`try_index_fill_dyn_`](Self::try_index_fill_dyn_), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_fill_dyn_`](Self::try_index_fill_dyn_).
    #[track_caller]
    pub fn index_fill_dyn_(
        &mut self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        value: D::Elem,
    ) where
        D: DataMut,
    {
        self.try_index_fill_dyn_(axis, index, value).or_panic()
    }
    /// A copy of `self` with [`try_index_fill_dyn_`](Self::try_index_fill_dyn_) applied
    /// (PyTorch `torch.index_fill(self, axis, index, value)`): same shape as `self`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([[1, 2], [3, 4]]).into_dyn();
    /// assert_eq!(x.index_fill_dyn(0, &Tensor::from([1i64]), 0).to_vec(), [1, 2, 0, 0]);
    /// ```
    ///
    /// # Errors
    /// As [`try_index_fill_dyn_`](Self::try_index_fill_dyn_), and [`ShapeError::Alloc`].
    pub fn try_index_fill_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        value: D::Elem,
    ) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let mut out = self.try_to_owned()?;
        out.try_index_fill_dyn_(axis, index, value)?;
        Ok(out)
    }
    /// [`try_index_fill_dyn`](Self::try_index_fill_dyn), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_fill_dyn`](Self::try_index_fill_dyn).
    #[track_caller]
    pub fn index_fill_dyn(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
        value: D::Elem,
    ) -> Tensor<D::Elem, S> {
        self.try_index_fill_dyn(axis, index, value).or_panic()
    }
}

/// `index_copy` and `index_fill` with a const axis (checked at compile time for tuple shapes).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Copies the slices of `source` into the slices of axis `A` at the positions in the 1-D
    /// `index`, in place (PyTorch `index_copy_(A, index, source)`): for `A = 0`,
    /// `self[index[i]] = source[i]`. `source` has `self`'s shape with dim `A` replaced by the
    /// index's length `K`; the last write wins for a repeated entry. Shapes are unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let mut x: Tensor<i32, Shape![3, 2]> = Tensor::zeros();
    /// let src: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
    /// x.index_copy_::<0, _>(&Tensor::from([2i64, 0]), &src);
    /// assert_eq!(x.to_vec(), [3, 4, 0, 0, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// As [`try_index_copy_dyn_`](Self::try_index_copy_dyn_), the axis checked at compile time
    /// for tuple shapes. An error leaves `self` unchanged.
    pub fn try_index_copy_<const A: isize, K: Dim>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_index_copy_dyn_(A, index, source)
    }
    /// [`try_index_copy_`](Self::try_index_copy_), panicking with the error's message: PyTorch
    /// `index_copy_(A, index, source)`.
    ///
    /// # Panics
    /// As the errors of [`try_index_copy_`](Self::try_index_copy_).
    #[track_caller]
    pub fn index_copy_<const A: isize, K: Dim>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_index_copy_::<A, K>(index, source).or_panic()
    }
    /// A copy of `self` with [`try_index_copy_`](Self::try_index_copy_) applied (PyTorch
    /// `torch.index_copy(self, A, index, source)`): same shape as `self`.
    ///
    /// # Errors
    /// As [`try_index_copy_`](Self::try_index_copy_), and [`ShapeError::Alloc`].
    pub fn try_index_copy<const A: isize, K: Dim>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        self.try_index_copy_dyn(A, index, source)
    }
    /// [`try_index_copy`](Self::try_index_copy), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_copy`](Self::try_index_copy).
    #[track_caller]
    pub fn index_copy<const A: isize, K: Dim>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        source: &TensorBase<impl Data<Elem = D::Elem>, impl SameRank<S>>,
    ) -> Tensor<D::Elem, S>
    where
        S: RemoveAxis<A>,
    {
        self.try_index_copy::<A, K>(index, source).or_panic()
    }

    /// Sets the slices of axis `A` at the positions in the 1-D `index` to `value`, in place
    /// (PyTorch `index_fill_(A, index, value)`): for `A = 1`, `self[:, index[i]] = value`.
    /// Shapes are unchanged.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let mut x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// x.index_fill_::<1, _>(&Tensor::from([0i64, 2]), -1);
    /// assert_eq!(x.to_vec(), [-1, 2, -1, -1, 5, -1]);
    /// ```
    ///
    /// # Errors
    /// As [`try_index_fill_dyn_`](Self::try_index_fill_dyn_), the axis checked at compile time
    /// for tuple shapes. An error leaves `self` unchanged.
    pub fn try_index_fill_<const A: isize, K: Dim>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        value: D::Elem,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_index_fill_dyn_(A, index, value)
    }
    /// [`try_index_fill_`](Self::try_index_fill_), panicking with the error's message: PyTorch
    /// `index_fill_(A, index, value)`.
    ///
    /// # Panics
    /// As the errors of [`try_index_fill_`](Self::try_index_fill_).
    #[track_caller]
    pub fn index_fill_<const A: isize, K: Dim>(
        &mut self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        value: D::Elem,
    ) where
        D: DataMut,
        S: RemoveAxis<A>,
    {
        self.try_index_fill_::<A, K>(index, value).or_panic()
    }
    /// A copy of `self` with [`try_index_fill_`](Self::try_index_fill_) applied (PyTorch
    /// `torch.index_fill(self, A, index, value)`): same shape as `self`.
    ///
    /// # Errors
    /// As [`try_index_fill_`](Self::try_index_fill_), and [`ShapeError::Alloc`].
    pub fn try_index_fill<const A: isize, K: Dim>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        value: D::Elem,
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        self.try_index_fill_dyn(A, index, value)
    }
    /// [`try_index_fill`](Self::try_index_fill), panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_index_fill`](Self::try_index_fill).
    #[track_caller]
    pub fn index_fill<const A: isize, K: Dim>(
        &self,
        index: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        value: D::Elem,
    ) -> Tensor<D::Elem, S>
    where
        S: RemoveAxis<A>,
    {
        self.try_index_fill::<A, K>(index, value).or_panic()
    }
}
