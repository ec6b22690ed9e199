//! Vectorised kernels of element-wise functions, as a table per element type
//! ([`Element::VMATH`](crate::element::Element)) for `exp`, `tanh`, `sigmoid`, `silu`, `ln`,
//! `softplus`, `sin`, `cos`, `erf`, `erfc`, `gelu` and `gelu_tanh`, with the `simd` feature,
//! outside Miri:
//! - `f32` `exp`, `tanh`, `sigmoid`, `silu` through rten-vecmath (AVX-512/AVX2/NEON chosen at run
//!   time); `f32` `ln` as musl's `logf` in `f32` lanes; `f32` `sin` and `cos` as musl's
//!   `sinf`/`cosf` (reduction and short kernels in `f64` lanes); `f32` `softplus` through the
//!   `f64` kernel; `f32` `erf` in `f32` lanes (Arm's optimized-routines' method: `x + x S(x^2)`
//!   below 0.921875, `1 - e^L(|x|)` above, `S` and `L` fitted polynomials of degree 6, an
//!   exponential of degree 6; within 1 ulp); `f32` `erfc` and `gelu` in `f32` lanes by explicit
//!   SIMD (module `tail32`: `e^(-a^2) N(a)` and `x - e^(-t^2/2) H(t)`-type forms, `N` and `H`
//!   polynomials of degree 6 on 16 pieces picked per lane by a permute, the square exact into the
//!   exponential, the power of two applied last; AVX-512, AVX2, or one plain lane, chosen at run
//!   time; within 2 ulp); `f32` `gelu_tanh` through a short `f64`-lane kernel (to about 2^-31,
//!   rounded once);
//! - `f64` through shaped's own kernels below: `e^x = 2^k (1 + p(r))` with `k = round(x / ln 2)`,
//!   `r = x - k ln 2` in two parts (fdlibm's split of `ln 2`) and `p` the Taylor polynomial of
//!   degree 13 (truncation below 2^-60 on `|r| <= ln 2 / 2`); `tanh` from `expm1(-2|x|)`,
//!   `sigmoid` and `silu` from `e^-x`; `ln` as fdlibm's `log` without branches; `softplus` as
//!   `ln(1 + e^x)` with the rounding of `1 + e^x` put back; `sin` and `cos` as fdlibm's
//!   reduction by `pi/2` (its three steps always taken) and its kernels on `[-pi/4, pi/4]`;
//!   `erf`, `erfc`, `gelu` and `gelu_tanh` as in [`special`] (piecewise polynomials picked per
//!   lane, `erfc` and `gelu` times an exponential of the exact square; `gelu_tanh`'s exponential
//!   of a double-double argument; subnormal results rounded once).
//!   Plain Rust loops compiled three times (AVX-512F, AVX2+FMA, the target's baseline) and
//!   chosen at run time, but `erf`, `erfc` and `gelu` on AVX-512 and AVX2, which take explicit
//!   lanes whose coefficients are picked by permutes or transposed rows (module `pieces64`);
//!   inputs outside the range where `2^k` is a normal number (`|x| > 708`,
//!   `|x| > 354` for `tanh`, `x < -708` for `softplus`), non-positive or non-normal inputs of
//!   `ln`, `|x| > 1.6e6` for `sin`/`cos`, and NaN take the scalar function.
//!
//! Every other type and function, and every build without the feature, takes the scalar `libm`
//! path of the same method (for `erf`, `erfc`, `gelu` and `gelu_tanh`: [`special`]'s functions,
//! the `f64` kernels' code without fused multiply-adds). A leaf of the foundation layer: it uses
//! no other module.
//!
//! Accuracy against the scalar functions (Rust's `exp`, `tanh`, `ln`, `sin`, `cos`, and
//! `1 / (1 + e^-x)`, `x / (1 + e^-x)`, `ln_1p(e^x)`): `exp`, `ln`, `sin` and `cos` within 1 ulp
//! (`f32`) and 2 ulp (`f64`; 1 ulp measured over 4e6-6e6 values), `tanh`, `sigmoid`, `silu` and
//! `softplus` within 4 ulp (3 measured); `erf`, `erfc`, `gelu` and `gelu_tanh` within 4 ulp of
//! the correctly rounded value (measured: `f32` `erf` and `gelu_tanh` within 1 ulp of `f64`
//! references over the whole-range sweep, `erf` also over every seventh `f32`; `f32` `erfc` and
//! `gelu` within 2 ulp over every `f32` of `[-4, 10.2]` and `[-15, 6]` (beyond, the results are
//! the limits), each kind of lanes; `f64` 1, 1, 1 and 2 ulp at worst against mpmath at 4082
//! points); NaN for
//! NaN, the sign of zero kept (`gelu` and `gelu_tanh` are NaN at `-inf`, PyTorch's `-inf * 0`).
//! `tests/vmath.rs` checks these bounds over a sweep of the whole `f32` range, random bit
//! patterns, ordinary values and the edge values (+-inf, +-0, subnormals, the overflow
//! thresholds), and `f64`'s `erf` family against mpmath's correctly rounded values
//! (`tests/data/erf_data.rs`); the unit tests below check both numeric variants (with and
//! without fused multiply-adds) and, for `tail32`, each kind of lanes the CPU has (an ignored
//! test sweeps every `f32` of their ranges).

