//! Dual numbers: a value and `N` tangents, carried through every operation by the chain rule
//! (forward-mode automatic differentiation). [`Dual`] is a float element type ([`Num`],
//! [`Float`], [`MatrixFloat`](crate::MatrixFloat)), so an inline tensor of duals runs every
//! element-wise function, reduction, small matrix routine and view unchanged; the functions of
//! [`derivative`](crate::derivative) seed the tangents and read the derivatives back.
//!
//! The value part of every operation is computed exactly as the element type computes it alone
//! (the same method on the same operands), so a function of duals has the same values, bit for
//! bit, as the function of plain floats. Comparisons (`==`, `<`, `max`, sorting) look at the
//! values only, as num-dual's.
use super::derivatives::{self, Operand, Rule, X};
use super::real::Real;
use super::{kahan, pairwise, rows_compensated, sealed, Num};
use crate::element::{Element, Special};
use core::fmt;
use core::num::FpCategory;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, Sub, SubAssign};
use num_traits::{Float, NumCast, One, ToPrimitive, Zero};

/// A dual number: a value `re` and `N` tangents `eps` (the derivatives of the value with respect
/// to `N` inputs), `re + Σ eps[i] εᵢ` with `εᵢ εⱼ = 0`. Arithmetic and every float function
/// apply the chain rule, so a function of duals seeded with `eps = eᵢ` computes its value and its
/// derivative with respect to input `i` in one pass (forward mode, PyTorch's `torch.func.jvp` /
/// `jacfwd`; num-dual's `DualVec`). `T` is `f32`, `f64` or a dual itself: `Dual<Dual<f64, N>, N>`
/// carries second derivatives.
///
/// An element type of tensors ([`Num`], [`Float`], [`MatrixFloat`](crate::MatrixFloat)): no
/// vectorised kernel and no `unsafe` code path takes it (products run through a plain safe loop).
/// `==`, `<` and every order look at the values only.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::derivative::Dual;
/// use shaped::derivative::Float;
/// let x = Dual::<f64, 1>::variable(2.0, 0);
/// let y = x.sin() * x; // d/dx (x sin x) = sin x + x cos x
/// assert_eq!(y.re, 2f64.sin() * 2.0);
/// assert!((y.eps[0] - (2f64.sin() + 2.0 * 2f64.cos())).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Dual<T, const N: usize> {
    /// The value.
    pub re: T,
    /// The derivatives of the value with respect to the `N` seeded inputs.
    pub eps: [T; N],
}

