//! One way to name an axis: an axis argument is a value of [`AxisArg`], either a compile-time
//! position [`Ax::<1>`](Ax) (negatives count from the end; the result types of the `::<1>`
//! forms), a runtime position `isize` (PyTorch's `dim=1`; the result keeps the rank, with `Dyn`
//! where the axis decided a dim), or a dim name ([`DimName`], `x.sum_axis(Seq)`: the position is
//! found in the shape's type; a name the shape lacks does not compile). The three kinds are told
//! apart by the marker `M` ([`ByConst`], [`ByIndex`], [`ByName`]), which rustc infers from the
//! argument, so the impls never overlap.
use super::{DynShape, RemoveAxis, SetAxis, Shape};
use crate::dim::{Dim, DimName, Dyn, One};
use core::marker::PhantomData;

/// A compile-time axis: `x.sum_axis(Ax::<1>)` (PyTorch `x.sum(dim=1)`), `Ax::<-1>` for the last.
/// Out of range for a tuple shape is a compile error naming the shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ax<const A: isize>;

/// The last axis, PyTorch's `dim=-1`: `x.softmax(LAST)`.
pub const LAST: Ax<-1> = Ax;

/// The marker of a compile-time axis ([`Ax`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct ByConst;
/// The marker of a runtime axis (`isize`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ByIndex;
/// The marker of a dim name found at position `P` ([`Pos`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct ByName<P>(PhantomData<P>);
/// Position `I` of a shape, found for a name by [`FindName`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Pos<const I: usize>;

mod sealed {
    pub trait Sealed {}
    impl<const A: isize> Sealed for super::Ax<A> {}
    impl Sealed for isize {}
    impl<N: super::DimName> Sealed for N {}
}

/// An axis of shape `S`: [`Ax::<A>`](Ax), an `isize`, or a dim name of `S`. `M` is inferred (see
/// the module docs). The operations that keep the shape (softmax, the scans, sort) take this
/// bound; those that remove the axis take [`RemoveAx`], those that keep it as size 1 [`KeepAx`].
/// Implemented by the crate only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis of shape `{S}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait AxisArg<S: Shape, M>: Copy + sealed::Sealed {
    /// The axis as given (negative counts from the end), resolved against the rank at run time.
    fn index(self) -> isize;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A>, const A: isize> AxisArg<S, ByConst> for Ax<A> {
    #[inline(always)]
    fn index(self) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase> AxisArg<S, ByIndex> for isize {
    #[inline(always)]
    fn index(self) -> isize {
        self
    }
}
#[diagnostic::do_not_recommend]
impl<S: Shape + FindName<N, Pos<I>>, N: DimName, const I: usize> AxisArg<S, ByName<Pos<I>>> for N {
    #[inline(always)]
    fn index(self) -> isize {
        I as isize
    }
}

/// An axis of shape `S` that an operation removes (reductions, `select`, `squeeze`): the result
/// shape is `Removed`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis of shape `{S}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait RemoveAx<S: Shape, M>: AxisArg<S, M> {
    /// `S` without the axis (all `Dyn` for a runtime axis).
    type Removed: Shape;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A>, const A: isize> RemoveAx<S, ByConst> for Ax<A> {
    type Removed = <S as RemoveAxis<A>>::Out;
}
#[diagnostic::do_not_recommend]
impl<S: Erase> RemoveAx<S, ByIndex> for isize {
    type Removed = <S as Erase>::Less;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + FindName<N, Pos<I>>, N: DimName, const I: usize> RemoveAx<S, ByName<Pos<I>>> for N {
    type Removed = <S as FindName<N, Pos<I>>>::Removed;
}

/// An axis of shape `S` that an operation keeps as a size-1 [`One`] (`keepdim=True`): the result
/// shape is `Kept`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an axis of shape `{S}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait KeepAx<S: Shape, M>: AxisArg<S, M> {
    /// `S` with the axis as [`One`] (all `Dyn` for a runtime axis).
    type Kept: Shape;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A> + SetAxis<A, One>, const A: isize> KeepAx<S, ByConst> for Ax<A> {
    type Kept = <S as SetAxis<A, One>>::Out;
}
#[diagnostic::do_not_recommend]
impl<S: Erase> KeepAx<S, ByIndex> for isize {
    type Kept = <S as Erase>::Same;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + FindName<N, Pos<I>>, N: DimName, const I: usize> KeepAx<S, ByName<Pos<I>>> for N {
    type Kept = <S as FindName<N, Pos<I>>>::Kept;
}

/// The dim named `N` is at position `P` ([`Pos`]) of `Self`: one impl per rank and position
/// (generated), so rustc infers `P` where the name occurs once.
#[diagnostic::on_unimplemented(
    message = "the shape `{Self}` has no dim named `{N}`",
    label = "this name is not a dim of the shape"
)]
pub trait FindName<N, P>: Shape {
    /// The shape without that dim.
    type Removed: Shape;
    /// The shape with that dim kept as [`One`].
    type Kept: Shape;
}

/// The shapes of a runtime axis's results: the same rank with every dim `Dyn` (`Same`), and one
/// rank less (`Less`); [`DynShape`] for [`DynShape`]. Tuple shapes of rank 1 and more.
#[diagnostic::on_unimplemented(
    message = "a scalar shape `{Self}` has no axis",
    label = "a runtime axis needs a shape of rank 1 or more"
)]
pub trait Erase: Shape {
    /// The same rank, every dim `Dyn`.
    type Same: Shape;
    /// One rank less, every dim `Dyn`.
    type Less: Shape;
}
#[diagnostic::do_not_recommend]
impl Erase for DynShape {
    type Same = DynShape;
    type Less = DynShape;
}

