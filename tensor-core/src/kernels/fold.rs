//! One engine for every reduction (sum, prod, max, argmax, var, norms, logsumexp, all/any, ...):
//! a [`Reducer`] says how to start, extend, combine and finish a running value, and [`reduce`]
//! runs it over any strided layout and any set of axes.
//!
//! - **Contiguous input reduced over trailing axes** (whole-tensor reductions, the last axis):
//!   each output folds one contiguous slice, with the reducer's slice fast path (pairwise
//!   summation) and rayon from [`PAR_REDUCE_THRESHOLD`](super::PAR_REDUCE_THRESHOLD) elements.
//! - **Everything else** (strided views, leading axes): one walk in the input's memory order,
//!   row by row, so the memory is read once in order whatever the axes: a contiguous row that
//!   belongs to one output folds as a slice (pairwise sums), a contiguous row of consecutive
//!   outputs steps them side by side, anything else element by element. Running sums are
//!   Kahan-compensated there, so their error does not grow with the number of elements either.
//! - **Inline inputs** ([`small_reduce`]): per output, the reduced elements at constant strides,
//!   with the running value in a local (no buffer, no allocation).
//!
//! The `k` passed to [`Reducer::step`] is the element's row-major index among the reduced
//! elements of its output (what `argmax` returns).
use crate::error::ShapeError;
use crate::layout::{walk_rows, Layout};
use crate::shape::{Shape, MAX_RANK};
use crate::storage::Element;
use alloc::vec::Vec;

