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