include!(concat!(env!("OUT_DIR"), "/axis_arg.rs"));

/// `X` ([`Ax::<A>`](Ax), an `isize` or a dim name) is an axis of `Self`: the bound the tensor
/// methods state for an axis argument (on the shape, so that an error names the axis and the shape
/// in its first line). Holds exactly where [`AxisArg`] does.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait HasAxis<X, M>: Shape {
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
// Written per kind of axis rather than as one blanket over `AxisArg` (one trait less for rustc
// to go through at each call: 4% fewer instructions checking 250 reductions).
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A>, const A: isize> HasAxis<Ax<A>, ByConst> for S {
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase> HasAxis<isize, ByIndex> for S {
    #[inline(always)]
    fn axis_index(x: &isize) -> isize {
        *x
    }
}
#[diagnostic::do_not_recommend]
impl<N: DimName, const I: usize, S: Shape + FindName<N, Pos<I>>> HasAxis<N, ByName<Pos<I>>> for S {
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        I as isize
    }
}
/// [`HasAxis`] for the operations that remove the axis ([`RemoveAx`]), with the result shape.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait DropAxis<X, M>: Shape {
    /// `Self` without the axis.
    type Removed: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A>, const A: isize> DropAxis<Ax<A>, ByConst> for S {
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
    type Removed = <S as RemoveAxis<A>>::Out;
}
#[diagnostic::do_not_recommend]
impl<S: Erase> DropAxis<isize, ByIndex> for S {
    #[inline(always)]
    fn axis_index(x: &isize) -> isize {
        *x
    }
    type Removed = <S as Erase>::Less;
}
#[diagnostic::do_not_recommend]
impl<N: DimName, const I: usize, S: Shape + FindName<N, Pos<I>>> DropAxis<N, ByName<Pos<I>>> for S {
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        I as isize
    }
    type Removed = <S as FindName<N, Pos<I>>>::Removed;
}
/// [`HasAxis`] for the operations that keep the axis as size 1 ([`KeepAx`]), with the result
/// shape.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait KeepAxis<X, M>: Shape {
    /// `Self` with the axis as [`One`].
    type Kept: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A> + SetAxis<A, One>, const A: isize> KeepAxis<Ax<A>, ByConst> for S {
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
    type Kept = <S as SetAxis<A, One>>::Out;
}
#[diagnostic::do_not_recommend]
impl<S: Erase> KeepAxis<isize, ByIndex> for S {
    #[inline(always)]
    fn axis_index(x: &isize) -> isize {
        *x
    }
    type Kept = <S as Erase>::Same;
}
#[diagnostic::do_not_recommend]
impl<N: DimName, const I: usize, S: Shape + FindName<N, Pos<I>>> KeepAxis<N, ByName<Pos<I>>> for S {
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        I as isize
    }
    type Kept = <S as FindName<N, Pos<I>>>::Kept;
}
