//! Layer normalisation's rows in one pass over memory per row: the mean, the centred values, their
//! mean square, `x̂ = (x - mean) / sqrt(var + eps)` and `y = x̂ · weight + bias`, each row while it
//! is in the cache. The tensor form took seven passes with four temporaries (3.3 ms for MiniLM's
//! `[672, 384]` on one thread; this form 0.45 ms).
use crate::num::pairwise;
use num_traits::Float;

/// Element count from which [`layer_norm_rows`] splits its rows across rayon's pool (about ten
/// operations per element over two sums: between the element-wise kernels' threshold and the
/// float functions').
#[cfg(feature = "rayon")]
const PAR_ROWS_THRESHOLD: usize = 1 << 16;

/// Layer normalisation of the rows of `x` (`rows * d` elements, row-major, `d > 0`): writes `x̂`
/// into `xhat`, `x̂ · weight + bias` (`(weight, bias)`, each optional, `d` long) into `y` and `1 / sqrt(var + eps)`
/// of each row into `rstd`. Sums are pairwise ([`pairwise`]), as the tensor reductions'. Splits
/// the rows across rayon's pool from [`PAR_ROWS_THRESHOLD`] elements.
///
/// # Panics
/// When the lengths do not agree (the caller sizes every buffer from `x`'s layout).
pub(crate) fn layer_norm_rows<T: Float + Send + Sync>(
    x: &[T],
    d: usize,
    eps: T,
    (weight, bias): (Option<&[T]>, Option<&[T]>),
    (xhat, y, rstd): (&mut [T], &mut [T], &mut [T]),
) {
    assert!(d > 0 && x.len().is_multiple_of(d), "layer_norm_rows: {} elements in rows of {d}", x.len());
    assert!(
        xhat.len() == x.len() && y.len() == x.len() && rstd.len() == x.len() / d,
        "layer_norm_rows: buffer lengths"
    );
    assert!(
        weight.is_none_or(|w| w.len() == d) && bias.is_none_or(|b| b.len() == d),
        "layer_norm_rows: weight or bias length"
    );
    let inv_d = T::one() / T::from(d).unwrap_or_else(T::nan);
    let row = |(((xr, hr), yr), r): (((&[T], &mut [T]), &mut [T]), &mut T)| {
        let mean = pairwise(xr, |v| v) * inv_d;
        for (h, &v) in hr.iter_mut().zip(xr) {
            *h = v - mean;
        }
        let var = pairwise(&*hr, |v| v * v) * inv_d;
        let rs = T::one() / (var + eps).sqrt();
        *r = rs;
        for h in hr.iter_mut() {
            *h = *h * rs;
        }
        match (weight, bias) {
            (Some(w), Some(b)) => {
                for (((o, &h), &w), &b) in yr.iter_mut().zip(&*hr).zip(w).zip(b) {
                    *o = h * w + b;
                }
            }
            (Some(w), None) => {
                for ((o, &h), &w) in yr.iter_mut().zip(&*hr).zip(w) {
                    *o = h * w;
                }
            }
            (None, Some(b)) => {
                for ((o, &h), &b) in yr.iter_mut().zip(&*hr).zip(b) {
                    *o = h + b;
                }
            }
            (None, None) => yr.copy_from_slice(hr),
        }
    };
    #[cfg(feature = "rayon")]
    if super::parallel_from(x.len(), PAR_ROWS_THRESHOLD) {
        use rayon::prelude::*;
        // Whole rows per task, about `PAR_CHUNK` elements each.
        let per = (super::PAR_CHUNK / d).max(1);
        x.par_chunks(per * d)
            .zip(xhat.par_chunks_mut(per * d))
            .zip(y.par_chunks_mut(per * d))
            .zip(rstd.par_chunks_mut(per))
            .for_each(|(((xs, hs), ys), rs)| {
                xs.chunks_exact(d)
                    .zip(hs.chunks_exact_mut(d))
                    .zip(ys.chunks_exact_mut(d))
                    .zip(rs.iter_mut())
                    .for_each(row)
            });
        return;
    }
    x.chunks_exact(d).zip(xhat.chunks_exact_mut(d)).zip(y.chunks_exact_mut(d)).zip(rstd.iter_mut()).for_each(row);
}

/// The input gradient of [`layer_norm_rows`] by rows (`rows * d` elements, row-major, `d > 0`):
/// with `gh = g · weight` (`g` without a weight), each row of `out` is `rstd (gh - mean(gh) -
/// x̂ mean(gh x̂))`, PyTorch's formula, in one pass over a row held in cache instead of seven
/// passes over the whole tensor. `mean(gh)` is a pairwise sum times `1 / d`, as the forward's
/// means; `mean(gh x̂)` the crate's dot product (eight accumulators) times `1 / d`. Splits
/// the rows across rayon's pool from [`PAR_ROWS_THRESHOLD`] elements.
///
/// # Panics
/// When the lengths do not agree (the caller sizes every buffer from `g`'s layout).
pub(crate) fn layer_norm_input_grad<T: Float + crate::num::Num + Send + Sync>(
    g: &[T],
    xhat: &[T],
    weight: Option<&[T]>,
    rstd: &[T],
    d: usize,
    out: &mut [T],
) {
    assert!(d > 0 && g.len().is_multiple_of(d), "layer_norm_input_grad: {} elements in rows of {d}", g.len());
    assert!(
        xhat.len() == g.len() && out.len() == g.len() && rstd.len() == g.len() / d,
        "layer_norm_input_grad: buffer lengths"
    );
    assert!(weight.is_none_or(|w| w.len() == d), "layer_norm_input_grad: weight length");
    let inv_d = T::one() / T::from(d).unwrap_or_else(T::nan);
    let row = |(((gr, hr), or), &rs): (((&[T], &[T]), &mut [T]), &T)| {
        // `gh` into `out`'s row first, then the row's two means, then the gradient over it.
        match weight {
            Some(w) => or.iter_mut().zip(gr).zip(w).for_each(|((o, &g), &w)| *o = g * w),
            None => or.copy_from_slice(gr),
        }
        let m1 = pairwise(&*or, |v| v) * inv_d;
        let m2 = super::vector::dot(d, or, 0, 1, hr, 0, 1) * inv_d;
        for (o, &h) in or.iter_mut().zip(hr) {
            *o = ((*o - m1) - h * m2) * rs;
        }
    };
    #[cfg(feature = "rayon")]
    if super::parallel_from(g.len(), PAR_ROWS_THRESHOLD) {
        use rayon::prelude::*;
        let per = (super::PAR_CHUNK / d).max(1);
        g.par_chunks(per * d)
            .zip(xhat.par_chunks(per * d))
            .zip(out.par_chunks_mut(per * d))
            .zip(rstd.par_chunks(per))
            .for_each(|(((gs, hs), os), rs)| {
                gs.chunks_exact(d).zip(hs.chunks_exact(d)).zip(os.chunks_exact_mut(d)).zip(rs).for_each(row)
            });
        return;
    }
    g.chunks_exact(d).zip(xhat.chunks_exact(d)).zip(out.chunks_exact_mut(d)).zip(rstd).for_each(row);
}
