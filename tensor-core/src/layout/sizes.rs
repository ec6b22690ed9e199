//! Size arithmetic without strides: broadcasting two size lists, normalising axes, and the
//! layouts of a Kronecker product.
use super::Layout;
use crate::error::ShapeError;
use crate::limits::MAX_RANK;

/// Runtime broadcast of two size lists (shared by the static and dynamic front ends).
///
/// # Errors
/// [`ShapeError::Broadcast`] when a pair of aligned sizes differs and neither is 1.
pub fn broadcast_sizes(a: &[usize], b: &[usize]) -> Result<([usize; MAX_RANK], usize), ShapeError> {
    let r = a.len().max(b.len());
    if r > MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank: r });
    }
    let mut out = [1usize; MAX_RANK];
    for (i, o) in out.iter_mut().enumerate().take(r) {
        let da = if i + a.len() >= r { a[i + a.len() - r] } else { 1 };
        let db = if i + b.len() >= r { b[i + b.len() - r] } else { 1 };
        *o = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(ShapeError::Broadcast { lhs: a.into(), rhs: b.into() });
        };
    }
    Ok((out, r))
}

/// Normalises a possibly negative axis (`-1` is the last) against `rank` (PyTorch's `dim`
/// argument convention).
///
/// # Errors
/// [`ShapeError::Axis`] when `axis` is outside `-rank..rank`.
pub fn normalize_axis(axis: isize, rank: usize) -> Result<usize, ShapeError> {
    let a = if axis < 0 { axis.checked_add(rank as isize) } else { Some(axis) };
    match a {
        Some(a) if a >= 0 && (a as usize) < rank => Ok(a as usize),
        _ => Err(ShapeError::Axis { axis, rank }),
    }
}

/// Normalises an insertion point (`unsqueeze`, `stack`: `0..=rank`, negative counts from past
/// the end, so `-1` inserts after the last dim, as PyTorch).
///
/// # Errors
/// [`ShapeError::InsertAxis`] when `axis` is outside `-(rank + 1)..=rank`.
pub fn normalize_insert_axis(axis: isize, rank: usize) -> Result<usize, ShapeError> {
    normalize_axis(axis, rank + 1).map_err(|_| ShapeError::InsertAxis { axis, rank })
}

/// The layouts of the Kronecker product of operands with sizes `a` and `b` (same rank): the
/// row-major product `out` (dim `i` of size `a[i] * b[i]`), `outer` (sizes `a`, strides
/// `out.strides[i] * b[i]`: where each element of the left operand starts its block) and `inner`
/// (sizes `b`, the strides of `out`: each element of the right operand's offset in a block). Element
/// `(i, j)` of the product lands at `outer(i) + inner(j)`.
///
/// # Errors
/// [`ShapeError::Overflow`] when the product's element count does not fit `isize`;
/// [`ShapeError::RankTooLarge`].
pub(crate) fn kron_layouts(a: &[usize], b: &[usize]) -> Result<(Layout, Layout, Layout), ShapeError> {
    debug_assert_eq!(a.len(), b.len());
    let mut sizes = [0usize; MAX_RANK];
    for (i, (&x, &y)) in a.iter().zip(b).enumerate().take(MAX_RANK) {
        sizes[i] = x.checked_mul(y).ok_or_else(|| ShapeError::Overflow { sizes: [a, b].concat() })?;
    }
    let out = Layout::contiguous(&sizes[..a.len()])?;
    let (mut outer, mut inner) = (out, out);
    for i in 0..a.len() {
        outer.sizes[i] = a[i];
        inner.sizes[i] = b[i];
        // Within the product's reach when it has elements (a block of `b[i]` rows of stride
        // `out.strides[i]`); an empty product is never walked.
        outer.strides[i] = out.strides[i].checked_mul(b[i] as isize).unwrap_or(0);
    }
    Ok((out, outer, inner))
}

/// The output size of a window of `k` elements dilated by `d` sliding with step `s` over `n`
/// elements padded by `p` on both sides: `(n + 2p - d(k - 1) - 1) / s + 1` (PyTorch's
/// convolution and pooling size, `ceil_mode=False`). `None` when `k`, `s` or `d` is 0, the
/// dilated window is longer than the padded input, or a step overflows.
pub fn window_out(n: usize, k: usize, s: usize, p: usize, d: usize) -> Option<usize> {
    if k == 0 || s == 0 || d == 0 {
        return None;
    }
    let padded = n.checked_add(p.checked_mul(2)?)?;
    let span = d.checked_mul(k - 1)?.checked_add(1)?;
    Some(padded.checked_sub(span)? / s + 1)
}
