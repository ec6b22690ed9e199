//! Layer normalisation's rows in one pass over memory per row: the mean, the centred values, their
//! mean square, `x̂ = (x - mean) / sqrt(var + eps)` and `y = x̂ · weight + bias`, each row while it
//! is in the cache. The tensor form took seven passes with four temporaries (3.3 ms for MiniLM's
//! `[672, 384]` on one thread; this form 0.45 ms). Their backward passes: layer normalisation's
//! in one pass over the rows, batch normalisation's in two (each row's sums, then the input's
//! gradient).
use crate::num::pairwise;
use num_traits::Float;

/// Element count from which [`layer_norm_rows`] splits its rows across rayon's pool (about ten
/// operations per element over two sums: between the element-wise kernels' threshold and the
/// float functions').
#[cfg(feature = "rayon")]
const PAR_ROWS_THRESHOLD: usize = 1 << 16;

/// Layer normalisation of the rows of `x` (`rows * d` elements, row-major, `d > 0`): writes
/// `x̂ · weight + bias` (`(weight, bias)`, each optional, `d` long) into `y`, with
/// `x̂ = (x - mean) rstd`, `1 / sqrt(var + eps)` of each row into `rstd`, and each row's mean
/// into `mean` when it is given (a backward pass recomputes `x̂` from `x`, the mean and `rstd`,
/// to the same bits, as PyTorch's keeps the two statistics rather than `x̂`). Each row's centred
/// values go into `y`, their mean square gives `rstd`, and one pass scales them and applies the
/// weight and bias in place. Sums are pairwise ([`pairwise`]), as the tensor reductions'.
/// Splits the rows across rayon's pool from [`PAR_ROWS_THRESHOLD`] elements.
///
/// # Panics
/// When the lengths do not agree (the caller sizes every buffer from `x`'s layout).
pub(crate) fn layer_norm_rows<T: Float + Send + Sync>(
    x: &[T],
    d: usize,
    eps: T,
    (weight, bias): (Option<&[T]>, Option<&[T]>),
    (mean, y, rstd): (Option<&mut [T]>, &mut [T], &mut [T]),
) {
    assert!(d > 0 && x.len().is_multiple_of(d), "layer_norm_rows: {} elements in rows of {d}", x.len());
    assert!(
        mean.as_ref().is_none_or(|m| m.len() == x.len() / d) && y.len() == x.len() && rstd.len() == x.len() / d,
        "layer_norm_rows: buffer lengths"
    );
    assert!(
        weight.is_none_or(|w| w.len() == d) && bias.is_none_or(|b| b.len() == d),
        "layer_norm_rows: weight or bias length"
    );
    let inv_d = T::one() / T::from(d).unwrap_or_else(T::nan);
    let row = |xr: &[T], yr: &mut [T], r: &mut T, m: Option<&mut T>| {
        let mean = pairwise(xr, |v| v) * inv_d;
        for (h, &v) in yr.iter_mut().zip(xr) {
            *h = v - mean;
        }
        let var = pairwise(&*yr, |v| v * v) * inv_d;
        let rs = T::one() / (var + eps).sqrt();
        *r = rs;
        if let Some(m) = m {
            *m = mean;
        }
        affine(yr, (weight, bias), rs);
    };
    // Whole rows of `x`, `y` and `rstd` (and the means when kept), in order.
    let rows = |xs: &[T], mut ms: Option<&mut [T]>, ys: &mut [T], rs: &mut [T]| {
        for (k, ((xr, yr), r)) in xs.chunks_exact(d).zip(ys.chunks_exact_mut(d)).zip(rs.iter_mut()).enumerate() {
            row(xr, yr, r, ms.as_deref_mut().map(|m| &mut m[k]));
        }
    };
    #[cfg(feature = "rayon")]
    if super::parallel_from(x.len(), PAR_ROWS_THRESHOLD) {
        use rayon::prelude::*;
        // Whole rows per task, about `PAR_CHUNK` elements each.
        let per = (super::PAR_CHUNK / d).max(1);
        let tasks = x.par_chunks(per * d).zip(y.par_chunks_mut(per * d)).zip(rstd.par_chunks_mut(per));
        match mean {
            Some(mean) => {
                tasks.zip(mean.par_chunks_mut(per)).for_each(|(((xs, ys), rs), ms)| rows(xs, Some(ms), ys, rs))
            }
            None => tasks.for_each(|((xs, ys), rs)| rows(xs, None, ys, rs)),
        }
        return;
    }
    rows(x, mean, y, rstd);
}

