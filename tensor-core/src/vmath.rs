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
//!   `erf`, `erfc`, `gelu` and `gelu_tanh` as in [`special`] (fdlibm's `s_erf.c` without
//!   branches; the arguments of `gelu`'s `erfc` and of `gelu_tanh`'s exponential in
//!   double-double, and subnormal results rounded once).
//!   Plain Rust loops compiled three times (AVX-512F, AVX2+FMA, the target's baseline) and
//!   chosen at run time; inputs outside the range where `2^k` is a normal number (`|x| > 708`,
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
//! the limits), each kind of lanes; `f64` 1, 2, 2 and 2 ulp at worst against mpmath at 4082
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

/// The `f64` table: the kernels of [`f64k`] where the feature is on, outside Miri.
#[cfg(all(feature = "simd", not(miri)))]
pub(crate) const F64: VecMath<f64> = VecMath { kernels: Some((f64k::apply, |_| None)) };
#[cfg(not(all(feature = "simd", not(miri))))]
pub(crate) const F64: VecMath<f64> = VecMath::NONE;

/// `erf`, `erfc`, `gelu` and `gelu_tanh` in `f64`, written once as plain scalar code without
/// branches on the value (selects only) so that the loops of [`f64k`] vectorise it, and called
/// as scalar functions ([`erf`], ..., with `F = false`) by the scalar paths of every build:
/// fdlibm's `s_erf.c` (its four ranges' rational approximations, all computed and the lane's
/// chosen, one division) with its `erfc` tail `e^(-x^2 - 0.5625 + R/S) / x` as one exponential
/// (the exact part `-z^2 - 0.5625`, `z` the high word of `x`, reduced by `ln 2` apart from the
/// small rest), scaled by `2^128` so that a subnormal result is rounded once; `gelu` as
/// `0.5 x erfc(-x/sqrt 2)` with `-x/sqrt 2` carried as a double-double (its low part enters the
/// tail's exponent as `-2 a a_lo` and the other ranges as `-a_lo erfc'(a)`); `gelu_tanh` as
/// `x sigmoid(2u)`, `u = sqrt(2/pi) (x + 0.044715 x^3)` in double-double (exact constants).
// fdlibm's constants, digit for digit as published.
#[allow(clippy::excessive_precision)]
pub(crate) mod special {
    /// `1.5 * 2^52`: `x + SHIFT` rounds `x` to an integer held in the low mantissa bits.
    pub(super) const SHIFT: f64 = 6755399441055744.0;
    /// fdlibm's split of `ln 2`: `k * LN2_HI` is exact for `|k| < 2^11`.
    pub(super) const LN2_HI: f64 = 6.93147180369123816490e-01;
    pub(super) const LN2_LO: f64 = 1.90821492927058770002e-10;
    /// `1 / j!` for `j = 2..=13`.
    pub(super) const INV_FACT: [f64; 12] = [
        1.0 / 2.0,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5040.0,
        1.0 / 40320.0,
        1.0 / 362880.0,
        1.0 / 3628800.0,
        1.0 / 39916800.0,
        1.0 / 479001600.0,
        1.0 / 6227020800.0,
    ];

    /// `a * b + c` with one rounding (the instruction where the code is compiled with FMA; the
    /// kernels that use it need `std`, which `simd` brings).
    #[inline(always)]
    fn mul_add(a: f64, b: f64, c: f64) -> f64 {
        #[cfg(feature = "std")]
        {
            a.mul_add(b, c)
        }
        #[cfg(not(feature = "std"))]
        {
            libm::fma(a, b, c)
        }
    }

    /// `a * b + c`, fused where the code is compiled with FMA (`F`).
    #[inline(always)]
    pub(super) fn fma<const F: bool>(a: f64, b: f64, c: f64) -> f64 {
        if F {
            mul_add(a, b, c)
        } else {
            a * b + c
        }
    }

    /// `e^r - 1` for `|r| <= ln 2 / 2` (a little beyond is fine): the Taylor polynomial of
    /// degree 13, truncation below 2^-60.
    #[inline(always)]
    pub(super) fn expm1_poly<const F: bool>(r: f64) -> f64 {
        let mut q = INV_FACT[11];
        for &c in INV_FACT[..11].iter().rev() {
            q = fma::<F>(q, r, c);
        }
        fma::<F>(q, r * r, r)
    }

    /// `2^-128`: the scaled exponentials below are `2^128` times the value.
    const UNSCALE: f64 = 2.938735877055719e-39;

    /// `(s, p)` with `e^(a + b) = 2^-128 s (1 + p)`, `s` a power of two, for `a + b` in
    /// `[-790, 1]` (anything, no panic, else), `b` small beside `a` (`|b| < 1`): `k` from the
    /// sum, `a - k ln 2` (exact when `a` is a multiple of 2^-40 below 2^10, and always with
    /// FMA) and then `b` added to the small rest, so that `a`'s size costs no accuracy.
    #[inline(always)]
    fn exp_scaled<const F: bool>(a: f64, b: f64) -> (f64, f64) {
        let kd = fma::<F>(a + b, core::f64::consts::LOG2_E, SHIFT);
        let k = kd - SHIFT;
        let r = fma::<F>(k, -LN2_HI, a);
        let r = fma::<F>(k, -LN2_LO, r) + b;
        let ki = (kd.to_bits() as i64).wrapping_sub(SHIFT.to_bits() as i64);
        let s = f64::from_bits((ki.wrapping_add(1023 + 128) as u64) << 52);
        (s, expm1_poly::<F>(r))
    }

    /// `a * b` exactly as `(p, e)`, `p + e`, for `|a|, |b| < 2^500` (FMA, or Dekker's product
    /// with Veltkamp's splits).
    #[inline(always)]
    fn two_prod<const F: bool>(a: f64, b: f64) -> (f64, f64) {
        let p = a * b;
        if F {
            (p, mul_add(a, b, -p))
        } else {
            let split = |v: f64| {
                let c = 134217729.0 * v;
                let h = c - (c - v);
                (h, v - h)
            };
            let ((ah, al), (bh, bl)) = (split(a), split(b));
            (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
        }
    }

    /// `a + b` exactly as `(s, e)` (Knuth's two-sum).
    #[inline(always)]
    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let s = a + b;
        let bb = s - a;
        (s, (a - (s - bb)) + (b - bb))
    }

    /// `c[0] + c[1] x + c[2] x^2 + ...`.
    #[inline(always)]
    fn horner<const F: bool, const N: usize>(x: f64, c: [f64; N]) -> f64 {
        let mut r = c[N - 1];
        for &k in c[..N - 1].iter().rev() {
            r = fma::<F>(r, x, k);
        }
        r
    }

    const ERX: f64 = 8.45062911510467529297e-01;
    const PP: [f64; 5] = [
        1.28379167095512558561e-01,
        -3.25042107247001499370e-01,
        -2.84817495755985104766e-02,
        -5.77027029648944159157e-03,
        -2.37630166566501626084e-05,
    ];
    const QQ: [f64; 6] = [
        1.0,
        3.97917223959155352819e-01,
        6.50222499887672944485e-02,
        5.08130628187576562776e-03,
        1.32494738004321644526e-04,
        -3.96022827877536812320e-06,
    ];
    const PA: [f64; 7] = [
        -2.36211856075265944077e-03,
        4.14856118683748331666e-01,
        -3.72207876035701323847e-01,
        3.18346619901161753674e-01,
        -1.10894694282396677476e-01,
        3.54783043256182359371e-02,
        -2.16637559486879084300e-03,
    ];
    const QA: [f64; 7] = [
        1.0,
        1.06420880400844228286e-01,
        5.40397917702171048937e-01,
        7.18286544141962662868e-02,
        1.26171219808761642112e-01,
        1.36370839120290507362e-02,
        1.19844998467991074170e-02,
    ];
    const RA: [f64; 8] = [
        -9.86494403484714822705e-03,
        -6.93858572707181764372e-01,
        -1.05586262253232909814e+01,
        -6.23753324503260060396e+01,
        -1.62396669462573470355e+02,
        -1.84605092906711035994e+02,
        -8.12874355063065934246e+01,
        -9.81432934416914548592e+00,
    ];
    const SA: [f64; 9] = [
        1.0,
        1.96512716674392571292e+01,
        1.37657754143519042600e+02,
        4.34565877475229228821e+02,
        6.45387271733267880336e+02,
        4.29008140027567833386e+02,
        1.08635005541779435134e+02,
        6.57024977031928170135e+00,
        -6.04244152148580987438e-02,
    ];
    const RB: [f64; 7] = [
        -9.86494292470009928597e-03,
        -7.99283237680523006574e-01,
        -1.77579549177547519889e+01,
        -1.60636384855821916062e+02,
        -6.37566443368389627722e+02,
        -1.02509513161107724954e+03,
        -4.83519191608651397019e+02,
    ];
    const SB: [f64; 8] = [
        1.0,
        3.03380607434824582924e+01,
        3.25792512996573918826e+02,
        1.53672958608443695994e+03,
        3.19985821950859553908e+03,
        2.55305040643316442583e+03,
        4.74528541206955367215e+02,
        -2.24409524465858183362e+01,
    ];

    /// The pieces of `erf(w)` and `erfc(w + wl)` (`|wl| <= ulp(w)`) on fdlibm's four ranges.
    struct Erf {
        /// `erf(w)`.
        erf: f64,
        /// `|w| < 1.25`: `erfc(w + wl)` is [`near`](Self::near).
        mid: bool,
        /// `erfc(w + wl)` for `|w| < 1.25`.
        near: f64,
        /// `2^128 e^(-(a + al)^2 - 0.5625 + R/S)` for `a = |w|` in `[1.25, 28)`, `a + al = |w + wl|`
        /// (so that `erfc(|w + wl|)` is `2^-128 tail / (a + al)`); 0 from 28 on.
        tail: f64,
        /// `2^-128 tail / a` (`erfc(|w|)`).
        t: f64,
    }

