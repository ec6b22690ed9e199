//! Float reductions with infinite, NaN, huge and tiny values follow IEEE 754 as PyTorch and NumPy
//! do (issue 25): a sum with `+inf` and finite terms is `+inf`, with both infinities or a NaN it is
//! NaN, a finite sum past the type's range is `+-inf`; the same for means, cumulative sums, norms,
//! log-sum-exp and variances, on every path (contiguous whole and axis sums, transposed and strided
//! views, the parallel split, `f16`/`bf16`, inline and dynamic-shape tensors). Also the accuracy of
//! long `f32` sums (error growing with `log n`, as NumPy's pairwise sum).
//!
//! The property tests compare against a plain IEEE model: the sum in `f64` (scaled for `f64`
//! inputs, so it never overflows), classified as NaN (a NaN, or both infinities), the infinity's
//! sign, or finite within an error bound; where a finite sum's partial sums may pass the type's
//! range in an order-dependent way (huge terms of both signs) any of those answers is accepted.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;
use shaped::{bf16, f16};

const INF32: f32 = f32::INFINITY;

fn same(got: f32, want: f32) -> bool {
    got == want || (got.is_nan() && want.is_nan())
}

#[test]
fn infinite_terms_give_infinite_sums() {
    let x = Tensor::from([INF32, 1.0]);
    assert_eq!(x.sum(), INF32, "sum [inf, 1]");
    assert_eq!(Tensor::from([1.0f32, f32::NEG_INFINITY, 2.0]).sum(), f32::NEG_INFINITY);
    assert_eq!(Tensor::from([f64::INFINITY, 1.0, 2.0]).sum(), f64::INFINITY);
    assert_eq!(x.mean(), INF32, "mean [inf, 1]");
    // Both infinities, or a NaN: NaN.
    assert!(Tensor::from([INF32, f32::NEG_INFINITY, 1.0]).sum().is_nan());
    assert!(Tensor::from([INF32, f32::NAN]).sum().is_nan());
}

#[test]
fn finite_overflow_gives_infinity() {
    assert_eq!(Tensor::from([3e38f32, 3e38]).sum(), INF32);
    assert_eq!(Tensor::from([-3e38f32, -3e38]).sum(), f32::NEG_INFINITY);
    assert_eq!(Tensor::from([1e308f64, 1e308]).sum(), f64::INFINITY);
    assert_eq!(Tensor::from([3e38f32, 3e38]).mean(), INF32);
}

#[test]
fn cumsum_keeps_infinities() {
    let c = Tensor::from([1.0f32, INF32, 1.0]).cumsum(Ax::<0>);
    assert_eq!(c.to_vec(), vec![1.0, INF32, INF32]);
    let c = Tensor::from([3e38f32, 3e38, 1.0]).cumsum(Ax::<0>);
    assert_eq!(c.to_vec(), vec![3e38, INF32, INF32]);
    let c = Tensor::from([1.0f64, f64::INFINITY, f64::NEG_INFINITY, 1.0]).cumsum(Ax::<0>).to_vec();
    assert_eq!(&c[..2], &[1.0, f64::INFINITY]);
    assert!(c[2].is_nan() && c[3].is_nan(), "{c:?}");
    // Along the leading axis of a matrix (a strided line).
    let m = Tensor::from([[1.0f32, 2.0], [INF32, 3.0], [1.0, 4.0]]).cumsum(Ax::<0>);
    assert_eq!(m.to_vec(), vec![1.0, 2.0, INF32, 5.0, INF32, 9.0]);
}

#[test]
fn norms_keep_infinities() {
    let x = Tensor::from([INF32, 1.0]);
    assert_eq!(x.norm(Norm::L1), INF32);
    assert_eq!(x.norm(Norm::L2), INF32);
    assert_eq!(Tensor::from([f32::NEG_INFINITY, 1.0]).norm(Norm::L1), INF32);
    // Squares past the range.
    assert_eq!(Tensor::from([1e38f32, 1e38]).norm(Norm::L2), INF32);
    assert!(Tensor::from([f32::NAN, INF32]).norm(Norm::L2).is_nan());
}

