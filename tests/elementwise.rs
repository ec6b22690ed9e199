//! Element-wise functions: values against NumPy (activations) and Rust's float methods, in-place
//! forms through strided views, integer abs/signum/clamp, unary minus.
#![allow(clippy::approx_constant, clippy::type_complexity)]
use shaped::prelude::*;
use shaped::Norm;

const SIGMOID: [f64; 9] = [
    1.3887943864771144e-11,
    0.07585818002124355,
    0.2689414213699951,
    0.425557483188341,
    0.5,
    0.574442516811659,
    0.7310585786300049,
    0.9241418199787566,
    0.999999999986112,
];
const GELU: [f64; 9] = [
    -0.0,
    -0.015524163314440398,
    -0.15865525393145707,
    -0.1146265733433142,
    0.0,
    0.18537342665668577,
    0.8413447460685429,
    2.4844758366855597,
    25.0,
];
const SILU: [f64; 9] = [
    -3.471985966192786e-10,
    -0.18964545005310887,
    -0.2689414213699951,
    -0.1276672449565023,
    0.0,
    0.1723327550434977,
    0.7310585786300049,
    2.3103545499468914,
    24.9999999996528,
];
const SOFTPLUS: [f64; 9] = [
    1.3887943864867583e-11,
    0.07888973429254963,
    0.31326168751822286,
    0.5543552444685271,
    0.6931471805599453,
    0.8543552444685272,
    1.3132616875182228,
    2.5788897342925496,
    25.0,
];
const X: [f64; 9] = [-25.0, -2.5, -1.0, -0.3, 0.0, 0.3, 1.0, 2.5, 25.0];

fn close(got: &[f64], want: &[f64], what: &str) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-12 * (1.0 + w.abs()), "{what}: got {got:?}, want {want:?}");
    }
}

#[test]
fn activations_match_numpy() {
    let x = Tensor::<f64, Shape![9]>::from(X);
    close(&x.sigmoid().to_vec(), &SIGMOID, "sigmoid");
    close(&x.gelu().to_vec(), &GELU, "gelu");
    close(&x.silu().to_vec(), &SILU, "silu");
    close(&x.softplus().to_vec(), &SOFTPLUS, "softplus");
    assert_eq!(x.relu().to_vec(), vec![0., 0., 0., 0., 0., 0.3, 1., 2.5, 25.]);
}

#[test]
fn float_methods_and_in_place_forms() {
    let x = Tensor::<f64, Shape![9]>::from(X);
    type F = fn(f64) -> f64;
    let cases: [(&str, Tensor<f64, Shape![9]>, F); 14] = [
        ("exp", x.exp(), f64::exp),
        ("exp2", x.exp2(), f64::exp2),
        ("exp_m1", x.exp_m1(), f64::exp_m1),
        ("sin", x.sin(), f64::sin),
        ("cos", x.cos(), f64::cos),
        ("tan", x.tan(), f64::tan),
        ("atan", x.atan(), f64::atan),
        ("sinh", x.sinh(), f64::sinh),
        ("tanh", x.tanh(), f64::tanh),
        ("floor", x.floor(), f64::floor),
        ("ceil", x.ceil(), f64::ceil),
        ("round", x.round(), f64::round),
        ("fract", x.fract(), f64::fract),
        ("cbrt", x.cbrt(), f64::cbrt),
    ];
    // Within a few ulps, not bit-exact: Miri perturbs transcendental results on purpose.
    for (name, got, f) in cases {
        let want: Vec<f64> = X.iter().map(|&v| f(v)).collect();
        close(&got.to_vec(), &want, name);
    }
    let p = x.abs();
    let ln = p.ln().to_vec();
    assert_eq!(ln[4], f64::NEG_INFINITY);
    close(&[ln[0], ln[1], ln[8]], &[25f64.ln(), 2.5f64.ln(), 25f64.ln()], "ln");
    close(
        &[p.sqrt().at([1]), x.powi(3).at([1]), x.powf(0.5).at([7])],
        &[2.5f64.sqrt(), -15.625, 2.5f64.sqrt()],
        "sqrt/powi/powf",
    );
    assert!(x.powf(0.5).at([1]).is_nan());
    assert_eq!(x.recip().at([6]), 1.0);
    assert_eq!(x.clamp(-1.0, 1.0).to_vec(), vec![-1., -1., -1., -0.3, 0., 0.3, 1., 1., 1.]);
    let nan = Tensor::from([1.0f32, f32::NAN, f32::INFINITY]);
    assert_eq!(nan.is_nan().to_vec(), vec![false, true, false]);
    assert_eq!(nan.is_finite().to_vec(), vec![true, false, false]);
    assert!(nan.clamp(0.0, 2.0).at([1]).is_nan(), "clamp keeps NaN");

    // In place through a strided view: only the viewed elements change.
    let mut m = Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]);
    let mut col = t!(mut m[.., 1..]);
    col.exp_();
    close(&m.to_vec(), &[1., 2f64.exp(), 3f64.exp(), 4., 5f64.exp(), 6f64.exp()], "exp_ through a view");
    let mut tv = m.t_mut();
    tv.ln_();
    tv.map_inplace(|v| v * 2.0);
    close(&m.to_vec(), &[0., 4., 6., 2. * 4f64.ln(), 10., 12.], "ln_ then map_inplace on a transposed view");
    let mut r = Tensor::from([-1.5f32, 2.0]);
    r.relu_();
    r.powi_(2);
    r.neg_();
    let r = r.to_vec();
    assert!(r[0] == 0.0 && (r[1] + 4.0).abs() < 1e-5, "{r:?}");
}

