use super::tables64::{ERF64, ERFC_N, ERFC_N_CENTRES, GELU_H, GELU_H_CENTRES};

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
pub(super) const UNSCALE: f64 = 2.938735877055719e-39;

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

/// `erf x` on [`ERF64`]'s 16 pieces of width 0.4: `k = round(|x| / 0.4)`
/// (`|x|` clamped to 5.99, where `erf` is 1 in `f64`), `z = |x| - 0.4 k` (exact), a polynomial of
/// degree 13 in `z` per piece with its constant term as two `f64`, the sign put back. The first
/// piece is odd (small `x` keep their relative accuracy). The polynomials are within 0.39 ulp of
/// `erf`; the evaluation adds at most about 1 ulp. Every `x` but NaN (which becomes `±1`; the
/// callers fix it); `±0` keep their sign, `±inf` give `±1`.
#[inline(always)]
pub(super) fn erf_k<const F: bool>(x: f64) -> f64 {
    // `a < 5.99` rather than `min`: NaN takes the last piece, no branch.
    let a = x.abs();
    let a = if a < 5.99 { a } else { 5.99 };
    let kd = fma::<F>(a, 2.5, SHIFT);
    let k = kd - SHIFT;
    // `k * 0.4` is the fit's centre (the same product); `a` is within 0.2 of it, so the
    // difference is exact.
    let z = a - k * 0.4;
    let c = &ERF64[(kd.to_bits() & 15) as usize];
    let mut r = c[14];
    for &ck in c[2..14].iter().rev() {
        r = fma::<F>(r, z, ck);
    }
    (c[0] + fma::<F>(r, z, c[1])).copysign(x)
}

/// `e^(-c t^2) P(t)` times 2^128, `P` the piecewise polynomial `table` (with its `centres`),
/// for `t` in `[0, 15 / scale)` and `c t^2` within 790 (anything, no panic, else): the piece
/// from the low four bits of `bits(scale t + 1) >> 50`, `z = t - centre` (exact), the
/// polynomial of degree 14 with its constant term in two parts; `t^2` exact as a double-double
/// for the exponential.
#[inline(always)]
fn scaled_tail<const F: bool>(t: f64, c: f64, scale: f64, table: &[[f64; 16]; 16], centres: &[f64; 16]) -> f64 {
    let i = ((fma::<F>(t, scale, 1.0).to_bits() >> 50) & 15) as usize;
    let z = t - centres[i];
    let row = &table[i];
    let mut r = row[15];
    for &ck in row[2..15].iter().rev() {
        r = fma::<F>(r, z, ck);
    }
    let p = row[0] + fma::<F>(r, z, row[1]);
    let (hi, lo) = two_prod::<F>(t, t);
    let (s, q) = exp_scaled::<F>(-c * hi, -c * lo);
    s * fma::<F>(p, q, p)
}

/// `erfc x = e^(-a^2) N(a)` for `x >= 0`, `2 - e^(-a^2) N(a)` below (`a = |x|`), `N` on
/// [`ERFC_N`]'s pieces; a subnormal result rounded once. Every `x` but NaN (which becomes a
/// number; the callers fix it); `0` from 27.5 on (below half the smallest subnormal), `2` below
/// -27.5.
#[inline(always)]
pub(super) fn erfc_k<const F: bool>(x: f64) -> f64 {
    let a = x.abs();
    let a = if a < 27.5 { a } else { 27.5 };
    let sp = scaled_tail::<F>(a, 1.0, 0.5, &ERFC_N, &ERFC_N_CENTRES);
    if x < 0.0 {
        fma::<F>(sp, -UNSCALE, 2.0)
    } else {
        fma::<F>(sp, UNSCALE, 0.0)
    }
}

/// `gelu x = x - e^(-t^2/2) H(t)` for `x >= 0`, `-e^(-t^2/2) H(t)` below (`t = |x|`,
/// `H(t) = t Q(t) e^(t^2/2)`, `Q` the normal upper tail: `x Φ(x)` without cancellation), `H` on
/// [`GELU_H`]'s pieces; a subnormal result rounded once. Every `x`: NaN stays NaN, `-inf` gives
/// NaN (`-inf * 0`, as PyTorch's), `+inf` itself; `-0` below -39.
#[inline(always)]
pub(super) fn gelu_k<const F: bool>(x: f64) -> f64 {
    let t = x.abs();
    let t = if t < 39.0 { t } else { 39.0 };
    let sp = scaled_tail::<F>(t, 0.5, 0.375, &GELU_H, &GELU_H_CENTRES);
    let base = if x >= 0.0 { x } else { x * 0.0 };
    fma::<F>(sp, -UNSCALE, base)
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

/// `erf x` in `f64` (the pieces of [`erf_k`]), every `x`: the scalar path's.
pub(crate) fn erf(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else {
        erf_k::<false>(x)
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