#[test]
fn logsumexp_keeps_infinities() {
    assert_eq!(Tensor::from([INF32, 0.0]).logsumexp(), INF32);
    assert_eq!(Tensor::from([INF32, f32::NEG_INFINITY]).logsumexp(), INF32);
    assert_eq!(Tensor::from([f32::NEG_INFINITY, f32::NEG_INFINITY]).logsumexp(), f32::NEG_INFINITY);
    assert!(Tensor::from([f32::NAN, INF32]).logsumexp().is_nan());
    let l = Tensor::from([[INF32, 0.0], [1.0, 1.0]]).logsumexp_axis(Ax::<1>).to_vec();
    assert_eq!(l[0], INF32);
    assert!((l[1] - (1.0 + 2f32.ln())).abs() < 1e-6);
}

#[test]
fn variance_follows_pytorch() {
    // An infinite element: NaN (PyTorch and NumPy).
    assert!(Tensor::from([INF32, 1.0]).var(1).is_nan());
    assert!(Tensor::from([INF32, 1.0]).std(0).is_nan());
    // Finite elements whose squared deviations pass the range: inf, not NaN.
    assert_eq!(Tensor::from([1e38f32, -1e38]).var(1), INF32);
    assert_eq!(Tensor::from([1e38f32, -1e38]).std(0), INF32);
    assert_eq!(Tensor::from([[1e38f32, 1.0], [-1e38, 1.0]]).var_axis(Ax::<0>, 1).to_vec(), vec![INF32, 0.0]);
    // Finite elements whose sum passes the range: the true variance (PyTorch's Welford update
    // gives 0; NumPy's two passes give inf).
    assert_eq!(Tensor::from([3e38f32, 3e38]).var(1), 0.0);
    assert_eq!(Tensor::from([3e38f32, 3e38, 3e38]).std(0), 0.0);
    assert_eq!(stensor([3e38f32, 3e38]).var(1), 0.0);
    let v = Tensor::from([[3e38f32, 1.0, 3e38], [3e38, 3.0, 2e38]]).var_axis(Ax::<0>, 1).to_vec();
    assert_eq!(v, vec![0.0, 2.0, INF32], "squared deviations past the range stay inf");
    assert_eq!(Tensor::from([3.0e38f32, 2.9e38, 3.0e38]).var(0), INF32, "the true variance, 2.2e73, is past f32");
    assert_eq!(Tensor::from([1.7e308f64, 1.7e308, 0.0]).var(0), f64::INFINITY, "the true variance is past f64");
    assert_eq!(Tensor::from([f64::MAX, f64::MAX]).var(0), 0.0);
    // With an infinite element as well: still NaN.
    assert!(Tensor::from([3e38f32, 3e38, INF32]).var(1).is_nan());
}

#[test]
fn axis_sums_keep_infinities_on_every_path() {
    let m = Tensor::from([[INF32, 1.0, 2.0], [1.0, 1.0, 3e38], [f32::NAN, 0.0, 3e38]]);
    let rows = m.sum_axis(Ax::<1>).to_vec();
    assert_eq!(&rows[..2], &[INF32, 3e38]);
    assert!(rows[2].is_nan());
    let cols = m.sum_axis(Ax::<0>).to_vec();
    assert!(cols[0].is_nan() && cols[1] == 2.0 && cols[2] == INF32, "{cols:?}");
    // Transposed views (memory-order walks) and runtime axes.
    let t = m.t();
    let tc = t.sum_axis(Ax::<0>).to_vec();
    assert!(tc.iter().zip(&rows).all(|(&a, &b)| same(a, b)), "{tc:?}");
    let tr = t.sum_axis(Ax::<1>).to_vec();
    assert!(tr.iter().zip(&cols).all(|(&a, &b)| same(a, b)), "{tr:?}");
    // A strided slice: every other column.
    let s = t!(m[.., ..;2]).sum_axis(Ax::<1>).to_vec();
    assert_eq!(&s[..2], &[INF32, 3e38]);
    assert!(s[2].is_nan());
    // Leading axis of a tall matrix: more than one block of 64 rows.
    let mut v = vec![1.0f32; 200 * 3];
    v[150 * 3] = INF32;
    v[10 * 3 + 1] = f32::NEG_INFINITY;
    v[190 * 3 + 2] = 3e38;
    v[191 * 3 + 2] = 3e38;
    let tall = Tensor::<f32, Shape![_, 3]>::from_vec(&[200, 3], v);
    assert_eq!(tall.sum_axis(Ax::<0>).to_vec(), vec![INF32, f32::NEG_INFINITY, INF32]);
    assert_eq!(tall.mean_axis(Ax::<0>).to_vec(), vec![INF32, f32::NEG_INFINITY, INF32]);
    let d = tall.clone().into_dyn();
    assert_eq!(d.sum_axis(0).to_vec(), vec![INF32, f32::NEG_INFINITY, INF32]);
    assert!(d.sum().is_nan(), "+inf and -inf");
}