    /// fdlibm's four ranges, each computed and the lane's chosen, for finite `w` (NaN and
    /// infinities are the callers' to fix).
    #[inline(always)]
    fn erf_erfc<const F: bool>(w: f64, wl: f64) -> Erf {
        let a = w.abs();
        // The low part with the sign of |w|'s: a + al = |w + wl|.
        let al = f64::from_bits(wl.to_bits() ^ (w.to_bits() & (1 << 63)));
        let z = w * w;
        let (small, mid, high) = (a < 0.84375, a < 1.25, a < 1.0 / 0.35);
        // The tail's variable, kept within its range on the other lanes.
        let at = a.clamp(1.25, 28.0);
        let ia = 1.0 / at;
        let s = ia * ia;
        let sm = a - 1.0;
        // Every range's rational function, then the lane's.
        let (p1, q1) = (horner::<F, 5>(z, PP), horner::<F, 6>(z, QQ));
        let (p2, q2) = (horner::<F, 7>(sm, PA), horner::<F, 7>(sm, QA));
        let (p3, q3) = (horner::<F, 8>(s, RA), horner::<F, 9>(s, SA));
        let (p4, q4) = (horner::<F, 7>(s, RB), horner::<F, 8>(s, SB));
        let (num, den) = if small {
            (p1, q1)
        } else if mid {
            (p2, q2)
        } else if high {
            (p3, q3)
        } else {
            (p4, q4)
        };
        let r = num / den;
        // The tail's exponent -a^2 - 0.5625 + R/S - 2 a al, as the exact -zt^2 - 0.5625 (zt:
        // `at` with its low 32 bits cleared) and the small rest; elsewhere -w^2 (for the
        // correction by `wl`).
        let zt = f64::from_bits(at.to_bits() & 0xffff_ffff_0000_0000);
        let (big, rest) =
            if mid { (-z, 0.0) } else { (fma::<F>(-zt, zt, -0.5625), fma::<F>(zt - at, zt + at, r) - 2.0 * at * al) };
        let (sc, p) = exp_scaled::<F>(big, rest);
        let e = fma::<F>(sc, p, sc);
        let tail = if a < 28.0 { e } else { 0.0 };
        let t = tail * ia * UNSCALE;
        let wr = fma::<F>(w, r, w);
        let erf = if small {
            wr
        } else if mid {
            (ERX + r).copysign(w)
        } else {
            (1.0 - t).copysign(w)
        };
        // erfc on the first two ranges, corrected by -wl erfc'(w) = -wl 2/sqrt(pi) e^(-w^2).
        let near = if small {
            if w < 0.25 {
                1.0 - wr
            } else {
                0.5 - (fma::<F>(w, r, w - 0.5))
            }
        } else if w > 0.0 {
            (1.0 - ERX) - r
        } else {
            1.0 + (ERX + r)
        };
        let near = near - wl * core::f64::consts::FRAC_2_SQRT_PI * (e * UNSCALE);
        Erf { erf, mid, near, tail, t }
    }

    /// `erf x`, for finite `x` (see the module's documentation for the method).
    #[inline(always)]
    pub(super) fn erf_k<const F: bool>(x: f64) -> f64 {
        erf_erfc::<F>(x, 0.0).erf
    }

    /// `erfc x`, for finite `x`; a subnormal result rounded once (from the scaled tail).
    #[inline(always)]
    pub(super) fn erfc_k<const F: bool>(x: f64) -> f64 {
        let k = erf_erfc::<F>(x, 0.0);
        if k.mid {
            k.near
        } else if x > 0.0 {
            k.tail / x.min(28.0) * UNSCALE
        } else {
            2.0 - k.t
        }
    }

    /// `gelu x = 0.5 x erfc(w)`, `w = -x / sqrt 2`, for finite `x`: where `w > 1.25`, `0.5 x / w`
    /// is `-1/sqrt 2` and `gelu x = -2^-128 tail / sqrt 2`, rounded once.
    #[inline(always)]
    pub(super) fn gelu_k<const F: bool>(x: f64) -> f64 {
        const C_HI: f64 = core::f64::consts::FRAC_1_SQRT_2;
        const C_LO: f64 = -4.833646656726457e-17;
        // Beyond 64, erfc is 2 or 0 in `f64`: the clamp keeps the products finite.
        let xc = x.clamp(-64.0, 64.0);
        let (p, e) = two_prod::<F>(xc, C_HI);
        let (w, wl) = two_sum(-p, -fma::<F>(xc, C_LO, e));
        let k = erf_erfc::<F>(w, wl);
        if k.mid {
            0.5 * x * k.near
        } else if w > 0.0 {
            -(fma::<F>(k.tail, C_HI, k.tail * C_LO) * UNSCALE)
        } else {
            0.5 * x * (2.0 - k.t)
        }
    }

    /// `gelu_tanh x = x / (1 + e^(-2u))`, `u = sqrt(2/pi) (x + 0.044715 x^3)`, for finite `x`:
    /// `2u` in double-double, and for `u < 0` `x e^(2u) / (1 + e^(2u))` with `e^(2u)` scaled.
    #[inline(always)]
    pub(super) fn gelu_tanh_k<const F: bool>(x: f64) -> f64 {
        // 2 sqrt(2/pi) and 0.044715 as double-doubles.
        const K_HI: f64 = 1.5957691216057308;
        const K_LO: f64 = -9.96930880911092e-17;
        const A_HI: f64 = 0.044715;
        const A_LO: f64 = 2.1960211427085595e-18;
        // From 24 on the result is x, below -24 it is -0 (e^(2u) < 2^-1100).
        let xc = x.clamp(-24.0, 24.0);
        let (s, sl) = two_prod::<F>(xc, xc);
        let (c, cl) = two_prod::<F>(s, xc);
        let cl = fma::<F>(sl, xc, cl);
        let (d, dl) = two_prod::<F>(A_HI, c);
        let dl = fma::<F>(A_HI, cl, fma::<F>(A_LO, c, dl));
        let (v, vl) = two_sum(xc, d);
        let vl = vl + dl;
        let (u, ul) = two_prod::<F>(K_HI, v);
        let ul = fma::<F>(K_HI, vl, fma::<F>(K_LO, v, ul));
        // t = -|2u| as (th, tl), no lower than -760 (the result is 0 there).
        let neg = u < 0.0;
        let (th, tl) = if neg { (u, ul) } else { (-u, -ul) };
        let (th, tl) = if th < -760.0 { (-760.0, 0.0) } else { (th, tl) };
        let (sc, p) = exp_scaled::<F>(th, tl);
        let e = fma::<F>(sc, p, sc);
        let (num, unscale) = if neg { (e, UNSCALE) } else { (1.0, 1.0) };
        let r = (x * num / fma::<F>(e, UNSCALE, 1.0)) * unscale;
        if x < -24.0 {
            x * 0.0
        } else {
            r
        }
    }

    /// `erf x` in `f64` (fdlibm's method, see the module), every `x`: the scalar path's.
    pub(crate) fn erf(x: f64) -> f64 {
        if x.is_finite() {
            erf_k::<false>(x)
        } else {
            libm::erf(x)
        }
    }

    /// `erfc x` in `f64`, every `x`.
    pub(crate) fn erfc(x: f64) -> f64 {
        if x.is_finite() {
            erfc_k::<false>(x)
        } else {
            libm::erfc(x)
        }
    }

    /// `gelu x = x Φ(x)` in `f64`, every `x` (NaN at `-inf`, as PyTorch's `-inf * 0`).
    pub(crate) fn gelu(x: f64) -> f64 {
        if x.is_finite() {
            gelu_k::<false>(x)
        } else {
            x * 0.5 * libm::erfc(-x)
        }
    }

    /// `gelu_tanh x` in `f64`, every `x` (NaN at `-inf`, as PyTorch's).
    pub(crate) fn gelu_tanh(x: f64) -> f64 {
        if x.is_finite() {
            gelu_tanh_k::<false>(x)
        } else {
            x / (1.0 + libm::exp(-x))
        }
    }
}

/// shaped's `f64` kernels (see the module's documentation for the method).
#[cfg(all(feature = "simd", not(miri)))]
// fdlibm's constants, digit for digit as published.
#[allow(clippy::excessive_precision)]
mod f64k {
    use super::special::{self, expm1_poly, fma, LN2_HI, LN2_LO, SHIFT};
    use super::VecOp;
    use core::mem::MaybeUninit;

    /// Elements per inner loop (the in-place form keeps a copy of its inputs on the stack).
    const BLOCK: usize = 256;
    /// Largest `|x|` of the vector path of `exp`, `sigmoid` and `silu` (`2^k` stays normal).
    const EXP_LIMIT: f64 = 708.0;
    /// Largest `|x|` of the vector path of `tanh` (`-2|x|` within [`EXP_LIMIT`]).
    const TANH_LIMIT: f64 = 354.0;

    /// `(2^k, p)` with `e^x = 2^k (1 + p)`, for `|x| <= EXP_LIMIT` (anything, no panic, else).
    #[inline(always)]
    fn exp_parts<const F: bool>(x: f64) -> (f64, f64) {
        let kd = fma::<F>(x, core::f64::consts::LOG2_E, SHIFT);
        let k = kd - SHIFT;
        let r = fma::<F>(k, -LN2_HI, x);
        let r = fma::<F>(k, -LN2_LO, r);
        let p = expm1_poly::<F>(r);
        let ki = (kd.to_bits() as i64).wrapping_sub(SHIFT.to_bits() as i64);
        let scale = f64::from_bits((ki.wrapping_add(1023) as u64) << 52);
        (scale, p)
    }

    #[inline(always)]
    fn exp<const F: bool>(x: f64) -> f64 {
        let (s, p) = exp_parts::<F>(x);
        fma::<F>(s, p, s)
    }

    #[inline(always)]
    fn tanh<const F: bool>(x: f64) -> f64 {
        // expm1(-2|x|) = 2^k p + (2^k - 1), exact in its last step for k = 0 (small |x|).
        let (s, p) = exp_parts::<F>(-2.0 * x.abs());
        let t = fma::<F>(s, p, s - 1.0);
        (-t / (t + 2.0)).copysign(x)
    }

    /// fdlibm's `log` (`e_log.c`) without branches, for positive normal `x` (anything, no panic,
    /// else): `x = 2^k (1 + f)` with `sqrt(2)/2 <= 1 + f < sqrt(2)`, `s = f / (2 + f)`,
    /// `ln(1 + f) = f - s (f - R(s^2))` with fdlibm's minimax `R` (error below 2^-58.45).
    #[inline(always)]
    fn ln<const F: bool>(x: f64) -> f64 {
        const LG: [f64; 7] = [
            6.666666666666735130e-01,
            3.999999999940941908e-01,
            2.857142874366239149e-01,
            2.222219843214978396e-01,
            1.818357216161805012e-01,
            1.531383769920937332e-01,
            1.479819860511658591e-01,
        ];
        // Moves the mantissa's split point from 1 to sqrt(2)/2 (musl's `log.c`).
        let hx = x.to_bits().wrapping_add((0x3ff0_0000 - 0x3fe6_a09e) << 32);
        // k as a float without an integer conversion: 2^52 + (k + 1023), minus 2^52 + 1023.
        let k = f64::from_bits((hx >> 52) | 0x4330_0000_0000_0000) - (4503599627370496.0 + 1023.0);
        let f = f64::from_bits((hx & 0x000f_ffff_ffff_ffff) + (0x3fe6_a09e << 32)) - 1.0;
        let hfsq = 0.5 * f * f;
        let s = f / (2.0 + f);
        let z = s * s;
        let w = z * z;
        let t1 = w * fma::<F>(w, fma::<F>(w, LG[5], LG[3]), LG[1]);
        let t2 = z * fma::<F>(w, fma::<F>(w, fma::<F>(w, LG[6], LG[4]), LG[2]), LG[0]);
        let r = t2 + t1;
        fma::<F>(k, LN2_HI, -((hfsq - fma::<F>(s, hfsq + r, k * LN2_LO)) - f))
    }

