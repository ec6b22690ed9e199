//! Element-wise kernels: maps and zips of one or two operands into new buffers, `_out` buffers
//! or in place, with the loop chosen per row from the strides, and rayon above the thresholds.
use super::*;
use crate::error::ShapeError;
use crate::layout::{walk_rows, Layout, Rows};
use crate::storage::{Element, OutData};
use crate::vmath::{Kernels, VecOp};
use alloc::vec::Vec;

/// Whether `pred` holds for some coordinate of `K` layouts over common `sizes` (element `k` read
/// from `data[k]` through `layouts[k]`), stopping at the first that does: the one scan behind the
/// integer zero-divisor checks and tensor equality. Walks in memory order by rows, as
/// [`walk_rows`] does.
pub(crate) fn any<T: Copy, const K: usize>(
    sizes: &[usize],
    data: [&[T]; K],
    layouts: [&Layout; K],
    pred: impl Fn([T; K]) -> bool,
) -> bool {
    if sizes.contains(&0) {
        return false;
    }
    Rows::new(sizes, layouts).any(|(first, n, st)| {
        (0..n).any(|i| pred(core::array::from_fn(|k| data[k][first[k].wrapping_add_signed(i as isize * st[k])])))
    })
}

/// For integer division and remainder: [`ShapeError::DivisionByZero`] naming `op` when a divisor
/// of `b` (layout `lb`) that would be used (`used`, the result's element count, is not 0) is
/// zero. Checked before anything is computed or written; never an error for floats.
pub(crate) fn check_divisor<T: crate::num::Num>(
    op: &'static str,
    b: &[T],
    lb: &Layout,
    used: usize,
) -> Result<(), ShapeError> {
    if T::INTEGER && used > 0 && any(lb.sizes(), [b], [lb], |[x]| x == T::ZERO) {
        return Err(ShapeError::DivisionByZero { op });
    }
    Ok(())
}

/// `f` applied to every element, in a new row-major buffer.
pub(crate) fn map<T: Element, U: Element>(
    src: &[T],
    l: &Layout,
    f: impl Fn(T) -> U + Sync + Send,
    threshold: usize,
) -> Result<Vec<U>, ShapeError> {
    #[cfg(not(feature = "rayon"))]
    let _ = threshold;
    let n = l.numel();
    let contiguous = contiguous_slice(src, l);
    // A strided view above the threshold: blocks of rows across the pool (see `zip`). Not a
    // transposed one: its tiled copy below ran slower on two threads than on one when split by
    // rows (`[2048, 384]` f64: 1.00-1.03 ms on one, 1.24-1.28 ms on two).
    #[cfg(feature = "rayon")]
    if contiguous.is_none() && parallel_from(n, threshold) && transposed_pair(l).is_none() {
        if let Some(cut) = row_blocks(l.sizes()) {
            use rayon::prelude::*;
            let mut out = crate::memory::try_vec_for_overwrite(n)?;
            out.par_chunks_mut(cut.1 * cut.2).enumerate().for_each(|(i, o)| {
                let len = o.len();
                map_into(o, src, &block(l, cut, i, len), &f)
            });
            return Ok(out);
        }
    }
    let mut out = try_with_capacity(n)?;
    if let Some(s) = contiguous {
        #[cfg(feature = "rayon")]
        if parallel_from(s.len(), threshold) {
            use rayon::prelude::*;
            // The capacity is already there: `par_extend` writes in place without reallocating.
            out.par_extend(s.par_iter().map(|&x| f(x)));
            return Ok(out);
        }
        out.extend(s.iter().map(|&x| f(x)));
        return Ok(out);
    }
    if n == 0 {
        return Ok(out);
    }
    if transposed_pair(l).is_some() {
        // Tiles write out of order: into a zero-filled buffer.
        out.resize(n, U::ZERO);
        map_into(&mut out, src, l, f);
        return Ok(out);
    }
    // Rows in order, each extending the vector (see `zip`).
    walk_rows(l.sizes(), [&row_major(l), l], |[o, i], n, [_, si]| {
        debug_assert_eq!(o, out.len());
        match si {
            1 => out.extend(src[i..i + n].iter().map(|&x| f(x))),
            0 => {
                // A broadcast row (a `.sum().backward()` seed): one read, no index per element.
                let x = src[i];
                out.extend((0..n).map(|_| f(x)))
            }
            _ => out.extend((0..n).map(|k| f(src[at(i, si, k)]))),
        }
    });
    Ok(out)
}