use core::mem::MaybeUninit;

/// An element-wise function with a vectorised kernel for some element types.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VecOp {
    /// `e^x`.
    Exp,
    /// `tanh x`.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// `x / (1 + e^-x)`.
    Silu,
    /// `ln x`.
    Ln,
    /// `ln(1 + e^x)`, `x` above 20 (PyTorch's threshold).
    Softplus,
    /// `sin x` (radians).
    Sin,
    /// `cos x` (radians).
    Cos,
    /// `erf x`.
    Erf,
    /// `erfc x = 1 - erf x`.
    Erfc,
    /// `x Φ(x) = 0.5 x erfc(-x / sqrt 2)` (PyTorch's `gelu`, `approximate='none'`).
    Gelu,
    /// `0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))` (`gelu`, `approximate='tanh'`).
    GeluTanh,
}

/// `op` of every element of `src` written to `dst` (of the same length), returned as the
/// initialised `dst`.
pub(crate) type MapFn<T> = for<'a> fn(VecOp, &[T], &'a mut [MaybeUninit<T>]) -> &'a mut [T];

/// The vectorised kernels of one element type: `apply(op, xs)` replaces every element of `xs` by
/// `op` of it; `map(op, src, dst)`, where the type has it, writes `op` of `src` into the
/// uninitialised `dst`. A table that has them covers every [`VecOp`].
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct VecMath<T: 'static> {
    pub(crate) kernels: Option<Kernels<T>>,
}

/// `(apply, map)` of a [`VecMath`] table: `map(op)` is the writing kernel for `op`, where the
/// type has one.
pub(crate) type Kernels<T> = (fn(VecOp, &mut [T]), fn(VecOp) -> Option<MapFn<T>>);

impl<T: 'static> VecMath<T> {
    /// No vectorised kernel: every function takes the scalar path.
    pub const NONE: VecMath<T> = VecMath { kernels: None };
}

/// The `f32` table: rten-vecmath's kernels where the feature is on (never under Miri, which
/// cannot run their intrinsics).
#[cfg(all(feature = "simd", not(miri)))]
pub(crate) const F32: VecMath<f32> = VecMath {
    kernels: Some((apply_f32, |op| match op {
        VecOp::Exp | VecOp::Tanh | VecOp::Sigmoid | VecOp::Silu | VecOp::Erf | VecOp::Erfc | VecOp::Gelu => {
            Some(map_f32)
        }
        _ => None,
    })),
};
#[cfg(not(all(feature = "simd", not(miri))))]
pub(crate) const F32: VecMath<f32> = VecMath::NONE;

