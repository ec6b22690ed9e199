//! Operations along one axis that keep the shape: `cumsum`, `cumprod`, `logcumsumexp`,
//! `softmax`, `log_softmax`, `cummax`/`cummin`, `roll`, `tril`/`triu`; and `diff`/`trapezoid`.
//! The axis is a const parameter checked at compile time for tuple shapes (`cumsum::<1>()`), or
//! a runtime value (`cumsum_dyn(1)`); either way the result has the input's shape type. Sorting
//! and the order statistics (`sort`, `topk`, `kthvalue`, `median`, `quantile`) are in `order.rs`.
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::kernels::{self, scan};
use crate::layout::normalize_axis;
use crate::layout::{Layout, LayoutRepr};
use crate::num::Num;
use crate::shape::{DynShape, ReplaceAxis};
use crate::shape::{HasAxis, Shape};
use crate::storage::{Data, DataMut, Element, Out, OutData};
use crate::tensor::OutTensor;
use crate::tensor::{Tensor, TensorBase};
use num_traits::Float;
use shaped_macros::try_twin;

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The lines along axis `ax` (normalised) as contiguous rows, axis `ax` moved last: the
    /// storage itself when those rows are already contiguous, a copy otherwise.
    pub(crate) fn lines_last(&self, ax: usize) -> Result<alloc::borrow::Cow<'_, [D::Elem]>, ShapeError> {
        let moved = self.layout().movedim(ax, self.rank() - 1)?;
        Ok(match kernels::contiguous_slice(self.data.as_slice(), &moved) {
            Some(s) => alloc::borrow::Cow::Borrowed(s),
            None => alloc::borrow::Cow::Owned(kernels::to_vec(self.data.as_slice(), &moved)?),
        })
    }

    /// A new tensor of `self`'s shape (row-major, inline for an inline input) written by the
    /// per-line kernel `k` along `axis`.
    pub(super) fn per_line<U: Element>(
        &self,
        axis: isize,
        k: impl FnOnce(&mut [U], &[D::Elem], &Layout, usize) -> Result<(), ShapeError>,
    ) -> Result<OutTensor<D, U, S>, ShapeError> {
        self.per_line_into(axis, <Out<D, U, S>>::zeroed, k)
    }

    /// [`per_line`](Self::per_line) for a kernel `k` that writes every element of its output
    /// (softmax, the cumulative scans): the result's buffer may be a freed one with its old
    /// values, not zero-filled first (`storage::for_overwrite`).
    pub(super) fn per_line_overwriting<U: Element>(
        &self,
        axis: isize,
        k: impl FnOnce(&mut [U], &[D::Elem], &Layout, usize) -> Result<(), ShapeError>,
    ) -> Result<OutTensor<D, U, S>, ShapeError> {
        self.per_line_into(axis, crate::storage::for_overwrite::<U, Out<D, U, S>>, k)
    }

    /// [`per_line`](Self::per_line) into a buffer from `new`.
    fn per_line_into<U: Element>(
        &self,
        axis: isize,
        new: fn(usize) -> Result<Out<D, U, S>, ShapeError>,
        k: impl FnOnce(&mut [U], &[D::Elem], &Layout, usize) -> Result<(), ShapeError>,
    ) -> Result<OutTensor<D, U, S>, ShapeError> {
        let axis = normalize_axis(axis, self.rank())?;
        let lay = LayoutRepr::try_from_layout::<S>(Layout::contiguous(self.sizes())?)?;
        let mut out = new(self.numel())?;
        k(out.as_mut_slice(), self.data.as_slice(), self.layout(), axis)?;
        Ok(TensorBase::from_lay(out, lay))
    }

    fn cumsum_rt(&self, axis: isize) -> Result<OutTensor<D, <D::Elem as Num>::Sum, S>, ShapeError>
    where
        D::Elem: Num,
    {
        self.per_line_overwriting(axis, scan::cumsum)
    }

    fn cumprod_rt(&self, axis: isize) -> Result<OutTensor<D, <D::Elem as Num>::Sum, S>, ShapeError>
    where
        D::Elem: Num,
    {
        self.per_line_overwriting(axis, scan::cumprod)
    }

    fn logcumsumexp_rt(&self, axis: isize) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        D::Elem: Float + Num,
    {
        self.per_line_overwriting(axis, scan::logcumsumexp)
    }

    /// The running extreme's positions and values (see `scan::cum_extreme_idx`).
    #[allow(clippy::type_complexity)]
    fn cum_extreme_rt<const MAX: bool>(
        &self,
        axis: isize,
    ) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError>
    where
        D::Elem: Num,
    {
        let idx = self.per_line(axis, scan::cum_extreme_idx::<D::Elem, MAX>)?;
        let values = self.per_line(axis, |o, s, l, a| scan::take_lines(o, s, l, a, idx.data.as_slice()))?;
        Ok((values, idx))
    }

    fn softmax_rt(&self, axis: isize, log: bool) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        D::Elem: Float + Num<Sum = D::Elem>,
    {
        self.per_line_overwriting(axis, |o, s, l, a| scan::softmax(o, s, l, a, log))
    }
}