/// The `k`-th element of a row starting at `first` with `stride` (see `layout::walk_rows`).
#[inline(always)]
pub(super) fn at(first: usize, stride: isize, k: usize) -> usize {
    first.wrapping_add_signed(stride.wrapping_mul(k as isize))
}

/// One row of `out[o + k] = f(a[.], b[.])` (`out` contiguous in the row, see
/// `layout::walk_rows`), with a loop the compiler vectorises when both operands are contiguous
/// in the row or one of them is broadcast along it (stride 0).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn zip_row<A: Element, B: Element, C>(
    out: &mut [C],
    [o, i, j]: [usize; 3],
    n: usize,
    [so, sa, sb]: [isize; 3],
    a: &[A],
    b: &[B],
    f: &impl Fn(A, B) -> C,
) {
    match (so, sa, sb) {
        (1, 1, 1) => {
            let (x, y) = (&a[i..i + n], &b[j..j + n]);
            out[o..o + n].iter_mut().zip(x).zip(y).for_each(|((r, &p), &q)| *r = f(p, q));
        }
        (1, 1, 0) => {
            let q = b[j];
            out[o..o + n].iter_mut().zip(&a[i..i + n]).for_each(|(r, &p)| *r = f(p, q));
        }
        (1, 0, 1) => {
            let p = a[i];
            out[o..o + n].iter_mut().zip(&b[j..j + n]).for_each(|(r, &q)| *r = f(p, q));
        }
        _ => (0..n).for_each(|k| out[at(o, so, k)] = f(a[at(i, sa, k)], b[at(j, sb, k)])),
    }
}

/// `f(a, b)` over `la`'s sizes (`lb` already expanded to them), written in row-major order into
/// `out` (`la.numel()` long). Allocates nothing.
pub(crate) fn zip_into<A: Element, B: Element, C: Element>(
    out: &mut [C],
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> C,
) {
    debug_assert_eq!(la.sizes(), lb.sizes());
    debug_assert_eq!(out.len(), la.numel());
    if let (Some(x), Some(y)) = (contiguous_slice(a, la), contiguous_slice(b, lb)) {
        return zip_into_slices(out, x, y, &f);
    }
    if out.is_empty() {
        return;
    }
    walk_rows(la.sizes(), [&row_major(la), la, lb], |first, n, st| zip_row(out, first, n, st, a, b, &f));
}

/// [`map`] into a new buffer of the storage kind `O`: a `Vec` (rayon and the slice fast paths) or
/// an inline array (written in place, no allocation).
pub(crate) fn map_out<T: Element, U: Element, O: OutData<U>>(
    src: &[T],
    l: &Layout,
    f: impl Fn(T) -> U + Sync + Send,
    threshold: usize,
) -> Result<O, ShapeError> {
    if O::INLINE {
        let mut o = O::zeroed(l.numel())?;
        map_into(o.as_mut_slice(), src, l, f);
        Ok(o)
    } else {
        Ok(O::from_vec(map(src, l, f, threshold)?))
    }
}

/// [`zip`] into a new buffer of the storage kind `O` (see [`map_out`]).
pub(crate) fn zip_out<A: Element, B: Element, C: Element, O: OutData<C>>(
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> C + Sync + Send,
) -> Result<O, ShapeError> {
    if O::INLINE {
        let mut o = O::zeroed(la.numel())?;
        zip_into(o.as_mut_slice(), a, la, b, lb, f);
        Ok(o)
    } else {
        Ok(O::from_vec(zip(a, la, b, lb, f)?))
    }
}

