//! Element-wise arithmetic with broadcasting: `+ - * /` between tensors and views (by value or
//! by reference) and with scalars, plus the `try_` forms. Integer overflow wraps and integer
//! division by zero is an error (see [`crate::num`]).
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::kernels::{check_divisor, small};
use crate::layout::{Layout, LayoutRepr};
use crate::num::Num;
use crate::ops::zip::{broadcast_zip, Operand};
use crate::shape::AssignShape;
use crate::shape::{broadcast_sizes, Broadcast, BroadcastShape, SameShape, Shape};
use crate::storage::{Data, DataMut, Element, OutData};
use crate::tensor::{OutTensor, OutTensor2, TensorBase};
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};
use shaped_macros::try_twin;

/// The element count of broadcasting `la` with `lb` (0 when they do not broadcast or the count
/// overflows: the broadcast itself then reports the error).
fn broadcast_numel(la: &Layout, lb: &Layout) -> usize {
    broadcast_sizes(la.sizes(), lb.sizes())
        .ok()
        .and_then(|(s, r)| s[..r].iter().try_fold(1usize, |n, &d| n.checked_mul(d)))
        .unwrap_or(0)
}

macro_rules! binop {
    ($Tr:ident, $m:ident, $try_m:ident, $Op:ident, $op:tt, $torch:literal) => {
        impl<D: Data, S: Shape> TensorBase<D, S> {
            #[doc = concat!("Element-wise `", stringify!($op), "` with broadcasting (PyTorch `", $torch, "`): `[2, 3]` with `[3]` gives `[2, 3]`.")]
            #[doc = ""]
            #[doc = "Static shapes that cannot broadcast are a compile error; runtime (`Dyn`) dims are checked here. Integer overflow wraps (see [`crate::num`])."]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast; [`ShapeError::DivisionByZero`] for an integer division by a zero element; [`ShapeError::Alloc`] when the result cannot be allocated."]
            #[inline(always)]
            pub fn $try_m<D2: Data<Elem = D::Elem>, S2: Shape>(
                &self,
                rhs: &TensorBase<D2, S2>,
            ) -> Result<OutTensor2<D, D2, D::Elem, Broadcast<S, S2>>, ShapeError>
            where
                S: BroadcastShape<S2>,
                D::Elem: Num,
            {
                try_arith::<$Op, D, S, D2, S2>(self, rhs)
            }
        }
    };
}
binop!(Add, add, try_add, AddOp, +, "torch.add");
binop!(Sub, sub, try_sub, SubOp, -, "torch.sub");
binop!(Mul, mul, try_mul, MulOp, *, "torch.mul");
binop!(Div, div, try_div, DivOp, /, "torch.div");
binop!(Rem, rem, try_rem, RemOp, %, "torch.fmod");

/// An arithmetic operator of [`ArithRhs`]: its name (for the errors), whether it divides (an
/// integer division checks for zero divisors) and its element function.
#[doc(hidden)]
pub trait ArithOp {
    /// `"add"`, ... (as [`ShapeError::DivisionByZero`] names it).
    const NAME: &'static str;
    /// Division and remainder.
    const DIVIDES: bool;
    /// The element function.
    fn num<T: Num>(a: T, b: T) -> T;
}
macro_rules! arith_op {
    ($($Op:ident $name:ident $divides:literal;)*) => {$(
        #[doc = concat!("The operator `", stringify!($name), "` of [`ArithRhs`].")]
        #[doc(hidden)]
        pub struct $Op;
        impl ArithOp for $Op {
            const NAME: &'static str = stringify!($name);
            const DIVIDES: bool = $divides;
            #[inline(always)]
            fn num<T: Num>(a: T, b: T) -> T {
                T::$name(a, b)
            }
        }
    )*};
}
arith_op! { AddOp add false; SubOp sub false; MulOp mul false; DivOp div true; RemOp rem true; }