impl<T: Real, const N: usize> Dual<T, N> {
    /// The dual `re + Σ eps[i] εᵢ`.
    #[inline(always)]
    pub const fn new(re: T, eps: [T; N]) -> Self {
        Dual { re, eps }
    }
    /// A constant: value `re`, every tangent zero.
    #[inline(always)]
    pub fn constant(re: T) -> Self {
        Dual { re, eps: [T::ZERO; N] }
    }
    /// Input `i` of `N`: value `re`, tangent 1 in direction `i`, 0 elsewhere (`i >= N` gives a
    /// constant).
    #[inline(always)]
    pub fn variable(re: T, i: usize) -> Self {
        let mut d = Self::constant(re);
        if i < N {
            d.eps[i] = T::ONE;
        }
        d
    }
    /// `f(re) + f'(re) eps`: the value `v = f(re)` and the derivative `d = f'(re)`.
    #[inline(always)]
    fn chain(self, v: T, d: T) -> Self {
        Dual { re: v, eps: self.eps.map(|e| e * d) }
    }
    /// `f(re)` with the tangents through `rule`, an entry of the derivative table: the value
    /// `v = f(re)`, each tangent scaled (a quotient by the reciprocal, computed once) or mapped.
    #[inline(always)]
    fn rule<F: Fn(T) -> T>(self, v: T, rule: Rule<T, F>) -> Self {
        let eps = match rule {
            Rule::Scale(s) => self.eps.map(|e| e * s),
            Rule::Divide(d) => {
                let s = d.recip();
                self.eps.map(|e| e * s)
            }
            Rule::Map(f) => self.eps.map(f),
        };
        Dual { re: v, eps }
    }
    /// A value with no tangents (a piecewise-constant function: floor, sign, ...).
    #[inline(always)]
    fn flat(v: T) -> Self {
        Self::constant(v)
    }
    /// `a * da + b * db`, tangent by tangent, with each term left out where its tangent is
    /// exactly zero (a constant operand), so that an infinite or NaN partial there does not turn
    /// a derivative into NaN (`x.powf(2.0)` at `x < 0`, whose exponent derivative `x² ln x` is
    /// NaN; `1.0.powf(y)` at `y = NaN`, whose base derivative is NaN): as reverse mode, where an
    /// untracked operand gets no gradient.
    #[inline(always)]
    fn two(v: T, a: Self, da: T, b: Self, db: T) -> Self {
        Dual {
            re: v,
            eps: core::array::from_fn(|i| {
                let (ta, tb) = (a.eps[i], b.eps[i]);
                match (ta.exactly_zero(), tb.exactly_zero()) {
                    (false, false) => ta * da + tb * db,
                    (false, true) => ta * da,
                    (true, false) => tb * db,
                    (true, true) => T::zero(),
                }
            }),
        }
    }
}

impl<T: fmt::Display, const N: usize> fmt::Display for Dual<T, N> {
    /// `re` followed by the tangents in brackets: `1.5 + [2, 0]ε`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.re, f)?;
        f.write_str(" + [")?;
        for (i, e) in self.eps.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            fmt::Display::fmt(e, f)?;
        }
        f.write_str("]ε")
    }
}

impl<T: PartialEq, const N: usize> PartialEq for Dual<T, N> {
    /// The values only (as num-dual): what the kernels' zero tests and the comparison ops need.
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.re == other.re
    }
}
impl<T: PartialOrd, const N: usize> PartialOrd for Dual<T, N> {
    /// The values' order.
    #[inline(always)]
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        self.re.partial_cmp(&other.re)
    }
}

impl<T: Real, const N: usize> Add for Dual<T, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Dual { re: self.re + o.re, eps: core::array::from_fn(|i| self.eps[i] + o.eps[i]) }
    }
}
impl<T: Real, const N: usize> Sub for Dual<T, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Dual { re: self.re - o.re, eps: core::array::from_fn(|i| self.eps[i] - o.eps[i]) }
    }
}
impl<T: Real, const N: usize> Mul for Dual<T, N> {
    type Output = Self;
    /// The product rule.
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Dual { re: self.re * o.re, eps: core::array::from_fn(|i| self.eps[i] * o.re + self.re * o.eps[i]) }
    }
}
impl<T: Real, const N: usize> Div for Dual<T, N> {
    type Output = Self;
    /// The quotient rule.
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        let re = self.re / o.re;
        let inv = T::ONE / o.re;
        Dual { re, eps: core::array::from_fn(|i| (self.eps[i] - re * o.eps[i]) * inv) }
    }
}
impl<T: Real, const N: usize> Rem for Dual<T, N> {
    type Output = Self;
    /// `fmod`: the value `self.re % o.re`; derivatives `1` and `-trunc(self / o)` (PyTorch's
    /// `fmod` backward).
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline(always)]
    fn rem(self, o: Self) -> Self {
        let q = (self.re / o.re).trunc();
        Self::two(self.re % o.re, self, T::ONE, o, -q)
    }
}
impl<T: Real, const N: usize> Neg for Dual<T, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Dual { re: -self.re, eps: self.eps.map(|e| -e) }
    }
}
macro_rules! assign_ops {
    ($($Tr:ident $m:ident $op:tt;)*) => {$(
        impl<T: Real, const N: usize> $Tr for Dual<T, N> {
            #[inline(always)]
            fn $m(&mut self, o: Self) {
                *self = *self $op o;
            }
        }
    )*};
}
assign_ops! { AddAssign add_assign +; SubAssign sub_assign -; MulAssign mul_assign *; DivAssign div_assign /; }