    /// `ln(1 + e^x)` for `-EXP_LIMIT <= x` (`x` itself above 20): `ln(u) + (e - (u - 1)) / u`
    /// with `e = e^x`, `u = 1 + e`, which puts back what rounding `u` lost (exact `e` when `u`
    /// rounds to 1).
    #[inline(always)]
    fn softplus<const F: bool>(x: f64) -> f64 {
        let e = exp::<F>(x.min(20.0));
        let u = 1.0 + e;
        let r = ln::<F>(u) + (e - (u - 1.0)) / u;
        if x > 20.0 {
            x
        } else {
            r
        }
    }

    /// Largest `|x|` of the vector path of `sin` and `cos`: `x / (pi/2)` below 2^20, so that
    /// `n * PIO2_1` is exact (fdlibm's medium range).
    const TRIG_LIMIT: f64 = 1.6e6;

    /// `sin x` (`cos x` with `cos`) for `|x| <= TRIG_LIMIT` (anything, no panic, else): fdlibm's
    /// reduction `x = n pi/2 + (y0 + y1)` with all three of its steps taken (`pi/2` to 151
    /// bits), then its kernels `__sin` and `__cos` on `[-pi/4, pi/4]`, chosen and signed by
    /// `n mod 4`.
    #[inline(always)]
    fn sin_cos<const F: bool>(x: f64, cos: bool) -> f64 {
        const INVPIO2: f64 = core::f64::consts::FRAC_2_PI;
        const PIO2_1: f64 = 1.57079632673412561417e+00;
        const PIO2_2: f64 = 6.07710050630396597660e-11;
        const PIO2_3: f64 = 2.02226624871116645580e-21;
        const PIO2_3T: f64 = 8.47842766036889956997e-32;
        const S: [f64; 6] = [
            -1.66666666666666324348e-01,
            8.33333333332248946124e-03,
            -1.98412698298579493134e-04,
            2.75573137070700676789e-06,
            -2.50507602534068634195e-08,
            1.58969099521155010221e-10,
        ];
        const C: [f64; 6] = [
            4.16666666666666019037e-02,
            -1.38888888888741095749e-03,
            2.48015872894767294178e-05,
            -2.75573143513906633035e-07,
            2.08757232129817482790e-09,
            -1.13596475577881948265e-11,
        ];
        let nd = fma::<F>(x, INVPIO2, SHIFT);
        let n = nd - SHIFT;
        let q = (nd.to_bits() as i64).wrapping_sub(SHIFT.to_bits() as i64) as u64;
        // r = x - n pi/2 in three steps (fdlibm's `__rem_pio2`), each taking the next 33 bits
        // of pi/2 (products exact for n < 2^20). fdlibm takes the later steps only after a
        // cancellation, when the earlier subtractions are exact; taken always, the rounding
        // error `e2` of the second is carried into the final error term `w` as well.
        let t = x - n * PIO2_1;
        let w2 = n * PIO2_2;
        let r = t - w2;
        let e2 = (t - r) - w2;
        let t = r;
        let w3 = n * PIO2_3;
        let r = t - w3;
        let w = n * PIO2_3T - ((t - r) - w3) - e2;
        let y0 = r - w;
        let y1 = (r - y0) - w;
        let z = y0 * y0;
        let zz = z * z;
        // __sin(y0, y1)
        let sr = fma::<F>(z, fma::<F>(z, S[3], S[2]), S[1]) + z * zz * fma::<F>(z, S[5], S[4]);
        let v = z * y0;
        let sin = y0 - ((z * (0.5 * y1 - v * sr) - y1) - v * S[0]);
        // __cos(y0, y1)
        let cr = z * fma::<F>(z, fma::<F>(z, C[2], C[1]), C[0]) + zz * zz * fma::<F>(z, fma::<F>(z, C[5], C[4]), C[3]);
        let hz = 0.5 * z;
        let w = 1.0 - hz;
        let cosv = w + (((1.0 - w) - hz) + (z * cr - y0 * y1));
        // sin: n mod 4 = 0, 1, 2, 3 -> sin, cos, -sin, -cos; cos: cos, -sin, -cos, sin.
        let q = q.wrapping_add(cos as u64);
        let v = if q & 1 == 0 { sin } else { cosv };
        if q & 2 == 0 {
            v
        } else {
            -v
        }
    }

    /// Whether `x` is in the vector path's range of `ln`: positive, normal and finite. Written
    /// with `&`, not `contains`' `&&`, so that the scan in `fix` has no branch.
    #[inline(always)]
    #[allow(clippy::manual_range_contains)]
    fn ln_domain(x: f64) -> bool {
        (x >= f64::MIN_POSITIVE) & (x <= f64::MAX)
    }

    /// `dst[i] = scalar(src[i])` where `outside(src[i])`: the elements the vector path does not
    /// cover. One vectorised scan (`outside` has no branches) first; the scalar loop only when
    /// it finds one.
    #[inline(always)]
    fn fix(src: &[f64], dst: &mut [f64], outside: impl Fn(f64) -> bool, scalar: impl Fn(f64) -> f64) {
        if src.iter().fold(false, |any, &x| any | outside(x)) {
            for (d, &x) in dst.iter_mut().zip(src) {
                if outside(x) {
                    *d = scalar(x);
                }
            }
        }
    }

    /// `dst[i] = vector(src[i])` for every element (the loop the compiler vectorises), then
    /// `scalar` for the elements `outside` the vector path's range. A macro, so that `vector` is
    /// called directly and inlined into the caller compiled for its target features: through a
    /// function taking it as `impl Fn` (or `zip(..).for_each`), LLVM may leave a large kernel's
    /// `Fn::call` out of line, compiled without them (its `mul_add` then a call to the software
    /// `fma`, 30 times slower).
    macro_rules! each {
        ($src:expr, $dst:expr, $vector:expr, $outside:expr, $scalar:expr) => {{
            let (src, dst): (&[f64], &mut [f64]) = ($src, $dst);
            let n = dst.len().min(src.len());
            let (dst, src) = (&mut dst[..n], &src[..n]);
            for i in 0..n {
                dst[i] = ($vector)(src[i]);
            }
            fix(src, dst, $outside, $scalar);
        }};
    }

    /// Outside `[-limit, limit]`, or NaN.
    #[inline(always)]
    fn beyond(limit: f64) -> impl Fn(f64) -> bool {
        move |x: f64| x.is_nan() | (x.abs() > limit)
    }

    /// `op` of `src` into `dst` (the same length): the vector loop over every element, then
    /// the scalar function for the elements outside its range (and NaN).
    #[inline(always)]
    fn run<const F: bool>(op: VecOp, src: &[f64], dst: &mut [f64]) {
        match op {
            VecOp::Exp => each!(src, dst, exp::<F>, beyond(EXP_LIMIT), f64::exp),
            VecOp::Tanh => each!(src, dst, tanh::<F>, beyond(TANH_LIMIT), f64::tanh),
            VecOp::Sigmoid => {
                each!(src, dst, |x: f64| 1.0 / (1.0 + exp::<F>(-x)), beyond(EXP_LIMIT), |x| 1.0 / (1.0 + (-x).exp()))
            }
            VecOp::Silu => {
                each!(src, dst, |x: f64| x / (1.0 + exp::<F>(-x)), beyond(EXP_LIMIT), |x| x / (1.0 + (-x).exp()))
            }
            VecOp::Ln => each!(src, dst, ln::<F>, |x| !ln_domain(x), f64::ln),
            VecOp::Softplus => each!(src, dst, softplus::<F>, |x| x.is_nan() | (x < -EXP_LIMIT), |x| x.exp().ln_1p()),
            VecOp::Sin => each!(src, dst, |x| sin_cos::<F>(x, false), beyond(TRIG_LIMIT), f64::sin),
            VecOp::Cos => each!(src, dst, |x| sin_cos::<F>(x, true), beyond(TRIG_LIMIT), f64::cos),
            // Infinities included (but gelu's: NaN at -inf, as PyTorch's); NaN stays NaN.
            VecOp::Erf => each!(src, dst, special::erf_k::<F>, f64::is_nan, |x| x),
            VecOp::Erfc => each!(src, dst, special::erfc_k::<F>, f64::is_nan, |x| x),
            VecOp::Gelu => each!(src, dst, special::gelu_k::<F>, |x| !x.is_finite(), special::gelu),
            VecOp::GeluTanh => each!(src, dst, special::gelu_tanh_k::<F>, f64::is_nan, |x| x),
        }
    }

    /// `op` of every element of `xs`, in place, a stack block at a time.
    #[inline(always)]
    pub(super) fn apply_with<const F: bool>(op: VecOp, xs: &mut [f64]) {
        let mut src = [0f64; BLOCK];
        for block in xs.chunks_mut(BLOCK) {
            let src = &mut src[..block.len()];
            src.copy_from_slice(block);
            run::<F>(op, src, block);
        }
    }

    /// musl's `logf` without branches, in `f32` lanes, for positive normal `x` (anything, no
    /// panic, else): the method of [`ln`] with `f32` constants (error below 1 ulp).
    #[inline(always)]
    fn ln_f32<const F: bool>(x: f32) -> f32 {
        const LG: [f32; 4] = [0.666_666_6, 0.400_009_72, 0.284_987_87, 0.242_790_79];
        const LN2_HI: f32 = 6.931_381_2e-1;
        const LN2_LO: f32 = 9.058_001e-6;
        let fma = |a: f32, b: f32, c: f32| if F { a.mul_add(b, c) } else { a * b + c };
        let ix = x.to_bits().wrapping_add(0x3f80_0000 - 0x3f35_04f3);
        // k as a float without an integer conversion: 2^23 + (k + 127), minus 2^23 + 127.
        let k = f32::from_bits((ix >> 23) | 0x4b00_0000) - (8388608.0 + 127.0);
        let f = f32::from_bits((ix & 0x007f_ffff) + 0x3f35_04f3) - 1.0;
        let s = f / (2.0 + f);
        let z = s * s;
        let w = z * z;
        let r = z * fma(w, LG[2], LG[0]) + w * fma(w, LG[3], LG[1]);
        let hfsq = 0.5 * f * f;
        fma(s, hfsq + r, k * LN2_LO) - hfsq + f + k * LN2_HI
    }