#[cfg(all(feature = "simd", not(miri)))]
fn apply_f32(op: VecOp, xs: &mut [f32]) {
    use rten_simd::SimdUnaryOp;
    match op {
        VecOp::Exp => rten_vecmath::Exp {}.map_mut(xs),
        VecOp::Tanh => {
            // rten's tanh returns -0 for +0: the sign of each input is put back (tanh is odd, so
            // its sign is always the input's), one stack block at a time.
            let mut signs = [0f32; 256];
            for block in xs.chunks_mut(256) {
                signs[..block.len()].copy_from_slice(block);
                rten_vecmath::Tanh {}.map_mut(block);
                for (r, &x) in block.iter_mut().zip(&signs) {
                    *r = r.copysign(x);
                }
            }
        }
        VecOp::Sigmoid => rten_vecmath::Sigmoid {}.map_mut(xs),
        VecOp::Silu => rten_vecmath::Silu {}.map_mut(xs),
        VecOp::Erfc | VecOp::Gelu => tail32::apply(op, xs),
        // Not in rten-vecmath (or not accurate enough there: its `sin` at large arguments, its
        // `erf` and `gelu` to 6.6e-7 absolute).
        _ => f64k::via_f64(op, xs),
    }
}

#[cfg(all(feature = "simd", not(miri)))]
fn map_f32<'a>(op: VecOp, src: &[f32], dst: &'a mut [MaybeUninit<f32>]) -> &'a mut [f32] {
    use rten_simd::SimdUnaryOp;
    match op {
        VecOp::Exp => rten_vecmath::Exp {}.map(src, dst),
        VecOp::Tanh => {
            let out = rten_vecmath::Tanh {}.map(src, dst);
            // The input's sign (see `apply_f32`).
            for (r, &x) in out.iter_mut().zip(src) {
                *r = r.copysign(x);
            }
            out
        }
        VecOp::Sigmoid => rten_vecmath::Sigmoid {}.map(src, dst),
        VecOp::Silu => rten_vecmath::Silu {}.map(src, dst),
        VecOp::Erfc | VecOp::Gelu => tail32::map(op, src, dst),
        VecOp::Erf => f64k::erf_map(src, dst),
        _ => unreachable!("the f32 table maps these in place (`apply_f32`)"),
    }
}

/// The `f64` table, where the feature is on, outside Miri: in place, [`apply_f64`]; writing a new
/// buffer, [`pieces64::map`] for every op (its AVX-512 or AVX2 lanes, or [`f64k`]'s kernels).
#[cfg(all(feature = "simd", not(miri)))]
pub(crate) const F64: VecMath<f64> = VecMath { kernels: Some((apply_f64, |_| Some(pieces64::map))) };

/// `op` of `f64` elements in place: `erf`, `erfc` and `gelu` through [`pieces64`]'s AVX-512 or
/// AVX2 lanes where the CPU has them, everything else through [`f64k`].
#[cfg(all(feature = "simd", not(miri)))]
fn apply_f64(op: VecOp, xs: &mut [f64]) {
    if pieces64::covers(op) {
        pieces64::in_place(op, xs)
    } else {
        f64k::apply(op, xs)
    }
}
#[cfg(not(all(feature = "simd", not(miri))))]
pub(crate) const F64: VecMath<f64> = VecMath::NONE;

/// `erf`, `erfc`, `gelu` and `gelu_tanh` in `f64`, written once as plain scalar code without
/// branches on the value (selects only) so that the loops of [`f64k`] vectorise it, and called
/// as scalar functions ([`erf`], ..., with `F = false`) by the scalar paths of every build.
/// `erf` on 16 pieces of `|x|` of width 0.4 (`k = round(|x| / 0.4)`, `z = |x| - 0.4 k` exact), a
/// polynomial of degree 13 in `z` each, the first odd; `erfc x = e^(-a^2) N(a)` (`a = |x|`;
/// `2 - ..` below 0) and `gelu x = x - e^(-t^2/2) H(t)` (`t = |x|`; `x` left out below 0), with
/// `N(a) = erfc(a) e^(a^2)` and `H(t) = t Q(t) e^(t^2/2)` (`Q` the normal upper tail) of degree 14
/// on 16 pieces cut where the bits of `s x + 1` change (widths 1/2 to 4 for `N` up to 30, 2/3 to
/// 16/3 for `H` up to 40), the square exact into the exponential, which is scaled by `2^128` so
/// that a subnormal result is rounded once (tables in `tables64.rs`, fitted by
/// `scripts/erf_data.py --fit-f64`: the polynomials within 0.39, 0.12 and 0.67 ulp); no division
/// anywhere. `gelu_tanh` as `x sigmoid(2u)`, `u = sqrt(2/pi) (x + 0.044715 x^3)` in
/// double-double (exact constants).
// fdlibm's split of `ln 2`, digit for digit as published.
#[allow(clippy::excessive_precision)]
pub(crate) mod special;

