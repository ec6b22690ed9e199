//! Reductions: sum over everything and along one axis.
use crate::error::ShapeError;
use crate::layout::{walk, Layout};
use crate::shape::MAX_RANK;
use crate::storage::Element;
use alloc::vec::Vec;
use core::ops::Add;

/// Sum of a contiguous slice with 8 independent accumulators (vectorisable, and a smaller
/// rounding error than one running sum).
fn sum_slice<T: Element + Add<Output = T>>(s: &[T]) -> T {
    let mut acc = [T::ZERO; 8];
    let chunks = s.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for k in 0..8 {
            acc[k] = acc[k] + c[k];
        }
    }
    let mut t = T::ZERO;
    for &r in rest {
        t = t + r;
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + t
}

/// The sum of all elements (`T::ZERO` for an empty tensor).
pub(crate) fn sum<T: Element + Add<Output = T>>(src: &[T], l: &Layout) -> T {
    if let Some(s) = super::contiguous_slice(src, l) {
        #[cfg(feature = "rayon")]
        if super::parallel(s.len()) {
            use rayon::prelude::*;
            return s.par_chunks(1 << 14).map(sum_slice).reduce(|| T::ZERO, |a, b| a + b);
        }
        return sum_slice(s);
    }
    let mut t = T::ZERO;
    walk(l.sizes(), [l], |[i]| t = t + src[i]);
    t
}

/// Sums along `axis`: returns the row-major buffer of the sizes without `axis`. The loop runs in
/// the input's memory order, accumulating into an output layout with stride 0 along `axis`.
pub(crate) fn sum_axis<T: Element + Add<Output = T>>(src: &[T], l: &Layout, axis: usize) -> Result<Vec<T>, ShapeError> {
    let reduced = l.remove(axis);
    let ol = Layout::contiguous(reduced.sizes())?;
    let mut out = super::try_vec(ol.numel(), T::ZERO)?;
    if let Some(s) = super::contiguous_slice(src, l) {
        // Contiguous input seen as [outer, n, inner], reduced over n.
        let n = l.sizes()[axis];
        let inner: usize = l.sizes()[axis + 1..].iter().product();
        if n == 0 || out.is_empty() {
            return Ok(out);
        }
        if inner == 1 {
            // Reduced along the last axis: one slice sum per row.
            for (o, row) in out.iter_mut().zip(s.chunks_exact(n)) {
                *o = sum_slice(row);
            }
        } else {
            // Add whole rows of `inner` elements into the output: unit-stride, vectorisable.
            for (o, block) in out.chunks_exact_mut(inner).zip(s.chunks_exact(n * inner)) {
                for row in block.chunks_exact(inner) {
                    for (a, &b) in o.iter_mut().zip(row) {
                        *a = *a + b;
                    }
                }
            }
        }
        return Ok(out);
    }
    if out.is_empty() || l.numel() == 0 {
        return Ok(out);
    }
    let acc = ol
        .unsqueeze(axis)
        .and_then(|a| a.expand(l.sizes()))
        .expect("reduced layout expands back to the input sizes")
        .zero_stride(axis);
    walk(l.sizes(), [l, &acc], |[i, o]| out[o] = out[o] + src[i]);
    Ok(out)
}

/// Sums over the axes marked in `mask` in one walk in the input's memory order, accumulating into
/// `out`: the row-major buffer of the kept sizes, zeroed by the caller. Allocates nothing (what
/// inline results use).
pub(crate) fn sum_axes_into<T: Element + Add<Output = T>>(
    out: &mut [T],
    src: &[T],
    l: &Layout,
    mask: &[bool; MAX_RANK],
) {
    if out.is_empty() || l.numel() == 0 {
        return;
    }
    // The output's stride along each input dim: row-major over the kept dims, 0 on reduced ones.
    let mut strides = [0isize; MAX_RANK];
    let mut acc = 1isize;
    for i in (0..l.rank()).rev() {
        if !mask[i] {
            strides[i] = acc;
            acc *= l.sizes()[i] as isize;
        }
    }
    let ol = Layout::from_parts(l.sizes(), &strides[..l.rank()], 0)
        .expect("the accumulation layout of a valid layout is valid");
    walk(l.sizes(), [l, &ol], |[i, o]| out[o] = out[o] + src[i]);
}
