//! Copies that grow an axis: padding, as PyTorch's `torch.nn.functional.pad` and NumPy's
//! `np.pad` (`pad::<A, L, R>` along one axis with a typed result, `[N]` padded by `(1, 2)` is
//! `[N + 3]` when `N` is static, and `pad_dyn`, PyTorch's flat list of pads for the trailing
//! dims), and repetition, as PyTorch's `repeat` (NumPy's `tile`) and `repeat_interleave`
//! (NumPy's `repeat`).
//!
//! Each reads every output position along the grown axis from one input position: a table of
//! indices gathered by the `index_select` kernel, whole runs at a time when the trailing dims are
//! contiguous. Constant padding fills and copies the input into the middle.
use crate::dim::{Const, Dim};
use crate::element::ToIndex;
use crate::error::{OrPanic, ShapeError};
use crate::index::IndexElem;
use crate::kernels;
use crate::layout::{normalize_axis, Layout};
use crate::shape::{DynShape, PadAxis, RepeatAxis, Shape};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// How [`pad`](TensorBase::pad) fills the new positions: PyTorch's `mode` of
/// `torch.nn.functional.pad` (NumPy's `np.pad` modes in brackets). For an axis `[a, b, c]`
/// padded by 2 on each side:
///
/// | mode | result |
/// |---|---|
/// | `Constant` (`constant`) | `[v, v, a, b, c, v, v]` |
/// | `Reflect` (`reflect`) | `[c, b, a, b, c, b, a]` |
/// | `Replicate` (`edge`) | `[a, a, a, b, c, c, c]` |
/// | `Circular` (`wrap`) | `[b, c, a, b, c, a, b]` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PadMode {
    /// The given value.
    Constant,
    /// The mirror image without the edge element: each pad must be smaller than the dim.
    Reflect,
    /// The edge element repeated: the dim must not be empty when a pad is not zero.
    Replicate,
    /// The dim repeated periodically: each pad at most the dim (PyTorch's limit).
    Circular,
}

/// The input position read by output position `k` of an axis of `n` padded by `left`, for the
/// non-constant modes (`n` checked against the pads beforehand).
pub(crate) fn source(k: usize, n: usize, left: usize, mode: PadMode) -> i64 {
    let (k, n, left) = (k as i64, n as i64, left as i64);
    let i = k - left;
    match mode {
        PadMode::Reflect => {
            // Reflection without repeating the edge: period 2(n - 1); pads below n need one fold.
            if i < 0 {
                -i
            } else if i >= n {
                2 * (n - 1) - i
            } else {
                i
            }
        }
        PadMode::Replicate => i.clamp(0, n - 1),
        PadMode::Circular | PadMode::Constant => i.rem_euclid(n),
    }
}

/// `src` (layout `l`) padded along `axis` by `left` and `right`, into a new row-major buffer.
fn pad_rt<T: Element>(
    src: &[T],
    l: &Layout,
    axis: usize,
    (left, right): (usize, usize),
    mode: PadMode,
    value: T,
) -> Result<(Vec<T>, Layout), ShapeError> {
    let n = l.sizes()[axis];
    let sizes = l.sizes();
    let total = n.checked_add(left).and_then(|m| m.checked_add(right));
    let Some(total) = total else {
        return Err(ShapeError::Overflow { sizes: sizes.into() });
    };
    let mut out = sizes.to_vec();
    out[axis] = total;
    let ol = Layout::contiguous(&out)?;
    let bad = match mode {
        PadMode::Constant => None,
        PadMode::Reflect if left >= n || right >= n => Some("each pad smaller than the size"),
        PadMode::Replicate if n == 0 && left + right > 0 => Some("a non-empty dimension"),
        PadMode::Circular if left > n || right > n => Some("each pad at most the size"),
        _ => None,
    };
    if let Some(need) = bad {
        return Err(ShapeError::Invalid(format!(
            "pad: {mode:?} padding ({left}, {right}) of dimension {axis} (size {n}, shape {sizes:?}) needs {need}"
        )));
    }
    if mode == PadMode::Constant || n == 0 {
        let mut data = kernels::try_vec(ol.numel(), value)?;
        let middle = ol.narrow(axis, left as isize, n)?;
        kernels::zip_assign(&mut data, &middle, src, l, |d, s| *d = s);
        return Ok((data, ol));
    }
    along(src, l, axis, total, |k| source(k, n, left, mode))
}

