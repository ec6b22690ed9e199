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

/// `dst` as initialised values (`f32`, or `f64` for `erf64`).
///
/// # Safety
/// Every element of `dst` must have been written.
pub(super) unsafe fn assume_written<T>(dst: &mut [MaybeUninit<T>]) -> &mut [T] {
    // SAFETY: `MaybeUninit<T>` has `T`'s layout, and the caller vouches that every element
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
pub(super) fn each_lanes(op: VecOp, xs: &[f32], fused: bool) -> alloc::vec::Vec<(&'static str, alloc::vec::Vec<f32>)> {
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
