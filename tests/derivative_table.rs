//! The derivative table (`tensor-core/src/num/derivatives.rs`): every entry in both modes, reverse
//! (`Var`) and forward (`Dual`), against each other and against central differences of the
//! tensor method, and the table's entries against this file's lists (an entry added to the
//! table without a test point here fails `every_entry_is_tested`).
use shaped::autograd::{Tape, Var};
use shaped::derivative::Dual;
use shaped::num::{Float, Real};
use shaped::prelude::*;

type D1 = Dual<f64, 1>;
/// A runtime-shaped vector.
type Vector = Tensor<f64, Shape![_]>;
/// A runtime-shaped `Var` on a tape of lifetime `'t`.
type VarVector<'t> = Var<'t, f64, Shape![_]>;

/// Test points of an entry: its domain away from kinks and poles.
fn points(name: &str) -> Vec<f64> {
    match name {
        "ln" | "log2" | "log10" | "sqrt" | "rsqrt" | "lgamma" | "digamma" => vec![0.2, 0.7, 1.3, 2.9, 7.5],
        "cbrt" => vec![-2.9, -0.7, 0.2, 1.3, 7.5],
        "ln_1p" => vec![-0.5, -0.1, 0.3, 1.1, 2.9],
        "asin" | "acos" | "atanh" | "erfinv" => vec![-0.9, -0.4, 0.1, 0.5, 0.85],
        "acosh" => vec![1.2, 1.7, 3.0, 10.0],
        "tan" => vec![-1.2, -0.4, 0.3, 1.1],
        "softplus" => vec![-2.3, -0.1, 1.1, 19.0, 25.0],
        _ => vec![-2.3, -0.7, -0.1, 0.3, 1.1, 2.9],
    }
}

/// IEEE's special points: both modes must give the same value (both NaN counts as the same).
const SPECIAL: [f64; 5] = [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];

/// `d/dx` of the tensor method at `x`, by the five-point stencil.
fn central(f: &dyn Fn(&Vector) -> Vector, x: f64) -> f64 {
    let h = 1e-4 * x.abs().max(1.0);
    let at = |t: f64| f(&Tensor::from_vec(&[1], vec![t])).to_vec()[0];
    (-at(x + 2.0 * h) + 8.0 * at(x + h) - 8.0 * at(x - h) + at(x - 2.0 * h)) / (12.0 * h)
}

/// `|a - b| <= tol max(1, |b|)`, or both NaN, or equal.
fn close(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * b.abs().max(1.0)
}

/// The reverse-mode derivative of `name` at each of `xs` (the gradient of the sum).
fn reverse(op: &dyn for<'t> Fn(&VarVector<'t>) -> VarVector<'t>, xs: &[f64]) -> Vec<f64> {
    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![_]>::from_vec(&[xs.len()], xs.to_vec()));
    let grads = op(&x).sum().backward();
    grads.wrt(&x).expect("the input is tracked").to_vec()
}