    /// `sin x` (`cos x` with `cos`) of an `f32` value held in `f64`, for `|x| <= TRIG_LIMIT_F32`
    /// (anything, no panic, else): musl's `sinf`/`cosf` method, the reduction by `pi/2` in `f64`
    /// with 25 + 53 bits of it (`__rem_pio2f`), then its short `f64` kernels `__sindf` and
    /// `__cosdf` on `[-pi/4, pi/4]` (errors far below an `f32` ulp).
    #[inline(always)]
    fn sin_cos_f32<const F: bool>(x: f64, cos: bool) -> f64 {
        const PIO2_1: f64 = 1.57079631090164184570e+00;
        const PIO2_1T: f64 = 1.58932547735281966916e-08;
        const S: [f64; 4] = [
            -0.166666666416265235595,
            0.0083333293858894631756,
            -0.000198393348360966317347,
            0.0000027183114939898219064,
        ];
        const C: [f64; 4] = [
            -0.499999997251031003120,
            0.0416666233237390631894,
            -0.00138867637746099294692,
            0.0000243904487962774090654,
        ];
        let nd = fma::<F>(x, core::f64::consts::FRAC_2_PI, SHIFT);
        let n = nd - SHIFT;
        let q = (nd.to_bits() as i64).wrapping_sub(SHIFT.to_bits() as i64) as u64;
        let y = fma::<F>(n, -PIO2_1T, fma::<F>(n, -PIO2_1, x));
        let z = y * y;
        let w = z * z;
        let s = z * y;
        let sin = (y + s * fma::<F>(z, S[1], S[0])) + s * w * fma::<F>(z, S[3], S[2]);
        // -0 + 0 is +0: a zero keeps its sign.
        let sin = if y == 0.0 { y } else { sin };
        let cosv = (fma::<F>(z, C[0], 1.0) + w * C[1]) + (w * z) * fma::<F>(z, C[3], C[2]);
        let q = q.wrapping_add(cos as u64);
        let v = if q & 1 == 0 { sin } else { cosv };
        if q & 2 == 0 {
            v
        } else {
            -v
        }
    }

    /// `e^x` for `|x| <= 708` to about 2^-31 (for the `f32` kernels): the reduction of [`exp`]
    /// and the Taylor polynomial of degree 8 (truncation below 2^-32 on `|r| <= ln 2 / 2`).
    #[inline(always)]
    fn exp_short<const F: bool>(x: f64) -> f64 {
        const C: [f64; 9] =
            [1.0, 1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0, 1.0 / 5040.0, 1.0 / 40320.0];
        let kd = fma::<F>(x, core::f64::consts::LOG2_E, SHIFT);
        let k = kd - SHIFT;
        let r = fma::<F>(k, -LN2_LO, fma::<F>(k, -LN2_HI, x));
        let mut p = C[8];
        for &c in C[..8].iter().rev() {
            p = fma::<F>(p, r, c);
        }
        let ki = (kd.to_bits() as i64).wrapping_sub(SHIFT.to_bits() as i64);
        p * f64::from_bits((ki.wrapping_add(1023) as u64) << 52)
    }

    /// `a * b + c` in `f32`, fused where the code is compiled with FMA (`F`).
    #[inline(always)]
    fn fma32<const F: bool>(a: f32, b: f32, c: f32) -> f32 {
        if F {
            a.mul_add(b, c)
        } else {
            a * b + c
        }
    }

    /// `c[0] + c[1] x + c[2] x^2 + ...` in `f32`.
    #[inline(always)]
    fn horner32<const F: bool, const N: usize>(x: f32, c: [f32; N]) -> f32 {
        let mut r = c[N - 1];
        for &k in c[..N - 1].iter().rev() {
            r = fma32::<F>(r, x, k);
        }
        r
    }

    /// `(s, m)` with `e^-h = s (1 + m)`, `s` a power of two, in `f32` lanes, for `h` in
    /// `[0, 87]`: `k = round(-h / ln 2)`, `r = -h - k ln 2` with `ln 2` in two parts
    /// (`k * LN2_HI` exact for `|k| < 2^8`, and `-h - k LN2_HI` exact), and
    /// `e^r - 1 = r + r^2 E(r)` with `E` of degree 4 (error below 3.9e-9 relative to `e^r` on
    /// `|r| <= 0.357`; `scripts/erf_data.py --fit`).
    fn exp_neg32<const F: bool>(h: f32) -> (f32, f32) {
        /// `1.5 * 2^23`: `x + SHIFT32` rounds `x` to an integer held in the low mantissa bits.
        const SHIFT32: f32 = 12582912.0;
        const LN2_HI: f32 = 0.69314575;
        const LN2_LO: f32 = 1.4286068e-6;
        const E: [f32; 5] = [0.4999999, 0.16666505, 0.04166883, 0.008370643, 0.0013798961];
        let kd = fma32::<F>(-h, core::f32::consts::LOG2_E, SHIFT32);
        let k = kd - SHIFT32;
        let r = fma32::<F>(k, -LN2_LO, fma32::<F>(k, -LN2_HI, -h));
        let m = fma32::<F>(horner32::<F, 5>(r, E), r * r, r);
        let ki = (kd.to_bits() as i32).wrapping_sub(SHIFT32.to_bits() as i32);
        (f32::from_bits((ki.wrapping_add(127) as u32) << 23), m)
    }

    /// Below it `erf` is `x + x S(x^2)`, above `1 - e^L(|x|)` (AOR's split, where
    /// `erfc(0.921875) = 0.19`).
    const ERF_SPLIT: f32 = 0.921875;

    /// `erf x` in `f32` lanes, every `x` (the sign of zero and NaN kept, +-1 at +-inf):
    /// Arm's optimized-routines' method with shaped's fits (`scripts/erf_data.py --fit`): below
    /// `ERF_SPLIT`, `x + x S(x^2)` with `S` of degree 6 (absolute error below 1e-9); above,
    /// `1 - e^L(a)`, `a = min(|x|, 4)`, `L` of degree 6 fitted to `ln erfc a` weighted by
    /// `erfc a / erf a` (the error it makes in `erf`: below 1.6e-9 relative); from 3.92 on the
    /// result rounds to 1.
    #[inline(always)]
    fn erf32<const F: bool>(x: f32) -> f32 {
        const S: [f32; 7] =
            [0.12837917, -0.3761263, 0.11283624, -0.026855579, 0.005191889, -0.00080426974, 7.962679e-5];
        const L: [f32; 7] =
            [-0.00019851854, -1.1276639, -0.63720214, -0.10391406, 0.022218423, -0.0030410732, 0.00019571728];
        let small = fma32::<F>(x, horner32::<F, 7>(x * x, S), x);
        let a = x.abs();
        // `clamp` keeps NaN, so that NaN reaches the result.
        let (s, m) = exp_neg32::<F>(-horner32::<F, 7>(a.clamp(ERF_SPLIT, 4.0), L));
        let big = (1.0 - fma32::<F>(s, m, s)).copysign(x);
        if a < ERF_SPLIT {
            small
        } else {
            big
        }
    }

    /// `gelu_tanh x = x / (1 + e^(-2u))` of an `f32` value held in `f64` (`2u` off by 2^-51 at
    /// most, amplified by `|2u| < 2^7` before `f32` underflows).
    #[inline(always)]
    fn gelu_tanh_f32<const F: bool>(x: f64) -> f64 {
        let u2 = 1.5957691216057308 * fma::<F>(0.044715 * x, x * x, x);
        x / (1.0 + exp_short::<F>((-u2).clamp(-700.0, 700.0)))
    }

    /// Largest `|x|` of the `f32` vector path of `sin` and `cos` (musl's medium range,
    /// `2^28 pi/2`: `n * PIO2_1` exact).
    const TRIG_LIMIT_F32: f64 = 4.2e8;

    /// `op` of `f32` elements in place: `erf` and `ln` in `f32` lanes; `sin`, `cos` and `gelu_tanh`
    /// in `f64` with short kernels; `softplus` through the `f64` kernel (`erfc` and `gelu`, which
    /// `apply_f32` sends to [`tail32`](super::tail32), too, for the tests). Each stack block is widened
    /// to `f64` where needed and rounded back once; elements outside a kernel's range take the
    /// scalar function.
    #[inline(always)]
    pub(super) fn via_f64_with<const F: bool>(op: VecOp, xs: &mut [f32]) {
        // `erf` in `f32` lanes, in place: every input, NaN and infinities included, takes the
        // vector loop (a plain loop, the kernel inlined: see `each!`).
        if op == VecOp::Erf {
            for x in xs.iter_mut() {
                *x = erf32::<F>(*x);
            }
            return;
        }
        if op == VecOp::Ln {
            let mut src = [0f32; BLOCK];
            for block in xs.chunks_mut(BLOCK) {
                let src = &mut src[..block.len()];
                src.copy_from_slice(block);
                block.iter_mut().zip(&*src).for_each(|(d, &x)| *d = ln_f32::<F>(x));
                #[allow(clippy::manual_range_contains)]
                let outside = |x: f32| !((x >= f32::MIN_POSITIVE) & (x <= f32::MAX));
                if src.iter().fold(false, |any, &x| any | outside(x)) {
                    for (d, &x) in block.iter_mut().zip(&*src) {
                        if outside(x) {
                            *d = x.ln();
                        }
                    }
                }
            }
            return;
        }
        let (mut wide, mut out) = ([0f64; BLOCK], [0f64; BLOCK]);
        for block in xs.chunks_mut(BLOCK) {
            let n = block.len();
            let (wide, out) = (&mut wide[..n], &mut out[..n]);
            wide.iter_mut().zip(&*block).for_each(|(w, &x)| *w = x as f64);
            match op {
                VecOp::Sin => each!(wide, out, |x| sin_cos_f32::<F>(x, false), beyond(TRIG_LIMIT_F32), f64::sin),
                VecOp::Cos => each!(wide, out, |x| sin_cos_f32::<F>(x, true), beyond(TRIG_LIMIT_F32), f64::cos),
                // Infinities included (but NaN at -inf, as PyTorch's); NaN stays NaN.
                VecOp::GeluTanh => each!(wide, out, gelu_tanh_f32::<F>, |x| !x.is_finite(), special::gelu_tanh),
                _ => run::<F>(op, wide, out),
            }
            block.iter_mut().zip(&*out).for_each(|(x, &r)| *x = r as f32);
        }
    }

