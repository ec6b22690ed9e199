//! Walkers: the loops over one or more layouts in memory order ([`walk`], [`walk_rows`],
//! [`Rows`]), lines along an axis ([`Line`]) and the offsets of a batch of matrices ([`Offsets`]).
use super::Layout;
use crate::error::ShapeError;
use crate::limits::MAX_RANK;

/// Visits the element offsets of `K` layouts over common `sizes`, one call per element, in an
/// order chosen from the strides of operand 0 (largest stride outermost) with mergeable dims
/// coalesced. Each layout gives its strides for `sizes` (use [`Layout::expand`] to broadcast).
pub(crate) fn walk<const K: usize>(sizes: &[usize], layouts: [&Layout; K], mut f: impl FnMut([usize; K])) {
    walk_rows(sizes, layouts, |mut o, n, st| {
        for _ in 0..n {
            f(o);
            for k in 0..K {
                // The last step may leave the reach; it is never used (wrapping, not UB).
                o[k] = o[k].wrapping_add_signed(st[k]);
            }
        }
    });
}

/// As [`walk`], one call per row of the innermost (merged) loop instead of per element:
/// `f(first, n, strides)` covers the elements `first[k] + i * strides[k]` for `i < n` of each
/// operand `k`. Kernels pick a loop for the row from its strides (all 1: slices the compiler
/// vectorises; 0: a broadcast value), which the per-element form cannot. Kernels whose row body
/// is large iterate [`Rows`] themselves, so that the body is inlined into their loop.
pub(crate) fn walk_rows<const K: usize>(
    sizes: &[usize],
    layouts: [&Layout; K],
    mut f: impl FnMut([usize; K], usize, [isize; K]),
) {
    for (first, n, st) in Rows::new(sizes, layouts) {
        f(first, n, st)
    }
}

/// The rows of [`walk_rows`] as an iterator: `(first, n, strides)` per row of the innermost
/// (merged) loop, rows in the order of operand 0's strides (largest outermost), dims that every
/// operand steps through evenly coalesced.
pub(crate) struct Rows<const K: usize> {
    /// The outer (merged) dims: size and each operand's stride.
    outer: [(usize, [isize; K]); MAX_RANK],
    /// How many of `outer` are used.
    m: usize,
    /// The row length and strides.
    inner: (usize, [isize; K]),
    /// The odometer over the outer dims, and the offsets of the next row.
    idx: [usize; MAX_RANK],
    off: [isize; K],
    /// No rows left.
    done: bool,
}

impl<const K: usize> Rows<K> {
    /// The rows of `K` layouts over common `sizes` (each layout's strides for `sizes`).
    #[inline]
    pub(crate) fn new(sizes: &[usize], layouts: [&Layout; K]) -> Self {
        let base: [isize; K] = core::array::from_fn(|k| layouts[k].offset as isize);
        let mut rows = Rows {
            outer: [(1, [0; K]); MAX_RANK],
            m: 0,
            inner: (1, [0; K]),
            idx: [0; MAX_RANK],
            off: base,
            done: false,
        };
        if sizes.contains(&0) {
            rows.done = true;
            return rows;
        }
        // Collect the dims that move (size > 1), then order them by operand 0's stride.
        let mut dims: [(usize, [isize; K]); MAX_RANK] = [(1, [0; K]); MAX_RANK];
        let mut r = 0;
        for (d, &n) in sizes.iter().enumerate() {
            if n != 1 {
                dims[r] = (n, core::array::from_fn(|k| layouts[k].strides[d]));
                r += 1;
            }
        }
        let dims = &mut dims[..r];
        // Stable insertion sort: descending |stride| of operand 0 (row-major kept on ties).
        for i in 1..dims.len() {
            let mut j = i;
            while j > 0 && dims[j - 1].1[0].unsigned_abs() < dims[j].1[0].unsigned_abs() {
                dims.swap(j - 1, j);
                j -= 1;
            }
        }
        // Coalesce: dim i and i+1 merge when every operand steps over i+1 exactly into i.
        let mut merged: [(usize, [isize; K]); MAX_RANK] = [(1, [0; K]); MAX_RANK];
        let mut m = 0;
        for &(n, st) in dims.iter() {
            if m > 0 {
                let (pn, pst) = merged[m - 1];
                if (0..K).all(|k| pst[k] == st[k] * n as isize) {
                    merged[m - 1] = (pn * n, st);
                    continue;
                }
            }
            merged[m] = (n, st);
            m += 1;
        }
        if m > 0 {
            rows.inner = merged[m - 1];
            rows.m = m - 1;
            rows.outer[..m - 1].copy_from_slice(&merged[..m - 1]);
        }
        rows
    }

    /// The rows as at most two levels, when the merged dims are that few: `(count, strides)` of
    /// the rows, `(length, strides)` within a row, and the first row's offsets, so that a kernel
    /// can loop over them without the odometer. `None` for three or more levels or no rows.
    #[inline]
    pub(crate) fn two_level(&self) -> Option<((usize, [isize; K]), (usize, [isize; K]), [usize; K])> {
        if self.done || self.m > 1 {
            return None;
        }
        let outer = if self.m == 1 { self.outer[0] } else { (1, [0; K]) };
        // Every row start is an element of its layout: inside the buffer (the layout invariant).
        Some((outer, self.inner, self.off.map(|v| v as usize)))
    }
}

