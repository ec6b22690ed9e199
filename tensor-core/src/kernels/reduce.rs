//! The reducers that [`fold`](super::fold) runs: sums, products, extrema and their indices,
//! variance, norms, log-sum-exp, counts and boolean all/any.
use super::fold::Reducer;
use crate::error::ShapeError;
use crate::num::Num;
use num_traits::Float;

/// The error of an integer sum or product that does not fit its 64-bit result.
pub(crate) fn overflow(op: &'static str) -> ShapeError {
    ShapeError::Invalid(alloc::format!("{op}: the integer result does not fit 64 bits"))
}

/// Sum (accurate: pairwise or Kahan for floats, exact then checked for integers).
pub(crate) struct Sum;
impl<T: Num> Reducer<T> for Sum {
    type Acc = T::Acc;
    type Out = T::Sum;
    #[inline(always)]
    fn init(&self, _: usize) -> T::Acc {
        T::ACC0
    }
    #[inline(always)]
    fn step(&self, a: &mut T::Acc, x: T, _: usize) {
        T::acc(a, x)
    }
    #[inline(always)]
    fn merge(&self, a: T::Acc, b: T::Acc) -> T::Acc {
        T::acc_merge(a, b)
    }
    #[inline(always)]
    fn finish(&self, a: T::Acc, _: usize) -> Result<T::Sum, ShapeError> {
        T::acc_finish(a).ok_or_else(|| overflow("sum"))
    }
    #[inline(always)]
    fn slice(&self, a: T::Acc, s: &[T], _: usize) -> T::Acc {
        T::acc_merge(a, T::acc_slice(s))
    }
    #[inline(always)]
    fn slice_fresh(&self, _: usize, s: &[T]) -> T::Acc {
        T::acc_slice(s)
    }
    #[inline(always)]
    fn rows(&self, acc: &mut [T::Acc], rows: &[T], _: usize) {
        T::acc_rows(acc, rows)
    }
    #[inline(always)]
    fn rows_of_four(&self, a: &[T; 16]) -> Option<[T::Acc; 4]> {
        // A one-element slice's running value is `0 + v`: the pairwise sum of four elements is
        // `0 + ((x0 + x2) + (x1 + x3))` (adding zero first to each only turns an all `-0.0`
        // sum into `+0.0`), so these are the same bits as `slice_fresh` of each row.
        super::small::row_sums4(a).map(|s| s.map(|v| T::acc_slice(&[v])))
    }
}

/// Mean: the accurate sum over the count (NaN for no elements, as PyTorch). Delegates every step
/// to [`Sum`], so the two cannot drift; only the finish divides.
pub(crate) struct Mean;
impl<T: Num + Float> Reducer<T> for Mean
where
    T: Num<Sum = T>,
{
    type Acc = T::Acc;
    type Out = T;
    #[inline(always)]
    fn init(&self, o: usize) -> T::Acc {
        Reducer::<T>::init(&Sum, o)
    }
    #[inline(always)]
    fn step(&self, a: &mut T::Acc, x: T, i: usize) {
        Sum.step(a, x, i)
    }
    #[inline(always)]
    fn merge(&self, a: T::Acc, b: T::Acc) -> T::Acc {
        Reducer::<T>::merge(&Sum, a, b)
    }
    #[inline(always)]
    fn finish(&self, a: T::Acc, n: usize) -> Result<T, ShapeError> {
        let s = T::acc_finish(a).unwrap_or_else(T::nan);
        Ok(s / T::from(n).unwrap_or_else(T::infinity))
    }
    #[inline(always)]
    fn slice(&self, a: T::Acc, s: &[T], i: usize) -> T::Acc {
        Sum.slice(a, s, i)
    }
    #[inline(always)]
    fn slice_fresh(&self, o: usize, s: &[T]) -> T::Acc {
        Reducer::<T>::slice_fresh(&Sum, o, s)
    }
    #[inline(always)]
    fn rows(&self, acc: &mut [T::Acc], rows: &[T], i: usize) {
        Sum.rows(acc, rows, i)
    }
    #[inline(always)]
    fn rows_of_four(&self, a: &[T; 16]) -> Option<[T::Acc; 4]> {
        Reducer::<T>::rows_of_four(&Sum, a)
    }
}

