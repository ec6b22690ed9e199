//! Pooling on contiguous NCHW buffers (the kernels of `ops/pool.rs`): max, average and adaptive
//! average pooling, each a direct loop over every window (no product to hand off), planes on
//! rayon's pool from `PAR_POOL` output elements on. The front end checks every size and makes the input
//! contiguous; the window geometry is the convolutions' [`Geom`].
use super::conv::Geom;
use crate::num::Num;
use num_traits::Float;

/// Max pooling of `g.n * g.c` planes (PyTorch's CPU kernel): each window's largest element, NaN
/// if the window holds one (`val > max || isnan(val)`, so the index is the window's last NaN),
/// and its flat index `iy * w + ix` within the plane when `idx` is given. Padding is never
/// chosen (the caller keeps the padding at most half the window, so every window reads input).
pub(crate) fn max_pool2d<T: Float + Num>(x: &[T], g: &Geom, out: &mut [T], mut idx: Option<&mut [i64]>) {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    if idx.is_none() && g.pad == [0, 0] {
        let step = |best, v: T| if v > best || v.is_nan() { v } else { best };
        return pool_rows(x, g, out, &Fold { init: T::neg_infinity(), step, finish: |m| m });
    }
    if let (Some(idx), [0, 0]) = (idx.as_deref_mut(), g.pad) {
        // Without padding every window lies inside the plane (no ceil mode): the loop below
        // without its per-element bounds tests and optional index, the same choices (the window's
        // first element starts it), with the common windows' sizes as constants so that their
        // loops unroll. The backward pass needs the indices: the general loop took 45% of a
        // `[32, 64, 56, 56]` 2x2 forward and backward.
        match (g.kh, g.kw, g.dil) {
            (2, 2, [1, 1]) => max_pool_indexed(x, g, out, idx, 2, 2, [1, 1]),
            (3, 3, [1, 1]) => max_pool_indexed(x, g, out, idx, 3, 3, [1, 1]),
            _ => max_pool_indexed(x, g, out, idx, g.kh, g.kw, g.dil),
        }
        return;
    }
    for p in 0..g.n * g.c {
        let plane = &x[p * hw..(p + 1) * hw];
        for y in 0..g.oh {
            for xo in 0..g.ow {
                let mut best = T::neg_infinity();
                let mut at: Option<usize> = None;
                for i in 0..g.kh {
                    let Some(iy) = g.row(y, i) else { continue };
                    for j in 0..g.kw {
                        let px = xo * g.stride[1] + j * g.dil[1];
                        let Some(ix) = px.checked_sub(g.pad[1]).filter(|&ix| ix < g.w) else { continue };
                        let k = iy * g.w + ix;
                        let v = plane[k];
                        // The first element read starts the window (PyTorch's initial index).
                        if at.is_none() {
                            at = Some(k);
                        }
                        if v > best || v.is_nan() {
                            best = v;
                            at = Some(k);
                        }
                    }
                }
                let o = p * ohw + y * g.ow + xo;
                out[o] = best;
                if let Some(idx) = idx.as_deref_mut() {
                    idx[o] = at.unwrap_or(0) as i64;
                }
            }
        }
    }
}

/// [`max_pool2d`] with indices and no padding, `kh`, `kw` and `dil` being `g`'s (passed apart so
/// that constant arguments specialise the inlined loops).
#[inline(always)]
fn max_pool_indexed<T: Float + Num>(
    x: &[T],
    g: &Geom,
    out: &mut [T],
    idx: &mut [i64],
    kh: usize,
    kw: usize,
    dil: [usize; 2],
) {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    for (p, (op, ip)) in out.chunks_exact_mut(ohw).zip(idx.chunks_exact_mut(ohw)).enumerate().take(g.n * g.c) {
        let plane = &x[p * hw..(p + 1) * hw];
        for y in 0..g.oh {
            let iy0 = y * g.stride[0];
            for xo in 0..g.ow {
                let ix0 = xo * g.stride[1];
                let (mut best, mut at) = (T::neg_infinity(), iy0 * g.w + ix0);
                for i in 0..kh {
                    let row = (iy0 + i * dil[0]) * g.w + ix0;
                    for j in 0..kw {
                        let k = row + j * dil[1];
                        let v = plane[k];
                        if v > best || v.is_nan() {
                            best = v;
                            at = k;
                        }
                    }
                }
                op[y * g.ow + xo] = best;
                ip[y * g.ow + xo] = at as i64;
            }
        }
    }
}