impl<T: Real, const N: usize> Zero for Dual<T, N> {
    #[inline(always)]
    fn zero() -> Self {
        Self::constant(T::ZERO)
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        self.re == T::ZERO
    }
}
impl<T: Real, const N: usize> One for Dual<T, N> {
    #[inline(always)]
    fn one() -> Self {
        Self::constant(T::ONE)
    }
}
impl<T: Real, const N: usize> num_traits::Num for Dual<T, N> {
    type FromStrRadixErr = T::FromStrRadixErr;
    /// A constant parsed by `T`.
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        T::from_str_radix(s, radix).map(Self::constant)
    }
}
impl<T: Real, const N: usize> ToPrimitive for Dual<T, N> {
    /// The value's.
    fn to_i64(&self) -> Option<i64> {
        self.re.to_i64()
    }
    /// The value's.
    fn to_u64(&self) -> Option<u64> {
        self.re.to_u64()
    }
    /// The value's.
    fn to_f64(&self) -> Option<f64> {
        self.re.to_f64()
    }
    /// The value's.
    fn to_f32(&self) -> Option<f32> {
        self.re.to_f32()
    }
}
impl<T: Real, const N: usize> NumCast for Dual<T, N> {
    /// A constant (zero tangents) of `n` as `T`; from a dual, its value only.
    fn from<U: ToPrimitive>(n: U) -> Option<Self> {
        <T as NumCast>::from(n).map(Self::constant)
    }
}

impl<T: Real, const N: usize> Element for Dual<T, N> {
    const ZERO: Self = Dual { re: T::ZERO, eps: [T::ZERO; N] };
    const ONE: Self = Dual { re: T::ONE, eps: [T::ZERO; N] };
    const SPECIAL: Option<Special<Self>> = Some(Special {
        erf: <Self as Real>::erf,
        erfc: <Self as Real>::erfc,
        erfinv: <Self as Real>::erfinv,
        lgamma: <Self as Real>::lgamma,
        digamma: <Self as Real>::digamma,
        gelu: <Self as Real>::gelu,
        gelu_tanh: <Self as Real>::gelu_tanh,
    });
}