/// Product (checked for integers, in the 64-bit [`Num::Sum`] type).
pub(crate) struct Prod;
impl<T: Num> Reducer<T> for Prod {
    type Acc = Option<T::Sum>;
    type Out = T::Sum;
    #[inline(always)]
    fn init(&self, _: usize) -> Self::Acc {
        Some(<T::Sum as crate::storage::Element>::ONE)
    }
    #[inline(always)]
    fn step(&self, a: &mut Self::Acc, x: T, _: usize) {
        *a = a.and_then(|p| <T::Sum as Num>::checked_mul(p, T::to_sum(x)));
    }
    #[inline(always)]
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        a.zip(b).and_then(|(a, b)| <T::Sum as Num>::checked_mul(a, b))
    }
    #[inline(always)]
    fn finish(&self, a: Self::Acc, _: usize) -> Result<T::Sum, ShapeError> {
        a.ok_or_else(|| overflow("prod"))
    }
}

/// The running maximum (`GT`) or minimum `a` extended by `x`: NaN sticks once seen (PyTorch
/// propagates NaN). Branch-free, so loops of it vectorise.
#[inline(always)]
fn extend<T: Num, const GT: bool>(a: T, x: T) -> T {
    let better = if GT { x > a } else { x < a };
    if better || T::is_nan(x) {
        x
    } else {
        a
    }
}

/// Error of an extremum over no elements (PyTorch refuses it too).
fn empty(op: &'static str) -> ShapeError {
    ShapeError::Invalid(alloc::format!("{op}: cannot reduce over zero elements"))
}

/// Maximum (`GT`) or minimum, NaN-propagating; an error over no elements.
pub(crate) struct Extreme<const GT: bool>;
impl<T: Num, const GT: bool> Reducer<T> for Extreme<GT> {
    type Acc = T;
    type Out = T;
    #[inline(always)]
    fn init(&self, _: usize) -> T {
        if GT {
            T::LOWEST
        } else {
            T::HIGHEST
        }
    }
    #[inline(always)]
    fn step(&self, a: &mut T, x: T, _: usize) {
        *a = extend::<T, GT>(*a, x);
    }
    #[inline(always)]
    fn merge(&self, a: T, b: T) -> T {
        if T::is_nan(a) {
            a
        } else {
            extend::<T, GT>(a, b)
        }
    }
    #[inline(always)]
    fn finish(&self, a: T, n: usize) -> Result<T, ShapeError> {
        if n == 0 {
            return Err(empty(if GT { "max" } else { "min" }));
        }
        Ok(a)
    }
    #[inline(always)]
    fn slice(&self, a: T, s: &[T], _: usize) -> T {
        if s.len() < ISA_FROM {
            extreme_slice::<T, GT, 8>(a, s, |x, y| self.merge(x, y))
        } else {
            crate::isa::avx2(
                #[inline(always)]
                || extreme_slice::<T, GT, 16>(a, s, |x, y| self.merge(x, y)),
            )
        }
    }
}

/// Slice length from which [`Extreme`] runs its loop through [`crate::isa::avx2`].
const ISA_FROM: usize = 64;

/// The running maximum (`GT`) or minimum `a` extended by `s`: `L` (a multiple of 8) independent
/// running values (vectorised), then combined.
#[inline(always)]
fn extreme_slice<T: Num, const GT: bool, const L: usize>(a: T, s: &[T], keep: impl Fn(T, T) -> T) -> T {
    const { assert!(L.is_multiple_of(8), "whole groups of eight lanes") };
    let mut lanes = [a; L];
    let chunks = s.chunks_exact(L);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..L {
            lanes[k] = extend::<T, GT>(lanes[k], c[k]);
        }
    }
    // The lanes combined eight at a time (vector steps), then the eight as a tree (`keep` is
    // the reducer's merge: NaN kept).
    let mut acc: [T; 8] = core::array::from_fn(|k| lanes[k]);
    for g in lanes[8..].chunks_exact(8) {
        for k in 0..8 {
            acc[k] = keep(acc[k], g[k]);
        }
    }
    for w in [4, 2, 1] {
        for k in 0..w {
            acc[k] = keep(acc[k], acc[k + w]);
        }
    }
    let mut r = acc[0];
    for &x in rest {
        r = extend::<T, GT>(r, x);
    }
    r
}