/// `src` (layout `l`) with `len` positions along `axis`, position `k` a copy of input position
/// `from(k)` (in range: the callers' tables are), into a new row-major buffer.
fn along<T: Element>(
    src: &[T],
    l: &Layout,
    axis: usize,
    len: usize,
    from: impl Fn(usize) -> i64,
) -> Result<(Vec<T>, Layout), ShapeError> {
    let mut out = l.sizes().to_vec();
    out[axis] = len;
    let ol = Layout::contiguous(&out)?;
    let mut table = kernels::try_with_capacity(len)?;
    table.extend((0..len).map(from));
    let lt = Layout::contiguous(&[len])?;
    let data = kernels::index_select(src, l, axis, &table, &lt, &ol)?;
    Ok((data, ol))
}

/// `src` (layout `l`) through `steps` copies in turn, step `k` reading the result of the ones
/// before it (`None`: nothing to do), as a new row-major tensor; a plain copy when no step
/// copies.
fn chain<T: Element>(
    src: &[T],
    l: &Layout,
    steps: usize,
    mut step: impl FnMut(usize, &[T], &Layout) -> Result<Option<(Vec<T>, Layout)>, ShapeError>,
) -> Result<Tensor<T, DynShape>, ShapeError> {
    let mut cur: Option<(Vec<T>, Layout)> = None;
    for k in 0..steps {
        let next = match &cur {
            Some((d, lc)) => step(k, d, lc)?,
            None => step(k, src, l)?,
        };
        if next.is_some() {
            cur = next;
        }
    }
    let (data, l) = match cur {
        Some(done) => done,
        None => (kernels::to_vec(src, l)?, Layout::contiguous(l.sizes())?),
    };
    Ok(TensorBase::from_parts(data, l))
}

/// `n * k` as a size, or the overflow error naming `sizes`.
fn times(n: usize, k: usize, sizes: &[usize]) -> Result<usize, ShapeError> {
    n.checked_mul(k).ok_or_else(|| ShapeError::Overflow { sizes: sizes.into() })
}

/// `src` tiled `k` times along `axis` (PyTorch `repeat` on one axis).
fn tile_rt<T: Element>(src: &[T], l: &Layout, axis: usize, k: usize) -> Result<(Vec<T>, Layout), ShapeError> {
    let n = l.sizes()[axis];
    along(src, l, axis, times(n, k, l.sizes())?, |p| (p % n) as i64)
}

/// Each element of `src` along `axis` repeated `k` times in place (PyTorch `repeat_interleave`).
fn interleave_rt<T: Element>(src: &[T], l: &Layout, axis: usize, k: usize) -> Result<(Vec<T>, Layout), ShapeError> {
    let n = l.sizes()[axis];
    along(src, l, axis, times(n, k, l.sizes())?, |p| (p / k) as i64)
}

