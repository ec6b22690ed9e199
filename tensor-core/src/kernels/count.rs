//! Counting kernels: `bincount`'s per-bin sums and `histc`'s bin counts.
use crate::error::ShapeError;
use crate::num::Num;
use alloc::vec::Vec;
use num_traits::Float;

/// The sums per bin of `bincount`: bin `bins[i]` (each below `len`, checked by the caller) gets
/// `weight(i)`, summed accurately (Kahan-compensated for floats, exactly in 128 bits for
/// integers, so a sum that does not fit its `Sum` type is an error instead of a wrapped value).
pub(crate) fn bincount<W: Num>(
    bins: impl Iterator<Item = usize>,
    len: usize,
    weight: impl Fn(usize) -> W,
) -> Result<Vec<W::Sum>, ShapeError> {
    let mut acc: Vec<W::Acc> = super::try_with_capacity_uncached(len)?;
    acc.resize(len, W::ACC0);
    for (i, b) in bins.enumerate() {
        W::acc(&mut acc[b], weight(i));
    }
    let mut out = super::try_with_capacity(len)?;
    for a in acc {
        out.push(W::acc_finish(a).ok_or_else(|| super::reduce::overflow("bincount"))?);
    }
    Ok(out)
}

/// `histc`'s counts of `x` in `bins` equal-width bins over `[lo, hi]` (finite, `lo < hi`,
/// `bins > 0`, checked by the caller): counted in `u64`, then converted once, so that a count
/// past the type's exact integers (2048 in `f16`, 256 in `bf16`) rounds to the nearest value
/// instead of sticking where `count + 1` rounds back to `count`. Elements outside the range and
/// NaN are not counted; `hi` falls in the last bin.
///
/// The bin is `floor((v - lo) * bins / (hi - lo))` (PyTorch's formula) computed in `f64`, so
/// that neither the width nor the bin count overflows the element type (`hi - lo` of
/// `[-3e38, 3e38]` is inf in f32, and 70000 bins is inf in f16). Where even `f64` would
/// overflow (`f64` bounds near its largest value), the halves `(v/2 - lo/2) / (hi/2 - lo/2)`
/// times `bins`.
pub(crate) fn histc<T: Float + crate::Element>(x: &[T], bins: usize, lo: T, hi: T) -> Result<Vec<T>, ShapeError> {
    let f = |v: T| v.to_f64().unwrap_or(f64::NAN);
    let (lo, hi, nb) = (f(lo), f(hi), bins as f64);
    let direct = (hi - lo).is_finite() && ((hi - lo) * nb).is_finite();
    let pos = |v: f64| {
        if direct {
            (v - lo) * nb / (hi - lo)
        } else {
            (v * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5) * nb
        }
    };
    let mut counts: Vec<u64> = super::try_with_capacity_uncached(bins)?;
    counts.resize(bins, 0);
    for &v in x {
        let v = f(v);
        if v >= lo && v <= hi {
            // `as` saturates: a position at or past `bins` (`v == hi`, or rounding) is the last.
            let b = (libm::floor(pos(v)) as usize).min(bins - 1);
            counts[b] += 1;
        }
    }
    let mut out = super::try_with_capacity(bins)?;
    out.extend(counts.into_iter().map(|c| T::from(c).unwrap_or_else(T::infinity)));
    Ok(out)
}