/// Average pooling of `g.n * g.c` planes (PyTorch `avg_pool2d`, `ceil_mode=False`, no
/// dilation): the sum of each window's input elements divided by the window's size clipped to the
/// padded input (`count_include_pad`) or by the number of input elements it covers.
pub(crate) fn avg_pool2d<T: Float + Num>(x: &[T], g: &Geom, out: &mut [T], count_include_pad: bool) {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    if g.pad == [0, 0] && g.dil == [1, 1] {
        // Every window lies inside the input: its size is the divisor either way.
        let count = T::from(g.kh * g.kw).unwrap_or_else(T::nan);
        return pool_rows(x, g, out, &Fold { init: T::ZERO, step: |s, v| s + v, finish: move |s| s / count });
    }
    let (ph, pw) = (g.pad[0], g.pad[1]);
    for p in 0..g.n * g.c {
        let plane = &x[p * hw..(p + 1) * hw];
        for y in 0..g.oh {
            // Padded coordinates: the window covers py0..py1 of the padded plane.
            let py0 = y * g.stride[0];
            let py1 = (py0 + g.kh).min(g.h + 2 * ph);
            let (iy0, iy1) = (py0.max(ph) - ph, py1.min(ph + g.h).max(ph) - ph);
            for xo in 0..g.ow {
                let px0 = xo * g.stride[1];
                let px1 = (px0 + g.kw).min(g.w + 2 * pw);
                let (ix0, ix1) = (px0.max(pw) - pw, px1.min(pw + g.w).max(pw) - pw);
                let mut sum = T::ZERO;
                for iy in iy0..iy1.max(iy0) {
                    for &v in &plane[iy * g.w + ix0..iy * g.w + ix1.max(ix0)] {
                        sum = sum + v;
                    }
                }
                let count = if count_include_pad {
                    (py1 - py0) * (px1 - px0)
                } else {
                    iy1.saturating_sub(iy0) * ix1.saturating_sub(ix0)
                };
                out[p * ohw + y * g.ow + xo] = sum / T::from(count).unwrap_or_else(T::nan);
            }
        }
    }
}

/// How a pooling folds a window into its output: each output starts at `init`, meets its
/// window's elements in PyTorch's order (window rows, then columns) through `step`, and ends as
/// `finish(acc)`.
struct Fold<T, St, Fi> {
    init: T,
    step: St,
    finish: Fi,
}

/// A pooling of `g.n * g.c` planes with no padding (every window inside the input) by the fold
/// `f`, an output row at a time so that the inner loop runs along the row and vectorises. The
/// window offset is the outer loop, the output column the inner one.
/// The planes go to rayon's pool in pieces from [`PAR_POOL`] output elements on.
#[inline(always)]
fn pool_rows<T, St, Fi>(x: &[T], g: &Geom, out: &mut [T], f: &Fold<T, St, Fi>)
where
    T: Float + Num,
    St: Fn(T, T) -> T + Sync,
    Fi: Fn(T) -> T + Sync,
{
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    if ohw == 0 || hw == 0 {
        return;
    }
    #[cfg(feature = "rayon")]
    if super::par::parallel_from_unchanged(out.len(), PAR_POOL) {
        use rayon::prelude::*;
        // Whole planes per task, about PAR_POOL / 4 output elements each.
        let per = (PAR_POOL / 4).div_ceil(ohw);
        out.par_chunks_mut(per * ohw).zip(x.par_chunks(per * hw)).for_each(|(o, xs)| {
            pool_planes(xs, g, o, f);
        });
        return;
    }
    pool_planes(x, g, out, f);
}

/// Output elements of a pooling from which its planes split across rayon's pool: 2^17.
/// Measured in the digits CNN's forward (2026-11-30, two threads, workers asleep between the
/// stages): at 2^14, `max_pool2d` of `[360,8,8,8]` (46,080 outputs, 30 µs on one thread) took
/// 43 µs on two, and with `relu` 93-218 against 50 µs; `[32,64,56,56]` (1.6e6 outputs) gains
/// 1.4-2x.
#[cfg(feature = "rayon")]
const PAR_POOL: usize = 1 << 17;

