//! Power-of-two scaling, exact in every float type: the binary exponent of a value and `x · 2^k`.
//! The direct small-matrix code (`dense.rs`) and the faer routines (`lapack.rs`) both scale by it
//! so that their results do not depend on the magnitude of the input (`Singular` means singular
//! to working precision, tested scale-invariantly).
use num_traits::Float;

/// The binary exponent of `x`: `|x| = f · 2^e` with `f` in `[0.5, 1)`, exactly (subnormals too);
/// 0 for zero and non-finite `x`.
#[inline]
pub(crate) fn exponent<T: Float>(x: T) -> i32 {
    if x == T::zero() || !x.is_finite() {
        return 0;
    }
    let (mant, exp, _) = x.integer_decode();
    i32::from(exp) + (64 - mant.leading_zeros()) as i32
}

/// `x · 2^k` by factors that are normal numbers of the type: exact unless the result overflows
/// (±inf) or underflows (IEEE's gradual underflow).
#[inline]
pub(crate) fn ldexp<T: Float>(mut x: T, mut k: i32) -> T {
    // The largest power of two whose reciprocal is normal too: 2^1022 for f64, 2^126 for f32,
    // 2^14 for f16.
    let step = exponent(T::max_value()) - 2;
    while k != 0 && x != T::zero() && x.is_finite() {
        let s = k.clamp(-step, step);
        x = x * T::from(2f64.powi(s)).unwrap_or_else(T::one);
        k -= s;
    }
    x
}