/// Padding (element types of every kind).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// `self` padded along `axis` by `L` elements before and `R` after (`pads = (Const::<L>,
    /// Const::<R>)`), filled as `mode` says (`value` is used by [`PadMode::Constant`] only):
    /// PyTorch `F.pad(x, (L, R), mode, value)` on the last axis, NumPy `np.pad` on any. Shape
    /// `S` with that dim grown by `L + R`: static when it was (`[N]` padded by `(1, 2)` is
    /// `[N + 3]`, a compile-time sum up to 1024), `Dyn` when it was `Dyn` (every dim for an
    /// `isize` axis; a name becomes `Dyn`, a new size). A copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Const, PadMode, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// let y: Tensor<i32, Shape![2, 6]> = x.pad((Const::<1>, Const::<2>), Ax::<1>, PadMode::Reflect, 0);
    /// assert_eq!(y.to_vec(), [2, 1, 2, 3, 2, 1, 5, 4, 5, 6, 5, 4]);
    /// let z: Tensor<i32, Shape![3, 3]> = x.pad((Const::<0>, Const::<1>), Ax::<0>, PadMode::Constant, -1);
    /// assert_eq!(z.to_vec(), [1, 2, 3, 4, 5, 6, -1, -1, -1]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the pads and the size when `mode` cannot pad that much
    /// (see [`PadMode`]); [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor,
    /// whose rank has no such axis; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_pad<const L: usize, const R: usize, X, M, Y: Shape>(
        &self,
        pads: (Const<L>, Const<R>),
        axis: X,
        mode: PadMode,
        value: D::Elem,
    ) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: PadAxis<X, M, L, R, Out = Y>,
    {
        let _ = pads;
        let axis = normalize_axis(<S as PadAxis<X, M, L, R>>::axis_index(&axis), self.rank())?;
        let (data, l) = pad_rt(self.data.as_slice(), self.layout(), axis, (L, R), mode, value)?;
        Ok(TensorBase::from_parts(data, l))
    }

    /// `self` padded as PyTorch's `F.pad(x, pads, mode, value)`: `pads` lists (before, after)
    /// pairs for the last dim first, then the one before it, ..., so `&[1, 1, 2, 0]` pads the
    /// last dim by 1 on each side and the one before by 2 in front. At most `rank` pairs; the
    /// modes of [`PadMode`] apply to each padded dim. A [`DynShape`] result (use
    /// [`pad`](Self::pad) for a typed one).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{PadMode, Tensor};
    /// let x = Tensor::from([[1.0f32, 2.0], [3.0, 4.0]]);
    /// let y = x.pad_dyn(&[1, 0, 0, 1], PadMode::Replicate, 0.0);
    /// assert_eq!(y.sizes(), &[3, 3]);
    /// assert_eq!(y.to_vec(), [1.0, 1.0, 2.0, 3.0, 3.0, 4.0, 3.0, 3.0, 4.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `pads` has an odd length or more than `rank` pairs, or a mode
    /// cannot pad a dim that much; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_pad_dyn(
        &self,
        pads: &[usize],
        mode: PadMode,
        value: D::Elem,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let rank = self.rank();
        if !pads.len().is_multiple_of(2) || pads.len() / 2 > rank {
            return Err(ShapeError::Invalid(format!(
                "pad: {} pads for a tensor of rank {rank} (shape {:?}); give (before, after) pairs for at most {rank} trailing dims",
                pads.len(),
                self.sizes()
            )));
        }
        chain(self.data.as_slice(), self.layout(), pads.len() / 2, |k, src, l| {
            let (axis, pair) = (rank - 1 - k, &pads[2 * k..2 * k + 2]);
            pad_rt(src, l, axis, (pair[0], pair[1]), mode, value).map(Some)
        })
    }

    /// `self` repeated `K` times along `axis`, whole (PyTorch `repeat` with `K` at `axis` and 1
    /// elsewhere; NumPy `np.tile`): `[a, b]` gives `[a, b, a, b]` for `Const::<2>`. Shape `S`
    /// with that dim multiplied by `K`: static when it was (a compile-time product up to 1024),
    /// `Dyn` when it was `Dyn` (every dim for an `isize` axis; a name becomes `Dyn`). A copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Const, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
    /// let y: Tensor<i32, Shape![2, 6]> = x.repeat(Const::<3>, Ax::<1>);
    /// assert_eq!(y.to_vec(), [1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such
    /// axis; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[doc(alias = "tile")]
    #[try_twin(alias = "tile")]
    pub fn try_repeat<const K: usize, X, M, Y: Shape>(
        &self,
        k: Const<K>,
        axis: X,
    ) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: RepeatAxis<X, M, K, Out = Y>,
    {
        let _ = k;
        let axis = normalize_axis(<S as RepeatAxis<X, M, K>>::axis_index(&axis), self.rank())?;
        let (data, l) = tile_rt(self.data.as_slice(), self.layout(), axis, K)?;
        Ok(TensorBase::from_parts(data, l))
    }

    /// `self` repeated as PyTorch's `x.repeat(*reps)` (NumPy `np.tile(x, reps)`): `reps` has one
    /// count per dim, or more, in which case `self` first gains leading size-1 dims; dim `d` of
    /// the result is `reps[d]` times the (aligned) size. A [`DynShape`] result (use
    /// [`repeat`](Self::repeat) for a typed one).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([1, 2]);
    /// let y = x.repeat_dyn(&[2, 2]);
    /// assert_eq!(y.sizes(), &[2, 4]);
    /// assert_eq!(y.to_vec(), [1, 2, 1, 2, 1, 2, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `reps` has fewer entries than the rank, or naming a count
    /// whose product with its dim overflows `usize`; [`ShapeError::RankTooLarge`];
    /// [`ShapeError::Overflow`] naming the result's sizes when its element count overflows
    /// `isize` (checked before anything is allocated); [`ShapeError::Alloc`].
    #[doc(alias = "tile")]
    #[try_twin(alias = "tile")]
    pub fn try_repeat_dyn(&self, reps: &[usize]) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let rank = self.rank();
        if reps.len() < rank {
            return Err(ShapeError::Invalid(format!(
                "repeat: {} counts for a tensor of rank {rank} (shape {:?}); give at least one per dim",
                reps.len(),
                self.sizes()
            )));
        }
        let mut l = *self.layout();
        while l.rank() < reps.len() {
            l = l.unsqueeze(0)?;
        }
        // The result's sizes, checked before anything is allocated (the per-axis copies below
        // would otherwise run out of memory for an index table of an intermediate result first:
        // `[1 << 31, 1 << 31]` on a 2x2 is a 2^64-element overflow).
        let mut out = l.sizes().to_vec();
        for (d, (o, &k)) in out.iter_mut().zip(reps).enumerate() {
            *o = o.checked_mul(k).ok_or_else(|| {
                ShapeError::Invalid(format!(
                    "repeat: count {k} for dimension {d} of size {o} (shape {:?}, counts {reps:?}) overflows usize",
                    self.sizes()
                ))
            })?;
        }
        Layout::contiguous(&out)?;
        // A count of 1 copies nothing new: skipped (`chain` copies once if every count is 1).
        chain(self.data.as_slice(), &l, reps.len(), |axis, src, lc| match reps[axis] {
            1 => Ok(None),
            k => tile_rt(src, lc, axis, k).map(Some),
        })
    }

    /// Each element along `axis` repeated `K` times in place (PyTorch
    /// `repeat_interleave(K, dim=axis)`; NumPy `np.repeat`): `[a, b]` gives `[a, a, b, b]` for
    /// `Const::<2>`. Shape `S` with that dim multiplied by `K`, as [`repeat`](Self::repeat). A
    /// copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Const, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
    /// let y: Tensor<i32, Shape![4, 2]> = x.repeat_interleave(Const::<2>, Ax::<0>);
    /// assert_eq!(y.to_vec(), [1, 2, 1, 2, 3, 4, 3, 4]);
    /// ```
    ///
    /// # Errors
    /// As [`try_repeat`](Self::try_repeat).
    #[try_twin]
    pub fn try_repeat_interleave<const K: usize, X, M, Y: Shape>(
        &self,
        repeats: Const<K>,
        axis: X,
    ) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: RepeatAxis<X, M, K, Out = Y>,
    {
        let _ = repeats;
        let axis = normalize_axis(<S as RepeatAxis<X, M, K>>::axis_index(&axis), self.rank())?;
        let (data, l) = interleave_rt(self.data.as_slice(), self.layout(), axis, K)?;
        Ok(TensorBase::from_parts(data, l))
    }

    /// Element `i` along `axis` repeated `counts[i]` times (PyTorch
    /// `repeat_interleave(counts, dim=axis)`; NumPy `np.repeat(x, counts, axis)`): dim `axis`
    /// becomes the sum of the counts. A [`DynShape`] result. Negative `axis` counts from the
    /// end.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([[1, 2], [3, 4]]);
    /// let y = x.repeat_interleave_counts(&Tensor::from([1i64, 3]), 0);
    /// assert_eq!(y.sizes(), &[4, 2]);
    /// assert_eq!(y.to_vec(), [1, 2, 3, 4, 3, 4, 3, 4]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when the number of counts is not the size of dim `axis`;
    /// [`ShapeError::Invalid`] for a negative count, or naming the first count with which the
    /// result's element count overflows `isize`, and its position; [`ShapeError::Axis`];
    /// [`ShapeError::Alloc`].
    pub fn try_repeat_interleave_counts<K: Dim>(
        &self,
        counts: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        axis: isize,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        if counts.numel() != n {
            return Err(ShapeError::Mismatch {
                op: "repeat_interleave",
                what: format!("(one count per element of dimension {ax})"),
                lhs: self.sizes().into(),
                rhs: counts.sizes().into(),
            });
        }
        let c = kernels::to_vec(counts.data.as_slice(), counts.layout())?;
        let mut table: Vec<i64> = Vec::new();
        let mut total = 0usize;
        let mut out = self.sizes().to_vec();
        for (i, &k) in c.iter().enumerate() {
            let k = usize::try_from(k.to_i128()).map_err(|_| {
                ShapeError::Invalid(format!("repeat_interleave: count {} at position {i} is negative", k.to_i128()))
            })?;
            // The first count past what the result can hold is named (an error naming the
            // input's shape did not say which count).
            let sum = total as u128 + k as u128;
            let overflow = || {
                ShapeError::Invalid(format!(
                    "repeat_interleave: count {k} at position {i} overflows the result: dimension {ax} of {:?} would \
                     hold {sum} elements",
                    self.sizes()
                ))
            };
            total = total.checked_add(k).ok_or_else(overflow)?;
            out[ax] = total;
            Layout::contiguous(&out).map_err(|_| overflow())?;
        }
        // The table holds one entry per output position: allocate it fallibly before filling.
        table.try_reserve_exact(total).map_err(|_| ShapeError::Alloc { count: total, elem_size: 8 })?;
        for (i, &k) in c.iter().enumerate() {
            table.extend(core::iter::repeat_n(i as i64, k.to_i128() as usize));
        }
        let (data, l) = along(self.data.as_slice(), self.layout(), ax, total, |p| table[p])?;
        Ok(TensorBase::from_parts(data, l))
    }
    /// [`try_repeat_interleave_counts`](Self::try_repeat_interleave_counts), panicking with the
    /// error's message.
    ///
    /// # Panics
    /// As the errors of [`try_repeat_interleave_counts`](Self::try_repeat_interleave_counts).
    #[track_caller]
    pub fn repeat_interleave_counts<K: Dim>(
        &self,
        counts: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
        axis: isize,
    ) -> Tensor<D::Elem, DynShape> {
        self.try_repeat_interleave_counts(counts, axis).or_panic()
    }
}

