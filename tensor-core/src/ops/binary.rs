//! Element-wise functions of two operands with broadcasting: the comparisons (`greater`, `less`,
//! `equal`, ... giving bool tensors), `maximum`/`minimum`, `pow`/`atan2`/`hypot`, the public
//! [`zip_with`](TensorBase::zip_with) and [`zip_inplace`](TensorBase::zip_inplace), and the logic
//! operators `! & | ^` on bool tensors.
//!
//! The right operand is a tensor or view (by reference; broadcast, with a typed result shape and
//! a compile error for static shapes that cannot broadcast, as for `+`) or a scalar of the
//! element type (see [`Operand`]).
//!
//! **Why `greater`, not `gt`:** the comparisons use NumPy's element-wise ufunc names (`greater`,
//! `greater_equal`, `less`, `less_equal`, `equal`, `not_equal`, which PyTorch also accepts as
//! aliases of `gt`, `ge`, `lt`, `le`, `eq`, `ne`). The short names are the methods of
//! `PartialOrd`/`PartialEq`, which return one `bool`: reusing them for tensor-valued methods would
//! make `a.lt(&b)` mean different things in generic and concrete code. `doc(alias)` finds them
//! under the short names.
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::kernels::small;
use crate::num::{Bits, Int, Num};
use crate::shape::{AssignShape, Broadcast, BroadcastShape, Shape};
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{OutTensor, OutTensor2, TensorBase};
use num_traits::Float;
use shaped_macros::try_twin;

pub use crate::ops::arith::{ArithOp, ArithRhs};
use crate::ops::zip::broadcast_zip;
pub use crate::ops::zip::Operand;