/// `y = (c · rstd) · weight + bias` over a row of centred values `c`, in place (each of
/// `weight` and `bias` optional): layer normalisation's last step.
#[inline(always)]
fn affine<T: Float>(yr: &mut [T], (weight, bias): (Option<&[T]>, Option<&[T]>), rs: T) {
    match (weight, bias) {
        (Some(w), Some(b)) => {
            for ((o, &w), &b) in yr.iter_mut().zip(w).zip(b) {
                *o = (*o * rs) * w + b;
            }
        }
        (Some(w), None) => {
            for (o, &w) in yr.iter_mut().zip(w) {
                *o = (*o * rs) * w;
            }
        }
        (None, Some(b)) => {
            for (o, &b) in yr.iter_mut().zip(b) {
                *o = *o * rs + b;
            }
        }
        (None, None) => {
            for o in yr.iter_mut() {
                *o = *o * rs;
            }
        }
    }
}

/// The gradients [`layer_norm_backward`] and [`batch_norm_backward`] write, each `None` when its
/// input is not tracked.
pub(crate) struct LayerNormGrads<'a, T> {
    /// The input's, `rows * d`: `rstd (gh - mean(gh) - x̂ mean(gh x̂))` with `gh = g · weight`.
    pub(crate) input: Option<&'a mut [T]>,
    /// The weight's, `d`: `Σ_rows g x̂`.
    pub(crate) weight: Option<&'a mut [T]>,
    /// The bias's, `d`: `Σ_rows g`.
    pub(crate) bias: Option<&'a mut [T]>,
}

impl<T> LayerNormGrads<'_, T> {
    /// Panics unless `weight` and the weight's and bias's gradients have `k` elements each and
    /// the input's gradient `n` (`op` names the kernel).
    fn check(&self, op: &str, weight: Option<&[T]>, n: usize, k: usize) {
        assert!(weight.is_none_or(|w| w.len() == k), "{op}: weight length");
        assert!(self.input.as_deref().is_none_or(|o| o.len() == n), "{op}: input gradient length");
        let params = [self.weight.as_deref(), self.bias.as_deref()];
        assert!(params.iter().all(|p| p.is_none_or(|o| o.len() == k)), "{op}: weight or bias gradient length");
    }
}

/// Rows summed plainly into a block of [`layer_norm_backward`]'s column sums before one
/// compensated add per column (an error of up to about `16 ε` per block, as the crate's column
/// sums' blocks; the compensated adds cost a sixteenth of the rows).
const COLUMN_BLOCK: usize = 16;

/// Elements per leaf of [`layer_norm_backward`] (rounded to whole blocks of rows): the size of the
/// element-wise kernels' rayon chunks, here with or without the `rayon` feature, since the leaves
/// fix the order of the column sums' adds.
const LEAF_ELEMENTS: usize = 1 << 14;

/// The backward pass of [`layer_norm_rows`] over rows of `d` elements (row-major, `d > 0`), from
/// the output's gradient `g`, the input `x` and each row's kept mean and `rstd`, in one pass over
/// memory: each row's `x̂ = (x - mean) rstd` recomputed (the forward's bits) into a row of
/// scratch (or, without `mean`, `x` holding `x̂` itself), then its input gradient while the row
/// is in the cache (PyTorch's formula; `mean(gh)` a pairwise sum as the
/// forward's means, `mean(gh x̂)` the crate's dot product, each times `1 / d`), and the weight's
/// and bias's column sums `Σ g x̂`, `Σ g` accumulated from the same rows (blocks of
/// [`COLUMN_BLOCK`] rows summed plainly, then added with compensation, as the tensor column sums
/// do). Before, the three were three kernels and two temporaries over the whole tensor.
///
/// The rows are cut into leaves of about [`LEAF_ELEMENTS`] elements (a multiple of
/// [`COLUMN_BLOCK`] rows) and the leaves' column sums added as a binary tree; the cuts depend on
/// the sizes only, so the bits do not depend on the thread count. Halves go to rayon's pool
/// from [`PAR_ROWS_THRESHOLD`] elements.
///
/// # Panics
/// When the lengths do not agree (the caller sizes every buffer from `g`'s layout).
pub(crate) fn layer_norm_backward<T: Float + crate::num::Num + Send + Sync>(
    g: &[T],
    x: &[T],
    (mean, rstd): (Option<&[T]>, &[T]),
    weight: Option<&[T]>,
    d: usize,
    grads: LayerNormGrads<'_, T>,
) {
    assert!(d > 0 && g.len().is_multiple_of(d), "layer_norm_backward: {} elements in rows of {d}", g.len());
    assert!(
        x.len() == g.len() && rstd.len() == g.len() / d && mean.is_none_or(|m| m.len() == rstd.len()),
        "layer_norm_backward: buffer lengths"
    );
    grads.check("layer_norm_backward", weight, g.len(), d);
    let rows = Rows {
        d,
        inv_d: T::one() / T::from(d).unwrap_or_else(T::nan),
        weight,
        sums: [grads.weight.is_some(), grads.bias.is_some()],
        leaf_rows: (LEAF_ELEMENTS / d).max(1).next_multiple_of(COLUMN_BLOCK),
    };
    let [w, b] = rows.split(g, x, (mean, rstd), grads.input);
    for (out, cols) in [(grads.weight, w), (grads.bias, b)] {
        if let (Some(out), Some(cols)) = (out, cols) {
            for ((o, &s), &e) in out.iter_mut().zip(&cols.sum).zip(&cols.err) {
                *o = s - e;
            }
        }
    }
}