impl<T: Real, const N: usize> sealed::Sealed for Dual<T, N> {}
impl<T: Real, const N: usize> Num for Dual<T, N> {
    const INTEGER: bool = false;
    #[inline(always)]
    fn add(a: Self, b: Self) -> Self {
        a + b
    }
    #[inline(always)]
    fn sub(a: Self, b: Self) -> Self {
        a - b
    }
    #[inline(always)]
    fn mul(a: Self, b: Self) -> Self {
        a * b
    }
    #[inline(always)]
    fn div(a: Self, b: Self) -> Self {
        a / b
    }
    #[inline(always)]
    fn rem(a: Self, b: Self) -> Self {
        a % b
    }
    /// Piecewise constant: no tangents.
    #[inline(always)]
    fn floor_div(a: Self, b: Self) -> Self {
        Self::flat(T::floor_div(a.re, b.re))
    }
    /// `a - floor(a / b) b`: derivatives `1` and `-floor(a / b)` (PyTorch's `remainder`).
    #[inline(always)]
    fn floor_rem(a: Self, b: Self) -> Self {
        let q = T::floor_div(a.re, b.re);
        Self::two(T::floor_rem(a.re, b.re), a, T::ONE, b, -q)
    }
    type Sum = Self;
    type Acc = (Self, Self);
    const ACC0: (Self, Self) = (<Self as Element>::ZERO, <Self as Element>::ZERO);
    #[inline(always)]
    fn acc(a: &mut (Self, Self), x: Self) {
        kahan(a, x);
    }
    type Run = (Self, Self);
    const RUN0: (Self, Self) = Self::ACC0;
    #[inline(always)]
    fn run(a: &mut (Self, Self), x: Self) -> Option<Self> {
        kahan(a, x);
        Some(a.0 - a.1)
    }
    #[inline(always)]
    fn acc_merge(mut a: (Self, Self), b: (Self, Self)) -> (Self, Self) {
        kahan(&mut a, b.0 - b.1);
        a
    }
    #[inline(always)]
    fn acc_slice(s: &[Self]) -> (Self, Self) {
        (pairwise(s, |x| x), <Self as Element>::ZERO)
    }
    #[inline(always)]
    fn acc_rows(acc: &mut [(Self, Self)], rows: &[Self]) {
        rows_compensated(acc, rows, |x| x)
    }
    const LOWEST: Self = Dual { re: T::LOWEST, eps: [T::ZERO; N] };
    const HIGHEST: Self = Dual { re: T::HIGHEST, eps: [T::ZERO; N] };
    #[inline(always)]
    fn acc_finish(a: (Self, Self)) -> Option<Self> {
        Some(a.0 - a.1)
    }
    #[inline(always)]
    fn to_sum(x: Self) -> Self {
        x
    }
    #[inline(always)]
    fn checked_mul(a: Self, b: Self) -> Option<Self> {
        Some(a * b)
    }
    /// `|a|`: [`Float::abs`]'s (the derivative table's entry: 0 at ±0 and NaN, PyTorch's `abs`
    /// backward).
    #[inline(always)]
    fn abs(a: Self) -> Self {
        Float::abs(a)
    }
    #[inline(always)]
    fn signum(a: Self) -> Self {
        Self::flat(Num::signum(a.re))
    }
    /// The larger operand, NaN if either is NaN; the tangents through the two-input table's
    /// `maximum` entry (PyTorch's `maximum` backward: the larger operand's, the mean of both at a
    /// tie, their sum where either is NaN).
    #[inline(always)]
    fn max(a: Self, b: Self) -> Self {
        let (da, db) = derivatives::maximum(a.re, b.re);
        Self::two(Num::max(a.re, b.re), a, da, b, db)
    }
    /// The smaller operand, as [`max`](Num::max) through the table's `minimum` entry.
    #[inline(always)]
    fn min(a: Self, b: Self) -> Self {
        let (da, db) = derivatives::minimum(a.re, b.re);
        Self::two(Num::min(a.re, b.re), a, da, b, db)
    }
    #[inline(always)]
    fn is_nan(a: Self) -> bool {
        Num::is_nan(a.re)
    }
    #[inline(always)]
    fn sort_key(a: Self) -> u64 {
        T::sort_key(a.re)
    }
    const KEY32: bool = T::KEY32;
    #[inline(always)]
    fn sort_key32(a: Self) -> u32 {
        T::sort_key32(a.re)
    }
}

/// The value `v` of a maximum or minimum with the tangents of `b` (when `take_b`) or `a`, or at
/// a tie (equal values) their mean: a kink's two one-sided derivatives averaged, as PyTorch's
/// `maximum`/`minimum` backward, so that `min(x, 0) - ln(1 + e^-|x|)` (log-sigmoid) has its
/// derivative 1/2 at 0.
#[inline(always)]
fn pick<T: Real, const N: usize>(v: T, a: Dual<T, N>, b: Dual<T, N>, take_b: bool) -> Dual<T, N> {
    if a.re == b.re {
        let h = T::cst(0.5);
        return Dual { re: v, eps: core::array::from_fn(|i| (a.eps[i] + b.eps[i]) * h) };
    }
    Dual { re: v, eps: if take_b { b.eps } else { a.eps } }
}

