//! The vectorised element-wise functions (with the default `simd` feature: `f32` `exp`, `tanh`,
//! `sigmoid` and `silu` through rten-vecmath) against Rust's scalar functions: within 1 ulp for
//! `exp` and 4 ulp for the others, NaN for NaN, the sign of zero kept, over random bit patterns,
//! edge values (+-inf, +-0, subnormals, the overflow thresholds) and a sweep of the whole `f32`
//! range, on every path: a new tensor (block by block, and split across threads from 16384
//! elements), a strided view, an inline `STensor`, `DynShape`, and in place. Under Miri, and
//! without the feature, the same methods take the scalar path, and the bounds hold trivially.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;

/// The distance of `got` from `want` in units in the last place: 0 for NaN and NaN, `u64::MAX`
/// for NaN against a number or zeros of different signs.
fn ulps(got: f32, want: f32) -> u64 {
    if got.is_nan() || want.is_nan() {
        return if got.is_nan() && want.is_nan() { 0 } else { u64::MAX };
    }
    if got == 0.0 && want == 0.0 && got.is_sign_negative() != want.is_sign_negative() {
        return u64::MAX;
    }
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        (if i < 0 { i32::MIN - i } else { i }) as i64
    };
    (key(got) - key(want)).unsigned_abs()
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
fn silu(x: f32) -> f32 {
    x / (1.0 + (-x).exp())
}

const EDGES: [f32; 32] = [
    0.0,
    -0.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    f32::MIN_POSITIVE,
    -f32::MIN_POSITIVE,
    1e-45,
    -1e-45,
    1e-40,
    -1e-40,
    1e-8,
    -1e-8,
    0.5,
    -0.5,
    9.0,
    -9.0,
    15.0,
    -15.0,
    88.72283,
    88.72284,
    89.0,
    -87.33654,
    -103.97208,
    -104.0,
    -110.0,
    f32::MAX,
    f32::MIN,
    20.0,
    -20.0,
    1e10,
    -1e10,
];

/// Every function on every path for the values `xs`, against the scalar reference.
fn check(xs: &[f32]) -> Result<(), TestCaseError> {
    let n = xs.len();
    let x = Tensor::<f32, Shape![_]>::from_vec(&[n], xs.to_vec());
    // The same values at every other position of a longer buffer: a strided view.
    let padded: Vec<f32> = xs.iter().flat_map(|&v| [v, 7.0]).collect();
    let p = Tensor::<f32, Shape![_]>::from_vec(&[2 * n], padded);
    let d = x.clone().into_dyn();
    macro_rules! each {
        ($($name:ident, $name_:ident, $reference:expr, $bound:expr;)*) => {$(
            let what = stringify!($name);
            let new = x.$name().to_vec();
            for (&v, &g) in xs.iter().zip(&new) {
                let want = $reference(v);
                prop_assert!(ulps(g, want) <= $bound, "{}({:e}) = {:e}, scalar {:e}", what, v, g, want);
            }
            // The other paths give the very same bits.
            let strided = t!(p[..;2]).$name().to_vec();
            prop_assert!(strided.iter().zip(&new).all(|(a, b)| a.to_bits() == b.to_bits()), "{} strided", what);
            prop_assert!(d.$name().to_vec().iter().zip(&new).all(|(a, b)| a.to_bits() == b.to_bits()), "{} dyn", what);
            let mut inplace = x.clone();
            inplace.$name_();
            prop_assert!(inplace.to_vec().iter().zip(&new).all(|(a, b)| a.to_bits() == b.to_bits()), "{} in place", what);
            // In place on a strided view: the scalar function, so within the bound.
            let mut q = p.clone();
            t!(mut q[..;2]).$name_();
            for (k, &g) in q.to_vec().iter().step_by(2).enumerate() {
                prop_assert!(ulps(g, $reference(xs[k])) <= $bound, "{} in place strided", what);
            }
        )*};
    }
    each! {
        exp, exp_, f32::exp, 1;
        tanh, tanh_, f32::tanh, 4;
        sigmoid, sigmoid_, sigmoid, 4;
        silu, silu_, silu, 4;
    }
    Ok(())
}

#[test]
fn edge_values() {
    check(&EDGES).unwrap();
    // An inline tensor takes the same kernel.
    let s = stensor([0.5f32, -0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 88.8, -104.0, 1e-40]);
    let h = Tensor::from(s.to_array());
    for (a, b) in [(s.exp().to_vec(), h.exp().to_vec()), (s.tanh().to_vec(), h.tanh().to_vec())] {
        assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "{a:?} vs {b:?}");
    }
    // IEEE at the ends (as PyTorch and NumPy).
    let e = Tensor::from([f32::INFINITY, f32::NEG_INFINITY, 89.0, -104.0, 0.0]).exp().to_vec();
    assert_eq!(&e[..4], &[f32::INFINITY, 0.0, f32::INFINITY, 0.0]);
    assert_eq!(e[4], 1.0);
    let t = Tensor::from([f32::INFINITY, f32::NEG_INFINITY, -0.0, 20.0]).tanh().to_vec();
    assert_eq!(t, vec![1.0, -1.0, -0.0, 1.0]);
    assert!(t[2].is_sign_negative());
    let s = Tensor::from([f32::INFINITY, f32::NEG_INFINITY, 0.0]).sigmoid().to_vec();
    assert_eq!(s, vec![1.0, 0.0, 0.5]);
}

/// Every 4099th bit pattern of `f32` in one tensor of about a million elements: the whole range,
/// through the split across threads.
#[test]
#[cfg_attr(miri, ignore)]
fn whole_range_sweep() {
    let xs: Vec<f32> = (0..u32::MAX / 4099).map(|k| f32::from_bits(k * 4099)).collect();
    check(&xs).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 4), failure_persistence: None, ..ProptestConfig::default() })]

    /// Random bit patterns (any float), ordinary values and edge values, in lengths across the
    /// block size of the sequential path (1024).
    #[test]
    fn random_values(xs in prop::collection::vec(prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        -30.0f32..30.0,
        prop::sample::select(EDGES.to_vec()),
    ], 0..2100)) {
        check(&xs)?;
    }
}
