//! Scale invariance of the square-matrix operations (issue 25): for `A` well conditioned and
//! `s = 2^k` or `10^k`, `inv(sA) = inv(A)/s`, `solve(sA, b) = solve(A, b)/s`, `det(sA) = sⁿ det(A)`
//! (±inf or 0 when that is not representable, as IEEE), `slogdet` shifted by `n ln s`, the rank
//! unchanged, and the decompositions, norms and spectra scaled as their definitions say, over the
//! whole exponent range where the result is representable. Orders 2, 3 and 4 (the closed forms)
//! through inline `STensor`s, static heap tensors and `DynShape` tensors; 6 (the direct
//! elimination) and 10 (faer) through `DynShape`. f32 and f64. Plus the issue's cases literally.
#![cfg(feature = "linalg")]
#![allow(clippy::type_complexity)]
mod common;
use proptest::prelude::*;
use shaped::prelude::*;
use shaped::STensor;

/// A result of an operation as `f64`: the scalars of static shapes and the 0-d tensors of
/// `DynShape` ones alike.
trait Item {
    type Out;
    fn it(self) -> Self::Out;
}
macro_rules! item {
    ($($t:ty => $o:ty),*) => {$(
        impl Item for $t {
            type Out = $o;
            fn it(self) -> $o {
                self as $o
            }
        }
        impl Item for Tensor<$t, DynShape> {
            type Out = $o;
            fn it(self) -> $o {
                self.item() as $o
            }
        }
    )*};
}
item!(f32 => f64, f64 => f64, usize => usize);

fn f64s<T: Into<f64>>(v: Vec<T>) -> Vec<f64> {
    v.into_iter().map(Into::into).collect()
}

/// Everything computed from one square matrix `a` and right side `b` (`[n]`).
#[derive(Debug, Clone)]
struct Res {
    inv: Option<Vec<f64>>,
    x: Option<Vec<f64>>,
    det: f64,
    sign: f64,
    logdet: f64,
    rank: usize,
    svals: Vec<f64>,
    eigvalsh: Vec<f64>,
    /// Eigenvalues of the general solver as (re, im), sorted.
    eigvals: Vec<(f64, f64)>,
    pinv: Vec<f64>,
    /// Frobenius, nuclear, spectral, 1 and inf norms.
    norms: Vec<f64>,
    chol: Option<Vec<f64>>,
    lu_u: Vec<f64>,
    qr_r: Vec<f64>,
    lstsq: Vec<f64>,
    power2: Vec<f64>,
    power_m1: Option<Vec<f64>>,
}

macro_rules! res {
    ($a:expr, $b:expr) => {{
        let (a, b) = (&$a, &$b);
        let (sign, logdet) = a.slogdet();
        let mut eigvals: Vec<(f64, f64)> = a.eigvals().to_vec().iter().map(|z| (z.re as f64, z.im as f64)).collect();
        eigvals.sort_by(|p, q| p.partial_cmp(q).unwrap());
        let norms = [MatrixNorm::Fro, MatrixNorm::Nuc, MatrixNorm::Spectral, MatrixNorm::L1, MatrixNorm::Inf];
        Res {
            inv: a.try_inv().ok().map(|t| f64s(t.to_vec())),
            x: a.try_solve(b).ok().map(|t| f64s(t.to_vec())),
            det: a.det().it(),
            sign: sign.it(),
            logdet: logdet.it(),
            rank: a.matrix_rank().it(),
            svals: f64s(a.svdvals().to_vec()),
            eigvalsh: f64s(a.eigvalsh().to_vec()),
            eigvals,
            pinv: f64s(a.pinv().to_vec()),
            norms: norms.iter().map(|&o| a.matrix_norm(o).it()).collect(),
            chol: a.try_cholesky().ok().map(|t| f64s(t.to_vec())),
            lu_u: f64s(a.lu().2.to_vec()),
            qr_r: f64s(a.qr().1.to_vec()),
            lstsq: f64s(a.lstsq(b).solution.to_vec()),
            power2: f64s(a.matrix_power(2).to_vec()),
            power_m1: a.try_matrix_power(-1).ok().map(|t| f64s(t.to_vec())),
        }
    }};
}