/// Unary float methods, each differentiated by its entry of the derivative table
/// ([`derivatives`](super::derivatives)), which reverse mode reads too: the value
/// `v = x.name()` of `x = self.re`, and every tangent through the entry's rule.
macro_rules! unary {
    ($($name:ident)*) => {$(
        #[doc = concat!("`", stringify!($name), "`, differentiated by the derivative table's entry.")]
        #[inline]
        fn $name(self) -> Self {
            let x = self.re;
            let v = x.$name();
            self.rule(v, derivatives::$name(Operand::of(x, v)))
        }
    )*};
}

/// `Float`'s methods that only read or build the real part: constants (no derivative), tests
/// of the real part, and the step functions (derivative 0 where it exists: `flat`).
macro_rules! real_part {
    (constant: $($c:ident)*; test: $($t:ident -> $r:ty),*; flat: $($f:ident)*) => {
        $(fn $c() -> Self {
            Self::constant(T::$c())
        })*
        $(#[inline(always)]
        fn $t(self) -> $r {
            self.re.$t()
        })*
        $(#[inline]
        fn $f(self) -> Self {
            Self::flat(self.re.$f())
        })*
    };
}

impl<T: Real, const N: usize> Float for Dual<T, N> {
    real_part! {
        constant: nan infinity neg_infinity neg_zero min_value min_positive_value epsilon max_value;
        test: is_nan -> bool, is_infinite -> bool, is_finite -> bool, is_normal -> bool,
            is_subnormal -> bool, classify -> FpCategory, is_sign_positive -> bool,
            is_sign_negative -> bool;
        flat: floor ceil round trunc signum
    }
    /// `x - trunc(x)`: derivative 1.
    #[inline]
    fn fract(self) -> Self {
        Dual { re: self.re.fract(), eps: self.eps }
    }
    /// `|x|`, differentiated by the derivative table's entry: `sgn(x)`, 0 at ±0 and NaN
    /// (PyTorch's `abs` backward).
    #[inline]
    fn abs(self) -> Self {
        let x = self.re;
        self.rule(x.abs(), derivatives::abs(X(x)))
    }
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        Dual {
            re: self.re.mul_add(a.re, b.re),
            eps: core::array::from_fn(|i| self.eps[i] * a.re + self.re * a.eps[i] + b.eps[i]),
        }
    }
    /// Derivative `n xⁿ⁻¹` (0 for `n = 0`).
    #[inline]
    fn powi(self, n: i32) -> Self {
        let v = self.re.powi(n);
        if n == 0 {
            return Self::flat(v);
        }
        self.chain(v, T::cst(n as f64) * self.re.powi(n - 1))
    }
    /// `xᵖ`, differentiated by the two-input table's `pow` entry (PyTorch's `pow` backward); the
    /// exponent's term is left out where its tangent is zero (a constant exponent on a negative
    /// base keeps a finite derivative).
    #[inline]
    fn powf(self, p: Self) -> Self {
        let (dx, dp) = derivatives::pow(self.re, p.re);
        Self::two(self.re.powf(p.re), self, dx, p, dp)
    }
    unary! {
        sqrt exp exp2 ln log2 log10 cbrt sin cos tan asin acos atan exp_m1 ln_1p sinh cosh tanh
        asinh acosh atanh recip to_degrees to_radians
    }
    /// `log_base(x) = ln x / ln base`: derivatives `1 / (x ln base)` and
    /// `-log_base(x) / (base ln base)`.
    #[inline]
    fn log(self, base: Self) -> Self {
        let (x, b) = (self.re, base.re);
        let v = x.log(b);
        let lb = b.ln();
        Self::two(v, self, (x * lb).recip(), base, -v / (b * lb))
    }
    /// The larger operand (NaN loses, as `f64::max`); at a tie the mean of both tangents.
    #[inline]
    fn max(self, o: Self) -> Self {
        pick(self.re.max(o.re), self, o, o.re > self.re || self.re.is_nan())
    }
    /// The smaller operand (NaN loses, as `f64::min`); at a tie the mean of both tangents.
    #[inline]
    fn min(self, o: Self) -> Self {
        pick(self.re.min(o.re), self, o, o.re < self.re || self.re.is_nan())
    }
    /// `max(self - o, 0)`.
    #[inline]
    #[allow(deprecated)]
    fn abs_sub(self, o: Self) -> Self {
        let v = self.re.abs_sub(o.re);
        if self.re > o.re {
            Dual { re: v, eps: core::array::from_fn(|i| self.eps[i] - o.eps[i]) }
        } else {
            Self::flat(v)
        }
    }
    /// `√(x² + y²)`, differentiated by the two-input table's `hypot` entry.
    #[inline]
    fn hypot(self, o: Self) -> Self {
        let (dx, dy) = derivatives::hypot(self.re, o.re);
        Self::two(self.re.hypot(o.re), self, dx, o, dy)
    }
    /// `atan2(self, o)`, differentiated by the two-input table's `atan2` entry.
    #[inline]
    fn atan2(self, o: Self) -> Self {
        let (dx, dy) = derivatives::atan2(self.re, o.re);
        Self::two(self.re.atan2(o.re), self, dx, o, dy)
    }
    /// `(sin x, cos x)`: the two table entries.
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        (self.sin(), self.cos())
    }
    /// `|self|` with the sign of `sign`: derivative `±1` (0 where `self` is 0, PyTorch's
    /// `copysign` backward); none for `sign`.
    #[inline]
    fn copysign(self, sign: Self) -> Self {
        let v = self.re.copysign(sign.re);
        let d = if self.re == T::ZERO { T::ZERO } else { v / self.re };
        self.chain(v, d)
    }
    fn integer_decode(self) -> (u64, i16, i8) {
        self.re.integer_decode()
    }
}

