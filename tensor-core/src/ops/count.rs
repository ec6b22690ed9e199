//! Searching and counting, as PyTorch: `searchsorted`, `bucketize`, `bincount`, `histc` and
//! `unique`. Element order is PyTorch's order of `sort` ([`Num`]'s sort key: `-0.0` equal to
//! `0.0`, NaN above every number), so a NaN searched in a sorted sequence lands after the
//! numbers, as it sorts.
use crate::dim::{Dim, Dyn};
use crate::element::ToIndex;
use crate::error::ShapeError;
use crate::index::IndexElem;
use crate::kernels;
use crate::num::Num;
use crate::shape::{DynShape, Shape};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use alloc::vec::Vec;
use num_traits::Float;
use shaped_macros::try_twin;

/// The number of elements of `seq` (sorted by `key`) before `v`: those below it, and with
/// `right` those equal to it too (`partition_point`).
fn position<T: Num>(seq: &[T], v: T, right: bool) -> i64 {
    let k = T::sort_key(v);
    (if right { seq.partition_point(|&x| T::sort_key(x) <= k) } else { seq.partition_point(|&x| T::sort_key(x) < k) })
        as i64
}

/// `searchsorted` and `bincount` (every numeric element type).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// Where each of `values` would go in `self`, a sorted sequence, to keep it sorted (PyTorch
    /// `torch.searchsorted(self, values, right=right)`, NumPy `np.searchsorted`): for each value
    /// the number of elements below it, or with `right` not above it. `self` is 1-D, searched
    /// for every value, or of `values`' rank with the same leading dims, each innermost line
    /// searched for the values' line at the same position. The result has `values`' shape, as
    /// `i64`. `self`'s lines must be sorted ascending in PyTorch's order (NaN last); that is not
    /// checked, as in PyTorch, and an unsorted line gives an unspecified position in `0..=n`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let edges = Tensor::from([1.0f32, 3.0, 5.0, 7.0]);
    /// let v = Tensor::from([[3.0f32, 6.0], [9.0, f32::NAN]]);
    /// assert_eq!(edges.searchsorted(&v, false).to_vec(), [1, 3, 4, 4]);
    /// assert_eq!(edges.searchsorted(&v, true).to_vec(), [2, 3, 4, 4]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] naming both shapes when `self` is neither 1-D nor of `values`'
    /// rank with equal leading dims; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_searchsorted<S2: Shape>(
        &self,
        values: &TensorBase<impl Data<Elem = D::Elem>, S2>,
        right: bool,
    ) -> Result<Tensor<i64, S2>, ShapeError> {
        let (ss, vs) = (self.sizes(), values.sizes());
        let batched = ss.len() != 1;
        if batched && (ss.is_empty() || ss.len() != vs.len() || ss[..ss.len() - 1] != vs[..vs.len() - 1]) {
            return Err(ShapeError::mismatch(
                "searchsorted",
                "(the sorted sequence must be 1-D, or have the values' rank and leading dims)",
                ss,
                vs,
            ));
        }
        let seq = kernels::to_vec(self.data.as_slice(), self.layout())?;
        let vals = kernels::to_vec(values.data.as_slice(), values.layout())?;
        let n = *ss.last().unwrap_or(&0);
        let m = vs.last().copied().unwrap_or(1);
        let mut out = kernels::try_with_capacity(vals.len())?;
        if !batched {
            out.extend(vals.iter().map(|&v| position(&seq, v, right)));
        } else if n == 0 {
            // Empty sequences: every value goes first.
            out.extend(vals.iter().map(|_| 0i64));
        } else if m > 0 {
            for (line, vline) in seq.chunks_exact(n).zip(vals.chunks_exact(m)) {
                out.extend(vline.iter().map(|&v| position(line, v, right)));
            }
        }
        Tensor::try_from_vec(vs, out)
    }

    /// The bucket of each element of `self` among the sorted `boundaries` (PyTorch
    /// `torch.bucketize(self, boundaries, right=right)`): `boundaries.searchsorted(self, right)`,
    /// `self`'s shape, as `i64`. With `right == false` bucket `i` holds
    /// `boundaries[i-1] < x <= boundaries[i]`; with `right`, `boundaries[i-1] <= x < boundaries[i]`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let b = Tensor::from([1, 3, 5, 7, 9]);
    /// assert_eq!(Tensor::from([3, 6, 9]).bucketize(&b, false).to_vec(), [1, 3, 4]);
    /// assert_eq!(Tensor::from([3, 6, 9]).bucketize(&b, true).to_vec(), [2, 3, 5]);
    /// ```
    pub fn bucketize<K: Dim>(
        &self,
        boundaries: &TensorBase<impl Data<Elem = D::Elem>, (K,)>,
        right: bool,
    ) -> Tensor<i64, S> {
        // A 1-D sequence never mismatches: the only error left is an allocation failure.
        boundaries.searchsorted(self, right)
    }
}

