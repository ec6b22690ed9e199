//! `f64` `erf`, `erfc` and `gelu` in explicit lanes: [`special`]'s piecewise polynomials with
//! each lane's coefficients picked from a 16-entry table without a gather: on AVX-512 by one
//! two-register permute (`vpermt2pd`) per coefficient, on AVX2 (module `avx2`) by reading each
//! lane's row whole and transposing four rows. The operations are those of `erf_k::<true>`,
//! `erfc_k::<true>` and `gelu_k::<true>`, one for one, so the results are bitwise the scalar
//! functions' with fused multiply-adds (the unit test checks both kinds of lanes), and the last
//! `n % 8` (`n % 4`) elements take those functions.
//!
//! Why: with the tables read by the loop the compiler vectorises (a gather per coefficient),
//! `erf` of `[360, 32]` took 35.3 µs against PyTorch's 13.5 µs on an AVX-512 machine (fdlibm's
//! rational functions before: 45 µs). On an AVX2 machine (2-core AMD EPYC, Zen 3, 2026-12-03,
//! `cargo bench --bench workloads -- gelu_f64`, one thread), gathers against these AVX2 lanes:
//! `erf` `[360, 32]` 50.2 -> 39.3 µs, `erfc` 78.4 -> 66.2 µs, `gelu` 77.3 -> 64.7 µs; `[1e6]`
//! 4.84 -> 3.54 ms, 7.34 -> 5.85 ms, 7.27 -> 5.75 ms (PyTorch 2.15 in the same session: 44.6,
//! 92.3, 81.2 µs; 3.79, 7.92, 6.98 ms). Two vectors per iteration spilled registers and were
//! 2-10% slower; 256-bit row loads transposed by unpacks and `vperm2f128` were rewritten by
//! LLVM into broadcasts and blends (`erf` `[360, 32]` 69 µs), so the halves are loaded as 128
//! bits and joined by `vinsertf128`.
use super::special::{self, SHIFT};
use super::tables64::{ERF64, ERFC_N, ERFC_N_CENTRES, GELU_H, GELU_H_CENTRES};
use super::VecOp;
use core::mem::MaybeUninit;

/// `table` by coefficient: `by_degree(t)[j][k]` is coefficient `j` of piece `k`, each row the
/// 16-entry table of one permute.
const fn by_degree<const W: usize>(table: &[[f64; W]; 16]) -> [[f64; 16]; W] {
    let mut t = [[0.0; 16]; W];
    let mut k = 0;
    while k < 16 {
        let mut j = 0;
        while j < W {
            t[j][k] = table[k][j];
            j += 1;
        }
        k += 1;
    }
    t
}
static ERF: [[f64; 16]; 15] = by_degree(&ERF64);
static ERFC: [[f64; 16]; 16] = by_degree(&ERFC_N);
static GELU: [[f64; 16]; 16] = by_degree(&GELU_H);

/// `op` (`Erf`, `Erfc` or `Gelu`) of one element: the scalar functions with fused multiply-adds,
/// the lanes' operations (NaN kept).
#[inline(always)]
fn scalar(op: VecOp, x: f64) -> f64 {
    match op {
        _ if x.is_nan() => x,
        VecOp::Erf => special::erf_k::<true>(x),
        VecOp::Erfc => special::erfc_k::<true>(x),
        _ => special::gelu_k::<true>(x),
    }
}

