//! Indexed writes: `t!(x[...] = value)` ([`TAssign`]) and `t!(x[...] += value)` ([`TCompound`]).
use super::advanced::*;
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::shape::*;
use crate::storage::{Data, DataMut};
use crate::tensor::{TensorBase, TensorViewMut};
use shaped_macros::try_twin;

/// The right-hand side of `t!(x[...] = value)`: a scalar, or a tensor that broadcasts to the
/// indexed shape. A failed write (a value that does not broadcast, an index tensor entry out of
/// range) changes nothing: every check comes before the first write.
pub trait TAssign<V>: Sized {
    /// Writes `value` through the view (`t!(try x[...] = value)`).
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when a runtime-shaped value does not broadcast to the indexed
    /// shape; [`ShapeError::Index`] for an index tensor entry out of range.
    fn t_try_assign(self, value: V) -> Result<(), ShapeError>;
    /// Writes `value` through the view, panicking with the error's message.
    #[track_caller]
    fn t_assign(self, value: V) {
        self.t_try_assign(value).or_panic()
    }
}
impl<T: crate::Element, S: Shape, D2: Data<Elem = T>, S2: AssignShape<S>> TAssign<TensorBase<D2, S2>>
    for TensorViewMut<'_, T, S>
{
    fn t_try_assign(mut self, value: TensorBase<D2, S2>) -> Result<(), ShapeError> {
        self.try_assign(&value)
    }
}
impl<T: crate::Element, S: Shape, D2: Data<Elem = T>, S2: AssignShape<S>> TAssign<&TensorBase<D2, S2>>
    for TensorViewMut<'_, T, S>
{
    fn t_try_assign(mut self, value: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        self.try_assign(value)
    }
}
macro_rules! scalar_assign {
    ($($t:ty),*) => {$(
        impl<S: Shape> TAssign<$t> for TensorViewMut<'_, $t, S> {
            fn t_try_assign(mut self, value: $t) -> Result<(), ShapeError> {
                self.fill(value);
                Ok(())
            }
        }
        impl<S: Shape> TAssign<$t> for IndexPut<'_, $t, S> {
            fn t_try_assign(self, value: $t) -> Result<(), ShapeError> {
                self.put_value(value)
            }
        }
    )*};
}
scalar_assign!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, bool);
impl<T: crate::Element, S: Shape, D2: Data<Elem = T>, S2: Shape> TAssign<TensorBase<D2, S2>> for IndexPut<'_, T, S> {
    fn t_try_assign(self, value: TensorBase<D2, S2>) -> Result<(), ShapeError> {
        self.put(&value)
    }
}
impl<T: crate::Element, S: Shape, D2: Data<Elem = T>, S2: Shape> TAssign<&TensorBase<D2, S2>> for IndexPut<'_, T, S> {
    fn t_try_assign(self, value: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        self.put(value)
    }
}

/// The operation of `t!(x[...] op= value)` (`+= -= *= /= %=`).
pub trait CompoundOp {
    /// The method name (`add`, ...), for error messages.
    const NAME: &'static str;
    /// Whether an integer zero on the right is an error.
    const DIVIDES: bool;
    /// `a op b` under the crate's arithmetic rule (see [`crate::num`]).
    fn apply<T: crate::Num>(a: T, b: T) -> T;
    /// `dst op= src` through the operator's own `try_` form (`try_add_assign`, ...): `t!(x[...]
    /// op= &y)` on a view delegates here, so both take the same checks, kernel and threading.
    ///
    /// # Errors
    /// As the operator's `try_` form.
    fn assign<T: crate::Num, S: Shape, D2: Data<Elem = T>, S2: AssignShape<S>>(
        dst: &mut TensorViewMut<'_, T, S>,
        src: &TensorBase<D2, S2>,
    ) -> Result<(), ShapeError>;
}
macro_rules! compound_ops {
    ($($name:ident $m:ident $try_m:ident $div:literal;)*) => {$(
        #[doc = concat!("`", stringify!($m), "` in `t!(x[...] op= value)`.")]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $name;
        impl CompoundOp for $name {
            const NAME: &'static str = stringify!($m);
            const DIVIDES: bool = $div;
            #[inline(always)]
            fn apply<T: crate::Num>(a: T, b: T) -> T {
                T::$m(a, b)
            }
            #[inline]
            fn assign<T: crate::Num, S: Shape, D2: Data<Elem = T>, S2: AssignShape<S>>(
                dst: &mut TensorViewMut<'_, T, S>,
                src: &TensorBase<D2, S2>,
            ) -> Result<(), ShapeError> {
                dst.$try_m(src)
            }
        }
    )*};
}
compound_ops! {
    OpAdd add try_add_assign false;
    OpSub sub try_sub_assign false;
    OpMul mul try_mul_assign false;
    OpDiv div try_div_assign true;
    OpRem rem try_rem_assign true;
}

/// For integer division: [`ShapeError::DivisionByZero`] when a divisor that would be used is zero.
fn check_divides<Op: CompoundOp, T: crate::Num>(b: &[T], lb: &Layout, used: usize) -> Result<(), ShapeError> {
    if Op::DIVIDES {
        crate::kernels::check_divisor(Op::NAME, b, lb, used)
    } else {
        Ok(())
    }
}

