//! Element types: what a tensor can hold ([`Element`]) and what can index one ([`ToIndex`],
//! [`IndexElem`]). The bottom of the layers, beside the limits and the error type.
use crate::vmath::VecMath;
use core::fmt;

/// A tensor element: f32 (the default), f64, f16 and bf16 (`half`), i8..i64, u8..u64, bool, and
/// `num_complex::Complex<f32>`/`Complex<f64>` (the results of `eig`; storage, views, indexing and
/// Display only: complex numbers have no order, so they are not [`Num`](crate::num::Num)).
pub trait Element: Copy + Send + Sync + PartialEq + fmt::Debug + fmt::Display + 'static {
    /// The additive identity (`false` for bool).
    const ZERO: Self;
    /// The multiplicative identity (`true` for bool).
    const ONE: Self;
    /// Vectorised kernels of some element-wise functions for this type (`f32` and `f64` with
    /// the `simd` feature); none by default.
    #[doc(hidden)]
    const VMATH: VecMath<Self> = VecMath::NONE;
    /// The special functions of this type when they are not its `f64` values rounded (the dual
    /// numbers of [`derivative`](crate::derivative), whose derivatives an `f64` round trip would
    /// drop); none by default.
    #[doc(hidden)]
    const SPECIAL: Option<Special<Self>> = None;
}

/// The special functions of an element type that computes them itself (see
/// [`Element::SPECIAL`]): what `erf`, `erfc`, `erfinv`, `lgamma`, `digamma`, `gelu` and `gelu_tanh` call
/// instead of the `f64` function. Crate-private fields: user code can name the table but not
/// build one.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Special<T> {
    pub(crate) erf: fn(T) -> T,
    pub(crate) erfc: fn(T) -> T,
    pub(crate) erfinv: fn(T) -> T,
    pub(crate) lgamma: fn(T) -> T,
    pub(crate) digamma: fn(T) -> T,
    /// GELU `x Φ(x)`.
    pub(crate) gelu: fn(T) -> T,
    /// GELU's tanh form.
    pub(crate) gelu_tanh: fn(T) -> T,
}
macro_rules! element {
    ($($t:ty => $z:expr, $o:expr;)*) => { $(impl Element for $t { const ZERO: Self = $z; const ONE: Self = $o; })* };
}
impl Element for f32 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const VMATH: VecMath<Self> = crate::vmath::F32;
}
impl Element for f64 {
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    const VMATH: VecMath<Self> = crate::vmath::F64;
}
element! {
    half::f16 => half::f16::ZERO, half::f16::ONE; half::bf16 => half::bf16::ZERO, half::bf16::ONE;
    i8 => 0, 1; i16 => 0, 1; i32 => 0, 1; i64 => 0, 1; isize => 0, 1;
    u8 => 0, 1; u16 => 0, 1; u32 => 0, 1; u64 => 0, 1; usize => 0, 1;
    bool => false, true;
    num_complex::Complex<f32> => num_complex::Complex::new(0.0, 0.0), num_complex::Complex::new(1.0, 0.0);
    num_complex::Complex<f64> => num_complex::Complex::new(0.0, 0.0), num_complex::Complex::new(1.0, 0.0);
}

/// Integer types usable as runtime indices and bounds in `t!` and as index tensor elements
/// (converted without a silent wrap: a value beyond `isize` becomes `isize::MAX`, which is out of
/// bounds for every dim, and errors name the value as given through [`to_i128`](Self::to_i128)).
pub trait ToIndex: Copy {
    /// The value as an `isize` index (`isize::MAX` when it does not fit).
    fn to_index(self) -> isize;
    /// The value exactly (`u128` above `i128::MAX` saturates), for error messages.
    fn to_i128(self) -> i128;
}
macro_rules! to_index {
    ($($t:ty),*) => {$(
        impl ToIndex for $t {
            #[inline(always)]
            fn to_index(self) -> isize {
                isize::try_from(self).unwrap_or(isize::MAX)
            }
            #[inline(always)]
            fn to_i128(self) -> i128 {
                i128::try_from(self).unwrap_or(i128::MAX)
            }
        }
    )*};
}
to_index!(isize, usize, i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

/// Element types of index tensors (`index_select`, `gather`, `scatter`, advanced indexing):
/// the integer types. Negative entries count from the end, as in PyTorch.
pub trait IndexElem: Element + ToIndex {}
impl<T: Element + ToIndex> IndexElem for T {}
