//! `nn::init` (PyTorch's `torch.nn.init`): the fills' ranges and moments against their formulas on
//! ~100k seeded samples (the sample mean within 4 standard errors of the mean, the sample
//! variance within 4 standard errors of the variance, from the distribution's fourth central
//! moment), the fans and gains against PyTorch's tables, the orthogonal matrices against their
//! definition (and PyTorch's sign convention), and the errors that leave a tensor and its
//! generator untouched.
#![cfg(feature = "rand")]
use shaped::autograd::GradFloat;
use shaped::nn::init::{self, FanMode, Nonlinearity};
use shaped::prelude::*;
use shaped::rand::rngs::StdRng;
use shaped::rand::{RngExt, SeedableRng};
use shaped::stensor;

fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

fn values<T: GradFloat, S: Shape>(t: &Tensor<T, S>) -> Vec<f64> {
    t.to_vec().into_iter().map(T::as_f64).collect()
}

/// Checks the sample mean and the (unbiased) sample variance of `v` against a distribution's
/// `mean`, `var` and fourth central moment `mu4`, each within 4 standard errors.
fn assert_moments(what: &str, v: &[f64], mean: f64, var: f64, mu4: f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let s2 = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    let se_mean = (var / n).sqrt();
    let se_var = ((mu4 - var * var) / n).sqrt();
    assert!((m - mean).abs() <= 4.0 * se_mean, "{what}: mean {m}, expected {mean} (standard error {se_mean})");
    assert!((s2 - var).abs() <= 4.0 * se_var, "{what}: variance {s2}, expected {var} (standard error {se_var})");
}

/// The uniform distribution on `[-bound, bound)`: every value inside, the extremes near the ends,
/// the moments those of the distribution.
fn assert_uniform(what: &str, v: &[f64], low: f64, high: f64) {
    let (min, max) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(low <= min && max < high, "{what}: [{min}, {max}] outside [{low}, {high})");
    // With n samples the extremes are within (high - low) * 20 / n of the ends except with
    // probability about 2 e^-20.
    let slack = (high - low) * 20.0 / v.len() as f64;
    assert!(min < low + slack && max > high - slack, "{what}: extremes [{min}, {max}] far from [{low}, {high})");
    let w = high - low;
    assert_moments(what, v, (low + high) / 2.0, w * w / 12.0, w.powi(4) / 80.0);
}

fn assert_normal(what: &str, v: &[f64], mean: f64, std: f64) {
    assert_moments(what, v, mean, std * std, 3.0 * std.powi(4));
    // The share within one standard deviation, 0.6827.
    let p = libm::erf(1.0 / 2f64.sqrt());
    let n = v.len() as f64;
    let inside = v.iter().filter(|&&x| (x - mean).abs() < std).count() as f64 / n;
    assert!((inside - p).abs() <= 4.0 * (p * (1.0 - p) / n).sqrt(), "{what}: {inside} within one std, expected {p}");
}

// ------------------------------------------------------------------------ fans and gains

#[test]
fn calculate_gain_is_pytorchs_table() {
    use Nonlinearity::*;
    for nl in [Linear, Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, Sigmoid] {
        assert_eq!(init::calculate_gain(nl, None), 1.0, "{nl:?}");
        // The parameter is read for leaky_relu alone.
        assert_eq!(init::calculate_gain(nl, Some(0.3)), 1.0, "{nl:?}");
    }
    assert_eq!(init::calculate_gain(Tanh, None), 5.0 / 3.0);
    assert_eq!(init::calculate_gain(Relu, Some(0.5)), 2f64.sqrt());
    assert_eq!(init::calculate_gain(Selu, None), 0.75);
    // leaky_relu: sqrt(2 / (1 + slope^2)), slope 0.01 by default.
    assert_eq!(init::calculate_gain(LeakyRelu, None), (2.0 / (1.0 + 0.01 * 0.01f64)).sqrt());
    assert_eq!(init::calculate_gain(LeakyRelu, Some(0.2)), (2.0 / 1.04f64).sqrt());
    assert_eq!(init::calculate_gain(LeakyRelu, Some(0.0)), 2f64.sqrt());
    // nn.Linear's a = sqrt(5): 1/sqrt(3).
    assert!((init::calculate_gain(LeakyRelu, Some(5f64.sqrt())) - (1.0 / 3f64).sqrt()).abs() < 1e-15);
}