/// The sizes and inputs shared by every leaf of [`layer_norm_backward`].
struct Rows<'a, T> {
    d: usize,
    inv_d: T,
    weight: Option<&'a [T]>,
    /// Whether the weight's and the bias's column sums are wanted.
    sums: [bool; 2],
    /// Rows per leaf.
    leaf_rows: usize,
}

/// Compensated column sums: the value of column `k` is `sum[k] - err[k]` (as [`kahan`]'s pair).
///
/// [`kahan`]: crate::num::kahan
struct Columns<T> {
    sum: alloc::vec::Vec<T>,
    err: alloc::vec::Vec<T>,
}

impl<T: Float> Columns<T> {
    fn new(d: usize) -> Self {
        Columns { sum: alloc::vec![T::zero(); d], err: alloc::vec![T::zero(); d] }
    }

    /// Adds `values` (one per column) with compensation.
    fn add(&mut self, values: impl Iterator<Item = T>) {
        for ((s, e), v) in self.sum.iter_mut().zip(self.err.iter_mut()).zip(values) {
            let mut a = (*s, *e);
            crate::num::kahan(&mut a, v);
            (*s, *e) = a;
        }
    }
}

/// The weight's and the bias's column sums of a run of rows (each `None` when not wanted).
type Sums<T> = [Option<Columns<T>>; 2];