/// The forms of each entry of the scan table ([`scans!`]): static axis and runtime axis, each
/// with its `try_` form; same shape.
macro_rules! along_axis {
    (table $d:tt $($entries:tt)*) => {
        along_axis! { $($entries)* }
        /// The scan table, handed to `$cb!` (see `along_axis!`'s invocation).
        macro_rules! scans {
            ($d cb:ident) => {
                $d cb! { $($entries)* }
            };
        }
        pub(crate) use scans;
    };
    ($($doc:literal, $torch:literal, $out:ty, [$($bound:tt)*], |$s:ident, $ax:ident| $run:expr,
     $m:ident $try_m:ident $dy:ident $try_dy:ident => |$($gp:ident),*| $grad:expr;)*) => {$(
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            $($bound)*
        {
            #[doc = concat!($doc, " along `axis` (PyTorch `", $torch, "(dim=axis)`): same shape. The axis is an [`AxisArg`](crate::shape::AxisArg): `Ax::<1>` (checked at compile time for tuple shapes), an `isize` (checked at run time; negatives count from the end) or a dim name of the shape.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Axis`] for an axis out of range at run time; an integer result past 64 bits; [`ShapeError::Alloc`]."]
            pub fn $try_m<X, M>(&self, axis: X) -> Result<OutTensor<D, $out, S>, ShapeError>
            where
                S: HasAxis<X, M>,
            {
                let ($s, $ax) = (self, S::axis_index(&axis));
                $run
            }
            #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
            #[track_caller]
            pub fn $m<X, M>(&self, axis: X) -> OutTensor<D, $out, S>
            where
                S: HasAxis<X, M>,
            {
                self.$try_m(axis).or_panic()
            }
            #[doc = concat!($doc, " along a runtime axis (negative counts from the end; PyTorch `", $torch, "(dim=axis)`): same shape.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Axis`]; an integer result past 64 bits; [`ShapeError::Alloc`]."]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $try_dy(&self, axis: isize) -> Result<OutTensor<D, $out, S>, ShapeError> {
                let ($s, $ax) = (self, axis);
                $run
            }
            #[doc = concat!("[`", stringify!($try_dy), "`](Self::", stringify!($try_dy), "), panicking with the error's message.")]
            #[track_caller]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $dy(&self, axis: isize) -> OutTensor<D, $out, S> {
                self.$try_dy(axis).or_panic()
            }
        }
    )*};
}