/// `lhs op rhs` with broadcasting: the `try_` forms' body.
#[inline(always)]
fn try_arith<O: ArithOp, D: Data, S: Shape + BroadcastShape<S2>, D2: Data<Elem = D::Elem>, S2: Shape>(
    lhs: &TensorBase<D, S>,
    rhs: &TensorBase<D2, S2>,
) -> Result<OutTensor2<D, D2, D::Elem, Broadcast<S, S2>>, ShapeError>
where
    D::Elem: Num,
{
    if O::DIVIDES && <D::Elem as Num>::INTEGER {
        check_divisor(O::NAME, rhs.storage(), rhs.layout(), broadcast_numel(lhs.layout(), rhs.layout()))?;
    }
    broadcast_zip(lhs, rhs, O::num::<D::Elem>)
}

/// The right operand of `a + b`, `a - b`, `a * b`, `a / b` and `a % b` on a tensor or view `a`
/// (by reference or by value) of shape `S`: a tensor or view, by reference or by value, broadcast
/// with `S` (the result has the broadcast shape; PyTorch's `torch.add`, ...), or a scalar of the
/// element type (the result has shape `S`). A static shape that cannot broadcast is a compile
/// error naming both shapes; runtime (`Dyn`) sizes that do not broadcast panic with the `try_`
/// form's message, as does an integer division by zero.
///
/// Each operator has one impl on tensors, taking every right operand through this trait: rustc
/// then meets one candidate when it checks `a + b` instead of one per operand type, each tried
/// with the right side unknown (checking 500 broadcasts took half the time).
#[diagnostic::on_unimplemented(
    message = "cannot combine a tensor of `{D}` elements and shape `{S}` with `{Self}`",
    label = "the right operand must be a tensor or view of the same element type (by reference or by value), or a scalar of that type"
)]
pub trait ArithRhs<D: Data, S: Shape> {
    /// The result.
    type Output;
    /// `lhs op self`, panicking on a runtime error.
    #[doc(hidden)]
    fn arith<O: ArithOp>(self, lhs: &TensorBase<D, S>) -> Self::Output;
}
impl<D: Data, S: Shape + BroadcastShape<S2>, D2: Data<Elem = D::Elem>, S2: Shape> ArithRhs<D, S> for &TensorBase<D2, S2>
where
    D::Elem: Num,
{
    type Output = OutTensor2<D, D2, D::Elem, Broadcast<S, S2>>;
    #[track_caller]
    #[inline(always)]
    fn arith<O: ArithOp>(self, lhs: &TensorBase<D, S>) -> Self::Output {
        try_arith::<O, D, S, D2, S2>(lhs, self).or_panic()
    }
}
impl<D: Data, S: Shape + BroadcastShape<S2>, D2: Data<Elem = D::Elem>, S2: Shape> ArithRhs<D, S> for TensorBase<D2, S2>
where
    D::Elem: Num,
{
    type Output = OutTensor2<D, D2, D::Elem, Broadcast<S, S2>>;
    #[track_caller]
    #[inline(always)]
    fn arith<O: ArithOp>(self, lhs: &TensorBase<D, S>) -> Self::Output {
        try_arith::<O, D, S, D2, S2>(lhs, &self).or_panic()
    }
}
/// A dual-number scalar ([`Dual`](crate::num::Dual)) with a tensor of duals:
/// `&x * Dual::constant(2.0)`, as the float scalars.
impl<T: crate::num::Real, const N: usize, D: Data<Elem = crate::num::Dual<T, N>>, S: Shape> ArithRhs<D, S>
    for crate::num::Dual<T, N>
{
    type Output = OutTensor<D, crate::num::Dual<T, N>, S>;
    #[track_caller]
    #[inline(always)]
    fn arith<O: ArithOp>(self, lhs: &TensorBase<D, S>) -> Self::Output {
        lhs.map(|a| O::num(a, self))
    }
}
/// The operators on tensors, by reference and by value, each one impl over [`ArithRhs`].
macro_rules! arith_operators {
    ($($Tr:ident $m:ident $Op:ident $op:tt;)*) => {$(
        #[doc = concat!("`&a ", stringify!($op), " b` with broadcasting (`b` a tensor, a view or a scalar: see [`ArithRhs`]).")]
        impl<D: Data, S: Shape, R: ArithRhs<D, S>> $Tr<R> for &TensorBase<D, S> {
            type Output = R::Output;
            #[track_caller]
            #[inline(always)]
            fn $m(self, rhs: R) -> R::Output {
                rhs.arith::<$Op>(self)
            }
        }
        #[doc = concat!("`a ", stringify!($op), " b` with broadcasting (`b` a tensor, a view or a scalar: see [`ArithRhs`]).")]
        impl<D: Data, S: Shape, R: ArithRhs<D, S>> $Tr<R> for TensorBase<D, S> {
            type Output = R::Output;
            #[track_caller]
            #[inline(always)]
            fn $m(self, rhs: R) -> R::Output {
                rhs.arith::<$Op>(&self)
            }
        }
    )*};
}
arith_operators! { Add add AddOp +; Sub sub SubOp -; Mul mul MulOp *; Div div DivOp /; Rem rem RemOp %; }

