//! The derivative of every differentiable element-wise function of one input, written once
//! (PyTorch's `derivatives.yaml` is the model: the formula once, both modes generated from it).
//!
//! Each entry is a function of the operand its rule reads, the input `X(x)` or the output
//! `Y(y)`, that returns the [`Rule`] of the incoming derivative `g`: `g f'(x)` as PyTorch's
//! backward formula writes it, a product (`g cos x` for `sin`), a quotient (`g / x` for `ln`, not
//! `g * x⁻¹`, so that a tiny `x` with a tiny `g` stays finite in reverse mode) or a branch
//! (`relu`). Both modes call the same entry:
//! - **reverse mode** (`autograd/ops.rs`, `Var::sin` ...): `g` is the output's gradient, element by
//!   element (`rule_x`/`rule_y`, which hand the entry `X(x)` or `Y(y)`: naming the wrong operand
//!   is a type error);
//! - **forward mode** ([`Dual`](super::Dual)): `g` is each of the `N` tangents; the entry (`cos x`
//!   for `sin`) is computed once per value, and a quotient's `1 / d` once (the reciprocal form the
//!   dual numbers used before the table: one division per value, not one per tangent).
//!
//! `tests/derivative_table.rs` runs every entry in both modes against each other (to a few ulps)
//! and against central differences, and fails when an entry is added here without a test point.
use super::real::Real;
use core::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI, LN_10, LN_2, PI};

/// The input `x` of an element-wise function: the operand of a rule that reads it.
#[derive(Clone, Copy)]
pub(crate) struct X<T>(pub(crate) T);
/// The output `y = f(x)`: the operand of a rule that reads it (`exp`'s derivative is `y`).
#[derive(Clone, Copy)]
pub(crate) struct Y<T>(pub(crate) T);

/// Picks an entry's operand from the input and the output (forward mode has both).
pub(crate) trait Operand<T> {
    /// `X(x)` or `Y(y)`.
    fn of(x: T, y: T) -> Self;
}
impl<T> Operand<T> for X<T> {
    #[inline(always)]
    fn of(x: T, _y: T) -> Self {
        X(x)
    }
}
impl<T> Operand<T> for Y<T> {
    #[inline(always)]
    fn of(_x: T, y: T) -> Self {
        Y(y)
    }
}

/// An entry's rule of the incoming derivative `g` (a gradient in reverse mode, a tangent in
/// forward mode).
#[derive(Clone, Copy)]
pub(crate) enum Rule<T, F> {
    /// `g * s`.
    Scale(T),
    /// `g / d`, as PyTorch's backward formula divides (`grad / self` for `log`): reverse mode
    /// divides each gradient, so that a tiny `d` with a tiny `g` stays finite; forward mode
    /// multiplies its tangents by `1 / d`, computed once per value (one division instead of one
    /// per tangent).
    Divide(T),
    /// `f(g)`, for a rule that is not a product (a branch on the operand, as `relu`'s, whose
    /// gradient at a NaN input passes `g` unchanged).
    Map(F),
}

impl<T: Real, F: Fn(T) -> T> Rule<T, F> {
    /// The rule applied to one gradient `g` (reverse mode).
    #[inline(always)]
    pub(crate) fn apply(&self, g: T) -> T {
        match self {
            Rule::Scale(s) => g * *s,
            Rule::Divide(d) => g / *d,
            Rule::Map(f) => f(g),
        }
    }
}

/// [`Rule::Scale`].
#[inline(always)]
fn scale<T>(s: T) -> Rule<T, fn(T) -> T> {
    Rule::Scale(s)
}
/// [`Rule::Divide`].
#[inline(always)]
fn divide<T>(d: T) -> Rule<T, fn(T) -> T> {
    Rule::Divide(d)
}
/// [`Rule::Map`].
#[inline(always)]
fn map<T, F: Fn(T) -> T + Copy>(f: F) -> Rule<T, F> {
    Rule::Map(f)
}

