//! The element-wise functions of issue 29's fifth item against NumPy 2.4.6 (`np.arcsinh`,
//! `np.logaddexp`, ...) and mpmath at 50 digits (`erf`, `erfc`, `lgamma`: glibc's `lgamma`, which
//! Python's `math.lgamma` calls, is 270 ulp off at 0.999), on ordinary values and the
//! edges (+-0, +-1, the poles of lgamma, +-800, +-inf, NaN): within 4 ulp (`f64`), NaN where
//! NumPy gives NaN; the `f32` forms within 4 `f32` ulp of the same values
//! rounded; the `_out` and in-place forms give the same bits as the new-tensor forms. The
//! constants come from `scripts/elementwise_more_data.py`.
// Generated numbers, some of which are well-known constants.
#![allow(clippy::approx_constant)]

use shaped::prelude::*;

const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;

// Generated with NumPy 2.4.6 and mpmath 1.3.0 (erf, erfc, lgamma at 50 digits).
const XS: [f64; 19] =
    [-3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.999, 1.0, 1.5, 2.0, 10.0, 30.0, -30.0, -800.0, 800.0, INF, -INF, NAN];
const ASINH: [f64; 19] = [
    -1.9657204716496515,
    -0.881373587019543,
    -0.48121182505960347,
    -0.0,
    0.0,
    0.24746646154726346,
    0.48121182505960347,
    0.8806663034322094,
    0.881373587019543,
    1.1947632172871092,
    1.4436354751788103,
    2.99822295029797,
    4.09462222433053,
    -4.09462222433053,
    -7.377759298852644,
    7.377759298852644,
    INF,
    -INF,
    NAN,
];
const ACOSH: [f64; 19] = [
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    0.0,
    0.9624236501192069,
    1.3169578969248168,
    2.993222846126381,
    4.0940666686320855,
    NAN,
    NAN,
    7.3777585176026435,
    INF,
    NAN,
    NAN,
];
const ATANH: [f64; 19] = [
    NAN,
    -INF,
    -0.5493061443340549,
    -0.0,
    0.0,
    0.25541281188299536,
    0.5493061443340549,
    3.8002011672501994,
    INF,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
    NAN,
];
const ERF: [f64; 19] = [
    -0.9999992569016276,
    -0.8427007929497149,
    -0.5204998778130465,
    0.0,
    0.0,
    0.27632639016823696,
    0.5204998778130465,
    0.8422852702064969,
    0.8427007929497149,
    0.9661051464753108,
    0.9953222650189527,
    1.0,
    1.0,
    -1.0,
    -1.0,
    1.0,
    1.0,
    -1.0,
    NAN,
];
const ERFC: [f64; 19] = [
    1.9999992569016276,
    1.8427007929497148,
    1.5204998778130465,
    1.0,
    1.0,
    0.7236736098317631,
    0.4795001221869535,
    0.15771472979350307,
    0.15729920705028513,
    0.033894853524689274,
    0.004677734981047266,
    2.088487583762545e-45,
    0.0,
    2.0,
    2.0,
    0.0,
    0.0,
    2.0,
    NAN,
];
const LGAMMA: [f64; 19] = [
    -1.309006684993042,
    INF,
    1.2655121234846454,
    INF,
    INF,
    1.2880225246980774,
    0.5723649429247001,
    0.0005780385328913802,
    0.0,
    -0.12078223763524522,
    0.0,
    12.801827480081469,
    71.25703896716801,
    INF,
    INF,
    4545.266118970374,
    INF,
    INF,
    NAN,
];
const RSQRT: [f64; 19] = [
    NAN,
    NAN,
    NAN,
    -INF,
    INF,
    2.0,
    1.414213562373095,
    1.0005003753127737,
    1.0,
    0.8164965809277261,
    0.7071067811865475,
    0.31622776601683794,
    0.18257418583505536,
    NAN,
    NAN,
    0.035355339059327376,
    0.0,
    NAN,
    NAN,
];
const SQUARE: [f64; 19] = [
    12.25, 1.0, 0.25, 0.0, 0.0, 0.0625, 0.25, 0.998001, 1.0, 2.25, 4.0, 100.0, 900.0, 900.0, 640000.0, 640000.0, INF,
    INF, NAN,
];
const TO_RADIANS: [f64; 19] = [
    -0.061086523819801536,
    -0.017453292519943295,
    -0.008726646259971648,
    -0.0,
    0.0,
    0.004363323129985824,
    0.008726646259971648,
    0.017435839227423353,
    0.017453292519943295,
    0.026179938779914945,
    0.03490658503988659,
    0.17453292519943295,
    0.5235987755982988,
    -0.5235987755982988,
    -13.962634015954636,
    13.962634015954636,
    INF,
    -INF,
    NAN,
];
const TO_DEGREES: [f64; 19] = [
    -200.53522829578813,
    -57.29577951308232,
    -28.64788975654116,
    -0.0,
    0.0,
    14.32394487827058,
    28.64788975654116,
    57.23848373356924,
    57.29577951308232,
    85.94366926962348,
    114.59155902616465,
    572.9577951308232,
    1718.8733853924696,
    -1718.8733853924696,
    -45836.62361046586,
    45836.62361046586,
    INF,
    -INF,
    NAN,
];
const LOG_SIGMOID: [f64; 19] = [
    -3.5297504182726205,
    -1.3132616875182228,
    -0.9740769841801067,
    -0.6931471805599453,
    -0.6931471805599453,
    -0.5759394198788436,
    -0.4740769841801067,
    -0.3135307272607009,
    -0.31326168751822286,
    -0.2014132779827524,
    -0.1269280110429725,
    -4.539889921686465e-05,
    -9.357622968839737e-14,
    -30.000000000000092,
    -800.0,
    -0.0,
    -0.0,
    -INF,
    NAN,
];
const SOFTSIGN: [f64; 19] = [
    -0.7777777777777778,
    -0.5,
    -0.3333333333333333,
    -0.0,
    0.0,
    0.2,
    0.3333333333333333,
    0.4997498749374687,
    0.5,
    0.6,
    0.6666666666666666,
    0.9090909090909091,
    0.967741935483871,
    -0.967741935483871,
    -0.9987515605493134,
    0.9987515605493134,
    NAN,
    NAN,
    NAN,
];
const SELU: [f64; 19] = [
    -1.705009340957283,
    -1.1113307378125625,
    -0.6917581878028713,
    -0.0,
    0.0,
    0.2626752468388701,
    0.5253504936777402,
    1.049650286368125,
    1.0507009873554805,
    1.5760514810332207,
    2.101401974710961,
    10.507009873554804,
    31.521029620664414,
    -1.7580993408472123,
    -1.7580993408473766,
    840.5607898843843,
    INF,
    -1.7580993408473766,
    NAN,
];
const LEAKY_RELU: [f64; 19] =
    [-0.035, -0.01, -0.005, -0.0, 0.0, 0.25, 0.5, 0.999, 1.0, 1.5, 2.0, 10.0, 30.0, -0.3, -8.0, 800.0, INF, -INF, NAN];