/// `f(a, b)` over `sizes`, into a new row-major buffer. `la` and `lb` must already be expanded to
/// `sizes` (stride 0 on broadcast dims).
pub(crate) fn zip<A: Element, B: Element, C: Element>(
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> C + Sync + Send,
) -> Result<Vec<C>, ShapeError> {
    debug_assert_eq!(la.sizes(), lb.sizes());
    let n = la.numel();
    let contiguous = (contiguous_slice(a, la), contiguous_slice(b, lb));
    // A broadcast or strided operand above the threshold: blocks of rows across the pool, each
    // written in place into its run of a buffer every element of which a block overwrites. (A
    // layer norm's backward, `[2048, 384] * [2048, 1]` into new tensors, ran on the calling
    // thread alone while the pool slept.)
    #[cfg(feature = "rayon")]
    if !matches!(contiguous, (Some(_), Some(_))) && parallel(n) {
        if let Some(cut) = row_blocks(la.sizes()) {
            use rayon::prelude::*;
            let mut out = crate::memory::try_vec_for_overwrite(n)?;
            out.par_chunks_mut(cut.1 * cut.2).enumerate().for_each(|(i, o)| {
                let len = o.len();
                zip_into(o, a, &block(la, cut, i, len), b, &block(lb, cut, i, len), &f)
            });
            return Ok(out);
        }
    }
    let mut out = try_with_capacity(n)?;
    if let (Some(x), Some(y)) = contiguous {
        #[cfg(feature = "rayon")]
        if parallel(x.len()) {
            use rayon::prelude::*;
            out.par_extend(x.par_iter().zip(y.par_iter()).map(|(&p, &q)| f(p, q)));
            return Ok(out);
        }
        out.extend(x.iter().zip(y).map(|(&p, &q)| f(p, q)));
        return Ok(out);
    }
    if n == 0 {
        return Ok(out);
    }
    // The output's rows come in order (operand 0 is row-major, so `walk_rows` visits it so):
    // each row extends the vector, with no zero fill before it.
    let rows = Rows::new(la.sizes(), [&row_major(la), la, lb]);
    if let Some(((m, [_, ra, rb]), (n, [_, sa, sb]), [_, i0, j0])) = rows.two_level() {
        // Two levels (a matrix, or dims that merge into one): the row loop without the odometer,
        // and the inner loop's kind chosen once: a column broadcast `[1000, 1000] + [1000, 1]`
        // went from 1.07-1.17 to 1.00-1.06 of a plain loop (paired ratios, builds alternated).
        // `extend_row` is always inlined: the broadcast arm's constant strides fold its match.
        let row = |r: usize| [at(i0, ra, r), at(j0, rb, r)];
        match (sa, sb) {
            (1, 0) => (0..m).for_each(|r| extend_row(&mut out, row(r), n, [1, 0], a, b, &f)),
            (1, 1) => (0..m).for_each(|r| extend_row(&mut out, row(r), n, [1, 1], a, b, &f)),
            _ => (0..m).for_each(|r| extend_row(&mut out, row(r), n, [sa, sb], a, b, &f)),
        }
        return Ok(out);
    }
    for ([o, i, j], n, [_, sa, sb]) in rows {
        debug_assert_eq!(o, out.len());
        extend_row(&mut out, [i, j], n, [sa, sb], a, b, &f)
    }
    Ok(out)
}

/// One row of [`zip`]: `out` extended by `f(a[.], b[.])`, with a loop the compiler vectorises for
/// contiguous and broadcast rows. Always inlined into the kernel's loop over [`Rows`].
#[inline(always)]
pub(super) fn extend_row<A: Element, B: Element, C>(
    out: &mut Vec<C>,
    [i, j]: [usize; 2],
    n: usize,
    [sa, sb]: [isize; 2],
    a: &[A],
    b: &[B],
    f: &impl Fn(A, B) -> C,
) {
    match (sa, sb) {
        (1, 1) => out.extend(a[i..i + n].iter().zip(&b[j..j + n]).map(|(&p, &q)| f(p, q))),
        (1, 0) => {
            let q = b[j];
            out.extend(a[i..i + n].iter().map(|&p| f(p, q)));
        }
        (0, 1) => {
            let p = a[i];
            out.extend(b[j..j + n].iter().map(|&q| f(p, q)));
        }
        _ => out.extend((0..n).map(|k| f(a[at(i, sa, k)], b[at(j, sb, k)]))),
    }
}