/// Each entry: `name(X x)` or `name(Y y)`, optional `let`s, then the rule (`scale(..)`,
/// `divide(..)` or `map(|g| ..)`). Generates `pub(crate) fn name<T: Real>(X(x): X<T>) -> Rule<..>`.
macro_rules! table {
    ($(
        $(#[$doc:meta])*
        $name:ident($op:ident $v:ident) $torch:literal $(let $l:ident = $le:expr;)* => $e:expr;
    )*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name<T: Real>($op($v): $op<T>) -> Rule<T, impl Fn(T) -> T + Copy> {
            $(let $l = $le;)*
            $e
        }
    )*};
}

/// The table itself, handed to `$cb!`: `table!` writes the rule functions from it and
/// `autograd/ops.rs` writes `Var`'s method of every entry (`derivative_table!(var_unary)`), so
/// that one entry gives the derivative to both modes and the method to `Var`. Each entry is
/// `name(X x)` or `name(Y y)`, the PyTorch name, optional `let`s, then the rule.
macro_rules! derivative_table {
    ($cb:ident) => {
$cb! {
    // ---- rules of the output y
    /// `eˣ`: `g y`.
    exp(Y y) "exp" => scale(y);
    /// `2ˣ`: `g y ln 2`.
    exp2(Y y) "exp2" => scale(y * T::cst(LN_2));
    /// `√x`: `g / (2 y)`.
    sqrt(Y y) "sqrt" => divide(y + y);
    /// `∛x`: `g / (3 y²)`.
    cbrt(Y y) "pow(x, 1/3)" => divide(T::cst(3.0) * y * y);
    /// `1 / √x`: `-g y³ / 2`.
    rsqrt(Y y) "rsqrt" => scale(T::cst(-0.5) * (y * y * y));
    /// `1 / x`: `-g y²`.
    recip(Y y) "reciprocal" => scale(-(y * y));
    /// `tan x`: `g (1 + y²)`.
    tan(Y y) "tan" => scale(T::one() + y * y);
    /// `tanh x`: `g (1 - y²)`.
    tanh(Y y) "tanh" => scale(T::one() - y * y);
    /// `σ(x)`: `g y (1 - y)`.
    sigmoid(Y y) "sigmoid" => scale(y * (T::one() - y));
    /// `max(x, 0)`: `g` where the output is above 0, NaN included, and 0 elsewhere (PyTorch's
    /// `threshold_backward(grad, result, 0)`: a NaN input passes the gradient).
    relu(Y y) "relu" => map(move |g: T| if y <= T::zero() { T::zero() } else { g });
    /// `erfinv x`: `g √π/2 e^(y²)`.
    erfinv(Y y) "erfinv" => scale(T::cst(0.5 * 1.772_453_850_905_516) * (y * y).exp());

    // ---- rules of the input x
    /// `ln x`: `g / x`.
    ln(X x) "log" => divide(x);
    /// `log₂ x`: `g / (x ln 2)`.
    log2(X x) "log2" => divide(x * T::cst(LN_2));
    /// `log₁₀ x`: `g / (x ln 10)`.
    log10(X x) "log10" => divide(x * T::cst(LN_10));
    /// `ln(1 + x)`: `g / (x + 1)`.
    ln_1p(X x) "log1p" => divide(x + T::one());
    /// `eˣ - 1`: `g eˣ`.
    exp_m1(X x) "expm1" => scale(x.exp());
    /// `sin x`: `g cos x`.
    sin(X x) "sin" => scale(x.cos());
    /// `cos x`: `-g sin x`.
    cos(X x) "cos" => scale(-x.sin());
    /// `asin x`: `g / √(1 - x²)`.
    asin(X x) "asin" => divide((T::one() - x * x).sqrt());
    /// `acos x`: `-g / √(1 - x²)`.
    acos(X x) "acos" => divide(-(T::one() - x * x).sqrt());
    /// `atan x`: `g / (1 + x²)`.
    atan(X x) "atan" => divide(T::one() + x * x);
    /// `sinh x`: `g cosh x`.
    sinh(X x) "sinh" => scale(x.cosh());
    /// `cosh x`: `g sinh x`.
    cosh(X x) "cosh" => scale(x.sinh());
    /// `asinh x`: `g / √(x² + 1)`.
    asinh(X x) "asinh" => divide((x * x + T::one()).sqrt());
    /// `acosh x`: `g / √(x² - 1)`.
    acosh(X x) "acosh" => divide((x * x - T::one()).sqrt());
    /// `atanh x`: `g / (1 - x²)`.
    atanh(X x) "atanh" => divide(T::one() - x * x);
    /// `x²`: `2 g x`.
    square(X x) "square" => scale(x + x);
    /// `|x|`: `g sgn(x)`, 0 at ±0 and at NaN (PyTorch's `sgn(NaN)` is 0 there).
    abs(X x) "abs" => map(move |g: T| if x > T::zero() { g } else if x < T::zero() { -g } else { T::zero() * g });
    /// `erf x`: `g 2/√π e^(-x²)`.
    erf(X x) "erf" => scale(T::cst(FRAC_2_SQRT_PI) * (-(x * x)).exp());
    /// `erfc x`: `-g 2/√π e^(-x²)`.
    erfc(X x) "erfc" => scale(-(T::cst(FRAC_2_SQRT_PI) * (-(x * x)).exp()));
    /// `ln |Γ(x)|`: `g ψ(x)`.
    lgamma(X x) "lgamma" => scale(x.digamma());
    /// `ψ(x)`: `g ψ'(x)`.
    digamma(X x) "digamma" => scale(x.polygamma(1));
    /// Degrees from radians: `g 180/π`.
    to_degrees(X _x) "rad2deg" => scale(T::cst(180.0 / PI));
    /// Radians from degrees: `g π/180`.
    to_radians(X _x) "deg2rad" => scale(T::cst(PI / 180.0));
    /// GELU `x Φ(x)`: `g (Φ(x) + x φ(x))` with PyTorch's `Φ(x) = (1 + erf(x/√2)) / 2`.
    gelu(X x) "nn.functional.gelu"
        let cdf = T::cst(0.5) * (T::one() + (x * T::cst(FRAC_1_SQRT_2)).erf());
        let pdf = (T::cst(-0.5) * x * x).exp() * T::cst(0.398_942_280_401_432_7);
        => scale(cdf + x * pdf);
    /// GELU's tanh form `x (1 + tanh(u)) / 2`, `u = √(2/π) (x + 0.044715 x³)`: PyTorch's
    /// `gelu_backward(approximate='tanh')`.
    gelu_tanh(X x) "nn.functional.gelu(approximate='tanh')"
        let th = (T::cst(0.797_884_560_802_865_4) * (x + T::cst(0.044715) * x * x * x)).tanh();
        let du = T::cst(0.797_884_560_802_865_4) * (T::one() + T::cst(3.0 * 0.044715) * x * x);
        => scale(T::cst(0.5) * (T::one() + th) + T::cst(0.5) * x * (T::one() - th * th) * du);
    /// SiLU `x σ(x)`: `g σ (1 + x (1 - σ))`.
    silu(X x) "nn.functional.silu"
        let s = T::one() / (T::one() + (-x).exp());
        => scale(s * (T::one() + x * (T::one() - s)));
    /// Softplus, linear above 20 as the forward and PyTorch's threshold: `g σ(x)`.
    softplus(X x) "nn.functional.softplus"
        let z = x.exp();
        => if x > T::cst(20.0) { scale(T::one()) } else { scale(z / (z + T::one())) };
    /// `ln σ(x)`: `g / (1 + eˣ)`.
    log_sigmoid(X x) "nn.functional.logsigmoid" => divide(T::one() + x.exp());
    /// Softsign `x / (1 + |x|)`: `g / (1 + |x|)²`.
    softsign(X x) "nn.functional.softsign" let d = T::one() + x.abs(); => divide(d * d);
    /// SELU: PyTorch's `elu_backward` with SELU's constants, the linear branch unless `x <= 0`,
    /// so a NaN input gets the scale 1.0507, as PyTorch's.
    selu(X x) "nn.functional.selu"
        => scale(if x <= T::zero() {
            T::cst(1.050_700_987_355_480_5 * 1.673_263_242_354_377_2) * x.exp()
        } else {
            T::cst(1.050_700_987_355_480_5)
        });
}
    };
}
pub(crate) use derivative_table;