/// Whether [`in_place`] and [`map`] have lanes (AVX-512 or AVX2) for `op` on this CPU.
pub(super) fn covers(op: VecOp) -> bool {
    #[cfg(target_arch = "x86_64")]
    return matches!(op, VecOp::Erf | VecOp::Erfc | VecOp::Gelu) && (x86::detected() || avx2::detected());
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::super::special::{INV_FACT, LN2_HI, LN2_LO, UNSCALE};
    use super::{scalar, MaybeUninit, VecOp, ERF, ERFC, ERFC_N_CENTRES, GELU, GELU_H_CENTRES, SHIFT};
    use core::arch::x86_64::*;

    /// A 16-entry table as two registers of 8.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn pair(v: &[f64; 16]) -> [__m512d; 2] {
        let half = |h: &[f64]| _mm512_set_pd(h[7], h[6], h[5], h[4], h[3], h[2], h[1], h[0]);
        [half(&v[..8]), half(&v[8..])]
    }

    /// Entry `i` (its low four bits) of the table `t` in each lane.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn pick(t: [__m512d; 2], i: __m512i) -> __m512d {
        _mm512_permutex2var_pd(t[0], i, t[1])
    }

    /// `c[0] + (c[1] + z (c[2] + z (...)))`: a row of coefficients by degree, the constant term
    /// in two parts, each picked by `i`.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn poly<const W: usize>(c: &[[__m512d; 2]; W], i: __m512i, z: __m512d) -> __m512d {
        let mut r = pick(c[W - 1], i);
        for cj in c[2..W - 1].iter().rev() {
            r = _mm512_fmadd_pd(r, z, pick(*cj, i));
        }
        _mm512_add_pd(pick(c[0], i), _mm512_fmadd_pd(r, z, pick(c[1], i)))
    }

    /// `erf` of 8 lanes: `erf_k::<true>` step for step.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn erf(x: __m512d, c: &[[__m512d; 2]; 15]) -> __m512d {
        // `vminpd` gives its second operand where the first is NaN, as `erf_k`'s select.
        let a = _mm512_min_pd(_mm512_abs_pd(x), _mm512_set1_pd(5.99));
        let kd = _mm512_fmadd_pd(a, _mm512_set1_pd(2.5), _mm512_set1_pd(SHIFT));
        let k = _mm512_sub_pd(kd, _mm512_set1_pd(SHIFT));
        let z = _mm512_sub_pd(a, _mm512_mul_pd(k, _mm512_set1_pd(0.4)));
        // The piece is in the low four bits of `kd`.
        let y = poly(c, _mm512_castpd_si512(kd), z);
        // The sign of `x` (`y` is never negative).
        let sign = _mm512_and_si512(_mm512_castpd_si512(x), _mm512_set1_epi64(i64::MIN));
        _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(y), sign))
    }

    /// `scaled_tail::<true>(t, c, scale, ..)` of 8 lanes: `e^(-c t^2) P(t)` times 2^128.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn scaled_tail(t: __m512d, c: f64, scale: f64, p: &[[__m512d; 2]; 16], centres: [__m512d; 2]) -> __m512d {
        let u = _mm512_fmadd_pd(t, _mm512_set1_pd(scale), _mm512_set1_pd(1.0));
        let i = _mm512_srli_epi64::<50>(_mm512_castpd_si512(u));
        let z = _mm512_sub_pd(t, pick(centres, i));
        let p = poly(p, i, z);
        // `exp_scaled(-c hi, -c lo)`, `hi + lo = t^2`.
        let hi = _mm512_mul_pd(t, t);
        let lo = _mm512_fmsub_pd(t, t, hi);
        let (a, b) = (_mm512_mul_pd(_mm512_set1_pd(-c), hi), _mm512_mul_pd(_mm512_set1_pd(-c), lo));
        let kd = _mm512_fmadd_pd(_mm512_add_pd(a, b), _mm512_set1_pd(core::f64::consts::LOG2_E), _mm512_set1_pd(SHIFT));
        let k = _mm512_sub_pd(kd, _mm512_set1_pd(SHIFT));
        let r = _mm512_fmadd_pd(k, _mm512_set1_pd(-LN2_HI), a);
        let r = _mm512_add_pd(_mm512_fmadd_pd(k, _mm512_set1_pd(-LN2_LO), r), b);
        let ki = _mm512_sub_epi64(_mm512_castpd_si512(kd), _mm512_set1_epi64(SHIFT.to_bits() as i64));
        let s = _mm512_castsi512_pd(_mm512_slli_epi64::<52>(_mm512_add_epi64(ki, _mm512_set1_epi64(1023 + 128))));
        let mut q = _mm512_set1_pd(INV_FACT[11]);
        for &f in INV_FACT[..11].iter().rev() {
            q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(f));
        }
        let q = _mm512_fmadd_pd(q, _mm512_mul_pd(r, r), r);
        _mm512_mul_pd(s, _mm512_fmadd_pd(p, q, p))
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    fn rows<const W: usize>(t: &[[f64; 16]; W]) -> [[__m512d; 2]; W] {
        let mut r = [[_mm512_setzero_pd(); 2]; W];
        for (rj, tj) in r.iter_mut().zip(t) {
            *rj = pair(tj);
        }
        r
    }

    /// `erfc_k::<true>` of 8 lanes.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn erfc(x: __m512d, c: &[[__m512d; 2]; 16], centres: [__m512d; 2]) -> __m512d {
        let a = _mm512_min_pd(_mm512_abs_pd(x), _mm512_set1_pd(27.5));
        let sp = scaled_tail(a, 1.0, 0.5, c, centres);
        let neg = _mm512_cmp_pd_mask::<_CMP_LT_OQ>(x, _mm512_setzero_pd());
        let u = _mm512_mask_blend_pd(neg, _mm512_set1_pd(UNSCALE), _mm512_set1_pd(-UNSCALE));
        let base = _mm512_mask_blend_pd(neg, _mm512_setzero_pd(), _mm512_set1_pd(2.0));
        _mm512_fmadd_pd(sp, u, base)
    }

    /// `gelu_k::<true>` of 8 lanes.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn gelu(x: __m512d, c: &[[__m512d; 2]; 16], centres: [__m512d; 2]) -> __m512d {
        let t = _mm512_min_pd(_mm512_abs_pd(x), _mm512_set1_pd(39.0));
        let sp = scaled_tail(t, 0.5, 0.375, c, centres);
        let nonneg = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(x, _mm512_setzero_pd());
        let base = _mm512_mask_blend_pd(nonneg, _mm512_mul_pd(x, _mm512_setzero_pd()), x);
        _mm512_fmadd_pd(sp, _mm512_set1_pd(-UNSCALE), base)
    }

    /// `y` where `x` is a number, `x` (NaN) elsewhere.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn keep_nan(x: __m512d, y: __m512d) -> __m512d {
        _mm512_mask_blend_pd(_mm512_cmp_pd_mask::<_CMP_UNORD_Q>(x, x), y, x)
    }

    /// `$body` with `$f` bound to the 8-lane function of `op` (`Erf`, `Erfc`, anything else
    /// `Gelu`), its tables loaded into registers first.
    macro_rules! lanes_of {
        ($op:expr, $f:ident => $body:expr) => {
            match $op {
                VecOp::Erf => {
                    let c = rows(&ERF);
                    let $f = |x| erf(x, &c);
                    $body
                }
                VecOp::Erfc => {
                    let (c, m) = (rows(&ERFC), pair(&ERFC_N_CENTRES));
                    let $f = |x| erfc(x, &c, m);
                    $body
                }
                _ => {
                    let (c, m) = (rows(&GELU), pair(&GELU_H_CENTRES));
                    let $f = |x| gelu(x, &c, m);
                    $body
                }
            }
        };
    }

    /// `op` of every element of `xs`, in place.
    #[target_feature(enable = "avx512f,fma")]
    pub(super) fn in_place(op: VecOp, xs: &mut [f64]) {
        lanes_of!(op, f => in_place_with(op, xs, f))
    }

    /// `f` (NaN kept) of the whole vectors of `xs` in place, [`scalar`] of the rest.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn in_place_with(op: VecOp, xs: &mut [f64], f: impl Fn(__m512d) -> __m512d) {
        let mut v = xs.chunks_exact_mut(8);
        for d in &mut v {
            // SAFETY: `d` holds 8 `f64` (`chunks_exact_mut(8)`), read and then written; the CPU
            // has AVX-512F: this function, compiled with it, is reached only after `detected()`.
            unsafe {
                let x = _mm512_loadu_pd(d.as_ptr());
                _mm512_storeu_pd(d.as_mut_ptr(), keep_nan(x, f(x)));
            }
        }
        v.into_remainder().iter_mut().for_each(|x| *x = scalar(op, *x));
    }

    /// `op` of `src` written to every element of `dst` (the same length).
    #[target_feature(enable = "avx512f,fma")]
    pub(super) fn map(op: VecOp, src: &[f64], dst: &mut [MaybeUninit<f64>]) {
        lanes_of!(op, f => map_with(op, src, dst, f))
    }

    /// `f` (NaN kept) of the whole vectors of `src` into `dst` (the same length), [`scalar`] of
    /// the rest.
    #[target_feature(enable = "avx512f,fma")]
    #[inline]
    fn map_with(op: VecOp, src: &[f64], dst: &mut [MaybeUninit<f64>], f: impl Fn(__m512d) -> __m512d) {
        assert_eq!(src.len(), dst.len());
        let (mut s8, mut d8) = (src.chunks_exact(8), dst.chunks_exact_mut(8));
        for (s, d) in (&mut s8).zip(&mut d8) {
            // SAFETY: `s` and `d` hold 8 `f64` each (`chunks_exact(8)`; `MaybeUninit<f64>` has
            // `f64`'s layout, and writing it needs no initialised value); AVX-512F as in
            // `in_place_with`.
            unsafe {
                let x = _mm512_loadu_pd(s.as_ptr());
                _mm512_storeu_pd(d.as_mut_ptr().cast(), keep_nan(x, f(x)));
            }
        }
        for (d, &x) in d8.into_remainder().iter_mut().zip(s8.remainder()) {
            d.write(scalar(op, x));
        }
    }

    /// Whether this CPU runs [`in_place`] and [`map`].
    pub(super) fn detected() -> bool {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("fma")
    }
}