/// The element type's limits, as `f64`.
#[derive(Clone, Copy, Debug)]
struct Lim {
    eps: f64,
    min: f64,
    max: f64,
    /// The relative tolerance of the comparisons.
    tol: f64,
}
const F32: Lim = Lim { eps: f32::EPSILON as f64, min: f32::MIN_POSITIVE as f64, max: f32::MAX as f64, tol: 2e-4 };
const F64: Lim = Lim { eps: f64::EPSILON, min: f64::MIN_POSITIVE, max: f64::MAX, tol: 1e-10 };

impl Lim {
    /// Every nonzero element of `v` is a normal number with a margin of `1/ε` at either end, so
    /// that rounding in the results' own computation stays away from overflow and underflow.
    fn inside(&self, v: &[f64]) -> bool {
        v.iter().all(|&x| x == 0.0 || (x.abs() > self.min / self.eps && x.abs() < self.max * self.eps))
    }
}

/// `got` within `tol` of `want` relative to the largest `|want|` (0 vectors exactly).
#[track_caller]
fn close(got: &[f64], want: &[f64], tol: f64, what: &dyn Fn() -> String) {
    let scale = want.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    let ok = got.len() == want.len() && got.iter().zip(want).all(|(g, w)| (g - w).abs() <= tol * scale);
    assert!(ok, "{}:\n got  {got:?}\n want {want:?}", what());
}

fn scaled(v: &[f64], f: f64) -> Vec<f64> {
    v.iter().map(|x| x * f).collect()
}