impl<T: Real, const N: usize> Real for Dual<T, N> {
    unary! { erf erfc erfinv lgamma digamma gelu gelu_tanh }
    /// Derivative `ψ⁽ⁿ⁺¹⁾(x)`.
    #[inline]
    fn polygamma(self, n: u32) -> Self {
        self.chain(self.re.polygamma(n), self.re.polygamma(n + 1))
    }
    #[inline(always)]
    fn exactly_zero(self) -> bool {
        self.re.exactly_zero() && self.eps.iter().all(|e| e.exactly_zero())
    }
    #[inline(always)]
    fn cst(v: f64) -> Self {
        Self::constant(T::cst(v))
    }
}

impl<T: Real, const N: usize> From<T> for Dual<T, N> {
    /// A constant.
    #[inline(always)]
    fn from(re: T) -> Self {
        Self::constant(re)
    }
}

/// Arithmetic with a plain scalar on the right (a constant): `x * 2.0`, `x - 1.0`.
macro_rules! scalar_ops {
    ($($Tr:ident $m:ident |$a:ident, $b:ident| $e:expr;)*) => {$(
        impl<T: Real, const N: usize> $Tr<T> for Dual<T, N> {
            type Output = Self;
            #[inline(always)]
            fn $m(self, o: T) -> Self {
                let ($a, $b) = (self, o);
                $e
            }
        }
    )*};
}
scalar_ops! {
    Add add |a, b| Dual { re: a.re + b, eps: a.eps };
    Sub sub |a, b| Dual { re: a.re - b, eps: a.eps };
    Mul mul |a, b| Dual { re: a.re * b, eps: a.eps.map(|e| e * b) };
    Div div |a, b| Dual { re: a.re / b, eps: { let r = T::ONE / b; a.eps.map(|e| e * r) } };
}

impl<T: Real, const N: usize> Default for Dual<T, N> {
    /// Zero.
    fn default() -> Self {
        Self::constant(T::ZERO)
    }
}
