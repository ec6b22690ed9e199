//! Forward-mode derivatives of small functions (issue 38): `Dual` through the tensor methods,
//! `jacobian`, `gradient`, `hessian` against analytic derivatives, PyTorch's `torch.func`
//! values (tests/data/jacobian_data.rs, from scripts/jacobian_data.py) and a proptest of every
//! element-wise function's derivative.
// Closures typed with their dual tensors (the point of the API); `&a / &b` on views.
#![allow(clippy::type_complexity, clippy::op_ref)]
use proptest::prelude::*;
use shaped::derivative::{gradient, hessian, jacobian, Dual, Dual2Of, DualOf};
use shaped::num::Float;
use shaped::prelude::*;

type D1 = Dual<f64, 1>;

/// `|a - b| <= tol * max(1, |b|)`, and equal infinities / both NaN.
fn close(a: f64, b: f64, tol: f64) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[track_caller]
fn assert_close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        assert!(close(x, y, tol), "element {i}: {x} vs {y} (all: {a:?} vs {b:?})");
    }
}

/// One element-wise tensor method on a 1-element dual tensor seeded at `x`: (value, derivative).
fn unary(x: f64, f: impl Fn(&STensor<D1, Shape![1]>) -> STensor<D1, Shape![1]>) -> (f64, f64) {
    let t: STensor<D1, Shape![1]> = STensor::full(D1::variable(x, 0));
    let y = f(&t).to_vec()[0];
    (y.re, y.eps[0])
}

/// Every element-wise float method: (name, tensor method on duals, plain tensor method, analytic
/// derivative, domain [lo, hi]).
type Case = (
    &'static str,
    fn(&STensor<D1, Shape![1]>) -> STensor<D1, Shape![1]>,
    fn(&STensor<f64, Shape![1]>) -> STensor<f64, Shape![1]>,
    fn(f64) -> f64,
    (f64, f64),
);