/// The index of the first maximum (`GT`) or minimum, NaN counting as the extreme (PyTorch
/// `argmax`/`argmin`), as `i64`. The running value is `(value, index)`, index `usize::MAX`
/// before any element.
pub(crate) struct ArgExtreme<const GT: bool>;
impl<const GT: bool> ArgExtreme<GT> {
    /// Whether `(x, k)` replaces the running `a`: a strictly better value, a first NaN, or an
    /// equal value (NaN equal to NaN) at a smaller index (the walk may visit indices out of
    /// order).
    #[inline(always)]
    fn takes<T: Num>(a: (T, usize), x: T, k: usize) -> bool {
        let (an, xn) = (T::is_nan(a.0), T::is_nan(x));
        let strictly = !an && (xn || if GT { x > a.0 } else { x < a.0 });
        let tie = k < a.1 && ((an && xn) || (!an && x == a.0));
        a.1 == usize::MAX || strictly || tie
    }
}
impl<T: Num, const GT: bool> Reducer<T> for ArgExtreme<GT> {
    type Acc = (T, usize);
    type Out = i64;
    const INDEXED: bool = true;
    #[inline(always)]
    fn init(&self, _: usize) -> Self::Acc {
        (T::ZERO, usize::MAX)
    }
    #[inline(always)]
    fn step(&self, a: &mut Self::Acc, x: T, k: usize) {
        if Self::takes(*a, x, k) {
            *a = (x, k);
        }
    }
    #[inline(always)]
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        if b.1 != usize::MAX && Self::takes(a, b.0, b.1) {
            b
        } else {
            a
        }
    }
    #[inline(always)]
    fn finish(&self, a: Self::Acc, _: usize) -> Result<i64, ShapeError> {
        if a.1 == usize::MAX {
            return Err(empty(if GT { "argmax" } else { "argmin" }));
        }
        Ok(a.1 as i64)
    }
}

/// `post(sum of f(x - c), c, n)` per output, where `c` is `center[o]` (0 where that is not finite,
/// or without centres) and the sum is Kahan-compensated: the second pass of the variance
/// (`f = square`, centred on the mean, divided by `n - correction`) and of log-sum-exp (`f = exp`,
/// centred on the maximum, `ln(s) + c`).
pub(crate) struct CenteredSum<'a, T, F, P> {
    pub(crate) center: Option<&'a [T]>,
    pub(crate) f: F,
    pub(crate) post: P,
    /// Whether an output whose centre is not finite is NaN (the variance: its mean is infinite
    /// or NaN when an element is, as PyTorch's and NumPy's `var` give NaN then, or when the sum
    /// passes the type's range); otherwise such a centre counts as 0 (log-sum-exp, where a
    /// `+inf` maximum gives `+inf` and an all `-inf` line `-inf`).
    pub(crate) nan_off_center: bool,
}
impl<T: Num + Float, F: Fn(T) -> T + Sync, P: Fn(T, T, usize) -> T + Sync> Reducer<T> for CenteredSum<'_, T, F, P> {
    type Acc = (T, T, T);
    type Out = T;
    #[inline(always)]
    fn init(&self, o: usize) -> Self::Acc {
        let c = self.center.map_or(T::zero(), |c| c[o]);
        match (c.is_finite(), self.nan_off_center) {
            (true, _) => (c, T::zero(), T::zero()),
            // A NaN sum stays NaN through the Kahan steps.
            (false, true) => (T::zero(), T::nan(), T::zero()),
            (false, false) => (T::zero(), T::zero(), T::zero()),
        }
    }
    #[inline(always)]
    fn step(&self, a: &mut Self::Acc, x: T, _: usize) {
        compensated(a, (self.f)(x - a.0));
    }
    #[inline(always)]
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        merge_compensated(a, b)
    }
    #[inline(always)]
    fn finish(&self, a: Self::Acc, n: usize) -> Result<T, ShapeError> {
        Ok((self.post)(a.1 - a.2, a.0, n))
    }
}

