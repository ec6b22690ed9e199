//! The `_out` forms: element-wise results written into an existing tensor or mutable view instead
//! of a new buffer (NumPy's `out=` argument, PyTorch's `out=` / ATen's `*_out` functions), so a
//! loop can reuse one buffer and pay no allocation or page faults.
//!
//! `a.add_out(&b, &mut out)` writes `a + b` into `out`; every binary element-wise method has such
//! a form (`sub_out`, `maximum_out`, `greater_out`, `atan2_out`, ...), and so does every unary one
//! (`exp_out`, `relu_out`, `neg_out`, `clamp_out`, ...). The general forms are
//! [`map_out`](TensorBase::map_out) and [`zip_with_out`](TensorBase::zip_with_out).
//!
//! **Shapes follow NumPy's `out=` rule**: the inputs broadcast *to `out`'s shape* (`out` itself
//! never broadcasts and is never resized, unlike PyTorch, which resizes a mismatched `out` with a
//! warning). For static shapes an input that cannot broadcast to `out` is a compile error
//! ([`AssignShape`]); runtime sizes are checked before the first write, so a failed call leaves
//! `out` unchanged. `out` may have any strides (a transposed or sliced view); the borrow rules
//! keep it from overlapping the inputs.
use crate::error::ShapeError;
use crate::kernels;
use crate::kernels::small;
use crate::num::Num;
use crate::shape::{AssignShape, Shape};
use crate::storage::{Data, DataMut, Element};
use crate::tensor::TensorBase;
use shaped_macros::try_twin;

/// The right operand of a binary `_out` method on `TensorBase<D, S>` writing into a tensor of
/// shape `SO`: a tensor or view by reference (`&b`, broadcast to `SO`) or a scalar of the element
/// type.
pub trait OutOperand<D: Data, SO: Shape> {
    /// `out = f(lhs, rhs)` element-wise, `lhs` and `rhs` broadcast to `out`'s shape.
    #[doc(hidden)]
    fn zip_to<S: AssignShape<SO>, DO: DataMut>(
        self,
        lhs: &TensorBase<D, S>,
        out: &mut TensorBase<DO, SO>,
        f: impl Fn(D::Elem, D::Elem) -> DO::Elem + Sync + Send,
    ) -> Result<(), ShapeError>;
    /// Whether any element of the operand is zero (integer division's check).
    #[doc(hidden)]
    fn has_zero(&self) -> bool;
}

impl<D: Data, SO: Shape, D2: Data<Elem = D::Elem>, S2: AssignShape<SO>> OutOperand<D, SO> for &TensorBase<D2, S2> {
    #[inline(always)]
    fn zip_to<S: AssignShape<SO>, DO: DataMut>(
        self,
        lhs: &TensorBase<D, S>,
        out: &mut TensorBase<DO, SO>,
        f: impl Fn(D::Elem, D::Elem) -> DO::Elem + Sync + Send,
    ) -> Result<(), ShapeError> {
        lhs.try_zip_with_out(self, out, f)
    }
    fn has_zero(&self) -> bool {
        self.any_zero()
    }
}

macro_rules! scalar_out_operand {
    ($($t:ty),*) => {$(
        /// A scalar right operand: `out = f(lhs, scalar)`.
        impl<D: Data<Elem = $t>, SO: Shape> OutOperand<D, SO> for $t {
            #[inline(always)]
            fn zip_to<S: AssignShape<SO>, DO: DataMut>(
                self,
                lhs: &TensorBase<D, S>,
                out: &mut TensorBase<DO, SO>,
                f: impl Fn($t, $t) -> DO::Elem + Sync + Send,
            ) -> Result<(), ShapeError> {
                lhs.try_map_out(out, move |x| f(x, self))
            }
            fn has_zero(&self) -> bool {
                *self == <$t as Element>::ZERO
            }
        }
    )*};
}
scalar_out_operand!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, bool);

