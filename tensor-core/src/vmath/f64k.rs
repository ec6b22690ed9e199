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
    const S: [f64; 4] =
        [-0.166666666416265235595, 0.0083333293858894631756, -0.000198393348360966317347, 0.0000027183114939898219064];
    const C: [f64; 4] =
        [-0.499999997251031003120, 0.0416666233237390631894, -0.00138867637746099294692, 0.0000243904487962774090654];
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
    const S: [f32; 7] = [0.12837917, -0.3761263, 0.11283624, -0.026855579, 0.005191889, -0.00080426974, 7.962679e-5];
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

/// `op` of `src` written to every element of `dst` (the same length), a stack block at a time:
/// [`run`], the in-place path's kernels (the same results), without that path's copy of the
/// input into the new buffer first (f64 `erf` of `[1e6]` on an AVX2 machine, one thread:
/// 5.59-5.71 -> 5.02-5.22 ms).
#[inline(always)]
fn map_with<const F: bool>(op: VecOp, src: &[f64], dst: &mut [MaybeUninit<f64>]) {
    assert_eq!(src.len(), dst.len());
    let mut out = [0f64; BLOCK];
    for (s, d) in src.chunks(BLOCK).zip(dst.chunks_mut(BLOCK)) {
        let out = &mut out[..s.len()];
        run::<F>(op, s, out);
        for (d, &r) in d.iter_mut().zip(&*out) {
            d.write(r);
        }
    }
}

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

/// `pub(super) fn $name(args)`: `$with::<FMA>(args)` compiled for AVX-512F, for AVX2+FMA and
/// for the target's baseline, the widest the CPU has chosen at run time.
macro_rules! dispatch {
    ($name:ident($($a:ident: $t:ty),*) => $with:ident) => {
        pub(super) fn $name($($a: $t),*) {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512dq,fma")]
                fn avx512($($a: $t),*) {
                    $with::<true>($($a),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2($($a: $t),*) {
                    $with::<true>($($a),*)
                }
                if std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512dq")
                    && std::is_x86_feature_detected!("fma")
                {
                    // SAFETY: `avx512` needs AVX-512F, AVX-512DQ and FMA, detected just above.
                    return unsafe { avx512($($a),*) };
                }
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    // SAFETY: `avx2` needs AVX2 and FMA, detected just above.
                    return unsafe { avx2($($a),*) };
                }
            }
            $with::<{ cfg!(target_feature = "fma") }>($($a),*)
        }
    };
}
dispatch!(apply(op: VecOp, xs: &mut [f64]) => apply_with);
dispatch!(via_f64(op: VecOp, xs: &mut [f32]) => via_f64_with);
dispatch!(map(op: VecOp, src: &[f64], dst: &mut [MaybeUninit<f64>]) => map_with);
dispatch!(erf_write(src: &[f32], dst: &mut [MaybeUninit<f32>]) => erf_map_with);

/// [`erf_map_with`] through the widest instruction set the CPU has, returned initialised.
pub(super) fn erf_map<'a>(src: &[f32], dst: &'a mut [MaybeUninit<f32>]) -> &'a mut [f32] {
    erf_write(src, dst);
    // SAFETY: `erf_map_with` wrote every element of `dst` (it asserts `src` is as long).
    unsafe { super::tail32::assume_written(dst) }
}
