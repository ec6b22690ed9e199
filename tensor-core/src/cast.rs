//! Element conversion, element by element ([`CastFrom`], [`CastTo`]), with the rules that
//! `ops::cast` documents for `TensorBase::cast` (PyTorch `x.to(dtype)`, NumPy `astype`). In the
//! numeric layer: the random constructors and the tensor methods both use it.
use crate::element::Element;
use half::{bf16, f16};

mod sealed {
    pub trait Sealed {}
}

/// A conversion from the element type `T` into `Self`, with the rules of the [rules of
/// `cast`](crate::TensorBase::cast): Rust's saturating `as` for float to integer, round to nearest even into floats,
/// `!= 0` into `bool`, 0/1 out of it. Implemented (sealed) for every pair of element types.
pub trait CastFrom<T>: Element + sealed::Sealed {
    /// `x` converted to `Self`.
    fn cast_from(x: T) -> Self;
}

/// The other direction of [`CastFrom`]: `x.cast_to()` is `U::cast_from(x)`. Implemented for
/// every pair for which `CastFrom` is.
pub trait CastTo<U>: Element {
    /// `self` converted to `U`.
    fn cast_to(self) -> U;
}
impl<T: Element, U: CastFrom<T>> CastTo<U> for T {
    #[inline(always)]
    fn cast_to(self) -> U {
        U::cast_from(self)
    }
}

/// `x` rounded to `f32` with round-to-odd: the nearest `f32` toward zero, with its last bit set
/// when `x` is not exact. A second rounding of that to a format with at most 22 bits of
/// precision (`f16`, `bf16`) then equals a single rounding of `x` itself.
fn odd_f32(x: f64) -> f32 {
    let t = x as f32;
    if x.is_nan() || f64::from(t) == x {
        return t;
    }
    let (lo, hi) = if f64::from(t) > x { (t.next_down(), t) } else { (t, t.next_up()) };
    if lo.to_bits() & 1 == 1 {
        lo
    } else {
        hi
    }
}

/// An integer rounded to `f32` with round-to-odd (see [`odd_f32`]). Every integer element type
/// fits `i128` exactly.
fn odd_f32_int(x: i128) -> f32 {
    let t = x as f32;
    // `t` is at most 2^128 in magnitude, so `t as i128` saturates only where `x` cannot reach.
    if t as i128 == x {
        return t;
    }
    let (lo, hi) = if (t as i128) > x { (t.next_down(), t) } else { (t, t.next_up()) };
    if lo.to_bits() & 1 == 1 {
        lo
    } else {
        hi
    }
}

macro_rules! sealed {
    ($($t:ty),*) => { $(impl sealed::Sealed for $t {})* };
}
sealed!(f32, f64, f16, bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, bool);