/// Floor division and its remainder (PyTorch `floor_divide` / `remainder`, Python's `//` and
/// `%`), beside the truncating `/` and `%` operators.
macro_rules! floor_ops {
    ($($m:ident, $try_m:ident, $num:ident, $torch:literal, $what:literal;)*) => {
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: Num,
        {
            $(
                #[doc = concat!("Element-wise ", $what, " with broadcasting (PyTorch `", $torch, "`): `rhs` is a tensor (`&b`; `[2, 3]` with `[3]` gives `[2, 3]`) or a scalar (`x.", stringify!($m), "(2)`, `self`'s shape). Static shapes that cannot broadcast are a compile error. Floats follow CPython's `float_divmod`, as PyTorch: a zero divisor gives `a / 0` (±inf or NaN) for the quotient and NaN for the remainder; integers wrap (`i32::MIN // -1` is `i32::MIN`).")]
                #[doc = ""]
                #[doc = "```"]
                #[doc = "use shaped_core::Tensor;"]
                #[doc = "let a = Tensor::from([7i32, -7, 7, -7]);"]
                #[doc = "let b = Tensor::from([2, 2, -2, -2]);"]
                #[doc = "assert_eq!(a.floor_divide(&b).to_vec(), [3, -4, -4, 3]);"]
                #[doc = "assert_eq!(a.remainder(&b).to_vec(), [1, 1, -1, -1]);"]
                #[doc = "assert_eq!(a.remainder(3).to_vec(), [1, 2, 1, 2]);"]
                #[doc = "assert_eq!(Tensor::from([5.5f32, -5.5]).floor_divide(2.0).to_vec(), [2.0, -3.0]);"]
                #[doc = "```"]
                #[doc = ""]
                #[doc = "# Errors"]
                #[doc = "[`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast; [`ShapeError::DivisionByZero`] for an integer division by a zero element or scalar (when the result is not empty); [`ShapeError::Alloc`]."]
                pub fn $try_m<R: Operand<D, S>>(&self, rhs: R) -> Result<R::Output<D::Elem>, ShapeError> {
                    if <D::Elem as Num>::INTEGER && self.numel() > 0 && rhs.has_zero() {
                        return Err(ShapeError::DivisionByZero { op: stringify!($m) });
                    }
                    rhs.zip_from(self, <D::Elem as Num>::$num)
                }
                #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
                #[track_caller]
                pub fn $m<R: Operand<D, S>>(&self, rhs: R) -> R::Output<D::Elem> {
                    self.$try_m(rhs).or_panic()
                }
            )*
        }
    };
}
floor_ops! {
    floor_divide, try_floor_divide, floor_div, "floor_divide", "floor division `floor(self / rhs)`";
    remainder, try_remainder, floor_rem, "remainder", "remainder of floor division, with the sign of `rhs` (`self - floor(self / rhs) * rhs`)";
}

crate::ops::out::binary_out! { Num; where [S: crate::shape::AssignShape<SO>];
    #[doc(alias = "add_to")] add_out, try_add_out, try_add, D::Elem, |a, b| <D::Elem as Num>::add(a, b);
    #[doc(alias = "sub_to")] sub_out, try_sub_out, try_sub, D::Elem, |a, b| <D::Elem as Num>::sub(a, b);
    mul_out, try_mul_out, try_mul, D::Elem, |a, b| <D::Elem as Num>::mul(a, b);
    div_out, try_div_out, try_div, D::Elem, [div] |a, b| <D::Elem as Num>::div(a, b);
    rem_out, try_rem_out, try_rem, D::Elem, [rem] |a, b| <D::Elem as Num>::rem(a, b);
}

