//! Element-wise functions of one tensor: Rust's float methods (`exp`, `ln`, `sqrt`, `sin`, ...),
//! PyTorch's activations (`relu`, `sigmoid`, `gelu`, `silu`, `softplus`), `abs`/`signum`/`clamp`
//! for every numeric type, NaN/finiteness tests, unary `-`, and `map_inplace`. Each returns a new
//! tensor of the same shape (inline for an inline input) and has an in-place form with PyTorch's
//! trailing underscore (`exp_`) for owned tensors and mutable views.
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{Layout, LayoutRepr};
use crate::num::Num;
use crate::shape::Shape;
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{OutTensor, TensorBase};
use crate::vmath::{special as vspecial, VecOp};
use core::ops::Neg;
use num_traits::Float;

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Replaces every element `x` by `f(x)`, in place, through any layout (ndarray's
    /// `mapv_inplace`, PyTorch's in-place functions). A mutable view never overlaps itself, so
    /// each element is visited once.
    #[doc(alias = "mapv_inplace")]
    #[doc(alias = "apply")]
    pub fn map_inplace(&mut self, f: impl Fn(D::Elem) -> D::Elem)
    where
        D: DataMut,
    {
        let layout = *self.layout();
        kernels::map_inplace(self.data.as_mut_slice(), &layout, f)
    }
    /// [`map_inplace`](Self::map_inplace) for the named in-place methods, whose functions are
    /// `Sync`: split across rayon's pool from `threshold` elements of a contiguous tensor.
    pub(crate) fn map_inplace_from(&mut self, f: impl Fn(D::Elem) -> D::Elem + Sync + Send, threshold: usize)
    where
        D: DataMut,
    {
        let layout = *self.layout();
        kernels::map_inplace_from(self.data.as_mut_slice(), &layout, f, threshold)
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// `f` of every element into a new tensor, through the element type's vectorised kernel for
    /// `op` when it has one ([`crate::vmath`]), the scalar `f` otherwise.
    #[track_caller]
    fn map_vec(&self, op: Option<VecOp>, f: impl Fn(D::Elem) -> D::Elem + Sync + Send) -> OutTensor<D, D::Elem, S> {
        match (op, <D::Elem as Element>::VMATH.kernels) {
            (Some(op), Some(vk)) => {
                let out = || -> Result<_, ShapeError> {
                    let lay = LayoutRepr::try_from_layout::<S>(Layout::contiguous(self.sizes())?)?;
                    let data =
                        kernels::vec_map_out(self.data.as_slice(), self.layout(), op, vk, kernels::PAR_MATH_THRESHOLD)?;
                    Ok(TensorBase::from_lay(data, lay))
                };
                out().or_panic()
            }
            _ => self.par_map_math(f),
        }
    }
    /// [`map_vec`](Self::map_vec) in place.
    fn map_vec_inplace(&mut self, op: Option<VecOp>, f: impl Fn(D::Elem) -> D::Elem + Sync + Send)
    where
        D: DataMut,
    {
        match (op, <D::Elem as Element>::VMATH.kernels) {
            (Some(op), Some((apply, _))) => {
                let layout = *self.layout();
                kernels::vec_map_inplace(self.data.as_mut_slice(), &layout, op, apply, f, kernels::PAR_MATH_THRESHOLD)
            }
            _ => self.map_inplace_from(f, kernels::PAR_MATH_THRESHOLD),
        }
    }
}

macro_rules! float_fns {
    ($($(#[$attr:meta])* $name:ident, $name_:ident, $name_out:ident, $try_name_out:ident, $torch:literal, $what:literal, $vop:expr, |$x:ident| $body:expr;)*) => {
        /// Element-wise float functions: a new tensor, and the in-place `_` form.
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: Float,
        {
            $(
                #[doc = concat!("Element-wise ", $what, " (PyTorch `", $torch, "`): same shape, a new tensor (inline for an inline input).")]
                #[doc = ""]
                #[doc = "# Panics"]
                #[doc = "When the result cannot be allocated."]
                $(#[$attr])*
                #[track_caller]
                pub fn $name(&self) -> OutTensor<D, D::Elem, S> {
                    self.map_vec($vop, |$x: D::Elem| $body)
                }
                #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") in place (PyTorch `", $torch, "_`).")]
                pub fn $name_(&mut self)
                where
                    D: DataMut,
                {
                    self.map_vec_inplace($vop, |$x: D::Elem| $body)
                }
            )*
        }
        crate::ops::out::unary_out! { vec Float, kernels::PAR_MATH_THRESHOLD; where [S: crate::shape::AssignShape<SO>]; $($name_out, $try_name_out, $name, $vop, |$x| $body;)* }
    };
}

/// `v` as an `f64` and back (for the functions `num-traits` lacks: erf).
#[inline(always)]
fn via_f64<T: Float>(v: T, f: impl Fn(f64) -> f64) -> T {
    T::from(f(v.to_f64().unwrap_or(f64::NAN))).unwrap_or_else(T::nan)
}

/// A special function of `v`: the element type's own ([`Element::SPECIAL`], the dual numbers,
/// which carry derivatives that an `f64` round trip would drop), else `f` through `f64`.
#[inline(always)]
fn special<T: Float + Element>(
    v: T,
    pick: impl Fn(&crate::element::Special<T>) -> fn(T) -> T,
    f: impl Fn(f64) -> f64,
) -> T {
    match &T::SPECIAL {
        Some(s) => pick(s)(v),
        None => via_f64(v, f),
    }
}

/// GELU `x Φ(x)`: the type's own where it has one (the dual numbers), else the `f64` kernel
/// `0.5 x erfc(-x/√2)` rounded once.
#[inline]
fn gelu_of<T: Float + Element>(x: T) -> T {
    special(x, |s| s.gelu, vspecial::gelu)
}

/// GELU's tanh form `x sigmoid(2u)`, `u = √(2/π) (x + 0.044715 x³)`: the type's own where it has
/// one, else the `f64` kernel rounded once.
#[inline]
fn gelu_tanh_of<T: Float + Element>(x: T) -> T {
    special(x, |s| s.gelu_tanh, vspecial::gelu_tanh)
}

float_fns! {
    exp, exp_, exp_out, try_exp_out, "exp", "`e^x`", Some(VecOp::Exp), |x| x.exp();
    exp2, exp2_, exp2_out, try_exp2_out, "exp2", "`2^x`", None, |x| x.exp2();
    ln, ln_, ln_out, try_ln_out, "log", "natural logarithm", Some(VecOp::Ln), |x| x.ln();
    log2, log2_, log2_out, try_log2_out, "log2", "base-2 logarithm", None, |x| x.log2();
    log10, log10_, log10_out, try_log10_out, "log10", "base-10 logarithm", None, |x| x.log10();
    ln_1p, ln_1p_, ln_1p_out, try_ln_1p_out, "log1p", "`ln(1 + x)`, accurate near 0", None, |x| x.ln_1p();
    exp_m1, exp_m1_, exp_m1_out, try_exp_m1_out, "expm1", "`e^x - 1`, accurate near 0", None, |x| x.exp_m1();
    sqrt, sqrt_, sqrt_out, try_sqrt_out, "sqrt", "square root (NaN below 0)", None, |x| x.sqrt();
    cbrt, cbrt_, cbrt_out, try_cbrt_out, "pow(x, 1/3)", "cube root", None, |x| x.cbrt();
    sin, sin_, sin_out, try_sin_out, "sin", "sine (radians)", Some(VecOp::Sin), |x| x.sin();
    cos, cos_, cos_out, try_cos_out, "cos", "cosine (radians)", Some(VecOp::Cos), |x| x.cos();
    tan, tan_, tan_out, try_tan_out, "tan", "tangent (radians)", None, |x| x.tan();
    asin, asin_, asin_out, try_asin_out, "asin", "arcsine (radians)", None, |x| x.asin();
    acos, acos_, acos_out, try_acos_out, "acos", "arccosine (radians)", None, |x| x.acos();
    atan, atan_, atan_out, try_atan_out, "atan", "arctangent (radians)", None, |x| x.atan();
    sinh, sinh_, sinh_out, try_sinh_out, "sinh", "hyperbolic sine", None, |x| x.sinh();
    cosh, cosh_, cosh_out, try_cosh_out, "cosh", "hyperbolic cosine", None, |x| x.cosh();
    tanh, tanh_, tanh_out, try_tanh_out, "tanh", "hyperbolic tangent", Some(VecOp::Tanh), |x| x.tanh();
    floor, floor_, floor_out, try_floor_out, "floor", "rounding down", None, |x| x.floor();
    ceil, ceil_, ceil_out, try_ceil_out, "ceil", "rounding up", None, |x| x.ceil();
    round, round_, round_out, try_round_out, "round", "rounding half away from zero (Rust's `round`; PyTorch's `round` rounds half to even)", None, |x| x.round();
    trunc, trunc_, trunc_out, try_trunc_out, "trunc", "rounding toward zero", None, |x| x.trunc();
    fract, fract_, fract_out, try_fract_out, "frac", "fractional part `x - trunc(x)`", None, |x| x.fract();
    recip, recip_, recip_out, try_recip_out, "reciprocal", "`1 / x`", None, |x| x.recip();
    sigmoid, sigmoid_, sigmoid_out, try_sigmoid_out, "sigmoid", "logistic `1 / (1 + e^-x)`", Some(VecOp::Sigmoid), |x| D::Elem::ONE / (D::Elem::ONE + (-x).exp());
    gelu, gelu_, gelu_out, try_gelu_out, "nn.functional.gelu", "GELU `x Φ(x)` with the exact normal CDF (PyTorch's default, `approximate='none'`), computed as `0.5 x erfc(-x/√2)` (no cancellation for negative `x`; NaN at `-inf`, as PyTorch)", Some(VecOp::Gelu),
        |x| gelu_of(x);
    gelu_tanh, gelu_tanh_, gelu_tanh_out, try_gelu_tanh_out, "nn.functional.gelu(x, approximate='tanh')", "GELU with the tanh approximation `0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))`, computed as `x sigmoid(2u)` with `u` the argument of `tanh` (no cancellation; NaN at `-inf`, as PyTorch)", Some(VecOp::GeluTanh),
        |x| gelu_tanh_of(x);
    silu, silu_, silu_out, try_silu_out, "nn.functional.silu", "SiLU (swish) `x sigmoid(x)`", Some(VecOp::Silu), |x| x / (D::Elem::ONE + (-x).exp());
    asinh, asinh_, asinh_out, try_asinh_out, "asinh", "inverse hyperbolic sine", None, |x| x.asinh();
    acosh, acosh_, acosh_out, try_acosh_out, "acosh", "inverse hyperbolic cosine (NaN below 1)", None, |x| x.acosh();
    atanh, atanh_, atanh_out, try_atanh_out, "atanh", "inverse hyperbolic tangent (+-inf at +-1, NaN beyond)", None, |x| x.atanh();
    erf, erf_, erf_out, try_erf_out, "erf", "error function `2/sqrt(pi) ∫₀ˣ e^(-t²) dt`", Some(VecOp::Erf), |x| special(x, |s| s.erf, vspecial::erf);
    erfc, erfc_, erfc_out, try_erfc_out, "erfc", "complementary error function `1 - erf(x)`, accurate where `erf(x)` is near 1", Some(VecOp::Erfc), |x| special(x, |s| s.erfc, vspecial::erfc);
    lgamma, lgamma_, lgamma_out, try_lgamma_out, "lgamma", "`ln|Γ(x)|` (+inf at the poles 0, -1, -2, ...)", None, |x| special(x, |s| s.lgamma, libm::lgamma);
    #[doc(alias = "psi")] digamma, digamma_, digamma_out, try_digamma_out, "digamma", "digamma `ψ(x) = d/dx ln Γ(x)` (NaN at the negative integers; -inf at +0, +inf at -0, as PyTorch)", None, |x| special(x, |s| s.digamma, crate::num::digamma);
    erfinv, erfinv_, erfinv_out, try_erfinv_out, "erfinv", "inverse error function (±inf at ±1, NaN beyond)", None, |x| special(x, |s| s.erfinv, crate::num::erfinv);
    rsqrt, rsqrt_, rsqrt_out, try_rsqrt_out, "rsqrt", "`1 / sqrt(x)` (+inf at 0, NaN below)", None, |x| x.sqrt().recip();
    square, square_, square_out, try_square_out, "square", "`x²`", None, |x| x * x;
    #[doc(alias = "deg2rad")] to_radians, to_radians_, to_radians_out, try_to_radians_out, "deg2rad", "degrees to radians (Rust's `to_radians`)", None, |x| x.to_radians();
    #[doc(alias = "rad2deg")] to_degrees, to_degrees_, to_degrees_out, try_to_degrees_out, "rad2deg", "radians to degrees (Rust's `to_degrees`)", None, |x| x.to_degrees();
    log_sigmoid, log_sigmoid_, log_sigmoid_out, try_log_sigmoid_out, "nn.functional.logsigmoid", "`ln(sigmoid(x))`, computed as `min(x, 0) - ln(1 + e^-|x|)` (no overflow)", None,
        |x| x.min(D::Elem::ZERO) - (-x.abs()).exp().ln_1p();
    softsign, softsign_, softsign_out, try_softsign_out, "nn.functional.softsign", "`x / (1 + |x|)`", None, |x| x / (D::Elem::ONE + x.abs());
    selu, selu_, selu_out, try_selu_out, "nn.functional.selu", "SELU `scale (max(0, x) + min(0, α (e^x - 1)))` with PyTorch's α = 1.6732632423543772 and scale = 1.0507009873554805", None,
        |x| {
            let c = |v: f64| <D::Elem as num_traits::NumCast>::from(v).unwrap_or_else(D::Elem::nan);
            c(1.0507009873554805) * if x > D::Elem::ZERO { x } else { c(1.6732632423543772) * x.exp_m1() }
        };
    softplus, softplus_, softplus_out, try_softplus_out, "nn.functional.softplus", "softplus `ln(1 + e^x)` (linear above 20, as PyTorch's threshold)", Some(VecOp::Softplus),
        |x| if x > <D::Elem as num_traits::NumCast>::from(20.0).unwrap_or_else(D::Elem::infinity) { x } else { x.exp().ln_1p() };
}

/// Element-wise functions with parameters `$p: $pt` (none or more) under the element bound
/// `$bound`: a new tensor through `$map`, and the in-place `_` form split across rayon's pool from
/// `$threshold` elements.
macro_rules! param_fns {
    ($bound:ident, $map:ident, $threshold:expr;
     $($(#[$m:meta])* $name:ident, $name_:ident ($($p:ident: $pt:ty),*) |$x:ident| $body:expr;)*) => {
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: $bound,
        {$(
            $(#[$m])*
            #[track_caller]
            pub fn $name(&self, $($p: $pt),*) -> OutTensor<D, D::Elem, S> {
                self.$map(move |$x: D::Elem| $body)
            }
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") in place.")]
            pub fn $name_(&mut self, $($p: $pt),*)
            where
                D: DataMut,
            {
                self.map_inplace_from(move |$x: D::Elem| $body, $threshold)
            }
        )*}
    };
}
param_fns! { Float, par_map_math, kernels::PAR_MATH_THRESHOLD;
    /// Element-wise logarithm to the base `base`, as Rust's `f32::log(self, base)`: `ln(x) /
    /// ln(base)`, same shape. PyTorch's and NumPy's `log(x)` is the natural logarithm, here
    /// [`ln`](Self::ln) (Rust's name); `log2` and `log10` have their own methods.
    log, log_ (base: D::Elem) |x| x.log(base);
    /// Element-wise `x^n` for an integer `n` (PyTorch `pow` with an int exponent).
    powi, powi_ (n: i32) |x| x.powi(n);
    /// Element-wise `x^p` (PyTorch `pow` with a float exponent; NaN for a negative base and a
    /// non-integer `p`).
    powf, powf_ (p: D::Elem) |x| x.powf(p);
}

param_fns! { Float, par_map, kernels::PAR_THRESHOLD;
    /// Element-wise leaky ReLU (PyTorch `nn.functional.leaky_relu(x, negative_slope)`): `x` above
    /// 0, `negative_slope * x` otherwise (PyTorch's default slope is 0.01); same shape, NaN stays
    /// NaN.
    leaky_relu, leaky_relu_ (negative_slope: D::Elem) |x| if x > D::Elem::ZERO { x } else { negative_slope * x };
    /// Element-wise ELU (PyTorch `nn.functional.elu(x, alpha)`): `x` above 0, `alpha (e^x - 1)`
    /// otherwise (PyTorch's default `alpha` is 1); same shape.
    elu, elu_ (alpha: D::Elem) |x| if x > D::Elem::ZERO { x } else { alpha * x.exp_m1() };
    /// Element-wise clamp to `[min_val, max_val]` (PyTorch `nn.functional.hardtanh`, whose
    /// defaults are -1 and 1); same shape, NaN stays NaN.
    hardtanh, hardtanh_ (min_val: D::Elem, max_val: D::Elem) |x| if x < min_val { min_val } else if x > max_val { max_val } else { x };
    /// NaN, `+inf` and `-inf` replaced by `nan`, `posinf` and `neginf` (PyTorch `nan_to_num`,
    /// whose defaults are 0, the type's largest and its lowest finite value); same shape.
    nan_to_num, nan_to_num_ (nan: D::Elem, posinf: D::Elem, neginf: D::Elem)
        |x| if x.is_nan() { nan } else if x == D::Elem::infinity() { posinf } else if x == D::Elem::neg_infinity() { neginf } else { x };
}

/// Float tests.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float,
{
    /// Element-wise infinity test (PyTorch `isinf`): `true` for `+inf` and `-inf`.
    #[track_caller]
    #[doc(alias = "isinf")]
    pub fn is_infinite(&self) -> OutTensor<D, bool, S> {
        self.par_map(|x| x.is_infinite())
    }
    /// Element-wise `x == +inf` (PyTorch `isposinf`).
    #[track_caller]
    pub fn isposinf(&self) -> OutTensor<D, bool, S> {
        self.par_map(|x| x == D::Elem::infinity())
    }
    /// Element-wise `x == -inf` (PyTorch `isneginf`).
    #[track_caller]
    pub fn isneginf(&self) -> OutTensor<D, bool, S> {
        self.par_map(|x| x == D::Elem::neg_infinity())
    }
    /// Element-wise NaN test (PyTorch `isnan`): a bool tensor of the same shape.
    #[track_caller]
    #[doc(alias = "isnan")]
    pub fn is_nan(&self) -> OutTensor<D, bool, S> {
        self.par_map(|x| x.is_nan())
    }
    /// Element-wise finiteness test (PyTorch `isfinite`): `false` for NaN and ±inf.
    #[track_caller]
    #[doc(alias = "isfinite")]
    pub fn is_finite(&self) -> OutTensor<D, bool, S> {
        self.par_map(|x| x.is_finite())
    }
}

/// Functions of every numeric type.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// PyTorch's and NumPy's other name for [`clamp`](Self::clamp) (`torch.clip`, `np.clip`):
    /// element-wise `min(max(x, lo), hi)`, same shape.
    #[track_caller]
    pub fn clip(&self, lo: D::Elem, hi: D::Elem) -> OutTensor<D, D::Elem, S> {
        self.clamp(lo, hi)
    }
    /// [`clamp_`](Self::clamp_) under PyTorch's other name (`clip_`).
    pub fn clip_(&mut self, lo: D::Elem, hi: D::Elem)
    where
        D: DataMut,
    {
        self.clamp_(lo, hi)
    }
    /// Element-wise negation in place (PyTorch `neg_`; integers wrap).
    pub fn neg_(&mut self)
    where
        D: DataMut,
    {
        self.map_inplace_from(|x| D::Elem::sub(D::Elem::ZERO, x), kernels::PAR_THRESHOLD)
    }
}

param_fns! { Num, par_map, kernels::PAR_THRESHOLD;
    /// Element-wise absolute value (PyTorch `abs`; integers wrap: `i8::MIN` stays `i8::MIN`).
    abs, abs_ () |x| Num::abs(x);
    /// Element-wise sign: -1, 0 or 1 (PyTorch `sign`; NaN stays NaN).
    #[doc(alias = "sign")]
    signum, signum_ () |x| Num::signum(x);
    /// Element-wise `min(max(x, lo), hi)` (PyTorch `clamp(min=lo, max=hi)`; NaN stays NaN; when
    /// `lo > hi` every element becomes `hi`, as in PyTorch).
    clamp, clamp_ (lo: D::Elem, hi: D::Elem) |x| Num::min(Num::max(x, lo), hi);
    /// Element-wise `max(x, 0)` (PyTorch `relu`; NaN stays NaN).
    relu, relu_ () |x| if x < D::Elem::ZERO { D::Elem::ZERO } else { x };
}

/// Unary `-` (PyTorch `neg`): same shape, integers wrap (`-i8::MIN` is `i8::MIN`).
impl<D: Data, S: Shape> Neg for &TensorBase<D, S>
where
    D::Elem: Num,
{
    type Output = OutTensor<D, D::Elem, S>;
    #[track_caller]
    fn neg(self) -> Self::Output {
        self.par_map(|x| D::Elem::sub(D::Elem::ZERO, x))
    }
}
/// Unary `-` on an owned tensor or view (see the `&` form).
impl<D: Data, S: Shape> Neg for TensorBase<D, S>
where
    D::Elem: Num,
{
    type Output = OutTensor<D, D::Elem, S>;
    #[track_caller]
    fn neg(self) -> Self::Output {
        -&self
    }
}

crate::ops::out::unary_out! { Float, kernels::PAR_MATH_THRESHOLD; where [S: crate::shape::AssignShape<SO>];
    powi_out, try_powi_out, powi, D::Elem, |x, n: i32| x.powi(n);
    powf_out, try_powf_out, powf, D::Elem, |x, p: D::Elem| x.powf(p);
}

crate::ops::out::unary_out! { Float, kernels::PAR_THRESHOLD; where [S: crate::shape::AssignShape<SO>];
    is_nan_out, try_is_nan_out, is_nan, bool, |x| x.is_nan();
    is_finite_out, try_is_finite_out, is_finite, bool, |x| x.is_finite();
    is_infinite_out, try_is_infinite_out, is_infinite, bool, |x| x.is_infinite();
    isposinf_out, try_isposinf_out, isposinf, bool, |x| x == D::Elem::infinity();
    isneginf_out, try_isneginf_out, isneginf, bool, |x| x == D::Elem::neg_infinity();
    leaky_relu_out, try_leaky_relu_out, leaky_relu, D::Elem, |x, negative_slope: D::Elem| if x > D::Elem::ZERO { x } else { negative_slope * x };
    elu_out, try_elu_out, elu, D::Elem, |x, alpha: D::Elem| if x > D::Elem::ZERO { x } else { alpha * x.exp_m1() };
    hardtanh_out, try_hardtanh_out, hardtanh, D::Elem, |x, min_val: D::Elem, max_val: D::Elem| if x < min_val { min_val } else if x > max_val { max_val } else { x };
    nan_to_num_out, try_nan_to_num_out, nan_to_num, D::Elem, |x, nan: D::Elem, posinf: D::Elem, neginf: D::Elem|
        if x.is_nan() { nan } else if x == D::Elem::infinity() { posinf } else if x == D::Elem::neg_infinity() { neginf } else { x };
}

crate::ops::out::unary_out! { Num, kernels::PAR_THRESHOLD; where [S: crate::shape::AssignShape<SO>];
    abs_out, try_abs_out, abs, D::Elem, |x| Num::abs(x);
    signum_out, try_signum_out, signum, D::Elem, |x| Num::signum(x);
    clamp_out, try_clamp_out, clamp, D::Elem, |x, lo: D::Elem, hi: D::Elem| Num::min(Num::max(x, lo), hi);
    relu_out, try_relu_out, relu, D::Elem, |x| if x < D::Elem::ZERO { D::Elem::ZERO } else { x };
    neg_out, try_neg_out, neg_, D::Elem, |x| D::Elem::sub(D::Elem::ZERO, x);
}
