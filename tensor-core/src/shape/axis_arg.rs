//! One way to name an axis: an axis argument is a value of [`AxisArg`], either a compile-time
//! position [`Ax::<1>`](Ax) (negatives count from the end; the result types of the `::<1>`
//! forms), a runtime position `isize` (PyTorch's `dim=1`; the result keeps the rank, with `Dyn`
//! where the axis decided a dim), or a dim name ([`DimName`], `x.sum_axis(Seq)`: the position is
//! found in the shape's type; a name the shape lacks does not compile). The three kinds are told
//! apart by the marker `M` ([`Pos<A>`](Pos) for a position known when the program is built,
//! `Ax::<A>` or a name found at `A`; [`ByIndex`] for an `isize`), which rustc infers from the
//! argument, so the impls never overlap.
//!
//! The methods state what they need of the shape as one bound on `S` naming the argument's type, so
//! an error names the axis and the shape in its first line: [`HasAxis`] (the shape is kept:
//! softmax, the scans, `flip`), [`DropAxis`] (the axis is removed: reductions, `select`),
//! [`KeepAxis`] (kept as size 1: `_keepdim`), [`ReplaceAxis`] (another dim in its place: `narrow`,
//! `chunk`, `topk`, `index_select`), [`SqueezeAxis`], [`UnsqueezeAxis`], [`CatAxis`],
//! [`StackAxis`], [`PadAxis`], [`RepeatAxis`], [`UnfoldAxis`], and for two axes [`SwapAxis`]
//! (`transpose`), [`MoveAxisTo`] (`movedim`) and [`DiagonalAxes`] (`diagonal`).
use super::{
    CatShape, DiagonalShape, DynShape, FlattenRange, InsertAxis, InsertDim, MoveAxis, PadShape, RemoveAxis,
    RepeatShape, SameRank, SetAxis, Shape, SwapAxes,
};
use crate::dim::{Dim, DimName, Dyn, One};

/// A compile-time axis: `x.sum_axis(Ax::<1>)` (PyTorch `x.sum(dim=1)`), `Ax::<-1>` for the last.
/// Out of range for a tuple shape is a compile error naming the shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ax<const A: isize>;

/// The last axis, PyTorch's `dim=-1`: `x.softmax(LAST)`.
pub const LAST: Ax<-1> = Ax;

/// The marker of a runtime axis (`isize`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ByIndex;
/// The marker of an axis whose position `I` is known when the program is built: `Ax::<I>`
/// (negative from the end), or a name that [`FindName`] finds at `I`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pos<const I: isize>;

/// An axis given at run time: `isize` (PyTorch's `dim=1`; sealed). The impls of the shape-side
/// traits for runtime axes are over this trait rather than `isize` itself, so that while an
/// argument's type is still unknown rustc cannot settle on the runtime impl (and then report an
/// `Ax::<0>` argument as "expected `isize`") because no compile-time position fits.
pub trait RuntimeAxis: Copy + sealed::Runtime {
    /// The axis as given (negative counts from the end).
    fn get(self) -> isize;
}
impl RuntimeAxis for isize {
    #[inline(always)]
    fn get(self) -> isize {
        self
    }
}

pub(super) mod sealed {
    pub trait Sealed {}
    impl<const A: isize> Sealed for super::Ax<A> {}
    impl Sealed for isize {}
    impl<N: super::DimName> Sealed for N {}
    /// `X` (with marker `M`) is an axis of the shape `Self` as the crate knows axes: `Ax::<A>`
    /// (`Pos<A>`), a runtime axis (`ByIndex`), or a name that `FindName` finds at `Pos<I>`. The
    /// supertrait of every shape-side axis trait, so that no impl outside the crate (a user's name
    /// type makes one legal under the orphan rules) can give a result type its layout lacks.
    pub trait AxisSeal<X, M> {}
    /// The supertrait of `FindName`, implemented by the generated impls alone.
    pub trait NameSeal<N, P> {}
    /// The supertrait of `RuntimeAxis`: `isize` alone (`Sealed` also holds for names).
    pub trait Runtime {}
    impl Runtime for isize {}
    /// The supertrait of `PermuteEntry` (`Self` an entry of `permute`'s tuple for shape `S`) and
    /// `PermuteAxes` (`P` a list of axes of `Self`), implemented in `axis_list.rs` alone.
    pub trait Entry<S, M> {}
    /// See [`Entry`].
    pub trait ListSeal<P, M> {}
    /// The supertrait of `UnflattenAxis`: `U` is a shape or a list of runtime sizes.
    pub trait SizesSeal<U> {}
}

