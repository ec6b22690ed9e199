//! Selection kernels: `index_select`, `gather`, `scatter`, masked select and fill, `where`,
//! `nonzero`. Each takes flat slices and [`Layout`]s, never a shape type. Index values go through
//! `layout::index_offset` (negative counts from the end; out of bounds is a [`ShapeError::Index`]
//! naming the value, the dim and its size), so the stride arithmetic stays in `layout/`; the
//! kernels only add that step to an offset that `walk` produced. The scatters first check every
//! entry against `0..n` ([`check_write_indices`]: PyTorch's writes take no negative entry).
//!
//! Visiting order: whenever the order is observable (which out-of-bounds index is reported, which
//! of two duplicate scatter indices wins, the order of `masked_select` and `nonzero` results), the
//! walk's first operand is a row-major layout, so the order is the row-major order of the index,
//! the mask or the input.
use super::{contiguous_slice, try_vec, try_with_capacity, zip};
use crate::element::ToIndex;
use crate::error::ShapeError;
use crate::layout::{index_offset, walk, GatherPlan, Layout, Step};
use crate::storage::Element;
use alloc::vec::Vec;

/// The offset step of index value `v` along a dim of `size` elements and `stride`. An error names
/// the value as given (`u64::MAX` as 18446744073709551615, not as a saturated `isize`).
#[inline(always)]
fn step<I: ToIndex>(v: I, size: usize, stride: isize, axis: usize) -> Result<isize, ShapeError> {
    index_offset(v.to_index(), size, stride, axis).map_err(|_| ShapeError::Index { index: v.to_i128(), axis, size })
}

/// The first entry of `idx` (row-major order) outside a dim of `size` elements, as an error.
fn check_indices<I: ToIndex>(idx: &[I], li: &Layout, axis: usize, size: usize) -> Result<(), ShapeError> {
    let order = Layout::contiguous(li.sizes())?;
    let mut err = None;
    walk(li.sizes(), [&order, li], |[_, i]| {
        if err.is_none() {
            err = step(idx[i], size, 0, axis).err();
        }
    });
    err.map_or(Ok(()), Err)
}

/// The first entry of `idx` (row-major order) outside `0..size` as a
/// [`ShapeError::IndexEntry`] naming its coordinates in the index (`li.sizes()`): the rule of the
/// writing operations (`scatter`, `scatter_add`, `scatter_reduce`, `index_add`), which reject
/// negative entries as PyTorch's do.
pub(crate) fn check_write_indices<I: ToIndex>(
    idx: &[I],
    li: &Layout,
    axis: usize,
    size: usize,
) -> Result<(), ShapeError> {
    let order = Layout::contiguous(li.sizes())?;
    let mut bad = None;
    walk(li.sizes(), [&order, li], |[p, i]| {
        let v = idx[i].to_index();
        if bad.is_none() && (v < 0 || v as usize >= size) {
            bad = Some((p, idx[i].to_i128()));
        }
    });
    let Some((mut p, index)) = bad else { return Ok(()) };
    let mut position = alloc::vec![0; li.rank()];
    for (c, &n) in position.iter_mut().zip(li.sizes()).rev() {
        *c = p % n;
        p /= n;
    }
    Err(ShapeError::IndexEntry { index, position, axis, size })
}

/// `l` cut to the leading `sizes[d]` elements of every dim.
fn restrict(l: &Layout, sizes: &[usize]) -> Result<Layout, ShapeError> {
    let mut r = *l;
    for (d, &n) in sizes.iter().enumerate() {
        r = r.narrow(d, 0, n)?;
    }
    Ok(r)
}

/// `l` cut to `sizes` with dim `axis` pinned to element 0 and repeated `sizes[axis]` times
/// (stride 0): offset `o` of coordinate `c` is that of `c` with `c[axis] = 0`. Needs
/// `l.sizes()[axis] >= 1`.
fn pinned(l: &Layout, sizes: &[usize], axis: usize) -> Result<Layout, ShapeError> {
    let mut r = *l;
    for (d, &n) in sizes.iter().enumerate() {
        r = r.narrow(d, 0, if d == axis { 1 } else { n })?;
    }
    r.expand(sizes)
}

/// `out[c] = src[c with c[axis] = idx[c]]` over the index's sizes (PyTorch `gather`), in a new
/// row-major buffer. `li.sizes()[d] <= ls.sizes()[d]` for `d != axis` (the front end checks).
///
/// # Errors
/// [`ShapeError::Index`] for the first index (row-major) outside `ls.sizes()[axis]`.
pub(crate) fn gather<T: Element, I: ToIndex>(
    src: &[T],
    ls: &Layout,
    axis: usize,
    idx: &[I],
    li: &Layout,
) -> Result<Vec<T>, ShapeError> {
    let sizes = li.sizes();
    let n = ls.sizes()[axis];
    let ol = Layout::contiguous(sizes)?;
    if ol.numel() == 0 {
        return Ok(Vec::new());
    }
    if n == 0 {
        // Every index is out of bounds: report the first.
        check_indices(idx, li, axis, n)?;
    }
    let base = pinned(ls, sizes, axis)?;
    let stride = ls.strides()[axis];
    let mut out = try_vec(ol.numel(), T::ZERO)?;
    let mut err = None;
    walk(sizes, [&ol, li, &base], |[o, i, b]| match step(idx[i], n, stride, axis) {
        Ok(d) => out[o] = src[(b as isize + d) as usize],
        Err(e) => {
            err.get_or_insert(e);
        }
    });
    err.map_or(Ok(out), Err)
}