/// shaped's `f64` kernels (see the module's documentation for the method).
#[cfg(all(feature = "simd", not(miri)))]
// fdlibm's constants, digit for digit as published.
#[allow(clippy::excessive_precision)]
mod f64k;

/// The tables of [`special`]'s piecewise polynomials (`scripts/erf_data.py --fit-f64`).
#[allow(clippy::excessive_precision, clippy::unreadable_literal, clippy::approx_constant)]
mod tables64;

/// `f64` `erf`, `erfc` and `gelu` in AVX-512 or AVX2 lanes: [`special`]'s piecewise
/// polynomials, each lane's coefficients picked by a permute (`vpermt2pd`) or read as its row
/// and transposed; bitwise the scalar functions with fused multiply-adds, which the other CPUs
/// and the last elements of a slice take.
#[cfg(all(feature = "simd", not(miri)))]
mod pieces64;

/// `f32` `erfc` and `gelu` in `f32` lanes, explicit SIMD: `erfc x = e^(-a^2) N(a)` and
/// `gelu(-t) = -e^(-t^2/2) H(t)` (`a = |x|`, `t = |x|`; `gelu x = x - e^(-t^2/2) H(t)` for
/// `x >= 0`, `erfc x = 2 - e^(-a^2) N(a)` for `x < 0`), `N(a) = erfc(a) e^(a^2)` and
/// `H(t) = t Q(t) e^(t^2/2)` (`Q` the normal upper tail) as polynomials of degree 6 on 16 pieces
/// of `[0, 15)` (`x + 1` cut at each quarter of its binades: widths 1/4, 1/2, 1, 2), each in
/// `z = x - centre` with its constant term in two parts, so that the terms fall off fast and the
/// result is rounded about once (fits within 7e-9 relative; `scripts/erf_data.py --fit-tails`);
/// the exponential as `exp_neg32`'s, its reduced argument `-c a^2 - k LN2_HI` from the exact
/// square in one rounding (a fused multiply-add, or Dekker's product), its power of two applied
/// last (`vscalefps`, or `2^(k+64)` then `2^-64` in the final fused step), so that subnormal
/// results are rounded once. Each piece's coefficients are picked per lane from a 16-entry table
/// by a permute (`vpermps`): no division, no branch. Measured within 2 ulp of `f64` references
/// rounded once over every `f32` of `[-15, 6]` (`gelu`) and `[-4, 10.2]` (`erfc`), with AVX-512,
/// AVX2 and the plain lane without FMA (and the fused plain lane for `gelu`; the ignored test
/// `f32_tails_every`); beyond, the results are the limits (`x`, `-0`, `0`, `2`, NaN at
/// `gelu(-inf)`). About 47 instructions per 16 values with AVX-512 (9 of them permutes).
///
/// The method is written once over the trait `Lanes`: AVX-512 (16 lanes), AVX2 (8 lanes;
/// a lookup is two permutes and a blend), and one plain lane (the target's baseline, with or
/// without FMA), chosen at run time.
#[cfg(all(feature = "simd", not(miri)))]
// The tables as printed by `scripts/erf_data.py --fit-tails` (one coefficient is near 2/sqrt(pi)).
#[allow(clippy::excessive_precision, clippy::unreadable_literal, clippy::approx_constant)]
mod tail32;

/// The `f64` kernels' two numeric variants (with and without fused multiply-adds) and the `f32`
/// ones, called directly: the tests of `tests/vmath.rs` reach only the variant this CPU picks.
#[cfg(all(test, feature = "simd", not(miri)))]
mod tests;