/// Checks `r` (of `s·A`) against `base` (of `A`, order `n`), `ln s = ln_s`, for an element type
/// with limits `lim`; `what` names the case.
fn check(base: &Res, r: &Res, n: usize, s: f64, lim: Lim, what: &str) {
    let tol = lim.tol;
    let msg = |op: &str| {
        let what = what.to_string();
        let op = op.to_string();
        move || format!("{op} of {what}")
    };
    let ln_s = s.ln();
    // det: sⁿ det(A) when representable, else ±inf or (nearly) 0, as IEEE.
    let log_want = base.det.abs().ln() + n as f64 * ln_s;
    let (ln_max, ln_min) = (lim.max.ln(), lim.min.ln());
    if log_want > ln_max + 1e-6 {
        assert_eq!(r.det, base.det.signum() * f64::INFINITY, "{}", msg("det (overflows)")());
    } else if log_want < ln_min - 1e-6 {
        assert!(r.det.abs() <= lim.min, "{}: {}", msg("det (underflows)")(), r.det);
        assert!(r.det == 0.0 || r.det.signum() == base.det.signum(), "{}: {}", msg("det sign")(), r.det);
    } else if log_want < ln_max - 1e-3 && log_want > ln_min + 1e-3 {
        let want = base.det.signum() * log_want.exp();
        close(&[r.det], &[want], tol, &msg("det"));
    }
    // slogdet over the whole range.
    assert_eq!(r.sign, base.sign, "{}", msg("slogdet sign")());
    let lw = base.logdet + n as f64 * ln_s;
    assert!((r.logdet - lw).abs() <= tol * lw.abs().max(1.0) * 10.0, "{}: {} vs {lw}", msg("slogdet")(), r.logdet);
    // inv, solve, matrix_power(-1): representable results must come out, scaled.
    let inv_want = scaled(base.inv.as_ref().expect("A is invertible"), 1.0 / s);
    if lim.inside(&inv_want) && lim.inside(&[s, 1.0 / s]) {
        close(r.inv.as_ref().unwrap_or_else(|| panic!("{}: singular", msg("inv")())), &inv_want, tol, &msg("inv"));
        let x_want = scaled(base.x.as_ref().expect("A is invertible"), 1.0 / s);
        close(r.x.as_ref().unwrap_or_else(|| panic!("{}: singular", msg("solve")())), &x_want, tol, &msg("solve"));
        let p = r.power_m1.as_ref().unwrap_or_else(|| panic!("{}: singular", msg("matrix_power(-1)")()));
        close(p, &inv_want, tol, &msg("matrix_power(-1)"));
    }
    // The rest scale as s (or 1/s, s², √s) where s·A's elements and the results are normal.
    let a_ok = lim.inside(&scaled(&base.svals, s)) && lim.inside(&[s, 1.0 / s]);
    if a_ok && lim.inside(&inv_want) {
        assert_eq!(r.rank, base.rank, "{}", msg("matrix_rank")());
        close(&r.pinv, &inv_want, tol, &msg("pinv"));
        close(&r.lstsq, &scaled(base.x.as_ref().unwrap(), 1.0 / s), tol, &msg("lstsq"));
    }
    if a_ok {
        close(&r.svals, &scaled(&base.svals, s), tol, &msg("svdvals"));
        close(&r.eigvalsh, &scaled(&base.eigvalsh, s), tol, &msg("eigvalsh"));
        let ev: Vec<f64> = r.eigvals.iter().flat_map(|&(a, b)| [a, b]).collect();
        let ev_want: Vec<f64> = base.eigvals.iter().flat_map(|&(a, b)| [a * s, b * s]).collect();
        close(&ev, &ev_want, tol, &msg("eigvals"));
        close(&r.norms, &scaled(&base.norms, s), tol, &msg("matrix_norm"));
        close(&r.lu_u, &scaled(&base.lu_u, s), tol, &msg("lu's U"));
        close(&r.qr_r, &scaled(&base.qr_r, s), tol, &msg("qr's R"));
        if let Some(c) = &base.chol {
            let want = scaled(c, s.sqrt());
            close(
                r.chol.as_ref().unwrap_or_else(|| panic!("{}: failed", msg("cholesky")())),
                &want,
                tol,
                &msg("cholesky"),
            );
        }
    }
    let p2 = scaled(&base.power2, s * s);
    if lim.inside(&p2) && lim.inside(&[s * s]) {
        close(&r.power2, &p2, tol, &msg("matrix_power(2)"));
    }
}

/// `I + 0.1 · ones` (condition number about 1 + 0.1 n).
fn near_eye(n: usize) -> Vec<f64> {
    (0..n * n).map(|q| if q / n == q % n { 1.1 } else { 0.1 }).collect()
}

fn rhs(n: usize) -> Vec<f64> {
    (0..n).map(|i| i as f64 + 1.0).collect()
}

/// The scales of the sweep for an element type: powers of two and of ten across its normal
/// range (a few under Miri).
fn scales(lim: Lim) -> Vec<f64> {
    let (lo, hi) = (lim.min.log2().ceil() as i32, lim.max.log2().floor() as i32);
    if cfg!(miri) {
        return vec![2f64.powi(lo / 2), 1e-13, 1e30];
    }
    let step = if lim.max > 1e300 { 31 } else { 7 };
    let mut s: Vec<f64> = (lo..=hi).step_by(step).chain([lo, hi]).map(|k| 2f64.powi(k)).collect();
    let (lo10, hi10) = (lim.min.log10().ceil() as i32, lim.max.log10().floor() as i32);
    s.extend((lo10..=hi10).step_by(if lim.max > 1e300 { 13 } else { 3 }).chain([lo10, hi10]).map(|k| 10f64.powi(k)));
    s
}