/// `repeat_interleave` with one count for every element: a runtime axis, or none (flattened).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Each element along a runtime `axis` (negative counts from the end) repeated `count` times
    /// in place (PyTorch `torch.repeat_interleave(x, count, dim=axis)`; NumPy
    /// `np.repeat(x, count, axis)`): dim `axis` multiplied by `count`, a [`DynShape`] result (use
    /// [`repeat_interleave`](Self::repeat_interleave) for a typed one). `count = 0` empties the
    /// dim. A copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let x: Tensor<i32, DynShape> = Tensor::from([[1, 2], [3, 4]]).into_dyn();
    /// let y = x.repeat_interleave_dyn(2, -1);
    /// assert_eq!((y.sizes(), y.to_vec()), (&[2, 4][..], vec![1, 1, 2, 2, 3, 3, 4, 4]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] naming the axis and the rank for an axis outside `-rank..rank`;
    /// [`ShapeError::Overflow`] when the new size passes `usize`; [`ShapeError::Alloc`].
    pub fn try_repeat_interleave_dyn(
        &self,
        count: usize,
        axis: isize,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let axis = normalize_axis(axis, self.rank())?;
        let (data, l) = interleave_rt(self.data.as_slice(), self.layout(), axis, count)?;
        Ok(TensorBase::from_parts(data, l))
    }
    /// [`try_repeat_interleave_dyn`](Self::try_repeat_interleave_dyn), panicking with the
    /// error's message.
    ///
    /// # Panics
    /// As the errors of [`try_repeat_interleave_dyn`](Self::try_repeat_interleave_dyn).
    #[track_caller]
    pub fn repeat_interleave_dyn(&self, count: usize, axis: isize) -> Tensor<D::Elem, DynShape> {
        self.try_repeat_interleave_dyn(count, axis).or_panic()
    }

    /// Each element of the flattened tensor (row-major) repeated `count` times (PyTorch
    /// `torch.repeat_interleave(x, count)` without `dim`; NumPy `np.repeat(x, count)`): a 1-D
    /// [`DynShape`] result of `numel * count` elements. A rank-0 tensor counts as one element.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
    /// let y = x.repeat_interleave_flat(2);
    /// assert_eq!((y.sizes(), y.to_vec()), (&[8][..], vec![1, 1, 2, 2, 3, 3, 4, 4]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Overflow`] when `numel * count` passes `usize`; [`ShapeError::Alloc`].
    pub fn try_repeat_interleave_flat(&self, count: usize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let vals = match kernels::contiguous_slice(self.data.as_slice(), self.layout()) {
            Some(v) => alloc::borrow::Cow::Borrowed(v),
            None => alloc::borrow::Cow::Owned(kernels::to_vec(self.data.as_slice(), self.layout())?),
        };
        let (data, l) = interleave_rt(&vals, &Layout::contiguous(&[self.numel()])?, 0, count)?;
        Ok(TensorBase::from_parts(data, l))
    }
    /// [`try_repeat_interleave_flat`](Self::try_repeat_interleave_flat), panicking with the
    /// error's message.
    ///
    /// # Panics
    /// As the errors of [`try_repeat_interleave_flat`](Self::try_repeat_interleave_flat).
    #[track_caller]
    pub fn repeat_interleave_flat(&self, count: usize) -> Tensor<D::Elem, DynShape> {
        self.try_repeat_interleave_flat(count).or_panic()
    }

    /// Element `i` of the flattened tensor (row-major) repeated `counts[i]` times (PyTorch
    /// `torch.repeat_interleave(x, counts)` without `dim`; NumPy `np.repeat(x, counts)`): a 1-D
    /// [`DynShape`] result whose length is the sum of the counts.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::Tensor;
    /// let x = Tensor::from([[1, 2], [3, 4]]);
    /// let y = x.repeat_interleave_counts_flat(&Tensor::from([0i64, 2, 1, 0]));
    /// assert_eq!(y.to_vec(), [2, 2, 3]);
    /// ```
    ///
    /// # Errors
    /// As [`try_repeat_interleave_counts`](Self::try_repeat_interleave_counts) over the
    /// flattened tensor: [`ShapeError::Mismatch`] when there is not one count per element.
    pub fn try_repeat_interleave_counts_flat<K: Dim>(
        &self,
        counts: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let vals = match kernels::contiguous_slice(self.data.as_slice(), self.layout()) {
            Some(v) => alloc::borrow::Cow::Borrowed(v),
            None => alloc::borrow::Cow::Owned(kernels::to_vec(self.data.as_slice(), self.layout())?),
        };
        let flat: TensorBase<&[D::Elem], DynShape> =
            TensorBase::from_parts(&*vals, Layout::contiguous(&[self.numel()])?);
        flat.try_repeat_interleave_counts(counts, 0)
    }
    /// [`try_repeat_interleave_counts_flat`](Self::try_repeat_interleave_counts_flat),
    /// panicking with the error's message.
    ///
    /// # Panics
    /// As the errors of [`try_repeat_interleave_counts_flat`](Self::try_repeat_interleave_counts_flat).
    #[track_caller]
    pub fn repeat_interleave_counts_flat<K: Dim>(
        &self,
        counts: &TensorBase<impl Data<Elem: IndexElem>, (K,)>,
    ) -> Tensor<D::Elem, DynShape> {
        self.try_repeat_interleave_counts_flat(counts).or_panic()
    }
}