/// `dst[ld] = f(a, b)` for every element of the (any-strided) layout `ld`, with `la` and `lb`
/// already expanded to its sizes: the kernel of the `_out` forms. A contiguous `ld` is a slice
/// ([`zip_into`], split across rayon's pool when [`parallel`] and both operands are contiguous).
/// Allocates nothing.
pub(crate) fn zip_to<A: Element, B: Element, C: Element>(
    dst: &mut [C],
    ld: &Layout,
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> C + Sync + Send,
) {
    debug_assert!(ld.sizes() == la.sizes() && ld.sizes() == lb.sizes());
    if let Some(out) = contiguous_slice_mut(dst, ld) {
        #[cfg(feature = "rayon")]
        if let (true, Some(x), Some(y)) = (parallel(out.len()), contiguous_slice(a, la), contiguous_slice(b, lb)) {
            use rayon::prelude::*;
            let rows = out.par_chunks_mut(PAR_CHUNK).zip(x.par_chunks(PAR_CHUNK)).zip(y.par_chunks(PAR_CHUNK));
            rows.for_each(|((o, x), y)| zip_into_slices(o, x, y, &f));
            return;
        }
        return zip_into(out, a, la, b, lb, f);
    }
    walk_rows(ld.sizes(), [ld, la, lb], |first, n, st| zip_row(dst, first, n, st, a, b, &f));
}

/// `out[k] = f(x[k], y[k])` over three slices of one length (a loop the compiler vectorises).
#[inline(always)]
pub(super) fn zip_into_slices<A: Element, B: Element, C: Element>(
    out: &mut [C],
    x: &[A],
    y: &[B],
    f: &impl Fn(A, B) -> C,
) {
    for ((o, &p), &q) in out.iter_mut().zip(x).zip(y) {
        *o = f(p, q);
    }
}

/// `dst[ld] = f(src)` for every element of the (any-strided) layout `ld`, with `l` already
/// expanded to its sizes: the kernel of the unary `_out` forms (see [`zip_to`]).
pub(crate) fn map_to<T: Element, U: Element>(
    dst: &mut [U],
    ld: &Layout,
    src: &[T],
    l: &Layout,
    f: impl Fn(T) -> U + Sync + Send,
    threshold: usize,
) {
    #[cfg(not(feature = "rayon"))]
    let _ = threshold;
    debug_assert_eq!(ld.sizes(), l.sizes());
    if let Some(out) = contiguous_slice_mut(dst, ld) {
        #[cfg(feature = "rayon")]
        if let (true, Some(x)) = (parallel_from(out.len(), threshold), contiguous_slice(src, l)) {
            use rayon::prelude::*;
            out.par_chunks_mut(PAR_CHUNK).zip(x.par_chunks(PAR_CHUNK)).for_each(|(o, x)| {
                o.iter_mut().zip(x).for_each(|(r, &v)| *r = f(v));
            });
            return;
        }
        return map_into(out, src, l, f);
    }
    walk_rows(ld.sizes(), [ld, l], |[o, i], n, [so, si]| match (so, si) {
        (1, 1) => dst[o..o + n].iter_mut().zip(&src[i..i + n]).for_each(|(r, &x)| *r = f(x)),
        (1, 0) => {
            let x = src[i];
            dst[o..o + n].iter_mut().for_each(|r| *r = f(x));
        }
        _ => (0..n).for_each(|k| dst[at(o, so, k)] = f(src[at(i, si, k)])),
    });
}

