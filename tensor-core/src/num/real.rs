//! [`Real`]: the scalars that dual numbers and the derivative table are built on (`f32`, `f64`
//! and duals), with the special functions whose derivatives they need, and the polygamma
//! function. Its own file so that the derivative table (`derivatives.rs`) and the dual numbers
//! (`dual.rs`, which reads the table) both depend on it and not on each other.
use super::{sealed, Num};
use num_traits::Float;

/// The scalars a [`Dual`](super::Dual) is built on: `f32`, `f64`, and duals themselves (a dual of duals
/// carries second derivatives: [`hessian`](crate::derivative::hessian)). A float element type with
/// the special functions whose derivatives the duals need (hidden methods), and the square-matrix
/// routines ([`MatrixFloat`](crate::MatrixFloat)): the bound of generic code that runs on plain
/// floats and on duals alike. Sealed.
pub trait Real: Num<Sum = Self> + Float + super::MatrixFloat + sealed::Sealed {
    /// `erf(x)`, as the tensor method [`erf`](crate::TensorBase::erf) computes it.
    #[doc(hidden)]
    fn erf(self) -> Self;
    /// `erfc(x)`.
    #[doc(hidden)]
    fn erfc(self) -> Self;
    /// `erfinv(x)`.
    #[doc(hidden)]
    fn erfinv(self) -> Self;
    /// `ln|Γ(x)|`.
    #[doc(hidden)]
    fn lgamma(self) -> Self;
    /// `ψ(x)`.
    #[doc(hidden)]
    fn digamma(self) -> Self;
    /// `ψ⁽ⁿ⁾(x)` for `n >= 1` (`ψ` itself for `n = 0`).
    #[doc(hidden)]
    fn polygamma(self, n: u32) -> Self;
    /// GELU `x Φ(x)`, as [`gelu`](crate::TensorBase::gelu) computes it.
    #[doc(hidden)]
    fn gelu(self) -> Self;
    /// GELU's tanh form, as [`gelu_tanh`](crate::TensorBase::gelu_tanh) computes it.
    #[doc(hidden)]
    fn gelu_tanh(self) -> Self;
    /// Whether every part is zero (the value and, for a dual, every tangent): `==` compares
    /// values only.
    #[doc(hidden)]
    fn exactly_zero(self) -> bool;
    /// The constant `v` (rounded to the type).
    #[doc(hidden)]
    fn cst(v: f64) -> Self;
}

/// `f(v)` through `f64`, rounded back: what `ops::unary` does for the functions num-traits
/// lacks, so that a dual's value matches the tensor method's bit for bit.
#[inline(always)]
fn via64<T: Float>(v: T, f: impl Fn(f64) -> f64) -> T {
    T::from(f(v.to_f64().unwrap_or(f64::NAN))).unwrap_or_else(T::nan)
}

/// Bernoulli numbers `B_2k`, `k = 1..=8`, for the asymptotic series of [`polygamma`].
const BERNOULLI: [f64; 8] =
    [1.0 / 6.0, -1.0 / 30.0, 1.0 / 42.0, -1.0 / 30.0, 5.0 / 66.0, -691.0 / 2730.0, 7.0 / 6.0, -3617.0 / 510.0];

/// The polygamma function `ψ⁽ⁿ⁾(x)` (`n >= 1`; `ψ` for `n = 0`): the recurrence
/// `ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x + 1) - (-1)ⁿ n! / x^(n+1)` up to `x >= 20`, then the asymptotic series
/// with eight Bernoulli terms (relative error below 1e-15 there). `+inf` at the poles (the
/// non-positive integers) for odd `n`, NaN for even `n` (the sign depends on the side); NaN
/// below -1e6, where the recurrence would take too many steps.
pub(crate) fn polygamma(n: u32, x: f64) -> f64 {
    if n == 0 {
        return super::digamma(x);
    }
    if x.is_nan() || x == f64::NEG_INFINITY || x < -1e6 {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    if x <= 0.0 && x == libm::trunc(x) {
        return if n % 2 == 1 { f64::INFINITY } else { f64::NAN };
    }
    let nf = n as f64;
    let fact = |k: u32| (1..=k).fold(1.0f64, |p, i| p * i as f64);
    let (mut x, mut s) = (x, 0.0);
    while x < 20.0 {
        s += libm::pow(x, -(nf + 1.0));
        x += 1.0;
    }
    // (n-1)!/x^n + n!/(2 x^(n+1)) + sum_k B_2k (2k+n-1)!/(2k)! / x^(2k+n)
    let mut t = fact(n - 1) / libm::pow(x, nf) + fact(n) / (2.0 * libm::pow(x, nf + 1.0));
    let x2 = x * x;
    let mut xp = libm::pow(x, nf) * x2;
    // (2k+n-1)!/(2k)! as a running product.
    let mut ratio = (1..n).fold(1.0f64, |p, i| p * (2.0 + i as f64)); // (n+1)!/2! = prod_{i=1}^{n-1} (2+i)
    for (k, b) in BERNOULLI.iter().enumerate() {
        let k = k as f64 + 1.0;
        if k > 1.0 {
            // From (2k+n-3)!/(2k-2)! to (2k+n-1)!/(2k)!.
            ratio *= (2.0 * k + nf - 2.0) * (2.0 * k + nf - 1.0) / ((2.0 * k - 1.0) * (2.0 * k));
        }
        t += b * ratio / xp;
        xp *= x2;
    }
    let sign = if n % 2 == 1 { 1.0 } else { -1.0 };
    sign * (t + fact(n) * s)
}

macro_rules! real_float {
    ($($t:ty),*) => {$(
        impl Real for $t {
            #[inline]
            fn erf(self) -> Self { via64(self, crate::vmath::special::erf) }
            #[inline]
            fn erfc(self) -> Self { via64(self, crate::vmath::special::erfc) }
            #[inline]
            fn erfinv(self) -> Self { via64(self, super::erfinv) }
            #[inline]
            fn lgamma(self) -> Self { via64(self, libm::lgamma) }
            #[inline]
            fn digamma(self) -> Self { via64(self, super::digamma) }
            #[inline]
            fn polygamma(self, n: u32) -> Self { via64(self, |v| polygamma(n, v)) }
            #[inline]
            fn gelu(self) -> Self { via64(self, crate::vmath::special::gelu) }
            #[inline]
            fn gelu_tanh(self) -> Self { via64(self, crate::vmath::special::gelu_tanh) }
            #[inline(always)]
            fn exactly_zero(self) -> bool { self == 0.0 }
            #[inline(always)]
            fn cst(v: f64) -> Self { v as $t }
        }
    )*};
}
real_float!(f32, f64);
