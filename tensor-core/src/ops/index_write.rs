//! Writes by index along one axis or at index-tensor coordinates: `index_put_` (index tensors
//! for the leading dims), `index_copy` and `index_fill` (a 1-D index along an axis, const or
//! run-time), and the shared checked walk of the `index_*` writes, which `index_add` in
//! `accumulate.rs` also takes. Every entry is checked before the first write.
use super::select::{axis_and_index_1d, axis_write};
use crate::element::ToIndex;
use crate::error::ShapeError;
use crate::index::IndexElem;
use crate::kernels;
use crate::layout::Layout;
use crate::num::Num;
use crate::shape::{HasAxis, SameRank, Shape, VectorShape};
use crate::storage::{Data, DataMut};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use shaped_macros::try_twin;

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

/// A layout reading one element at every coordinate of `l`'s sizes (stride 0 everywhere).
pub(super) fn all(l: &Layout) -> Result<Layout, ShapeError> {
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
    #[try_twin]
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

/// `index_copy` and `index_fill` (element types of every kind), and the shared walk of the
/// `index_*` writes.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Writes `source` into the slices of dim `axis` at the positions in the 1-D `index`
    /// through `f` (`index_add`, `index_copy`), after checking every shape and entry.
    pub(super) fn index_write(
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
        let (axis, li) = axis_and_index_1d(op, axis, self.rank(), index.layout())?;
        check_source(op, self.sizes(), source.sizes(), axis, li.numel())?;
        let ld = *self.layout();
        // Checked on the 1-D index first, so that an error names the entry's position in it
        // (negative entries are refused, as PyTorch's index_add_ and index_copy_ do).
        kernels::check_write_indices(index.data.as_slice(), &li, axis, ld.sizes()[axis])?;
        let li = along(&li, source.sizes(), axis)?;
        let (sd, ls) = (source.data.as_slice(), source.layout());
        kernels::scatter_with(self.data.as_mut_slice(), &ld, axis, index.data.as_slice(), &li, sd, ls, f)
    }

    axis_write! {
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
        /// fit; [`ShapeError::IndexEntry`] for an entry outside `0..n` (negative ones included, as
        /// PyTorch's `index_copy_`), naming its position. Every entry is checked before the first
        /// write: an error leaves `self` unchanged.
        #[try_twin(copy = "PyTorch `torch.index_copy(self, axis, index, source)`.")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `index_copy_(axis, &index, &source)`"
        )]
        fn try_index_copy_dyn_;
        /// The body of `try_index_copy_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn index_copy_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>,
            source: &TensorBase<_, impl Shape>) {
            self.index_write("index_copy", axis, index, source, |d, s| *d = s)
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
        #[try_twin(copy = "PyTorch `torch.index_fill(self, axis, index, value)`.")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `index_fill_(axis, &index, value)`"
        )]
        fn try_index_fill_dyn_;
        /// The body of `try_index_fill_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn index_fill_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>; value: D::Elem) {
            let (axis, _) = axis_and_index_1d("index_fill", axis, self.rank(), index.layout())?;
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
            kernels::scatter_with(self.data.as_mut_slice(), &ld, axis, &idx, &li, &value, &all(&li)?, |d, v| *d = v)
        }
    }
}

/// `index_copy` and `index_fill` with a const axis (checked at compile time for tuple shapes), in
/// place and as copies.
impl<D: Data, S: Shape> TensorBase<D, S> {
    axis_write! {
        /// Copies the slices of `source` into the slices of `axis` at the positions in the 1-D
        /// `index`, in place (PyTorch `index_copy_(axis, index, source)`): for `A = 0`,
        /// `self[index[i]] = source[i]`. `source` has `self`'s shape with dim `axis` replaced by the
        /// index's length `K`; the last write wins for a repeated entry. Shapes are unchanged.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{Ax, Shape, Tensor};
        /// let mut x: Tensor<i32, Shape![3, 2]> = Tensor::zeros();
        /// let src: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
        /// x.index_copy_(Ax::<0>, &Tensor::from([2i64, 0]), &src);
        /// assert_eq!(x.to_vec(), [3, 4, 0, 0, 1, 2]);
        /// ```
        ///
        /// # Errors
        /// As [`try_index_copy_dyn_`](Self::try_index_copy_dyn_), the axis checked at compile time
        /// for tuple shapes. An error leaves `self` unchanged.
        #[try_twin(
            doc = "PyTorch `index_copy_(A, index, source)`.",
            copy = "PyTorch `torch.index_copy(self, A, index, source)`."
        )]
        fn try_index_copy_(&mut self, axis, index: &TensorBase<_, impl VectorShape>,
            source: &TensorBase<_, impl SameRank<S>>) => index_copy_at;
        /// Sets the slices of `axis` at the positions in the 1-D `index` to `value`, in place
        /// (PyTorch `index_fill_(axis, index, value)`): for `A = 1`, `self[:, index[i]] = value`.
        /// Shapes are unchanged.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{Ax, Shape, Tensor};
        /// let mut x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
        /// x.index_fill_(Ax::<1>, &Tensor::from([0i64, 2]), -1);
        /// assert_eq!(x.to_vec(), [-1, 2, -1, -1, 5, -1]);
        /// ```
        ///
        /// # Errors
        /// As [`try_index_fill_dyn_`](Self::try_index_fill_dyn_), the axis checked at compile time
        /// for tuple shapes. An error leaves `self` unchanged.
        #[try_twin(
            doc = "PyTorch `index_fill_(A, index, value)`.",
            copy = "PyTorch `torch.index_fill(self, A, index, value)`."
        )]
        fn try_index_fill_(&mut self, axis, index: &TensorBase<_, impl VectorShape>; value: D::Elem) => index_fill_at;
    }
}
