//! The derivative of every differentiable element-wise function of one input, written once
//! (PyTorch's `derivatives.yaml` is the model: the formula once, both modes generated from it).
//!
//! Each entry is a function of the operand its rule reads, the input `X(x)` or the output
//! `Y(y)`, that returns the rule of the incoming derivative `g`: `g f'(x)` written as PyTorch's
//! backward formula writes it (`g / x` for `ln`, not `g * x⁻¹`, so that a tiny `x` with a tiny `g`
//! stays finite). Both modes call the same entry:
//! - **reverse mode** (`autograd/ops.rs`, `Var::sin` ...): `g` is the output's gradient, element by
//!   element (`rule_x`/`rule_y`, which hand the entry `X(x)` or `Y(y)`: naming the wrong operand
//!   is a type error);
//! - **forward mode** ([`Dual`](super::Dual)): `g` is each of the `N` tangents, the entry's setup
//!   (`cos x` for `sin`) computed once per value.
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

/// `v` in the element type.
#[inline(always)]
fn k<T: Real>(v: f64) -> T {
    T::cst(v)
}

/// Each entry: `name(X x)` or `name(Y y)`, optional `let`s computed once per value, then the rule
/// `|g| ...`. Generates `pub(crate) fn name<T: Real>(X(x): X<T>) -> impl Fn(T) -> T`.
macro_rules! table {
    ($(
        $(#[$doc:meta])*
        $name:ident($op:ident $v:ident) $(let $l:ident = $le:expr;)* => |$g:ident| $e:expr;
    )*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name<T: Real>($op($v): $op<T>) -> impl Fn(T) -> T + Copy {
            $(let $l = $le;)*
            move |$g: T| $e
        }
    )*};
}

