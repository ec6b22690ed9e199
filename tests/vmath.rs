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
            if let Some(want) = $reference(v) {
                prop_assert!(ulps(g, want) <= $bound, "{}({:e}) = {:e}, reference {:e}", what, v, g, want);
            }
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
            if let Some(want) = $reference($xs[k]) {
                prop_assert!(ulps(g, want) <= $bound, "{}({:e}) in place strided: {:e}, reference {:e}", what, $xs[k], g, want);
            }
        }
    )*};
}

macro_rules! checker {
    ($check:ident, $t:ident, $tight:expr, $gelu_tol:expr, $erf:expr, $erfc:expr, $gelu:expr, $gelu_tanh:expr) => {
        /// Every function on every path for the values `xs`, against the reference (`None`:
        /// not checked at that point).
        fn $check(xs: &[$t]) -> Result<(), TestCaseError> {
            let some = |f: fn($t) -> $t| move |x: $t| Some(f(x));
            let sigmoid = some(|x: $t| 1.0 / (1.0 + (-x).exp()));
            let silu = some(|x: $t| x / (1.0 + (-x).exp()));
            let softplus = some(|x: $t| if x > 20.0 { x } else { x.exp().ln_1p() });
            let n = xs.len();
            let x = Tensor::<$t, Shape![_]>::from_vec(&[n], xs.to_vec());
            // The same values at every other position of a longer buffer: a strided view.
            let padded: Vec<$t> = xs.iter().flat_map(|&v| [v, 7.0]).collect();
            let p = Tensor::<$t, Shape![_]>::from_vec(&[2 * n], padded);
            let d = x.clone().into_dyn();
            each! { xs, x, p, d;
                exp, exp_, exp_out, some($t::exp), $tight;
                tanh, tanh_, tanh_out, some($t::tanh), 4;
                sigmoid, sigmoid_, sigmoid_out, sigmoid, 4;
                silu, silu_, silu_out, silu, 4;
                ln, ln_, ln_out, some($t::ln), $tight;
                softplus, softplus_, softplus_out, softplus, 4;
                sin, sin_, sin_out, some($t::sin), $tight;
                cos, cos_, cos_out, some($t::cos), $tight;
                erf, erf_, erf_out, $erf, 4;
                erfc, erfc_, erfc_out, $erfc, 4;
                gelu, gelu_, gelu_out, $gelu, $gelu_tol;
                gelu_tanh, gelu_tanh_, gelu_tanh_out, $gelu_tanh, 4;
            }
            Ok(())
        }
    };
}

/// `f32` references in `f64` (libm's `erf`/`erfc`, within 1 ulp of `f64`, rounded once to
/// `f32`: correctly rounded but for double roundings): no cancellation and no amplified error
/// at `f32`'s precision (`x / sqrt 2` in `f64` is off by 2^-53, erfc's tail amplifies that by
/// at most 2 * 50).
fn erf32(x: f32) -> Option<f32> {
    Some(libm::erf(x as f64) as f32)
}
fn erfc32(x: f32) -> Option<f32> {
    Some(libm::erfc(x as f64) as f32)
}
fn gelu32(x: f32) -> Option<f32> {
    let x = x as f64;
    Some((0.5 * x * libm::erfc(-x * core::f64::consts::FRAC_1_SQRT_2)) as f32)
}
fn gelu_tanh32(x: f32) -> Option<f32> {
    let x = x as f64;
    let u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
    Some((x / (1.0 + (-2.0 * u).exp())) as f32)
}

/// `a * b` as an exact double-double `(p, e)`.
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// `f64` `erf` and `erfc`: libm's (fdlibm's, within 1 ulp of the correctly rounded value);
/// the correctly rounded values of `erf_data.rs` check the kernels to 4 ulp on their own.
fn erf64(x: f64) -> Option<f64> {
    Some(libm::erf(x))
}
fn erfc64(x: f64) -> Option<f64> {
    Some(libm::erfc(x))
}

/// `f64` `gelu` as `0.5 x erfc(w + wl)`, `w + wl = -x / sqrt 2` as a double-double and
/// `erfc(w + wl) = erfc(w) - wl 2/sqrt(pi) e^(-w^2)` (libm's `erfc`): within 2 ulp where the
/// result is a normal number (but 3.5 ulp off at `x = -2.8436268635270463`, libm's `erfc`), `x >= -37.5`; `None` below, where libm's subnormal `erfc` would be
/// the reference's own error (`erf_data.rs` has about 600 correctly rounded values there).
fn gelu64(x: f64) -> Option<f64> {
    if !x.is_finite() {
        // PyTorch's -inf * 0 at -inf.
        return Some(if x == f64::INFINITY { x } else { f64::NAN });
    }
    if x < -37.5 {
        return None;
    }
    let (p, e) = two_prod(x, core::f64::consts::FRAC_1_SQRT_2);
    let (w, wl) = (-p, -(e + x * -4.833646656726457e-17));
    let c = libm::erfc(w) - wl * core::f64::consts::FRAC_2_SQRT_PI * (-w * w).exp();
    Some(0.5 * x * c)
}