/// `bincount` (integer element types).
impl<D: Data, K: Dim> TensorBase<D, (K,)>
where
    D::Elem: IndexElem,
{
    /// The number of times each value `0..len` occurs in `self`, a 1-D tensor of non-negative
    /// integers (PyTorch `torch.bincount(self, minlength=minlength)`, NumPy `np.bincount`):
    /// `len = max(max(self) + 1, minlength)`, as `i64` counts.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([1u8, 1, 3, 0]);
    /// assert_eq!(x.bincount(0).to_vec(), [1, 2, 0, 1]);
    /// assert_eq!(x.bincount(6).to_vec(), [1, 2, 0, 1, 0, 0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the first negative entry; [`ShapeError::Alloc`] when the
    /// largest entry asks for more counts than memory holds.
    #[try_twin]
    pub fn try_bincount(&self, minlength: usize) -> Result<Tensor<i64, (Dyn,)>, ShapeError> {
        self.bincount_with(minlength, |_| 1i64)
    }
    /// [`try_bincount`](Self::try_bincount) adding `weights[i]` for entry `i` instead of 1
    /// (PyTorch `torch.bincount(self, weights, minlength)`); `weights` must have `self`'s length.
    /// The sums are accurate, as [`sum`](Self::sum)'s: Kahan-compensated for float weights (of
    /// the weights' type), exact for integer weights and returned as `i64`/`u64` (the weights'
    /// [`Num::Sum`]).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([0i64, 2, 2]);
    /// assert_eq!(x.bincount_weighted(&Tensor::from([0.5f64, 1.0, 0.25]), 0).to_vec(), [0.5, 0.0, 1.25]);
    /// ```
    ///
    /// # Errors
    /// As [`try_bincount`](Self::try_bincount), [`ShapeError::Mismatch`] when the lengths
    /// differ, and [`ShapeError::Invalid`] when an integer bin's sum does not fit 64 bits.
    #[try_twin]
    pub fn try_bincount_weighted<W: Num, K2: Dim>(
        &self,
        weights: &TensorBase<impl Data<Elem = W>, (K2,)>,
        minlength: usize,
    ) -> Result<Tensor<W::Sum, (Dyn,)>, ShapeError> {
        if weights.numel() != self.numel() {
            return Err(ShapeError::mismatch("bincount", "(one weight per entry)", self.sizes(), weights.sizes()));
        }
        let w = kernels::to_vec(weights.data.as_slice(), weights.layout())?;
        self.bincount_with(minlength, |i| w[i])
    }
    fn bincount_with<W: Num>(
        &self,
        minlength: usize,
        weight: impl Fn(usize) -> W,
    ) -> Result<Tensor<W::Sum, (Dyn,)>, ShapeError> {
        let x = kernels::to_vec(self.data.as_slice(), self.layout())?;
        let mut len = minlength;
        for &v in &x {
            let v = v.to_i128();
            if v < 0 {
                return Err(ShapeError::Invalid(format!("bincount: entry {v} is negative")));
            }
            // Entries past usize (or past memory) fail in the allocation below.
            len = len.max(usize::try_from(v).unwrap_or(usize::MAX).saturating_add(1));
        }
        let out = kernels::count::bincount(x.iter().map(|v| v.to_i128() as usize), len, weight)?;
        Tensor::try_from_vec(&[len], out)
    }
}