table! {
    // ---- rules of the output y
    /// `eˣ`: `g y`.
    exp(Y y) => |g| g * y;
    /// `2ˣ`: `g y ln 2`.
    exp2(Y y) => |g| g * y * k::<T>(LN_2);
    /// `√x`: `g / (2 y)`.
    sqrt(Y y) => |g| g / (y + y);
    /// `∛x`: `g / (3 y²)`.
    cbrt(Y y) => |g| g / (k::<T>(3.0) * y * y);
    /// `1 / √x`: `-g y³ / 2`.
    rsqrt(Y y) => |g| g * k::<T>(-0.5) * y * y * y;
    /// `1 / x`: `-g y²`.
    recip(Y y) => |g| -g * y * y;
    /// `tan x`: `g (1 + y²)`.
    tan(Y y) => |g| g * (T::one() + y * y);
    /// `tanh x`: `g (1 - y²)`.
    tanh(Y y) => |g| g * (T::one() - y * y);
    /// `σ(x)`: `g y (1 - y)`.
    sigmoid(Y y) => |g| g * y * (T::one() - y);
    /// `max(x, 0)`: `g` where the output is above 0, NaN included, and 0 elsewhere (PyTorch's
    /// `threshold_backward(grad, result, 0)`: a NaN input passes the gradient).
    relu(Y y) => |g| if y <= T::zero() { T::zero() } else { g };
    /// `erfinv x`: `g √π/2 e^(y²)`.
    erfinv(Y y) let d = k::<T>(0.5 * 1.772_453_850_905_516) * (y * y).exp(); => |g| g * d;

    // ---- rules of the input x
    /// `ln x`: `g / x`.
    ln(X x) => |g| g / x;
    /// `log₂ x`: `g / (x ln 2)`.
    log2(X x) let d = x * k::<T>(LN_2); => |g| g / d;
    /// `log₁₀ x`: `g / (x ln 10)`.
    log10(X x) let d = x * k::<T>(LN_10); => |g| g / d;
    /// `ln(1 + x)`: `g / (x + 1)`.
    ln_1p(X x) let d = x + T::one(); => |g| g / d;
    /// `eˣ - 1`: `g eˣ`.
    exp_m1(X x) let d = x.exp(); => |g| g * d;
    /// `sin x`: `g cos x`.
    sin(X x) let d = x.cos(); => |g| g * d;
    /// `cos x`: `-g sin x`.
    cos(X x) let d = x.sin(); => |g| -g * d;
    /// `asin x`: `g / √(1 - x²)`.
    asin(X x) let d = (T::one() - x * x).sqrt(); => |g| g / d;
    /// `acos x`: `-g / √(1 - x²)`.
    acos(X x) let d = (T::one() - x * x).sqrt(); => |g| -g / d;
    /// `atan x`: `g / (1 + x²)`.
    atan(X x) let d = T::one() + x * x; => |g| g / d;
    /// `sinh x`: `g cosh x`.
    sinh(X x) let d = x.cosh(); => |g| g * d;
    /// `cosh x`: `g sinh x`.
    cosh(X x) let d = x.sinh(); => |g| g * d;
    /// `asinh x`: `g / √(x² + 1)`.
    asinh(X x) let d = (x * x + T::one()).sqrt(); => |g| g / d;
    /// `acosh x`: `g / √(x² - 1)`.
    acosh(X x) let d = (x * x - T::one()).sqrt(); => |g| g / d;
    /// `atanh x`: `g / (1 - x²)`.
    atanh(X x) let d = T::one() - x * x; => |g| g / d;
    /// `x²`: `2 g x`.
    square(X x) => |g| g * (x + x);
    /// `|x|`: `g sgn(x)`, 0 at ±0 and at NaN (PyTorch's `sgn(NaN)` is 0 there).
    abs(X x) => |g| if x > T::zero() { g } else if x < T::zero() { -g } else { T::zero() * g };
    /// `erf x`: `g 2/√π e^(-x²)`.
    erf(X x) let d = k::<T>(FRAC_2_SQRT_PI) * (-(x * x)).exp(); => |g| g * d;
    /// `erfc x`: `-g 2/√π e^(-x²)`.
    erfc(X x) let d = k::<T>(FRAC_2_SQRT_PI) * (-(x * x)).exp(); => |g| -g * d;
    /// `ln |Γ(x)|`: `g ψ(x)`.
    lgamma(X x) let d = x.digamma(); => |g| g * d;
    /// `ψ(x)`: `g ψ'(x)`.
    digamma(X x) let d = x.polygamma(1); => |g| g * d;
    /// Degrees from radians: `g 180/π`.
    to_degrees(X x) let d = { let _ = x; k::<T>(180.0 / PI) }; => |g| g * d;
    /// Radians from degrees: `g π/180`.
    to_radians(X x) let d = { let _ = x; k::<T>(PI / 180.0) }; => |g| g * d;
    /// GELU `x Φ(x)`: `g (Φ(x) + x φ(x))` with PyTorch's `Φ(x) = (1 + erf(x/√2)) / 2`.
    gelu(X x)
        let cdf = k::<T>(0.5) * (T::one() + (x * k::<T>(FRAC_1_SQRT_2)).erf());
        let pdf = (k::<T>(-0.5) * x * x).exp() * k::<T>(0.398_942_280_401_432_7);
        let d = cdf + x * pdf;
        => |g| g * d;
    /// GELU's tanh form `x (1 + tanh(u)) / 2`, `u = √(2/π) (x + 0.044715 x³)`: PyTorch's
    /// `gelu_backward(approximate='tanh')`.
    gelu_tanh(X x)
        let th = (k::<T>(0.797_884_560_802_865_4) * (x + k::<T>(0.044715) * x * x * x)).tanh();
        let du = k::<T>(0.797_884_560_802_865_4) * (T::one() + k::<T>(3.0 * 0.044715) * x * x);
        let d = k::<T>(0.5) * (T::one() + th) + k::<T>(0.5) * x * (T::one() - th * th) * du;
        => |g| g * d;
    /// SiLU `x σ(x)`: `g σ (1 + x (1 - σ))`.
    silu(X x)
        let s = T::one() / (T::one() + (-x).exp());
        let d = s * (T::one() + x * (T::one() - s));
        => |g| g * d;
    /// Softplus, linear above 20 as the forward and PyTorch's threshold: `g σ(x)`.
    softplus(X x) let z = x.exp(); => |g| if x > k::<T>(20.0) { g } else { g * z / (z + T::one()) };
    /// `ln σ(x)`: `g / (1 + eˣ)`.
    log_sigmoid(X x) let d = T::one() + x.exp(); => |g| g / d;
    /// Softsign `x / (1 + |x|)`: `g / (1 + |x|)²`.
    softsign(X x) let d = (T::one() + x.abs()) * (T::one() + x.abs()); => |g| g / d;
    /// SELU: PyTorch's `elu_backward` with SELU's constants, the linear branch unless `x <= 0`,
    /// so a NaN input gets the scale 1.0507, as PyTorch's.
    selu(X x)
        let d = if x <= T::zero() { k::<T>(1.050_700_987_355_480_5 * 1.673_263_242_354_377_2) * x.exp() } else { k::<T>(1.050_700_987_355_480_5) };
        => |g| g * d;
}
