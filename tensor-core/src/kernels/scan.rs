//! Per-line kernels along one axis: cumulative sums, products and extrema (with their indices),
//! `logcumsumexp`, softmax and log-softmax, `roll` and `tril`/`triu`, which keep the shape and
//! write the row-major buffer `out` of the input's sizes; and the sorts along a line (`argsort`,
//! `topk_rows`, `take_lines` to gather by the sorted indices).
use crate::error::ShapeError;
use crate::kernels::fold::Reducer;
use crate::kernels::reduce::Extreme;
use crate::layout::{for_each_line, Layout, Line};
use crate::num::Num;
use crate::storage::Element;
use crate::vmath::VecOp;
use num_traits::Float;

/// Runs `f` on every line, stopping at its first error.
fn lines<T: Copy, U>(
    out: &mut [U],
    src: &[T],
    l: &Layout,
    axis: usize,
    mut f: impl FnMut(&Line<'_, T>, &mut [U], usize, usize) -> Result<(), ShapeError>,
) -> Result<(), ShapeError> {
    let mut err = Ok(());
    for_each_line(out, src, l, axis, |line, o, start, stride| {
        if err.is_ok() {
            err = f(line, o, start, stride);
        }
    })?;
    err
}

/// Cumulative sums along `axis`: exact for integers; `f32` added in `f64`, as PyTorch's CPU
/// kernel does; the other floats Kahan-compensated ([`Num::run`]).
pub(crate) fn cumsum<T: Num>(out: &mut [T::Sum], src: &[T], l: &Layout, axis: usize) -> Result<(), ShapeError> {
    let overflow = || ShapeError::Invalid("cumsum: the integer result does not fit 64 bits".into());
    let n = l.sizes().get(axis).copied().unwrap_or(0);
    if l.is_contiguous() && n > 0 && out.len() == l.numel() {
        // `[outer, n, inner]`: the running sums of a block of lines side by side, so that their
        // adds (a chain of dependent operations each: one widened add, or four for `f64`'s
        // compensation) overlap instead of waiting on one another; the same operations per line
        // as the walk below, so the same values.
        let inner: usize = l.sizes()[axis + 1..].iter().product();
        let x = &src[l.offset()..l.offset() + out.len()];
        if inner == 1 {
            const LINES: usize = 8;
            for (o, x) in out.chunks_mut(LINES * n).zip(x.chunks(LINES * n)) {
                let mut acc = [T::RUN0; LINES];
                let lines = x.len() / n;
                if lines == LINES {
                    // A full block: a fixed count, so that the running sums stay in registers.
                    for k in 0..n {
                        let mut ok = true;
                        for (j, a) in acc.iter_mut().enumerate() {
                            let v = T::run(a, x[j * n + k]);
                            ok &= v.is_some();
                            o[j * n + k] = v.unwrap_or(<T::Sum as Element>::ZERO);
                        }
                        if !ok {
                            return Err(overflow());
                        }
                    }
                    continue;
                }
                for k in 0..n {
                    for (j, a) in acc.iter_mut().enumerate().take(lines) {
                        o[j * n + k] = T::run(a, x[j * n + k]).ok_or_else(overflow)?;
                    }
                }
            }
        } else {
            let mut acc = alloc::vec![T::RUN0; inner];
            for (o, x) in out.chunks_mut(n * inner).zip(x.chunks(n * inner)) {
                acc.iter_mut().for_each(|a| *a = T::RUN0);
                for (o, x) in o.chunks_exact_mut(inner).zip(x.chunks_exact(inner)) {
                    for ((o, &v), a) in o.iter_mut().zip(x).zip(acc.iter_mut()) {
                        *o = T::run(a, v).ok_or_else(overflow)?;
                    }
                }
            }
        }
        return Ok(());
    }
    lines(out, src, l, axis, |line, out, start, stride| {
        let mut acc = T::RUN0;
        for k in 0..line.n {
            out[start + k * stride] = T::run(&mut acc, line.get(k))
                .ok_or_else(|| ShapeError::Invalid("cumsum: the integer result does not fit 64 bits".into()))?;
        }
        Ok(())
    })
}

/// Cumulative products along `axis` (checked for integers).
pub(crate) fn cumprod<T: Num>(out: &mut [T::Sum], src: &[T], l: &Layout, axis: usize) -> Result<(), ShapeError> {
    lines(out, src, l, axis, |line, out, start, stride| {
        let mut acc = <T::Sum as Element>::ONE;
        for k in 0..line.n {
            acc = <T::Sum as Num>::checked_mul(acc, T::to_sum(line.get(k)))
                .ok_or_else(|| ShapeError::Invalid("cumprod: the integer result does not fit 64 bits".into()))?;
            out[start + k * stride] = acc;
        }
        Ok(())
    })
}

/// Softmax (or log-softmax with `log`) along `axis`, shifted by each line's maximum so that exp
/// never overflows (an all `-inf` line gives NaN, as PyTorch). The shifted exponentials are
/// written once and summed from `out` (pairwise when the line is contiguous, where `exp` is the
/// element type's vectorised kernel if it has one).
pub(crate) fn softmax<T: Num<Sum = T> + Float>(
    out: &mut [T],
    src: &[T],
    l: &Layout,
    axis: usize,
    log: bool,
) -> Result<(), ShapeError> {
    let n = l.sizes().get(axis).copied().unwrap_or(0);
    if l.is_contiguous() && axis + 1 == l.rank() && (1..=SHORT_ROW).contains(&n) && out.len().is_multiple_of(n) {
        let x = &src[l.offset()..l.offset() + out.len()];
        // Across rayon's pool from the float functions' threshold (`exp` is most of the work), in
        // whole blocks of `softmax_short_rows`, so that each call of the vectorised `exp` sees
        // the slice it sees on one thread: the same bits. (It ran on the calling thread alone:
        // the attention weights' softmax was a serial 2.5% of a transformer block's forward on
        // two threads.)
        #[cfg(feature = "rayon")]
        if super::par::parallel_from(out.len(), super::PAR_MATH_THRESHOLD) {
            use rayon::prelude::*;
            let block = short_rows_block(n) * n;
            let chunk = block * (super::par::PAR_CHUNK / block).max(1);
            out.par_chunks_mut(chunk).zip(x.par_chunks(chunk)).for_each(|(o, x)| softmax_short_rows(o, x, n, log));
            return Ok(());
        }
        softmax_short_rows(out, x, n, log);
        return Ok(());
    }
    lines(out, src, l, axis, |line, out, start, stride| {
        if line.n == 0 {
            return Ok(());
        }
        let m = match line.as_slice() {
            Some(x) => Extreme::<true>.slice(T::LOWEST, x, 0),
            None => (0..line.n).fold(T::LOWEST, |mut m, k| {
                Extreme::<true>.step(&mut m, line.get(k), k);
                m
            }),
        };
        let total = if let (Some(x), 1) = (line.as_slice(), stride) {
            let o = &mut out[start..start + line.n];
            for (o, &v) in o.iter_mut().zip(x) {
                *o = v - m;
            }
            // The element type's vectorised `exp` where it has one (`crate::vmath`).
            match T::VMATH.kernels {
                Some((apply, _)) => apply(VecOp::Exp, o),
                None => o.iter_mut().for_each(|e| *e = e.exp()),
            }
            T::acc_finish(T::acc_slice(o))
        } else {
            let mut acc = T::ACC0;
            for k in 0..line.n {
                let e = (line.get(k) - m).exp();
                out[start + k * stride] = e;
                T::acc(&mut acc, e);
            }
            T::acc_finish(acc)
        };
        let total = total.unwrap_or_else(T::nan);
        if let (Some(x), 1) = (line.as_slice(), stride) {
            // A contiguous line (a class dimension past `SHORT_ROW`): slices, vectorised; the
            // arithmetic of the strided form below.
            let o = &mut out[start..start + line.n];
            if log {
                let ls = total.ln();
                for (o, &v) in o.iter_mut().zip(x) {
                    *o = (v - m) - ls;
                }
            } else {
                let r = total.recip();
                o.iter_mut().for_each(|o| *o = *o * r);
            }
            return Ok(());
        }
        if log {
            // (x - m) - ln(s): subtracting the shift in one step would round at the scale of m.
            let ls = total.ln();
            for k in 0..line.n {
                out[start + k * stride] = (line.get(k) - m) - ls;
            }
        } else {
            let r = total.recip();
            for k in 0..line.n {
                out[start + k * stride] = out[start + k * stride] * r;
            }
        }
        Ok(())
    })
}

/// Rows at most this long take [`softmax_short_rows`] (a class dimension: 10 digits, 1000
/// ImageNet classes take the per-line path, whose costs a long row hides).
const SHORT_ROW: usize = 64;

/// [`softmax`] of the contiguous rows of `n` elements of `x` (the last axis), in blocks of about
/// 2,048 elements: each row's maximum, the shifted values of the whole block, one call of the
/// vectorised `exp` on them, then each row's sum and finish, in the per-line path's arithmetic.
/// Rows of 10 paid the `exp` kernel's dispatch and the strided line reader per row: 30 µs on
/// `[360, 10]` against PyTorch's 18.
fn softmax_short_rows<T: Num<Sum = T> + Float>(out: &mut [T], x: &[T], n: usize, log: bool) {
    let rows = short_rows_block(n);
    let mut ms = [T::ZERO; SHORT_ROWS_BLOCK];
    for (ob, xb) in out.chunks_mut(rows * n).zip(x.chunks(rows * n)) {
        for ((o, r), m) in ob.chunks_exact_mut(n).zip(xb.chunks_exact(n)).zip(ms.iter_mut()) {
            *m = Extreme::<true>.slice(T::LOWEST, r, 0);
            for (o, &v) in o.iter_mut().zip(r) {
                *o = v - *m;
            }
        }
        match T::VMATH.kernels {
            Some((apply, _)) => apply(VecOp::Exp, ob),
            None => ob.iter_mut().for_each(|e| *e = e.exp()),
        }
        for ((o, r), &m) in ob.chunks_exact_mut(n).zip(xb.chunks_exact(n)).zip(ms.iter()) {
            let total = T::acc_finish(T::acc_slice(o)).unwrap_or_else(T::nan);
            if log {
                // (x - m) - ln(s): subtracting the shift in one step would round at the scale of m.
                let ls = total.ln();
                for (o, &v) in o.iter_mut().zip(r) {
                    *o = (v - m) - ls;
                }
            } else {
                let rc = total.recip();
                for o in o.iter_mut() {
                    *o = *o * rc;
                }
            }
        }
    }
}

/// The input gradient of [`softmax`] (or log-softmax with `log`) along the last axis, over
/// contiguous rows of `n > 0` elements, from the output `y` and its gradient `g`: softmax's
/// `y (g - Σ g y)` (the products written into `out`'s row, summed pairwise from there, then the
/// row), log-softmax's `g - exp(y) Σ g` (`exp` of a block of rows in one call of the element
/// type's vectorised kernel where it has one, `Σ g` pairwise). The arithmetic of the tensor
/// form, whose four passes and three temporaries over the whole tensor this replaces, one row
/// in the cache at a time. Blocks of whole rows go to rayon's pool from the element-wise
/// kernels' threshold (the float functions' with `log`).
///
/// # Panics
/// When the lengths do not agree (the caller sizes `out` from `g`).
pub(crate) fn softmax_backward_rows<T: Num<Sum = T> + Float>(out: &mut [T], g: &[T], y: &[T], n: usize, log: bool) {
    assert!(
        n > 0 && g.len().is_multiple_of(n) && y.len() == g.len() && out.len() == g.len(),
        "softmax_backward_rows: buffer lengths"
    );
    let block = short_rows_block(n) * n;
    let run = |out: &mut [T], g: &[T], y: &[T]| {
        for ((ob, gb), yb) in out.chunks_mut(block).zip(g.chunks(block)).zip(y.chunks(block)) {
            if log {
                ob.copy_from_slice(yb);
                match T::VMATH.kernels {
                    Some((apply, _)) => apply(VecOp::Exp, ob),
                    None => ob.iter_mut().for_each(|e| *e = e.exp()),
                }
                for (o, gr) in ob.chunks_exact_mut(n).zip(gb.chunks_exact(n)) {
                    let total = crate::num::pairwise(gr, |v| v);
                    for (o, &g) in o.iter_mut().zip(gr) {
                        *o = g - *o * total;
                    }
                }
            } else {
                for ((o, gr), yr) in ob.chunks_exact_mut(n).zip(gb.chunks_exact(n)).zip(yb.chunks_exact(n)) {
                    for ((o, &g), &y) in o.iter_mut().zip(gr).zip(yr) {
                        *o = g * y;
                    }
                    let dot = crate::num::pairwise(&*o, |v| v);
                    for ((o, &g), &y) in o.iter_mut().zip(gr).zip(yr) {
                        *o = (g - dot) * y;
                    }
                }
            }
        }
    };
    #[cfg(feature = "rayon")]
    {
        let threshold = if log { super::PAR_MATH_THRESHOLD } else { super::PAR_THRESHOLD };
        if super::par::parallel_from(g.len(), threshold) {
            use rayon::prelude::*;
            let chunk = block * (super::par::PAR_CHUNK / block).max(1);
            out.par_chunks_mut(chunk)
                .zip(g.par_chunks(chunk))
                .zip(y.par_chunks(chunk))
                .for_each(|((o, g), y)| run(o, g, y));
            return;
        }
    }
    run(out, g, y)
}

/// Elements of one block of [`softmax_short_rows`] (about: whole rows).
const SHORT_ROWS_BLOCK: usize = 2048;

/// Rows of `n` elements in one block of [`softmax_short_rows`].
fn short_rows_block(n: usize) -> usize {
    (SHORT_ROWS_BLOCK / n.max(1)).max(1)
}

/// `pairs` refilled with `(sort key, position)` of every element of `line`.
fn line_pairs<T: Num>(pairs: &mut alloc::vec::Vec<(u64, usize)>, line: &Line<'_, T>) -> Result<(), ShapeError> {
    pairs.clear();
    pairs
        .try_reserve(line.n)
        .map_err(|_| ShapeError::Alloc { count: line.n, elem_size: core::mem::size_of::<(u64, usize)>() })?;
    match line.as_slice() {
        Some(x) => pairs.extend(x.iter().map(|&v| T::sort_key(v)).zip(0..)),
        None => pairs.extend((0..line.n).map(|k| (T::sort_key(line.get(k)), k))),
    }
    Ok(())
}

/// `packed` refilled with one `u64` per element of `line`: its 32-bit sort key (complemented
/// for `flip`, so that an ascending sort gives the descending order) above its position. Every
/// value is distinct, so an unstable sort of them is the stable sort of the keys. Needs
/// `T::KEY32` and `line.n <= 2^32`.
fn line_packed<T: Num>(packed: &mut alloc::vec::Vec<u64>, line: &Line<'_, T>, flip: bool) -> Result<(), ShapeError> {
    packed.clear();
    packed.try_reserve(line.n).map_err(|_| ShapeError::Alloc { count: line.n, elem_size: 8 })?;
    let mask = if flip { u32::MAX } else { 0 };
    let pack = |v: T, k: usize| (u64::from(T::sort_key32(v) ^ mask) << 32) | k as u64;
    match line.as_slice() {
        Some(x) => packed.extend(x.iter().enumerate().map(|(k, &v)| pack(v, k))),
        None => packed.extend((0..line.n).map(|k| pack(line.get(k), k))),
    }
    Ok(())
}

/// Whether a line of `n` elements of `T` sorts as packed `u64`s ([`line_packed`]).
fn packs<T: Num>(n: usize) -> bool {
    T::KEY32 && n as u64 <= 1 << 32
}

/// The stable sorting permutation of each line along `axis` (ascending, or descending with
/// `descending`; equal elements keep their order either way), as `i64` positions in the line.
pub(crate) fn argsort<T: Num>(
    out: &mut [i64],
    src: &[T],
    l: &Layout,
    axis: usize,
    descending: bool,
) -> Result<(), ShapeError> {
    // (key, position) pairs of one line, sorted by the key (`Num::sort_key`: the sort's order
    // as unsigned integers): integer comparisons, no indirection. Types of at most 32 bits pack
    // key and position into one `u64` and sort those unstably (the positions make them
    // distinct): on f32 rows of 1024, argsort went from 4.61 to 2.31 ms for [256, 1024].
    let mut pairs: alloc::vec::Vec<(u64, usize)> = alloc::vec::Vec::new();
    let mut packed: alloc::vec::Vec<u64> = alloc::vec::Vec::new();
    lines(out, src, l, axis, |line, out, start, stride| {
        if packs::<T>(line.n) {
            line_packed(&mut packed, line, descending)?;
            packed.sort_unstable();
            for (k, &p) in packed.iter().enumerate() {
                out[start + k * stride] = (p & 0xFFFF_FFFF) as i64;
            }
            return Ok(());
        }
        line_pairs(&mut pairs, line)?;
        if descending {
            pairs.sort_by_key(|p| core::cmp::Reverse(p.0));
        } else {
            pairs.sort_by_key(|p| p.0);
        }
        for (k, &(_, i)) in pairs.iter().enumerate() {
            out[start + k * stride] = i as i64;
        }
        Ok(())
    })
}

/// `out`'s lines along `axis` taken from `src`'s at the positions `idx` holds (in `out`'s
/// row-major layout, as [`argsort`] writes them): the values of a sort.
pub(crate) fn take_lines<T: Copy>(
    out: &mut [T],
    src: &[T],
    l: &Layout,
    axis: usize,
    idx: &[i64],
) -> Result<(), ShapeError> {
    lines(out, src, l, axis, |line, out, start, stride| {
        for k in 0..line.n {
            let p = start + k * stride;
            out[p] = line.get(idx[p] as usize);
        }
        Ok(())
    })
}

/// The position of the running maximum (`MAX`) or minimum of each line along `axis`: the latest
/// position among equal values, the first NaN once one is met (NaN propagates, as in PyTorch's
/// `cummax`/`cummin`).
pub(crate) fn cum_extreme_idx<T: Num, const MAX: bool>(
    out: &mut [i64],
    src: &[T],
    l: &Layout,
    axis: usize,
) -> Result<(), ShapeError> {
    #[allow(clippy::eq_op)] // `x != x`: NaN
    let nan = |x: T| x != x;
    lines(out, src, l, axis, |line, out, start, stride| {
        let mut best = 0usize;
        for k in 0..line.n {
            let (x, b) = (line.get(k), line.get(best));
            let better = if MAX { x >= b } else { x <= b };
            if k == 0 || (!nan(b) && (nan(x) || better)) {
                best = k;
            }
            out[start + k * stride] = best as i64;
        }
        Ok(())
    })
}

/// `ln(Σ_{j <= k} e^x_j)` along `axis`, as a running `logaddexp` (`-inf` terms add nothing; NaN
/// propagates; `+inf` stays).
pub(crate) fn logcumsumexp<T: Num + Float>(
    out: &mut [T],
    src: &[T],
    l: &Layout,
    axis: usize,
) -> Result<(), ShapeError> {
    lines(out, src, l, axis, |line, out, start, stride| {
        let mut acc = T::neg_infinity();
        for k in 0..line.n {
            acc = crate::num::logaddexp(acc, line.get(k));
            out[start + k * stride] = acc;
        }
        Ok(())
    })
}

/// Each line along `axis` rotated by `shift` places (element `k` lands at `(k + shift) mod n`,
/// PyTorch's `roll`).
pub(crate) fn roll<T: Copy>(out: &mut [T], src: &[T], l: &Layout, axis: usize, shift: isize) -> Result<(), ShapeError> {
    lines(out, src, l, axis, |line, out, start, stride| {
        let n = line.n;
        if n == 0 {
            return Ok(());
        }
        let s = shift.rem_euclid(n as isize) as usize;
        for k in 0..n {
            let to = if k + s >= n { k + s - n } else { k + s };
            out[start + to * stride] = line.get(k);
        }
        Ok(())
    })
}

/// The lower (`lower`) or upper triangle of each matrix of the last two dims, offset by
/// `diagonal` (PyTorch's `tril`/`triu`): elements off it set to zero.
pub(crate) fn triangle<T: Element>(
    out: &mut [T],
    src: &[T],
    l: &Layout,
    lower: bool,
    diagonal: isize,
) -> Result<(), ShapeError> {
    let r = l.sizes().len();
    // Lines along the last dim: the row index comes from the line's start in `out`.
    let cols = l.sizes()[r - 1];
    let rows = l.sizes()[r - 2];
    lines(out, src, l, r - 1, |line, out, start, _| {
        let i = (start / cols.max(1)) % rows.max(1);
        for j in 0..line.n {
            let d = j as isize - i as isize;
            let keep = if lower { d <= diagonal } else { d >= diagonal };
            out[start + j] = if keep { line.get(j) } else { T::ZERO };
        }
        Ok(())
    })
}

/// The `k` largest (`largest`) or smallest elements of each contiguous row of `n` elements of
/// `src`, in sorted order, and their positions in the row, appended to `values` and `idx` (`k`
/// per row, `k <= n`), written at the final size.
pub(crate) fn topk_rows<T: Num>(
    src: &[T],
    n: usize,
    k: usize,
    largest: bool,
    values: &mut alloc::vec::Vec<T>,
    idx: &mut alloc::vec::Vec<i64>,
) -> Result<(), ShapeError> {
    if n == 0 || k == 0 {
        return Ok(());
    }
    let mut sel = Select::default();
    for row in src.chunks_exact(n) {
        sel.top(&Line::of_slice(row), k, largest, |_, i| {
            idx.push(i as i64);
            values.push(row[i]);
        })?;
    }
    Ok(())
}

/// The buffers of a top-`k` selection, reused across lines.
#[derive(Default)]
struct Select {
    pairs: alloc::vec::Vec<(u64, usize)>,
    packed: alloc::vec::Vec<u64>,
}

impl Select {
    /// Calls `emit(j, position)` for the `k` (`1..=line.n`) largest or smallest elements of
    /// `line` in sorted order: selection (`select_nth_unstable`) then a sort of those `k` only,
    /// in the sort's order with the position as the last key (a total order, so the result is
    /// exactly the stable sort's prefix).
    fn top<T: Num>(
        &mut self,
        line: &Line<'_, T>,
        k: usize,
        largest: bool,
        mut emit: impl FnMut(usize, usize),
    ) -> Result<(), ShapeError> {
        if packs::<T>(line.n) {
            // Packed keys (see `argsort`): for `largest` the complemented key sorts first.
            let packed = &mut self.packed;
            line_packed(packed, line, largest)?;
            if k < line.n {
                packed.select_nth_unstable(k - 1);
            }
            packed[..k].sort_unstable();
            packed[..k].iter().enumerate().for_each(|(j, &p)| emit(j, (p & 0xFFFF_FFFF) as usize));
            return Ok(());
        }
        let pairs = &mut self.pairs;
        line_pairs(pairs, line)?;
        let cmp = |a: &(u64, usize), b: &(u64, usize)| {
            let o = if largest { b.0.cmp(&a.0) } else { a.0.cmp(&b.0) };
            o.then(a.1.cmp(&b.1))
        };
        if k < line.n {
            pairs.select_nth_unstable_by(k - 1, cmp);
        }
        pairs[..k].sort_unstable_by(cmp);
        pairs[..k].iter().enumerate().for_each(|(j, &(_, i))| emit(j, i));
        Ok(())
    }
}