const ELU: [f64; 19] = [
    -0.9698026165776815,
    -0.6321205588285577,
    -0.3934693402873666,
    -0.0,
    0.0,
    0.25,
    0.5,
    0.999,
    1.0,
    1.5,
    2.0,
    10.0,
    30.0,
    -0.9999999999999064,
    -1.0,
    800.0,
    INF,
    -1.0,
    NAN,
];
const HARDTANH: [f64; 19] =
    [-1.0, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.999, 1.0, 1.0, 1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, NAN];
const NAN_TO_NUM: [f64; 19] =
    [-3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.999, 1.0, 1.5, 2.0, 10.0, 30.0, -30.0, -800.0, 800.0, 99.0, -99.0, 0.0];
const COPYSIGN: [f64; 19] =
    [3.5, -1.0, 0.5, 0.0, -0.0, -0.25, 0.5, 0.999, 1.0, 1.5, 2.0, 10.0, 30.0, 30.0, 800.0, -800.0, -INF, -INF, NAN];
const LOGADDEXP: [f64; 19] = [
    NAN,
    -1.0,
    INF,
    800.0,
    0.0,
    0.2500000000000729,
    30.000000000000153,
    10.000123278856817,
    2.313261687518223,
    2.1931471805599454,
    2.313261687518223,
    10.000123278856817,
    30.000000000000153,
    0.2500000000000729,
    0.0,
    800.0,
    INF,
    -1.0,
    NAN,
];
const LERP: [f64; 19] = [
    NAN, -INF, INF, 240.0, -240.0, -8.825, 9.35, 3.6993, 1.3, 1.5, 1.7, 7.2997, 21.15, -20.925, -560.0, 560.0, NAN,
    NAN, NAN,
];