/// The strict element-wise forms: the operands must have the same shape, with no broadcasting, a
/// compile error for static shapes ([`SameShape`]). They catch the classic silent broadcast of
/// `[N, 1] - [N]` into `[N, N]` (a regression loss computed over the wrong shape) that `-` accepts,
/// as PyTorch and NumPy do. No PyTorch counterpart.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The strict forms' shared body: equal runtime sizes, then `f` element-wise.
    fn same_zip<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        op: &'static str,
        rhs: &TensorBase<D2, S2>,
        f: fn(D::Elem, D::Elem) -> D::Elem,
    ) -> Result<OutTensor2<D, D2, D::Elem, S>, ShapeError> {
        same_sizes(op, self.sizes(), rhs.sizes())?;
        broadcast_zip(self, rhs, f)
    }

    /// `self + rhs` for operands of the same shape, never broadcast: `[N, 1]` with `[N]` does not
    /// compile (`+` would broadcast it to `[N, N]`). The result has `self`'s shape type.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ; [`ShapeError::Alloc`].
    #[rustfmt::skip] // the bound on the signature's line: it is what an error shows
    #[try_twin]
    pub fn try_add_same<D2: Data<Elem = D::Elem>, S2: Shape>(&self, rhs: &TensorBase<D2, S2>) -> Result<OutTensor2<D, D2, D::Elem, S>, ShapeError> where S: SameShape<S2> {
        self.same_zip("add_same", rhs, <D::Elem as Num>::add)
    }
    /// `self - rhs` for operands of the same shape, never broadcast (see
    /// [`try_add_same`](Self::try_add_same)).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ; [`ShapeError::Alloc`].
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_sub_same<D2: Data<Elem = D::Elem>, S2: Shape>(&self, rhs: &TensorBase<D2, S2>) -> Result<OutTensor2<D, D2, D::Elem, S>, ShapeError> where S: SameShape<S2> {
        self.same_zip("sub_same", rhs, <D::Elem as Num>::sub)
    }
    /// `self * rhs` for operands of the same shape, never broadcast (see
    /// [`try_add_same`](Self::try_add_same)).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ; [`ShapeError::Alloc`].
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_mul_same<D2: Data<Elem = D::Elem>, S2: Shape>(&self, rhs: &TensorBase<D2, S2>) -> Result<OutTensor2<D, D2, D::Elem, S>, ShapeError> where S: SameShape<S2> {
        self.same_zip("mul_same", rhs, <D::Elem as Num>::mul)
    }
    /// `self / rhs` for operands of the same shape, never broadcast (see
    /// [`try_add_same`](Self::try_add_same)).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ; [`ShapeError::DivisionByZero`] for an
    /// integer division by a zero element; [`ShapeError::Alloc`].
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_div_same<D2: Data<Elem = D::Elem>, S2: Shape>(&self, rhs: &TensorBase<D2, S2>) -> Result<OutTensor2<D, D2, D::Elem, S>, ShapeError> where S: SameShape<S2> {
        check_divisor("div_same", rhs.storage(), rhs.layout(), self.numel())?;
        self.same_zip("div_same", rhs, <D::Elem as Num>::div)
    }
}