// The sealed axes: a position known when the program is built for `Ax` (any shape: the rule the
// axis meets checks the range) and for a name (where `FindName` finds it), and a runtime axis.
// `UnfoldAxis`'s static impl takes `S: AxisSeal<X, Pos<A>>` for "`X` names position `A`", one impl
// for `Ax` and names; the others write `Ax` and names apart, which rustc checks faster.
impl<S, const A: isize> sealed::AxisSeal<Ax<A>, Pos<A>> for S {}
impl<S: FindName<N, Pos<I>>, N: DimName, const I: isize> sealed::AxisSeal<N, Pos<I>> for S {}
impl<S, I: RuntimeAxis> sealed::AxisSeal<I, ByIndex> for S {}

/// An axis of shape `S`: [`Ax::<A>`](Ax), an `isize`, or a dim name of `S`. `M` is inferred (see
/// the module docs). The methods bound the shape instead ([`HasAxis`], [`DropAxis`], ... hold
/// exactly for these arguments), so that an error names the shape; this trait is what generic
/// code may state of an axis it passes on. Implemented by the crate only.
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
impl<S: Shape + RemoveAxis<A>, const A: isize> AxisArg<S, Pos<A>> for Ax<A> {
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
impl<S: Shape + FindName<N, Pos<I>>, N: DimName, const I: isize> AxisArg<S, Pos<I>> for N {
    #[inline(always)]
    fn index(self) -> isize {
        I
    }
}

/// The dim named `N` is at position `P` ([`Pos`]) of `Self`: one impl per rank and position
/// (generated), so rustc infers `P` where the name occurs once.
#[diagnostic::on_unimplemented(
    message = "the shape `{Self}` has no dim named `{N}`",
    label = "this name is not a dim of the shape"
)]
pub trait FindName<N, P>: Shape + sealed::NameSeal<N, P> {
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
    /// A rank the axes decide ([`DynShape`]: `flatten_range` with a runtime axis).
    type Unranked: Shape;
}
#[diagnostic::do_not_recommend]
impl Erase for DynShape {
    type Same = DynShape;
    type Less = DynShape;
    type Unranked = DynShape;
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
pub trait HasAxis<X, M>: Shape + sealed::AxisSeal<X, M> {
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
// Written per kind of axis rather than as one blanket over `AxisArg` (one trait less for rustc
// to go through at each call: 4% fewer instructions checking 250 reductions).
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A>, const A: isize> HasAxis<Ax<A>, Pos<A>> for S {
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis> HasAxis<I, ByIndex> for S {
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}
#[diagnostic::do_not_recommend]
impl<N: DimName, const I: isize, S: Shape + FindName<N, Pos<I>>> HasAxis<N, Pos<I>> for S {
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        I
    }
}
/// [`HasAxis`] for the operations that remove the axis (reductions, `select`), with the result
/// shape.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait DropAxis<X, M>: Shape + sealed::AxisSeal<X, M> {
    /// `Self` without the axis.
    type Removed: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A>, const A: isize> DropAxis<Ax<A>, Pos<A>> for S {
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
    type Removed = <S as RemoveAxis<A>>::Out;
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis> DropAxis<I, ByIndex> for S {
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
    type Removed = <S as Erase>::Less;
}
#[diagnostic::do_not_recommend]
impl<N: DimName, const I: isize, S: Shape + FindName<N, Pos<I>>> DropAxis<N, Pos<I>> for S {
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        I
    }
    type Removed = <S as FindName<N, Pos<I>>>::Removed;
}
/// [`HasAxis`] for the operations that keep the axis as size 1 (`keepdim=True`), with the result
/// shape.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait KeepAxis<X, M>: Shape + sealed::AxisSeal<X, M> {
    /// `Self` with the axis as [`One`].
    type Kept: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + RemoveAxis<A> + SetAxis<A, One>, const A: isize> KeepAxis<Ax<A>, Pos<A>> for S {
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
    type Kept = <S as SetAxis<A, One>>::Out;
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis> KeepAxis<I, ByIndex> for S {
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
    type Kept = <S as Erase>::Same;
}
#[diagnostic::do_not_recommend]
impl<N: DimName, const I: isize, S: Shape + FindName<N, Pos<I>>> KeepAxis<N, Pos<I>> for S {
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        I
    }
    type Kept = <S as FindName<N, Pos<I>>>::Kept;
}

/// The shapes of an inserting runtime axis's results (`unsqueeze(1)`): one rank more, every dim
/// `Dyn`; [`DynShape`] for [`DynShape`]. Tuple shapes of rank 0 to 5.
#[diagnostic::on_unimplemented(
    message = "a shape `{Self}` of rank 6 has no room for another axis",
    label = "a runtime insertion axis needs a shape of rank 5 or less"
)]
pub trait EraseMore: Shape {
    /// One rank more, every dim `Dyn`.
    type More: Shape;
}
#[diagnostic::do_not_recommend]
impl EraseMore for DynShape {
    type More = DynShape;
}