fn pdf(x: f64) -> f64 {
    (-x * x / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt()
}
fn erf(x: f64) -> f64 {
    STensor::<f64, Shape![1]>::full(x).erf().to_vec()[0]
}
fn erfinv(x: f64) -> f64 {
    STensor::<f64, Shape![1]>::full(x).erfinv().to_vec()[0]
}
fn digamma(x: f64) -> f64 {
    STensor::<f64, Shape![1]>::full(x).digamma().to_vec()[0]
}
/// Trigamma by its series Σ 1/(x+k)², summed to k = 10⁶ with the tail 1/(x + 10⁶) (x > 0).
fn trigamma_series(x: f64) -> f64 {
    let n = 1_000_000;
    (0..n).rev().map(|k| 1.0 / ((x + k as f64) * (x + k as f64))).sum::<f64>() + 1.0 / (x + n as f64)
}

macro_rules! cases {
    ($($name:ident, |$x:ident| $d:expr, ($lo:expr, $hi:expr);)*) => {
        vec![$((stringify!($name), (|t: &STensor<D1, Shape![1]>| t.$name()) as fn(&STensor<D1, Shape![1]>) -> STensor<D1, Shape![1]>,
                (|t: &STensor<f64, Shape![1]>| t.$name()) as fn(&STensor<f64, Shape![1]>) -> STensor<f64, Shape![1]>,
                (|$x: f64| $d) as fn(f64) -> f64, ($lo, $hi)),)*]
    };
}

fn all_cases() -> Vec<Case> {
    use std::f64::consts::{LN_10, LN_2, PI};
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let _ = sig;
    cases! {
        exp, |x| x.exp(), (-20.0, 20.0);
        exp2, |x| x.exp2() * LN_2, (-20.0, 20.0);
        ln, |x| 1.0 / x, (1e-3, 1e3);
        log2, |x| 1.0 / (x * LN_2), (1e-3, 1e3);
        log10, |x| 1.0 / (x * LN_10), (1e-3, 1e3);
        ln_1p, |x| 1.0 / (1.0 + x), (-0.9, 1e3);
        exp_m1, |x| x.exp(), (-20.0, 20.0);
        sqrt, |x| 0.5 / x.sqrt(), (1e-3, 1e3);
        cbrt, |x| 1.0 / (3.0 * x.cbrt().powi(2)), (0.01, 1e3);
        sin, |x| x.cos(), (-10.0, 10.0);
        cos, |x| -x.sin(), (-10.0, 10.0);
        tan, |x| 1.0 / x.cos().powi(2), (-1.4, 1.4);
        asin, |x| 1.0 / (1.0 - x * x).sqrt(), (-0.99, 0.99);
        acos, |x| -1.0 / (1.0 - x * x).sqrt(), (-0.99, 0.99);
        atan, |x| 1.0 / (1.0 + x * x), (-10.0, 10.0);
        sinh, |x| x.cosh(), (-10.0, 10.0);
        cosh, |x| x.sinh(), (-10.0, 10.0);
        tanh, |x| 1.0 - x.tanh().powi(2), (-10.0, 10.0);
        floor, |_x| 0.0, (-10.0, 10.0);
        ceil, |_x| 0.0, (-10.0, 10.0);
        round, |_x| 0.0, (-10.0, 10.0);
        trunc, |_x| 0.0, (-10.0, 10.0);
        fract, |_x| 1.0, (-10.0, 10.0);
        recip, |x| -1.0 / (x * x), (0.01, 100.0);
        sigmoid, |x| { let s = 1.0 / (1.0 + (-x).exp()); s * (1.0 - s) }, (-30.0, 30.0);
        gelu, |x| 0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2)) + x * pdf(x), (-10.0, 10.0);
        // d/dx 0.5 x (1 + tanh u), u = √(2/π)(x + 0.044715 x³).
        gelu_tanh, |x| {
            let k = (2.0 / std::f64::consts::PI).sqrt();
            let t = (k * (x + 0.044715 * x * x * x)).tanh();
            0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x)
        }, (-10.0, 10.0);
        silu, |x| { let s = 1.0 / (1.0 + (-x).exp()); s * (1.0 + x * (1.0 - s)) }, (-30.0, 30.0);
        asinh, |x| 1.0 / (x * x + 1.0).sqrt(), (-10.0, 10.0);
        acosh, |x| 1.0 / (x * x - 1.0).sqrt(), (1.01, 100.0);
        atanh, |x| 1.0 / (1.0 - x * x), (-0.99, 0.99);
        erf, |x| 2.0 / PI.sqrt() * (-x * x).exp(), (-5.0, 5.0);
        erfc, |x| -2.0 / PI.sqrt() * (-x * x).exp(), (-5.0, 5.0);
        lgamma, |x| digamma(x), (0.1, 50.0);
        digamma, |x| trigamma_series(x), (0.5, 50.0);
        erfinv, |x| PI.sqrt() / 2.0 * erfinv(x).powi(2).exp(), (-0.99, 0.99);
        rsqrt, |x| -0.5 * x.powf(-1.5), (0.01, 100.0);
        square, |x| 2.0 * x, (-100.0, 100.0);
        to_radians, |_x| PI / 180.0, (-100.0, 100.0);
        to_degrees, |_x| 180.0 / PI, (-100.0, 100.0);
        log_sigmoid, |x| 1.0 - 1.0 / (1.0 + (-x).exp()), (-30.0, 30.0);
        softsign, |x| 1.0 / (1.0 + x.abs()).powi(2), (-10.0, 10.0);
        selu, |x| 1.0507009873554805 * if x > 0.0 { 1.0 } else { 1.6732632423543772 * x.exp() }, (-10.0, 10.0);
        softplus, |x| if x > 20.0 { 1.0 } else { 1.0 / (1.0 + (-x).exp()) }, (-30.0, 30.0);
        abs, |x| x.signum(), (-10.0, 10.0);
        relu, |x| if x > 0.0 { 1.0 } else { 0.0 }, (-10.0, 10.0);
        signum, |_x| 0.0, (-10.0, 10.0);
    }
}

/// The functions whose f32/f64 tensor methods take a vectorised kernel (feature `simd`): their
/// dual values come from the scalar functions, within 2 ulp of the vectorised ones.
const VECTORISED: [&str; 12] =
    ["exp", "ln", "sin", "cos", "tanh", "sigmoid", "silu", "softplus", "erf", "erfc", "gelu", "gelu_tanh"];