/// Scalar operands: `&x + 1.0`, `2.0 * &x` (same shape as `x`). One impl per element type,
/// since a generic scalar impl would overlap with the tensor operands. Integer overflow wraps;
/// an integer division by a zero scalar panics with [`ShapeError::DivisionByZero`]'s message
/// (`try_div` with a one-element tensor is the `Result` form).
macro_rules! scalar_ops {
    ($($t:ty),*) => {$(
        /// A scalar of the element type: the result has the tensor's shape.
        impl<D: Data<Elem = $t>, S: Shape> ArithRhs<D, S> for $t {
            type Output = OutTensor<D, $t, S>;
            #[track_caller]
            #[inline(always)]
            fn arith<O: ArithOp>(self, lhs: &TensorBase<D, S>) -> Self::Output {
                scalar_divisor(O::NAME, self, lhs.numel());
                lhs.map(|a| O::num(a, self))
            }
        }
        scalar_ops!(@one $t, Add, add, +);
        scalar_ops!(@one $t, Sub, sub, -);
        scalar_ops!(@one $t, Mul, mul, *);
        scalar_ops!(@one $t, Div, div, /);
        scalar_ops!(@one $t, Rem, rem, %);
    )*};
    (@one $t:ty, $Tr:ident, $m:ident, $op:tt) => {
        #[doc = concat!("`scalar ", stringify!($op), " &tensor`: same shape.")]
        impl<D: Data<Elem = $t>, S: Shape> $Tr<&TensorBase<D, S>> for $t {
            type Output = OutTensor<D, $t, S>;
            #[track_caller]
            #[inline(always)]
            fn $m(self, rhs: &TensorBase<D, S>) -> OutTensor<D, $t, S> {
                if stringify!($m) == "div" || stringify!($m) == "rem" {
                    check_divisor(stringify!($m), rhs.storage(), rhs.layout(), rhs.numel()).or_panic();
                }
                rhs.map(|b| <$t as Num>::$m(self, b))
            }
        }
        #[doc = concat!("`scalar ", stringify!($op), " tensor`: same shape.")]
        impl<D: Data<Elem = $t>, S: Shape> $Tr<TensorBase<D, S>> for $t {
            type Output = OutTensor<D, $t, S>;
            #[track_caller]
            #[inline(always)]
            fn $m(self, rhs: TensorBase<D, S>) -> OutTensor<D, $t, S> {
                self $op &rhs
            }
        }
    };
}
scalar_ops!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Scalar operands of dual-number tensors ([`Dual`](crate::num::Dual)): `&x * Dual::constant(2.0)`,
/// `c - &x` (same shape as `x`), as the float scalars above.
macro_rules! dual_scalar_ops {
    ($($Tr:ident, $m:ident, $op:tt;)*) => {$(
        #[doc = concat!("`dual ", stringify!($op), " &tensor`: same shape.")]
        impl<T: crate::num::Real, const N: usize, D: Data<Elem = crate::num::Dual<T, N>>, S: Shape> $Tr<&TensorBase<D, S>> for crate::num::Dual<T, N> {
            type Output = OutTensor<D, crate::num::Dual<T, N>, S>;
            #[track_caller]
            #[inline(always)]
            fn $m(self, rhs: &TensorBase<D, S>) -> Self::Output {
                rhs.map(|b| Num::$m(self, b))
            }
        }
        #[doc = concat!("`dual ", stringify!($op), " tensor`: same shape.")]
        impl<T: crate::num::Real, const N: usize, D: Data<Elem = crate::num::Dual<T, N>>, S: Shape> $Tr<TensorBase<D, S>> for crate::num::Dual<T, N> {
            type Output = OutTensor<D, crate::num::Dual<T, N>, S>;
            #[track_caller]
            #[inline(always)]
            fn $m(self, rhs: TensorBase<D, S>) -> Self::Output {
                rhs.map(|b| Num::$m(self, b))
            }
        }
    )*};
}
dual_scalar_ops! { Add, add, +; Sub, sub, -; Mul, mul, *; Div, div, /; Rem, rem, %; }

/// Panics with [`ShapeError::DivisionByZero`]'s message for an integer division of a non-empty
/// tensor by a zero scalar.
#[track_caller]
fn scalar_divisor<T: Num>(op: &'static str, rhs: T, numel: usize) {
    if (op == "div" || op == "rem") && T::INTEGER && rhs == T::ZERO && numel > 0 {
        crate::error::fail(ShapeError::DivisionByZero { op });
    }
}

/// The `*_same` forms' check: equal runtime sizes, or an error naming the operation.
fn same_sizes(op: &'static str, lhs: &[usize], rhs: &[usize]) -> Result<(), ShapeError> {
    if lhs == rhs {
        return Ok(());
    }
    Err(ShapeError::mismatch(op, "differ: the `*_same` forms need equal shapes (they never broadcast)", lhs, rhs))
}