/// Kahan's step on the running `(_, sum, error)`, the error kept finite as in
/// [`num::kahan`](crate::num::kahan) (an infinite sum stays infinite instead of turning NaN).
#[inline(always)]
fn compensated<T: Float>(a: &mut (T, T, T), v: T) {
    let mut s = (a.1, a.2);
    crate::num::kahan(&mut s, v);
    (a.1, a.2) = s;
}

/// Two `(_, sum, error)` accumulators of [`compensated`] steps merged: `b`'s corrected sum added
/// to `a` by one more step.
#[inline(always)]
fn merge_compensated<T: Float>(a: (T, T, T), b: (T, T, T)) -> (T, T, T) {
    let mut r = a;
    compensated(&mut r, b.1 - b.2);
    r
}

/// `post(sum of f(x))` (Kahan-compensated): the L1 norm (`f = abs`) and the L2 norm (`f =
/// square`, `post = sqrt`).
pub(crate) struct MapSum<F, P>(pub(crate) F, pub(crate) P);
impl<T: Num + Float, F: Fn(T) -> T + Sync, P: Fn(T) -> T + Sync> Reducer<T> for MapSum<F, P> {
    type Acc = (T, T, T);
    type Out = T;
    #[inline(always)]
    fn init(&self, _: usize) -> Self::Acc {
        (T::zero(), T::zero(), T::zero())
    }
    #[inline(always)]
    fn step(&self, a: &mut Self::Acc, x: T, _: usize) {
        compensated(a, (self.0)(x));
    }
    #[inline(always)]
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        merge_compensated(a, b)
    }
    #[inline(always)]
    fn finish(&self, a: Self::Acc, _: usize) -> Result<T, ShapeError> {
        Ok((self.1)(a.1 - a.2))
    }
    #[inline(always)]
    fn slice(&self, a: Self::Acc, s: &[T], _: usize) -> Self::Acc {
        // The mapped values summed pairwise, as `Sum` sums a slice, then merged.
        merge_compensated(a, self.slice_fresh(0, s))
    }
    #[inline(always)]
    fn slice_fresh(&self, _: usize, s: &[T]) -> Self::Acc {
        (T::zero(), crate::num::pairwise(s, |x| (self.0)(x)), T::zero())
    }
}

/// Count of elements for which `f` holds (`count_nonzero`, `all`, `any`).
pub(crate) struct Count<F>(pub(crate) F);
impl<T, F: Fn(T) -> bool + Sync> Reducer<T> for Count<F> {
    type Acc = usize;
    type Out = i64;
    #[inline(always)]
    fn init(&self, _: usize) -> usize {
        0
    }
    #[inline(always)]
    fn step(&self, a: &mut usize, x: T, _: usize) {
        *a += (self.0)(x) as usize;
    }
    #[inline(always)]
    fn merge(&self, a: usize, b: usize) -> usize {
        a + b
    }
    #[inline(always)]
    fn finish(&self, a: usize, _: usize) -> Result<i64, ShapeError> {
        Ok(a as i64)
    }
}

/// The mean of the elements that are not NaN (PyTorch `nanmean`): their compensated sum and
/// count; NaN when every element is NaN or there is none.
pub(crate) struct NanMean;
impl<T: Num + Float> Reducer<T> for NanMean {
    type Acc = ((T, T, T), usize);
    type Out = T;
    #[inline(always)]
    fn init(&self, _: usize) -> Self::Acc {
        ((T::zero(), T::zero(), T::zero()), 0)
    }
    #[inline(always)]
    fn step(&self, a: &mut Self::Acc, x: T, _: usize) {
        if !x.is_nan() {
            compensated(&mut a.0, x);
            a.1 += 1;
        }
    }
    #[inline(always)]
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc {
        (merge_compensated(a.0, b.0), a.1 + b.1)
    }
    #[inline(always)]
    fn finish(&self, a: Self::Acc, _: usize) -> Result<T, ShapeError> {
        let n = T::from(a.1).unwrap_or_else(T::infinity);
        Ok((a.0 .1 - a.0 .2) / n)
    }
}