/// The dual's value against the plain tensor method's: bitwise, or within 4 ulp for the
/// vectorised functions (each side within 2 ulp of the correctly rounded value: at
/// `tanh(-0.4710346789737052)` the std `tanh` the dual calls is 2 ulp above it, by mpmath, and
/// the vectorised kernel 1 below, 3 apart).
fn same_value(name: &str, v: f64, plain: f64) -> bool {
    if v.to_bits() == plain.to_bits() || (v.is_nan() && plain.is_nan()) {
        return true;
    }
    VECTORISED.contains(&name) && v.is_finite() && (v.to_bits() as i64 - plain.to_bits() as i64).abs() <= 4
}

#[test]
fn every_elementwise_function_has_its_analytic_derivative() {
    for (name, fd, fp, d, (lo, hi)) in all_cases() {
        for k in 0..=40 {
            let x = lo + (hi - lo) * k as f64 / 40.0;
            if matches!(name, "floor" | "ceil" | "round" | "trunc" | "fract" | "abs" | "relu" | "signum")
                && x == x.round()
            {
                continue;
            }
            let (v, dv) = unary(x, fd);
            let plain = fp(&STensor::full(x)).to_vec()[0];
            assert!(same_value(name, v, plain), "{name}({x}): value {v} vs plain {plain}");
            let tol = if name == "digamma" { 1e-9 } else { 1e-12 };
            assert!(close(dv, d(x), tol), "{name}'({x}) = {dv}, analytic {}", d(x));
        }
    }
}