    /// `pub(super) fn $name(op, xs: &mut [$t])`: `$with::<FMA>(op, xs)` compiled for AVX-512F,
    /// for AVX2+FMA and for the target's baseline, the widest the CPU has chosen at run time.
    macro_rules! dispatch {
        ($name:ident, $t:ty, $with:ident) => {
            pub(super) fn $name(op: VecOp, xs: &mut [$t]) {
                #[cfg(target_arch = "x86_64")]
                {
                    #[target_feature(enable = "avx512f,avx512dq,fma")]
                    fn avx512(op: VecOp, xs: &mut [$t]) {
                        $with::<true>(op, xs)
                    }
                    #[target_feature(enable = "avx2,fma")]
                    fn avx2(op: VecOp, xs: &mut [$t]) {
                        $with::<true>(op, xs)
                    }
                    if std::is_x86_feature_detected!("avx512f")
                        && std::is_x86_feature_detected!("avx512dq")
                        && std::is_x86_feature_detected!("fma")
                    {
                        // SAFETY: `avx512` needs AVX-512F, AVX-512DQ and FMA, detected just above.
                        return unsafe { avx512(op, xs) };
                    }
                    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                        // SAFETY: `avx2` needs AVX2 and FMA, detected just above.
                        return unsafe { avx2(op, xs) };
                    }
                }
                $with::<{ cfg!(target_feature = "fma") }>(op, xs)
            }
        };
    }
    dispatch!(apply, f64, apply_with);
    dispatch!(via_f64, f32, via_f64_with);

    /// `f32` `erf` of `src` written to `dst` (the same length): `erf32` straight into a new
    /// tensor's buffer, without the copy of the input that the in-place path starts with (a pass
    /// of `[1e6]` over 8 MB: 1.67 ms against PyTorch's 1.22 ms before).
    #[inline(always)]
    fn erf_map_with<const F: bool>(src: &[f32], dst: &mut [MaybeUninit<f32>]) {
        assert_eq!(src.len(), dst.len());
        for (d, &x) in dst.iter_mut().zip(src) {
            d.write(erf32::<F>(x));
        }
    }
    /// [`erf_map_with`] through the widest instruction set the CPU has (as `dispatch!`).
    pub(super) fn erf_map<'a>(src: &[f32], dst: &'a mut [MaybeUninit<f32>]) -> &'a mut [f32] {
        #[cfg(target_arch = "x86_64")]
        'done: {
            #[target_feature(enable = "avx512f,avx512dq,fma")]
            fn avx512(src: &[f32], dst: &mut [MaybeUninit<f32>]) {
                erf_map_with::<true>(src, dst)
            }
            #[target_feature(enable = "avx2,fma")]
            fn avx2(src: &[f32], dst: &mut [MaybeUninit<f32>]) {
                erf_map_with::<true>(src, dst)
            }
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("fma")
            {
                // SAFETY: `avx512` needs AVX-512F, AVX-512DQ and FMA, detected just above.
                unsafe { avx512(src, dst) };
                break 'done;
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: `avx2` needs AVX2 and FMA, detected just above.
                unsafe { avx2(src, dst) };
                break 'done;
            }
            erf_map_with::<{ cfg!(target_feature = "fma") }>(src, dst);
        }
        #[cfg(not(target_arch = "x86_64"))]
        erf_map_with::<{ cfg!(target_feature = "fma") }>(src, dst);
        // SAFETY: `erf_map_with` wrote every element of `dst` (it asserts `src` is as long).
        unsafe { super::tail32::assume_written(dst) }
    }
}

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
mod tail32 {
    use super::VecOp;
    use core::mem::MaybeUninit;

    /// The lane operations of the kernels, on vectors `V` of `f32`, `I` of `u32` and masks `M`.
    pub(super) trait Lanes: Copy {
        type V: Copy;
        type I: Copy;
        type M: Copy;
        /// Lanes per vector (at most 16).
        const N: usize;
        fn splat(self, x: f32) -> Self::V;
        /// The first `N` elements of `s`.
        fn load(self, s: &[f32]) -> Self::V;
        /// Into the first `N` elements of `d`.
        fn store(self, v: Self::V, d: &mut [MaybeUninit<f32>]);
        fn add(self, a: Self::V, b: Self::V) -> Self::V;
        fn sub(self, a: Self::V, b: Self::V) -> Self::V;
        fn mul(self, a: Self::V, b: Self::V) -> Self::V;
        /// `a * b + c`, fused where the lanes have FMA.
        fn fma(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        /// `b - c t^2` with the square exact and one rounding (fused), `c` 1/2 or 1.
        #[inline(always)]
        fn sq_sub(self, b: Self::V, c: f32, t: Self::V) -> Self::V {
            self.fma(t, self.mul(t, self.splat(-c)), b)
        }
        /// `if a < b { a } else { b }`: `b` where either is NaN.
        fn min(self, a: Self::V, b: Self::V) -> Self::V;
        fn abs(self, a: Self::V) -> Self::V;
        fn lt(self, a: Self::V, b: Self::V) -> Self::M;
        fn ge(self, a: Self::V, b: Self::V) -> Self::M;
        /// `if m { a } else { b }`.
        fn select(self, m: Self::M, a: Self::V, b: Self::V) -> Self::V;
        fn bits(self, a: Self::V) -> Self::I;
        fn float_of(self, a: Self::I) -> Self::V;
        fn isplat(self, x: u32) -> Self::I;
        fn iadd(self, a: Self::I, b: Self::I) -> Self::I;
        fn shl23(self, a: Self::I) -> Self::I;
        fn shr21(self, a: Self::I) -> Self::I;
        /// `table[i mod 16]` in each lane.
        fn lookup(self, i: Self::I, table: &[f32; 16]) -> Self::V;
        /// `base - p 2^k`, `k` an integer held in a float (`kd = SHIFT32 + k`), rounded once where
        /// the instruction set allows (else the product `p 2^(k+64)` first, exact unless it
        /// overflows, then one fused step).
        #[inline(always)]
        fn scaled_sub(self, base: Self::V, p: Self::V, k: Self::V, kd: Self::V) -> Self::V {
            let _ = k;
            let e = self.iadd(self.bits(kd), self.isplat((127 + 64u32).wrapping_sub(SHIFT32.to_bits())));
            self.fma(self.mul(p, self.float_of(self.shl23(e))), self.splat(-UNSCALE), base)
        }
    }

    /// One plain `f32` lane (`F`: with fused multiply-adds), for the target's baseline and the
    /// tests: the compiler may vectorise around its table lookups.
    #[derive(Clone, Copy)]
    pub(super) struct Plain<const F: bool>;

    impl<const F: bool> Lanes for Plain<F> {
        type V = f32;
        type I = u32;
        type M = bool;
        const N: usize = 1;
        #[inline(always)]
        fn splat(self, x: f32) -> f32 {
            x
        }
        #[inline(always)]
        fn load(self, s: &[f32]) -> f32 {
            s[0]
        }
        #[inline(always)]
        fn store(self, v: f32, d: &mut [MaybeUninit<f32>]) {
            d[0].write(v);
        }
        #[inline(always)]
        fn add(self, a: f32, b: f32) -> f32 {
            a + b
        }
        #[inline(always)]
        fn sub(self, a: f32, b: f32) -> f32 {
            a - b
        }
        #[inline(always)]
        fn mul(self, a: f32, b: f32) -> f32 {
            a * b
        }
        #[inline(always)]
        fn fma(self, a: f32, b: f32, c: f32) -> f32 {
            if F {
                a.mul_add(b, c)
            } else {
                a * b + c
            }
        }
        #[inline(always)]
        fn sq_sub(self, b: f32, c: f32, t: f32) -> f32 {
            if F {
                t.mul_add(-c * t, b)
            } else {
                // `t^2 = p + e` exactly (Veltkamp's splits into 12 bits, Dekker's product), `c p`
                // exact too: one rounding, and a small one.
                let c1 = 4097.0 * t;
                let h = c1 - (c1 - t);
                let l = t - h;
                let p = t * t;
                let e = ((h * h - p) + 2.0 * h * l) + l * l;
                (b - c * p) - c * e
            }
        }
        #[inline(always)]
        fn min(self, a: f32, b: f32) -> f32 {
            if a < b {
                a
            } else {
                b
            }
        }
        #[inline(always)]
        fn abs(self, a: f32) -> f32 {
            a.abs()
        }
        #[inline(always)]
        fn lt(self, a: f32, b: f32) -> bool {
            a < b
        }
        #[inline(always)]
        fn ge(self, a: f32, b: f32) -> bool {
            a >= b
        }
        #[inline(always)]
        fn select(self, m: bool, a: f32, b: f32) -> f32 {
            if m {
                a
            } else {
                b
            }
        }
        #[inline(always)]
        fn bits(self, a: f32) -> u32 {
            a.to_bits()
        }
        #[inline(always)]
        fn float_of(self, a: u32) -> f32 {
            f32::from_bits(a)
        }
        #[inline(always)]
        fn isplat(self, x: u32) -> u32 {
            x
        }
        #[inline(always)]
        fn iadd(self, a: u32, b: u32) -> u32 {
            a.wrapping_add(b)
        }
        #[inline(always)]
        fn shl23(self, a: u32) -> u32 {
            a << 23
        }
        #[inline(always)]
        fn shr21(self, a: u32) -> u32 {
            a >> 21
        }
        #[inline(always)]
        fn lookup(self, i: u32, table: &[f32; 16]) -> f32 {
            table[(i & 15) as usize]
        }
    }

    /// AVX-512 and AVX2 lanes. A value of either type exists only inside functions compiled with
    /// its instruction set's features (its constructor is such a function), which the dispatch
    /// reaches only after detecting them: every intrinsic below runs on a CPU that has it.
    #[cfg(target_arch = "x86_64")]
    pub(super) mod x86 {
        use super::{Lanes, MaybeUninit};
        use core::arch::x86_64::*;