/// For integer division into `out`: [`ShapeError::DivisionByZero`] when `rhs` has a zero that
/// would be used (`out` is not empty). Checked before anything is written.
#[inline(always)]
pub(crate) fn check_divisor_out<D: Data, SO: Shape, R: OutOperand<D, SO>>(
    op: &'static str,
    rhs: &R,
    out_numel: usize,
) -> Result<(), ShapeError>
where
    D::Elem: Num,
{
    if <D::Elem as Num>::INTEGER && out_numel > 0 && rhs.has_zero() {
        return Err(ShapeError::DivisionByZero { op });
    }
    Ok(())
}

/// The general `_out` forms.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Writes `f(x)` for every element `x` of `self`, broadcast to `out`'s shape, into `out`
    /// (NumPy's unary ufuncs with `out=`; ndarray's `Zip::map_assign_into`). `out` keeps its
    /// shape and strides; nothing is allocated. A static `self` that cannot broadcast to `out` is
    /// a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] naming both shapes when `self` does not broadcast to `out`'s runtime
    /// sizes (nothing is written).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f32, Shape![3]> = Tensor::from([0.0, 1.0, 2.0]);
    /// let mut out: Tensor<f32, Shape![2, 3]> = Tensor::from([[9.0; 3]; 2]);
    /// a.map_out(&mut out, |x| 2.0 * x); // [3] broadcast to the rows of [2, 3]
    /// assert_eq!(out.to_vec(), [0.0, 2.0, 4.0, 0.0, 2.0, 4.0]);
    /// ```
    #[doc(alias = "map_assign_into")]
    #[try_twin]
    pub fn try_map_out<DO: DataMut, SO: Shape>(
        &self,
        out: &mut TensorBase<DO, SO>,
        f: impl Fn(D::Elem) -> DO::Elem + Sync + Send,
    ) -> Result<(), ShapeError>
    where
        S: AssignShape<SO>,
    {
        self.map_out_from(out, f, kernels::PAR_THRESHOLD)
    }
    /// [`try_map_out`](Self::try_map_out) splitting across rayon's pool from `threshold` elements.
    pub(crate) fn map_out_from<DO: DataMut, SO: Shape>(
        &self,
        out: &mut TensorBase<DO, SO>,
        f: impl Fn(D::Elem) -> DO::Elem + Sync + Send,
        threshold: usize,
    ) -> Result<(), ShapeError>
    where
        S: AssignShape<SO>,
    {
        if const { D::INLINE && DO::INLINE && small::same_static::<S, SO>() } {
            small::map(out.data.as_mut_slice(), self.data.as_slice(), f);
            return Ok(());
        }
        let ld = *out.layout();
        let ls = self.layout().expand_for_assign(ld.sizes())?;
        kernels::map_to(out.data.as_mut_slice(), &ld, self.data.as_slice(), &ls, f, threshold);
        Ok(())
    }
    /// [`map_out_from`](Self::map_out_from) for a function with a vectorised kernel `op`
    /// ([`crate::vmath`]): `self` copied into `out`, then `out` transformed in place by the
    /// kernel (contiguous) or `f` (otherwise), so that `exp_out` gives `exp`'s bits; block by
    /// block when both are contiguous with the same sizes.
    pub(crate) fn map_vec_out_from<DO: DataMut<Elem = D::Elem>, SO: Shape>(
        &self,
        op: Option<crate::vmath::VecOp>,
        out: &mut TensorBase<DO, SO>,
        f: impl Fn(D::Elem) -> D::Elem + Sync + Send,
        threshold: usize,
    ) -> Result<(), ShapeError>
    where
        S: AssignShape<SO>,
    {
        match (op, <D::Elem as Element>::VMATH.kernels) {
            (Some(op), Some((apply, _))) => {
                // Both contiguous with the same sizes: block by block, one pass over memory.
                let (ld, ls) = (*out.layout(), *self.layout());
                if ld.sizes() == ls.sizes() {
                    if let (Some(s), Some(d)) = (
                        kernels::contiguous_slice(self.data.as_slice(), &ls),
                        kernels::contiguous_slice_mut(out.data.as_mut_slice(), &ld),
                    ) {
                        kernels::vec_copy_apply(d, s, op, apply, threshold);
                        return Ok(());
                    }
                }
                self.map_out_from(out, |x| x, threshold)?;
                let ld = *out.layout();
                kernels::vec_map_inplace(out.data.as_mut_slice(), &ld, op, apply, f, threshold);
                Ok(())
            }
            _ => self.map_out_from(out, f, threshold),
        }
    }

    /// Writes `f(a, b)` for `self` and `other`, each broadcast to `out`'s shape, into `out`
    /// (NumPy's binary ufuncs with `out=`; ndarray's `Zip::map_assign_into`). `out` keeps its
    /// shape and strides; nothing is allocated. A static operand that cannot broadcast to `out`
    /// is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] naming the operand's and `out`'s shapes when an operand does not
    /// broadcast to `out`'s runtime sizes (nothing is written).
    #[try_twin]
    pub fn try_zip_with_out<D2: Data, S2: AssignShape<SO>, DO: DataMut, SO: Shape>(
        &self,
        other: &TensorBase<D2, S2>,
        out: &mut TensorBase<DO, SO>,
        f: impl Fn(D::Elem, D2::Elem) -> DO::Elem + Sync + Send,
    ) -> Result<(), ShapeError>
    where
        S: AssignShape<SO>,
    {
        if const {
            D::INLINE
                && D2::INLINE
                && DO::INLINE
                && small::is_static::<S>()
                && small::is_static::<S2>()
                && small::is_static::<SO>()
        } {
            small::zip::<S, S2, SO, _, _, _>(out.data.as_mut_slice(), self.data.as_slice(), other.data.as_slice(), f);
            return Ok(());
        }
        let ld = *out.layout();
        let la = self.layout().expand_for_assign(ld.sizes())?;
        let lb = other.layout().expand_for_assign(ld.sizes())?;
        kernels::zip_to(out.data.as_mut_slice(), &ld, self.data.as_slice(), &la, other.data.as_slice(), &lb, f);
        Ok(())
    }
}