macro_rules! binary_fns {
    ($bound:path; $($(#[$attr:meta])* $m:ident, $try_m:ident, $m_out:ident, $try_m_out:ident, $torch:literal, $what:literal, $out:ty, |$a:ident, $b:ident| $body:expr;)*) => {
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: $bound,
        {
            $(
                #[doc = concat!("Element-wise ", $what, " with broadcasting (PyTorch `", $torch, "`): `rhs` is a tensor (`&b`; `[2, 3]` with `[3]` gives `[2, 3]`) or a scalar.")]
                #[doc = ""]
                #[doc = "# Errors"]
                #[doc = "[`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast (static ones are a compile error); [`ShapeError::Alloc`]."]
                $(#[$attr])*
                pub fn $try_m<R: Operand<D, S>>(&self, rhs: R) -> Result<R::Output<$out>, ShapeError> {
                    rhs.zip_from(self, |$a: D::Elem, $b: D::Elem| $body)
                }
                #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
                $(#[$attr])*
                #[track_caller]
                pub fn $m<R: Operand<D, S>>(&self, rhs: R) -> R::Output<$out> {
                    self.$try_m(rhs).or_panic()
                }
            )*
        }
        crate::ops::out::binary_out! { $bound; where [S: crate::shape::AssignShape<SO>]; $($m_out, $try_m_out, $m, $out, |$a, $b| $body;)* }
    };
}

binary_fns! { PartialOrd;
    #[doc(alias = "gt")] greater, try_greater, greater_out, try_greater_out, "gt", "`self > rhs` (a bool tensor; false where either is NaN)", bool, |a, b| a > b;
    #[doc(alias = "ge")] greater_equal, try_greater_equal, greater_equal_out, try_greater_equal_out, "ge", "`self >= rhs` (a bool tensor)", bool, |a, b| a >= b;
    #[doc(alias = "lt")] less, try_less, less_out, try_less_out, "lt", "`self < rhs` (a bool tensor)", bool, |a, b| a < b;
    #[doc(alias = "le")] less_equal, try_less_equal, less_equal_out, try_less_equal_out, "le", "`self <= rhs` (a bool tensor)", bool, |a, b| a <= b;
}

binary_fns! { Element;
    #[doc(alias = "eq")] equal, try_equal, equal_out, try_equal_out, "eq", "`self == rhs` (a bool tensor; NumPy's `equal`, not PyTorch's whole-tensor `torch.equal`)", bool, |a, b| a == b;
    #[doc(alias = "ne")] not_equal, try_not_equal, not_equal_out, try_not_equal_out, "ne", "`self != rhs` (a bool tensor; true where either is NaN)", bool, |a, b| a != b;
}

binary_fns! { Num;
    #[doc(alias = "max")] maximum, try_maximum, maximum_out, try_maximum_out, "maximum", "maximum (NaN if either is NaN)", D::Elem, |a, b| Num::max(a, b);
    #[doc(alias = "min")] minimum, try_minimum, minimum_out, try_minimum_out, "minimum", "minimum (NaN if either is NaN)", D::Elem, |a, b| Num::min(a, b);
}

binary_fns! { Float;
    #[doc(alias = "powf")] pow, try_pow, pow_out, try_pow_out, "pow", "power `self^rhs`", D::Elem, |a, b| a.powf(b);
    atan2, try_atan2, atan2_out, try_atan2_out, "atan2", "four-quadrant arctangent of `self / rhs` (radians)", D::Elem, |a, b| a.atan2(b);
    hypot, try_hypot, hypot_out, try_hypot_out, "hypot", "`sqrt(self² + rhs²)` without overflow", D::Elem, |a, b| a.hypot(b);
    copysign, try_copysign, copysign_out, try_copysign_out, "copysign", "`|self|` with the sign of `rhs` (of its sign bit: -0.0 and NaNs with it set count as negative)", D::Elem, |a, b| a.copysign(b);
    logaddexp, try_logaddexp, logaddexp_out, try_logaddexp_out, "logaddexp", "`ln(e^self + e^rhs)` without overflow: `max + ln(1 + e^-|self - rhs|)`", D::Elem, |a, b| crate::num::logaddexp(a, b);
}

binary_fns! { Bits;
    #[doc(alias = "logical_and")] bitwise_and, try_bitwise_and, bitwise_and_out, try_bitwise_and_out, "bitwise_and", "bitwise and (logical for `bool`; also the `&` operator)", D::Elem, |a, b| Bits::and(a, b);
    #[doc(alias = "logical_or")] bitwise_or, try_bitwise_or, bitwise_or_out, try_bitwise_or_out, "bitwise_or", "bitwise or (logical for `bool`; also the `|` operator)", D::Elem, |a, b| Bits::or(a, b);
    #[doc(alias = "logical_xor")] bitwise_xor, try_bitwise_xor, bitwise_xor_out, try_bitwise_xor_out, "bitwise_xor", "bitwise exclusive or (also the `^` operator)", D::Elem, |a, b| Bits::xor(a, b);
}

binary_fns! { Int;
    bitwise_left_shift, try_bitwise_left_shift, bitwise_left_shift_out, try_bitwise_left_shift_out, "bitwise_left_shift", "`self << rhs` (0 for a shift that is negative or not below the bit width)", D::Elem, |a, b| Int::shl(a, b);
    bitwise_right_shift, try_bitwise_right_shift, bitwise_right_shift_out, try_bitwise_right_shift_out, "bitwise_right_shift", "`self >> rhs`, arithmetic for signed types (a shift that is negative or not below the bit width gives 0, or -1 for a negative value)", D::Elem, |a, b| Int::shr(a, b);
}

/// The operators `&`, `|`, `^` between tensors (each pair of owned and borrowed operands), with
/// broadcasting: the `bitwise_*` methods, panicking with the `try_` form's message.
macro_rules! bit_operators {
    ($($Tr:ident, $m:ident, $try_m:ident;)*) => {$(
        bit_operators!(@impl $Tr, $m, $try_m, ['b] &TensorBase<D, S>, &'b TensorBase<D2, S2>, rhs => rhs);
        bit_operators!(@impl $Tr, $m, $try_m, [] TensorBase<D, S>, TensorBase<D2, S2>, rhs => &rhs);
        bit_operators!(@impl $Tr, $m, $try_m, ['b] TensorBase<D, S>, &'b TensorBase<D2, S2>, rhs => rhs);
        bit_operators!(@impl $Tr, $m, $try_m, [] &TensorBase<D, S>, TensorBase<D2, S2>, rhs => &rhs);
    )*};
    // One pair of operand kinds: `rhs` is the right operand, `$arg` it as the method takes it.
    (@impl $Tr:ident, $m:ident, $try_m:ident, [$($lt:lifetime)?] $Lhs:ty, $Rhs:ty, $rhs:ident => $arg:expr) => {
        impl<$($lt,)? D: Data, S: Shape + BroadcastShape<S2>, D2: Data<Elem = D::Elem>, S2: Shape> core::ops::$Tr<$Rhs> for $Lhs
        where
            D::Elem: Bits,
        {
            type Output = OutTensor2<D, D2, D::Elem, Broadcast<S, S2>>;
            #[track_caller]
            fn $m(self, $rhs: $Rhs) -> Self::Output {
                self.$try_m($arg).or_panic()
            }
        }
    };
}
bit_operators! {
    BitAnd, bitand, try_bitwise_and;
    BitOr, bitor, try_bitwise_or;
    BitXor, bitxor, try_bitwise_xor;
}

/// `bitwise_not` and the `!` operator.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Bits,
{
    /// Element-wise bitwise not (PyTorch `bitwise_not`, logical not for `bool`; also the `!`
    /// operator): same shape.
    #[track_caller]
    #[doc(alias = "logical_not")]
    pub fn bitwise_not(&self) -> OutTensor<D, D::Elem, S> {
        self.par_map(Bits::not)
    }
}
/// `!x` on a borrowed (`!&x`: [`bitwise_not`](TensorBase::bitwise_not)) or an owned tensor or view.
macro_rules! not_operator {
    ($($Lhs:ty),*) => {$(
        impl<D: Data, S: Shape> core::ops::Not for $Lhs
        where
            D::Elem: Bits,
        {
            type Output = OutTensor<D, D::Elem, S>;
            #[track_caller]
            fn not(self) -> Self::Output {
                self.bitwise_not()
            }
        }
    )*};
}
not_operator!(&TensorBase<D, S>, TensorBase<D, S>);

/// `lerp`: the linear interpolation between two tensors.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float,
{
    /// Element-wise `self + weight (end - self)` with broadcasting (PyTorch `lerp(input, end,
    /// weight)` with a scalar weight): `end` is a tensor or a scalar. Computed as PyTorch's
    /// kernel does: `self + weight (end - self)` when `|weight| < 0.5`, otherwise
    /// `end - (end - self)(1 - weight)`, so `weight = 1` gives `end` exactly (`f16`/`bf16` in
    /// `f32`, rounded once).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f64, Shape![2]> = Tensor::from([3.0, -1e300]);
    /// let b: Tensor<f64, Shape![2]> = Tensor::from([0.1, 1e300]);
    /// assert_eq!(a.lerp(&b, 1.0).to_vec(), [0.1, 1e300]); // `a + 1 (b - a)`: 0.10000000000000009, inf
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast (static
    /// ones are a compile error); [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_lerp<R: Operand<D, S>>(&self, end: R, weight: D::Elem) -> Result<R::Output<D::Elem>, ShapeError> {
        end.zip_from(self, move |a: D::Elem, b: D::Elem| crate::num::lerp(a, b, weight))
    }
}

/// `isclose`/`allclose`, the public broadcasting `zip_with`, and `zip_inplace`.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Element-wise `|self - other| <= atol + rtol * |other|` with broadcasting (PyTorch
    /// `isclose`, NumPy `isclose`; NaN is never close, equal infinities are). PyTorch's defaults
    /// are `rtol = 1e-5`, `atol = 1e-8`.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] naming both shapes; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_isclose<R: Operand<D, S>>(&self, other: R, rtol: f64, atol: f64) -> Result<R::Output<bool>, ShapeError>
    where
        D::Elem: Float,
    {
        other.zip_from(self, move |a: D::Elem, b: D::Elem| close(a, b, rtol, atol))
    }
    /// Whether every element is [`isclose`](Self::isclose) to `other` (broadcast; PyTorch
    /// `allclose`, no allocation).
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] naming both shapes.
    #[try_twin]
    pub fn try_allclose<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        other: &TensorBase<D2, S2>,
        rtol: f64,
        atol: f64,
    ) -> Result<bool, ShapeError>
    where
        D::Elem: Float,
        S: BroadcastShape<S2>,
    {
        let (la, lb) = (self.layout(), other.layout());
        crate::shape::check_names::<S, S2>(la.sizes(), lb.sizes(), 0)?;
        let (sizes, r) = crate::shape::broadcast_sizes(la.sizes(), lb.sizes())?;
        let (ea, eb) = (la.expand(&sizes[..r])?, lb.expand(&sizes[..r])?);
        let (a, b) = (self.data.as_slice(), other.data.as_slice());
        let mut all = true;
        crate::layout::walk(&sizes[..r], [&ea, &eb], |[i, j]| all &= close(a[i], b[j], rtol, atol));
        Ok(all)
    }

    /// `f(a, b)` element-wise over `self` and `other` broadcast together, into a new tensor of the
    /// broadcast shape (ndarray's `Zip::map_collect`, NumPy's binary ufuncs); the element types
    /// may differ. Static shapes that cannot broadcast are a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast;
    /// [`ShapeError::Alloc`].
    #[doc(alias = "map_collect")]
    #[try_twin(alias = "Zip", alias = "zip")]
    pub fn try_zip_with<D2: Data, S2: Shape, U: Element>(
        &self,
        other: &TensorBase<D2, S2>,
        f: impl Fn(D::Elem, D2::Elem) -> U + Sync + Send,
    ) -> Result<OutTensor2<D, D2, U, Broadcast<S, S2>>, ShapeError>
    where
        S: BroadcastShape<S2>,
    {
        broadcast_zip(self, other, f)
    }

    /// `f(&mut a, b)` for every element `a` of `self` with `other` broadcast to `self`'s shape,
    /// in place (ndarray's `Zip::for_each` / `zip_mut_with`). A static `other` that does not
    /// broadcast to `self` is a compile error; runtime sizes are checked before the first write.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when `other` does not broadcast to `self` (nothing is written).
    #[doc(alias = "zip_mut_with")]
    #[try_twin]
    pub fn try_zip_inplace<D2: Data, S2: AssignShape<S>>(
        &mut self,
        other: &TensorBase<D2, S2>,
        f: impl Fn(&mut D::Elem, D2::Elem),
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        if const { D::INLINE && D2::INLINE && small::is_static::<S>() && small::is_static::<S2>() } {
            small::zip_assign::<S, S2, _, _>(self.data.as_mut_slice(), other.data.as_slice(), f);
            return Ok(());
        }
        let ls = other.layout().expand_for_assign(self.layout().sizes())?;
        let ld = *self.layout();
        kernels::zip_assign(self.data.as_mut_slice(), &ld, other.data.as_slice(), &ls, f);
        Ok(())
    }
}

/// `|a - b| <= atol + rtol |b|`, NaN never close, equal values (infinities) always.
#[inline(always)]
fn close<T: Float>(a: T, b: T, rtol: f64, atol: f64) -> bool {
    if a == b {
        return true;
    }
    let (a, b) = (a.to_f64().unwrap_or(f64::NAN), b.to_f64().unwrap_or(f64::NAN));
    (a - b).abs() <= atol + rtol * b.abs()
}
