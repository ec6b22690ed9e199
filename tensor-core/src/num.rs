//! Numeric element types and the arithmetic rule of element-wise operators.
//!
//! **Integer overflow wraps**, in every build profile: `255u8 + 1` is `0` in a `u8` tensor, as in
//! PyTorch and NumPy (and as Rust's `wrapping_add`; Rust's own `+` panics in debug builds and wraps
//! in release, which would make a tensor's result depend on the profile). **Integer division and
//! remainder by zero are errors** ([`ShapeError::DivisionByZero`](crate::ShapeError)), checked
//! before any element is written; `i32::MIN / -1` wraps to `i32::MIN`. Integer `/` truncates toward
//! zero and `%` takes the sign of the dividend (Rust's `/` and `%`, PyTorch's
//! `div(rounding_mode="trunc")` and `fmod`). Float arithmetic is IEEE 754.
use crate::storage::Element;

mod sealed {
    pub trait Sealed {}
}

/// A numeric element type (every element type but `bool`): what the arithmetic operators,
/// matmul and reductions need. Sealed; see the module docs for the overflow rule.
pub trait Num: Element + sealed::Sealed {
    /// Whether the type is an integer (division by zero is then an error).
    const INTEGER: bool;
    /// `a + b` (wrapping for integers).
    fn add(a: Self, b: Self) -> Self;
    /// `a - b` (wrapping for integers).
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b` (wrapping for integers).
    fn mul(a: Self, b: Self) -> Self;
    /// `a / b`; for integers the caller has checked that `b` is not zero (then it wraps).
    fn div(a: Self, b: Self) -> Self;
    /// `a % b` (sign of `a`); for integers the caller has checked that `b` is not zero.
    fn rem(a: Self, b: Self) -> Self;
}

macro_rules! int_num {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Num for $t {
            const INTEGER: bool = true;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self { a.wrapping_add(b) }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self { a.wrapping_sub(b) }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self { a.wrapping_mul(b) }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self { if b == 0 { 0 } else { a.wrapping_div(b) } }
            #[inline(always)]
            fn rem(a: Self, b: Self) -> Self { if b == 0 { 0 } else { a.wrapping_rem(b) } }
        }
    )*};
}
int_num!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! float_num {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Num for $t {
            const INTEGER: bool = false;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self { a + b }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self { a - b }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self { a * b }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self { a / b }
            #[inline(always)]
            fn rem(a: Self, b: Self) -> Self { a % b }
        }
    )*};
}
float_num!(f32, f64, half::f16, half::bf16);