/// `histc` (float element types).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float + Num,
{
    /// A histogram of `self` in `bins` equal-width bins over `[min, max]` (PyTorch
    /// `torch.histc(self, bins, min, max)`): counts of `self`'s type, shape `[bins]`. With
    /// `min == max`, the range is that of the data (PyTorch's rule); elements outside the range
    /// and NaNs are not counted; `max` itself falls in the last bin.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([1.0f32, 2.0, 1.0, 4.0, 9.0]);
    /// assert_eq!(x.histc(4, 0.0, 4.0).to_vec(), [0.0, 2.0, 1.0, 1.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `bins` is 0, `min > max`, or a bound is not finite;
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_histc(&self, bins: usize, min: D::Elem, max: D::Elem) -> Result<Tensor<D::Elem, (Dyn,)>, ShapeError> {
        let x = kernels::to_vec(self.data.as_slice(), self.layout())?;
        let (mut lo, mut hi) = (min, max);
        if lo == hi && !x.is_empty() {
            let finite = x.iter().copied().filter(|v| !v.is_nan());
            lo = finite.clone().fold(D::Elem::infinity(), Float::min);
            hi = finite.fold(D::Elem::neg_infinity(), Float::max);
        }
        if lo == hi {
            // PyTorch widens an empty range by one on each side.
            lo = lo - <D::Elem as Element>::ONE;
            hi = hi + <D::Elem as Element>::ONE;
        }
        if bins == 0 || lo >= hi || !lo.is_finite() || !hi.is_finite() {
            return Err(ShapeError::Invalid(format!(
                "histc: {bins} bins over [{min:?}, {max:?}] (range [{lo:?}, {hi:?}])"
            )));
        }
        let out = kernels::count::histc(&x, bins, lo, hi)?;
        Tensor::try_from_vec(&[bins], out)
    }
}

/// The distinct elements of a tensor, their counts, and where each element went.
#[derive(Clone, Debug, PartialEq)]
pub struct Unique<T: Element, S: Shape> {
    /// The distinct elements in ascending order (PyTorch's order of `sort`), shape `[m]`.
    pub values: Tensor<T, (Dyn,)>,
    /// For each element of the input, the position of its value in `values`: the input's shape.
    pub inverse: Tensor<i64, S>,
    /// How many times each of `values` occurs, shape `[m]`.
    pub counts: Tensor<i64, (Dyn,)>,
}

/// `unique` (every numeric element type).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The distinct elements of `self`, sorted ascending, as a 1-D tensor (PyTorch
    /// `torch.unique(self, sorted=True)`, NumPy `np.unique`). `-0.0` and `0.0` are one value;
    /// each NaN is distinct from every other (PyTorch's rule: NumPy merges them).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([[3, 1, 3], [2, 1, 1]]);
    /// assert_eq!(x.unique().to_vec(), [1, 2, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_unique(&self) -> Result<Tensor<D::Elem, (Dyn,)>, ShapeError> {
        Ok(self.try_unique_all()?.values)
    }
    /// [`try_unique`](Self::try_unique) with the inverse and the counts (PyTorch
    /// `torch.unique(self, return_inverse=True, return_counts=True)`):
    /// `values.index_select(inverse)` rebuilds `self` (as a flat sequence).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([3.0f32, 1.0, 3.0, -0.0, 0.0]);
    /// let u = x.unique_all();
    /// assert_eq!(u.values.to_vec(), [-0.0, 1.0, 3.0]);
    /// assert_eq!(u.inverse.to_vec(), [2, 1, 2, 0, 0]);
    /// assert_eq!(u.counts.to_vec(), [2, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    #[allow(clippy::eq_op)] // `x != x`: NaN, for every element type
    #[try_twin]
    pub fn try_unique_all(&self) -> Result<Unique<D::Elem, S>, ShapeError> {
        let x = kernels::to_vec(self.data.as_slice(), self.layout())?;
        let flat = Tensor::<D::Elem, DynShape>::try_from_vec(&[x.len()], x)?;
        let order = flat.try_argsort(0, false)?;
        let (order, x) = (order.data.as_slice(), flat.data.as_slice());
        let (mut values, mut counts) = (Vec::new(), Vec::<i64>::new());
        let mut inverse = kernels::try_vec(x.len(), 0i64)?;
        for &i in order {
            let v = x[i as usize];
            let same = values
                .last()
                .is_some_and(|&u: &D::Elem| v == v && <D::Elem as Num>::sort_key(u) == <D::Elem as Num>::sort_key(v));
            if same {
                *counts.last_mut().expect("a value before") += 1;
            } else {
                values.try_reserve(1).map_err(|_| ShapeError::Alloc { count: values.len() + 1, elem_size: 8 })?;
                counts.try_reserve(1).map_err(|_| ShapeError::Alloc { count: counts.len() + 1, elem_size: 8 })?;
                values.push(v);
                counts.push(1);
            }
            inverse[i as usize] = values.len() as i64 - 1;
        }
        let m = values.len();
        Ok(Unique {
            values: Tensor::try_from_vec(&[m], values)?,
            inverse: Tensor::try_from_vec(self.sizes(), inverse)?,
            counts: Tensor::try_from_vec(&[m], counts)?,
        })
    }
}