/// The same lanes in AVX2 registers of 4: each lane's row of coefficients read whole (its piece
/// from the index, rows of 16 `f64`) and four rows turned into coefficients by degree with a 4x4
/// transpose (two `f64` shuffles per coefficient) instead of a gather per coefficient; the
/// operations of `erf_k::<true>`, `erfc_k::<true>` and `gelu_k::<true>` one for one, as the
/// AVX-512 lanes'.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::special::{INV_FACT, LN2_HI, LN2_LO, UNSCALE};
    use super::super::tables64::{ERF64, ERFC_N, ERFC_N_CENTRES, GELU_H, GELU_H_CENTRES};
    use super::{scalar, MaybeUninit, VecOp, SHIFT};
    use core::arch::x86_64::*;

    /// [`ERF64`]'s rows padded to 16 (the last coefficient never read).
    static ERF_ROWS: [[f64; 16]; 16] = {
        let mut t = [[0.0; 16]; 16];
        let mut k = 0;
        while k < 16 {
            let mut j = 0;
            while j < 15 {
                t[k][j] = ERF64[k][j];
                j += 1;
            }
            k += 1;
        }
        t
    };

    /// The low four bits of each lane of `i`, as indices.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn indices(i: __m256i) -> [usize; 4] {
        let (lo, hi) = (_mm256_castsi256_si128(i), _mm256_extracti128_si256::<1>(i));
        [_mm_cvtsi128_si64(lo), _mm_extract_epi64::<1>(lo), _mm_cvtsi128_si64(hi), _mm_extract_epi64::<1>(hi)]
            .map(|k| k as usize & 15)
    }

    /// Coefficients `j` and `j + 1` of the four rows, by coefficient: element `l` of the first
    /// vector is `rows[l][j]`. Two halves of 128 bits per pair of rows and one unpack each.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn columns(rows: [&[f64; 16]; 4], j: usize) -> [__m256d; 2] {
        let half = |r: &[f64; 16]| _mm_set_pd(r[j + 1], r[j]);
        let ac = _mm256_set_m128d(half(rows[2]), half(rows[0]));
        let bd = _mm256_set_m128d(half(rows[3]), half(rows[1]));
        [_mm256_unpacklo_pd(ac, bd), _mm256_unpackhi_pd(ac, bd)]
    }

    /// The functions' numbers, as const parameters: each kernel below is instantiated once per
    /// function, so that every instance has one caller and is inlined (a `#[target_feature]`
    /// function cannot be `#[inline(always)]`).
    const ERF: u8 = 0;
    const ERFC: u8 = 1;
    const GELU: u8 = 2;

    /// `c[0] + (c[1] + z (c[2] + z (... c[W - 1])))`, each lane's coefficients its row of the
    /// table of function `F` (`W` 15 for `erf`, 16 for the tails).
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn poly<const F: u8>(i: [usize; 4], z: __m256d) -> __m256d {
        let (t, w) = match F {
            ERF => (&ERF_ROWS, 15),
            ERFC => (&ERFC_N, 16),
            _ => (&GELU_H, 16),
        };
        let rows = i.map(|k| &t[k]);
        let mut c = [_mm256_setzero_pd(); 16];
        for j in (0..16).step_by(2) {
            c[j..j + 2].copy_from_slice(&columns(rows, j));
        }
        let mut r = c[w - 1];
        for &cj in c[2..w - 1].iter().rev() {
            r = _mm256_fmadd_pd(r, z, cj);
        }
        _mm256_add_pd(c[0], _mm256_fmadd_pd(r, z, c[1]))
    }

    /// `|x|`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn abs(x: __m256d) -> __m256d {
        _mm256_andnot_pd(_mm256_set1_pd(-0.0), x)
    }

    /// `erf_k::<true>` of 4 lanes.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn erf(x: __m256d) -> __m256d {
        // `vminpd` gives its second operand where the first is NaN, as `erf_k`'s select.
        let a = _mm256_min_pd(abs(x), _mm256_set1_pd(5.99));
        let kd = _mm256_fmadd_pd(a, _mm256_set1_pd(2.5), _mm256_set1_pd(SHIFT));
        let k = _mm256_sub_pd(kd, _mm256_set1_pd(SHIFT));
        let z = _mm256_sub_pd(a, _mm256_mul_pd(k, _mm256_set1_pd(0.4)));
        let y = poly::<ERF>(indices(_mm256_castpd_si256(kd)), z);
        _mm256_or_pd(y, _mm256_and_pd(x, _mm256_set1_pd(-0.0)))
    }

    /// `scaled_tail::<true>(t, c, scale, ..)` of 4 lanes: `e^(-c t^2) P(t)` times 2^128, with
    /// the `c`, `scale`, polynomial and centres of function `F` (`ERFC` or `GELU`).
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn scaled_tail<const F: u8>(t: __m256d) -> __m256d {
        let (c, scale, centres) = if F == GELU { (0.5, 0.375, &GELU_H_CENTRES) } else { (1.0, 0.5, &ERFC_N_CENTRES) };
        let u = _mm256_fmadd_pd(t, _mm256_set1_pd(scale), _mm256_set1_pd(1.0));
        let i = indices(_mm256_srli_epi64::<50>(_mm256_castpd_si256(u)));
        let z = _mm256_sub_pd(t, _mm256_set_pd(centres[i[3]], centres[i[2]], centres[i[1]], centres[i[0]]));
        let p = poly::<F>(i, z);
        let hi = _mm256_mul_pd(t, t);
        let lo = _mm256_fmsub_pd(t, t, hi);
        let (a, b) = (_mm256_mul_pd(_mm256_set1_pd(-c), hi), _mm256_mul_pd(_mm256_set1_pd(-c), lo));
        let kd = _mm256_fmadd_pd(_mm256_add_pd(a, b), _mm256_set1_pd(core::f64::consts::LOG2_E), _mm256_set1_pd(SHIFT));
        let k = _mm256_sub_pd(kd, _mm256_set1_pd(SHIFT));
        let r = _mm256_fmadd_pd(k, _mm256_set1_pd(-LN2_HI), a);
        let r = _mm256_add_pd(_mm256_fmadd_pd(k, _mm256_set1_pd(-LN2_LO), r), b);
        let ki = _mm256_sub_epi64(_mm256_castpd_si256(kd), _mm256_set1_epi64x(SHIFT.to_bits() as i64));
        let s = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_add_epi64(ki, _mm256_set1_epi64x(1023 + 128))));
        let mut q = _mm256_set1_pd(INV_FACT[11]);
        for &f in INV_FACT[..11].iter().rev() {
            q = _mm256_fmadd_pd(q, r, _mm256_set1_pd(f));
        }
        let q = _mm256_fmadd_pd(q, _mm256_mul_pd(r, r), r);
        _mm256_mul_pd(s, _mm256_fmadd_pd(p, q, p))
    }

    /// `erfc_k::<true>` of 4 lanes.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn erfc(x: __m256d) -> __m256d {
        let a = _mm256_min_pd(abs(x), _mm256_set1_pd(27.5));
        let sp = scaled_tail::<ERFC>(a);
        let neg = _mm256_cmp_pd::<_CMP_LT_OQ>(x, _mm256_setzero_pd());
        let u = _mm256_blendv_pd(_mm256_set1_pd(UNSCALE), _mm256_set1_pd(-UNSCALE), neg);
        let base = _mm256_and_pd(neg, _mm256_set1_pd(2.0));
        _mm256_fmadd_pd(sp, u, base)
    }

    /// `gelu_k::<true>` of 4 lanes.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn gelu(x: __m256d) -> __m256d {
        let t = _mm256_min_pd(abs(x), _mm256_set1_pd(39.0));
        let sp = scaled_tail::<GELU>(t);
        let nonneg = _mm256_cmp_pd::<_CMP_GE_OQ>(x, _mm256_setzero_pd());
        let base = _mm256_blendv_pd(_mm256_mul_pd(x, _mm256_setzero_pd()), x, nonneg);
        _mm256_fmadd_pd(sp, _mm256_set1_pd(-UNSCALE), base)
    }

    /// `$body` with `$f` bound to `op`'s 4-lane function (`Erf`, `Erfc`, anything else `Gelu`),
    /// NaN kept: one loop per function, its kernel inlined.
    macro_rules! lanes_of {
        ($op:expr, $f:ident => $body:expr) => {{
            let keep_nan = |x, y| _mm256_blendv_pd(y, x, _mm256_cmp_pd::<_CMP_UNORD_Q>(x, x));
            match $op {
                VecOp::Erf => {
                    let $f = |x| keep_nan(x, erf(x));
                    $body
                }
                VecOp::Erfc => {
                    let $f = |x| keep_nan(x, erfc(x));
                    $body
                }
                _ => {
                    let $f = |x| keep_nan(x, gelu(x));
                    $body
                }
            }
        }};
    }

    /// `op` of every element of `xs`, in place: [`map`] of each block of 256 into a stack
    /// buffer, copied back (one loop per function, so that each kernel has one caller and is
    /// inlined).
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn in_place(op: VecOp, xs: &mut [f64]) {
        let mut out = [MaybeUninit::<f64>::uninit(); 256];
        for block in xs.chunks_mut(256) {
            let out = &mut out[..block.len()];
            map(op, block, out);
            // SAFETY: `map` wrote every element of `out` (it asserts the lengths equal and
            // writes the whole vectors, then the rest).
            block.copy_from_slice(unsafe { super::super::tail32::assume_written(out) });
        }
    }

    /// `op` of `src` written to every element of `dst` (the same length).
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn map(op: VecOp, src: &[f64], dst: &mut [MaybeUninit<f64>]) {
        lanes_of!(op, f => map_with(op, src, dst, f))
    }

    /// `f` of the whole vectors of `src` into `dst` (the same length), [`scalar`] of the rest.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    fn map_with(op: VecOp, src: &[f64], dst: &mut [MaybeUninit<f64>], f: impl Fn(__m256d) -> __m256d) {
        assert_eq!(src.len(), dst.len());
        let (mut s4, mut d4) = (src.chunks_exact(4), dst.chunks_exact_mut(4));
        for (s, d) in (&mut s4).zip(&mut d4) {
            // SAFETY: `s` and `d` hold 4 `f64` each (`chunks_exact(4)`; `MaybeUninit<f64>` has
            // `f64`'s layout, and writing it needs no initialised value); the CPU has AVX2 and
            // FMA: this function, compiled with them, is reached only from `map`, itself called
            // only after `detected()`.
            unsafe { _mm256_storeu_pd(d.as_mut_ptr().cast(), f(_mm256_loadu_pd(s.as_ptr()))) };
        }
        for (d, &x) in d4.into_remainder().iter_mut().zip(s4.remainder()) {
            d.write(scalar(op, x));
        }
    }

    /// Whether this CPU runs [`in_place`] and [`map`].
    pub(super) fn detected() -> bool {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
}

