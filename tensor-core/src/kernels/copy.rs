//! Copies between layouts: a tensor's elements read in row-major order (with a tiled path for
//! transposed sources), written through a layout, or filled.
use super::*;
use crate::error::ShapeError;
use crate::layout::{walk_rows, Layout};
use crate::storage::Element;
use alloc::vec::Vec;

/// The tensor's elements as one slice, when its layout is contiguous.
#[inline]
pub(crate) fn contiguous_slice<'a, T>(data: &'a [T], l: &Layout) -> Option<&'a [T]> {
    match l.numel() {
        // An empty view may carry any offset (even past the end): it reads nothing.
        0 => Some(&[]),
        n => l.is_contiguous().then(|| &data[l.offset()..l.offset() + n]),
    }
}

/// [`contiguous_slice`] mutably: the elements of a contiguous `l` as one slice of `data`.
#[inline]
pub(crate) fn contiguous_slice_mut<'a, T>(data: &'a mut [T], l: &Layout) -> Option<&'a mut [T]> {
    match l.numel() {
        0 => Some(&mut []),
        n => l.is_contiguous().then(|| &mut data[l.offset()..l.offset() + n]),
    }
}

/// The tensor's elements in row-major order, in a new buffer.
pub(crate) fn to_vec<T: Element>(src: &[T], l: &Layout) -> Result<Vec<T>, ShapeError> {
    map(src, l, |x| x, PAR_COPY_THRESHOLD)
}

/// The row-major layout of a valid layout's sizes (which cannot fail: the element count of a
/// valid layout fits `isize`).
pub(super) fn row_major(l: &Layout) -> Layout {
    Layout::contiguous(l.sizes()).expect("the sizes of a valid layout have a row-major layout")
}

/// `f` applied to every element of `src` (layout `l`), written in row-major order into `out`,
/// which holds `l.numel()` elements. Allocates nothing.
pub(crate) fn map_into<T: Element, U: Element>(out: &mut [U], src: &[T], l: &Layout, mut f: impl FnMut(T) -> U) {
    debug_assert_eq!(out.len(), l.numel());
    if let Some(s) = contiguous_slice(src, l) {
        for (o, &x) in out.iter_mut().zip(s) {
            *o = f(x);
        }
        return;
    }
    if out.is_empty() {
        return;
    }
    let ol = row_major(l);
    if let Some((p, q)) = transposed_pair(l) {
        return map_tiled(out, &ol, src, l, p, q, f);
    }
    walk_rows(l.sizes(), [&ol, l], |[o, i], n, [so, si]| match (so, si) {
        (1, 1) => out[o..o + n].iter_mut().zip(&src[i..i + n]).for_each(|(r, &x)| *r = f(x)),
        (1, 0) => {
            let x = src[i];
            out[o..o + n].iter_mut().for_each(|r| *r = f(x));
        }
        _ => (0..n).for_each(|k| out[at(o, so, k)] = f(src[at(i, si, k)])),
    });
}

/// For a source whose row-major walk reads with a stride (a transpose): the output's inner dim `p`
/// (size above 1, source stride above 1) and a dim `q` that the source reads contiguously (stride
/// 1, size above 1). Such copies go by tiles ([`map_tiled`]) so that each source line is read
/// once into the cache instead of once per output row.
pub(super) fn transposed_pair(l: &Layout) -> Option<(usize, usize)> {
    let r = l.rank();
    let p = (0..r).rev().find(|&d| l.sizes()[d] > 1)?;
    if l.strides()[p] <= 1 {
        return None;
    }
    let q = (0..p).rev().find(|&d| l.strides()[d] == 1 && l.sizes()[d] > 1)?;
    Some((p, q))
}

/// Side of the square tiles of [`map_tiled`]: 16 f32 rows of 16 are one 64-byte line each.
pub(super) const TILE: usize = 16;

