//! Index arithmetic of one dim: an index or a range with a step, checked against the size.
use crate::error::ShapeError;

/// Per-dim index arithmetic shared by `t!` and [`SliceArg`](crate::SliceArg): the offset step of
/// index `i` (negative counts from the end) in a dim of `size` elements and `stride`.
#[inline(always)]
pub(crate) fn index_offset(i: isize, size: usize, stride: isize, axis: usize) -> Result<isize, ShapeError> {
    let j = if i < 0 { i + size as isize } else { i };
    if j < 0 || j as usize >= size {
        return Err(ShapeError::Index { index: i as i128, axis, size });
    }
    // `j` is a coordinate of the dim: within the reach (invariant 3).
    Ok(j * stride)
}

/// Per-dim range arithmetic shared by `t!` and [`SliceArg`](crate::SliceArg): for `start..end`
/// (already normalised, `0 <= start <= end <= size`) and a non-zero `step` (negative walks from the
/// last element back to the first), returns `(offset step, length, new stride)`.
#[inline(always)]
pub(crate) fn range_dim(start: usize, end: usize, step: isize, stride: isize) -> (isize, usize, isize) {
    let len = (end - start).div_ceil(step.unsigned_abs());
    let first = if step > 0 || len == 0 { start } else { end - 1 };
    // `first` is a coordinate of the dim when len > 0, so `first * stride` is within the reach.
    let off = if len == 0 { 0 } else { first as isize * stride };
    // With len >= 2, |step| < end - start <= size, so |stride * step| * (len - 1) stays within
    // the dim's reach; with len <= 1 the stride is never stepped along and is kept as it is.
    (off, len, if len > 1 { stride * step } else { stride })
}

/// Normalises Python-style range bounds (`None` is open; negative counts from the end) against
/// `size`, checking them (never clamping).
#[inline(always)]
pub(crate) fn range_bounds(
    start: Option<isize>,
    end: Option<isize>,
    size: usize,
    axis: usize,
) -> Result<(usize, usize), ShapeError> {
    let n = size as isize;
    let norm = |v: isize| if v < 0 { v + n } else { v };
    let (s, e) = (start.map_or(0, norm), end.map_or(n, norm));
    if s < 0 || e > n || s > e {
        let (start, end) = (start.unwrap_or(0), end.unwrap_or(n));
        return Err(ShapeError::Range { start: start as i128, end: end as i128, axis, size });
    }
    Ok((s as usize, e as usize))
}