#[test]
fn fans_follow_the_receptive_field() {
    assert_eq!(init::fan_in_and_fan_out(&[256, 512]), Ok((512, 256)));
    assert_eq!(init::fan_in_and_fan_out(&[64, 32, 3, 3]), Ok((288, 576)));
    assert_eq!(init::fan_in_and_fan_out(&[8, 4, 5]), Ok((20, 40)));
    assert_eq!(init::fan_in_and_fan_out(&[8, 4, 2, 3, 5]), Ok((120, 240)));
    assert_eq!(init::fan_in_and_fan_out(&[2, 3, 0]), Ok((0, 0)));
    for sizes in [&[7][..], &[]] {
        let e = init::fan_in_and_fan_out(sizes).unwrap_err();
        assert!(matches!(e, ShapeError::Invalid(_)), "{e:?}");
        assert!(e.to_string().contains("fewer than 2 dimensions"), "{e}");
    }
    assert!(matches!(init::fan_in_and_fan_out(&[2, 2, usize::MAX]), Err(ShapeError::Overflow { .. })));
}

// ------------------------------------------------------------------------ plain fills

#[test]
fn uniform_respects_the_range_and_moments() {
    let mut x = Tensor::<f64, Shape![100, 1000]>::zeros();
    init::uniform_(&mut x, -0.5, 2.0, &mut rng(1));
    assert_uniform("uniform_ f64", &values(&x), -0.5, 2.0);
    let mut y = Tensor::<f32, Shape![100, 1000]>::zeros();
    init::uniform_(&mut y, -0.3, 0.1, &mut rng(2));
    // The ends rounded to f32 first.
    assert_uniform("uniform_ f32", &values(&y), f64::from(-0.3f32), f64::from(0.1f32));
    // PyTorch's defaults [0, 1).
    let mut z = Tensor::<f64, DynShape>::zeros_sized(&[10, 10_000]);
    init::uniform_(&mut z, 0.0, 1.0, &mut rng(3));
    assert_uniform("uniform_ [0, 1)", &values(&z), 0.0, 1.0);
    // An f64 tensor receives the values of its own uniform_, an f32 tensor those values rounded.
    let mut own = Tensor::<f64, Shape![100, 1000]>::zeros();
    own.uniform_(-0.5, 2.0, &mut rng(1));
    assert_eq!(own, x);
    let mut r = Tensor::<f32, Shape![100, 1000]>::zeros();
    init::uniform_(&mut r, -0.5, 2.0, &mut rng(1));
    assert_eq!(r.to_vec(), own.iter().map(|&v| v as f32).collect::<Vec<_>>());
    // An empty range fills its end, as PyTorch's.
    init::uniform_(&mut z, 0.25, 0.25, &mut rng(3));
    assert!(z.iter().all(|&v| v == 0.25));
}

#[test]
fn normal_moments() {
    let mut x = Tensor::<f64, Shape![100, 1000]>::zeros();
    init::normal_(&mut x, 1.5, 0.3, &mut rng(4));
    assert_normal("normal_ f64", &values(&x), 1.5, 0.3);
    let mut own = Tensor::<f64, Shape![100, 1000]>::zeros();
    own.normal_(1.5, 0.3, &mut rng(4));
    assert_eq!(own, x);
    let mut y = Tensor::<f32, DynShape>::zeros_sized(&[100_000]);
    init::normal_(&mut y, 0.0, 1.0, &mut rng(5));
    assert_normal("normal_ f32", &values(&y), 0.0, 1.0);
    // std 0: the mean.
    init::normal_(&mut y, -2.0, 0.0, &mut rng(5));
    assert!(y.iter().all(|&v| v == -2.0));
}