/// `f64` `gelu_tanh = x / (1 + e^(-2u))`: for `x >= 0` in `f64` (the error of `e^(-2u)` is damped
/// there); for `-20 <= x < 0` as `x e^(2u) / (1 + e^(2u))` with `2u` as a double-double (exact
/// constants) and `e^(2u) = e^(t) (1 + tl)`, within 2 ulp; `None` below -20 (subnormal
/// results; `erf_data.rs` has them).
fn gelu_tanh64(x: f64) -> Option<f64> {
    if x.is_nan() || x >= 0.0 {
        let u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
        return Some(x / (1.0 + (-2.0 * u).exp()));
    }
    if x < -20.0 {
        return None;
    }
    let (s, sl) = two_prod(x, x);
    let (c, cl) = two_prod(s, x);
    let cl = cl + sl * x;
    let (d, dl) = two_prod(0.044715, c);
    let dl = dl + 0.044715 * cl + 2.1960211427085595e-18 * c;
    // Knuth's two-sum.
    let v = x + d;
    let bb = v - x;
    let vl = ((x - (v - bb)) + (d - bb)) + dl;
    let (u, ul) = two_prod(1.5957691216057308, v);
    let ul = ul + 1.5957691216057308 * vl - 9.96930880911092e-17 * v;
    let e = u.exp() * (1.0 + ul);
    Some(x * e / (1.0 + e))
}

// `f64` `gelu` within 6 ulp of its reference: shaped's `gelu` is within 4 ulp of the exact
// value, and the reference (`gelu64`, through libm's `erfc`) is itself up to 3.5 ulp off near
// `x = -2.84` (at `x = -2.8436268635270463`, mpmath's `0.5 x erfc(-x/sqrt 2)` is
// `-6.341749832676565e-3`: shaped gives `...566` (1.2 ulp), the reference `...562` (3.5 ulp);
// a random case found it). The `f32` references are correctly rounded but for double roundings.
checker!(check, f32, 1, 4, erf32, erfc32, gelu32, gelu_tanh32);
checker!(check64, f64, 2, 6, erf64, erfc64, gelu64, gelu_tanh64);

/// The input where a random case found the reference `gelu64` 3.5 ulp off: shaped's `f64` `gelu`
/// there against mpmath's value (`0.5 x erfc(-x/sqrt 2)` at 200 bits), within its 4 ulp, on the
/// contiguous, strided and in-place paths.
#[test]
fn gelu_f64_where_the_reference_is_off() {
    let (x, exact) = (-2.8436268635270463f64, -6.341749832676565e-3f64);
    let ulp = f64::from_bits(exact.abs().to_bits() + 1) - exact.abs();
    let t = Tensor::<f64, Shape![_]>::from_vec(&[4], vec![x, 7.0, x, 7.0]);
    // In place on a strided view: the scalar function (the path the random case took).
    let mut q = t.clone();
    t!(mut q[..;2]).gelu_();
    let got = [t.gelu().to_vec()[0], t!(t[..;2]).gelu().to_vec()[1], q.to_vec()[2]];
    for g in got {
        assert!((g - exact).abs() <= 4.0 * ulp, "gelu({x}) = {g:e}, exact {exact:e}");
    }
}

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
    // erf and the GELUs at the ends (PyTorch's values: NaN for gelu(-inf), -inf * 0 there).
    let ends = [f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, -1e3, 1e3];
    let x64 = Tensor::from(ends);
    let x32 = Tensor::from(ends.map(|v| v as f32));
    for (got, want) in [
        (x64.erf().to_vec(), [1.0, -1.0, -0.0, 0.0, -1.0, 1.0]),
        (x32.erf().to_vec().iter().map(|&v| v as f64).collect(), [1.0, -1.0, -0.0, 0.0, -1.0, 1.0]),
        (x64.erfc().to_vec(), [0.0, 2.0, 1.0, 1.0, 2.0, 0.0]),
        (x32.erfc().to_vec().iter().map(|&v| v as f64).collect(), [0.0, 2.0, 1.0, 1.0, 2.0, 0.0]),
        (x64.gelu().to_vec(), [f64::INFINITY, f64::NAN, -0.0, 0.0, -0.0, 1e3]),
        (x32.gelu().to_vec().iter().map(|&v| v as f64).collect(), [f64::INFINITY, f64::NAN, -0.0, 0.0, -0.0, 1e3]),
        (x64.gelu_tanh().to_vec(), [f64::INFINITY, f64::NAN, -0.0, 0.0, -0.0, 1e3]),
        (x32.gelu_tanh().to_vec().iter().map(|&v| v as f64).collect(), [f64::INFINITY, f64::NAN, -0.0, 0.0, -0.0, 1e3]),
    ] {
        assert!(got.iter().zip(&want).all(|(g, w)| ulps(*g, *w) == 0), "{got:?} vs {want:?}");
    }
}