/// Every pair of primitive numeric types: Rust's `as`.
macro_rules! cast_as {
    ($($t:ty),*) => { cast_as!(@src [$($t),*] [$($t),*]); };
    (@src [$($src:ty),*] $dsts:tt) => { $(cast_as!(@dst $src $dsts);)* };
    (@dst $src:ty [$($dst:ty),*]) => {$(
        impl CastFrom<$src> for $dst {
            #[inline(always)]
            #[allow(clippy::unnecessary_cast)]
            fn cast_from(x: $src) -> Self {
                x as $dst
            }
        }
    )*};
}
cast_as!(f32, f64, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// `f16`/`bf16` from and to the primitive numeric types.
macro_rules! cast_half {
    ($h:ty; floats: $($f:ty),*; ints: $($i:ty),*) => {
        // Out of a half type: exact in f32, then Rust's `as`.
        $(impl CastFrom<$h> for $f {
            #[inline(always)]
            #[allow(clippy::unnecessary_cast)]
            fn cast_from(x: $h) -> Self { x.to_f32() as $f }
        })*
        $(impl CastFrom<$h> for $i {
            #[inline(always)]
            fn cast_from(x: $h) -> Self { x.to_f32() as $i }
        })*
        // Into it: rounded once, to nearest even.
        impl CastFrom<f32> for $h {
            #[inline(always)]
            fn cast_from(x: f32) -> Self { <$h>::from_f32(x) }
        }
        impl CastFrom<f64> for $h {
            #[inline(always)]
            fn cast_from(x: f64) -> Self { <$h>::from_f32(odd_f32(x)) }
        }
        $(impl CastFrom<$i> for $h {
            #[inline(always)]
            fn cast_from(x: $i) -> Self { <$h>::from_f32(odd_f32_int(x as i128)) }
        })*
    };
}
cast_half!(f16; floats: f32, f64; ints: i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
cast_half!(bf16; floats: f32, f64; ints: i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl CastFrom<f16> for f16 {
    #[inline(always)]
    fn cast_from(x: f16) -> Self {
        x
    }
}
impl CastFrom<bf16> for bf16 {
    #[inline(always)]
    fn cast_from(x: bf16) -> Self {
        x
    }
}
impl CastFrom<f16> for bf16 {
    /// Exact in `f32`, then rounded once.
    #[inline(always)]
    fn cast_from(x: f16) -> Self {
        bf16::from_f32(x.to_f32())
    }
}
impl CastFrom<bf16> for f16 {
    /// Exact in `f32`, then rounded once.
    #[inline(always)]
    fn cast_from(x: bf16) -> Self {
        f16::from_f32(x.to_f32())
    }
}

/// `bool` to and from every numeric type: 0/1 out of it, `!= 0` into it.
macro_rules! cast_bool {
    ($($t:ty),*) => {$(
        impl CastFrom<bool> for $t {
            #[inline(always)]
            fn cast_from(x: bool) -> Self { if x { <$t as Element>::ONE } else { <$t as Element>::ZERO } }
        }
        impl CastFrom<$t> for bool {
            #[inline(always)]
            #[allow(clippy::float_cmp)]
            fn cast_from(x: $t) -> Self { x != <$t as Element>::ZERO }
        }
    )*};
}
cast_bool!(f32, f64, f16, bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);
impl CastFrom<bool> for bool {
    #[inline(always)]
    fn cast_from(x: bool) -> Self {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{rngs::StdRng, RngExt, SeedableRng};

    /// `x` rounded to nearest even among the finite `f16` values and infinity, by exact
    /// comparison in `f64` (every `f16` is exact there, and the differences below are exact by
    /// Sterbenz's lemma or because both sides are multiples of a common power of two).
    fn reference_f16(x: f64) -> f16 {
        if x.abs() >= 65520.0 {
            // At or past the midpoint between f16::MAX and 2^16 (even): infinity.
            return if x > 0.0 { f16::INFINITY } else { f16::NEG_INFINITY };
        }
        let t = f16::from_f64(x); // within one unit of the answer
        let mut best = t;
        for c in [f16::from_bits(t.to_bits().wrapping_sub(1)), t, f16::from_bits(t.to_bits() + 1)] {
            let (dc, db) = ((c.to_f64() - x).abs(), (best.to_f64() - x).abs());
            if c.is_nan() || (c.is_infinite() && !t.is_infinite()) {
                continue;
            }
            if dc < db || (dc == db && c.to_bits() & 1 == 0) {
                best = c;
            }
        }
        best
    }

    #[test]
    fn f64_and_i64_to_f16_round_once() {
        let mut g = StdRng::seed_from_u64(0);
        for _ in 0..if cfg!(miri) { 200 } else { 200_000 } {
            // Values near f16 ties: a random f16 in [1, 2048), plus half an ulp, plus a small
            // random offset of either sign (or none).
            let base = f16::from_f32(g.random_range(1.0f32..2048.0));
            let ulp = f16::from_bits(base.to_bits() + 1).to_f64() - base.to_f64();
            let off = [0.0, 1e-9, -1e-9, 2f64.powi(-30)][g.random_range(0..4)] * ulp;
            let x = base.to_f64() + ulp / 2.0 + off;
            assert_eq!(f16::cast_from(x), reference_f16(x), "{x:e}");
            let i = g.random_range(-70_000i64..70_000);
            assert_eq!(f16::cast_from(i), reference_f16(i as f64), "{i}");
        }
    }

    #[test]
    fn odd_rounding_helpers() {
        assert_eq!(odd_f32(1.0), 1.0);
        assert!(odd_f32(f64::NAN).is_nan());
        assert_eq!(odd_f32(f64::INFINITY), f32::INFINITY);
        assert_eq!(odd_f32(1e300), f32::MAX);
        assert_eq!(odd_f32(-1e300), -f32::MAX);
        assert_eq!(odd_f32(1.0 + 2f64.powi(-40)).to_bits(), 1.0f32.to_bits() + 1);
        assert_eq!(odd_f32(1e-300), f32::from_bits(1));
        assert_eq!(odd_f32_int(i128::from(u64::MAX)), 2f32.powi(64).next_down());
        assert_eq!(odd_f32_int(16_777_217), 16_777_218.0); // odd neighbour of an inexact value
        assert_eq!(odd_f32_int(-16_777_216), -16_777_216.0);
    }
}