/// `X` is an axis of `Self` whose dim becomes `D` (`narrow` and `diff`: `Dyn`, a new size;
/// `topk::<K>`: `Const<K>`); the result shape is `Out` (every dim `Dyn` for a runtime axis).
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}`",
    label = "no such axis in this shape",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait ReplaceAxis<X, M, D: Dim>: Shape + sealed::AxisSeal<X, M> {
    /// `Self` with the axis's dim `D`.
    type Out: Shape;
    /// The position when the program is built (`None` for a runtime axis): for build-time
    /// checks against a static dim.
    const AT: Option<isize>;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
#[diagnostic::do_not_recommend]
// `Ax` and names written apart (a generic `X` through `AxisSeal` cost rustc 10% more per call).
impl<S: SetAxis<A, D>, D: Dim, const A: isize> ReplaceAxis<Ax<A>, Pos<A>, D> for S {
    type Out = <S as SetAxis<A, D>>::Out;
    const AT: Option<isize> = Some(A);
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: SetAxis<A, D> + FindName<N, Pos<A>>, N: DimName, D: Dim, const A: isize> ReplaceAxis<N, Pos<A>, D> for S {
    type Out = <S as SetAxis<A, D>>::Out;
    const AT: Option<isize> = Some(A);
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, D: Dim, I: RuntimeAxis> ReplaceAxis<I, ByIndex, D> for S {
    type Out = <S as Erase>::Same;
    const AT: Option<isize> = None;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// `X` is an axis of `Self` that `squeeze` may remove: a static dim must be 1 (a name or a
/// product is refused as it is by [`Squeezable`](super::Squeezable)); the result shape is `Out`.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not an axis of shape `{Self}` that squeeze can remove",
    label = "no such axis, or not of size 1",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end) or an `isize` (checked at run time); a named dim is not squeezed (its size varies at run time)"
)]
pub trait SqueezeAxis<X, M>: Shape + sealed::AxisSeal<X, M> {
    /// `Self` without the axis.
    type Out: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
#[diagnostic::do_not_recommend]
impl<S: RemoveAxis<A>, const A: isize> SqueezeAxis<Ax<A>, Pos<A>> for S
where
    <S as RemoveAxis<A>>::Removed: super::Squeezable<S, A>,
{
    type Out = <S as RemoveAxis<A>>::Out;
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis> SqueezeAxis<I, ByIndex> for S {
    type Out = <S as Erase>::Less;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// `X` is a place to insert a size-1 axis into `Self` (`0..=rank`, negatives from the end, `-1`
/// appends): `Ax::<A>`, an `isize`, or a dim name (before that dim); the result shape is `Out`.
#[diagnostic::on_unimplemented(
    message = "`{X}` is not a place to insert an axis into shape `{Self}`",
    label = "no such insertion point",
    note = "an insertion point is `Ax::<N>` (`0..=rank`, checked at compile time, negatives from the end), an `isize` (checked at run time) or a dim name (before that dim)"
)]
pub trait UnsqueezeAxis<X, M>: Shape + sealed::AxisSeal<X, M> {
    /// `Self` with a [`One`] inserted.
    type Out: Shape;
    /// The insertion point as given.
    fn axis_index(x: &X) -> isize;
}
/// `Ax::<A>`, or a dim name at position `A`: the new axis goes before the named dim (at its
/// position, as PyTorch's `unsqueeze(i)` puts the new dim at index `i`).
#[diagnostic::do_not_recommend]
impl<S: InsertAxis<A> + sealed::AxisSeal<X, Pos<A>>, X, const A: isize> UnsqueezeAxis<X, Pos<A>> for S {
    type Out = <S as InsertAxis<A>>::Out;
    #[inline(always)]
    fn axis_index(_: &X) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: EraseMore, I: RuntimeAxis> UnsqueezeAxis<I, ByIndex> for S {
    type Out = <S as EraseMore>::More;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// Writes a rule over two axes `X1`, `X2` of `Self` (each `Ax::<A>`, a name or an `isize`): one
/// impl for two positions known when the program is built (any mix of `Ax` and names, checked by the
/// const rule `$rule<A, B>`), two for a runtime axis on either side (the result `$erased`).
macro_rules! two_axes {
    ($(#[$m:meta])* $name:ident, $rule:ident, $erased:ident, $what:literal) => {
        $(#[$m])*
        #[diagnostic::on_unimplemented(
            message = "`{X1}` and `{X2}` are not two axes of shape `{Self}`",
            label = $what,
            note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
        )]
        pub trait $name<X1, M1, X2, M2>: Shape + sealed::AxisSeal<X1, M1> + sealed::AxisSeal<X2, M2> {
            /// The result shape.
            type Out: Shape;
            /// The two axes as given (negative counts from the end).
            fn axis_indices(a: &X1, b: &X2) -> (isize, isize);
        }
        // The four mixes of `Ax` and names written out (a generic `X1, X2` through `AxisSeal`
        // cost rustc 20% more per call).
        #[diagnostic::do_not_recommend]
        impl<S: $rule<A, B>, const A: isize, const B: isize> $name<Ax<A>, Pos<A>, Ax<B>, Pos<B>> for S {
            type Out = <S as $rule<A, B>>::Out;
            #[inline(always)]
            fn axis_indices(_: &Ax<A>, _: &Ax<B>) -> (isize, isize) {
                (A, B)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<S, N: DimName, const A: isize, const B: isize> $name<Ax<A>, Pos<A>, N, Pos<B>> for S
        where
            S: $rule<A, B> + FindName<N, Pos<B>>,
        {
            type Out = <S as $rule<A, B>>::Out;
            #[inline(always)]
            fn axis_indices(_: &Ax<A>, _: &N) -> (isize, isize) {
                (A, B)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<S, N: DimName, const A: isize, const B: isize> $name<N, Pos<A>, Ax<B>, Pos<B>> for S
        where
            S: $rule<A, B> + FindName<N, Pos<A>>,
        {
            type Out = <S as $rule<A, B>>::Out;
            #[inline(always)]
            fn axis_indices(_: &N, _: &Ax<B>) -> (isize, isize) {
                (A, B)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<S, N1: DimName, N2: DimName, const A: isize, const B: isize> $name<N1, Pos<A>, N2, Pos<B>> for S
        where
            S: $rule<A, B> + FindName<N1, Pos<A>> + FindName<N2, Pos<B>>,
        {
            type Out = <S as $rule<A, B>>::Out;
            #[inline(always)]
            fn axis_indices(_: &N1, _: &N2) -> (isize, isize) {
                (A, B)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<S: Erase + HasAxis<X2, M2>, I: RuntimeAxis, X2, M2> $name<I, ByIndex, X2, M2> for S {
            type Out = <S as Erase>::$erased;
            #[inline(always)]
            fn axis_indices(a: &I, b: &X2) -> (isize, isize) {
                (a.get(), <S as HasAxis<X2, M2>>::axis_index(b))
            }
        }
        #[diagnostic::do_not_recommend]
        impl<S: Erase + HasAxis<X1, Pos<A>>, X1, I: RuntimeAxis, const A: isize> $name<X1, Pos<A>, I, ByIndex> for S {
            type Out = <S as Erase>::$erased;
            #[inline(always)]
            fn axis_indices(_: &X1, b: &I) -> (isize, isize) {
                (A, b.get())
            }
        }
    };
}
two_axes! {
    /// `X1` and `X2` are axes of `Self` that `transpose` swaps; the result shape is `Out` (the
    /// dims swapped, names kept; every dim `Dyn` when either axis is a runtime one).
    SwapAxis, SwapAxes, Same, "no such pair of axes in this shape"
}
two_axes! {
    /// `X1` is an axis of `Self` that `movedim` moves to position `X2`; the result shape is `Out`
    /// (every dim `Dyn` when either axis is a runtime one).
    MoveAxisTo, MoveAxis, Same, "no such pair of axes in this shape"
}
two_axes! {
    /// `X1` and `X2` are the first and last axes (inclusive) of `Self` that `flatten_range`
    /// merges; the result shape is `Out` ([`FlattenRange`]'s: a product dim
    /// of the merged ones, names kept; a [`DynShape`] when either axis is a runtime one).
    FlattenAxes, FlattenRange, Unranked, "no such pair of axes in this shape, or the first after the last"
}
two_axes! {
    /// `X1` and `X2` are two different axes of `Self` whose diagonal `diagonal` takes; the result
    /// shape is `Out` (both removed, the diagonal a new `Dyn` last dim; one rank less, all `Dyn`,
    /// when either axis is a runtime one).
    DiagonalAxes, DiagonalShape, Less, "no such pair of different axes in this shape"
}

/// `X` is an axis along which `Self` and `R` concatenate (`cat`): the result shape is `Out` (the
/// dims of [`CatShape`] for `Ax::<N>` and names; the same rank, every dim
/// `Dyn`, for an `isize`, whose rank and sizes are checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot concatenate `{Self}` and `{R}` along `{X}`",
    label = "the shapes need the same rank, the same dims outside the axis, and the axis in range",
    note = "where both sizes along the axis are static the result's is their sum, which must be known when the program is built (not a generic `N + M`) and at most 1024; `Tensor::cat_all` gives a `Dyn` dim instead"
)]
pub trait CatAxis<X, M, R: Shape>: Shape + sealed::AxisSeal<X, M> {
    /// The concatenated shape.
    type Out: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
impl<S: CatShape<A, R>, R: Shape, const A: isize> CatAxis<Ax<A>, Pos<A>, R> for S {
    type Out = <S as CatShape<A, R>>::Out;
    #[inline(always)]
    fn axis_index(_: &Ax<A>) -> isize {
        A
    }
}
impl<S: CatShape<A, R> + FindName<N, Pos<A>>, R: Shape, N: DimName, const A: isize> CatAxis<N, Pos<A>, R> for S {
    type Out = <S as CatShape<A, R>>::Out;
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, R: SameRank<S>, I: RuntimeAxis> CatAxis<I, ByIndex, R> for S {
    type Out = <S as Erase>::Same;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// `X` is a place to insert the new dim `K` into `Self` (`stack`, `0..=rank`, negatives from the
/// end): `Ax::<A>`, an `isize`, or a dim name (before that dim); the result shape is `Out` (one
/// rank more, every dim `Dyn`, for an `isize`).
#[diagnostic::on_unimplemented(
    message = "`{X}` is not a place to insert a dim into shape `{Self}`",
    label = "no such insertion point, or the result would have more than 6 dims",
    note = "an insertion point is `Ax::<N>` (`0..=rank`, checked at compile time, negatives from the end), an `isize` (checked at run time) or a dim name (before that dim)"
)]
pub trait StackAxis<X, M, K: Dim>: Shape + sealed::AxisSeal<X, M> {
    /// `Self` with `K` inserted.
    type Out: Shape;
    /// The insertion point as given.
    fn axis_index(x: &X) -> isize;
}
/// `Ax::<A>`, or a dim name at position `A` (the new axis before it, as for `unsqueeze`).
#[diagnostic::do_not_recommend]
impl<S: InsertDim<A, K> + sealed::AxisSeal<X, Pos<A>>, X, K: Dim, const A: isize> StackAxis<X, Pos<A>, K> for S {
    type Out = <S as InsertDim<A, K>>::Out;
    #[inline(always)]
    fn axis_index(_: &X) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: EraseMore, K: Dim, I: RuntimeAxis> StackAxis<I, ByIndex, K> for S {
    type Out = <S as EraseMore>::More;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// `X` is an axis of `Self` that `pad` grows by `L + R`; the result shape is `Out` ([`PadShape`]'s
/// for `Ax::<N>`, the named dim `Dyn` for a name, every dim `Dyn` for an `isize`).
#[diagnostic::on_unimplemented(
    message = "cannot pad `{Self}` along `{X}` by {L} and {R}",
    label = "no such axis, or a static size past 1024",
    note = "a static dim grows by {L} + {R} when the program is built, up to 1024; for larger sizes or in code generic over sizes make the dim `Dyn` (`_` in `Shape![..]`, or `as_dyn()`), pass an `isize` axis, or use `pad_dyn`"
)]
pub trait PadAxis<X, M, const L: usize, const R: usize>: Shape + sealed::AxisSeal<X, M> {
    /// The padded shape.
    type Out: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
/// `Ax::<A>`, or a dim name at position `A` (a named dim grows into `Dyn`: its `PadDim`).
impl<S, X, const A: isize, const L: usize, const R: usize> PadAxis<X, Pos<A>, L, R> for S
where
    S: PadShape<A, L, R> + sealed::AxisSeal<X, Pos<A>>,
{
    type Out = <S as PadShape<A, L, R>>::Out;
    #[inline(always)]
    fn axis_index(_: &X) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis, const L: usize, const R: usize> PadAxis<I, ByIndex, L, R> for S {
    type Out = <S as Erase>::Same;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// `X` is an axis of `Self` that `repeat` and `repeat_interleave` multiply by `K`; the result
/// shape is `Out` ([`RepeatShape`]'s for `Ax::<N>`, the named dim `Dyn` for a name, every dim
/// `Dyn` for an `isize`).
#[diagnostic::on_unimplemented(
    message = "cannot repeat `{Self}` {K} times along `{X}`",
    label = "no such axis, or a static size past 1024",
    note = "a static dim is multiplied by {K} when the program is built, up to 1024; for larger sizes or in code generic over sizes make the dim `Dyn` (`_` in `Shape![..]`, or `as_dyn()`), pass an `isize` axis, or use `repeat_dyn`"
)]
pub trait RepeatAxis<X, M, const K: usize>: Shape + sealed::AxisSeal<X, M> {
    /// The repeated shape.
    type Out: Shape;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
/// `Ax::<A>`, or a dim name at position `A` (a named dim repeats into `Dyn`: its `TimesDim`).
impl<S: RepeatShape<A, K> + sealed::AxisSeal<X, Pos<A>>, X, const A: isize, const K: usize> RepeatAxis<X, Pos<A>, K>
    for S
{
    type Out = <S as RepeatShape<A, K>>::Out;
    #[inline(always)]
    fn axis_index(_: &X) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis, const K: usize> RepeatAxis<I, ByIndex, K> for S {
    type Out = <S as Erase>::Same;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}

/// `X` is an axis of `Self` whose windows of `SIZE`, `STEP` apart, `unfold` takes; the result
/// shape is `Out` ([`UnfoldShape`](super::UnfoldShape)'s for `Ax::<N>` and names, one rank more
/// and every dim `Dyn` for an `isize`).
#[diagnostic::on_unimplemented(
    message = "cannot unfold `{Self}` along `{X}` in windows of {SIZE}, {STEP} apart",
    label = "no such axis, or the result would have more than 6 dims",
    note = "an axis is `Ax::<N>` (checked at compile time, negatives from the end), an `isize` (checked at run time) or the name of one of the shape's dims"
)]
pub trait UnfoldAxis<X, M, const SIZE: usize, const STEP: usize>: Shape + sealed::AxisSeal<X, M> {
    /// The unfolded shape.
    type Out: Shape;
    /// The position when the program is built (`None` for a runtime axis), for the build-time
    /// check of `SIZE` against a static dim.
    const AT: Option<isize>;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
}
impl<S, X, const A: isize, const SIZE: usize, const STEP: usize> UnfoldAxis<X, Pos<A>, SIZE, STEP> for S
where
    S: super::UnfoldShape<A, SIZE, STEP> + sealed::AxisSeal<X, Pos<A>>,
{
    type Out = <S as super::UnfoldShape<A, SIZE, STEP>>::Out;
    const AT: Option<isize> = Some(A);
    #[inline(always)]
    fn axis_index(_: &X) -> isize {
        A
    }
}
#[diagnostic::do_not_recommend]
impl<S: EraseMore, I: RuntimeAxis, const SIZE: usize, const STEP: usize> UnfoldAxis<I, ByIndex, SIZE, STEP> for S {
    type Out = <S as EraseMore>::More;
    const AT: Option<isize> = None;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
}