/// The right-hand side of `t!(x[...] op= value)`: a scalar, or a tensor that broadcasts to the
/// indexed shape. A failed write changes nothing.
pub trait TCompound<Op, V>: Sized {
    /// Applies `op= value` through the view (`t!(try x[...] op= value)`).
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when a runtime-shaped value does not broadcast to the indexed
    /// shape; [`ShapeError::Index`] for an index tensor entry out of range;
    /// [`ShapeError::DivisionByZero`] for an integer division by zero.
    fn t_try_compound(self, value: V) -> Result<(), ShapeError>;
    /// Applies `op= value`, panicking with the error's message.
    #[track_caller]
    fn t_compound(self, value: V) {
        self.t_try_compound(value).or_panic()
    }
}
impl<T: crate::Num, S: Shape, D2: Data<Elem = T>, S2: AssignShape<S>, Op: CompoundOp> TCompound<Op, &TensorBase<D2, S2>>
    for TensorViewMut<'_, T, S>
{
    fn t_try_compound(mut self, value: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        Op::assign(&mut self, value)
    }
}
impl<T: crate::Num, S: Shape, D2: Data<Elem = T>, S2: AssignShape<S>, Op: CompoundOp> TCompound<Op, TensorBase<D2, S2>>
    for TensorViewMut<'_, T, S>
{
    fn t_try_compound(self, value: TensorBase<D2, S2>) -> Result<(), ShapeError> {
        <Self as TCompound<Op, &TensorBase<D2, S2>>>::t_try_compound(self, &value)
    }
}
impl<T: crate::Num, S: Shape, D2: Data<Elem = T>, S2: Shape, Op: CompoundOp> TCompound<Op, &TensorBase<D2, S2>>
    for IndexPut<'_, T, S>
{
    fn t_try_compound(self, value: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        self.combine(value, check_divides::<Op, T>, Op::apply)
    }
}
impl<T: crate::Num, S: Shape, D2: Data<Elem = T>, S2: Shape, Op: CompoundOp> TCompound<Op, TensorBase<D2, S2>>
    for IndexPut<'_, T, S>
{
    fn t_try_compound(self, value: TensorBase<D2, S2>) -> Result<(), ShapeError> {
        self.combine(&value, check_divides::<Op, T>, Op::apply)
    }
}
macro_rules! scalar_compound_t {
    ($($t:ty),*) => {$(
        impl<S: Shape, Op: CompoundOp> TCompound<Op, $t> for TensorViewMut<'_, $t, S> {
            fn t_try_compound(self, value: $t) -> Result<(), ShapeError> {
                let one = crate::Tensor::<$t, ()>::scalar(value);
                check_divides::<Op, $t>(one.storage(), one.layout(), self.numel())?;
                let l = *self.layout();
                crate::kernels::map_inplace_from(&mut self.data[..], &l, move |v| Op::apply(v, value), crate::kernels::PAR_THRESHOLD);
                Ok(())
            }
        }
        impl<S: Shape, Op: CompoundOp> TCompound<Op, $t> for IndexPut<'_, $t, S> {
            fn t_try_compound(self, value: $t) -> Result<(), ShapeError> {
                self.combine(&crate::Tensor::<$t, ()>::scalar(value), check_divides::<Op, $t>, Op::apply)
            }
        }
    )*};
}
scalar_compound_t!(f32, f64, half::f16, half::bf16, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl<D: DataMut, S: Shape> TensorBase<D, S> {
    /// Copies `src` into this tensor, broadcasting `src` to its shape (PyTorch `copy_`, and
    /// `x[idx] = src`: leading size-1 dims of `src` beyond this tensor's rank are dropped first,
    /// as PyTorch's indexing assignment does).
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when `src` does not broadcast to this tensor's shape (a static
    /// mismatch does not compile).
    #[try_twin(alias = "copy_")]
    pub fn try_assign<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(
        &mut self,
        src: &TensorBase<D2, S2>,
    ) -> Result<(), ShapeError> {
        let ls = src.layout().expand_for_assign(self.layout().sizes())?;
        let ld = *self.layout();
        crate::kernels::copy_to(self.data.as_mut_slice(), &ld, src.data.as_slice(), &ls);
        Ok(())
    }
    /// PyTorch's name for [`try_assign`](Self::try_assign) (`copy_`).
    ///
    /// # Errors
    /// As [`try_assign`](Self::try_assign).
    pub fn try_copy_from<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(
        &mut self,
        src: &TensorBase<D2, S2>,
    ) -> Result<(), ShapeError> {
        self.try_assign(src)
    }
    /// PyTorch's name for [`assign`](Self::assign) (`copy_`; Etaler's `assign`).
    ///
    /// # Panics
    /// When `src` does not broadcast to this tensor's shape.
    #[track_caller]
    #[doc(alias = "copy_from_slice")]
    pub fn copy_from<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(&mut self, src: &TensorBase<D2, S2>) {
        self.assign(src)
    }
}