        /// The method bodies, each an intrinsic call.
        macro_rules! ops {
            ($($name:ident($($a:ident: $t:ty),*) -> $r:ty = $e:expr;)*) => {$(
                #[inline(always)]
                fn $name(self, $($a: $t),*) -> $r {
                    // SAFETY: `self` exists only where the CPU has this instruction set (see the
                    // module); the loads in `lookup` read within its 16-element table.
                    unsafe { $e }
                }
            )*};
        }

        /// AVX-512F lanes (16).
        #[derive(Clone, Copy)]
        pub(in super::super) struct Avx512(());
        impl Avx512 {
            #[target_feature(enable = "avx512f,fma")]
            pub(in super::super) fn new() -> Self {
                Avx512(())
            }
        }

        impl Lanes for Avx512 {
            type V = __m512;
            type I = __m512i;
            type M = __mmask16;
            const N: usize = 16;
            #[inline(always)]
            fn load(self, s: &[f32]) -> __m512 {
                assert!(s.len() >= 16);
                // SAFETY: the CPU has AVX-512F (see the module); `s` has 16 elements.
                unsafe { _mm512_loadu_ps(s.as_ptr()) }
            }
            #[inline(always)]
            fn store(self, v: __m512, d: &mut [MaybeUninit<f32>]) {
                assert!(d.len() >= 16);
                // SAFETY: the CPU has AVX-512F (see the module); `d` has 16 elements.
                unsafe { _mm512_storeu_ps(d.as_mut_ptr().cast(), v) }
            }
            /// `p 2^k` in one rounding, subnormal results included (`vscalefps`), then the
            /// subtraction (exact where `base` is zero).
            #[inline(always)]
            fn scaled_sub(self, base: __m512, p: __m512, k: __m512, _kd: __m512) -> __m512 {
                self.sub(base, self.scalef(p, k))
            }
            ops! {
                splat(x: f32) -> __m512 = _mm512_set1_ps(x);
                add(a: __m512, b: __m512) -> __m512 = _mm512_add_ps(a, b);
                sub(a: __m512, b: __m512) -> __m512 = _mm512_sub_ps(a, b);
                mul(a: __m512, b: __m512) -> __m512 = _mm512_mul_ps(a, b);
                fma(a: __m512, b: __m512, c: __m512) -> __m512 = _mm512_fmadd_ps(a, b, c);
                min(a: __m512, b: __m512) -> __m512 = _mm512_min_ps(a, b);
                abs(a: __m512) -> __m512 = _mm512_abs_ps(a);
                lt(a: __m512, b: __m512) -> __mmask16 = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b);
                ge(a: __m512, b: __m512) -> __mmask16 = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(a, b);
                select(m: __mmask16, a: __m512, b: __m512) -> __m512 = _mm512_mask_blend_ps(m, b, a);
                bits(a: __m512) -> __m512i = _mm512_castps_si512(a);
                float_of(a: __m512i) -> __m512 = _mm512_castsi512_ps(a);
                isplat(x: u32) -> __m512i = _mm512_set1_epi32(x as i32);
                iadd(a: __m512i, b: __m512i) -> __m512i = _mm512_add_epi32(a, b);
                shl23(a: __m512i) -> __m512i = _mm512_slli_epi32::<23>(a);
                shr21(a: __m512i) -> __m512i = _mm512_srli_epi32::<21>(a);
                lookup(i: __m512i, t: &[f32; 16]) -> __m512 = _mm512_permutexvar_ps(i, _mm512_loadu_ps(t.as_ptr()));
            }
        }

        impl Avx512 {
            ops! {
                scalef(p: __m512, k: __m512) -> __m512 = _mm512_scalef_ps(p, k);
            }
        }

        /// AVX2 lanes (8), with FMA.
        #[derive(Clone, Copy)]
        pub(in super::super) struct Avx2(());
        impl Avx2 {
            #[target_feature(enable = "avx2,fma")]
            pub(in super::super) fn new() -> Self {
                Avx2(())
            }
        }