/// `op` (`Erf`, `Erfc` or `Gelu`) of every element of `xs` in place: the AVX-512 or AVX2 lanes where
/// the CPU has them ([`covers`]), else the scalar functions with fused multiply-adds (the same
/// results).
pub(super) fn in_place(op: VecOp, xs: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    if covers(op) {
        if x86::detected() {
            // SAFETY: `in_place` needs AVX-512F and FMA, which `detected` found just above.
            return unsafe { x86::in_place(op, xs) };
        }
        if avx2::detected() {
            // SAFETY: `avx2::in_place` needs AVX2 and FMA, which `avx2::detected` found just
            // above.
            return unsafe { avx2::in_place(op, xs) };
        }
    }
    xs.iter_mut().for_each(|x| *x = scalar(op, *x));
}

/// `op` (any [`VecOp`]) of `src` written to `dst` (the same length), returned initialised: the
/// AVX-512 or AVX2 lanes of `erf`, `erfc` and `gelu` where [`covers`] says so, else the kernels of
/// [`f64k`](super::f64k) (the results of the in-place paths, bit for bit).
pub(super) fn map<'a>(op: VecOp, src: &[f64], dst: &'a mut [MaybeUninit<f64>]) -> &'a mut [f64] {
    assert_eq!(src.len(), dst.len());
    'written: {
        #[cfg(target_arch = "x86_64")]
        if covers(op) {
            if x86::detected() {
                // SAFETY: `map` needs AVX-512F and FMA, which `detected` found just above.
                unsafe { x86::map(op, src, dst) };
                break 'written;
            }
            if avx2::detected() {
                // SAFETY: `avx2::map` needs AVX2 and FMA, which `avx2::detected` found just
                // above.
                unsafe { avx2::map(op, src, dst) };
                break 'written;
            }
        }
        super::f64k::map(op, src, dst);
    }
    // SAFETY: every path wrote every element of `dst` (`x86::map` and `avx2::map` assert the
    // lengths equal and write whole vectors and then the rest; `f64k::map` asserts them equal
    // and writes each block of `dst` beside its block of `src`).
    unsafe { super::tail32::assume_written(dst) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The AVX-512 and AVX2 lanes against the scalar functions with FMA, bit for bit, over each
    /// piece's ends, the limits and values of every magnitude (each kind of lanes the CPU has).
    #[test]
    fn lanes_are_the_scalar_functions() {
        let mut xs: Vec<f64> = alloc::vec![0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 5e-324, 1e300];
        let mut ends: Vec<f64> = (0..17).map(|k| k as f64 * 0.4 - 0.2).collect();
        // Where `bits(s x + 1) >> 50` changes: `x = (u - 1) / s` at every quarter of u's binades.
        for s in [0.5, 0.375] {
            ends.extend((4..64).map(|q| (q as f64 / 4.0 - 1.0) / s));
        }
        ends.extend([5.99, 6.0, 27.5, 39.0, 26.5, 38.5]);
        for c in ends {
            for d in -3i64..=3 {
                let v = f64::from_bits((c.abs().to_bits() as i64 + d) as u64);
                xs.extend([v, -v]);
            }
        }
        xs.extend((0..40_000).map(|k| (k as f64 - 20_000.0) * 0.002_1));
        xs.extend((0..3_000).map(|k| (k as f64 - 1_500.0) * 1.7e-3 * (1.0 + (k % 7) as f64)));
        for op in [VecOp::Erf, VecOp::Erfc, VecOp::Gelu] {
            let want: Vec<u64> = xs.iter().map(|&x| scalar(op, x).to_bits()).collect();
            let mut got = xs.clone();
            in_place(op, &mut got);
            let mut out = alloc::vec![MaybeUninit::new(0.0); xs.len()];
            let mapped = map(op, &xs, &mut out).to_vec();
            let mut paths = alloc::vec![("in place", got), ("written", mapped)];
            // The AVX2 lanes too where the CPU has them (`in_place` and `map` take AVX-512
            // first).
            #[cfg(target_arch = "x86_64")]
            if avx2::detected() {
                let mut got = xs.clone();
                let mut out = alloc::vec![MaybeUninit::new(0.0); xs.len()];
                // SAFETY: the AVX2 lanes need AVX2 and FMA, which `avx2::detected` found just
                // above; every element of `out` is initialised (filled with 0 above, then
                // written by `avx2::map`).
                let mapped: Vec<f64> = unsafe {
                    avx2::in_place(op, &mut got);
                    avx2::map(op, &xs, &mut out);
                    out.iter().map(|v| v.assume_init()).collect()
                };
                paths.extend([("AVX2 in place", got), ("AVX2 written", mapped)]);
            }
            for (path, got) in paths {
                for (k, &x) in xs.iter().enumerate() {
                    assert_eq!(got[k].to_bits(), want[k], "{op:?}({x:e}) {path}: {:e}", got[k]);
                }
            }
        }
        // The scalar functions' limits: erf odd and ±1, erfc 0 and 2, gelu x and -0 (NaN at
        // -inf, as PyTorch's), the sign of zero kept.
        let f = |op, x| scalar(op, x);
        assert_eq!(f(VecOp::Erf, -0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!((f(VecOp::Erf, f64::INFINITY), f(VecOp::Erf, -1e300)), (1.0, -1.0));
        assert_eq!((f(VecOp::Erfc, 27.5), f(VecOp::Erfc, -27.5), f(VecOp::Erfc, 0.0)), (0.0, 2.0, 1.0));
        assert_eq!((f(VecOp::Gelu, 40.0), f(VecOp::Gelu, f64::INFINITY)), (40.0, f64::INFINITY));
        assert_eq!(f(VecOp::Gelu, -40.0).to_bits(), (-0.0f64).to_bits());
        assert!(f(VecOp::Gelu, f64::NEG_INFINITY).is_nan());
        assert!(xs.iter().all(|&x| x.is_nan() || f(VecOp::Erf, -x).to_bits() == (-f(VecOp::Erf, x)).to_bits()));
    }
}