#[test]
fn inline_and_dynamic_forms_keep_infinities() {
    let s = stensor([INF32, 1.0, 2.0]);
    assert_eq!(s.sum(), INF32);
    assert_eq!(s.mean(), INF32);
    assert_eq!(s.norm(Norm::L2), INF32);
    assert_eq!(stensor([3e38f32, 3e38]).sum(), INF32);
    assert_eq!(stensor([[INF32, 1.0], [1.0, 1.0]]).sum_axis(Ax::<0>).to_vec(), vec![INF32, 2.0]);
    let d = Tensor::<f32, DynShape>::from_vec(&[2, 2], vec![INF32, 1.0, 1.0, 1.0]);
    assert_eq!(d.sum(), INF32);
    assert_eq!(d.sum_axis(1).to_vec(), vec![INF32, 2.0]);
    assert_eq!(d.sum_axis(0).to_vec(), vec![INF32, 2.0]);
}

#[test]
fn half_sums_keep_infinities() {
    let h = Tensor::from([f16::INFINITY, f16::ONE]);
    assert_eq!(h.sum(), f16::INFINITY);
    assert_eq!(h.mean(), f16::INFINITY);
    let b = Tensor::from([bf16::INFINITY, bf16::ONE, bf16::ONE]);
    assert_eq!(b.sum(), bf16::INFINITY);
    // Past f16's range (65504) through the f32 accumulator.
    assert_eq!(Tensor::from([f16::from_f32(60000.0), f16::from_f32(60000.0)]).sum(), f16::INFINITY);
    assert!(Tensor::from([f16::INFINITY, f16::NEG_INFINITY]).sum().is_nan());
}

/// The rayon split of a long contiguous sum merges its chunks' sums: an infinity in one chunk, or
/// finite chunks whose total overflows, must come out as IEEE says.
#[test]
#[cfg_attr(miri, ignore)]
fn parallel_sums_keep_infinities() {
    let n = 1 << 20;
    let mut v = vec![1.0f32; n];
    v[700_000] = INF32;
    let x = Tensor::<f32, Shape![_]>::from_vec(&[n], v.clone());
    assert_eq!(x.sum(), INF32);
    assert_eq!(x.mean(), INF32);
    assert_eq!(x.norm(Norm::L1), INF32);
    v[900_000] = f32::NEG_INFINITY;
    assert!(Tensor::<f32, Shape![_]>::from_vec(&[n], v).sum().is_nan());
    // Finite chunk sums whose total overflows.
    let mut h = vec![0.0f32; n];
    h[1] = 2e38;
    h[n - 1] = 2e38;
    assert_eq!(Tensor::<f32, Shape![_]>::from_vec(&[n], h).sum(), INF32);
    // Rows of a wide matrix (one contiguous run per output, each split).
    let mut w = vec![0.5f32; 2 * n];
    w[n + 5] = INF32;
    let r = Tensor::<f32, Shape![2, _]>::from_vec(&[2, n], w).sum_axis(Ax::<1>).to_vec();
    assert_eq!(r, vec![0.5 * n as f32, INF32]);
}