/// [`zip_assign`] split across rayon's pool when `ld` is contiguous and holds at least
/// [`PAR_THRESHOLD`] elements (the compound operators `a += &b`: their functions are `Sync`): in
/// chunks of a contiguous `src`, or, for any other `src` (a broadcast bias row, a view), in
/// blocks of the first dim longer than 1, each block of `src` narrowed to match. (Broadcast
/// operands ran on the calling thread alone: the bias adds of a transformer block's linear layers
/// were a serial 1.7% of its forward on two threads.)
pub(crate) fn zip_assign_par<T: Element, U: Element>(
    dst: &mut [T],
    ld: &Layout,
    src: &[U],
    ls: &Layout,
    f: impl Fn(&mut T, U) + Sync + Send,
) {
    #[cfg(feature = "rayon")]
    if ld.is_contiguous() && parallel(ld.numel()) {
        use rayon::prelude::*;
        let d = &mut dst[ld.offset()..ld.offset() + ld.numel()];
        if let Some(s) = contiguous_slice(src, ls) {
            d.par_chunks_mut(PAR_CHUNK).zip(s.par_chunks(PAR_CHUNK)).for_each(|(d, s)| {
                d.iter_mut().zip(s).for_each(|(d, &x)| f(d, x));
            });
            return;
        }
        if let Some(cut) = row_blocks(ld.sizes()) {
            d.par_chunks_mut(cut.1 * cut.2).enumerate().for_each(|(i, d)| {
                let lsp = block(ls, cut, i, d.len());
                // The block's own rows, contiguous from the start of its chunk.
                let lp = Layout::contiguous(lsp.sizes()).expect("a block's sizes are a tensor's");
                zip_assign(d, &lp, src, &lsp, &f)
            });
            return;
        }
    }
    zip_assign(dst, ld, src, ls, f)
}

/// A row-major buffer of `sizes` cut into blocks along its first dim longer than 1, `k` (every
/// dim before it has size 1, so a block is a run of the buffer), of about [`PAR_CHUNK`]
/// elements: `(k, rows per block, elements per row)`, or `None` when no dim is longer than 1
/// (the caller then runs on one thread). Block `b`'s piece of an operand expanded to `sizes`
/// is [`block`]; nothing is built per block until a thread takes it.
#[cfg(feature = "rayon")]
fn row_blocks(sizes: &[usize]) -> Option<(usize, usize, usize)> {
    let k = sizes.iter().position(|&s| s > 1)?;
    let inner = sizes[k + 1..].iter().product::<usize>();
    Some((k, (PAR_CHUNK / inner.max(1)).clamp(1, sizes[k]), inner))
}

/// Rows `b * rows ..` of `l` along dim `k` (see [`row_blocks`]), as many as `len` elements hold.
#[cfg(feature = "rayon")]
fn block(l: &Layout, (k, rows, inner): (usize, usize, usize), b: usize, len: usize) -> Layout {
    // `b * rows` is below `sizes[k]` (the block exists) and the rows fit: a valid narrowing.
    l.narrow(k, (b * rows) as isize, len / inner.max(1)).expect("a block of rows lies within the dim")
}

/// `f(&mut dst, src)` for every element of `ld`; `ls` must already be expanded to `ld`'s sizes.
pub(crate) fn zip_assign<T: Element, U: Element>(
    dst: &mut [T],
    ld: &Layout,
    src: &[U],
    ls: &Layout,
    f: impl Fn(&mut T, U),
) {
    debug_assert_eq!(ld.sizes(), ls.sizes());
    walk_rows(ld.sizes(), [ld, ls], |[o, i], n, [so, si]| match (so, si) {
        (1, 1) => dst[o..o + n].iter_mut().zip(&src[i..i + n]).for_each(|(d, &x)| f(d, x)),
        (1, 0) => {
            // Blocks of 16 (four SSE registers per step, as the compiler unrolls a loop of known
            // length; the runtime-length loop took two): `a += &col` at [1000, 1000] went from
            // 1.04 to 1.01 of a plain loop (back-to-back pairs, same buffer, three runs each).
            let x = src[i];
            let mut blocks = dst[o..o + n].chunks_exact_mut(16);
            for b in &mut blocks {
                b.iter_mut().for_each(|d| f(d, x));
            }
            blocks.into_remainder().iter_mut().for_each(|d| f(d, x));
        }
        _ => (0..n).for_each(|k| f(&mut dst[at(o, so, k)], src[at(i, si, k)])),
    });
}