derivative_table!(table);

/// Each entry: `name try_name(x, y)` (the `Var` methods' names), the PyTorch name, optional `let`s, then the partial derivatives
/// `(∂f/∂x, ∂f/∂y)` at `(x, y)`. Generates `pub(crate) fn name<T: Real>(x: T, y: T) -> (T, T)`.
macro_rules! binary_table {
    ($(
        $(#[$doc:meta])*
        $name:ident $try_name:ident($x:ident, $y:ident) $torch:literal $(let $l:ident = $le:expr;)* => ($dx:expr, $dy:expr);
    )*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name<T: Real>($x: T, $y: T) -> (T, T) {
            $(let $l = $le;)*
            ($dx, $dy)
        }
    )*};
}

/// The element-wise functions of two inputs, handed to `$cb!` as [`derivative_table!`] is:
/// `binary_table!` writes the partial-derivative functions, `autograd/ops.rs` writes `Var`'s
/// method of each entry (the gradient of each operand is `g` times its partial, summed over the
/// dims it was broadcast along), and forward mode's `Dual` reads `pow`, `atan2`, `hypot`,
/// `maximum` and `minimum` for its `powf`, `atan2`, `hypot` and `Num::max`/`Num::min`.
macro_rules! binary_derivative_table {
    ($cb:ident) => {
$cb! {
    /// `max(x, y)`, NaN if either is: 1 to the larger operand, half to each at a tie, 1 to both
    /// where either is NaN (PyTorch's `maximum` backward: `where(x == y, g / 2, g)`, masked to 0
    /// where the other operand is larger).
    maximum try_maximum(x, y) "maximum" let h = T::cst(0.5);
        => (if x == y { h } else if x < y { T::zero() } else { T::one() },
            if x == y { h } else if x > y { T::zero() } else { T::one() });
    /// `min(x, y)`, as `maximum` with the order reversed.
    minimum try_minimum(x, y) "minimum" let h = T::cst(0.5);
        => (if x == y { h } else if x > y { T::zero() } else { T::one() },
            if x == y { h } else if x < y { T::zero() } else { T::one() });
    /// `xʸ`: `y xʸ⁻¹` (0 where `y = 0`) and `xʸ ln x` (0 where `x = 0` and `y >= 0`), PyTorch's
    /// `pow_backward_self` and `pow_backward_exponent`.
    pow try_pow(x, y) "pow"
        => (if y == T::zero() { T::zero() } else { y * x.powf(y - T::one()) },
            if x == T::zero() && y >= T::zero() { T::zero() } else { x.powf(y) * x.ln() });
    /// `atan2(x, y)` (the angle of the point `(y, x)`): `y / (x² + y²)` and `-x / (x² + y²)`.
    atan2 try_atan2(x, y) "atan2" let r = (x * x + y * y).recip(); => (y * r, -x * r);
    /// `√(x² + y²)`: `x / h` and `y / h`.
    hypot try_hypot(x, y) "hypot" let h = x.hypot(y); => (x / h, y / h);
    /// `ln(eˣ + eʸ)`: `1 / (1 + e^(y - x))` and `1 / (1 + e^(x - y))`.
    logaddexp try_logaddexp(x, y) "logaddexp" => (
        (T::one() + (y - x).exp()).recip(),
        (T::one() + (x - y).exp()).recip()
    );
    /// `|x|` with `y`'s sign: `copysign(x, y) / x` (0 where `x = 0`), and 0 for `y` (PyTorch's
    /// `copysign_tensor_self_backward`).
    copysign try_copysign(x, y) "copysign" => (if x == T::zero() { T::zero() } else { x.copysign(y) / x }, T::zero());
}
    };
}
pub(crate) use binary_derivative_table;

binary_derivative_table!(binary_table);