/// Runs `f(s)` for each scale of [`scales`].
macro_rules! sweep {
    ($t:ty, $lim:expr, $n:tt, $a:expr, $what:expr) => {{
        let (a, lim): (&[f64], Lim) = ($a, $lim);
        // Under Miri (which checks the faer bridge's raw views, slowly): orders up to 3 only.
        let skip = cfg!(miri) && $n > 3;
        let b: Vec<$t> = rhs($n).iter().map(|&v| v as $t).collect();
        let at = |s: f64| -> Vec<$t> { a.iter().map(|&v| (v * s) as $t).collect() };
        let one = at(1.0);
        if !skip {
            let base_d = res!(Tensor::<$t, DynShape>::from_vec(&[$n, $n], one.clone()), Tensor::<$t, DynShape>::from_vec(&[$n], b.clone()));
            for s in scales(lim) {
                let sa = at(s);
                // Scales at which an element overflows are not the matrix scaled.
                if !s.is_finite() || sa.iter().any(|v| !v.is_finite()) {
                    continue;
                }
                // The matrix as scaled in the element type (10^k rounds): its own scale.
                let what = format!("{} {}x{} scaled by {s:e}", $what, $n, $n);
                let d = res!(Tensor::<$t, DynShape>::from_vec(&[$n, $n], sa.clone()), Tensor::<$t, DynShape>::from_vec(&[$n], b.clone()));
                check(&base_d, &d, $n, s, lim, &format!("DynShape {what}"));
                sweep!(@static $t, $n, one, sa, b, s, lim, what);
            }
        }
    }};
    (@static $t:ty, 6, $one:ident, $sa:ident, $b:ident, $s:ident, $lim:ident, $what:ident) => {};
    (@static $t:ty, 10, $one:ident, $sa:ident, $b:ident, $s:ident, $lim:ident, $what:ident) => {};
    (@static $t:ty, $n:tt, $one:ident, $sa:ident, $b:ident, $s:ident, $lim:ident, $what:ident) => {{
        type Sq = Shape![$n, $n];
        type V = Shape![$n];
        let st = |v: &[$t]| STensor::<$t, Sq>::from_fn(|[i, j]| v[i * $n + j]);
        let bs = STensor::<$t, V>::from_fn(|[i]| $b[i]);
        check(&res!(st(&$one), bs), &res!(st(&$sa), bs), $n, $s, $lim, &format!("STensor {}", $what));
        let ht = |v: &[$t]| Tensor::<$t, Sq>::from_vec(&[$n, $n], v.to_vec());
        let bh = Tensor::<$t, V>::from_vec(&[$n], $b.clone());
        check(&res!(ht(&$one), bh), &res!(ht(&$sa), bh), $n, $s, $lim, &format!("static Tensor {}", $what));
    }};
}

macro_rules! sweep_tests {
    ($($name:ident: $t:ty, $lim:expr, $n:tt;)*) => {$(
        #[test]
        fn $name() {
            sweep!($t, $lim, $n, &near_eye($n), "I + 0.1 ones");
        }
    )*};
}
sweep_tests! {
    near_eye_2_f32: f32, F32, 2;
    near_eye_3_f32: f32, F32, 3;
    near_eye_4_f32: f32, F32, 4;
    near_eye_6_f32: f32, F32, 6;
    near_eye_10_f32: f32, F32, 10;
    near_eye_2_f64: f64, F64, 2;
    near_eye_3_f64: f64, F64, 3;
    near_eye_4_f64: f64, F64, 4;
    near_eye_6_f64: f64, F64, 6;
    near_eye_10_f64: f64, F64, 10;
}

/// A well-conditioned matrix: off-diagonal elements in (-1, 1), diagonal `n` plus one in
/// (-1, 1) (strictly diagonally dominant, condition number below about 2n); symmetric, so that
/// `eigvalsh` (which reads the lower triangle) and `cholesky` see the same matrix.
fn dominant(n: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1.0f64..1.0, n * n).prop_map(move |v| {
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                a[i * n + j] = if i == j { n as f64 + v[i * n + i] } else { v[i.min(j) * n + i.max(j)] };
            }
        }
        a
    })
}

