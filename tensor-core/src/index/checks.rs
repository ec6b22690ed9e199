//! Compile-time bound checks of literal indices and bounds against static dims, with typenum's
//! verdicts mapped to [`InBounds`]/[`OutOfBounds`] so that no typenum type reaches an error.
use crate::dim::*;
use crate::shape::{Cons, Nil};
use core::marker::PhantomData;
use core::ops::{Add, Div, Sub};
use typenum::{IsLess, IsLessOrEqual, Sub1, B1};

// ------------------------------------------------------------------------------------- checks
/// A compile-time bounds check that passed. typenum's comparison result (`B1`/`B0`) is mapped to
/// [`InBounds`]/[`OutOfBounds`] so that no typenum type appears in an error message.
#[derive(Clone, Copy, Debug, Default)]
pub struct InBounds;
/// A compile-time bounds check that failed (see [`InBounds`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct OutOfBounds;
/// typenum's boolean as [`InBounds`]/[`OutOfBounds`].
pub trait Verdict {
    /// The verdict.
    type V;
}
impl Verdict for B1 {
    type V = InBounds;
}
impl Verdict for typenum::B0 {
    type V = OutOfBounds;
}
/// The verdict of a typenum comparison.
pub type Check<B> = <B as Verdict>::V;

/// The traits of the literal checks, one per kind: implemented by [`InBounds`] only, so that a
/// failed check is the trait's message, naming the literal (`{L}`, the generic's own name), the
/// size and the shape.
macro_rules! literal_checks {
    ($($(#[doc = $doc:literal])* $Trait:ident<$L:ident>: $message:literal, $label:literal;)*) => {$(
        $(#[doc = $doc])*
        #[diagnostic::on_unimplemented(message = $message, label = $label)]
        pub trait $Trait<const $L: usize, const N: usize, Sh> {}
        #[diagnostic::do_not_recommend]
        impl<const $L: usize, const N: usize, Sh> $Trait<$L, N, Sh> for InBounds {}
    )*};
}
literal_checks! {
    /// Literal index in bounds.
    IndexInBounds<I>: "index {I} is out of bounds for a dimension of size {N} in shape `{Sh}`",
        "literal index out of bounds";
    /// Literal negative index in bounds.
    NegIndexInBounds<K>: "index -{K} is out of bounds for a dimension of size {N} in shape `{Sh}`",
        "literal index out of bounds";
    /// Literal range end in bounds.
    RangeEndInBounds<E>: "range end {E} is out of bounds for a dimension of size {N} in shape `{Sh}`",
        "literal range out of bounds";
    /// Literal negative range start in bounds.
    NegStartInBounds<K>: "range start -{K} is out of bounds for a dimension of size {N} in shape `{Sh}`",
        "literal range out of bounds";
    /// Literal open range start (`S..`) in bounds.
    RangeStartInBounds<S>: "range start {S} is out of bounds for a dimension of size {N} in shape `{Sh}`",
        "literal range start out of bounds";
}

/// `S..;STEP` on a static dim of size `N`: the length `ceil((N - S) / STEP)` when `S <= N`, and 0
/// otherwise (the recorded check then fails with its own message).
pub trait RangeFromLen<const S: usize, const N: usize, const STEP: usize> {
    /// The length as a typenum number (made a dim by [`ToConst`] in the caller).
    type Len;
}
pub(crate) type TnC<const N: usize> = Tn<Const<N>>;
type Span<const N: usize, const S: usize, const STEP: usize> =
    Sub1<typenum::Sum<typenum::Diff<TnC<N>, TnC<S>>, TnC<STEP>>>;
impl<const S: usize, const N: usize, const STEP: usize> RangeFromLen<S, N, STEP> for InBounds
where
    Const<N>: StaticDim,
    Const<S>: StaticDim,
    Const<STEP>: StaticDim,
    TnC<N>: Sub<TnC<S>>,
    typenum::Diff<TnC<N>, TnC<S>>: Add<TnC<STEP>>,
    typenum::Sum<typenum::Diff<TnC<N>, TnC<S>>, TnC<STEP>>: Sub<B1>,
    Span<N, S, STEP>: Div<TnC<STEP>>,
{
    type Len = typenum::Quot<Span<N, S, STEP>, TnC<STEP>>;
}
impl<const S: usize, const N: usize, const STEP: usize> RangeFromLen<S, N, STEP> for OutOfBounds {
    type Len = typenum::U0;
}

/// A literal of a `t!` spec to check: literal `L` against a static dim of size `N` in shape `Sh`;
/// `K` says which check (see [`AllInBounds`]). Recorded by the rules without a verdict: the
/// comparison runs only where the list is required to pass.
pub struct Chk<K, const L: usize, const N: usize, Sh>(PhantomData<(K, Sh)>);
/// Check kind: a literal index `I < N`.
pub struct KIndex;
/// Check kind: a literal negative index `-K` with `K <= N`.
pub struct KNegIndex;
/// Check kind: a literal range end `E <= N`.
pub struct KEnd;
/// Check kind: a literal negative range start `-K` with `K <= N`.
pub struct KNegStart;
/// Check kind: a literal open range start `S <= N`.
pub struct KStart;

/// Every recorded check of a `t!` spec passes. Required by the checked path of `t!` as a bound of
/// the method it calls, so a failed check is a compile error naming the literal, the size and
/// the shape (never a fallback to run-time checking).
pub trait AllInBounds {}
impl<L: CheckList> AllInBounds for L {}
/// The list walk of [`AllInBounds`]: each check compares its literal with the size (typenum) and
/// the verdict implements the trait of its kind, whose message names the literal, the size and
/// the shape.
pub trait CheckList {}
impl CheckList for Nil {}
macro_rules! check_list {
    ($($K:ident: $Cmp:ident $Verdict:ident => $Bound:ident;)*) => {$(
        impl<const L: usize, const N: usize, Sh, R: CheckList> CheckList for Cons<Chk<$K, L, N, Sh>, R>
        where
            Const<L>: StaticDim,
            Const<N>: StaticDim,
            TnC<L>: $Cmp<TnC<N>>,
            typenum::$Verdict<TnC<L>, TnC<N>>: Verdict,
            Check<typenum::$Verdict<TnC<L>, TnC<N>>>: $Bound<L, N, Sh>,
        {
        }
    )*};
}
check_list! {
    KIndex: IsLess Le => IndexInBounds;
    KNegIndex: IsLessOrEqual LeEq => NegIndexInBounds;
    KEnd: IsLessOrEqual LeEq => RangeEndInBounds;
    KNegStart: IsLessOrEqual LeEq => NegStartInBounds;
    KStart: IsLessOrEqual LeEq => RangeStartInBounds;
}

/// `narrow_const::<A, START, LEN>()`: `START + LEN` fits the dim (`Self`) of shape `Sh`.
#[diagnostic::on_unimplemented(
    message = "cannot narrow `{Sh}` to {LEN} elements from {START}: dimension `{Self}` is too short",
    label = "START + LEN must not exceed the dimension's size"
)]
pub trait NarrowFits<const START: usize, const LEN: usize, Sh>: Dim {}
/// `START + LEN` as a typenum number.
type NarrowEnd<const START: usize, const LEN: usize> = typenum::Sum<TnC<START>, TnC<LEN>>;
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, const N: usize, Sh> NarrowFits<START, LEN, Sh> for Const<N>
where
    Const<START>: StaticDim,
    Const<LEN>: StaticDim,
    Const<N>: StaticDim,
    TnC<START>: Add<TnC<LEN>>,
    NarrowEnd<START, LEN>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<NarrowEnd<START, LEN>, TnC<N>>: Verdict,
    Check<typenum::LeEq<NarrowEnd<START, LEN>, TnC<N>>>: NarrowInBounds<START, LEN, N, Sh>,
{
}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, Sh> NarrowFits<START, LEN, Sh> for One where
    Const<1>: NarrowFits<START, LEN, Sh>
{
}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, Sh> NarrowFits<START, LEN, Sh> for Dyn {}
#[diagnostic::do_not_recommend]
impl<N: crate::Tagged, const START: usize, const LEN: usize, Sh> NarrowFits<START, LEN, Sh> for N {}
/// The verdict of [`NarrowFits`] (implemented for `B1` only).
#[diagnostic::on_unimplemented(
    message = "cannot narrow `{Sh}` to {LEN} elements from {START}: the dimension has size {N}",
    label = "START + LEN must not exceed the dimension's size"
)]
pub trait NarrowInBounds<const START: usize, const LEN: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, const N: usize, Sh> NarrowInBounds<START, LEN, N, Sh> for InBounds {}