impl<T: Float + crate::num::Num + Send + Sync> Rows<'_, T> {
    /// The rows of `g` cut in two at a multiple of the leaf size (in parallel from
    /// [`PAR_ROWS_THRESHOLD`] elements), the right half's column sums added to the left's.
    fn split(&self, g: &[T], x: &[T], (mean, rstd): (Option<&[T]>, &[T]), input: Option<&mut [T]>) -> Sums<T> {
        let n = rstd.len();
        if n <= self.leaf_rows {
            return self.leaf(g, x, (mean, rstd), input);
        }
        let mid = (n / 2).div_ceil(self.leaf_rows) * self.leaf_rows;
        let (g0, g1) = g.split_at(mid * self.d);
        let (x0, x1) = x.split_at(mid * self.d);
        let ((m0, m1), (r0, r1)) = (mean.map(|m| m.split_at(mid)).unzip(), rstd.split_at(mid));
        let (i0, i1) = match input {
            Some(i) => {
                let (a, b) = i.split_at_mut(mid * self.d);
                (Some(a), Some(b))
            }
            None => (None, None),
        };
        let left = || self.split(g0, x0, (m0, r0), i0);
        let right = || self.split(g1, x1, (m1, r1), i1);
        #[cfg(feature = "rayon")]
        let (mut a, b) = if super::parallel_from(g.len(), PAR_ROWS_THRESHOLD) {
            rayon::join(left, right)
        } else {
            (left(), right())
        };
        #[cfg(not(feature = "rayon"))]
        let (mut a, b) = (left(), right());
        for (a, b) in a.iter_mut().zip(b) {
            if let (Some(a), Some(b)) = (a, b) {
                a.add(b.sum.iter().zip(&b.err).map(|(&s, &e)| s - e));
            }
        }
        a
    }

    /// One leaf of [`layer_norm_backward`]: each row's input gradient into `input`, and the
    /// column sums in blocks of [`COLUMN_BLOCK`] rows.
    fn leaf(&self, g: &[T], x: &[T], (mean, rstd): (Option<&[T]>, &[T]), mut input: Option<&mut [T]>) -> Sums<T> {
        let d = self.d;
        let [want_w, want_b] = self.sums;
        let mut sums: Sums<T> = [want_w.then(|| Columns::new(d)), want_b.then(|| Columns::new(d))];
        // Each block's plain sums (empty when not wanted).
        let [mut bw, mut bb] = self.sums.map(|want| alloc::vec![T::zero(); if want { d } else { 0 }]);
        // Each row's `x̂`, as the forward computed it (or `x` itself without the means).
        let mut hbuf = alloc::vec![T::zero(); if mean.is_some() { d } else { 0 }];
        let rows = g.chunks_exact(d).zip(x.chunks_exact(d)).zip(rstd);
        for (i, ((gr, xr), &rs)) in rows.enumerate() {
            let hr = match mean {
                Some(mean) => {
                    let m = mean[i];
                    for (h, &v) in hbuf.iter_mut().zip(xr) {
                        *h = (v - m) * rs;
                    }
                    &hbuf[..]
                }
                None => xr,
            };
            if let Some(out) = input.as_deref_mut() {
                self.input_row(gr, hr, rs, &mut out[i * d..(i + 1) * d]);
            }
            if want_w {
                for ((a, &g), &h) in bw.iter_mut().zip(gr).zip(hr) {
                    *a = *a + g * h;
                }
            }
            if want_b {
                for (a, &g) in bb.iter_mut().zip(gr) {
                    *a = *a + g;
                }
            }
            if (i + 1) % COLUMN_BLOCK == 0 || i + 1 == rstd.len() {
                for (cols, b) in sums.iter_mut().zip([&mut bw, &mut bb]) {
                    if let Some(cols) = cols {
                        cols.add(b.iter().copied());
                        b.fill(T::zero());
                    }
                }
            }
        }
        sums
    }

    /// One row's input gradient: `gh = g · weight` into `out` first, then the row's two means,
    /// then `rstd (gh - mean(gh) - x̂ mean(gh x̂))` over it.
    #[inline]
    fn input_row(&self, gr: &[T], hr: &[T], rs: T, out: &mut [T]) {
        match self.weight {
            Some(w) => out.iter_mut().zip(gr).zip(w).for_each(|((o, &g), &w)| *o = g * w),
            None => out.copy_from_slice(gr),
        }
        let m1 = pairwise(&*out, |v| v) * self.inv_d;
        let m2 = super::vector::dot(self.d, out, 0, 1, hr, 0, 1) * self.inv_d;
        for (o, &h) in out.iter_mut().zip(hr) {
            *o = ((*o - m1) - h * m2) * rs;
        }
    }
}

/// Whether batch normalisation's kernels split `len` elements across rayon's pool.
fn batch_parallel(len: usize) -> bool {
    #[cfg(feature = "rayon")]
    return super::parallel_from(len, PAR_ROWS_THRESHOLD);
    #[cfg(not(feature = "rayon"))]
    {
        let _ = len;
        false
    }
}

/// `f(r)` for each row `r < rows`, in order (on rayon's pool with `par`).
fn per_row<U: Send>(rows: usize, par: bool, f: impl Fn(usize) -> U + Sync + Send) -> alloc::vec::Vec<U> {
    #[cfg(feature = "rayon")]
    if par {
        use rayon::prelude::*;
        return (0..rows).into_par_iter().map(f).collect();
    }
    let _ = par;
    (0..rows).map(f).collect()
}

/// Per channel, the values of rows `k, k + c, k + 2c, ...` of `rows` (one value each) added in
/// row order with compensation.
fn channel_totals<T: Float>(rows: impl Iterator<Item = T>, c: usize) -> alloc::vec::Vec<T> {
    let mut cols = Columns::new(c);
    let mut block = alloc::vec::Vec::with_capacity(c);
    for v in rows {
        block.push(v);
        if block.len() == c {
            cols.add(block.drain(..));
        }
    }
    cols.sum.iter().zip(&cols.err).map(|(&s, &e)| s - e).collect()
}