/// [`map_inplace`] split across rayon's pool from `threshold` elements when `ld` is contiguous
/// (the named in-place methods, `exp_`, `relu_`, `x *= 2.0`, ...: their functions are `Sync`).
pub(crate) fn map_inplace_from<T: Element>(
    dst: &mut [T],
    ld: &Layout,
    f: impl Fn(T) -> T + Sync + Send,
    threshold: usize,
) {
    #[cfg(feature = "rayon")]
    if ld.is_contiguous() && parallel_from(ld.numel(), threshold) {
        use rayon::prelude::*;
        let d = &mut dst[ld.offset()..ld.offset() + ld.numel()];
        d.par_chunks_mut(PAR_CHUNK).for_each(|c| c.iter_mut().for_each(|x| *x = f(*x)));
        return;
    }
    #[cfg(not(feature = "rayon"))]
    let _ = threshold;
    map_inplace(dst, ld, f)
}

/// `*x = f(*x)` for every element of `ld`, in place.
pub(crate) fn map_inplace<T: Element>(dst: &mut [T], ld: &Layout, f: impl Fn(T) -> T) {
    let (o, n) = (ld.offset(), ld.numel());
    if n == 0 {
        return;
    }
    if ld.is_contiguous() {
        for x in &mut dst[o..o + n] {
            *x = f(*x);
        }
        return;
    }
    walk_rows(ld.sizes(), [ld], |[o], n, [so]| match so {
        1 => dst[o..o + n].iter_mut().for_each(|x| *x = f(*x)),
        _ => (0..n).map(|k| at(o, so, k)).for_each(|i| dst[i] = f(dst[i])),
    });
}

/// Elements per call of a vectorised kernel: 4 KiB of `f32`, in L1 with its output.
const VEC_BLOCK: usize = 1024;

/// `op` of every element of `src` (layout `l`) into a new row-major buffer of kind `O`, through
/// the vectorised kernels `(apply, map)` ([`crate::vmath`]). A contiguous source is read once:
/// written straight into the new buffer by `map` where the type has it, else copied and
/// transformed block by block while in L1 (split across rayon's pool from `threshold` elements
/// either way). Any other layout is copied to row-major order and transformed in place.
pub(crate) fn vec_map_out<T: Element, O: OutData<T>>(
    src: &[T],
    l: &Layout,
    op: VecOp,
    (apply, map): Kernels<T>,
    threshold: usize,
) -> Result<O, ShapeError> {
    #[cfg(not(feature = "rayon"))]
    let _ = threshold;
    let s = match (O::INLINE, contiguous_slice(src, l)) {
        (false, Some(s)) => s,
        _ => {
            let mut o: O = map_out(src, l, |x| x, threshold)?;
            vec_apply(o.as_mut_slice(), op, apply, threshold);
            return Ok(o);
        }
    };
    let n = s.len();
    let mut out = try_with_capacity(n)?;
    let Some(map) = map(op) else {
        #[cfg(feature = "rayon")]
        if parallel_from(n, threshold) {
            use rayon::prelude::*;
            out.par_extend(s.par_iter().copied());
            out.par_chunks_mut(PAR_CHUNK).for_each(|c| apply(op, c));
            return Ok(O::from_vec(out));
        }
        for block in s.chunks(VEC_BLOCK) {
            let start = out.len();
            out.extend_from_slice(block);
            apply(op, &mut out[start..]);
        }
        return Ok(O::from_vec(out));
    };
    // `map` of a run into the matching uninitialised run of `out`, in blocks that stay in L1 (a
    // kernel's fix-up pass then rereads its input from there); panics unless each call returned
    // its very block as initialised (the kernel's contract).
    let block = |src: &[T], dst: &mut [core::mem::MaybeUninit<T>]| {
        for (s, d) in src.chunks(VEC_BLOCK).zip(dst.chunks_mut(VEC_BLOCK)) {
            let (ptr, len) = (d.as_ptr() as *const T, d.len());
            let done = map(op, s, d);
            assert!(core::ptr::eq(done.as_ptr(), ptr) && done.len() == len, "vector kernel left a block unwritten");
        }
    };
    let spare = &mut out.spare_capacity_mut()[..n];
    #[cfg(feature = "rayon")]
    if parallel_from(n, threshold) {
        use rayon::prelude::*;
        spare.par_chunks_mut(PAR_CHUNK).zip(s.par_chunks(PAR_CHUNK)).for_each(|(d, c)| block(c, d));
    } else {
        block(s, spare);
    }
    #[cfg(not(feature = "rayon"))]
    block(s, spare);
    // SAFETY: `out` has capacity `n` (`try_with_capacity(n)`), and its first `n` slots were all
    // written: `block` covered `spare[..n]` (one call, or one per chunk of the parallel split,
    // whose chunks tile it; within a call, `chunks` of equal sizes tile `src` and `dst`, both of
    // length `n`) and asserted that each `map` returned its whole block as an initialised
    // `&mut [T]`; a failed assertion panics before this line, dropping `out` with length 0.
    unsafe { out.set_len(n) };
    Ok(O::from_vec(out))
}