/// The strict compound assignments `add_assign_same`, ...: `self op= rhs` in place with `rhs` of
/// exactly `self`'s shape, never broadcast (a compile error for static shapes, [`SameShape`]).
/// They catch `w -= &grad` with a `[10]` gradient for a `[64, 10]` weight, which `-=` accepts by
/// broadcasting, as PyTorch and NumPy do. No PyTorch counterpart. Written out, not by a macro, so
/// that a shape error's note shows the signature (as for the `*_same` forms).
impl<D: DataMut, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The strict compound forms' shared body: equal runtime sizes, a nonzero integer divisor,
    /// then `f` in place. Nothing is written on an error.
    fn same_assign<D2: Data<Elem = D::Elem>, S2: Shape>(
        &mut self,
        op: &'static str,
        rhs: &TensorBase<D2, S2>,
        f: fn(D::Elem, D::Elem) -> D::Elem,
        divides: bool,
    ) -> Result<(), ShapeError> {
        same_sizes(op, self.sizes(), rhs.sizes())?;
        if divides && <D::Elem as Num>::INTEGER {
            check_divisor(op, rhs.storage(), rhs.layout(), self.numel())?;
        }
        let ld = *self.layout();
        kernels::zip_assign_par(self.data.as_mut_slice(), &ld, rhs.data.as_slice(), rhs.layout(), move |d, s| {
            *d = f(*d, s)
        });
        Ok(())
    }
    /// `self += rhs` in place for `rhs` of the same shape, never broadcast.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ. Nothing is written then.
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_add_assign_same<D2: Data<Elem = D::Elem>, S2: Shape>(&mut self, rhs: &TensorBase<D2, S2>) -> Result<(), ShapeError> where S: SameShape<S2> {
        self.same_assign("add_assign_same", rhs, <D::Elem as Num>::add, false)
    }
    /// `self -= rhs` in place for `rhs` of the same shape, never broadcast.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ. Nothing is written then.
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_sub_assign_same<D2: Data<Elem = D::Elem>, S2: Shape>(&mut self, rhs: &TensorBase<D2, S2>) -> Result<(), ShapeError> where S: SameShape<S2> {
        self.same_assign("sub_assign_same", rhs, <D::Elem as Num>::sub, false)
    }
    /// `self *= rhs` in place for `rhs` of the same shape, never broadcast.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ. Nothing is written then.
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_mul_assign_same<D2: Data<Elem = D::Elem>, S2: Shape>(&mut self, rhs: &TensorBase<D2, S2>) -> Result<(), ShapeError> where S: SameShape<S2> {
        self.same_assign("mul_assign_same", rhs, <D::Elem as Num>::mul, false)
    }
    /// `self /= rhs` in place for `rhs` of the same shape, never broadcast.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when runtime sizes differ; [`ShapeError::DivisionByZero`] for an
    /// integer division by a zero element. Nothing is written then.
    #[rustfmt::skip]
    #[try_twin]
    pub fn try_div_assign_same<D2: Data<Elem = D::Elem>, S2: Shape>(&mut self, rhs: &TensorBase<D2, S2>) -> Result<(), ShapeError> where S: SameShape<S2> {
        self.same_assign("div_assign_same", rhs, <D::Elem as Num>::div, true)
    }
}