/// `f(r, out_row)` for each row `r` of `inner` elements of `out`, in order (on rayon's pool with
/// `par`).
fn write_rows<T: Send>(out: &mut [T], inner: usize, par: bool, f: impl Fn(usize, &mut [T]) + Sync + Send) {
    #[cfg(feature = "rayon")]
    if par {
        use rayon::prelude::*;
        out.par_chunks_exact_mut(inner).enumerate().for_each(|(r, o)| f(r, o));
        return;
    }
    let _ = par;
    out.chunks_exact_mut(inner).enumerate().for_each(|(r, o)| f(r, o));
}

/// Batch normalisation's forward pass over a contiguous `[n, c, inner]` input (every dim after
/// the channel one flattened into `inner > 0`). In training mode it first computes each
/// channel's mean and biased variance into `mean` and `var` (`c` values each; two passes: each
/// row's pairwise sum of `x`, then of `(x - mean)²`, the rows' sums added per channel with
/// compensation in row order); otherwise it reads them (the running statistics). Then one pass
/// writes `y = x̂ · weight + bias` (each optional), with `x̂ = (x - mean) rstd`, into `y`, and
/// `x̂` into `xhat` when it is given (a backward pass keeps it); `rstd = 1 / sqrt(var + eps)`
/// goes to `rstd` (`c` values). The bits do not depend on the thread count. The tensor form took
/// about nine passes and four temporaries. Rows go to rayon's pool from [`PAR_ROWS_THRESHOLD`]
/// elements.
///
/// # Panics
/// When the lengths do not agree (the caller sizes every buffer from `x`'s layout).
#[allow(clippy::too_many_arguments)]
pub(crate) fn batch_norm_rows<T: Float + Send + Sync>(
    x: &[T],
    (c, inner): (usize, usize),
    training: bool,
    eps: T,
    (mean, var, rstd): (&mut [T], &mut [T], &mut [T]),
    (weight, bias): (Option<&[T]>, Option<&[T]>),
    (xhat, y): (Option<&mut [T]>, &mut [T]),
) {
    assert!(
        c > 0 && inner > 0 && x.len().is_multiple_of(c * inner) && y.len() == x.len(),
        "batch_norm_rows: buffer lengths"
    );
    assert!(
        mean.len() == c && var.len() == c && rstd.len() == c && xhat.as_ref().is_none_or(|h| h.len() == x.len()),
        "batch_norm_rows: statistics lengths"
    );
    assert!(
        weight.is_none_or(|w| w.len() == c) && bias.is_none_or(|b| b.len() == c),
        "batch_norm_rows: weight or bias length"
    );
    let rows = x.len() / inner;
    let par = batch_parallel(x.len());
    let row = |r: usize| &x[r * inner..(r + 1) * inner];
    if training {
        let count = T::from(rows / c * inner).unwrap_or_else(T::nan);
        let sums = per_row(rows, par, |r| pairwise(row(r), |v| v));
        for (m, s) in mean.iter_mut().zip(channel_totals(sums.into_iter(), c)) {
            *m = s / count;
        }
        let mean = &*mean;
        let squares = per_row(rows, par, |r| {
            let m = mean[r % c];
            pairwise(row(r), |v| (v - m) * (v - m))
        });
        for (v, s) in var.iter_mut().zip(channel_totals(squares.into_iter(), c)) {
            *v = s / count;
        }
    }
    for (r, &v) in rstd.iter_mut().zip(&*var) {
        *r = T::one() / (v + eps).sqrt();
    }
    let (mean, rstd) = (&*mean, &*rstd);
    // `x̂` and `y` of row `r`; `hr` is `y`'s row when `x̂` is not kept (then finished in place).
    let finish = |r: usize, hr: &mut [T]| {
        let k = r % c;
        let (m, rs) = (mean[k], rstd[k]);
        for (h, &v) in hr.iter_mut().zip(row(r)) {
            *h = (v - m) * rs;
        }
    };
    let (w, b) = (|k: usize| weight.map_or(T::one(), |w| w[k]), |k: usize| bias.map(|b| b[k]));
    let scale = |r: usize, o: &mut [T], h: Option<&[T]>| {
        let (wk, bk) = (w(r % c), b(r % c));
        match (h, bk) {
            (Some(h), Some(bk)) => o.iter_mut().zip(h).for_each(|(o, &h)| *o = h * wk + bk),
            (Some(h), None) => o.iter_mut().zip(h).for_each(|(o, &h)| *o = h * wk),
            (None, Some(bk)) => o.iter_mut().for_each(|o| *o = *o * wk + bk),
            (None, None) => o.iter_mut().for_each(|o| *o = *o * wk),
        }
    };
    let Some(xhat) = xhat else {
        return write_rows(y, inner, par, |r, o| {
            finish(r, o);
            scale(r, o, None)
        });
    };
    // Each row's `x̂`, then its `y` from it while it is in the cache: one pass over memory.
    let both = |r: usize, (h, o): (&mut [T], &mut [T])| {
        finish(r, h);
        scale(r, o, Some(h))
    };
    #[cfg(feature = "rayon")]
    if par {
        use rayon::prelude::*;
        xhat.par_chunks_exact_mut(inner).zip(y.par_chunks_exact_mut(inner)).enumerate().for_each(|(r, p)| both(r, p));
        return;
    }
    xhat.chunks_exact_mut(inner).zip(y.chunks_exact_mut(inner)).enumerate().for_each(|(r, p)| both(r, p));
}