impl<const K: usize> Iterator for Rows<K> {
    type Item = ([usize; K], usize, [isize; K]);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // Every row start is an element of its layout: inside the buffer (the layout invariant).
        let row = (self.off.map(|v| v as usize), self.inner.0, self.inner.1);
        // Odometer over the outer dims.
        let mut d = self.m;
        loop {
            if d == 0 {
                self.done = true;
                break;
            }
            d -= 1;
            self.idx[d] += 1;
            let (n, st) = self.outer[d];
            for (o, s) in self.off.iter_mut().zip(st) {
                *o += s;
            }
            if self.idx[d] < n {
                break;
            }
            for (o, s) in self.off.iter_mut().zip(st) {
                *o -= s * n as isize;
            }
            self.idx[d] = 0;
        }
        Some(row)
    }
}

/// One line of a tensor along an axis: `n` elements of `src` from `start` at `stride` (the
/// layout's own values, so every position is inside the buffer the layout was checked against).
pub(crate) struct Line<'a, T> {
    src: &'a [T],
    start: usize,
    stride: isize,
    /// The number of elements.
    pub(crate) n: usize,
}
impl<'a, T: Copy> Line<'a, T> {
    /// The line of a whole contiguous slice.
    pub(crate) fn of_slice(src: &'a [T]) -> Self {
        Line { src, start: 0, stride: 1, n: src.len() }
    }
}
impl<T: Copy> Line<'_, T> {
    /// Element `k < n` of the line.
    #[inline(always)]
    pub(crate) fn get(&self, k: usize) -> T {
        self.src[self.start.wrapping_add_signed(k as isize * self.stride)]
    }
    /// The line as a slice when its elements are adjacent.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> Option<&[T]> {
        (self.stride == 1 || self.n <= 1).then(|| &self.src[self.start..self.start + self.n])
    }
}

/// Calls `f(line, out_line)` for every line of `src` (layout `l`) along `axis`, where `out_line`
/// is the same line of `out`, the row-major buffer of `l`'s sizes, as `(out, start, stride)`:
/// what scans (cumsum) and per-line normalisations (softmax) need.
pub(crate) fn for_each_line<T: Copy, U>(
    out: &mut [U],
    src: &[T],
    l: &Layout,
    axis: usize,
    mut f: impl FnMut(&Line<'_, T>, &mut [U], usize, usize),
) -> Result<(), ShapeError> {
    let sizes = l.sizes();
    let n = sizes[axis];
    if l.numel() == 0 {
        return Ok(());
    }
    let ol = Layout::contiguous(sizes)?;
    let mut lines = [1usize; MAX_RANK];
    lines[..sizes.len()].copy_from_slice(sizes);
    lines[axis] = 1;
    let (stride, ostride) = (l.strides()[axis], ol.strides()[axis] as usize);
    walk(&lines[..sizes.len()], [l, &ol], |[i, o]| {
        f(&Line { src, start: i, stride, n }, out, o, ostride);
    });
    Ok(())
}

/// The storage offsets of a layout in row-major logical order (an odometer over the
/// coordinates), with the coordinate of the next element.
#[derive(Clone, Debug)]
pub(crate) struct Offsets {
    sizes: [usize; MAX_RANK],
    strides: [isize; MAX_RANK],
    rank: usize,
    /// The coordinate of the element `next` addresses.
    idx: [usize; MAX_RANK],
    next: isize,
    remaining: usize,
}

impl Offsets {
    pub(crate) fn new(l: &Layout) -> Self {
        let mut sizes = [1; MAX_RANK];
        let mut strides = [0; MAX_RANK];
        sizes[..l.rank()].copy_from_slice(l.sizes());
        strides[..l.rank()].copy_from_slice(l.strides());
        Offsets { sizes, strides, rank: l.rank(), idx: [0; MAX_RANK], next: l.offset() as isize, remaining: l.numel() }
    }
    /// The coordinate of the element the next call to `next` returns.
    #[inline]
    pub(crate) fn index(&self) -> &[usize] {
        &self.idx[..self.rank]
    }
}

impl Iterator for Offsets {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        let o = self.next;
        self.remaining -= 1;
        if self.remaining > 0 {
            // Some coordinate is still below its size, so the odometer stops before dim 0 wraps.
            // Every offset it reaches is one of the layout's (bounded reach: no overflow).
            let mut d = self.rank;
            loop {
                d -= 1;
                self.idx[d] += 1;
                self.next += self.strides[d];
                if self.idx[d] < self.sizes[d] {
                    break;
                }
                self.next -= self.strides[d] * self.sizes[d] as isize;
                self.idx[d] = 0;
            }
        }
        Some(o as usize)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}
impl ExactSizeIterator for Offsets {}