macro_rules! prop_tests {
    ($($name:ident: $t:ty, $lim:expr, $n:tt;)*) => {$(
        proptest! {
            #![proptest_config(ProptestConfig { cases: common::cases(4, 1), failure_persistence: None, ..ProptestConfig::default() })]
            #[test]
            fn $name(a in dominant($n)) {
                sweep!($t, $lim, $n, &a, "a dominant matrix");
            }
        }
    )*};
}
prop_tests! {
    dominant_2_f32: f32, F32, 2;
    dominant_3_f32: f32, F32, 3;
    dominant_4_f32: f32, F32, 4;
    dominant_6_f64: f64, F64, 6;
    dominant_2_f64: f64, F64, 2;
    dominant_3_f64: f64, F64, 3;
    dominant_4_f64: f64, F64, 4;
    dominant_10_f64: f64, F64, 10;
}

// The issue's cases, literally.

#[test]
fn huge_diagonal_2x2_f64_inverts() {
    let a = Tensor::<f64, Shape![2, 2]>::from([[1e200, 0.], [0., 1e200]]);
    let inv = a.try_inv().expect("well conditioned").to_vec();
    close(&inv, &[1e-200, 0., 0., 1e-200], 1e-15, &|| "inv of 1e200 I".into());
    assert_eq!(a.det(), f64::INFINITY);
}

#[test]
fn tiny_identity_f32_inverts() {
    for n in [2usize, 3, 4] {
        let a = Tensor::<f32, DynShape>::from_vec(
            &[n, n],
            near_eye(n).iter().map(|&v| if v > 1.0 { 1e-30 } else { 0. }).collect(),
        );
        let inv = a.try_inv().unwrap_or_else(|e| panic!("{n}x{n}: {e}")).to_vec();
        assert!(inv.iter().enumerate().all(|(q, &v)| v == if q / n == q % n { 1e30 } else { 0. }), "{n}x{n}: {inv:?}");
    }
}

#[test]
fn huge_identity_4x4_inverts() {
    let a = STensor::<f64, Shape![4, 4]>::eye() * 1e200;
    let inv = a.try_inv().expect("well conditioned").to_vec();
    let want: Vec<f64> = (0..16).map(|q| if q / 4 == q % 4 { 1e-200 } else { 0. }).collect();
    close(&inv, &want, 1e-15, &|| "inv of 1e200 I".into());
}

#[test]
fn tiny_identity_3x3_inline_f32_is_finite() {
    let a = STensor::<f32, Shape![3, 3]>::eye() * 1e-13;
    let inv = a.try_inv().expect("well conditioned").to_vec();
    let want = 1.0 / 1e-13f32;
    assert!(inv.iter().enumerate().all(|(q, &v)| v == if q / 3 == q % 3 { want } else { 0. }), "{inv:?}");
    // det 1e-39 is subnormal in f32: representable, and the closed form must not flush it.
    let d = a.det();
    assert!((d / 1e-39 - 1.0).abs() < 1e-3, "{d}");
}

/// `s (I + 0.1 ones)` at the scales the issue lists: 4x4 f32 beyond 1e±10, 3x3 beyond 1e±13,
/// 2x2 beyond 1e±20, 4x4 f64 beyond 1e±80.
#[test]
fn near_eye_at_the_issue_scales_inverts() {
    fn go<T: Copy + Into<f64>>(n: usize, s: f64, conv: fn(f64) -> T, inv: impl Fn(&[T]) -> Option<Vec<T>>) {
        let base: Vec<f64> = {
            // inv(I + 0.1 J) = I - 0.1 / (1 + 0.1 n) J
            let c = 0.1 / (1.0 + 0.1 * n as f64);
            (0..n * n).map(|q| if q / n == q % n { 1.0 - c } else { -c }).collect()
        };
        let a: Vec<T> = near_eye(n).iter().map(|&v| conv(v * s)).collect();
        let got = inv(&a).unwrap_or_else(|| panic!("{n}x{n} at {s:e}: singular"));
        let got = f64s(got);
        let want = scaled(&base, 1.0 / s);
        close(&got, &want, 1e-5, &|| format!("{n}x{n} at {s:e}"));
    }
    let inv32 = |n: usize| {
        move |a: &[f32]| Tensor::<f32, DynShape>::from_vec(&[n, n], a.to_vec()).try_inv().ok().map(|t| t.to_vec())
    };
    let inv64 = |n: usize| {
        move |a: &[f64]| Tensor::<f64, DynShape>::from_vec(&[n, n], a.to_vec()).try_inv().ok().map(|t| t.to_vec())
    };
    for (n, e) in [(4, 11), (3, 14), (2, 21)] {
        for s in [10f64.powi(e), 10f64.powi(-e)] {
            go(n, s, |v| v as f32, inv32(n));
        }
    }
    for s in [1e81, 1e-81] {
        go(4, s, |v| v, inv64(4));
    }
}