/// [`map_into`] for a source found by [`transposed_pair`]: every (`q`, `p`) plane is copied by
/// `TILE` x `TILE` tiles; the other dims are walked as usual. A full tile reads its 16 source
/// lines as checked slices into a block on the stack and writes its 16 output rows from it, with
/// no per-element bounds checks; edge tiles go element by element. Tiles go along the source's
/// lines (16 sequential source streams, the output written down a column strip): down the
/// source's columns, a `[2048, 2048]` source's lines (8 KiB apart) share cache sets.
/// `x.t().contiguous()` at `[2048, 2048]`: 15.8 ms element by element, 10.0-10.6 ms with blocks
/// down the columns, 6.4-8.5 ms along the lines (0.43-0.64x an 8x8-tiled loop, back to back);
/// `a.assign(&b.t())` at `[1000, 1000]`: 2.03 -> 0.62 -> 0.57-0.60 ms.
pub(super) fn map_tiled<T: Element, U: Element>(
    out: &mut [U],
    ol: &Layout,
    src: &[T],
    l: &Layout,
    p: usize,
    q: usize,
    mut f: impl FnMut(T) -> U,
) {
    let (np, nq) = (l.sizes()[p], l.sizes()[q]);
    let (sp, soq) = (l.strides()[p] as usize, ol.strides()[q] as usize);
    // The layouts with dims p and q reduced to their first index: one call per plane.
    let plane = |x: &Layout| x.narrow(p, 0, 1).and_then(|x| x.narrow(q, 0, 1)).expect("p and q are dims of the layout");
    let (olp, lp) = (plane(ol), plane(l));
    walk_rows(lp.sizes(), [&olp, &lp], |[o0, i0], n, [so, si]| {
        for k in 0..n {
            let (o, i) = (at(o0, so, k), at(i0, si, k));
            for p0 in (0..np).step_by(TILE) {
                for q0 in (0..nq).step_by(TILE) {
                    if q0 + TILE <= nq && p0 + TILE <= np {
                        // A full tile: each of its source lines read as one checked slice,
                        // each output row written as one, the transpose done in between.
                        let blk: [[T; TILE]; TILE] = core::array::from_fn(|x| {
                            let line = &src[i + q0 + (p0 + x) * sp..][..TILE];
                            core::array::from_fn(|y| line[y])
                        });
                        for (y, oy) in (q0..q0 + TILE).enumerate() {
                            let row = &mut out[o + oy * soq + p0..][..TILE];
                            for (x, r) in row.iter_mut().enumerate() {
                                *r = f(blk[x][y]);
                            }
                        }
                        continue;
                    }
                    for y in q0..nq.min(q0 + TILE) {
                        let row = &mut out[o + y * soq + p0..o + y * soq + np.min(p0 + TILE)];
                        for (x, r) in row.iter_mut().enumerate() {
                            *r = f(src[i + y + (p0 + x) * sp]);
                        }
                    }
                }
            }
        }
    });
}

/// The elements of `src` (layout `l`) in row-major order into `out` (`l.numel()` long).
pub(crate) fn copy_into<T: Element>(out: &mut [T], src: &[T], l: &Layout) {
    map_into(out, src, l, |x| x)
}

/// `dst[ld] = src` with `ls` already expanded to `ld`'s sizes (`assign`, `copy_from`): one
/// `memcpy` when both are contiguous, the tiled copy for a transposed source into a contiguous
/// destination, row loops otherwise ([`map_to`]).
pub(crate) fn copy_to<T: Element>(dst: &mut [T], ld: &Layout, src: &[T], ls: &Layout) {
    if ld.numel() == 0 {
        return;
    }
    if let (true, Some(s)) = (ld.is_contiguous(), contiguous_slice(src, ls)) {
        let d = &mut dst[ld.offset()..ld.offset() + s.len()];
        #[cfg(feature = "rayon")]
        if parallel_from(s.len(), PAR_COPY_THRESHOLD) {
            use rayon::prelude::*;
            // One piece per thread: `memcpy` of large pieces (non-temporal stores) beats many
            // small ones (`rep movsb`, slow on some CPUs for some alignments).
            let piece = s.len().div_ceil(rayon::current_num_threads());
            d.par_chunks_mut(piece).zip(s.par_chunks(piece)).for_each(|(d, s)| d.copy_from_slice(s));
            return;
        }
        d.copy_from_slice(s);
        return;
    }
    map_to(dst, ld, src, ls, |x| x, usize::MAX)
}

/// Sets every element of `ld` to `v`.
pub(crate) fn fill<T: Element>(dst: &mut [T], ld: &Layout, v: T) {
    let (o, n) = (ld.offset(), ld.numel());
    if n == 0 {
        return;
    }
    if ld.is_contiguous() {
        dst[o..o + n].fill(v);
        return;
    }
    walk_rows(ld.sizes(), [ld], |[o], n, [so]| match so {
        1 => dst[o..o + n].fill(v),
        _ => (0..n).for_each(|k| dst[at(o, so, k)] = v),
    });
}