/// The slices of `src` along `axis` at the positions of the 1-D index `idx`, into a new buffer
/// with the row-major layout `ol` (the input's sizes with dim `axis` replaced by the index
/// length): PyTorch `index_select`.
///
/// # Errors
/// [`ShapeError::Index`] for the first index outside `ls.sizes()[axis]`.
pub(crate) fn index_select<T: Element, I: ToIndex>(
    src: &[T],
    ls: &Layout,
    axis: usize,
    idx: &[I],
    li: &Layout,
    ol: &Layout,
) -> Result<Vec<T>, ShapeError> {
    debug_assert_eq!(li.rank(), 1);
    debug_assert_eq!(ol.sizes()[axis], li.numel());
    // The offset of each selected slice along `axis` (checked, in the index's order), then one
    // gather: whole runs when the dims after `axis` are contiguous.
    let (n, stride) = (ls.sizes()[axis], ls.strides()[axis]);
    let mut table = try_with_capacity(li.numel())?;
    let mut err = None;
    walk(li.sizes(), [li], |[i]| match step(idx[i], n, stride, axis) {
        Ok(d) => table.push(d),
        Err(e) => {
            err.get_or_insert(e);
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    let mut dims: Vec<(usize, Step)> = (0..ls.rank()).map(|d| (ls.sizes()[d], Step::Stride(ls.strides()[d]))).collect();
    dims[axis] = (li.numel(), Step::Table);
    let plan = GatherPlan::new(ls.offset(), dims, table)?;
    super::gather_runs(src, &plan)
}

/// `dst[c with c[axis] = idx[c]] = src[c]` over the index's sizes (PyTorch `scatter_`). Every
/// index is checked before the first write, so an error leaves `dst` untouched. Duplicate
/// positions: the last in the index's row-major order wins. `li.sizes()[d] <= ls.sizes()[d]`
/// for every `d` and `<= ld.sizes()[d]` for `d != axis` (the front end checks).
///
/// # Errors
/// [`ShapeError::IndexEntry`] for the first index (row-major) outside `0..ld.sizes()[axis]`
/// (negative entries included, as PyTorch's `scatter_`).
pub(crate) fn scatter<T: Element, I: ToIndex>(
    dst: &mut [T],
    ld: &Layout,
    axis: usize,
    idx: &[I],
    li: &Layout,
    src: &[T],
    ls: &Layout,
) -> Result<(), ShapeError> {
    scatter_with(dst, ld, axis, idx, li, src, ls, |d, s| *d = s)
}

/// [`scatter`] with a combining step: `f(&mut dst[c with c[axis] = idx[c]], src[c])` for every
/// coordinate `c` of the index, in the index's row-major order (so duplicate positions combine
/// in that order: `scatter_add`, `scatter_reduce`, `index_add`). Every index is checked before
/// the first call of `f`: an error leaves `dst` untouched.
///
/// # Errors
/// As [`scatter`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn scatter_with<T: Element, U: Copy, I: ToIndex>(
    dst: &mut [T],
    ld: &Layout,
    axis: usize,
    idx: &[I],
    li: &Layout,
    src: &[U],
    ls: &Layout,
    mut f: impl FnMut(&mut T, U),
) -> Result<(), ShapeError> {
    let sizes = li.sizes();
    let n = ld.sizes()[axis];
    check_write_indices(idx, li, axis, n)?;
    if li.numel() == 0 {
        return Ok(());
    }
    let base = pinned(ld, sizes, axis)?;
    let sl = restrict(ls, sizes)?;
    let order = Layout::contiguous(sizes)?;
    let stride = ld.strides()[axis];
    walk(sizes, [&order, li, &base, &sl], |[_, i, b, s]| {
        if let Ok(d) = step(idx[i], n, stride, axis) {
            f(&mut dst[(b as isize + d) as usize], src[s]);
        }
    });
    Ok(())
}

/// [`scatter`] of one value: `dst[c with c[axis] = idx[c]] = value` (PyTorch `scatter_(dim,
/// index, value)`).
///
/// # Errors
/// As [`scatter`].
pub(crate) fn scatter_value<T: Element, I: ToIndex>(
    dst: &mut [T],
    ld: &Layout,
    axis: usize,
    idx: &[I],
    li: &Layout,
    value: T,
) -> Result<(), ShapeError> {
    let everywhere = Layout::contiguous(&[])?.expand(li.sizes())?;
    scatter(dst, ld, axis, idx, li, &[value], &everywhere)
}

/// The elements of `src` where `mask` is true, in row-major order (PyTorch `masked_select`).
/// `ls` and `lm` must already be expanded to the same sizes.
pub(crate) fn masked_select<T: Element>(
    src: &[T],
    ls: &Layout,
    mask: &[bool],
    lm: &Layout,
) -> Result<Vec<T>, ShapeError> {
    debug_assert_eq!(ls.sizes(), lm.sizes());
    let mut count = 0usize;
    walk(lm.sizes(), [lm], |[m]| count += mask[m] as usize);
    let mut out = try_with_capacity(count)?;
    if let (Some(x), Some(m)) = (contiguous_slice(src, ls), contiguous_slice(mask, lm)) {
        out.extend(x.iter().zip(m).filter(|(_, &m)| m).map(|(&x, _)| x));
        return Ok(out);
    }
    let order = Layout::contiguous(ls.sizes())?;
    walk(ls.sizes(), [&order, ls, lm], |[_, i, m]| {
        if mask[m] {
            out.push(src[i]);
        }
    });
    Ok(out)
}

/// `value` where `mask` is true, `src` elsewhere, in a new row-major buffer (PyTorch
/// `masked_fill`). `lm` must already be expanded to `ls`'s sizes.
pub(crate) fn masked_fill<T: Element>(
    src: &[T],
    ls: &Layout,
    mask: &[bool],
    lm: &Layout,
    value: T,
) -> Result<Vec<T>, ShapeError> {
    zip(src, ls, mask, lm, move |x, m| if m { value } else { x })
}

/// Sets `dst` to `value` where `mask` is true (PyTorch `masked_fill_`). `lm` must already be
/// expanded to `ld`'s sizes.
pub(crate) fn masked_fill_inplace<T: Element>(dst: &mut [T], ld: &Layout, mask: &[bool], lm: &Layout, value: T) {
    debug_assert_eq!(ld.sizes(), lm.sizes());
    walk(ld.sizes(), [ld, lm], |[o, m]| {
        if mask[m] {
            dst[o] = value;
        }
    });
}

/// `x` where `cond` is true, `y` elsewhere, in a new row-major buffer (PyTorch `torch.where`).
/// The three layouts must already be expanded to the same sizes.
pub(crate) fn where_select<T: Element>(
    cond: &[bool],
    lc: &Layout,
    x: &[T],
    lx: &Layout,
    y: &[T],
    ly: &Layout,
) -> Result<Vec<T>, ShapeError> {
    debug_assert!(lc.sizes() == lx.sizes() && lx.sizes() == ly.sizes());
    let n = lc.numel();
    if let (Some(c), Some(a), Some(b)) = (contiguous_slice(cond, lc), contiguous_slice(x, lx), contiguous_slice(y, ly))
    {
        return super::try_collect(c.iter().zip(a).zip(b).map(|((&c, &a), &b)| if c { a } else { b }));
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let ol = Layout::contiguous(lc.sizes())?;
    let mut out = try_vec(n, T::ZERO)?;
    walk(lc.sizes(), [&ol, lc, lx, ly], |[o, c, i, j]| out[o] = if cond[c] { x[i] } else { y[j] });
    Ok(out)
}

/// The coordinates of the elements that are not `T::ZERO`, in row-major order: a row-major
/// `[count, rank]` buffer and `count` (PyTorch `nonzero`). A rank-0 tensor gives `count` 0 or 1
/// and no coordinates.
pub(crate) fn nonzero<T: Element>(src: &[T], l: &Layout) -> Result<(Vec<i64>, usize), ShapeError> {
    let sizes = l.sizes();
    let order = Layout::contiguous(sizes)?;
    let mut total = 0usize;
    walk(sizes, [l], |[i]| total += (src[i] != T::ZERO) as usize);
    // total * rank <= numel * 6: no overflow (numel fits isize).
    let mut out = try_with_capacity(total * sizes.len())?;
    let mut count = 0;
    let mut coord = [0i64; crate::shape::MAX_RANK];
    walk(sizes, [&order, l], |[o, i]| {
        if src[i] != T::ZERO {
            // Unravel the row-major position into a coordinate.
            let mut rest = o;
            for d in (0..sizes.len()).rev() {
                coord[d] = (rest % sizes[d]) as i64;
                rest /= sizes[d];
            }
            out.extend_from_slice(&coord[..sizes.len()]);
            count += 1;
        }
    });
    Ok((out, count))
}

/// The number of true elements of a bool mask and, per dim, their coordinates in row-major
/// order (PyTorch's `nonzero` as used by mask indexing), from the `nonzero` kernel above.
pub(crate) fn mask_coords(mask: &[bool], l: &Layout) -> Result<(usize, Vec<Vec<isize>>), ShapeError> {
    let (flat, count) = nonzero(mask, l)?;
    let rank = l.rank();
    let mut coords = super::try_with_capacity_uncached(rank)?;
    for d in 0..rank {
        coords.push(super::try_collect((0..count).map(|k| flat[k * rank + d] as isize))?);
    }
    Ok((count, coords))
}