/// Whether `got` is within `ulps` of `want` (NaN for NaN; zeros of the same sign).
fn close(got: f64, want: f64, ulps: u64) -> bool {
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if want == 0.0 || got == 0.0 {
        return got == want && got.is_sign_negative() == want.is_sign_negative() || (got - want).abs() < 1e-300;
    }
    let key = |v: f64| {
        let i = v.to_bits() as i64;
        (if i < 0 { i64::MIN - i } else { i }) as i128
    };
    (key(got) - key(want)).unsigned_abs() <= ulps as u128
}
fn close32(got: f32, want: f64, ulps: u64) -> bool {
    let want = want as f32;
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if want == 0.0 || got == 0.0 {
        return got == want || (got - want).abs() < 1e-37;
    }
    let key = |v: f32| {
        let i = v.to_bits() as i32;
        (if i < 0 { i32::MIN - i } else { i }) as i64
    };
    (key(got) - key(want)).unsigned_abs() <= ulps
}

fn check(name: &str, got: Vec<f64>, want: &[f64]) {
    for (k, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(close(g, w, 4), "{name}({:e}) = {g:e}, NumPy {w:e}", XS[k]);
    }
}

macro_rules! unary {
    ($($name:ident, $name_:ident, $name_out:ident, $want:ident;)*) => {$(
        let x = Tensor::<f64, Shape![19]>::from(XS);
        let got = x.$name();
        check(stringify!($name), got.to_vec(), &$want);
        let mut inplace = x.clone();
        inplace.$name_();
        let mut written = Tensor::<f64, Shape![19]>::zeros();
        x.$name_out(&mut written);
        for (a, b) in [(inplace.to_vec(), got.to_vec()), (written.to_vec(), got.to_vec())] {
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), stringify!($name));
        }
        // f32: the same inputs rounded (all exact in f32 but 0.999), against NumPy's f64 values
        // rounded, away from the tails where f32 under- or overflows differently.
        let x32 = Tensor::<f32, Shape![19]>::from(XS.map(|v| v as f32));
        for (k, (&g, &w)) in x32.$name().to_vec().iter().zip(&$want).enumerate() {
            if XS[k] != 0.999 && XS[k].abs() != 800.0 && XS[k].abs() != 30.0 {
                assert!(close32(g, w, 4), "f32 {}({}) = {g:e}, NumPy {w:e}", stringify!($name), XS[k]);
            }
        }
    )*};
}

#[test]
#[cfg_attr(miri, ignore = "Miri gives float functions a random error of a few ulp per call")]
fn unary_functions_match_numpy() {
    unary! {
        asinh, asinh_, asinh_out, ASINH;
        acosh, acosh_, acosh_out, ACOSH;
        atanh, atanh_, atanh_out, ATANH;
        erf, erf_, erf_out, ERF;
        erfc, erfc_, erfc_out, ERFC;
        lgamma, lgamma_, lgamma_out, LGAMMA;
        rsqrt, rsqrt_, rsqrt_out, RSQRT;
        square, square_, square_out, SQUARE;
        to_radians, to_radians_, to_radians_out, TO_RADIANS;
        to_degrees, to_degrees_, to_degrees_out, TO_DEGREES;
        log_sigmoid, log_sigmoid_, log_sigmoid_out, LOG_SIGMOID;
        softsign, softsign_, softsign_out, SOFTSIGN;
        selu, selu_, selu_out, SELU;
    }
}