/// Batch normalisation's backward pass over a contiguous `[n, c, inner]` input (every dim after
/// the channel one flattened into `inner > 0`), from the output's gradient `g`, the kept `x̂`,
/// each channel's `rstd` and `weight` (`c` values each): the weight's `Σ g x̂` and the bias's
/// `Σ g` per channel, and the input's gradient, in training mode `rstd (gh - mean(gh) - x̂
/// mean(gh x̂))` with `gh = g · weight` and the means over the channel's `n · inner` elements
/// (PyTorch's `batch_norm_backward`), in evaluation mode `gh · rstd`. Two passes over memory:
/// each row of `inner` elements' `Σ g` (pairwise) and `Σ g x̂` (the crate's dot product), then
/// the input's gradient; the rows' sums are added per channel with compensation, in row order,
/// so the bits do not depend on the thread count. The tensor form took about ten passes and
/// five temporaries. Rows go to rayon's pool from [`PAR_ROWS_THRESHOLD`] elements.
///
/// # Panics
/// When the lengths do not agree (the caller sizes every buffer from `g`'s layout).
pub(crate) fn batch_norm_backward<T: Float + crate::num::Num + Send + Sync>(
    g: &[T],
    xhat: &[T],
    weight: Option<&[T]>,
    rstd: &[T],
    (c, inner): (usize, usize),
    training: bool,
    grads: LayerNormGrads<'_, T>,
) {
    assert!(
        c > 0 && inner > 0 && g.len().is_multiple_of(c * inner) && xhat.len() == g.len() && rstd.len() == c,
        "batch_norm_backward: buffer lengths"
    );
    grads.check("batch_norm_backward", weight, g.len(), c);
    let rows = g.len() / inner;
    let count = T::from(rows / c * inner).unwrap_or_else(T::nan);
    let par = batch_parallel(g.len());
    let (gr, hr) = (|r: usize| &g[r * inner..(r + 1) * inner], |r: usize| &xhat[r * inner..(r + 1) * inner]);
    // Each row's `Σ g` and `Σ g x̂`, then their channel totals.
    let partial = per_row(rows, par, |r| (pairwise(gr(r), |v| v), super::vector::dot(inner, gr(r), 0, 1, hr(r), 0, 1)));
    let sg = channel_totals(partial.iter().map(|p| p.0), c);
    let sgh = channel_totals(partial.iter().map(|p| p.1), c);
    for (out, total) in [(grads.bias, &sg), (grads.weight, &sgh)] {
        if let Some(out) = out {
            out.copy_from_slice(total);
        }
    }
    let Some(input) = grads.input else { return };
    // Per channel: the weight, `mean(gh) = w Σg / count` and `mean(gh x̂) = w Σgx̂ / count`.
    let coef: alloc::vec::Vec<(T, T, T)> = (0..c)
        .map(|k| {
            let w = weight.map_or(T::one(), |w| w[k]);
            (w, w * sg[k] / count, w * sgh[k] / count)
        })
        .collect();
    write_rows(input, inner, par, |r, out| {
        let k = r % c;
        let ((w, m1, m2), rs) = (coef[k], rstd[k]);
        if training {
            for ((o, &g), &h) in out.iter_mut().zip(gr(r)).zip(hr(r)) {
                *o = ((g * w - m1) - h * m2) * rs;
            }
        } else {
            for (o, &g) in out.iter_mut().zip(gr(r)) {
                *o = g * w * rs;
            }
        }
    });
}