// The scan table: functions along one axis that keep the shape. Each entry is `"what",
// "PyTorch name", output element, [element bound], |tensor, axis| how the tensor form computes
// it, its four method names => |var, output, axis| its backward rule`. `along_axis!` writes the
// tensor forms from it and defines `scans!`, which hands the table to `autograd/ops/reduce.rs`'s
// writer of `Var`'s forms (`scans!(var_scan)`), so that one entry gives both.
along_axis! { table $
            "Cumulative sum (exact for integers, as `i64`/`u64`; Kahan-compensated for floats)", "cumsum",
                <D::Elem as Num>::Sum, [D::Elem: Num], |s, a| s.cumsum_rt(a), cumsum try_cumsum cumsum_dyn try_cumsum_dyn
                => |v, y, a| v.cumsum_rule(y, a);
            "Cumulative product (checked for integers, as `i64`/`u64`)", "cumprod",
                <D::Elem as Num>::Sum, [D::Elem: Num], |s, a| s.cumprod_rt(a), cumprod try_cumprod cumprod_dyn try_cumprod_dyn
                => |v, y, a| v.cumprod_rule(y, a);
            "Softmax `exp(x) / sum(exp(x))`, computed stably (shifted by the line's maximum)", "softmax",
                D::Elem, [D::Elem: Float + Num<Sum = D::Elem>], |s, a| s.softmax_rt(a, false), softmax try_softmax softmax_dyn try_softmax_dyn
                => |v, y, a| v.softmax_rule(y, a, false);
            "Cumulative `log(sum(exp(x)))`, computed stably as a running `logaddexp`", "logcumsumexp",
                D::Elem, [D::Elem: Float + Num], |s, a| s.logcumsumexp_rt(a), logcumsumexp try_logcumsumexp logcumsumexp_dyn try_logcumsumexp_dyn
                => |v, y, a| v.logcumsumexp_rule(y, a);
            "Log-softmax `x - logsumexp(x)`, computed stably", "log_softmax",
                D::Elem, [D::Elem: Float + Num<Sum = D::Elem>], |s, a| s.softmax_rt(a, true), log_softmax try_log_softmax log_softmax_dyn try_log_softmax_dyn
                => |v, y, a| v.softmax_rule(y, a, true);
}

/// `(values, indices)` forms along an axis that keep the shape: `cummax`, `cummin`.
macro_rules! cum_extreme {
    ($max:literal, $what:literal, $torch:literal, $m:ident, $try_m:ident, $dy:ident, $try_dy:ident) => {
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: Num,
        {
            #[doc = concat!("The running ", $what, " along `axis` and its `i64` position (PyTorch `", $torch, "(dim=axis)`): `(values, indices)` of `self`'s shape. Among equal values the latest position; once a NaN is met the values are NaN at the position of that first NaN. The axis is an [`AxisArg`](crate::shape::AxisArg): `Ax::<1>`, an `isize` or a dim name.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Axis`] for an axis out of range at run time; [`ShapeError::Alloc`]."]
            #[allow(clippy::type_complexity)]
            pub fn $try_m<X, M>(&self, axis: X) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError>
            where
                S: HasAxis<X, M>,
            {
                self.cum_extreme_rt::<$max>(S::axis_index(&axis))
            }
            #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
            #[track_caller]
            pub fn $m<X, M>(&self, axis: X) -> (OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>)
            where
                S: HasAxis<X, M>,
            {
                self.$try_m(axis).or_panic()
            }
            #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), ") along a runtime axis (negative counts from the end).")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Axis`]; [`ShapeError::Alloc`]."]
            #[allow(clippy::type_complexity)]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $try_dy(&self, axis: isize) -> Result<(OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>), ShapeError> {
                self.cum_extreme_rt::<$max>(axis)
            }
            #[doc = concat!("[`", stringify!($try_dy), "`](Self::", stringify!($try_dy), "), panicking with the error's message.")]
            #[track_caller]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $dy(&self, axis: isize) -> (OutTensor<D, D::Elem, S>, OutTensor<D, i64, S>) {
                self.$try_dy(axis).or_panic()
            }
        }
    };
}
cum_extreme!(true, "maximum", "cummax", cummax, try_cummax, cummax_dyn, try_cummax_dyn);
cum_extreme!(false, "minimum", "cummin", cummin, try_cummin, cummin_dyn, try_cummin_dyn);