#[path = "data/erf_data.rs"]
mod erf_data;

/// `erf`, `erfc`, `gelu` and `gelu_tanh` of `f64` against mpmath's correctly rounded values
/// (`scripts/erf_data.py`: 4082 points, the subnormals to 2^6, the tails to underflow, the
/// kernels' range boundaries), new tensors and the scalar path (in place on a strided view):
/// within 4 ulp.
#[test]
#[cfg_attr(miri, ignore)]
fn f64_against_mpmath() {
    let rows = &erf_data::ERF_F64;
    let xs: Vec<f64> = rows.iter().map(|r| f64::from_bits(r[0])).collect();
    let n = xs.len();
    let x = Tensor::<f64, Shape![_]>::from_vec(&[n], xs.clone());
    let padded: Vec<f64> = xs.iter().flat_map(|&v| [v, 7.0]).collect();
    let names = ["erf", "erfc", "gelu", "gelu_tanh"];
    type Op = fn(&Tensor<f64, Shape![_]>) -> Tensor<f64, Shape![_]>;
    type OpInPlace = fn(&mut Tensor<f64, Shape![_]>);
    let ops: [(Op, OpInPlace); 4] = [
        (|t| t.erf(), |t| t!(mut t[..;2]).erf_()),
        (|t| t.erfc(), |t| t!(mut t[..;2]).erfc_()),
        (|t| t.gelu(), |t| t!(mut t[..;2]).gelu_()),
        (|t| t.gelu_tanh(), |t| t!(mut t[..;2]).gelu_tanh_()),
    ];
    let mut worst = [[0u64; 2]; 4];
    for (k, (new, strided)) in ops.iter().enumerate() {
        let mut q = Tensor::<f64, Shape![_]>::from_vec(&[2 * n], padded.clone());
        strided(&mut q);
        let scalar: Vec<f64> = q.to_vec().into_iter().step_by(2).collect();
        for (path, got) in [new(&x).to_vec(), scalar].iter().enumerate() {
            for (r, &g) in rows.iter().zip(got) {
                let want = f64::from_bits(r[k + 1]);
                let d = ulps(g, want);
                assert!(
                    d <= 4,
                    "{}({:e}) = {:e}, correctly rounded {:e} (path {path})",
                    names[k],
                    f64::from_bits(r[0]),
                    g,
                    want
                );
                worst[k][path] = worst[k][path].max(d);
            }
        }
    }
    eprintln!("worst ulps (vector, scalar) of {names:?}: {worst:?}");
    check64(&xs).unwrap();
}

/// Every 4099th bit pattern of `f32` in one tensor of about a million elements: the whole range,
/// through the split across threads.
#[test]
#[cfg_attr(miri, ignore)]
fn whole_range_sweep() {
    // CI samples every 4th of them (`common::sample`): still a quarter million, split across
    // threads.
    let step = 4099 * common::sample() as u32;
    let xs: Vec<f32> = (0..u32::MAX / step).map(|k| f32::from_bits(k * step)).collect();
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
    let r = x.softmax(Ax::<1>).to_vec();
    for i in 0..rows {
        let want = reference(&v[i * cols..(i + 1) * cols]);
        for j in 0..cols {
            prop_assert!(close(r[i * cols + j], want[j]), "row {} col {}: {} vs {}", i, j, r[i * cols + j], want[j]);
        }
    }
    let c = x.t().contiguous().softmax(Ax::<0>).to_vec();
    for (a, b) in c.iter().zip(x.softmax(Ax::<1>).t().contiguous().to_vec()) {
        prop_assert!((a - b).abs() <= 16.0 * f32::EPSILON * b.abs() + 1e-30, "columns {} vs rows {}", a, b);
    }
    // Log-softmax: rows (blocks of short rows up to 64, the per-line path beyond) against
    // columns (the per-line path), within 16 epsilons of the larger of the value and 1.
    let c = x.t().contiguous().log_softmax(Ax::<0>).to_vec();
    for (a, b) in c.iter().zip(x.log_softmax(Ax::<1>).t().contiguous().to_vec()) {
        let same = *a == b || (a - b).abs() <= 16.0 * f32::EPSILON * b.abs().max(1.0);
        prop_assert!(same, "log columns {} vs rows {}", a, b);
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
    let s = common::sample();
    xs.extend((0..200_000 / s).map(|k| (k as f64 * s as f64 - 100_000.0) * 0.0075));
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

    /// Softmax of many short rows: blocks of rows (2,048 elements each) and their last partial
    /// block.
    #[test]
    fn softmax_many_short_rows((r, c, v) in (100usize..400, 1usize..30).prop_flat_map(|(r, c)| (Just(r), Just(c),
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