/// NumPy's pairwise sum of 2e7 copies of `0.1f32` is 2000000.25 (relative error 1.3e-7 against
/// the exact 2000000.03); a sum whose error grows with `log n` stays within 2e-7.
#[test]
#[cfg_attr(miri, ignore)]
fn long_f32_sums_are_as_accurate_as_numpy() {
    let n = 20_000_000;
    let exact = n as f64 * 0.1f32 as f64;
    let x = Tensor::<f32, Shape![_]>::full_sized(&[n], 0.1);
    let bad = std::cell::RefCell::new(Vec::new());
    let check = |what: &str, s: f32| {
        let rel = (s as f64 - exact).abs() / exact;
        eprintln!("{what}: {s} (relative error {rel:.2e})");
        if rel >= 2e-7 {
            bad.borrow_mut().push(format!("{what}: {s}, relative error {rel:.2e}"));
        }
    };
    check("contiguous sum", x.sum());
    check("mean * n", x.mean() * n as f32);
    // One output of 2e7 rows through the leading-axis path, and through a strided view.
    check(
        "axis-0 sum of [2e7, 1]",
        Tensor::<f32, Shape![_, 1]>::full_sized(&[n, 1], 0.1).sum_axis(Ax::<0>).to_vec()[0],
    );
    let two = Tensor::<f32, Shape![_, 2]>::full_sized(&[n / 2, 2], 0.1);
    for (k, s) in two.sum_axis(Ax::<0>).to_vec().into_iter().enumerate() {
        check(&format!("axis-0 sum of [1e7, 2], column {k}"), s * 2.0);
    }
    let strided = t!(x[..;2]).sum();
    check("strided sum (every other)", strided * 2.0);
    let bad = bad.into_inner();
    assert!(bad.is_empty(), "{bad:#?}");
    // Without the parallel split: one chunk of 2^14 is the unit the split merges.
    let t = Tensor::<f32, Shape![_]>::full_sized(&[1 << 14], 0.1);
    let want = (1u32 << 14) as f64 * 0.1f32 as f64;
    let rel = (t.sum() as f64 - want).abs() / want;
    assert!(rel < 1.5e-7, "2^14 x 0.1f32: {} ({rel:.2e})", t.sum());
}

// ---------------------------------------------------------------------------------------------
// The IEEE model and the property tests.

/// A float element type as the model sees it.
trait F: Copy + Into<f64> + core::fmt::Debug {
    const TOP: f64;
    const EPS: f64;
    const HUGE: f64;
    /// The smallest positive (subnormal) value: results below the normal range are rounded to
    /// its multiples, an absolute error of up to half of it per rounding.
    const TINY: f64;
    fn of(x: f64) -> Self;
}
impl F for f32 {
    const TOP: f64 = f32::MAX as f64;
    const EPS: f64 = f32::EPSILON as f64;
    const HUGE: f64 = 1e38;
    const TINY: f64 = f32::MIN_POSITIVE as f64 * f32::EPSILON as f64;
    fn of(x: f64) -> f32 {
        x as f32
    }
}
impl F for f64 {
    const TOP: f64 = f64::MAX;
    const EPS: f64 = f64::EPSILON;
    const HUGE: f64 = 1e308;
    const TINY: f64 = f64::MIN_POSITIVE * f64::EPSILON;
    fn of(x: f64) -> f64 {
        x
    }
}

/// Values with +-inf, NaN, huge (a few of them overflow the type), tiny and ordinary ones.
fn value<T: F>() -> impl Strategy<Value = T> {
    prop_oneof![
        8 => (-1e3f64..1e3).prop_map(T::of),
        2 => prop_oneof![Just(1.0f64), Just(-1.0), Just(1.5)].prop_map(move |s| T::of(s * T::HUGE)),
        2 => prop_oneof![Just(1e-40f64), Just(-1e-40), Just(1e-310), Just(1e-30), Just(-0.0), Just(0.0)].prop_map(T::of),
        1 => Just(T::of(f64::INFINITY)),
        1 => Just(T::of(f64::NEG_INFINITY)),
        1 => Just(T::of(f64::NAN)),
    ]
}

/// What a reduction of some terms may return.
#[derive(Debug)]
enum Want {
    Nan,
    Inf(f64),
    /// That infinity or NaN.
    InfOrNan(f64),
    /// Finite, within `tol` of the value.
    Near(f64, f64),
    /// The value (within `tol`) or any non-finite result: partial sums may leave the range.
    Loose(f64, f64),
}