/// [`pool_rows`] of the whole planes in `x` (`out` holds their outputs).
#[inline(always)]
fn pool_planes<T: Float + Num>(x: &[T], g: &Geom, out: &mut [T], f: &Fold<T, impl Fn(T, T) -> T, impl Fn(T) -> T>) {
    let Fold { init, ref step, ref finish } = *f;
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    let s = g.stride[1];
    if g.kh == 2 && g.kw == 2 && g.stride == [2, 2] && g.dil == [1, 1] {
        // The common 2x2 window, stride 2: each output row reads a pair of input rows, and each
        // output a pair of columns of both, all four in one expression (the loop below pays a
        // pass over the row per window element, which costs more than the work on rows of 2-8
        // outputs: the digits' pools).
        for (plane, oplane) in x.chunks_exact(hw).zip(out.chunks_exact_mut(ohw)) {
            for (rows, orow) in plane.chunks_exact(2 * g.w).zip(oplane.chunks_exact_mut(g.ow)) {
                let (r0, r1) = rows.split_at(g.w);
                for ((d, a), b) in orow.iter_mut().zip(r0.chunks_exact(2)).zip(r1.chunks_exact(2)) {
                    *d = finish(step(step(step(step(init, a[0]), a[1]), b[0]), b[1]));
                }
            }
        }
        return;
    }
    for (p, plane) in x.chunks_exact(hw).enumerate().take(out.len() / ohw) {
        for y in 0..g.oh {
            let row = &mut out[p * ohw + y * g.ow..p * ohw + (y + 1) * g.ow];
            row.fill(init);
            for i in 0..g.kh {
                // No padding: `y * stride + i * dil` is inside the plane (the output size says so).
                let iy = y * g.stride[0] + i * g.dil[0];
                let src = &plane[iy * g.w..(iy + 1) * g.w];
                for j in 0..g.kw {
                    let off = j * g.dil[1];
                    if s == 1 {
                        for (r, &v) in row.iter_mut().zip(&src[off..]) {
                            *r = step(*r, v);
                        }
                    } else if s == 2 {
                        for (r, v) in row.iter_mut().zip(src[off..].chunks(2)) {
                            *r = step(*r, v[0]);
                        }
                    } else {
                        for (r, &v) in row.iter_mut().zip(src[off..].iter().step_by(s)) {
                            *r = step(*r, v);
                        }
                    }
                }
            }
            for r in row.iter_mut() {
                *r = finish(*r);
            }
        }
    }
}

/// Adaptive average pooling of `g.n * g.c` planes to `g.oh x g.ow` (PyTorch
/// `adaptive_avg_pool2d`): output row `y` averages input rows `floor(y * h / oh)` to
/// `ceil((y + 1) * h / oh)` (exclusive), and likewise for columns.
pub(crate) fn adaptive_avg_pool2d<T: Float + Num>(x: &[T], g: &Geom, out: &mut [T]) {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    // In 128 bits: `y * h` may not fit 64. The windows once per call, not per output.
    let start = |o: usize, n: usize, on: usize| ((o as u128 * n as u128) / on as u128) as usize;
    let end = |o: usize, n: usize, on: usize| ((o as u128 + 1) * n as u128).div_ceil(on as u128) as usize;
    if ohw == 1 && hw > 0 {
        // Global pooling (a classifier's head): each plane is one window, summed pairwise as
        // below, without the per-window loops.
        let count = T::from(hw).unwrap_or_else(T::nan);
        for (o, plane) in out.iter_mut().zip(x.chunks_exact(hw)).take(g.n * g.c) {
            *o = crate::num::pairwise(plane, |v| v) / count;
        }
        return;
    }
    let rows: alloc::vec::Vec<(usize, usize)> = (0..g.oh).map(|y| (start(y, g.h, g.oh), end(y, g.h, g.oh))).collect();
    let cols: alloc::vec::Vec<(usize, usize)> = (0..g.ow).map(|o| (start(o, g.w, g.ow), end(o, g.w, g.ow))).collect();
    for p in 0..g.n * g.c {
        let plane = &x[p * hw..(p + 1) * hw];
        for (y, &(iy0, iy1)) in rows.iter().enumerate() {
            for (xo, &(ix0, ix1)) in cols.iter().enumerate() {
                // Each window row (the whole window when it spans full rows) summed pairwise in
                // lanes: no chain of dependent adds, and the rounding of a pairwise sum.
                let sum = if ix0 == 0 && ix1 == g.w {
                    crate::num::pairwise(&plane[iy0 * g.w..iy1 * g.w], |v| v)
                } else {
                    (iy0..iy1)
                        .fold(T::ZERO, |s, iy| s + crate::num::pairwise(&plane[iy * g.w + ix0..iy * g.w + ix1], |v| v))
                };
                let count = (iy1 - iy0) * (ix1 - ix0);
                out[p * ohw + y * g.ow + xo] = sum / T::from(count).unwrap_or_else(T::nan);
            }
        }
    }
}