/// `op` of every element of `ld` in place through the vectorised kernel `apply` when the layout
/// is contiguous (split across rayon's pool from `threshold` elements); through the scalar `f`
/// otherwise.
pub(crate) fn vec_map_inplace<T: Element>(
    dst: &mut [T],
    ld: &Layout,
    op: VecOp,
    apply: fn(VecOp, &mut [T]),
    f: impl Fn(T) -> T + Sync + Send,
    threshold: usize,
) {
    if ld.is_contiguous() {
        let (o, n) = (ld.offset(), ld.numel());
        return vec_apply(&mut dst[o..o + n], op, apply, threshold);
    }
    map_inplace_from(dst, ld, f, threshold)
}

/// `op` of the contiguous `src` written to `dst` (as long) through the in-place kernel `apply`:
/// each block of `VEC_BLOCK` copied and transformed while it is in L1, so that memory sees one
/// pass (before: the whole copy, then the kernel over `dst`, 1.8 against 1.1 ms for `erf_out` of
/// 1e6 `f64`); across rayon's pool from `threshold` elements. The bits of `apply` over a copy.
pub(crate) fn vec_copy_apply<T: Element>(
    dst: &mut [T],
    src: &[T],
    op: VecOp,
    apply: fn(VecOp, &mut [T]),
    threshold: usize,
) {
    assert_eq!(dst.len(), src.len());
    let run = |d: &mut [T], s: &[T]| {
        for (d, s) in d.chunks_mut(VEC_BLOCK).zip(s.chunks(VEC_BLOCK)) {
            d.copy_from_slice(s);
            apply(op, d);
        }
    };
    #[cfg(feature = "rayon")]
    if parallel_from(dst.len(), threshold) {
        use rayon::prelude::*;
        dst.par_chunks_mut(PAR_CHUNK).zip(src.par_chunks(PAR_CHUNK)).for_each(|(d, s)| run(d, s));
        return;
    }
    #[cfg(not(feature = "rayon"))]
    let _ = threshold;
    run(dst, src)
}

/// `apply(op, d)`, in blocks across rayon's pool from `threshold` elements.
fn vec_apply<T: Element>(d: &mut [T], op: VecOp, apply: fn(VecOp, &mut [T]), threshold: usize) {
    #[cfg(feature = "rayon")]
    if parallel_from(d.len(), threshold) {
        use rayon::prelude::*;
        d.par_chunks_mut(PAR_CHUNK).for_each(|c| apply(op, c));
        return;
    }
    #[cfg(not(feature = "rayon"))]
    let _ = threshold;
    apply(op, d)
}