/// The compound assignment operators `+= -= *= /= %=`: the right side (a tensor, broadcast to the
/// left side's shape, or a scalar) is applied in place, through views too. A static shape that
/// does not broadcast to the left side is a compile error ([`AssignShape`]); runtime sizes are
/// checked before the first write, so a failed operation changes nothing.
macro_rules! compound {
    ($Tr:ident, $m:ident, $try_m:ident, $num:ident, $op:tt, $torch:literal, $divides:expr) => {
        impl<D: DataMut, S: Shape> TensorBase<D, S>
        where
            D::Elem: Num,
        {
            #[doc = concat!("`self ", stringify!($op), " rhs` in place, `rhs` broadcast to `self`'s shape (PyTorch `", $torch, "`).")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Mismatch`] naming the operator and both shapes when a runtime-sized `rhs` does not broadcast to `self`; [`ShapeError::DivisionByZero`] for an integer division by a zero element. Nothing is written then."]
            pub fn $try_m<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(&mut self, rhs: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
                if $divides && <D::Elem as Num>::INTEGER {
                    check_divisor(stringify!($num), rhs.storage(), rhs.layout(), self.numel())?;
                }
                let f = <D::Elem as Num>::$num;
                if const { D::INLINE && D2::INLINE && small::is_static::<S>() && small::is_static::<S2>() } {
                    // Both row-major of static shapes: `rhs` read at constant broadcast strides.
                    small::zip_assign::<S, S2, _, _>(self.data.as_mut_slice(), rhs.data.as_slice(), |d, s| *d = f(*d, s));
                    return Ok(());
                }
                let ls = rhs.layout().expand_for_assign(self.layout().sizes()).map_err(|_| ShapeError::Mismatch {
                    op: concat!(stringify!($m), " (`", stringify!($op), "`)"),
                    what: "do not broadcast: the right side must broadcast to the left side's shape".into(),
                    lhs: self.sizes().into(),
                    rhs: rhs.sizes().into(),
                })?;
                let ld = *self.layout();
                kernels::zip_assign_par(self.data.as_mut_slice(), &ld, rhs.data.as_slice(), &ls, move |d, s| *d = f(*d, s));
                Ok(())
            }
        }
        #[doc = concat!("`a ", stringify!($op), " &b`: in place, `b` broadcast to `a`'s shape; panics with the `try_` form's message.")]
        impl<'b, D: DataMut, S: Shape, D2: Data<Elem = D::Elem>, S2: AssignShape<S>> $Tr<&'b TensorBase<D2, S2>> for TensorBase<D, S>
        where
            D::Elem: Num,
        {
            #[track_caller]
            fn $m(&mut self, rhs: &'b TensorBase<D2, S2>) {
                self.$try_m(rhs).or_panic()
            }
        }
        #[doc = concat!("`a ", stringify!($op), " b`: in place, `b` broadcast to `a`'s shape.")]
        impl<D: DataMut, S: Shape, D2: Data<Elem = D::Elem>, S2: AssignShape<S>> $Tr<TensorBase<D2, S2>> for TensorBase<D, S>
        where
            D::Elem: Num,
        {
            #[track_caller]
            fn $m(&mut self, rhs: TensorBase<D2, S2>) {
                self.$try_m(&rhs).or_panic()
            }
        }
    };
}
compound!(AddAssign, add_assign, try_add_assign, add, +=, "add_", false);
compound!(SubAssign, sub_assign, try_sub_assign, sub, -=, "sub_", false);
compound!(MulAssign, mul_assign, try_mul_assign, mul, *=, "mul_", false);
compound!(DivAssign, div_assign, try_div_assign, div, /=, "div_", true);
compound!(RemAssign, rem_assign, try_rem_assign, rem, %=, "fmod_", true);