#[test]
fn integer_functions_and_unary_minus() {
    let i = Tensor::from([i8::MIN, -3, 0, 7]);
    assert_eq!(i.abs().to_vec(), vec![i8::MIN, 3, 0, 7], "abs wraps at MIN, as PyTorch");
    assert_eq!(i.signum().to_vec(), vec![-1, -1, 0, 1]);
    assert_eq!(i.clamp(-2, 5).to_vec(), vec![-2, -2, 0, 5]);
    assert_eq!((-&i).to_vec(), vec![i8::MIN, 3, 0, -7]);
    let u = Tensor::from([0u8, 3]);
    assert_eq!(u.signum().to_vec(), vec![0, 1]);
    let f = stensor([1.0f32, -2.0]);
    let n: STensor<f32, Shape![2]> = -f;
    assert_eq!(n.to_vec(), vec![-1.0, 2.0]);
    assert_eq!((-t!(f[..;-1])).to_vec(), vec![2.0, -1.0]);
    let d = Tensor::from([[1.0f64, -4.0]]).into_dyn();
    assert_eq!(d.abs().sqrt().to_vec(), vec![1.0, 2.0]);
}

#[test]
fn comparisons_broadcast_and_take_scalars() {
    let a = Tensor::<f32, Shape![2, 3]>::from([[1., 5., f32::NAN], [4., 2., 6.]]);
    let b = Tensor::from([2.0f32, 2.0, 2.0]);
    let g: Tensor<bool, Shape![2, 3]> = a.greater(&b);
    assert_eq!(g.to_vec(), vec![false, true, false, true, false, true]);
    assert_eq!(a.greater_equal(2.0).to_vec(), vec![false, true, false, true, true, true]);
    assert_eq!(a.less(&b).to_vec(), vec![true, false, false, false, false, false]);
    assert_eq!(a.less_equal(4.0).to_vec(), vec![true, false, false, true, true, false]);
    assert_eq!(a.equal(&b).to_vec(), vec![false, false, false, false, true, false]);
    assert_eq!(a.not_equal(2.0).to_vec(), vec![true, true, true, true, false, true], "NaN != x");
    // Column against row: [2, 1] with [3] gives [2, 3].
    let col = Tensor::from([[3i32], [0]]);
    let row = Tensor::from([1i32, 3, 5]);
    assert_eq!(col.less(&row).to_vec(), vec![false, false, true, true, true, true]);
    // Dynamic shapes are checked at run time.
    let d = a.clone().into_dyn();
    let bad = Tensor::from([1.0f32, 2.0]).into_dyn();
    assert!(matches!(d.try_greater(&bad), Err(ShapeError::Broadcast { .. })));
    assert_eq!(d.greater(&b).sizes(), &[2, 3]);
    // Logic on masks.
    let m = a.greater(3.0);
    let n = a.less(5.5);
    assert_eq!((&m & &n).to_vec(), vec![false, true, false, true, false, false]);
    assert_eq!((&m | &n).to_vec(), vec![true, true, false, true, true, true]);
    assert_eq!((&m ^ &n).to_vec(), vec![true, false, false, false, true, true]);
    assert_eq!((!&m).to_vec(), vec![true, false, true, false, true, false]);
    assert!((&m | &n).any() && !(&m & &n).all());
    let masked = t!(a[&m]);
    assert_eq!(masked.to_vec(), vec![5.0, 4.0, 6.0]);
}