/// The tests of one mode: `(name, the tensor method, the mode's derivative at x)`.
type Entry = (&'static str, fn(&Tensor<f64, Shape![_]>) -> Tensor<f64, Shape![_]>);

macro_rules! reverse_entries {
    ($($name:ident)*) => {
        /// The entries reverse mode reads: `Var::name`.
        fn reverse_entries() -> Vec<(Entry, Box<dyn Fn(&[f64]) -> Vec<f64>>)> {
            vec![$(
                (
                    (stringify!($name), |t: &Tensor<f64, Shape![_]>| t.$name()),
                    Box::new(|xs: &[f64]| reverse(&|v| v.$name(), xs)),
                ),
            )*]
        }
    };
}
macro_rules! forward_entries {
    ($($name:ident)*) => {
        /// The entries forward mode reads: the `Float`/`Real` methods of `Dual`.
        fn forward_entries() -> Vec<(Entry, fn(f64) -> f64)> {
            vec![$(
                (
                    (stringify!($name), |t: &Tensor<f64, Shape![_]>| t.$name()),
                    |x: f64| D1::variable(x, 0).$name().eps[0],
                ),
            )*]
        }
    };
}

reverse_entries! {
    exp exp2 sqrt rsqrt recip tan tanh sigmoid relu ln log2 log10 ln_1p exp_m1 sin cos asin acos
    atan sinh cosh asinh acosh atanh square abs erf erfc gelu gelu_tanh silu softplus log_sigmoid
    softsign selu cbrt erfinv lgamma digamma to_degrees to_radians
}
forward_entries! {
    exp exp2 sqrt cbrt recip tan tanh erfinv ln log2 log10 ln_1p exp_m1 sin cos asin acos atan sinh
    cosh asinh acosh atanh abs erf erfc lgamma digamma to_degrees to_radians gelu gelu_tanh
}

/// The table's entry names, read from its source: each entry starts `name(X x)` or `name(Y y)`.
fn table_names() -> Vec<String> {
    let src = include_str!("../tensor-core/src/num/derivatives.rs");
    let body = &src[src.find("$cb! {\n").expect("the table")..];
    let mut names: Vec<String> = body
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let open = l.find("(X ").or_else(|| l.find("(Y "))?;
            let name = &l[..open];
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_').then(|| name.to_string())
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_entry_is_tested() {
    let mut tested: Vec<String> = reverse_entries()
        .iter()
        .map(|((n, _), _)| n.to_string())
        .chain(forward_entries().iter().map(|((n, _), _)| n.to_string()))
        .collect();
    tested.sort();
    tested.dedup();
    let table = table_names();
    assert_eq!(table.len(), 41, "{table:?}");
    assert_eq!(tested, table, "the table's entries and this file's lists differ");
}

#[test]
fn reverse_mode_matches_central_differences() {
    for ((name, f), d) in reverse_entries() {
        let xs = points(name);
        for (x, g) in xs.iter().zip(d(&xs)) {
            let c = central(&f, *x);
            assert!(close(g, c, 1e-7), "{name}'({x}): reverse {g}, central difference {c}");
        }
    }
}

#[test]
fn forward_mode_matches_central_differences() {
    for ((name, f), d) in forward_entries() {
        for x in points(name) {
            let (g, c) = (d(x), central(&f, x));
            assert!(close(g, c, 1e-7), "{name}'({x}): forward {g}, central difference {c}");
        }
    }
}

/// Where both modes have a function, they read one entry: equal to a few ulps at the test points
/// (the output-reading rules see the tensor kernel's `y` in reverse mode and the scalar method's
/// in forward mode), and the same value, NaN and infinities included, at ±0, ±inf and NaN.
#[test]
fn the_two_modes_agree() {
    let forward = forward_entries();
    let mut both = 0;
    for ((name, _), d) in reverse_entries() {
        let Some((_, fwd)) = forward.iter().find(|((n, _), _)| *n == name) else { continue };
        both += 1;
        let xs = points(name);
        for (x, g) in xs.iter().zip(d(&xs)) {
            let h = fwd(*x);
            assert!(close(g, h, 1e-14), "{name}'({x}): reverse {g}, forward {h}");
        }
        for (x, g) in SPECIAL.iter().zip(d(&SPECIAL)) {
            let h = fwd(*x);
            assert!(g == h || (g.is_nan() && h.is_nan()), "{name}'({x}): reverse {g}, forward {h}");
        }
    }
    assert_eq!(both, 32, "the functions both modes differentiate");
}

/// f32: both modes in the element type itself (no detour through f64 in the rules).
#[test]
fn the_two_modes_agree_in_f32() {
    let tape = Tape::new();
    let xs = [-0.7f32, 0.3, 0.9];
    let x = tape.var(Tensor::<f32, Shape![_]>::from_vec(&[3], xs.to_vec()));
    let grads = (x.sin() + x.gelu() + x.erf() + x.atan()).sum().backward();
    let g = grads.wrt(&x).unwrap().to_vec();
    for (x, g) in xs.iter().zip(g) {
        let d = Dual::<f32, 1>::variable(*x, 0);
        let h = (d.sin() + Real::gelu(d) + Real::erf(d) + d.atan()).eps[0];
        assert!((g - h).abs() <= 4.0 * f32::EPSILON * h.abs().max(1.0), "at {x}: reverse {g}, forward {h}");
    }
}

/// The two-input table (`binary_derivative_table!`): `Var`'s method of each entry against central
/// differences in each operand, and forward mode's (`powf`, `atan2`, `hypot`, `Num::max`/`min`)
/// against reverse mode's, at ties and NaN too; the entries against the table's source.
#[test]
fn two_input_entries_in_both_modes() {
    type F = for<'t> fn(&VarVector<'t>, &VarVector<'t>) -> VarVector<'t>;
    type T = fn(&Vector, &Vector) -> Vector;
    type Fw = fn(D1, D1) -> D1;
    /// `(name, Var's method, the tensor method, forward mode's function, test points)`.
    type Entry2 = (&'static str, F, T, Option<Fw>, &'static [(f64, f64)]);
    let entries: [Entry2; 7] = [
        ("maximum", |a, b| a.maximum(b), |a, b| a.maximum(b), Some(Num::max), &[(0.3, -1.2), (-0.4, 0.9)]),
        ("minimum", |a, b| a.minimum(b), |a, b| a.minimum(b), Some(Num::min), &[(0.3, -1.2), (-0.4, 0.9)]),
        ("pow", |a, b| a.pow(b), |a, b| a.pow(b), Some(|a, b| a.powf(b)), &[(0.7, 2.5), (1.9, -0.6), (3.0, 0.0)]),
        (
            "atan2",
            |a, b| a.atan2(b),
            |a, b| a.atan2(b),
            Some(|a, b| a.atan2(b)),
            &[(0.3, -1.2), (-2.0, 0.5), (1.0, 1.0)],
        ),
        ("hypot", |a, b| a.hypot(b), |a, b| a.hypot(b), Some(|a, b| a.hypot(b)), &[(0.3, -1.2), (-2.0, 0.5)]),
        (
            "logaddexp",
            |a, b| a.logaddexp(b),
            |a, b| a.logaddexp(b),
            None,
            &[(0.3, -1.2), (30.0, -4.0), (-700.0, -699.0)],
        ),
        ("copysign", |a, b| a.copysign(b), |a, b| a.copysign(b), None, &[(0.3, -1.2), (-2.0, 0.5), (-2.0, -0.5)]),
    ];
    let src = include_str!("../tensor-core/src/num/derivatives.rs");
    let body = &src[src.find("macro_rules! binary_derivative_table").expect("the two-input table")..];
    let listed = body.lines().filter(|l| l.starts_with("    ") && l.contains(" try_") && l.contains("(x, y)")).count();
    assert_eq!(listed, entries.len(), "an entry of the two-input table without a test here");
    let one = |v: f64| Tensor::<f64, Shape![_]>::from_vec(&[1], vec![v]);
    for (name, f, t, fw, pts) in entries {
        for &(x, y) in pts {
            let tape = Tape::new();
            let (a, b) = (tape.var(one(x)), tape.var(one(y)));
            let grads = f(&a, &b).sum().backward();
            let (ga, gb) = (grads.wrt(&a).unwrap().to_vec()[0], grads.wrt(&b).unwrap().to_vec()[0]);
            let ca = central(&|v: &Vector| t(v, &one(y)), x);
            let cb = central(&|v: &Vector| t(&one(x), v), y);
            assert!(close(ga, ca, 1e-7), "{name} d/dx at ({x}, {y}): reverse {ga}, central {ca}");
            assert!(close(gb, cb, 1e-7), "{name} d/dy at ({x}, {y}): reverse {gb}, central {cb}");
        }
        let Some(fw) = fw else { continue };
        let mut at = pts.to_vec();
        at.extend([(0.5, 0.5), (f64::NAN, 1.0), (1.0, f64::NAN), (0.0, -0.0)]);
        for (x, y) in at {
            let tape = Tape::new();
            let (a, b) = (tape.var(one(x)), tape.var(one(y)));
            let grads = f(&a, &b).sum().backward();
            let (ga, gb) = (grads.wrt(&a).unwrap().to_vec()[0], grads.wrt(&b).unwrap().to_vec()[0]);
            let (ha, hb) =
                (fw(D1::variable(x, 0), D1::constant(y)).eps[0], fw(D1::constant(x), D1::variable(y, 0)).eps[0]);
            assert!(close(ga, ha, 1e-14), "{name} d/dx at ({x}, {y}): reverse {ga}, forward {ha}");
            assert!(close(gb, hb, 1e-14), "{name} d/dy at ({x}, {y}): reverse {gb}, forward {hb}");
        }
    }
}