#[test]
fn constant_zeros_ones() {
    let mut x = Tensor::<f32, Shape![3, 4]>::full(9.0);
    init::constant_(&mut x, 0.1);
    assert_eq!(x.to_vec(), [0.1f32; 12]);
    init::zeros_(&mut x);
    assert_eq!(x.to_vec(), [0.0; 12]);
    init::ones_(&mut x);
    assert_eq!(x.to_vec(), [1.0; 12]);
    let mut d = Tensor::<f64, DynShape>::zeros_sized(&[2, 0, 3]);
    init::ones_(&mut d);
    assert_eq!(d.numel(), 0);
    // Inline tensors and views.
    let mut s = stensor([0.0f64; 3]);
    init::constant_(&mut s, -1.5);
    assert_eq!(s.to_vec(), [-1.5; 3]);
    init::ones_(&mut x.narrow_mut(Ax::<1>, 1, 2));
    init::zeros_(&mut x.select_mut(Ax::<0>, 2));
    assert_eq!(x.to_vec(), [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
}

#[test]
fn eye_is_the_rectangular_identity() {
    let mut x = Tensor::<f64, Shape![3, 5]>::full(7.0);
    init::eye_(&mut x).unwrap();
    for i in 0..3 {
        for j in 0..5 {
            assert_eq!(x.at([i, j]), if i == j { 1.0 } else { 0.0 }, "[{i}, {j}]");
        }
    }
    let mut y = Tensor::<f32, DynShape>::full_sized(&[5, 3], 7.0);
    init::eye_(&mut y).unwrap();
    assert_eq!(y.to_vec(), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    // Through a transposed view: the identity of the view.
    let mut z = Tensor::<f32, Shape![2, 3]>::full(7.0);
    init::eye_(&mut z.t_mut()).unwrap();
    assert_eq!(z.to_vec(), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    let mut e = Tensor::<f32, Shape![0, 4]>::zeros();
    init::eye_(&mut e).unwrap();
    // Not a matrix: an error, the tensor unchanged.
    let mut c = Tensor::<f32, Shape![2, 3, 4]>::full(7.0);
    let err = init::eye_(&mut c).unwrap_err();
    assert!(matches!(err, ShapeError::Invalid(_)), "{err:?}");
    assert!(err.to_string().contains("only tensors with 2 dimensions"), "{err}");
    assert!(c.iter().all(|&v| v == 7.0));
    let mut v = Tensor::<f32, Shape![4]>::full(7.0);
    assert!(init::eye_(&mut v).is_err());
    assert_eq!(v.to_vec(), [7.0; 4]);
}

// ------------------------------------------------------------------------ Glorot and He

#[test]
fn xavier_uniform_bound() {
    // A linear weight [256, 512]: bound = gain * sqrt(6 / (512 + 256)).
    let mut w = Tensor::<f32, Shape![256, 512]>::zeros();
    let gain = init::calculate_gain(Nonlinearity::Tanh, None);
    init::xavier_uniform_(&mut w, gain, &mut rng(6)).unwrap();
    let bound = gain * (6.0f64 / 768.0).sqrt();
    assert_uniform("xavier_uniform_ [256, 512]", &values(&w), f64::from(-bound as f32), f64::from(bound as f32));
    // A conv weight [64, 32, 3, 3]: fans 288 and 576.
    let mut c = Tensor::<f64, Shape![64, 32, 3, 3]>::zeros();
    init::xavier_uniform_(&mut c, 1.0, &mut rng(7)).unwrap();
    let bound = (6.0f64 / (288.0 + 576.0)).sqrt();
    assert_uniform("xavier_uniform_ [64, 32, 3, 3]", &values(&c), -bound, bound);
}

#[test]
fn xavier_normal_std() {
    let mut w = Tensor::<f64, Shape![256, 512]>::zeros();
    init::xavier_normal_(&mut w, 2.0, &mut rng(8)).unwrap();
    assert_normal("xavier_normal_ [256, 512]", &values(&w), 0.0, 2.0 * (2.0f64 / 768.0).sqrt());
    let mut c = Tensor::<f32, DynShape>::zeros_sized(&[64, 32, 3, 3]);
    init::xavier_normal_(&mut c, 1.0, &mut rng(9)).unwrap();
    assert_normal("xavier_normal_ [64, 32, 3, 3]", &values(&c), 0.0, (2.0f64 / 864.0).sqrt());
}

#[test]
fn kaiming_uniform_bound() {
    // nn.Linear's own initialisation: a = sqrt(5), leaky_relu, fan_in: bound = 1 / sqrt(fan_in).
    let mut w = Tensor::<f64, Shape![256, 512]>::zeros();
    init::kaiming_uniform_(&mut w, 5f64.sqrt(), FanMode::FanIn, Nonlinearity::LeakyRelu, &mut rng(10)).unwrap();
    let bound = 1.0 / 512f64.sqrt();
    assert_uniform("kaiming_uniform_ linear", &values(&w), -bound, bound);
    // bound = gain * sqrt(3 / fan): relu, fan_out of a conv weight (64 * 9).
    let mut c = Tensor::<f32, Shape![64, 32, 3, 3]>::zeros();
    init::kaiming_uniform_(&mut c, 0.0, FanMode::FanOut, Nonlinearity::Relu, &mut rng(11)).unwrap();
    let bound = 2f64.sqrt() * (3.0f64 / 576.0).sqrt();
    assert_uniform("kaiming_uniform_ conv", &values(&c), f64::from(-bound as f32), f64::from(bound as f32));
    // PyTorch's defaults (a = 0, leaky_relu) are relu's gain: the same values from the same seed.
    let mut d = Tensor::<f32, Shape![64, 32, 3, 3]>::zeros();
    init::kaiming_uniform_(&mut d, 0.0, FanMode::FanOut, Nonlinearity::LeakyRelu, &mut rng(11)).unwrap();
    assert_eq!(c, d);
}

#[test]
fn kaiming_normal_std() {
    let mut c = Tensor::<f64, Shape![64, 32, 3, 3]>::zeros();
    init::kaiming_normal_(&mut c, 0.0, FanMode::FanIn, Nonlinearity::Relu, &mut rng(12)).unwrap();
    assert_normal("kaiming_normal_ conv fan_in", &values(&c), 0.0, (2.0f64 / 288.0).sqrt());
    let mut w = Tensor::<f32, DynShape>::zeros_sized(&[256, 512]);
    init::kaiming_normal_(&mut w, 0.2, FanMode::FanOut, Nonlinearity::LeakyRelu, &mut rng(13)).unwrap();
    let std = (2.0f64 / 1.04).sqrt() / 256f64.sqrt();
    assert_normal("kaiming_normal_ leaky fan_out", &values(&w), 0.0, std);
    // selu: gain 3/4 (the slope is not read).
    let mut s = Tensor::<f64, Shape![256, 512]>::zeros();
    init::kaiming_normal_(&mut s, 123.0, FanMode::FanIn, Nonlinearity::Selu, &mut rng(14)).unwrap();
    assert_normal("kaiming_normal_ selu", &values(&s), 0.0, 0.75 / 512f64.sqrt());
}

#[test]
fn fan_errors_leave_tensor_and_generator_untouched() {
    let mut r = rng(15);
    let mut v = Tensor::<f32, Shape![6]>::full(3.0);
    let errs = [
        init::xavier_uniform_(&mut v, 1.0, &mut r).unwrap_err(),
        init::xavier_normal_(&mut v, 1.0, &mut r).unwrap_err(),
        init::kaiming_uniform_(&mut v, 0.0, FanMode::FanIn, Nonlinearity::Relu, &mut r).unwrap_err(),
        init::kaiming_normal_(&mut v, 0.0, FanMode::FanOut, Nonlinearity::Relu, &mut r).unwrap_err(),
    ];
    for e in errs {
        assert!(e.to_string().contains("fewer than 2 dimensions"), "{e}");
    }
    let mut s = Tensor::<f64, Shape![]>::full(3.0);
    assert!(init::xavier_uniform_(&mut s, 1.0, &mut r).is_err());
    // Hyper-parameters without a distribution.
    let mut w = Tensor::<f64, Shape![4, 5]>::full(3.0);
    assert!(init::xavier_uniform_(&mut w, -1.0, &mut r).is_err());
    assert!(init::xavier_normal_(&mut w, f64::NAN, &mut r).is_err());
    let e = init::kaiming_uniform_(&mut w, f64::NAN, FanMode::FanIn, Nonlinearity::LeakyRelu, &mut r).unwrap_err();
    assert!(e.to_string().contains("kaiming_uniform_"), "{e}");
    assert_eq!(v.to_vec(), [3.0; 6]);
    assert_eq!(s.to_vec(), [3.0]);
    assert_eq!(w.to_vec(), [3.0; 20]);
    assert_eq!(r.random::<u64>(), rng(15).random::<u64>(), "the generator moved");
}

#[test]
fn empty_weights_are_left_alone() {
    let mut r = rng(16);
    let mut e = Tensor::<f32, DynShape>::zeros_sized(&[0, 5]);
    init::kaiming_uniform_(&mut e, 0.0, FanMode::FanIn, Nonlinearity::Relu, &mut r).unwrap();
    init::xavier_normal_(&mut e, 1.0, &mut r).unwrap();
    let mut z = Tensor::<f32, DynShape>::zeros_sized(&[0, 0]);
    init::xavier_uniform_(&mut z, 1.0, &mut r).unwrap();
    // As PyTorch's kaiming_*, which returns before reading the fans: no error for a 1-D empty.
    let mut v = Tensor::<f32, DynShape>::zeros_sized(&[0]);
    init::kaiming_normal_(&mut v, 0.0, FanMode::FanIn, Nonlinearity::Relu, &mut r).unwrap();
    assert!(init::xavier_uniform_(&mut v, 1.0, &mut r).is_err());
}

#[test]
fn fills_are_reproducible_and_row_major_through_views() {
    let mut a = Tensor::<f32, Shape![8, 6]>::zeros();
    let mut b = Tensor::<f32, Shape![8, 6]>::zeros();
    init::xavier_uniform_(&mut a, 1.0, &mut rng(17)).unwrap();
    init::xavier_uniform_(&mut b, 1.0, &mut rng(17)).unwrap();
    assert_eq!(a, b);
    // The transpose of a [6, 8] tensor receives the samples of a contiguous [8, 6] fill (the
    // view's fans are those of its own shape).
    let mut c = Tensor::<f32, Shape![6, 8]>::zeros();
    init::xavier_uniform_(&mut c.t_mut(), 1.0, &mut rng(17)).unwrap();
    assert_eq!(c.t(), a);
    // A view fills only what it reaches.
    let mut d = Tensor::<f64, Shape![4, 6]>::full(-7.0);
    init::trunc_normal_(&mut t!(mut d[.., 1..5;2]), 0.0, 1.0, -2.0, 2.0, &mut rng(18));
    for i in 0..4 {
        for j in 0..6 {
            let v = d.at([i, j]);
            assert_eq!(v == -7.0, j != 1 && j != 3, "[{i}, {j}] = {v}");
        }
    }
}

#[test]
#[should_panic(expected = "uniform_")]
fn uniform_panics_on_a_reversed_range() {
    init::uniform_(&mut Tensor::<f32, Shape![3]>::zeros(), 1.0, 0.0, &mut rng(0));
}

#[test]
#[should_panic(expected = "normal_")]
fn normal_panics_on_a_negative_std() {
    init::normal_(&mut Tensor::<f32, Shape![3]>::zeros(), 0.0, -1.0, &mut rng(0));
}

#[test]
#[should_panic(expected = "trunc_normal_")]
fn trunc_normal_panics_on_an_empty_interval() {
    init::trunc_normal_(&mut Tensor::<f32, Shape![3]>::zeros(), 0.0, 1.0, 1.0, 1.0, &mut rng(0));
}

// ------------------------------------------------------------------------ truncated normal

/// The mean, variance and fourth central moment of `N(mean, std^2)` truncated to `[a, b]`: the
/// raw moments of the standard truncated normal on `[α, β]` from the recurrence
/// `m_k = (k - 1) m_{k-2} + (α^{k-1} φ(α) - β^{k-1} φ(β)) / Z`, `Z = Φ(β) - Φ(α)`.
fn truncated_moments(mean: f64, std: f64, a: f64, b: f64) -> (f64, f64, f64) {
    let (al, be) = ((a - mean) / std, (b - mean) / std);
    let pdf = |x: f64| if x.is_finite() { (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt() } else { 0.0 };
    let cdf = |x: f64| (1.0 + libm::erf(x / 2f64.sqrt())) / 2.0;
    let z = cdf(be) - cdf(al);
    // x^k φ(x), 0 at infinity.
    let term = |x: f64, k: i32| if x.is_finite() { x.powi(k) * pdf(x) } else { 0.0 };
    let mut m = [1.0, 0.0, 0.0, 0.0, 0.0];
    for k in 1..5 {
        let prev = if k >= 2 { (k - 1) as f64 * m[k - 2] } else { 0.0 };
        m[k] = prev + (term(al, k as i32 - 1) - term(be, k as i32 - 1)) / z;
    }
    let mu = m[1];
    let var = m[2] - mu * mu;
    let mu4 = m[4] - 4.0 * mu * m[3] + 6.0 * mu * mu * m[2] - 3.0 * mu.powi(4);
    (mean + std * mu, std * std * var, std.powi(4) * mu4)
}

#[test]
fn truncated_moments_of_the_full_line_are_the_normals() {
    let (m, v, m4) = truncated_moments(1.0, 2.0, f64::NEG_INFINITY, f64::INFINITY);
    assert!((m - 1.0).abs() < 1e-15 && (v - 4.0).abs() < 1e-14 && (m4 - 48.0).abs() < 1e-12, "{m} {v} {m4}");
    // Against Simpson's rule on the density (200000 intervals, in Python): [-1, 1] and [1, 4]
    // of N(0, 1).
    let close = |x: f64, y: f64| (x - y).abs() < 1e-11;
    let (m, v, m4) = truncated_moments(0.0, 1.0, -1.0, 1.0);
    assert!(close(m, 0.0) && close(v, 0.291_125_094_772_794_3) && close(m4, 0.164_500_379_091_172_85), "{m} {v} {m4}");
    let (m, v, m4) = truncated_moments(0.0, 1.0, 1.0, 4.0);
    assert!(close(m, 1.524_596_092_162_24) && close(v, 0.197_671_757_211_010_96), "{m} {v}");
    assert!(close(m4, 0.187_310_324_692_234_13), "{m4}");
}

#[test]
fn trunc_normal_stays_inside_with_the_truncated_moments() {
    let cases = [
        // PyTorch's defaults.
        (0.0, 1.0, -2.0, 2.0),
        // Asymmetric, the mean off centre.
        (0.5, 2.0, -1.0, 3.0),
        // One tail: [1, 4] of N(0, 1).
        (0.0, 1.0, 1.0, 4.0),
        // Half-line.
        (0.0, 0.5, 0.0, f64::INFINITY),
        // The usual std 0.02 with PyTorch's default bounds: an untruncated normal.
        (0.0, 0.02, -2.0, 2.0),
    ];
    for (seed, &(mean, std, a, b)) in cases.iter().enumerate() {
        let (m, v, m4) = truncated_moments(mean, std, a, b);
        let mut x = Tensor::<f64, Shape![100, 1000]>::zeros();
        init::trunc_normal_(&mut x, mean, std, a, b, &mut rng(100 + seed as u64));
        let xs = values(&x);
        assert!(xs.iter().all(|&x| a <= x && x <= b), "f64 N({mean}, {std}) outside [{a}, {b}]");
        assert_moments(&format!("trunc_normal_ f64 N({mean}, {std}) on [{a}, {b}]"), &xs, m, v, m4);
        let mut y = Tensor::<f32, DynShape>::zeros_sized(&[100_000]);
        init::trunc_normal_(&mut y, mean, std, a, b, &mut rng(200 + seed as u64));
        let ys = values(&y);
        let (fa, fb) = (f64::from(a as f32), f64::from(b as f32));
        assert!(ys.iter().all(|&y| fa <= y && y <= fb), "f32 N({mean}, {std}) outside [{a}, {b}]");
        assert_moments(&format!("trunc_normal_ f32 N({mean}, {std}) on [{a}, {b}]"), &ys, m, v, m4);
    }
}

// ------------------------------------------------------------------------ orthogonal

/// `W Wᵀ` (`rows` true) or `Wᵀ W` of a row-major `[r, c]` matrix.
#[cfg(feature = "linalg")]
fn gram(w: &[f64], r: usize, c: usize, rows: bool) -> Vec<f64> {
    // Vector `i` (a row or a column) has element `k` at `w[i * si + k * sk]`.
    let (n, len, si, sk) = if rows { (r, c, c, 1) } else { (c, r, 1, c) };
    let mut g = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            g[i * n + j] = (0..len).map(|k| w[i * si + k * sk] * w[j * si + k * sk]).sum();
        }
    }
    g
}

/// `g` (`[n, n]`) is `gain² I` to `tol`.
#[cfg(feature = "linalg")]
fn assert_scaled_identity(what: &str, g: &[f64], n: usize, gain: f64, tol: f64) {
    for i in 0..n {
        for j in 0..n {
            let want = if i == j { gain * gain } else { 0.0 };
            assert!((g[i * n + j] - want).abs() < tol, "{what}: gram [{i}, {j}] = {}", g[i * n + j]);
        }
    }
}

#[cfg(feature = "linalg")]
#[test]
fn orthogonal_rows_or_columns_are_orthonormal_times_gain() {
    let shapes = [&[3, 5][..], &[5, 3], &[4, 2, 3], &[6, 2, 2], &[4, 4], &[1, 7], &[7, 1]];
    for (seed, sizes) in shapes.into_iter().enumerate() {
        let rows = sizes[0];
        let cols: usize = sizes[1..].iter().product();
        // rows >= cols: WᵀW = gain² I; rows < cols: WWᵀ = gain² I.
        let (wide, n) = (rows < cols, rows.min(cols));
        for gain in [1.0, 2.5] {
            let mut w = Tensor::<f64, DynShape>::zeros_sized(sizes);
            init::orthogonal_(&mut w, gain, &mut rng(seed as u64)).unwrap();
            assert_eq!(w.sizes(), sizes);
            let g = gram(&w.to_vec(), rows, cols, wide);
            assert_scaled_identity(&format!("f64 {sizes:?} gain {gain}"), &g, n, gain, 1e-12);
            let mut f = Tensor::<f32, DynShape>::zeros_sized(sizes);
            init::orthogonal_(&mut f, gain, &mut rng(seed as u64)).unwrap();
            let g = gram(&values(&f), rows, cols, wide);
            assert_scaled_identity(&format!("f32 {sizes:?} gain {gain}"), &g, n, gain, 1e-5);
        }
    }
    // A static conv weight [8, 2, 3]: rows 8 >= cols 6.
    let mut c = Tensor::<f32, Shape![8, 2, 3]>::zeros();
    init::orthogonal_(&mut c, 1.0, &mut rng(40)).unwrap();
    assert_scaled_identity("f32 [8, 2, 3]", &gram(&values(&c), 8, 6, false), 6, 1.0, 1e-5);
}

/// PyTorch's result for the same normal samples: `A` (`[rows, cols]`, transposed when wide) =
/// `Q R` with `R`'s diagonal positive, so `QᵀA` is upper triangular with a positive diagonal.
#[cfg(feature = "linalg")]
#[test]
fn orthogonal_takes_the_qr_with_a_positive_diagonal() {
    for (seed, (rows, cols)) in [(5, 3), (3, 5), (6, 6), (1, 4), (4, 1)].into_iter().enumerate() {
        // orthogonal_ draws its [rows, cols] standard normal samples as normal_(0, 1) does.
        let mut a = Tensor::<f64, DynShape>::zeros_sized(&[rows, cols]);
        init::normal_(&mut a, 0.0, 1.0, &mut rng(50 + seed as u64));
        let mut w = Tensor::<f64, DynShape>::zeros_sized(&[rows, cols]);
        init::orthogonal_(&mut w, 1.0, &mut rng(50 + seed as u64)).unwrap();
        let (a, w) = (a.to_vec(), w.to_vec());
        // As [m, k] matrices, m >= k: A and Q themselves, or their transposes.
        let wide = rows < cols;
        let (m, k) = if wide { (cols, rows) } else { (rows, cols) };
        let el = |x: &[f64], i: usize, j: usize| if wide { x[j * cols + i] } else { x[i * cols + j] };
        for i in 0..k {
            for j in 0..k {
                let r: f64 = (0..m).map(|p| el(&w, p, i) * el(&a, p, j)).sum();
                if i == j {
                    assert!(r > 0.0, "[{rows}, {cols}]: R[{i}, {i}] = {r}");
                } else if i > j {
                    assert!(r.abs() < 1e-12, "[{rows}, {cols}]: R[{i}, {j}] = {r}");
                }
            }
        }
    }
}

#[cfg(feature = "linalg")]
#[test]
fn orthogonal_errors() {
    let mut r = rng(19);
    let mut v = Tensor::<f32, Shape![4]>::full(3.0);
    let e = init::orthogonal_(&mut v, 1.0, &mut r).unwrap_err();
    assert!(matches!(e, ShapeError::Invalid(_)) && e.to_string().contains("2 or more dimensions"), "{e}");
    let mut w = Tensor::<f32, Shape![2, 2]>::full(3.0);
    assert!(init::orthogonal_(&mut w, f64::INFINITY, &mut r).is_err());
    assert_eq!(v.to_vec(), [3.0; 4]);
    assert_eq!(w.to_vec(), [3.0; 4]);
    assert_eq!(r.random::<u64>(), rng(19).random::<u64>(), "the generator moved");
    let mut e = Tensor::<f32, DynShape>::zeros_sized(&[3, 0, 2]);
    init::orthogonal_(&mut e, 1.0, &mut r).unwrap();
}