impl Want {
    fn check(&self, got: f64, what: &str) -> Result<(), TestCaseError> {
        let ok = match *self {
            Want::Nan => got.is_nan(),
            Want::Inf(s) => got == s,
            Want::InfOrNan(s) => got == s || got.is_nan(),
            Want::Near(v, tol) => got.is_finite() && (got - v).abs() <= tol,
            Want::Loose(v, tol) => !got.is_finite() || (got - v).abs() <= tol,
        };
        prop_assert!(ok, "{what}: got {got:e}, want {self:?}");
        Ok(())
    }
}

/// The IEEE sum of `xs` (of a type with largest value `max` and epsilon `eps`) in any order.
fn model_sum(xs: &[f64], max: f64, eps: f64) -> Want {
    let (pinf, ninf) = (xs.contains(&f64::INFINITY), xs.contains(&f64::NEG_INFINITY));
    if xs.iter().any(|x| x.is_nan()) || (pinf && ninf) {
        return Want::Nan;
    }
    // Scaled so that f64 inputs near f64::MAX do not overflow the model.
    let scale = 2f64.powi(-600);
    if pinf || ninf {
        let inf = if pinf { f64::INFINITY } else { f64::NEG_INFINITY };
        // Finite terms of the other sign whose partial sums may pass the range: NaN is then
        // possible (inf - inf), depending on the order.
        let other: f64 =
            xs.iter().filter(|x| x.is_finite() && x.signum() != inf.signum()).map(|x| x.abs() * scale).sum();
        if other >= max * scale * (1.0 - 1e-3) {
            return Want::InfOrNan(inf);
        }
        return Want::Inf(inf);
    }
    let a: f64 = xs.iter().map(|x| x.abs() * scale).sum::<f64>() / scale;
    let s: f64 = xs.iter().map(|x| x * scale).sum::<f64>() * (1.0 / scale);
    let s = if s.is_finite() { s } else { xs.iter().map(|x| x * scale).sum::<f64>().signum() * f64::INFINITY };
    let n = xs.len().max(1) as f64;
    let tol = (n + 2.0) * eps * a.min(f64::MAX) + 1e-300;
    let a_scaled: f64 = xs.iter().map(|x| x.abs() * scale).sum();
    if a_scaled < max * scale * (1.0 - 1e-3) {
        return Want::Near(s, tol);
    }
    let same_sign = xs.iter().all(|&x| x >= 0.0) || xs.iter().all(|&x| x <= 0.0);
    let s_scaled: f64 = xs.iter().map(|x| x * scale).sum();
    if same_sign && s_scaled.abs() > max * scale * (1.0 + 1e-3) {
        return Want::Inf(s_scaled.signum() * f64::INFINITY);
    }
    Want::Loose(s, tol)
}

/// The cumulative sums in order (the library's cumsum is sequential): a prefix past the range
/// becomes an infinity that stays.
fn model_cumsum(xs: &[f64], max: f64, eps: f64) -> Vec<Want> {
    (1..=xs.len())
        .map(|k| {
            let w = model_sum(&xs[..k], max, eps);
            match w {
                // Same-sign or not, a sequential prefix: the earlier prefixes decide. Loose stays.
                Want::Near(..) => {
                    // A later prefix can come back into range only after an earlier one left it.
                    let left = (1..k).any(|j| !matches!(model_sum(&xs[..j], max, eps), Want::Near(..)));
                    if left {
                        match model_sum(&xs[..k], max, eps) {
                            Want::Near(v, t) => Want::Loose(v, t),
                            o => o,
                        }
                    } else {
                        w
                    }
                }
                o => o,
            }
        })
        .collect()
}

fn widen<T: F>(v: &[T]) -> Vec<f64> {
    v.iter().map(|&x| x.into()).collect()
}