        impl Lanes for Avx2 {
            type V = __m256;
            type I = __m256i;
            type M = __m256;
            const N: usize = 8;
            #[inline(always)]
            fn load(self, s: &[f32]) -> __m256 {
                assert!(s.len() >= 8);
                // SAFETY: the CPU has AVX (see the module); `s` has 8 elements.
                unsafe { _mm256_loadu_ps(s.as_ptr()) }
            }
            #[inline(always)]
            fn store(self, v: __m256, d: &mut [MaybeUninit<f32>]) {
                assert!(d.len() >= 8);
                // SAFETY: the CPU has AVX (see the module); `d` has 8 elements.
                unsafe { _mm256_storeu_ps(d.as_mut_ptr().cast(), v) }
            }
            ops! {
                splat(x: f32) -> __m256 = _mm256_set1_ps(x);
                add(a: __m256, b: __m256) -> __m256 = _mm256_add_ps(a, b);
                sub(a: __m256, b: __m256) -> __m256 = _mm256_sub_ps(a, b);
                mul(a: __m256, b: __m256) -> __m256 = _mm256_mul_ps(a, b);
                fma(a: __m256, b: __m256, c: __m256) -> __m256 = _mm256_fmadd_ps(a, b, c);
                min(a: __m256, b: __m256) -> __m256 = _mm256_min_ps(a, b);
                abs(a: __m256) -> __m256 = _mm256_andnot_ps(_mm256_set1_ps(-0.0), a);
                lt(a: __m256, b: __m256) -> __m256 = _mm256_cmp_ps::<_CMP_LT_OQ>(a, b);
                ge(a: __m256, b: __m256) -> __m256 = _mm256_cmp_ps::<_CMP_GE_OQ>(a, b);
                select(m: __m256, a: __m256, b: __m256) -> __m256 = _mm256_blendv_ps(b, a, m);
                bits(a: __m256) -> __m256i = _mm256_castps_si256(a);
                float_of(a: __m256i) -> __m256 = _mm256_castsi256_ps(a);
                isplat(x: u32) -> __m256i = _mm256_set1_epi32(x as i32);
                iadd(a: __m256i, b: __m256i) -> __m256i = _mm256_add_epi32(a, b);
                shl23(a: __m256i) -> __m256i = _mm256_slli_epi32::<23>(a);
                shr21(a: __m256i) -> __m256i = _mm256_srli_epi32::<21>(a);
                // Two 8-entry permutes, blended on bit 3 of the index (the sign bit after `<< 28`).
                lookup(i: __m256i, t: &[f32; 16]) -> __m256 = {
                    let lo = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr()), i);
                    let hi = _mm256_permutevar8x32_ps(_mm256_loadu_ps(t.as_ptr().add(8)), i);
                    _mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32::<28>(i)))
                };
            }
        }
    }

    /// `1.5 * 2^23`: `x + SHIFT32` rounds `x` to an integer held in the low mantissa bits.
    const SHIFT32: f32 = 12582912.0;
    /// `2^-64`.
    const UNSCALE: f32 = 5.421010862427522e-20;

    // GELU_H: largest relative error 2.24e-09
    #[rustfmt::skip]
    const GELU_H: [[f32; 16]; 8] = [
        [
            0.2884504, 0.32415542, 0.34571686, 0.35949302, 0.37220803, 0.38161525, 0.3868848, 0.39010188,
            0.39298037, 0.39506695, 0.39622766, 0.39693725, 0.0, 0.14235166, 0.20209761, 0.24479926,
        ],
        [
            1.1589975e-08, -6.864814e-09, -4.6633395e-09, 1.581552e-09, 8.7514485e-09, 1.31933895e-08, 8.600206e-09, 9.896088e-09,
            2.7807263e-09, -5.7274976e-09, -4.867723e-09, -3.70805e-09, 0.0, 3.3068401e-09, -4.189571e-09, -7.335594e-09,
        ],
        [
            0.09264548, 0.05435465, 0.03389474, 0.022239266, 0.012775311, 0.006831822, 0.0040266463, 0.002553136,
            0.0014272621, 0.00075330044, 0.00044344144, 0.00028219828, 0.5, 0.28338295, 0.20032825, 0.14489542,
        ],
        [
            -0.052588478, -0.027226556, -0.015093841, -0.008870273, -0.0043774666, -0.001955421, -0.0009841868, -0.0005426988,
            -0.00025286895, -0.00010883834, -5.3979216e-05, -2.9645156e-05, -0.39894208, -0.20345631, -0.1342421, -0.09075128,
        ],
        [
            0.02440965, 0.011294813, 0.005626887, 0.00298843, 0.001280384, 0.00048273223, 0.00020897143, 0.00010071728,
            3.9303064e-05, 1.38541e-05, 5.803404e-06, 2.7549827e-06, 0.24998881, 0.11625721, 0.07219706, 0.045978013,
        ],
        [
            -0.009899982, -0.0041335844, -0.0018660014, -0.00090211886, -0.00033851393, -0.000108660664, -4.070955e-05, -1.722747e-05,
            -5.657239e-06, -1.639278e-06, -5.8135385e-07, -2.3890502e-07, -0.13277301, -0.056921434, -0.033465598, -0.020193243,
        ],
        [
            0.0036687877, 0.001389703, 0.00057120726, 0.0002535987, 8.498873e-05, 2.3270482e-05, 7.550145e-06, 2.8113907e-06,
            7.9601824e-07, 1.884225e-07, 5.645856e-08, 2.0012214e-08, 0.06079445, 0.024971312, 0.013895439, 0.00800695,
        ],
        [
            -0.001244754, -0.00043082217, -0.00016241183, -6.5783315e-05, -1.9768333e-05, -4.6674454e-06, -1.3241663e-06, -4.355031e-07,
            -1.05073916e-07, -2.0560904e-08, -5.220997e-09, -1.6082756e-09, -0.020047655, -0.009740352, -0.005304253, -0.002854804,
        ],
    ];
    // ERFC_N: largest relative error 6.89e-09
    #[rustfmt::skip]
    const ERFC_N: [[f32; 16]; 8] = [
        [
            0.36782292, 0.28497222, 0.23108725, 0.19366209, 0.15529366, 0.1224848, 0.10096222, 0.08580567,
            0.069985166, 0.056140993, 0.04685422, 0.040197227, 1.0, 0.68585724, 0.5568139, 0.46431157,
        ],
        [
            1.2042258e-09, 1.4089894e-08, 6.2351337e-09, 4.189994e-09, -2.744377e-09, 1.0765888e-09, -3.2225802e-09, 6.7805306e-10,
            1.1335266e-11, -4.638783e-11, 6.842156e-10, 1.500024e-09, -4.560542e-10, -3.2749488e-09, -1.482592e-08, 1.3274649e-08,
        ],
        [
            -0.20882191, -0.13097635, -0.08848651, -0.06323764, -0.04132359, -0.026015932, -0.017794766, -0.012905456,
            -0.008616511, -0.0055593126, -0.0038778628, -0.002856765, -1.128379, -0.61398625, -0.4323618, -0.3158339,
        ],
        [
            0.106795564, 0.05576363, 0.03199263, 0.019758593, 0.0106611345, 0.0054131257, 0.0030910126, 0.0019202079,
            0.0010531035, 0.0005478706, 0.00031986815, 0.0002025202, 0.9999886, 0.4556124, 0.28658774, 0.18795693,
        ],
        [
            -0.0502139, -0.022259101, -0.011001554, -0.0059342845, -0.00267263, -0.0011044804, -0.0005294388, -0.0002827263,
            -0.00012776532, -5.3733893e-05, -2.6295676e-05, -1.4321024e-05, -0.7519804, -0.29541564, -0.16882962, -0.100913934,
        ],
        [
            0.022010598, 0.008404164, 0.0036188168, 0.0017195551, 0.00065260485, 0.00022125184, 8.947786e-05, 4.120932e-05,
            1.5395057e-05, 5.2459686e-06, 2.1546805e-06, 1.0102524e-06, 0.4968597, 0.17241295, 0.09053472, 0.04982749,
        ],
        [
            -0.009225607, -0.003055491, -0.0011572584, -0.00048522992, -0.0001590861, -4.4287168e-05, -1.51156e-05, -6.0132897e-06,
            -1.8886261e-06, -5.180174e-07, -1.7792559e-07, -7.1777166e-08, -0.2819297, -0.09294546, -0.04505498, -0.023017269,
        ],
        [
            0.0035959806, 0.0010487736, 0.00035285344, 0.00013207065, 3.6940775e-05, 8.557808e-06, 2.4864216e-06, 8.5838514e-07,
            2.2439446e-07, 5.0090545e-08, 1.44622145e-08, 5.0261546e-09, 0.107170686, 0.04620532, 0.020874487, 0.00998307,
        ],
    ];
    #[rustfmt::skip]
    const CENTRES: [f32; 16] = [
        1.25, 1.75, 2.25, 2.75, 3.5, 4.5, 5.5, 6.5,
        8.0, 10.0, 12.0, 14.0, 0.0, 0.375, 0.625, 0.875,
    ];

    /// `(k, kd, m)` with `e^(-c t^2) = 2^k (1 + m)`, `kd = SHIFT32 + k`, for `c = 1/2` or 1 and
    /// `c t^2` in `[0, 106]`: `exp_neg32`'s reduction, `-c t^2 - k LN2_HI` from the exact square
    /// in one rounding (within 2^-26.5, absolute), then `-k LN2_LO`.
    #[inline(always)]
    fn exp_parts<L: Lanes>(l: L, t: L::V, c: f32) -> (L::V, L::V, L::V) {
        const LN2_HI: f32 = 0.69314575;
        const LN2_LO: f32 = 1.4286068e-6;
        const E: [f32; 5] = [0.4999999, 0.16666505, 0.04166883, 0.008370643, 0.0013798961];
        let kd = l.fma(l.mul(t, t), l.splat(-c * core::f32::consts::LOG2_E), l.splat(SHIFT32));
        let k = l.sub(kd, l.splat(SHIFT32));
        let r = l.sq_sub(l.mul(k, l.splat(-LN2_HI)), c, t);
        let r = l.fma(k, l.splat(-LN2_LO), r);
        let mut q = l.splat(E[4]);
        for &e in E[..4].iter().rev() {
            q = l.fma(q, r, l.splat(e));
        }
        (k, kd, l.fma(q, l.mul(r, r), r))
    }

    /// The piecewise polynomial `c` at `x` in `[0, 15)` (anything, no panic, else; NaN kept).
    #[inline(always)]
    fn pieces<L: Lanes>(l: L, x: L::V, c: &[[f32; 16]; 8]) -> L::V {
        let i = l.shr21(l.bits(l.add(x, l.splat(1.0))));
        let z = l.sub(x, l.lookup(i, &CENTRES));
        let mut r = l.lookup(i, &c[7]);
        for k in (2..7).rev() {
            r = l.fma(r, z, l.lookup(i, &c[k]));
        }
        l.add(l.lookup(i, &c[0]), l.fma(r, z, l.lookup(i, &c[1])))
    }

    /// `gelu x` in each lane, every `x` (NaN at `-inf`, `x * 0`, as PyTorch's).
    #[inline(always)]
    fn gelu<L: Lanes>(l: L, x: L::V) -> L::V {
        // From 14.5 on the result is -0 (below half the smallest subnormal) or x.
        let t = l.min(l.splat(14.5), l.abs(x));
        let h = pieces(l, t, &GELU_H);
        let (k, kd, m) = exp_parts(l, t, 0.5);
        let base = l.select(l.ge(x, l.splat(0.0)), x, l.mul(x, l.splat(0.0)));
        l.scaled_sub(base, l.fma(h, m, h), k, kd)
    }

    /// `erfc x` in each lane, every `x`.
    #[inline(always)]
    fn erfc<L: Lanes>(l: L, x: L::V) -> L::V {
        // From 10.1 on the result is 0 (below half the smallest subnormal) or 2.
        let a = l.min(l.splat(10.1), l.abs(x));
        let n = pieces(l, a, &ERFC_N);
        let (k, kd, m) = exp_parts(l, a, 1.0);
        let p = l.fma(n, m, n);
        let neg = l.lt(x, l.splat(0.0));
        let q = l.select(neg, p, l.sub(l.splat(0.0), p));
        l.scaled_sub(l.select(neg, l.splat(2.0), l.splat(0.0)), q, k, kd)
    }

    /// `gelu` (`GELU`) or `erfc` of `src` into `dst` (the same length), two vectors a step.
    #[inline(always)]
    fn run<L: Lanes, const GELU: bool>(l: L, src: &[f32], dst: &mut [MaybeUninit<f32>]) {
        let f = |v| if GELU { gelu(l, v) } else { erfc(l, v) };
        assert_eq!(src.len(), dst.len());
        let mut d2 = dst.chunks_exact_mut(2 * L::N);
        let mut s2 = src.chunks_exact(2 * L::N);
        for (d, s) in (&mut d2).zip(&mut s2) {
            let (a, b) = (f(l.load(s)), f(l.load(&s[L::N..])));
            l.store(a, d);
            l.store(b, &mut d[L::N..]);
        }
        let (d, s) = (d2.into_remainder(), s2.remainder());
        let mut d1 = d.chunks_exact_mut(L::N);
        let mut s1 = s.chunks_exact(L::N);
        for (d, s) in (&mut d1).zip(&mut s1) {
            l.store(f(l.load(s)), d);
        }
        let (d, s) = (d1.into_remainder(), s1.remainder());
        if !s.is_empty() {
            let mut buf = [0f32; 16];
            buf[..s.len()].copy_from_slice(s);
            let mut out = [MaybeUninit::new(0f32); 16];
            l.store(f(l.load(&buf)), &mut out);
            d.copy_from_slice(&out[..d.len()]);
        }
    }

    /// `op` (`Erfc` or `Gelu`) of `src` into `dst` (the same length) through the lanes `l`:
    /// every element of `dst` written.
    #[inline(always)]
    fn run_op<L: Lanes>(l: L, op: VecOp, src: &[f32], dst: &mut [MaybeUninit<f32>]) {
        if op == VecOp::Gelu {
            run::<L, true>(l, src, dst)
        } else {
            run::<L, false>(l, src, dst)
        }
    }

    /// [`run_op`] through the widest lanes the CPU has.
    fn run_best(op: VecOp, src: &[f32], dst: &mut [MaybeUninit<f32>]) {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,fma")]
            fn avx512(op: VecOp, src: &[f32], dst: &mut [MaybeUninit<f32>]) {
                run_op(x86::Avx512::new(), op, src, dst)
            }
            #[target_feature(enable = "avx2,fma")]
            fn avx2(op: VecOp, src: &[f32], dst: &mut [MaybeUninit<f32>]) {
                run_op(x86::Avx2::new(), op, src, dst)
            }
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("fma") {
                // SAFETY: `avx512` needs AVX-512F and FMA, detected just above.
                return unsafe { avx512(op, src, dst) };
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: `avx2` needs AVX2 and FMA, detected just above.
                return unsafe { avx2(op, src, dst) };
            }
        }
        run_op(Plain::<{ cfg!(target_feature = "fma") }>, op, src, dst)
    }

    /// `dst` as initialised `f32`s.
    ///
    /// # Safety
    /// Every element of `dst` must have been written.
    pub(super) unsafe fn assume_written(dst: &mut [MaybeUninit<f32>]) -> &mut [f32] {
        // SAFETY: `MaybeUninit<f32>` has `f32`'s layout, and the caller vouches that every element
        // is initialised; the result borrows `dst` mutably for its lifetime.
        unsafe { core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast(), dst.len()) }
    }

    /// `op` (`Erfc` or `Gelu`) of every element of `xs`, in place, a stack block at a time.
    pub(super) fn apply(op: VecOp, xs: &mut [f32]) {
        let mut src = [0f32; 256];
        let mut out = [MaybeUninit::new(0f32); 256];
        for block in xs.chunks_mut(256) {
            let (src, out) = (&mut src[..block.len()], &mut out[..block.len()]);
            src.copy_from_slice(block);
            run_best(op, src, out);
            // SAFETY: `run_best` wrote every element of `out`.
            block.copy_from_slice(unsafe { assume_written(out) });
        }
    }

    /// `op` (`Erfc` or `Gelu`) of `src` written to `dst` (the same length), returned initialised.
    pub(super) fn map<'a>(op: VecOp, src: &[f32], dst: &'a mut [MaybeUninit<f32>]) -> &'a mut [f32] {
        run_best(op, src, dst);
        // SAFETY: `run_best` wrote every element of `dst` (it asserts `src` is as long).
        unsafe { assume_written(dst) }
    }

    /// `op` of `xs` through the lanes `l`.
    #[cfg(test)]
    #[inline(always)]
    fn apply_with<L: Lanes>(l: L, op: VecOp, xs: &[f32]) -> alloc::vec::Vec<f32> {
        let mut out = alloc::vec![MaybeUninit::new(0f32); xs.len()];
        run_op(l, op, xs, &mut out);
        // SAFETY: `run_op` wrote every element of `out`.
        unsafe { assume_written(&mut out) }.to_vec()
    }

    /// `op` of `xs` through each kind of lanes this CPU has, named (for the tests: the dispatch
    /// reaches only the widest).
    #[cfg(test)]
    /// (`fused`: with the fused plain lane, which calls a software `fma` where the build has no
    /// hardware one.)
    pub(super) fn each_lanes(
        op: VecOp,
        xs: &[f32],
        fused: bool,
    ) -> alloc::vec::Vec<(&'static str, alloc::vec::Vec<f32>)> {
        let mut all = alloc::vec![("plain", apply_with(Plain::<false>, op, xs))];
        if fused {
            all.push(("fused", apply_with(Plain::<true>, op, xs)));
        }
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx512f,fma")]
            fn avx512(op: VecOp, xs: &[f32]) -> alloc::vec::Vec<f32> {
                apply_with(x86::Avx512::new(), op, xs)
            }
            #[target_feature(enable = "avx2,fma")]
            fn avx2(op: VecOp, xs: &[f32]) -> alloc::vec::Vec<f32> {
                apply_with(x86::Avx2::new(), op, xs)
            }
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("fma") {
                // SAFETY: `avx512` needs AVX-512F and FMA, detected just above.
                all.push(("avx512", unsafe { avx512(op, xs) }));
            }
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                // SAFETY: `avx2` needs AVX2 and FMA, detected just above.
                all.push(("avx2", unsafe { avx2(op, xs) }));
            }
        }
        all
    }
}