/// Non-finite, huge and tiny inputs: the value is the plain function's bit for bit.
#[test]
fn values_of_special_inputs_are_the_plain_values() {
    let xs =
        [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e308, -1e308, 5e-324, -5e-324, 1e-300, 710.0, -745.0];
    for (name, fd, fp, _, _) in all_cases() {
        for &x in &xs {
            let (v, _) = unary(x, fd);
            let plain = fp(&STensor::full(x)).to_vec()[0];
            assert!(same_value(name, v, plain), "{name}({x}): {v} vs {plain}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Each function's dual derivative equals its analytic derivative at random points of its
    /// domain, and its value equals the plain value bitwise.
    #[test]
    fn prop_elementwise_derivatives(u in 0.0f64..1.0) {
        for (name, fd, fp, d, (lo, hi)) in all_cases() {
            let x = lo + (hi - lo) * u;
            let (v, dv) = unary(x, fd);
            let plain = fp(&STensor::full(x)).to_vec()[0];
            prop_assert!(same_value(name, v, plain), "{}({}): {} vs {}", name, x, v, plain);
            let tol = if name == "digamma" { 1e-9 } else { 1e-12 };
            prop_assert!(close(dv, d(x), tol), "{}'({}) = {}, analytic {}", name, x, dv, d(x));
        }
    }

    /// The binary functions: both partial derivatives against the analytic ones.
    #[test]
    fn prop_binary_derivatives(a in 0.1f64..5.0, b in -3.0f64..3.0) {
        type D2 = Dual<f64, 2>;
        let x: STensor<D2, Shape![1]> = STensor::full(D2::variable(a, 0));
        let y: STensor<D2, Shape![1]> = STensor::full(D2::variable(b, 1));
        let get = |t: STensor<D2, Shape![1]>| t.to_vec()[0];
        let p = get(x.pow(&y));
        prop_assert!(close(p.eps[0], b * a.powf(b - 1.0), 1e-12) && close(p.eps[1], a.powf(b) * a.ln(), 1e-12));
        let t = get(x.atan2(&y));
        let r = a * a + b * b;
        prop_assert!(close(t.eps[0], b / r, 1e-12) && close(t.eps[1], -a / r, 1e-12));
        let h = get(x.hypot(&y));
        prop_assert!(close(h.eps[0], a / r.sqrt(), 1e-12) && close(h.eps[1], b / r.sqrt(), 1e-12));
        let l = get(x.logaddexp(&y));
        let s = 1.0 / (1.0 + (b - a).exp());
        prop_assert!(close(l.eps[0], s, 1e-12) && close(l.eps[1], 1.0 - s, 1e-12));
        let q = get(&x / &y);
        prop_assert!(close(q.eps[0], 1.0 / b, 1e-12) && close(q.eps[1], -a / (b * b), 1e-12));
        // Values bitwise as the plain functions.
        let (xa, yb) = (STensor::<f64, Shape![1]>::full(a), STensor::<f64, Shape![1]>::full(b));
        prop_assert_eq!(p.re.to_bits(), xa.pow(&yb).to_vec()[0].to_bits());
        prop_assert_eq!(t.re.to_bits(), xa.atan2(&yb).to_vec()[0].to_bits());
        prop_assert_eq!(h.re.to_bits(), xa.hypot(&yb).to_vec()[0].to_bits());
    }
}

#[test]
fn powf_with_a_constant_exponent_of_a_negative_base() {
    let (_, d) = unary(-2.0, |t| t.powi(3));
    assert_eq!(d, 12.0);
    let (v, d) = unary(-2.0, |t| t.powf(Dual::constant(2.0)));
    assert_eq!((v, d), (4.0, -4.0));
}

#[test]
fn jacobian_of_a_vector_function() {
    // f(x, y, z) = (x y, sin z, x + y²): J = [[y, x, 0], [0, 0, cos z], [1, 2y, 0]].
    let f = |v: &STensor<DualOf<f64, Shape![3]>, Shape![3]>| {
        let [x, y, z] = *v.as_array();
        stensor([x * y, z.sin(), x + y * y])
    };
    let (val, j) = jacobian(f, &stensor([2.0, 3.0, 0.5]));
    assert_eq!(val.to_vec(), [6.0, 0.5f64.sin(), 11.0]);
    let j: STensor<f64, Shape![3, 3]> = j;
    assert_eq!(j.to_vec(), [3.0, 2.0, 0.0, 0.0, 0.0, 0.5f64.cos(), 1.0, 6.0, 0.0]);
}

#[test]
fn matrix_inputs_and_outputs_flatten_row_major() {
    // f(A) = A Aᵀ for A: [2, 3] -> [2, 2]; J: [4, 6]; d(AAᵀ)_ij / dA_kl = δ_ik A_jl + δ_jk A_il.
    let a = stensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    let (y, j) = jacobian(|a: &STensor<DualOf<f64, Shape![2, 3]>, Shape![2, 3]>| a.matmul(&a.t()), &a);
    let j: STensor<f64, Shape![4, 6]> = j;
    assert_eq!(y.to_vec(), a.matmul(&a.t()).to_vec());
    let av = a.to_vec();
    let mut want = vec![0.0; 24];
    for i in 0..2 {
        for jj in 0..2 {
            for k in 0..2 {
                for l in 0..3 {
                    let mut d = 0.0;
                    if i == k {
                        d += av[jj * 3 + l];
                    }
                    if jj == k {
                        d += av[i * 3 + l];
                    }
                    want[(i * 2 + jj) * 6 + k * 3 + l] = d;
                }
            }
        }
    }
    assert_eq!(j.to_vec(), want);
}

#[test]
fn derivatives_through_inv_det_solve_and_views() {
    // d det(A) / dA = det(A) A⁻ᵀ (Jacobi's formula).
    let a = stensor([[2.0, 1.0, 0.5], [0.3, 3.0, 1.0], [0.2, 0.4, 4.0]]);
    let (d, g) = gradient(|m: &STensor<DualOf<f64, Shape![3, 3]>, Shape![3, 3]>| m.det(), &a);
    let want = (a.inv().t().to_owned() * d).to_vec();
    assert_close(&g.to_vec(), &want, 1e-12);
    // x = A⁻¹ b: dx/db = A⁻¹.
    let (x, j) = jacobian(
        |b: &STensor<DualOf<f64, Shape![3]>, Shape![3]>| a.map(Dual::constant).solve(b),
        &stensor([1.0, 2.0, 3.0]),
    );
    assert_close(&x.to_vec(), &a.solve(&stensor([1.0, 2.0, 3.0])).to_vec(), 1e-14);
    assert_close(&j.to_vec(), &a.inv().to_vec(), 1e-14);
    // A view through t!: the derivative of the sum of a column is 1 on that column.
    let (_, g) = gradient(|m: &STensor<DualOf<f64, Shape![3, 3]>, Shape![3, 3]>| t!(m[.., 1]).sum(), &a);
    assert_eq!(g.to_vec(), [0., 1., 0., 0., 1., 0., 0., 1., 0.]);
    // mean, max, norm.
    let (_, g) = gradient(|m: &STensor<DualOf<f64, Shape![3, 3]>, Shape![3, 3]>| m.mean() + m.max(), &a);
    let mut want = [1.0 / 9.0; 9];
    want[8] += 1.0;
    assert_close(&g.to_vec(), &want, 1e-15);
}

#[test]
fn gradient_and_hessian_of_a_scalar_function() {
    // Rosenbrock: f = (1 - x)² + 100 (y - x²)².
    let x0 = stensor([-1.2, 1.0]);
    let (v, g, h) = hessian(
        |v: &STensor<Dual2Of<f64, Shape![2]>, Shape![2]>| {
            let [x, y] = *v.as_array();
            let one = Dual::constant(Dual::constant(1.0));
            (one - x).powi(2) + (y - x * x).powi(2) * Dual::constant(100.0)
        },
        &x0,
    );
    let (x, y) = (-1.2f64, 1.0f64);
    assert_close(&[v], &[(1.0 - x).powi(2) + 100.0 * (y - x * x).powi(2)], 1e-15);
    assert_close(&g.to_vec(), &[-2.0 * (1.0 - x) - 400.0 * x * (y - x * x), 200.0 * (y - x * x)], 1e-14);
    let h: STensor<f64, Shape![2, 2]> = h;
    assert_close(&h.to_vec(), &[2.0 - 400.0 * (y - x * x) + 800.0 * x * x, -400.0 * x, -400.0 * x, 200.0], 1e-14);
    // gradient agrees with hessian's gradient.
    let (v1, g1) = gradient(
        |v: &STensor<DualOf<f64, Shape![2]>, Shape![2]>| {
            let [x, y] = *v.as_array();
            (Dual::constant(1.0) - x).powi(2) + (y - x * x).powi(2) * 100.0
        },
        &x0,
    );
    assert_eq!((v1, g1.to_vec()), (v, g.to_vec()));
}

#[test]
fn hessian_of_special_functions_uses_second_derivatives() {
    // f(x) = lgamma(x0) + erf(x1) + gelu(x2): diagonal Hessian trigamma, -2x erf', gelu''.
    let x0 = stensor([2.5, 0.3, -0.7]);
    let (_, _, h) = hessian(
        |v: &STensor<Dual2Of<f64, Shape![3]>, Shape![3]>| {
            let [a, b, c] = *v.as_array();
            let s = |x| STensor::<Dual2Of<f64, Shape![3]>, Shape![1]>::full(x);
            s(a).lgamma().sum() + s(b).erf().sum() + s(c).gelu().sum()
        },
        &x0,
    );
    let h = h.to_vec();
    let (b, c) = (0.3f64, -0.7f64);
    let erf2 = -2.0 * b * 2.0 / std::f64::consts::PI.sqrt() * (-b * b).exp();
    let gelu2 = 2.0 * pdf(c) - c * c * pdf(c);
    assert!(close(h[0], trigamma_series(2.5), 1e-9), "{}", h[0]);
    assert!(close(h[4], erf2, 1e-13) && close(h[8], gelu2, 1e-13), "{h:?}");
    assert_eq!([h[1], h[2], h[3], h[5], h[6], h[7]], [0.0; 6]);
}

#[test]
fn f32_duals() {
    let (v, j) = jacobian(|x: &STensor<DualOf<f32, Shape![2]>, Shape![2]>| x.exp() * x, &stensor([1.0f32, 2.0]));
    assert_eq!(v.to_vec(), (stensor([1.0f32, 2.0]).exp() * stensor([1.0f32, 2.0])).to_vec());
    let e = [1f32.exp() * 2.0, 2f32.exp() * 3.0];
    let j = j.to_vec();
    assert!((j[0] - e[0]).abs() < 1e-6 && (j[3] - e[1]).abs() < 1e-5 && j[1] == 0.0 && j[2] == 0.0);
}

#[path = "data/jacobian_data.rs"]
mod data;

type V6 = STensor<DualOf<f64, Shape![6]>, Shape![6]>;

/// The element-wise function `op` on a 6-element dual tensor (the names of tests/data).
fn unary6(op: &str, x: &V6) -> V6 {
    macro_rules! pick {
        ($($m:ident)*) => {
            match op {
                $(stringify!($m) => x.$m(),)*
                other => panic!("no function {other}"),
            }
        };
    }
    pick!(exp exp2 ln log2 log10 ln_1p exp_m1 sqrt sin cos tan asin acos atan sinh cosh tanh recip sigmoid gelu gelu_tanh silu
          asinh acosh atanh erf erfc lgamma digamma erfinv rsqrt square to_radians to_degrees log_sigmoid softsign selu
          softplus abs relu fract floor)
}

#[test]
fn elementwise_jacobians_match_pytorch_jacrev() {
    for c in data::UNARY {
        let x: STensor<f64, Shape![6]> = STensor::new(c.x.try_into().unwrap());
        let (y, j) = jacobian(|v: &V6| unary6(c.op, v), &x);
        assert_close(&y.to_vec(), c.y, 1e-12);
        // PyTorch's trigamma (digamma's derivative) is good to about 1e-10 (its asymptotic series
        // starts at x >= 6 with three terms); shaped's agrees with mpmath to 1e-14 (below).
        let tol = if c.op == "digamma" { 1e-9 } else { 1e-12 };
        let j = j.to_vec();
        for (k, (&a, &b)) in j.iter().zip(c.jac).enumerate() {
            assert!(close(a, b, tol), "{} jacobian[{k}]: {a} vs torch {b}", c.op);
        }
    }
}

/// The functions of tests/data's FUNCS, each through `jacobian`: (value, Jacobian), flattened.
fn func(name: &str, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    type X23 = STensor<DualOf<f64, Shape![2, 3]>, Shape![2, 3]>;
    let x23 = || STensor::<f64, Shape![2, 3]>::from_fn(|[i, j]| x[i * 3 + j]);
    let out = |(y, j): (Vec<f64>, Vec<f64>)| (y, j);
    match name {
        "pow" | "atan2" | "hypot" | "logaddexp" | "div" => {
            let (y, j) = jacobian(
                |v: &X23| {
                    let (a, b) = (t!(v[0, ..]), t!(v[1, ..]));
                    match name {
                        "pow" => a.pow(&b),
                        "atan2" => a.atan2(&b),
                        "hypot" => a.hypot(&b),
                        "logaddexp" => a.logaddexp(&b),
                        _ => &a / &b,
                    }
                    .to_inline()
                },
                &x23(),
            );
            let _: STensor<f64, Shape![3, 6]> = j;
            out((y.to_vec(), j.to_vec()))
        }
        "arm" => {
            let (y, j) = jacobian(
                |q: &STensor<DualOf<f64, Shape![3]>, Shape![3]>| {
                    let [a, b, c] = *q.as_array();
                    let (ab, abc) = (a + b, a + b + c);
                    stensor([
                        a.cos() + ab.cos() * 0.8 + abc.cos() * 0.3,
                        a.sin() + ab.sin() * 0.8 + abc.sin() * 0.3,
                        abc,
                    ])
                },
                &STensor::new(x.try_into().unwrap()),
            );
            out((y.to_vec(), j.to_vec()))
        }
        "aat" => {
            let (y, j) = jacobian(|a: &X23| a.matmul(&a.t()), &x23());
            out((y.to_vec(), j.to_vec()))
        }
        "softmax" => {
            let (y, j) = jacobian(
                |v: &STensor<DualOf<f64, Shape![5]>, Shape![5]>| v.softmax(Ax::<0>),
                &STensor::new(x.try_into().unwrap()),
            );
            out((y.to_vec(), j.to_vec()))
        }
        "inv" => {
            let (y, j) = jacobian(
                |m: &STensor<DualOf<f64, Shape![3, 3]>, Shape![3, 3]>| m.inv(),
                &STensor::<f64, Shape![3, 3]>::from_fn(|[i, j]| x[i * 3 + j]),
            );
            let _: STensor<f64, Shape![9, 9]> = j;
            out((y.to_vec(), j.to_vec()))
        }
        "mix6" => {
            let (y, j) = jacobian(mix6::<DualOf<f64, Shape![6]>>, &STensor::new(x.try_into().unwrap()));
            out((y.to_vec(), j.to_vec()))
        }
        other => panic!("no function {other}"),
    }
}

/// The 6 -> 6 function of the fixtures (and of benches/jacobian.rs), over any float element.
fn mix6<E: shaped::derivative::Real>(v: &STensor<E, Shape![6]>) -> STensor<E, Shape![6]> {
    let [a, b, c, d, e, f] = *v.as_array();
    let one = E::ONE;
    let s = |x: E| STensor::<E, Shape![1]>::full(x);
    let gelu_b = s(b).gelu().sum();
    let erf_c = s(c).erf().sum();
    let lg = (s(f) + s(E::cst(3.0))).lgamma().sum();
    stensor([a * b + c.sin(), d.exp() / (one + e * e), f.atan2(a), gelu_b * erf_c, d.hypot(e) + lg, v.sum().tanh()])
}

#[test]
fn digamma_derivative_matches_mpmath() {
    for &(x, want) in data::TRIGAMMA {
        let (_, d) = unary(x, |t| t.digamma());
        assert!(close(d, want, 1e-14), "trigamma({x}) = {d}, mpmath {want}");
    }
}

#[test]
fn jacobians_match_pytorch_jacrev() {
    for c in data::FUNCS {
        let (y, j) = func(c.name, c.x);
        assert_close(&y, c.y, 1e-12);
        assert_eq!(j.len(), c.jac.len(), "{}", c.name);
        for (k, (&a, &b)) in j.iter().zip(c.jac).enumerate() {
            assert!(close(a, b, 1e-12), "{} jacobian[{k}]: {a} vs torch {b}", c.name);
        }
    }
}

#[test]
fn hessians_match_pytorch() {
    for c in data::HESS {
        let (v, g, h) = match c.name {
            "rosenbrock" => {
                let (v, g, h) = hessian(
                    |v: &STensor<Dual2Of<f64, Shape![4]>, Shape![4]>| {
                        let (a, b) = (t!(v[..3]), t!(v[1..]));
                        let one =
                            STensor::<Dual2Of<f64, Shape![4]>, Shape![3]>::full(Dual::constant(Dual::constant(1.0)));
                        let hundred = Dual::constant(Dual::constant(100.0));
                        ((&one - &a).square() + (&b - &a.square()).square() * hundred).sum()
                    },
                    &STensor::new(c.x.try_into().unwrap()),
                );
                (v, g.to_vec(), h.to_vec())
            }
            "special" => {
                let (v, g, h) = hessian(
                    |v: &STensor<Dual2Of<f64, Shape![4]>, Shape![4]>| {
                        type E = Dual2Of<f64, Shape![4]>;
                        let [a, b, c, d] = *v.as_array();
                        let s = |x: E| STensor::<E, Shape![1]>::full(x);
                        let three = E::from(Dual::constant(3.0));
                        (v.gelu() * v.erf()).sum() + a * b * s(c + three).lgamma().sum() + d.atan2(a + three)
                    },
                    &STensor::new(c.x.try_into().unwrap()),
                );
                (v, g.to_vec(), h.to_vec())
            }
            "six" => {
                let (v, g, h) = hessian(
                    |v: &STensor<Dual2Of<f64, Shape![6]>, Shape![6]>| {
                        let [a, _, _, _, _, f] = *v.as_array();
                        let h = a.hypot(f);
                        v.logsumexp() + (t!(v[..3]) * t!(v[3..]).sin()).sum() + h * h * h
                    },
                    &STensor::new(c.x.try_into().unwrap()),
                );
                (v, g.to_vec(), h.to_vec())
            }
            other => panic!("no function {other}"),
        };
        assert!(close(v, c.value, 1e-12), "{}: value {v} vs {}", c.name, c.value);
        assert_close(&g, c.grad, 1e-12);
        // "special" has lgamma'' = trigamma, PyTorch's to about 1e-10 (see the digamma test).
        let tol = if c.name == "special" { 1e-9 } else { 1e-12 };
        for (k, (&a, &b)) in h.iter().zip(c.hess).enumerate() {
            assert!(close(a, b, tol), "{} hessian[{k}]: {a} vs torch {b}", c.name);
        }
    }
}
