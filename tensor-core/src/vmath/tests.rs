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

/// The writing path of every `f64` op (`pieces64::map`, which a new tensor takes) against the
/// in-place one (`apply_f64`), bit for bit, over lengths that end inside a block and a vector.
#[test]
fn f64_map_is_apply() {
    let xs = inputs();
    for (op, _, _) in OPS {
        for n in [0, 1, 7, 255, 257, xs.len()] {
            let mut want = xs[..n].to_vec();
            super::apply_f64(op, &mut want);
            let mut dst = alloc::vec![core::mem::MaybeUninit::new(0f64); n];
            let got = super::pieces64::map(op, &xs[..n], &mut dst);
            for ((&x, &g), &w) in xs.iter().zip(got.iter()).zip(&want) {
                assert_eq!(g.to_bits(), w.to_bits(), "{op:?}({x:e}): map {g:e}, in place {w:e}");
            }
        }
    }
}

/// `f32` `erfc` and `gelu` (module `tail32`) through each kind of lanes this CPU has, against
/// `f64` references rounded once: within 2 ulp (the measured worst over every `f32` of their
/// ranges), NaN for NaN.
#[test]
fn f32_tails() {
    let mut xs: Vec<f32> = inputs().iter().map(|&x| x as f32).collect();
    // Each piece's ends and its neighbours, the underflow thresholds, subnormals.
    for b in
        [0.25f32, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0, 11.0, 13.0, 10.0, 10.1, 14.4, 14.5, 15.0]
    {
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