#[test]
#[cfg_attr(miri, ignore = "Miri gives float functions a random error of a few ulp per call")]
fn parameterised_and_binary_functions_match_numpy() {
    let x = Tensor::<f64, Shape![19]>::from(XS);
    let mut ys = XS;
    ys.reverse();
    let y = Tensor::<f64, Shape![19]>::from(ys);
    check("leaky_relu", x.leaky_relu(0.01).to_vec(), &LEAKY_RELU);
    check("elu", x.elu(1.0).to_vec(), &ELU);
    check("hardtanh", x.hardtanh(-1.0, 1.0).to_vec(), &HARDTANH);
    check("nan_to_num", x.nan_to_num(0.0, 99.0, -99.0).to_vec(), &NAN_TO_NUM);
    check("copysign", x.copysign(&y).to_vec(), &COPYSIGN);
    check("logaddexp", x.logaddexp(&y).to_vec(), &LOGADDEXP);
    check("lerp", x.lerp(&y, 0.3).to_vec(), &LERP);
    // In place and `_out` forms of the parameterised ones.
    let mut e = x.clone();
    e.elu_(1.0);
    check("elu_", e.to_vec(), &ELU);
    let mut o = Tensor::<f64, Shape![19]>::zeros();
    x.nan_to_num_out(0.0, 99.0, -99.0, &mut o);
    check("nan_to_num_out", o.to_vec(), &NAN_TO_NUM);
    // Broadcasting: a row against a column, and a scalar.
    let col = Tensor::<f64, Shape![2, 1]>::from([[1.0], [-1.0]]);
    let row = Tensor::<f64, Shape![3]>::from([-2.0, 0.0, 3.0]);
    assert_eq!(row.copysign(&col).to_vec(), vec![2.0, 0.0, 3.0, -2.0, -0.0, -3.0]);
    assert_eq!(row.lerp(1.0, 0.5).to_vec(), vec![-0.5, 0.5, 2.0]);
    // The bool tests.
    let t = Tensor::from([1.0f32, f32::INFINITY, f32::NEG_INFINITY, f32::NAN]);
    assert_eq!(t.is_infinite().to_vec(), vec![false, true, true, false]);
    assert_eq!(t.isposinf().to_vec(), vec![false, true, false, false]);
    assert_eq!(t.isneginf().to_vec(), vec![false, false, true, false]);
}

/// Issue 35: `lerp` is PyTorch's kernel (`ATen/native/Lerp.h`): `a + w (b - a)` for `|w| < 0.5`,
/// `b - (b - a)(1 - w)` otherwise, so `w = 1` is `b` exactly (`a + 1 (b - a)` is
/// 0.10000000000000009 for `(3, 0.1)`, and inf for `(-1e300, 1e300)`).
#[test]
fn lerp_is_pytorchs_kernel() {
    let a = Tensor::<f64, Shape![4]>::from([3.0, -1e300, 0.1, -7.25]);
    let b = Tensor::<f64, Shape![4]>::from([0.1, 1e300, 0.7, 2.5]);
    assert_eq!(a.lerp(&b, 1.0).to_vec(), b.to_vec());
    assert_eq!(a.lerp(&b, 0.0).to_vec(), a.to_vec());
    let (av, bv) = (a.to_vec(), b.to_vec());
    for w in [0.25, 0.49, 0.5, 0.75, -0.25, -0.5, -2.0, 1.5] {
        let want: Vec<f64> = av
            .iter()
            .zip(&bv)
            .map(|(&x, &y)| if f64::abs(w) < 0.5 { x + w * (y - x) } else { y - (y - x) * (1.0 - w) })
            .collect();
        let got = a.lerp(&b, w).to_vec();
        assert!(got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits()), "w = {w}: {got:?} vs {want:?}");
    }
    // A scalar end, f32, and f16 (computed in f32 and rounded once).
    assert_eq!(Tensor::from([3.0f32]).lerp(0.1, 1.0).to_vec(), [0.1]);
    let h = Tensor::from([shaped::f16::from_f32(3.0)]);
    assert_eq!(h.lerp(shaped::f16::from_f32(0.1), shaped::f16::ONE).to_vec(), [shaped::f16::from_f32(0.1)]);
}