#[test]
fn binary_functions_match_numpy() {
    let x = Tensor::from([[-2.0f64, 0.5], [3.0, f64::NAN]]);
    let y = Tensor::from([1.5f64, -1.0]);
    assert_eq!(x.maximum(&y).to_vec()[..3], [1.5, 0.5, 3.0]);
    assert!(x.maximum(&y).at([1, 1]).is_nan(), "maximum propagates NaN, as numpy.maximum");
    assert_eq!(x.minimum(0.0).to_vec()[..3], [-2.0, 0.0, 0.0]);
    // numpy: np.power([[ -2, .5],[3, nan]], [1.5, -1]) -> [[nan, 2.], [5.196152422706632, nan]]
    let p = x.pow(&y).to_vec();
    assert!(p[0].is_nan() && (p[1] - 2.0).abs() < 1e-14 && (p[2] - 5.196152422706632).abs() < 1e-14);
    // numpy: np.arctan2([[-2, .5], [3, nan]], [1.5, -1]) -> [-0.9272952180016122, 2.677945044588987, 1.1071487177940904, nan]
    let t = x.atan2(&y).to_vec();
    for (g, w) in t.iter().zip([-0.9272952180016122, 2.677945044588987, 1.1071487177940904]) {
        assert!((g - w).abs() < 1e-14);
    }
    assert!((Tensor::from([3e300f64]).hypot(4e300).at([0]) / 5e300 - 1.0).abs() < 1e-14, "no overflow");
    assert_eq!(Tensor::from([7i32, -7]).maximum(0).to_vec(), vec![7, 0]);
    let z = x.zip_with(&Tensor::from([true, false]), |v, keep| if keep { v } else { 0.0 });
    assert_eq!(z.to_vec()[..3], [-2.0, 0.0, 3.0]);
    let mut acc = Tensor::<f64, Shape![2, 2]>::zeros();
    acc.zip_inplace(&y, |a, b| *a += 2.0 * b);
    assert_eq!(acc.to_vec(), vec![3.0, -2.0, 3.0, -2.0]);
    let mut dz = Tensor::<f64, DynShape>::zeros_sized(&[2, 2]);
    assert!(dz.try_zip_inplace(&Tensor::from([1.0, 2.0, 3.0]).into_dyn(), |a, b| *a = b).is_err());
    assert_eq!(dz.to_vec(), vec![0.0; 4], "a failed zip_inplace writes nothing");
    // isclose / allclose (PyTorch defaults rtol 1e-5, atol 1e-8).
    let u = Tensor::from([1.0f32, 1e-9, f32::NAN, f32::INFINITY]);
    let v = Tensor::from([1.000001f32, 0.0, f32::NAN, f32::INFINITY]);
    assert_eq!(u.isclose(&v, 1e-5, 1e-8).to_vec(), vec![true, true, false, true]);
    assert!(!u.allclose(&v, 1e-5, 1e-8));
    assert!(t!(u[..2]).allclose(&t!(v[..2]), 1e-5, 1e-8));
    // Inline operands stay inline.
    let s = stensor([1.0f32, 4.0]);
    let c: STensor<bool, Shape![2]> = s.greater(2.0);
    let m: STensor<f32, Shape![2]> = s.maximum(&stensor([3.0f32, 3.0]));
    assert_eq!((c.to_vec(), m.to_vec()), (vec![false, true], vec![3.0, 4.0]));
}

// Values from NumPy (np.cumsum, np.cumprod, a stable softmax, np.linalg.norm).
const CUMSUM0: [f64; 6] = [1.5, -2.0, 3.0, 1.75, 2.0, 2.0];
const CUMSUM1: [f64; 6] = [1.5, -0.5, 2.5, 0.25, 4.25, 3.25];
const CUMPROD1: [f64; 6] = [1.5, -3.0, -9.0, 0.25, 1.0, -1.0];
const SOFTMAX0: [f64; 6] = [
    0.7772998611746911,
    0.0024726231566347748,
    0.9820137900379085,
    0.22270013882530884,
    0.9975273768433653,
    0.017986209962091555,
];
const SOFTMAX1: [f64; 6] = [
    0.18142608857948594,
    0.005478593159646257,
    0.8130953182608678,
    0.022827096243298196,
    0.9706328311846076,
    0.006540072572094158,
];
const LOG_SOFTMAX1: [f64; 6] = [
    -1.706906933673413,
    -5.206906933673413,
    -0.2069069336734131,
    -3.779807016924114,
    -0.02980701692411421,
    -5.0298070169241145,
];
const DIST2: f64 = 5.178078794301995;