/// The `_out` forms of binary element-wise methods: `$m(&self, rhs, &mut out)` and its `try_`
/// form, with `$body` computing one element. Used by the arithmetic, comparison and float
/// modules next to their new-tensor forms.
macro_rules! binary_out {
    // The bound `where [S: AssignShape<SO>]` comes from the invocation, beside the method names
    // (forwarded as tokens, one op per `@one` call), so that an error quotes the table alone
    // rather than this definition and the table.
    ($bound:path; where $w:tt; $($(#[$attr:meta])* $m:ident, $try_m:ident, $plain:ident, $out:ty, $([$div:ident])? |$a:ident, $b:ident| $body:expr;)*) => {
        /// `_out` forms: the result written into an existing tensor (see [`crate::ops::out`]).
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: $bound,
        {
            $(crate::ops::out::binary_out!(@one $w; $(#[$attr])* $m, $try_m, $plain, $out, $([$div])? |$a, $b| $body);)*
        }
    };
    (@one [$($w:tt)*]; $(#[$attr:meta])* $m:ident, $try_m:ident, $plain:ident, $out:ty, $([$div:ident])? |$a:ident, $b:ident| $body:expr) => {
        #[doc = concat!("[`", stringify!($plain), "`](Self::", stringify!($plain), ") written into `out` (NumPy's `out=`): `self` and `rhs` (a tensor `&b` or a scalar) broadcast to `out`'s shape, which is kept; nothing is allocated. See [`ops::out`](crate::ops::out).")]
        #[doc = ""]
        #[doc = "# Errors"]
        #[doc = "[`ShapeError::Expand`](crate::ShapeError::Expand) naming the shapes when an operand does not broadcast to `out`'s runtime sizes (static ones are a compile error); [`ShapeError::DivisionByZero`](crate::ShapeError::DivisionByZero) for an integer division by a zero element. Nothing is written on error."]
        $(#[$attr])*
        pub fn $try_m<SO: Shape, DO: $crate::storage::DataMut<Elem = $out>, R: $crate::ops::out::OutOperand<D, SO>>(
            &self,
            rhs: R,
            out: &mut $crate::tensor::TensorBase<DO, SO>,
        ) -> Result<(), $crate::error::ShapeError>
        where
            $($w)*
        {
            $($crate::ops::out::check_divisor_out::<D, SO, R>(stringify!($div), &rhs, out.numel())?;)?
            rhs.zip_to(self, out, |$a: D::Elem, $b: D::Elem| $body)
        }
        #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
        $(#[$attr])*
        #[track_caller]
        pub fn $m<SO: Shape, DO: $crate::storage::DataMut<Elem = $out>, R: $crate::ops::out::OutOperand<D, SO>>(
            &self,
            rhs: R,
            out: &mut $crate::tensor::TensorBase<DO, SO>,
        ) where
            $($w)*
        {
            $crate::error::OrPanic::or_panic(self.$try_m(rhs, out))
        }
    };
}
pub(crate) use binary_out;

/// The `_out` forms of unary element-wise methods: `$m(&self, &mut out)` and its `try_` form.
macro_rules! unary_out {
    // The bound comes from the invocation, as in `binary_out!`.
    ($bound:path, $threshold:expr; where $w:tt; $($m:ident, $try_m:ident, $plain:ident, $out:ty, |$x:ident $(, $p:ident: $pt:ty)*| $body:expr;)*) => {
        /// `_out` forms: the result written into an existing tensor (see [`crate::ops::out`]).
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: $bound,
        {
            $(crate::ops::out::unary_out!(@one $threshold; $w; map_out_from(); $m, $try_m, $plain, $out, |$x $(, $p: $pt)*| $body);)*
        }
    };
    // Functions with a vectorised kernel `$vop` (`Option<VecOp>`, see `crate::vmath`), which
    // writes into `out` through it.
    (vec $bound:path, $threshold:expr; where $w:tt; $($m:ident, $try_m:ident, $plain:ident, $vop:expr, |$x:ident| $body:expr;)*) => {
        /// `_out` forms: the result written into an existing tensor (see [`crate::ops::out`]).
        impl<D: Data, S: Shape> TensorBase<D, S>
        where
            D::Elem: $bound,
        {
            $(crate::ops::out::unary_out!(@one $threshold; $w; map_vec_out_from($vop); $m, $try_m, $plain, D::Elem, |$x| $body);)*
        }
    };
    (@one $threshold:expr; [$($w:tt)*]; $run:ident($($extra:expr),*); $m:ident, $try_m:ident, $plain:ident, $out:ty, |$x:ident $(, $p:ident: $pt:ty)*| $body:expr) => {
        #[doc = concat!("[`", stringify!($plain), "`](Self::", stringify!($plain), ") written into `out` (NumPy's `out=`): `self` broadcast to `out`'s shape, which is kept; nothing is allocated. See [`ops::out`](crate::ops::out).")]
        #[doc = ""]
        #[doc = "# Errors"]
        #[doc = "[`ShapeError::Expand`](crate::ShapeError::Expand) naming both shapes when `self` does not broadcast to `out`'s runtime sizes (static ones are a compile error); nothing is written."]
        pub fn $try_m<SO: Shape, DO: $crate::storage::DataMut<Elem = $out>>(&self, $($p: $pt,)* out: &mut $crate::tensor::TensorBase<DO, SO>) -> Result<(), $crate::error::ShapeError>
        where
            $($w)*
        {
            self.$run($($extra,)* out, move |$x: D::Elem| $body, $threshold)
        }
        #[doc = concat!("[`", stringify!($try_m), "`](Self::", stringify!($try_m), "), panicking with the error's message.")]
        #[track_caller]
        pub fn $m<SO: Shape, DO: $crate::storage::DataMut<Elem = $out>>(&self, $($p: $pt,)* out: &mut $crate::tensor::TensorBase<DO, SO>)
        where
            $($w)*
        {
            $crate::error::OrPanic::or_panic(self.$try_m($($p,)* out))
        }
    };
}
pub(crate) use unary_out;