/// How a reduction starts, extends, combines and finishes its running value.
pub(crate) trait Reducer<T>: Sync {
    /// The running value.
    type Acc: Copy + Send;
    /// The result per output.
    type Out: Element;
    /// Whether [`step`](Self::step) uses the element's index `k` (argmax): otherwise elements
    /// may be folded in any order, memory order included.
    const INDEXED: bool = false;
    /// The running value of output `o` (row-major index among the outputs) before any element.
    fn init(&self, o: usize) -> Self::Acc;
    /// Folds element `x`, the `k`-th (row-major) of its output's reduced elements.
    fn step(&self, a: &mut Self::Acc, x: T, k: usize);
    /// Combines two running values; `a` covers the earlier elements.
    fn merge(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// The result from the running value and the number `n` of reduced elements.
    fn finish(&self, a: Self::Acc, n: usize) -> Result<Self::Out, ShapeError>;
    /// Folds the rows of `rows` (row-major, `acc.len()` elements each; row `r` is reduced index
    /// `k0 + r`) into `acc` element-wise: the reduction of a leading axis of a contiguous input.
    #[inline(always)]
    fn rows(&self, acc: &mut [Self::Acc], rows: &[T], k0: usize)
    where
        T: Copy,
    {
        for (r, row) in rows.chunks_exact(acc.len().max(1)).enumerate() {
            for (a, &x) in acc.iter_mut().zip(row) {
                self.step(a, x, k0 + r);
            }
        }
    }
    /// The running value of `init(o)` extended by the contiguous `s` (elements `base..`), when
    /// the reducer has a faster way than stepping (pairwise sums).
    #[inline(always)]
    fn slice(&self, mut a: Self::Acc, s: &[T], base: usize) -> Self::Acc
    where
        T: Copy,
    {
        for (i, &x) in s.iter().enumerate() {
            self.step(&mut a, x, base + i);
        }
        a
    }
    /// The running values of four outputs whose elements are the four rows of the row-major
    /// `a`, each as [`slice_fresh`](Self::slice_fresh) gives it, when the reducer has a faster
    /// way for the four together (SSE row sums of an f32 4x4); `None` otherwise.
    #[inline(always)]
    fn rows_of_four(&self, a: &[T; 16]) -> Option<[Self::Acc; 4]> {
        let _ = a;
        None
    }
    /// The running value of output `o` over the contiguous slice `s` alone (its elements `0..`):
    /// [`slice`](Self::slice) from [`init`](Self::init), which a reducer may compute without the
    /// merge into an empty value (the small tensors' whole-block reductions).
    #[inline(always)]
    fn slice_fresh(&self, o: usize, s: &[T]) -> Self::Acc
    where
        T: Copy,
    {
        self.slice(self.init(o), s, 0)
    }
}

/// Reduces `src` (layout `l`) over the axes marked in `mask`: the row-major results over the kept
/// dims. `n` reduced elements per output; an empty reduction is the reducer's `finish` of its
/// `init` (an error for max of nothing).
pub(crate) fn reduce<T: Element, R: Reducer<T>>(
    src: &[T],
    l: &Layout,
    mask: &[bool; MAX_RANK],
    r: &R,
) -> Result<Vec<R::Out>, ShapeError> {
    // A permutation of a contiguous buffer (a transpose) is reduced in memory order when that
    // keeps the results' order: `x.t().sum_axis(Ax::<1>)` becomes the contiguous column sums.
    let permuted = memory_order(l, mask, R::INDEXED);
    let (l, mask) = match &permuted {
        Some((pl, pm)) => (pl, pm),
        None => (l, mask),
    };
    let rank = l.rank();
    let sizes = l.sizes();
    let (mut m, mut n) = (1usize, 1usize);
    for (i, &s) in sizes.iter().enumerate() {
        if mask[i] {
            n *= s;
        } else {
            m *= s;
        }
    }
    let mut out = super::try_with_capacity(m)?;
    if m == 0 {
        return Ok(out);
    }
    // A contiguous input whose reduced axes are one block of adjacent dims: it is
    // `[outer, n, inner]` reduced over the middle.
    let first = (0..rank).find(|&i| mask[i]).unwrap_or(rank);
    let last = (0..rank).rev().find(|&i| mask[i]).map_or(rank, |i| i + 1);
    let block = (first..last).all(|i| mask[i]);
    if let (true, Some(s)) = (block, super::contiguous_slice(src, l)) {
        let inner: usize = sizes[last..].iter().product();
        if n == 0 {
            for o in 0..m {
                out.push(r.finish(r.init(o), 0)?);
            }
            return Ok(out);
        }
        if inner == 1 {
            // Each output is one contiguous run.
            for (o, run) in s.chunks_exact(n).enumerate() {
                out.push(r.finish(fold_slice(r, r.init(o), run), n)?);
            }
            return Ok(out);
        }
        // Whole rows of `inner` outputs at a time: unit-stride, vectorisable. One block of
        // outputs' running values at a time, finished before the next block starts: a work
        // array of `inner` values, where one of all `m` (twice the output's bytes for a
        // compensated sum) pushed the heap's top past glibc's trim threshold, so that each call
        // faulted its pages in again (`sum 1 [32,64,384]`: 12% of its time in the kernel's page
        // clearing).
        let mut acc: Vec<R::Acc> = super::try_with_capacity_uncached(inner)?;
        for (b, blk) in s.chunks_exact(n * inner).enumerate() {
            acc.clear();
            acc.extend((0..inner).map(|k| r.init(b * inner + k)));
            r.rows(&mut acc, blk, 0);
            for &a in &acc {
                out.push(r.finish(a, n)?);
            }
        }
        return Ok(out);
    }
    let mut acc: Vec<R::Acc> = super::try_with_capacity_uncached(m)?;
    acc.extend((0..m).map(|o| r.init(o)));
    if n > 0 {
        // Output offsets: row-major over the kept dims, 0 along reduced ones; reduced indices:
        // row-major over the reduced dims, 0 along kept ones.
        let (mut so, mut sk) = ([0isize; MAX_RANK], [0isize; MAX_RANK]);
        let (mut ao, mut ak) = (1isize, 1isize);
        for i in (0..rank).rev() {
            if mask[i] {
                // Without indices, all 0: rows of one output then merge across dims.
                sk[i] = if R::INDEXED { ak } else { 0 };
                ak *= sizes[i] as isize;
            } else {
                so[i] = ao;
                ao *= sizes[i] as isize;
            }
        }
        let lo = Layout::from_parts(sizes, &so[..rank], 0).expect("accumulation layout of a valid layout");
        let lk = Layout::from_parts(sizes, &sk[..rank], 0).expect("index layout of a valid layout");
        // Rows in the input's memory order. A contiguous row of one output's elements folds as
        // a slice (pairwise sums) when its indices run 1, 2, ... or the reducer ignores them; a
        // contiguous row of consecutive outputs steps them side by side (vectorisable).
        walk_rows(sizes, [l, &lo, &lk], |[i, o, k], n, [si, so, sk]| match (si, so) {
            (1, 0) if sk == 1 || !R::INDEXED => acc[o] = r.slice(acc[o], &src[i..i + n], k),
            (1, 1) if sk == 0 => {
                for (a, &x) in acc[o..o + n].iter_mut().zip(&src[i..i + n]) {
                    r.step(a, x, k);
                }
            }
            _ => (0..n)
                .for_each(|j| r.step(&mut acc[super::at(o, so, j)], src[super::at(i, si, j)], super::at(k, sk, j))),
        });
    }
    for a in acc {
        out.push(r.finish(a, n)?);
    }
    Ok(out)
}

/// `l` with its dims sorted by decreasing stride, and `mask` permuted alike, when `l` is not
/// contiguous, the sorted layout is, and the kept (unmasked) dims stay in their order (so the
/// row-major results over them come out in the same order), and so do the reduced ones when
/// `indexed` (argmax's indices count in their row-major order); `None` otherwise.
fn memory_order(l: &Layout, mask: &[bool; MAX_RANK], indexed: bool) -> Option<(Layout, [bool; MAX_RANK])> {
    let rank = l.rank();
    if rank < 2 || l.is_contiguous() {
        return None;
    }
    let mut perm = [0usize; MAX_RANK];
    for (i, p) in perm.iter_mut().enumerate().take(rank) {
        *p = i;
    }
    let perm = &mut perm[..rank];
    // Size-1 dims go last: their strides mean nothing, and they do not change the results' order.
    perm.sort_by_key(|&d| core::cmp::Reverse(if l.sizes()[d] == 1 { isize::MIN } else { l.strides()[d] }));
    let pl = l.permute(perm).ok()?;
    if !pl.is_contiguous() {
        return None;
    }
    for reduced in [false, true] {
        if reduced && !indexed {
            break;
        }
        let dims = perm.iter().filter(|&&d| mask[d] == reduced && l.sizes()[d] > 1);
        if dims.clone().zip(dims.skip(1)).any(|(a, b)| a > b) {
            return None;
        }
    }
    let mut pm = [false; MAX_RANK];
    for (i, &d) in perm.iter().enumerate() {
        pm[i] = mask[d];
    }
    Some((pl, pm))
}

/// Folds a contiguous run of one output's elements, split over rayon's threads when long.
fn fold_slice<T: Element, R: Reducer<T>>(r: &R, a: R::Acc, s: &[T]) -> R::Acc {
    #[cfg(feature = "rayon")]
    if super::parallel_from(s.len(), super::PAR_REDUCE_THRESHOLD) {
        use rayon::prelude::*;
        const CHUNK: usize = 1 << 14;
        let parts: Vec<R::Acc> =
            s.par_chunks(CHUNK).enumerate().map(|(c, part)| r.slice(r.init(0), part, c * CHUNK)).collect();
        // The first part starts from `a` itself: `init(0)` is only an identity for the others.
        let mut it = parts.into_iter();
        let first = it.next().map(|p| r.merge(a, p)).unwrap_or(a);
        return it.fold(first, |x, y| r.merge(x, y));
    }
    r.slice(a, s, 0)
}

/// The most outputs whose running values [`small_reduce`] keeps in a row on the stack when it
/// reduces a block of dims that is not the last.
const ROWS_ON_STACK: usize = 16;

/// [`reduce`] for an inline input of static shape `S` into the row-major `out` over the kept dims:
/// per output, the reduced elements at constant strides, with the running value in a local.
#[inline(always)]
pub(crate) fn small_reduce<S: Shape, T: Element, R: Reducer<T>>(
    out: &mut [R::Out],
    src: &[T],
    mask: [bool; MAX_RANK],
    r: &R,
) -> Result<(), ShapeError> {
    use super::small::{padded_sizes, padded_strides, walk as cwalk};
    let size = padded_sizes::<S>();
    let st = padded_strides::<S>();
    let off = MAX_RANK - S::RANK.unwrap_or(0);
    let (mut outer, mut inner) = (size, size);
    let mut n = 1;
    let mut kst = [0usize; MAX_RANK];
    for i in (0..MAX_RANK).rev() {
        if i >= off && mask[i - off] {
            outer[i] = 1;
            kst[i] = n;
            n *= size[i];
        } else {
            inner[i] = 1;
        }
    }
    let (mut o, mut err) = (0, None);
    // The reduced dims are the last ones (a whole-tensor reduction, `sum_axis(Ax::<-1>)`): each
    // output reduces one contiguous block of `n` elements, through the reducer's slice form
    // (pairwise for sums).
    let rank = S::RANK.unwrap_or(0);
    let m = mask[..rank].iter().filter(|&&b| b).count();
    if n > 0 && mask[rank - m..rank].iter().all(|&b| b) {
        if n == 4 && src.len().is_multiple_of(16) {
            // Rows of four, four at a time, when the reducer has a joint form.
            for (q, (a, y)) in src.chunks_exact(16).zip(out.chunks_exact_mut(4)).enumerate() {
                let a: &[T; 16] = a.try_into().expect("chunks of 16");
                let Some(accs) = r.rows_of_four(a) else { break };
                for (y, acc) in y.iter_mut().zip(accs) {
                    match r.finish(acc, n) {
                        Ok(v) => *y = v,
                        Err(e) => {
                            err.get_or_insert(e);
                        }
                    }
                }
                if q + 1 == src.len() / 16 {
                    return err.map_or(Ok(()), Err);
                }
            }
        }
        for (o, block) in src.chunks_exact(n).enumerate() {
            match r.finish(r.slice_fresh(o, block), n) {
                Ok(v) => out[o] = v,
                Err(e) => {
                    err.get_or_insert(e);
                }
            }
        }
        return err.map_or(Ok(()), Err);
    }
    // The reduced dims are one block of adjacent dims followed by few elements (`sum_axis(Ax::<0>)`
    // of a matrix, a middle axis): per index before the block, its rows fold into a row of
    // running values on the stack, as the strided engine folds a contiguous input's block
    // (vectorised across the outputs; sums in plain blocks with one compensated add each), so
    // the results are the same bits as a heap tensor's.
    let first = (0..rank).find(|&i| mask[i]).unwrap_or(rank);
    let last = (0..rank).rev().find(|&i| mask[i]).map_or(rank, |i| i + 1);
    let after: usize = size[off + last..].iter().product();
    if n > 0 && (first..last).all(|i| mask[i]) && (1..=ROWS_ON_STACK).contains(&after) {
        for (ob, (blk, outs)) in src.chunks_exact(n * after).zip(out.chunks_exact_mut(after)).enumerate() {
            let mut acc = [r.init(ob * after); ROWS_ON_STACK];
            for (j, a) in acc.iter_mut().enumerate().take(after).skip(1) {
                *a = r.init(ob * after + j);
            }
            r.rows(&mut acc[..after], blk, 0);
            for (y, &a) in outs.iter_mut().zip(&acc[..after]) {
                match r.finish(a, n) {
                    Ok(v) => *y = v,
                    Err(e) => {
                        err.get_or_insert(e);
                    }
                }
            }
        }
        return err.map_or(Ok(()), Err);
    }
    cwalk(&outer, &[st], |[base]| {
        let mut a = r.init(o);
        cwalk(&inner, &[st, kst], |[i, k]| r.step(&mut a, src[base + i], k));
        match r.finish(a, n) {
            Ok(v) => out[o] = v,
            Err(e) => {
                if err.is_none() {
                    err = Some(e);
                }
            }
        }
        o += 1;
    });
    err.map_or(Ok(()), Err)
}