/// A 10x10 integer matrix with row 7 equal to row 2 (NumPy's `rng.integers(-9, 10, (10, 10))`
/// with seed 2): NumPy 2.4.6's `det` is 0.0 and `slogdet` (0.0, -inf), as LAPACK's `getrf` meets
/// an exactly zero pivot.
#[rustfmt::skip]
const SINGULAR_10: [[f64; 10]; 10] = [
    [6., -5., -7., -4., -2., 6., -1., -8., -3., 2.], [6., 4., 9., -6., 7., -8., 1., -4., -6., 3.],
    [-4., 1., -5., -7., 5., -1., 3., 3., 8., -1.], [-5., 3., 8., 9., 7., 3., -2., -2., -9., -6.],
    [-3., -3., 2., 0., 4., 7., 7., 5., 9., -3.], [8., 8., -5., -1., 1., 4., 4., -7., 0., -8.],
    [9., -6., -1., 7., 0., 3., 0., 7., 2., 3.], [-4., 1., -5., -7., 5., -1., 3., 3., 8., -1.],
    [0., 7., -1., 2., -8., 6., -1., 0., -8., 4.], [3., -3., 5., 0., -8., -5., -5., -8., 0., -9.],
];

#[test]
#[cfg_attr(miri, ignore = "10x10 through faer: slow under Miri, the same code as the 3x3 cases")]
fn singular_10x10_det_is_zero() {
    let a = Tensor::<f64, Shape![10, 10]>::from(SINGULAR_10);
    assert_eq!(a.det(), 0.0);
    assert_eq!(a.slogdet(), (0.0, f64::NEG_INFINITY));
    let d = Tensor::<f64, DynShape>::from_vec(&[10, 10], SINGULAR_10.iter().flatten().copied().collect());
    assert_eq!(d.det().item(), 0.0);
    let (s, l) = d.slogdet();
    assert_eq!((s.item(), l.item()), (0.0, f64::NEG_INFINITY));
    assert_eq!(d.matrix_rank().item(), 9);
}

/// faer's SVD loses accuracy near the bottom of the exponent range: `pinv` of a well-conditioned
/// 6x6 at 2^-957 was off in the second digit before the bridge scaled the matrix first.
#[test]
#[cfg_attr(miri, ignore = "6x6 through faer: slow under Miri, the same code as the 3x3 cases")]
fn pinv_near_underflow_is_the_inverse() {
    let s = 2f64.powi(-957);
    let a: Vec<f64> = near_eye(6).iter().map(|v| v * s).collect();
    let c = 0.1 / 1.6;
    let want: Vec<f64> = (0..36).map(|q| if q / 6 == q % 6 { 1.0 - c } else { -c } / s).collect();
    let p = Tensor::<f64, DynShape>::from_vec(&[6, 6], a.clone()).pinv().to_vec();
    close(&p, &want, 1e-12, &|| "pinv of 2^-957 (I + 0.1 ones)".into());
    let sv = Tensor::<f64, DynShape>::from_vec(&[6, 6], a).svdvals().to_vec();
    close(&sv, &[1.6 * s, s, s, s, s, s], 1e-12, &|| "svdvals of 2^-957 (I + 0.1 ones)".into());
}