#[test]
fn scans_and_softmax_match_numpy() {
    let x = Tensor::<f64, Shape![2, 3]>::from([[1.5, -2.0, 3.0], [0.25, 4.0, -1.0]]);
    close(&x.cumsum(Ax::<0>).to_vec(), &CUMSUM0, "cumsum 0");
    close(&x.cumsum(Ax::<-1>).to_vec(), &CUMSUM1, "cumsum -1");
    close(&x.cumprod(Ax::<1>).to_vec(), &CUMPROD1, "cumprod 1");
    close(&x.softmax(Ax::<0>).to_vec(), &SOFTMAX0, "softmax 0");
    close(&x.softmax(Ax::<1>).to_vec(), &SOFTMAX1, "softmax 1");
    close(&x.log_softmax(Ax::<1>).to_vec(), &LOG_SOFTMAX1, "log_softmax 1");
    // Through a transposed view and the runtime-axis forms: the same lines.
    let t = x.t();
    close(&t.softmax(0).t().contiguous().to_vec(), &SOFTMAX1, "softmax of a transposed view");
    close(&x.clone().into_dyn().cumsum(1).to_vec(), &CUMSUM1, "cumsum_dyn");
    assert!(matches!(x.try_cumsum(2), Err(ShapeError::Axis { .. })));
    assert!((x.dist(&Tensor::from([1.0, 1.0, 1.0]), Norm::L2) - DIST2).abs() < 1e-12);
    // Stability: huge logits do not overflow.
    let big = Tensor::from([1000.0f32, 1000.0, -1000.0]);
    assert_eq!(big.softmax(Ax::<0>).to_vec(), vec![0.5, 0.5, 0.0]);
    assert!((big.log_softmax(Ax::<0>).at([0]) + std::f32::consts::LN_2).abs() < 1e-6);
    // Integer scans widen and never wrap.
    let i = Tensor::from([i32::MAX, i32::MAX, 1]);
    let c: Tensor<i64, Shape![3]> = i.cumsum(Ax::<0>);
    assert_eq!(c.to_vec(), vec![i32::MAX as i64, 2 * i32::MAX as i64, 2 * i32::MAX as i64 + 1]);
    assert!(Tensor::from([i64::MAX, 2]).try_cumprod(Ax::<0>).is_err());
    // Inline stays inline.
    let s: STensor<f32, Shape![2, 2]> = stensor([[1.0f32, 2.0], [3.0, 4.0]]).cumsum(Ax::<1>);
    assert_eq!(s.to_vec(), vec![1.0, 3.0, 3.0, 7.0]);
}

#[test]
fn map_takes_fnmut_and_runs_in_row_major_order() {
    use rand::{rngs::StdRng, RngExt, SeedableRng};
    let x = Tensor::<f64, Shape![2, 3]>::zeros();
    let mut n = 0;
    let order = x.t().map(|_| {
        n += 1;
        n
    });
    assert_eq!(order.to_vec(), vec![1, 2, 3, 4, 5, 6], "row-major over the (transposed) view");
    let mut rng = StdRng::seed_from_u64(7);
    let noisy = x.map(|v| v + rng.random_range(0.0..1.0));
    let mut again = StdRng::seed_from_u64(7);
    let want: Vec<f64> = (0..6).map(|_| again.random_range(0.0..1.0)).collect();
    assert_eq!(noisy.to_vec(), want);
    // Above the rayon threshold natively; under Miri (whose stacked borrows trip on
    // crossbeam-epoch inside rayon) below it.
    let n = if cfg!(miri) { 1 << 10 } else { 1 << 20 };
    let big = Tensor::<f32, Shape![_]>::full_sized(&[n], 2.0);
    assert_eq!(big.par_map(|v| v * v).sum(), 4.0 * n as f32);
}

#[test]
fn static_and_dynamic_operands_mix() {
    let s = Tensor::<f32, Shape![2, 3]>::from([[1., 5., 3.], [4., 2., 6.]]);
    let d = Tensor::from([3.0f32, 3.0, 3.0]).into_dyn();
    let g: Tensor<bool, DynShape> = s.greater(&d);
    assert_eq!(g.to_vec(), vec![false, true, false, true, false, true]);
    let m: Tensor<f32, DynShape> = d.maximum(&s);
    assert_eq!(m.sizes(), &[2, 3]);
    let z = s.zip_with(&d, |a, b| a - b);
    assert_eq!(z.to_vec(), vec![-2., 2., 0., 1., -1., 3.]);
    let bad = Tensor::from([1.0f32, 2.0]).into_dyn();
    assert!(matches!(s.try_less(&bad), Err(ShapeError::Broadcast { .. })));
}