/// `roll`, `tril`, `triu`: rearrangements that keep the shape.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Each line along `axis` rotated by `shift` places: element `k` moves to `(k + shift) mod
    /// n` (PyTorch `roll(shift, dims=axis)`, NumPy `roll`); a negative shift rotates the other way.
    /// Same shape (inline for an inline input).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(x.roll(1, Ax::<1>).to_vec(), [3, 1, 2, 6, 4, 5]);
    /// assert_eq!(x.roll(-1, Ax::<0>).to_vec(), [4, 5, 6, 1, 2, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_roll<X, M>(&self, shift: isize, axis: X) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        S: HasAxis<X, M>,
    {
        self.per_line(<S as HasAxis<X, M>>::axis_index(&axis), |o, s, l, a| scan::roll(o, s, l, a, shift))
    }
    /// [`try_roll`](Self::try_roll) along a runtime axis (negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_roll_dyn(&self, shift: isize, axis: isize) -> Result<OutTensor<D, D::Elem, S>, ShapeError> {
        self.per_line(axis, |o, s, l, a| scan::roll(o, s, l, a, shift))
    }

    fn triangle_rt(&self, lower: bool, diagonal: isize) -> Result<OutTensor<D, D::Elem, S>, ShapeError> {
        if self.rank() < 2 {
            return Err(ShapeError::Invalid(alloc::format!(
                "{} needs a matrix or a batch of matrices, not a tensor of shape {:?}",
                if lower { "tril" } else { "triu" },
                self.sizes()
            )));
        }
        self.per_line(-1, |o, s, l, _| scan::triangle(o, s, l, lower, diagonal))
    }
    /// The lower triangle of each matrix of the last two dims: element `(i, j)` kept where
    /// `j - i <= diagonal`, zero elsewhere (PyTorch `tril(diagonal)`, NumPy `tril(k)`; 0 is the
    /// main diagonal, positive above it). Same shape; static shapes of rank below 2 are a
    /// compile error.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(x.tril(0).to_vec(), [1, 0, 0, 4, 5, 0]);
    /// assert_eq!(x.triu(1).to_vec(), [0, 2, 3, 0, 0, 6]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a [`DynShape`] tensor of rank below 2; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_tril(&self, diagonal: isize) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        S: crate::shape::MatrixBatch,
    {
        self.triangle_rt(true, diagonal)
    }
    /// The upper triangle of each matrix of the last two dims: element `(i, j)` kept where
    /// `j - i >= diagonal` (PyTorch `triu(diagonal)`, NumPy `triu(k)`); see
    /// [`try_tril`](Self::try_tril).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a [`DynShape`] tensor of rank below 2; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_triu(&self, diagonal: isize) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        S: crate::shape::MatrixBatch,
    {
        self.triangle_rt(false, diagonal)
    }
}

/// `diff` and `trapezoid`: differences and the trapezoidal rule along an axis.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// `x[1:] - x[:-1]` along `axis` (`n - 1` there, 0 for an empty dim) as a tensor of shape
    /// `S2`, which the caller gives.
    fn diff_rt<S2: Shape>(&self, axis: isize) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        let mut sizes = self.sizes().to_vec();
        sizes[ax] = n.saturating_sub(1);
        if n < 2 {
            return Tensor::try_from_vec(&sizes, alloc::vec::Vec::new());
        }
        let d = self.as_dyn();
        let (hi, lo) = (d.try_narrow(axis, 1, n - 1)?, d.try_narrow(axis, 0, n - 1)?);
        Tensor::try_from_vec(&sizes, hi.try_sub(&lo)?.to_vec())
    }
    /// The differences of neighbours along `axis`, `x[k + 1] - x[k]` (PyTorch `diff(dim=axis)`,
    /// NumPy `diff(axis=axis)`, `n = 1`): `self`'s shape with `Dyn` (one less) at `axis`; integers
    /// wrap, as the `-` operator.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 4, 9], [0, 0, 5]]);
    /// assert_eq!(x.diff(Ax::<1>).to_vec(), [3, 5, 0, 5]);
    /// assert_eq!(x.diff(Ax::<1>).sizes(), [2, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_diff<X, M, Y: Shape>(&self, axis: X) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: ReplaceAxis<X, M, Dyn, Out = Y>,
    {
        self.diff_rt(<S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis))
    }
    /// [`try_diff`](Self::try_diff) along a runtime axis: a [`DynShape`] result.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_diff_dyn(&self, axis: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.diff_rt(axis)
    }
}