/// The checks for one element type `$t`: `$vec` for vectors, `$mat` for matrices.
macro_rules! checks {
    ($t:ty, $vec:ident, $mat:ident) => {
/// Every reduction of `v` against the model: whole, cumulative, norms, mean, logsumexp, var, on
/// the contiguous tensor and on a strided view of the same values.
fn $vec(v: Vec<$t>) -> Result<(), TestCaseError> {
    type T = $t;
    let n = v.len();
    let xs = widen(&v);
    let x = Tensor::<T, Shape![_]>::from_vec(&[n], v.clone());
    let mut padded = Vec::with_capacity(2 * n);
    for &e in &v {
        padded.extend([e, T::of(-7.0)]);
    }
    let p = Tensor::<T, Shape![_]>::from_vec(&[2 * n], padded);
    let sv = t!(p[..;2]);
    let want = model_sum(&xs, T::TOP, T::EPS);
    want.check(x.sum().into(), "sum")?;
    want.check(sv.sum().into(), "strided sum")?;
    want.check(x.clone().into_dyn().sum().into(), "dyn sum")?;
    if n > 0 {
        let m: f64 = x.mean().into();
        match &want {
            Want::Near(s, t) => Want::Near(s / n as f64, t / n as f64 + T::TINY).check(m, "mean")?,
            Want::Loose(s, t) => Want::Loose(s / n as f64, t / n as f64 + T::TINY).check(m, "mean")?,
            w => w.check(m, "mean")?,
        }
    }
    for (k, (w, got)) in model_cumsum(&xs, T::TOP, T::EPS).iter().zip(x.cumsum(Ax::<0>).to_vec()).enumerate() {
        w.check(got.into(), &format!("cumsum[{k}]"))?;
    }
    for (k, (w, got)) in model_cumsum(&xs, T::TOP, T::EPS).iter().zip(sv.cumsum(Ax::<0>).to_vec()).enumerate() {
        w.check(got.into(), &format!("strided cumsum[{k}]"))?;
    }
    let abs: Vec<f64> = xs.iter().map(|x| x.abs()).collect();
    model_sum(&abs, T::TOP, T::EPS).check(x.norm(Norm::L1).into(), "L1")?;
    model_sum(&abs, T::TOP, T::EPS).check(sv.norm(Norm::L1).into(), "strided L1")?;
    // The squares rounded to the type first (they may overflow or underflow there).
    let sq: Vec<f64> = v.iter().map(|&e| (e * e).into()).collect();
    let l2 = match model_sum(&sq, T::TOP, T::EPS) {
        Want::Near(s, t) => Want::Near(s.sqrt(), t.sqrt() + T::EPS * 4.0 * s.sqrt()),
        w @ (Want::Inf(_) | Want::InfOrNan(_) | Want::Nan) => w,
        Want::Loose(s, t) => Want::Loose(s.sqrt(), t.sqrt() + T::EPS * 4.0 * s.sqrt()),
    };
    l2.check(x.norm(Norm::L2).into(), "L2")?;
    l2.check(sv.norm(Norm::L2).into(), "strided L2")?;
    // logsumexp: NaN with a NaN, +inf with +inf, -inf without finite terms.
    let lse = if xs.iter().any(|x| x.is_nan()) {
        Want::Nan
    } else if xs.contains(&f64::INFINITY) {
        Want::Inf(f64::INFINITY)
    } else if xs.iter().all(|&x| x == f64::NEG_INFINITY) {
        Want::Inf(f64::NEG_INFINITY)
    } else {
        let m = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = xs.iter().map(|&x| (x - m).exp()).sum();
        let r = m + s.ln();
        Want::Near(r, 8.0 * n as f64 * T::EPS * (1.0 + r.abs()))
    };
    lse.check(x.logsumexp().into(), "logsumexp")?;
    lse.check(sv.logsumexp().into(), "strided logsumexp")?;
    // Variance (correction 0): NaN with any non-finite element; finite where nothing can leave
    // the range.
    if n > 0 {
        let var = if xs.iter().any(|x| !x.is_finite()) {
            Want::Nan
        } else {
            let mean = xs.iter().sum::<f64>() / n as f64;
            let dev: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
            let a: f64 = xs.iter().map(|x| x.abs()).sum();
            let sq: f64 = xs.iter().map(|x| x * x).sum();
            // Each squared deviation may underflow the type (1e-40^2 in f32 is 0): up to half
            // of TINY each, besides the rounding error of the sums.
            let tol = 4.0 * (n as f64 + 2.0) * T::EPS * (dev + sq * n as f64 * T::EPS) / n as f64
                + (n as f64 + 2.0) * T::TINY;
            if a < T::TOP * 0.5 && sq < T::TOP * 0.5 {
                Want::Near(dev / n as f64, tol)
            } else {
                Want::Loose(dev / n as f64, tol)
            }
        };
        var.check(x.var(0).into(), "var")?;
        var.check(sv.var(0).into(), "strided var")?;
    }
    Ok(())
}

/// Axis sums of an `[r, c]` matrix: contiguous, through a transposed view and a strided slice.
fn $mat(r: usize, c: usize, v: Vec<$t>) -> Result<(), TestCaseError> {
    type T = $t;
    let xs = widen(&v);
    let m = Tensor::<T, Shape![_, _]>::from_vec(&[r, c], v.clone());
    // The same values stored column-major, viewed back as [r, c].
    let mut cm = vec![T::of(0.0); r * c];
    for i in 0..r {
        for j in 0..c {
            cm[j * r + i] = v[i * c + j];
        }
    }
    let cmt = Tensor::<T, Shape![_, _]>::from_vec(&[c, r], cm);
    let tv = cmt.t();
    // Every other column of an [r, 2c] buffer.
    let mut wide = Vec::with_capacity(2 * r * c);
    for row in v.chunks(c) {
        for &e in row {
            wide.extend([e, T::of(f64::NAN)]);
        }
    }
    let w = Tensor::<T, Shape![_, _]>::from_vec(&[r, 2 * c], wide);
    let sv = t!(w[.., ..;2]);
    let row = |i: usize| xs[i * c..(i + 1) * c].to_vec();
    let col = |j: usize| (0..r).map(|i| xs[i * c + j]).collect::<Vec<_>>();
    for (what, got) in [("rows", m.sum_axis(Ax::<1>)), ("rows of t", tv.sum_axis(Ax::<1>)), ("rows strided", sv.sum_axis(Ax::<1>))]
    {
        for (i, g) in got.to_vec().into_iter().enumerate() {
            model_sum(&row(i), T::TOP, T::EPS).check(g.into(), &format!("{what}[{i}]"))?;
        }
    }
    for (what, got) in [("cols", m.sum_axis(Ax::<0>)), ("cols of t", tv.sum_axis(Ax::<0>)), ("cols strided", sv.sum_axis(Ax::<0>))]
    {
        for (j, g) in got.to_vec().into_iter().enumerate() {
            model_sum(&col(j), T::TOP, T::EPS).check(g.into(), &format!("{what}[{j}]"))?;
        }
    }
    for (j, g) in m.mean_axis(Ax::<0>).to_vec().into_iter().enumerate() {
        let g: f64 = g.into();
        match model_sum(&col(j), T::TOP, T::EPS) {
            Want::Near(s, t) => Want::Near(s / r as f64, t / r as f64 + T::TINY).check(g, "mean cols")?,
            Want::Loose(s, t) => Want::Loose(s / r as f64, t / r as f64 + T::TINY).check(g, "mean cols")?,
            w => w.check(g, "mean cols")?,
        }
    }
    for (what, got) in [("whole", m.sum()), ("whole of t", tv.sum()), ("whole strided", sv.sum())] {
        model_sum(&xs, T::TOP, T::EPS).check(got.into(), what)?;
    }
    Ok(())
}

    };
}
checks!(f32, check_vector_f32, check_matrix_f32);
checks!(f64, check_vector_f64, check_matrix_f64);