/// The `f64` kernels' two numeric variants (with and without fused multiply-adds) and the `f32`
/// ones, called directly: the tests of `tests/vmath.rs` reach only the variant this CPU picks.
#[cfg(all(test, feature = "simd", not(miri)))]
mod tests {
    use super::{f64k, special, tail32, VecOp};
    use alloc::vec::Vec;

    fn ulps(a: f64, b: f64) -> u64 {
        if a.is_nan() || b.is_nan() {
            return if a.is_nan() && b.is_nan() { 0 } else { u64::MAX };
        }
        let key = |x: f64| {
            let i = x.to_bits() as i64;
            (if i < 0 { i64::MIN - i } else { i }) as i128
        };
        (key(a) - key(b)).unsigned_abs() as u64
    }

    const OPS: [(VecOp, fn(f64) -> f64, u64); 12] = [
        (VecOp::Exp, f64::exp, 2),
        (VecOp::Tanh, f64::tanh, 4),
        (VecOp::Sigmoid, |x| 1.0 / (1.0 + (-x).exp()), 4),
        (VecOp::Silu, |x| x / (1.0 + (-x).exp()), 4),
        (VecOp::Ln, f64::ln, 2),
        (VecOp::Softplus, |x| if x > 20.0 { x } else { x.exp().ln_1p() }, 4),
        (VecOp::Sin, f64::sin, 2),
        (VecOp::Cos, f64::cos, 2),
        // libm's (fdlibm's, within 1 ulp); gelu against the scalar path (the plain variant).
        (VecOp::Erf, libm::erf, 2),
        (VecOp::Erfc, libm::erfc, 2),
        (VecOp::Gelu, special::gelu, 2),
        (VecOp::GeluTanh, special::gelu_tanh, 2),
    ];

    fn inputs() -> Vec<f64> {
        let mut xs: Vec<f64> = (0..20_000).map(|k| (k as f64 - 10_000.0) * 0.0731).collect();
        xs.extend((0..2_000).map(|k| (k as f64 - 1_000.0) * 1e-6));
        xs.extend([0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e-310, 709.9, -745.5, 2e6, 1e300]);
        xs.extend((0..4_000).map(|k| -40.0 + k as f64 * 0.01));
        xs
    }

    fn check(variant: &str, apply: fn(VecOp, &mut [f64])) {
        let xs = inputs();
        for (op, scalar, bound) in OPS {
            let mut got = xs.clone();
            apply(op, &mut got);
            for (&x, &g) in xs.iter().zip(&got) {
                assert!(ulps(g, scalar(x)) <= bound, "{variant} {op:?}({x:e}) = {g:e}, scalar {:e}", scalar(x));
            }
        }
    }

    #[test]
    fn f64_variants() {
        check("plain", f64k::apply_with::<false>);
        check("fused", f64k::apply_with::<true>);
    }

    /// `f32` `erfc` and `gelu` (module `tail32`) through each kind of lanes this CPU has, against
    /// `f64` references rounded once: within 2 ulp (the measured worst over every `f32` of their
    /// ranges), NaN for NaN.
    #[test]
    fn f32_tails() {
        let mut xs: Vec<f32> = inputs().iter().map(|&x| x as f32).collect();
        // Each piece's ends and its neighbours, the underflow thresholds, subnormals.
        for b in [
            0.25f32, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0, 11.0, 13.0, 10.0, 10.1, 14.4, 14.5,
            15.0,
        ] {
            for k in -3i32..=3 {
                let v = f32::from_bits((b.to_bits() as i32 + k) as u32);
                xs.extend([v, -v]);
            }
        }
        xs.extend([
            1e-45f32,
            -1e-45,
            3e-45,
            -3e-45,
            1e-40,
            -1e-40,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
        ]);
        xs.extend((0..40_000).map(|k| -16.0 + k as f32 * 0.000_55));
        let erfc = |x: f32| libm::erfc(x as f64) as f32;
        // No cancellation in f64 for an f32 input; PyTorch's NaN at -inf.
        let gelu = |x: f32| {
            let x = x as f64;
            if x == f64::NEG_INFINITY {
                return f32::NAN;
            }
            (0.5 * x * libm::erfc(-x * core::f64::consts::FRAC_1_SQRT_2)) as f32
        };
        let key = |v: f32| {
            let i = v.to_bits() as i32;
            (if i < 0 { i32::MIN - i } else { i }) as i64
        };
        for (op, reference) in [(VecOp::Erfc, &erfc as &dyn Fn(f32) -> f32), (VecOp::Gelu, &gelu)] {
            for (lanes, got) in tail32::each_lanes(op, &xs, true) {
                for (&x, &g) in xs.iter().zip(&got) {
                    let want = reference(x);
                    let same_zero = g == 0.0 && want == 0.0 && g.is_sign_negative() == want.is_sign_negative();
                    let ok = (g.is_nan() && want.is_nan()) || same_zero || (key(g) - key(want)).unsigned_abs() <= 2;
                    assert!(ok, "{lanes} {op:?}({x:e}) = {g:e}, reference {want:e}");
                }
            }
        }
    }

    /// Every `f32` of `[-15, 6]` (`gelu`) and `[-4, 10.2]` (`erfc`), through each kind of lanes
    /// (the fused plain lane only where the build has FMA): the worst distance from the `f64`
    /// references, which the module's documentation quotes (2 ulp for each, 8 minutes).
    /// Minutes in a release build: `cargo test --release -p shaped-core --lib f32_tails_every -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn f32_tails_every() {
        let key = |v: f32| {
            let i = v.to_bits() as i32;
            (if i < 0 { i32::MIN - i } else { i }) as i64
        };
        let gelu = |x: f32| {
            let x = x as f64;
            (0.5 * x * libm::erfc(-x * core::f64::consts::FRAC_1_SQRT_2)) as f32
        };
        let erfc = |x: f32| libm::erfc(x as f64) as f32;
        for (op, lo, hi, reference) in
            [(VecOp::Gelu, -15.0f32, 6.0f32, &gelu as &dyn Fn(f32) -> f32), (VecOp::Erfc, -4.0, 10.2, &erfc)]
        {
            let mut worst: Vec<(&str, i64, f32)> = Vec::new();
            let mut chunk = Vec::with_capacity(1 << 20);
            let flush = |chunk: &mut Vec<f32>, worst: &mut Vec<(&'static str, i64, f32)>| {
                let want: Vec<i64> = chunk.iter().map(|&x| key(reference(x))).collect();
                // Without hardware FMA the fused plain lane calls a software `fma`: too slow here.
                for (lanes, got) in tail32::each_lanes(op, chunk, cfg!(target_feature = "fma")) {
                    let w = match worst.iter_mut().find(|w| w.0 == lanes) {
                        Some(w) => w,
                        None => {
                            worst.push((lanes, 0, 0.0));
                            worst.last_mut().unwrap()
                        }
                    };
                    for ((&x, &g), &k) in chunk.iter().zip(&got).zip(&want) {
                        let d = (key(g) - k).abs();
                        if d > w.1 {
                            *w = (lanes, d, x);
                        }
                    }
                }
                chunk.clear();
            };
            // Every bit pattern from +-0 out to the range's ends.
            for (sign, end) in [(0u32, hi.to_bits()), (1 << 31, (-lo).to_bits())] {
                for bits in 0..=end {
                    chunk.push(f32::from_bits(bits | sign));
                    if chunk.len() == 1 << 20 {
                        flush(&mut chunk, &mut worst);
                    }
                }
            }
            flush(&mut chunk, &mut worst);
            std::eprintln!("{op:?}: worst (lanes, ulps, at x): {worst:?}");
            assert!(worst.iter().all(|w| w.1 <= 2), "{op:?}: {worst:?}");
        }
    }

    #[test]
    fn f32_variants() {
        let xs: Vec<f32> = inputs().iter().map(|&x| x as f32).collect();
        for (variant, apply) in
            [("plain", f64k::via_f64_with::<false> as fn(VecOp, &mut [f32])), ("fused", f64k::via_f64_with::<true>)]
        {
            let erf: fn(f32) -> f32 = |x| libm::erf(x as f64) as f32;
            let gelu_tanh: fn(f32) -> f32 = |x| {
                let x = x as f64;
                let u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
                (x / (1.0 + (-2.0 * u).exp())) as f32
            };
            for (op, scalar, bound) in [
                (VecOp::Ln, f32::ln as fn(f32) -> f32, 1),
                (VecOp::Sin, f32::sin, 1),
                (VecOp::Cos, f32::cos, 1),
                (VecOp::Erf, erf, 1),
                (VecOp::GeluTanh, gelu_tanh, 1),
            ] {
                let mut got = xs.clone();
                apply(op, &mut got);
                for (&x, &g) in xs.iter().zip(&got) {
                    let want = scalar(x);
                    let key = |v: f32| {
                        let i = v.to_bits() as i32;
                        (if i < 0 { i32::MIN - i } else { i }) as i64
                    };
                    let ok = (g.is_nan() && want.is_nan()) || (key(g) - key(want)).unsigned_abs() <= bound;
                    assert!(ok, "{variant} {op:?}({x:e}) = {g:e}, scalar {want:e}");
                }
            }
        }
    }
}