/// `roll` over several runtime dims at once, and over the flattened tensor.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Each dim `axes[i]` rolled by `shifts[i]` places, one after the other (PyTorch
    /// `torch.roll(x, shifts, dims)` with tuples, NumPy `np.roll(x, shifts, axis)`): same shape
    /// (inline for an inline input). Axes may be negative (counting from the end) and may
    /// repeat (their shifts add up, as PyTorch).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let x: Tensor<i32, DynShape> = Tensor::from([[1, 2, 3], [4, 5, 6]]).into_dyn();
    /// assert_eq!(x.roll_dims_dyn(&[1, -1], &[0, -1]).to_vec(), [5, 6, 4, 2, 3, 1]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `shifts` and `axes` differ in length or are empty (PyTorch's
    /// "shifts and dimensions must align"; roll the flattened tensor with
    /// [`roll_flat`](Self::roll_flat)); [`ShapeError::Axis`] naming the axis and the rank for an
    /// axis outside `-rank..rank`; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_roll_dims_dyn(&self, shifts: &[isize], axes: &[isize]) -> Result<OutTensor<D, D::Elem, S>, ShapeError> {
        if shifts.len() != axes.len() || axes.is_empty() {
            return Err(ShapeError::Invalid(alloc::format!(
                "roll: shifts and dimensions must align and not be empty: {} shifts {shifts:?}, {} dims {axes:?}",
                shifts.len(),
                axes.len()
            )));
        }
        let rank = self.rank();
        let norm = axes.iter().map(|&a| normalize_axis(a, rank)).collect::<Result<alloc::vec::Vec<_>, _>>()?;
        self.per_line(axes[0], |o, s, l, a| {
            scan::roll(o, s, l, a, shifts[0])?;
            if norm.len() > 1 {
                // The other dims in turn, each reading a copy of the result so far.
                let lc = Layout::contiguous(l.sizes())?;
                let mut tmp = kernels::try_with_capacity(o.len())?;
                for (&ax, &shift) in norm[1..].iter().zip(&shifts[1..]) {
                    tmp.clear();
                    tmp.extend_from_slice(o);
                    scan::roll(o, &tmp, &lc, ax, shift)?;
                }
            }
            Ok(())
        })
    }

    /// The elements rotated by `shift` places in row-major order, the shape restored (PyTorch
    /// `torch.roll(x, shift)` without `dims`, NumPy `np.roll(x, shift)` without `axis`): element
    /// `k` of the flattened tensor moves to `(k + shift) mod numel`. Same shape (inline for an
    /// inline input); an empty tensor stays empty.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(x.roll_flat(1).to_vec(), [6, 1, 2, 3, 4, 5]);
    /// assert_eq!(x.roll_flat(-2).to_vec(), [3, 4, 5, 6, 1, 2]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    #[doc(alias = "roll")]
    #[try_twin(alias = "roll")]
    pub fn try_roll_flat(&self, shift: isize) -> Result<OutTensor<D, D::Elem, S>, ShapeError> {
        let n = self.numel();
        let flat = Layout::contiguous(&[n])?;
        let vals = match kernels::contiguous_slice(self.data.as_slice(), self.layout()) {
            Some(s) => alloc::borrow::Cow::Borrowed(s),
            None => alloc::borrow::Cow::Owned(kernels::to_vec(self.data.as_slice(), self.layout())?),
        };
        let lay = LayoutRepr::try_from_layout::<S>(Layout::contiguous(self.sizes())?)?;
        let mut out = <Out<D, D::Elem, S>>::zeroed(n)?;
        scan::roll(out.as_mut_slice(), &vals, &flat, 0, shift)?;
        Ok(TensorBase::from_lay(out, lay))
    }
}