fn config() -> ProptestConfig {
    ProptestConfig { cases: common::cases(64, 3), failure_persistence: None, ..ProptestConfig::default() }
}

fn matrix<T: F>() -> impl Strategy<Value = (usize, usize, Vec<T>)> {
    (1usize..7, 1usize..7).prop_flat_map(|(r, c)| (Just(r), Just(c), prop::collection::vec(value::<T>(), r * c)))
}

/// Bitwise equality, any NaN equal to any NaN.
fn bits_eq(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

/// Every reduction of an inline `[4, 4]` and `[2, 3, 4]` along each axis (the small kernels' three
/// paths: trailing axes as slices, leading axes as rows of running values, middle axes at
/// constant strides) against the same reduction of a dynamic-shape tensor, bit for bit.
fn inline_matches_dynamic(v: &[f32]) -> Result<(), TestCaseError> {
    let s: STensor<f32, Shape![4, 4]> = STensor::from_fn(|[i, j]| v[i * 4 + j]);
    let d = Tensor::<f32, DynShape>::from_vec(&[4, 4], v[..16].to_vec());
    macro_rules! each_axis {
        ($s:ident, $d:ident, [$($a:literal),*]) => {$(
            for (what, got, want) in [
                ("sum", $s.sum_axis(Ax::<$a>).to_vec(), $d.sum_axis($a).to_vec()),
                ("mean", $s.mean_axis(Ax::<$a>).to_vec(), $d.mean_axis($a).to_vec()),
                ("prod", $s.prod_axis(Ax::<$a>).to_vec(), $d.prod_axis($a).to_vec()),
                ("max", $s.max_axis(Ax::<$a>).to_vec(), $d.max_axis($a).to_vec()),
                ("min", $s.min_axis(Ax::<$a>).to_vec(), $d.min_axis($a).to_vec()),
                ("var", $s.var_axis(Ax::<$a>, 1).to_vec(), $d.var_axis($a, 1).to_vec()),
                ("L2", $s.norm_axis(Ax::<$a>, Norm::L2).to_vec(), $d.norm_axis($a, Norm::L2).to_vec()),
            ] {
                prop_assert!(bits_eq(&got, &want), "{} axis {}: inline {:?}, dynamic {:?}", what, $a, got, want);
            }
            prop_assert_eq!($s.argmax_axis(Ax::<$a>).to_vec(), $d.argmax_axis($a).to_vec());
        )*};
    }
    each_axis!(s, d, [0, 1]);
    let s3: STensor<f32, Shape![2, 3, 4]> = STensor::from_fn(|[i, j, k]| v[i * 12 + j * 4 + k]);
    let d3 = Tensor::<f32, DynShape>::from_vec(&[2, 3, 4], v.to_vec());
    each_axis!(s3, d3, [0, 1, 2]);
    prop_assert!(bits_eq(&[s3.sum()], &[d3.sum()]));
    Ok(())
}

/// Empty static dims on either side of the reduced axis: no element is read, sums are 0 and
/// means NaN, as for a heap tensor.
#[test]
fn inline_reductions_of_empty_dims() {
    let a: STensor<f32, Shape![0, 4]> = STensor::zeros();
    assert_eq!(a.sum_axis(Ax::<0>).to_vec(), [0.0; 4]);
    assert!(a.mean_axis(Ax::<0>).to_vec().iter().all(|m| m.is_nan()));
    assert_eq!(a.sum_axis(Ax::<1>).to_vec(), Vec::<f32>::new());
    let b: STensor<f32, Shape![4, 0]> = STensor::zeros();
    assert_eq!(b.sum_axis(Ax::<0>).to_vec(), Vec::<f32>::new());
    assert_eq!(b.sum_axis(Ax::<1>).to_vec(), [0.0; 4]);
    let d = Tensor::<f32, DynShape>::zeros_sized(&[0, 4]);
    assert_eq!(d.sum_axis(0).to_vec(), a.sum_axis(Ax::<0>).to_vec());
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn f32_vectors_follow_ieee(v in prop::collection::vec(value::<f32>(), 0..40)) {
        check_vector_f32(v)?;
    }

    #[test]
    fn f64_vectors_follow_ieee(v in prop::collection::vec(value::<f64>(), 0..40)) {
        check_vector_f64(v)?;
    }

    #[test]
    fn f32_matrices_follow_ieee((r, c, v) in matrix::<f32>()) {
        check_matrix_f32(r, c, v)?;
    }

    #[test]
    fn f64_matrices_follow_ieee((r, c, v) in matrix::<f64>()) {
        check_matrix_f64(r, c, v)?;
    }
}

proptest! {
    // One case under Miri (the stack rows and the SSE row sums are the same code for any values;
    // three cases took 58 s of CI's Miri run), the suite's share natively.
    #![proptest_config(ProptestConfig { cases: common::cases(64, 1), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn inline_reductions_match_dynamic_ones(v in prop::collection::vec(value::<f32>(), 24)) {
        inline_matches_dynamic(&v)?;
    }
}