/// Compound assignment with a scalar (`x *= 2.0`), one impl per element type.
macro_rules! scalar_compound {
    ($($t:ty),*) => {$(
        scalar_compound!(@one $t, AddAssign, add_assign, add);
        scalar_compound!(@one $t, SubAssign, sub_assign, sub);
        scalar_compound!(@one $t, MulAssign, mul_assign, mul);
        scalar_compound!(@one $t, DivAssign, div_assign, div);
        scalar_compound!(@one $t, RemAssign, rem_assign, rem);
    )*};
    (@one $t:ty, $Tr:ident, $m:ident, $num:ident) => {
        #[doc = concat!("In place with a scalar (`", stringify!($m), "`); an integer division by zero panics (nothing is written).")]
        impl<D: DataMut<Elem = $t>, S: Shape> $Tr<$t> for TensorBase<D, S> {
            #[track_caller]
            fn $m(&mut self, rhs: $t) {
                scalar_divisor(stringify!($num), rhs, self.numel());
                if const { D::INLINE && small::is_static::<S>() } {
                    for v in self.data.as_mut_slice() {
                        *v = <$t as Num>::$num(*v, rhs);
                    }
                    return;
                }
                let l = *self.layout();
                kernels::map_inplace_from(self.data.as_mut_slice(), &l, move |v| <$t as Num>::$num(v, rhs), kernels::PAR_THRESHOLD);
            }
        }
    };
}
scalar_compound!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// `f` applied to every element in row-major order, into a new contiguous tensor of the same
    /// shape (NumPy vectorised function, ndarray `mapv`, PyTorch `Tensor.apply_` without the
    /// in-place part). `f` may be `FnMut` (a closure that holds an `Rng` or counts calls): it runs
    /// on one thread, in a fixed order. [`par_map`](Self::par_map) splits large tensors over
    /// rayon's threads. The result is inline (no allocation) when `self` is an inline
    /// [`STensor`](crate::STensor).
    ///
    /// # Panics
    /// When the result cannot be allocated (see [`try_map`](Self::try_map)).
    #[doc(alias = "mapv")]
    #[track_caller]
    #[inline(always)]
    pub fn map<U: Element>(&self, f: impl FnMut(D::Elem) -> U) -> OutTensor<D, U, S> {
        self.try_map(f).or_panic()
    }

    /// [`map`](Self::map) that returns [`ShapeError::Alloc`] instead of panicking when the result
    /// cannot be allocated.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    pub fn try_map<U: Element>(&self, f: impl FnMut(D::Elem) -> U) -> Result<OutTensor<D, U, S>, ShapeError> {
        type O<D, U, S> = crate::storage::Out<D, U, S>;
        if const { D::INLINE && small::is_static::<S>() } {
            let mut out = O::<D, U, S>::zeroed(const { small::numel::<S>() })?;
            small::map(out.as_mut_slice(), self.data.as_slice(), f);
            return Ok(TensorBase::from_lay(out, LayoutRepr::row_major::<S>(|| Ok(S::ROW_MAJOR))?));
        }
        let lay = LayoutRepr::try_from_layout::<S>(Layout::contiguous(self.sizes())?)?;
        // `map_into` writes every element.
        let mut out = crate::storage::for_overwrite::<U, O<D, U, S>>(self.numel())?;
        kernels::map_into(out.as_mut_slice(), self.data.as_slice(), self.layout(), f);
        Ok(TensorBase::from_lay(out, lay))
    }

    /// [`map`](Self::map) with `f` run on rayon's threads for large tensors (above
    /// [`PAR_THRESHOLD`](crate::kernels::PAR_THRESHOLD) elements), so `f` must be `Fn + Sync +
    /// Send`; the element-wise functions (`exp`, `sigmoid`, ...) use it.
    ///
    /// # Panics
    /// When the result cannot be allocated.
    #[track_caller]
    #[inline(always)]
    pub fn par_map<U: Element>(&self, f: impl Fn(D::Elem) -> U + Sync + Send) -> OutTensor<D, U, S> {
        self.try_par_map(f).or_panic()
    }

    /// [`par_map`](Self::par_map) returning [`ShapeError::Alloc`] instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    pub fn try_par_map<U: Element>(
        &self,
        f: impl Fn(D::Elem) -> U + Sync + Send,
    ) -> Result<OutTensor<D, U, S>, ShapeError> {
        type O<D, U, S> = crate::storage::Out<D, U, S>;
        if const { D::INLINE && small::is_static::<S>() } {
            // Row-major of a static shape: one pass over the array.
            let mut out = O::<D, U, S>::zeroed(const { small::numel::<S>() })?;
            small::map(out.as_mut_slice(), self.data.as_slice(), f);
            return Ok(TensorBase::from_lay(out, LayoutRepr::row_major::<S>(|| Ok(S::ROW_MAJOR))?));
        }
        self.map_general(f, kernels::PAR_THRESHOLD)
    }

    /// [`par_map`](Self::par_map) of a float function (`exp`, `sin`, ...): rayon from
    /// [`PAR_MATH_THRESHOLD`](kernels::PAR_MATH_THRESHOLD), since each element costs tens of cycles.
    #[track_caller]
    pub(crate) fn par_map_math<U: Element>(&self, f: impl Fn(D::Elem) -> U + Sync + Send) -> OutTensor<D, U, S> {
        if const { D::INLINE && small::is_static::<S>() } {
            return self.par_map(f);
        }
        self.map_general(f, kernels::PAR_MATH_THRESHOLD).or_panic()
    }

    /// [`try_par_map`](Self::try_par_map) through the shape-erased kernel.
    fn map_general<U: Element>(
        &self,
        f: impl Fn(D::Elem) -> U + Sync + Send,
        threshold: usize,
    ) -> Result<OutTensor<D, U, S>, ShapeError> {
        let lay = LayoutRepr::try_from_layout::<S>(Layout::contiguous(self.sizes())?)?;
        Ok(TensorBase::from_lay(kernels::map_out(self.data.as_slice(), self.layout(), f, threshold)?, lay))
    }
}
