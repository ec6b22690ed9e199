//! The vectorised element-wise functions (with the default `simd` feature: `exp`, `tanh`,
//! `sigmoid`, `silu`, `ln`, `softplus`, `sin`, `cos`, and softmax's `exp`) against Rust's scalar
//! functions: within 1 ulp (`f32`) and 2 ulp (`f64`) for `exp`, `ln`, `sin` and `cos`, 4 ulp
//! for the others, NaN for NaN, the sign of zero kept, over random bit patterns,
//! edge values (+-inf, +-0, subnormals, the overflow thresholds) and a sweep of the whole `f32`
//! range, on every path: a new tensor (block by block, and split across threads from 16384
//! elements), a strided view, an inline `STensor`, `DynShape`, the `_out` forms, and in place. Under Miri, and
//! without the feature, the same methods take the scalar path, and the bounds hold trivially.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;

/// A float as the checks see it.
trait F: Copy + PartialEq + core::fmt::Debug + core::fmt::LowerExp {
    /// The distance of `got` from `want` in units in the last place: 0 for NaN and NaN,
    /// `u64::MAX` for NaN against a number or zeros of different signs.
    fn ulps(got: Self, want: Self) -> u64;
    fn bits(self) -> u64;
}
macro_rules! float {
    ($t:ty, $i:ty) => {
        impl F for $t {
            fn ulps(got: $t, want: $t) -> u64 {
                if got.is_nan() || want.is_nan() {
                    return if got.is_nan() && want.is_nan() { 0 } else { u64::MAX };
                }
                if got == 0.0 && want == 0.0 && got.is_sign_negative() != want.is_sign_negative() {
                    return u64::MAX;
                }
                let key = |x: $t| {
                    let i = x.to_bits() as $i;
                    (if i < 0 { <$i>::MIN - i } else { i }) as i128
                };
                (key(got) - key(want)).unsigned_abs() as u64
            }
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
        }
    };
}
float!(f32, i32);
float!(f64, i64);
fn ulps<T: F>(got: T, want: T) -> u64 {
    T::ulps(got, want)
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

/// The checks of each function `$name` (in place: `$name_`) on the values `$xs`, as a new
/// tensor from `$x`, a strided view of `$p`, the `DynShape` `$d`, and in place.
macro_rules! each {
($xs:ident, $x:ident, $p:ident, $d:ident; $($name:ident, $name_:ident, $name_out:ident, $reference:expr, $bound:expr;)*) => {$(
        let what = stringify!($name);
        let new = $x.$name().to_vec();
        for (&v, &g) in $xs.iter().zip(&new) {
            let want = $reference(v);
            prop_assert!(ulps(g, want) <= $bound, "{}({:e}) = {:e}, scalar {:e}", what, v, g, want);
        }
        // The other paths give the very same bits.
        let strided = t!($p[..;2]).$name().to_vec();
        prop_assert!(strided.iter().zip(&new).all(|(a, b)| a.bits() == b.bits()), "{} strided", what);
        prop_assert!($d.$name().to_vec().iter().zip(&new).all(|(a, b)| a.bits() == b.bits()), "{} dyn", what);
        let mut inplace = $x.clone();
        inplace.$name_();
        prop_assert!(inplace.to_vec().iter().zip(&new).all(|(a, b)| a.bits() == b.bits()), "{} in place", what);
        let mut written = $x.clone();
        $x.$name_out(&mut written);
        prop_assert!(written.to_vec().iter().zip(&new).all(|(a, b)| a.bits() == b.bits()), "{} _out", what);
        // In place on a strided view: the scalar function, so within the bound.
        let mut q = $p.clone();
        t!(mut q[..;2]).$name_();
        for (k, &g) in q.to_vec().iter().step_by(2).enumerate() {
            prop_assert!(ulps(g, $reference($xs[k])) <= $bound, "{} in place strided", what);
        }
    )*};
}

macro_rules! checker {
    ($check:ident, $t:ident, $tight:expr) => {
        /// Every function on every path for the values `xs`, against the scalar reference.
        fn $check(xs: &[$t]) -> Result<(), TestCaseError> {
            let sigmoid = |x: $t| 1.0 / (1.0 + (-x).exp());
            let silu = |x: $t| x / (1.0 + (-x).exp());
            let softplus = |x: $t| if x > 20.0 { x } else { x.exp().ln_1p() };
            let n = xs.len();
            let x = Tensor::<$t, Shape![_]>::from_vec(&[n], xs.to_vec());
            // The same values at every other position of a longer buffer: a strided view.
            let padded: Vec<$t> = xs.iter().flat_map(|&v| [v, 7.0]).collect();
            let p = Tensor::<$t, Shape![_]>::from_vec(&[2 * n], padded);
            let d = x.clone().into_dyn();
            each! { xs, x, p, d;
                exp, exp_, exp_out, $t::exp, $tight;
                tanh, tanh_, tanh_out, $t::tanh, 4;
                sigmoid, sigmoid_, sigmoid_out, sigmoid, 4;
                silu, silu_, silu_out, silu, 4;
                ln, ln_, ln_out, $t::ln, $tight;
                softplus, softplus_, softplus_out, softplus, 4;
                sin, sin_, sin_out, $t::sin, $tight;
                cos, cos_, cos_out, $t::cos, $tight;
            }
            Ok(())
        }
    };
}
checker!(check, f32, 1);
checker!(check64, f64, 2);

#[test]
fn edge_values() {
    check(&EDGES).unwrap();
    let mut e64: Vec<f64> = EDGES.iter().map(|&x| x as f64).collect();
    e64.extend([
        708.0,
        708.1,
        709.78,
        709.79,
        710.0,
        -708.0,
        -708.4,
        -745.1,
        -746.0,
        354.0,
        354.1,
        -354.1,
        1e-310,
        -1e-310,
        5e-324,
        1e300,
        -1e300,
        f64::MAX,
        f64::MIN,
        19.0,
        20.0,
        1e-9,
    ]);
    check64(&e64).unwrap();
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

/// Softmax along contiguous rows (which take the vectorised `exp`) and along columns (the scalar
/// one), against a reference in `f64` from the same shifted inputs: within 16 `f32` epsilons,
/// relative, plus 1e-30.
fn check_softmax(rows: usize, cols: usize, v: &[f32]) -> Result<(), TestCaseError> {
    let x = Tensor::<f32, Shape![_, _]>::from_vec(&[rows, cols], v.to_vec());
    let reference = |line: &[f32]| -> Vec<f64> {
        // The shift in f32, as the library (and PyTorch) subtract it: its rounding is the input's.
        let m = line.iter().fold(f32::NEG_INFINITY, |m, &e| m.max(e));
        let e: Vec<f64> = line.iter().map(|&e| ((e - m) as f64).exp()).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|e| e / s).collect()
    };
    let close = |got: f32, want: f64| (got as f64 - want).abs() <= 16.0 * f32::EPSILON as f64 * want.abs() + 1e-30;
    let r = x.softmax::<1>().to_vec();
    for i in 0..rows {
        let want = reference(&v[i * cols..(i + 1) * cols]);
        for j in 0..cols {
            prop_assert!(close(r[i * cols + j], want[j]), "row {} col {}: {} vs {}", i, j, r[i * cols + j], want[j]);
        }
    }
    let c = x.t().contiguous().softmax::<0>().to_vec();
    for (a, b) in c.iter().zip(x.softmax::<1>().t().contiguous().to_vec()) {
        prop_assert!((a - b).abs() <= 16.0 * f32::EPSILON * b.abs() + 1e-30, "columns {} vs rows {}", a, b);
    }
    Ok(())
}

/// Every power of two and its neighbours in `f64`'s range, with ordinary values.
#[test]
#[cfg_attr(miri, ignore)]
fn f64_sweep() {
    let mut xs = Vec::new();
    for e in -1074..=1023 {
        let v = 2f64.powi(e);
        xs.extend([v, -v, v * 1.1, -v * 1.7]);
    }
    xs.extend((0..200_000).map(|k| (k as f64 - 100_000.0) * 0.0075));
    check64(&xs).unwrap();
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

    /// Softmax of random rows, with `-inf` entries.
    #[test]
    fn softmax_rows((r, c, v) in (1usize..5, 1usize..300).prop_flat_map(|(r, c)| (Just(r), Just(c),
        prop::collection::vec(prop_oneof![8 => -50.0f32..50.0, 1 => Just(f32::NEG_INFINITY)], r * c)))) {
        prop_assume!(v.chunks(c).all(|row| row.iter().any(|e| e.is_finite())));
        check_softmax(r, c, &v)?;
    }

    /// `f64`: random bit patterns (mostly far outside the vector path's range), values across
    /// it and ordinary ones.
    #[test]
    fn random_values_f64(xs in prop::collection::vec(prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        -750.0f64..750.0,
        -30.0f64..30.0,
        -1e-3f64..1e-3,
    ], 0..2100)) {
        check64(&xs)?;
    }
}
