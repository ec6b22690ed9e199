//! Indexing: the typed slice specs that `t!` lowers to, the type-level rules that compute a
//! slice's result shape (and reject literal out-of-bounds indices at compile time), the runtime
//! walk that applies a spec to a [`Layout`], and the runtime [`SliceArg`] API for dynamic code.
//!
//! Literal indices and bounds become const generics. Each op either consumes one input dim
//! (`..`, an index, a range) or inserts one (`None`). Ops before `...` apply from the front, ops
//! after it (reversed by the macro) from the back. Runtime expressions become [`AtDyn`] and
//! [`RangeDyn`], checked at run time, and give `Dyn` dims.
use crate::dim::*;
use crate::error::{OrPanic, ShapeError};
use crate::layout::{index_offset, range_bounds, range_dim, Layout};
use crate::shape::AssignShape;
use crate::shape::*;
use crate::storage::{Data, DataMut};
use crate::tensor::{TensorBase, TensorViewMut};
use alloc::vec::Vec;
use core::marker::PhantomData;
use core::ops::{Add, Div, Sub};
use typenum::{IsLess, IsLessOrEqual, Sub1, B1};

mod advanced;
mod args;
pub use advanced::*;
pub use args::{apply_args, SliceArg};

/// `..`: the whole dim.
#[derive(Clone, Copy, Debug, Default)]
pub struct Full;
/// A literal index `I` (drops the dim).
#[derive(Clone, Copy, Debug, Default)]
pub struct At<const I: usize>;
/// A literal index `-K` (drops the dim; `-1` is the last element).
#[derive(Clone, Copy, Debug, Default)]
pub struct AtNeg<const K: usize>;
/// A runtime index (negative counts from the end; drops the dim).
#[derive(Clone, Copy, Debug)]
pub struct AtDyn(pub i128);
/// Literal `S..E;STEP` (`REV`: negative step). `LEN` is computed by the macro, which also sets
/// `ONE` when `LEN == 1` so that the result dim is the broadcastable [`One`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Range<const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool>;
/// Literal `S..;STEP` (and `..;STEP`): the length `ceil((N - S) / STEP)` is computed with typenum.
#[derive(Clone, Copy, Debug, Default)]
pub struct RangeFrom<const S: usize, const STEP: usize, const REV: bool>;
/// Literal `-KS..-KE;STEP` (`KE = 0`: open end), counted from the end of the dim.
#[derive(Clone, Copy, Debug, Default)]
pub struct RangeNeg<
    const KS: usize,
    const KE: usize,
    const STEP: usize,
    const LEN: usize,
    const REV: bool,
    const ONE: bool,
>;
/// A range with a runtime part (gives a `Dyn` dim).
#[derive(Clone, Copy, Debug)]
pub struct RangeDyn {
    /// Start (`None`: open; negative counts from the end), as given.
    pub start: Option<i128>,
    /// End, exclusive (`None`: open; negative counts from the end), as given.
    pub end: Option<i128>,
    /// Non-zero step; negative walks the range backwards.
    pub step: isize,
}
/// `None`: a new size-1 dim.
#[derive(Clone, Copy, Debug, Default)]
pub struct NewAxis;

/// What `t!` produces: the ops before `...` and the (reversed) ops after it.
#[derive(Clone, Copy, Debug)]
pub struct Spec<Pre, Post> {
    /// Ops applied from the front.
    pub pre: Pre,
    /// Ops applied from the back (reversed).
    pub post: Post,
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
pub trait IndexElem: crate::Element + ToIndex {}
impl<T: crate::Element + ToIndex> IndexElem for T {}

/// The exclusive end of an inclusive runtime range `..=e` (`..=-1` runs to the end).
#[inline(always)]
pub fn inclusive_end(e: i128) -> Option<i128> {
    if e == -1 {
        None
    } else {
        Some(e.saturating_add(1))
    }
}

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

/// Literal index in bounds.
#[diagnostic::on_unimplemented(
    message = "index {I} is out of bounds for a dimension of size {N} in shape `{Sh}`",
    label = "literal index out of bounds"
)]
pub trait IndexInBounds<const I: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const I: usize, const N: usize, Sh> IndexInBounds<I, N, Sh> for InBounds {}

/// Literal negative index in bounds.
#[diagnostic::on_unimplemented(
    message = "index -{K} is out of bounds for a dimension of size {N} in shape `{Sh}`",
    label = "literal index out of bounds"
)]
pub trait NegIndexInBounds<const K: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const K: usize, const N: usize, Sh> NegIndexInBounds<K, N, Sh> for InBounds {}

/// Literal range end in bounds.
#[diagnostic::on_unimplemented(
    message = "range end {E} is out of bounds for a dimension of size {N} in shape `{Sh}`",
    label = "literal range out of bounds"
)]
pub trait RangeEndInBounds<const E: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const E: usize, const N: usize, Sh> RangeEndInBounds<E, N, Sh> for InBounds {}

/// Literal negative range start in bounds.
#[diagnostic::on_unimplemented(
    message = "range start -{K} is out of bounds for a dimension of size {N} in shape `{Sh}`",
    label = "literal range out of bounds"
)]
pub trait NegStartInBounds<const K: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const K: usize, const N: usize, Sh> NegStartInBounds<K, N, Sh> for InBounds {}

/// Literal open range start (`S..`) in bounds.
#[diagnostic::on_unimplemented(
    message = "range start {S} is out of bounds for a dimension of size {N} in shape `{Sh}`",
    label = "literal range start out of bounds"
)]
pub trait RangeStartInBounds<const S: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const S: usize, const N: usize, Sh> RangeStartInBounds<S, N, Sh> for InBounds {}

/// `S..;STEP` on a static dim of size `N`: the length `ceil((N - S) / STEP)` when `S <= N`, and 0
/// otherwise (the recorded check then fails with its own message).
pub trait RangeFromLen<const S: usize, const N: usize, const STEP: usize> {
    /// The length as a typenum number (made a dim by [`ToConst`] in the caller).
    type Len;
}
type TnC<const N: usize> = Tn<Const<N>>;
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

/// A recorded bounds check: verdict `V` of literal `L` against a dim of size `N` in shape `Sh`;
/// `K` says which check (see [`AllInBounds`]).
pub struct Chk<K, V, const L: usize, const N: usize, Sh>(PhantomData<(K, V, Sh)>);
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

/// Every recorded check of a `t!` spec passed. Required by the checked path of `t!` as a bound of
/// the method it calls, so a failed check is a compile error naming the literal, the size and
/// the shape (never a fallback to run-time checking).
pub trait AllInBounds {}
impl<L: CheckList> AllInBounds for L {}
/// The list walk of [`AllInBounds`]: each recorded check's verdict implements the trait of its
/// kind, whose message names the literal, the size and the shape.
pub trait CheckList {}
impl CheckList for Nil {}
impl<V: IndexInBounds<L, N, Sh>, const L: usize, const N: usize, Sh, R: CheckList> CheckList
    for Cons<Chk<KIndex, V, L, N, Sh>, R>
{
}
impl<V: NegIndexInBounds<L, N, Sh>, const L: usize, const N: usize, Sh, R: CheckList> CheckList
    for Cons<Chk<KNegIndex, V, L, N, Sh>, R>
{
}
impl<V: RangeEndInBounds<L, N, Sh>, const L: usize, const N: usize, Sh, R: CheckList> CheckList
    for Cons<Chk<KEnd, V, L, N, Sh>, R>
{
}
impl<V: NegStartInBounds<L, N, Sh>, const L: usize, const N: usize, Sh, R: CheckList> CheckList
    for Cons<Chk<KNegStart, V, L, N, Sh>, R>
{
}
impl<V: RangeStartInBounds<L, N, Sh>, const L: usize, const N: usize, Sh, R: CheckList> CheckList
    for Cons<Chk<KStart, V, L, N, Sh>, R>
{
}

/// `narrow_const::<A, START, LEN>()`: `START + LEN` fits the dim (`Self`) of shape `Sh`.
#[diagnostic::on_unimplemented(
    message = "cannot narrow `{Sh}` to {LEN} elements from {START}: dimension `{Self}` is too short",
    label = "START + LEN must not exceed the dimension's size"
)]
pub trait NarrowFits<const START: usize, const LEN: usize, Sh>: Dim {}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, const N: usize, Sh> NarrowFits<START, LEN, Sh> for Const<N>
where
    Const<START>: StaticDim,
    Const<LEN>: StaticDim,
    Const<N>: StaticDim,
    TnC<START>: Add<TnC<LEN>>,
    typenum::Sum<TnC<START>, TnC<LEN>>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<typenum::Sum<TnC<START>, TnC<LEN>>, TnC<N>>: Verdict,
    Check<typenum::LeEq<typenum::Sum<TnC<START>, TnC<LEN>>, TnC<N>>>: NarrowInBounds<START, LEN, N, Sh>,
{
}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, Sh> NarrowFits<START, LEN, Sh> for One where
    Const<1>: NarrowFits<START, LEN, Sh>
{
}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, Sh> NarrowFits<START, LEN, Sh> for Dyn {}
/// The verdict of [`NarrowFits`] (implemented for `B1` only).
#[diagnostic::on_unimplemented(
    message = "cannot narrow `{Sh}` to {LEN} elements from {START}: the dimension has size {N}",
    label = "START + LEN must not exceed the dimension's size"
)]
pub trait NarrowInBounds<const START: usize, const LEN: usize, const N: usize, Sh> {}
#[diagnostic::do_not_recommend]
impl<const START: usize, const LEN: usize, const N: usize, Sh> NarrowInBounds<START, LEN, N, Sh> for InBounds {}

/// `select_const::<A, I>()`: index `I` fits the dim (`Self`) of shape `Sh`.
#[diagnostic::on_unimplemented(
    message = "index {I} is out of bounds for dimension `{Self}` of shape `{Sh}`",
    label = "literal index out of bounds"
)]
pub trait SelectFits<const I: usize, Sh>: Dim {}
/// The same check as a literal index in `t!` (`At<I>` on this one dim), for every dim kind.
#[diagnostic::do_not_recommend]
impl<D: Dim, const I: usize, Sh> SelectFits<I, Sh> for D
where
    At<I>: IndexOp<Cons<D, Nil>, Sh, Checked>,
    <At<I> as IndexOp<Cons<D, Nil>, Sh, Checked>>::Checks: AllInBounds,
{
}

// --------------------------------------------------------------------------------- type level
/// The rule set of a `t!` spec whose literals and static dims are all inside typenum's bridge (see
/// [`crate::dim`]): result sizes computed at compile time (`a..` included) and every literal
/// checked there, the check reported as a compile error.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checked;
/// The rule set of every other spec (a size generic over `const N`, or outside the bridge): the
/// result shape needs no arithmetic on sizes (an index drops the dim, `a..b` and `-k..` keep the
/// length the macro computed, an open `a..` gives `Dyn`), indices are checked at run time, and
/// literals on static dims outside the bridge also when the program is built
/// ([`LooseCheck`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Loose;

/// Applies one op to the front of the remaining dims list `L` under the rule set `M`.
#[diagnostic::on_unimplemented(
    message = "too many indices for shape `{Sh}`",
    label = "more indices than dimensions",
    note = "each index, range or `..` consumes one dimension; `None` adds one"
)]
pub trait IndexOp<L, Sh, M = Checked> {
    /// Output dims (a list of length 0 or 1).
    type Out;
    /// The remaining input dims.
    type Rest;
    /// The bounds checks this op records (a list of [`Chk`]).
    type Checks;
}
impl<D: Dim, R, Sh, M> IndexOp<Cons<D, R>, Sh, M> for Full {
    type Out = Cons<D, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<const I: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Checked> for At<I>
where
    Const<I>: StaticDim,
    Const<N>: StaticDim,
    TnC<I>: IsLess<TnC<N>>,
    typenum::Le<TnC<I>, TnC<N>>: Verdict,
{
    type Out = Nil;
    type Rest = R;
    type Checks = Cons<Chk<KIndex, Check<typenum::Le<TnC<I>, TnC<N>>>, I, N, Sh>, Nil>;
}
impl<const I: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Loose> for At<I> {
    type Out = Nil;
    type Rest = R;
    type Checks = Nil;
}
impl<const I: usize, R, Sh, M> IndexOp<Cons<Dyn, R>, Sh, M> for At<I> {
    type Out = Nil;
    type Rest = R;
    type Checks = Nil;
}
impl<const K: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Checked> for AtNeg<K>
where
    Const<K>: StaticDim,
    Const<N>: StaticDim,
    TnC<K>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<K>, TnC<N>>: Verdict,
{
    type Out = Nil;
    type Rest = R;
    type Checks = Cons<Chk<KNegIndex, Check<typenum::LeEq<TnC<K>, TnC<N>>>, K, N, Sh>, Nil>;
}
impl<const K: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Loose> for AtNeg<K> {
    type Out = Nil;
    type Rest = R;
    type Checks = Nil;
}
impl<const K: usize, R, Sh, M> IndexOp<Cons<Dyn, R>, Sh, M> for AtNeg<K> {
    type Out = Nil;
    type Rest = R;
    type Checks = Nil;
}
impl<D: Dim, R, Sh, M> IndexOp<Cons<D, R>, Sh, M> for AtDyn {
    type Out = Nil;
    type Rest = R;
    type Checks = Nil;
}
impl<
        const S: usize,
        const E: usize,
        const STEP: usize,
        const LEN: usize,
        const REV: bool,
        const ONE: bool,
        const N: usize,
        R,
        Sh,
    > IndexOp<Cons<Const<N>, R>, Sh, Checked> for Range<S, E, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
    Const<E>: StaticDim,
    Const<N>: StaticDim,
    TnC<E>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<E>, TnC<N>>: Verdict,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
    type Checks = Cons<Chk<KEnd, Check<typenum::LeEq<TnC<E>, TnC<N>>>, E, N, Sh>, Nil>;
}
impl<
        const S: usize,
        const E: usize,
        const STEP: usize,
        const LEN: usize,
        const REV: bool,
        const ONE: bool,
        const N: usize,
        R,
        Sh,
    > IndexOp<Cons<Const<N>, R>, Sh, Loose> for Range<S, E, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<
        const S: usize,
        const E: usize,
        const STEP: usize,
        const LEN: usize,
        const REV: bool,
        const ONE: bool,
        R,
        Sh,
        M,
    > IndexOp<Cons<Dyn, R>, Sh, M> for Range<S, E, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
    type Checks = Nil;
}
/// The verdict of `S <= N`.
type StartV<const S: usize, const N: usize> = Check<typenum::LeEq<TnC<S>, TnC<N>>>;
impl<const S: usize, const STEP: usize, const REV: bool, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Checked>
    for RangeFrom<S, STEP, REV>
where
    Const<S>: StaticDim,
    Const<N>: StaticDim,
    TnC<S>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<S>, TnC<N>>: Verdict,
    StartV<S, N>: RangeFromLen<S, N, STEP>,
    <StartV<S, N> as RangeFromLen<S, N, STEP>>::Len: ToConst,
{
    type Out = Cons<<<StartV<S, N> as RangeFromLen<S, N, STEP>>::Len as ToConst>::Out, Nil>;
    type Rest = R;
    type Checks = Cons<Chk<KStart, StartV<S, N>, S, N, Sh>, Nil>;
}
impl<const S: usize, const STEP: usize, const REV: bool, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Loose>
    for RangeFrom<S, STEP, REV>
{
    type Out = Cons<Dyn, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<const S: usize, const STEP: usize, const REV: bool, R, Sh, M> IndexOp<Cons<Dyn, R>, Sh, M>
    for RangeFrom<S, STEP, REV>
{
    type Out = Cons<Dyn, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<
        const KS: usize,
        const KE: usize,
        const STEP: usize,
        const LEN: usize,
        const REV: bool,
        const ONE: bool,
        const N: usize,
        R,
        Sh,
    > IndexOp<Cons<Const<N>, R>, Sh, Checked> for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
    Const<KS>: StaticDim,
    Const<N>: StaticDim,
    TnC<KS>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<KS>, TnC<N>>: Verdict,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
    type Checks = Cons<Chk<KNegStart, Check<typenum::LeEq<TnC<KS>, TnC<N>>>, KS, N, Sh>, Nil>;
}
impl<
        const KS: usize,
        const KE: usize,
        const STEP: usize,
        const LEN: usize,
        const REV: bool,
        const ONE: bool,
        const N: usize,
        R,
        Sh,
    > IndexOp<Cons<Const<N>, R>, Sh, Loose> for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<
        const KS: usize,
        const KE: usize,
        const STEP: usize,
        const LEN: usize,
        const REV: bool,
        const ONE: bool,
        R,
        Sh,
        M,
    > IndexOp<Cons<Dyn, R>, Sh, M> for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<D: Dim, R, Sh, M> IndexOp<Cons<D, R>, Sh, M> for RangeDyn {
    type Out = Cons<Dyn, Nil>;
    type Rest = R;
    type Checks = Nil;
}
impl<L, Sh, M> IndexOp<L, Sh, M> for NewAxis {
    type Out = Cons<One, Nil>;
    type Rest = L;
    type Checks = Nil;
}

/// Never implemented: the bound that an index op meets when no dims are left, so that "too many
/// indices" is the whole error (no list of the impls that did not match).
#[diagnostic::on_unimplemented(
    message = "too many indices for shape `{Self}`",
    label = "more indices than dimensions",
    note = "each index, range or `..` consumes one dimension; `None` adds one"
)]
pub trait TooManyIndices {}
/// The basic ops that consume one input dim (all but `None`).
pub trait ConsumesDim {}
impl<Op: ConsumesDim, Sh, M> IndexOp<Nil, Sh, M> for Op
where
    Sh: TooManyIndices,
{
    type Out = Nil;
    type Rest = Nil;
    type Checks = Nil;
}
macro_rules! consumes_dim {
    ($([$($p:tt)*] $t:ty;)*) => {$( impl<$($p)*> ConsumesDim for $t {} )*};
}
consumes_dim! {
    [] Full;
    [const I: usize] At<I>;
    [const K: usize] AtNeg<K>;
    [] AtDyn;
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool]
        Range<S, E, STEP, LEN, REV, ONE>;
    [const S: usize, const STEP: usize, const REV: bool] RangeFrom<S, STEP, REV>;
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool]
        RangeNeg<KS, KE, STEP, LEN, REV, ONE>;
    [] RangeDyn;
}

/// A literal index or range on a [`One`] dim is checked as on `Const<1>`.
macro_rules! one_as_const1 {
    ($([$($g:tt)*] $op:ty;)*) => {$(
        impl<$($g)* R, Sh, M> IndexOp<Cons<One, R>, Sh, M> for $op
        where
            $op: IndexOp<Cons<Const<1>, R>, Sh, M>,
        {
            type Out = <$op as IndexOp<Cons<Const<1>, R>, Sh, M>>::Out;
            type Rest = R;
            type Checks = <$op as IndexOp<Cons<Const<1>, R>, Sh, M>>::Checks;
        }
    )*};
}
one_as_const1! {
    [const I: usize,] At<I>;
    [const K: usize,] AtNeg<K>;
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool,]
        Range<S, E, STEP, LEN, REV, ONE>;
    [const S: usize, const STEP: usize, const REV: bool,] RangeFrom<S, STEP, REV>;
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool,]
        RangeNeg<KS, KE, STEP, LEN, REV, ONE>;
}

/// Applies a list of ops to the front of the dims list `L`.
pub trait ApplyOps<L, Sh, M> {
    /// Output dims.
    type Out;
    /// Remaining input dims.
    type Rest;
    /// The recorded checks.
    type Checks;
}
impl<L, Sh, M> ApplyOps<L, Sh, M> for Nil {
    type Out = Nil;
    type Rest = L;
    type Checks = Nil;
}
type OpOut<O, L, Sh, M> = <O as IndexOp<L, Sh, M>>::Out;
type OpRest<O, L, Sh, M> = <O as IndexOp<L, Sh, M>>::Rest;
type OpChecks<O, L, Sh, M> = <O as IndexOp<L, Sh, M>>::Checks;
impl<L, Sh, M, O, R> ApplyOps<L, Sh, M> for Cons<O, R>
where
    O: IndexOp<L, Sh, M>,
    R: ApplyOps<OpRest<O, L, Sh, M>, Sh, M>,
    OpOut<O, L, Sh, M>: Concat<<R as ApplyOps<OpRest<O, L, Sh, M>, Sh, M>>::Out>,
    OpChecks<O, L, Sh, M>: Concat<<R as ApplyOps<OpRest<O, L, Sh, M>, Sh, M>>::Checks>,
{
    type Out = <OpOut<O, L, Sh, M> as Concat<<R as ApplyOps<OpRest<O, L, Sh, M>, Sh, M>>::Out>>::Out;
    type Rest = <R as ApplyOps<OpRest<O, L, Sh, M>, Sh, M>>::Rest;
    type Checks = <OpChecks<O, L, Sh, M> as Concat<<R as ApplyOps<OpRest<O, L, Sh, M>, Sh, M>>::Checks>>::Out;
}

/// After the front ops: the reversed post-ellipsis ops applied to the back.
pub trait PostApply<Post, Sh, M> {
    /// The remaining dims followed by the post ops' output.
    type Out;
    /// The post ops' recorded checks.
    type Checks;
}
type PostOps<L, Post, Sh, M> = <Post as ApplyOps<<L as Reverse>::Out, Sh, M>>::Out;
type PostRest<L, Post, Sh, M> = <Post as ApplyOps<<L as Reverse>::Out, Sh, M>>::Rest;
impl<L, Post, Sh, M> PostApply<Post, Sh, M> for L
where
    L: Reverse,
    Post: ApplyOps<L::Out, Sh, M>,
    PostRest<L, Post, Sh, M>: Reverse,
    PostOps<L, Post, Sh, M>: Reverse,
    <PostRest<L, Post, Sh, M> as Reverse>::Out: Concat<<PostOps<L, Post, Sh, M> as Reverse>::Out>,
{
    type Out = <<PostRest<L, Post, Sh, M> as Reverse>::Out as Concat<<PostOps<L, Post, Sh, M> as Reverse>::Out>>::Out;
    type Checks = <Post as ApplyOps<L::Out, Sh, M>>::Checks;
}

/// The result shape of indexing a tensor of shape `S` with the spec `Self` (a [`Spec`]) under
/// the rule set `M` ([`Checked`] or [`Loose`]), and the bounds checks the spec records.
/// Implemented on the spec rather than the shape so that, when a rule fails (too many indices,
/// index tensors that do not broadcast), rustc titles the error with that rule's own message.
pub trait SliceShape<S, M> {
    /// The view's shape.
    type Out: Shape;
    /// The recorded checks (see [`AllInBounds`]).
    type Checks;
}
/// The two op lists of a [`Spec`] (so that [`SliceShape`] has a blanket impl).
pub trait SpecParts {
    /// The ops before `...`.
    type Pre;
    /// The ops after `...`, reversed.
    type Post;
}
impl<Pre, Post> SpecParts for Spec<Pre, Post> {
    type Pre = Pre;
    type Post = Post;
}
type PreOut<S, Pre, M> = <Pre as ApplyOps<<S as StaticRank>::List, S, M>>::Out;
type PreRest<S, Pre, M> = <Pre as ApplyOps<<S as StaticRank>::List, S, M>>::Rest;
type PreChecks<S, Pre, M> = <Pre as ApplyOps<<S as StaticRank>::List, S, M>>::Checks;
impl<X: SpecParts, S, M> SliceShape<S, M> for X
where
    S: StaticRank,
    X::Pre: ApplyOps<S::List, S, M>,
    PreRest<S, X::Pre, M>: PostApply<X::Post, S, M>,
    PreOut<S, X::Pre, M>: Concat<<PreRest<S, X::Pre, M> as PostApply<X::Post, S, M>>::Out>,
    PreChecks<S, X::Pre, M>: Concat<<PreRest<S, X::Pre, M> as PostApply<X::Post, S, M>>::Checks>,
    Joined<S, X::Pre, X::Post, M>: Resolve<S>,
    <Joined<S, X::Pre, X::Post, M> as Resolve<S>>::Out: ListToTuple<S>,
{
    type Out = <<Joined<S, X::Pre, X::Post, M> as Resolve<S>>::Out as ListToTuple<S>>::Tuple;
    type Checks = <PreChecks<S, X::Pre, M> as Concat<<PreRest<S, X::Pre, M> as PostApply<X::Post, S, M>>::Checks>>::Out;
}
/// The output dims of all ops, before advanced indices are resolved.
type Joined<S, Pre, Post, M> = <PreOut<S, Pre, M> as Concat<<PreRest<S, Pre, M> as PostApply<Post, S, M>>::Out>>::Out;
#[diagnostic::do_not_recommend]
impl<X: SpecParts, M> SliceShape<DynShape, M> for X {
    type Out = DynShape;
    type Checks = Nil;
}

// ------------------------------------------------------------------- build-time check (loose)
/// Whether a static size is inside typenum's `const-generics` bridge: `0..=1024`, 3600, `2^k` and
/// `2^k - 1` from 2047 up, and powers of ten from 10^4 (the sizes the [`Checked`] rules can
/// compare at `cargo check` time).
pub const fn in_bridge(n: usize) -> bool {
    if n <= 1024 || n == 3600 || n.is_power_of_two() {
        return true;
    }
    if let Some(m) = n.checked_add(1) {
        if m.is_power_of_two() {
            return true;
        }
    }
    let mut p: usize = 10_000;
    loop {
        if p == n {
            return true;
        }
        match p.checked_mul(10) {
            Some(q) => p = q,
            None => return false,
        }
    }
}

/// What a literal op of `t!` asks of the dim it consumes, for the build-time check of the
/// [`Loose`] rules: `kind` 0 nothing (or a run-time value), 1 index `< n`, 2 index `-lit` (`lit <=
/// n`), 3 range end `<= n`, 4 negative start `-lit` (`lit <= n`), 5 open start `<= n`; `consumes`
/// input dims.
#[derive(Clone, Copy, Debug)]
pub struct OpDesc {
    kind: u8,
    lit: usize,
    consumes: usize,
}
impl OpDesc {
    pub(crate) const fn new(kind: u8, lit: usize, consumes: usize) -> Self {
        OpDesc { kind, lit, consumes }
    }
    /// Whether the op fits a static dim of size `n`, or cannot be checked at compile time
    /// because both `n` and the literal are inside the bridge (the [`Checked`] rules' domain:
    /// such a dim here comes from generic code, which is checked at run time).
    const fn ok_on(&self, n: usize) -> bool {
        if self.kind == 0 || (in_bridge(n) && in_bridge(self.lit)) {
            return true;
        }
        match self.kind {
            1 => self.lit < n,
            3 | 5 => self.lit <= n,
            _ => self.lit <= n,
        }
    }
}
/// The [`OpDesc`] of an op type.
pub trait DescOp {
    /// The description.
    const DESC: OpDesc;
}
macro_rules! desc_op {
    ($([$($p:tt)*] $t:ty => $kind:expr, $lit:expr, $n:expr;)*) => {$(
        impl<$($p)*> DescOp for $t {
            const DESC: OpDesc = OpDesc::new($kind, $lit, $n);
        }
    )*};
}
desc_op! {
    [] Full => 0, 0, 1;
    [const I: usize] At<I> => 1, I, 1;
    [const K: usize] AtNeg<K> => 2, K, 1;
    [] AtDyn => 0, 0, 1;
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool]
        Range<S, E, STEP, LEN, REV, ONE> => 3, E, 1;
    [const S: usize, const STEP: usize, const REV: bool] RangeFrom<S, STEP, REV> => 5, S, 1;
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool]
        RangeNeg<KS, KE, STEP, LEN, REV, ONE> => 4, KS, 1;
    [] RangeDyn => 0, 0, 1;
    [] NewAxis => 0, 0, 0;
}
/// The most ops a `t!` spec may hold on one side of `...` for the build-time check.
const MAX_OPS: usize = 16;
/// The [`OpDesc`]s of a list of ops, in order.
pub trait DescList {
    /// How many ops.
    const LEN: usize;
    /// Their descriptions (`LEN` of them first).
    const DESCS: [OpDesc; MAX_OPS];
}
impl DescList for Nil {
    const LEN: usize = 0;
    const DESCS: [OpDesc; MAX_OPS] = [OpDesc::new(0, 0, 0); MAX_OPS];
}
impl<O: DescOp, R: DescList> DescList for Cons<O, R> {
    const LEN: usize = 1 + R::LEN;
    const DESCS: [OpDesc; MAX_OPS] = {
        let mut out = [OpDesc::new(0, 0, 0); MAX_OPS];
        out[0] = O::DESC;
        let mut i = 0;
        while i + 1 < MAX_OPS {
            out[i + 1] = R::DESCS[i];
            i += 1;
        }
        out
    };
}
/// Whether every literal of a spec fits the static dims it consumes, where the [`Checked`] rules
/// could not have checked it (see [`OpDesc`]).
const fn loose_ok(
    stat: &[Option<usize>; MAX_RANK],
    rank: Option<usize>,
    pre: &[OpDesc; MAX_OPS],
    npre: usize,
    post: &[OpDesc; MAX_OPS],
    npost: usize,
) -> bool {
    let Some(rank) = rank else {
        return true;
    };
    let mut pos = 0;
    let mut i = 0;
    while i < npre && i < MAX_OPS {
        let d = pre[i];
        if d.consumes == 1 && pos < rank {
            if let Some(n) = stat[pos] {
                if !d.ok_on(n) {
                    return false;
                }
            }
        }
        pos += d.consumes;
        i += 1;
    }
    let mut back = rank;
    let mut j = 0;
    while j < npost && j < MAX_OPS {
        let d = post[j];
        if d.consumes > back {
            return true; // too many indices: a compile error elsewhere
        }
        back -= d.consumes;
        if d.consumes == 1 {
            if let Some(n) = stat[back] {
                if !d.ok_on(n) {
                    return false;
                }
            }
        }
        j += 1;
    }
    true
}

/// The build-time check of the [`Loose`] rules: every literal index and bound on a static dim
/// outside typenum's bridge is in range (evaluated when the program is built, so `cargo build`
/// rejects `t!(x[5000])` on `Shape![3000]`; `cargo check` does not see it). Inside the bridge,
/// concrete code takes the [`Checked`] rules and generic code checks at run time.
pub trait LooseCheck {
    /// Evaluating it fails the build when a literal is out of bounds.
    const OK: ();
}
impl<S: Shape, Pre: DescList, Post: DescList> LooseCheck for (S, Pre, Post) {
    #[rustfmt::skip]
    const OK: () = if !loose_ok(&S::STATIC, S::RANK, &Pre::DESCS, Pre::LEN, &Post::DESCS, Post::LEN) {
        panic!("t!: a literal index or bound is out of range for a static dimension of this shape")
    };
}

// ------------------------------------------------------------------------------------ runtime
/// The dims a spec produces on one side.
#[derive(Clone, Copy, Debug)]
pub struct DimBuf {
    len: usize,
    sizes: [usize; MAX_RANK],
    strides: [isize; MAX_RANK],
}
impl DimBuf {
    #[inline(always)]
    fn new() -> Self {
        DimBuf { len: 0, sizes: [1; MAX_RANK], strides: [0; MAX_RANK] }
    }
    #[inline(always)]
    fn push(&mut self, n: usize, s: isize) -> Result<(), ShapeError> {
        if self.len == MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: MAX_RANK + 1 });
        }
        self.sizes[self.len] = n;
        self.strides[self.len] = s;
        self.len += 1;
        Ok(())
    }
}

/// One input dim handed to an op: its size, stride, static size (if the type has one; literal
/// ops on static dims were checked at compile time) and position.
#[derive(Clone, Copy, Debug)]
pub struct DimIn {
    size: usize,
    stride: isize,
    axis: usize,
}

/// Runtime behaviour of one op: it takes its input dims from the context (front or back) and
/// pushes its output dims.
pub trait RtOp {
    /// The number of input dims the op consumes (0 for `None`, the mask's rank for a bool mask).
    fn consumes(&self) -> usize;
    /// Applies the op.
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError>;
}

/// Where the advanced indices met while applying a spec go: nowhere for basic specs (`()`, so
/// the hot path of view creation carries no vectors), an [`AdvList`] for specs with index tensors.
pub trait AdvSink: Default {
    /// Records an advanced index of the front (`true`) or back side.
    fn push(&mut self, front: bool, adv: AdvIndex);
    /// The advanced indices in view order, given the final numbers of dims per part.
    fn finish(self, rank: usize) -> Vec<AdvIndex>;
}
impl AdvSink for () {
    #[inline(always)]
    fn push(&mut self, _: bool, _: AdvIndex) {
        unreachable!("a spec typed as basic holds no index tensor")
    }
    #[inline(always)]
    fn finish(self, _: usize) -> Vec<AdvIndex> {
        Vec::new()
    }
}
/// The advanced indices of a spec with index tensors, per side.
#[derive(Default)]
pub struct AdvList {
    pre: Vec<AdvIndex>,
    post: Vec<AdvIndex>,
}
impl AdvSink for AdvList {
    fn push(&mut self, front: bool, adv: AdvIndex) {
        if front { &mut self.pre } else { &mut self.post }.push(adv);
    }
    fn finish(mut self, rank: usize) -> Vec<AdvIndex> {
        // The back side was built reversed: positions count from the end.
        for mut a in self.post {
            a.pos = rank - (a.pos + a.index.len());
            self.pre.push(a);
        }
        self.pre.sort_by_key(|a| a.pos);
        self.pre
    }
}

/// The state of applying a spec to a layout.
pub struct SliceCx<'l, A = ()> {
    l: &'l Layout,
    front: usize,
    back: usize,
    given: usize,
    off: isize,
    pre: DimBuf,
    post: DimBuf,
    adv: A,
}
impl<A: AdvSink> SliceCx<'_, A> {
    /// Takes the next `k` input dims from the front or the back; returns the first one's position.
    #[inline(always)]
    fn take<const FRONT: bool>(&mut self, k: usize) -> Result<usize, ShapeError> {
        if self.back - self.front < k {
            return Err(too_many(self));
        }
        Ok(if FRONT {
            self.front += k;
            self.front - k
        } else {
            self.back -= k;
            self.back
        })
    }
    #[inline(always)]
    fn dim(&self, i: usize) -> DimIn {
        DimIn { size: self.l.sizes()[i], stride: self.l.strides()[i], axis: i }
    }
    /// Takes one input dim.
    #[inline(always)]
    fn take_one<const FRONT: bool>(&mut self) -> Result<DimIn, ShapeError> {
        let i = self.take::<FRONT>(1)?;
        Ok(self.dim(i))
    }
    #[inline(always)]
    fn out<const FRONT: bool>(&mut self) -> &mut DimBuf {
        if FRONT {
            &mut self.pre
        } else {
            &mut self.post
        }
    }
    /// Keeps input dims `first..first + k` as they are and records an advanced index over them.
    fn push_advanced<const FRONT: bool>(&mut self, first: usize, mut adv: AdvIndex) -> Result<(), ShapeError> {
        let k = adv.index.len();
        let l = self.l;
        let buf = self.out::<FRONT>();
        adv.pos = buf.len;
        // The back side is built in reverse and flipped at the end.
        for j in 0..k {
            let i = if FRONT { first + j } else { first + k - 1 - j };
            buf.push(l.sizes()[i], l.strides()[i])?;
        }
        adv.axis = first;
        self.adv.push(FRONT, adv);
        Ok(())
    }
}

impl RtOp for Full {
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let d = cx.take_one::<FRONT>()?;
        cx.out::<FRONT>().push(d.size, d.stride)
    }
}
impl<const I: usize> RtOp for At<I> {
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let d = cx.take_one::<FRONT>()?;
        // Checked here too: a literal on a generic or out-of-bridge dim is only checked at run
        // time (the macro refuses literals beyond isize, so the cast is exact).
        cx.off += index_offset(I as isize, d.size, d.stride, d.axis)?;
        Ok(())
    }
}
impl<const K: usize> RtOp for AtNeg<K> {
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let d = cx.take_one::<FRONT>()?;
        cx.off += index_offset(-(K as isize), d.size, d.stride, d.axis)?;
        Ok(())
    }
}
impl RtOp for AtDyn {
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let d = cx.take_one::<FRONT>()?;
        let err = || ShapeError::Index { index: self.0, axis: d.axis, size: d.size };
        let i = isize::try_from(self.0).map_err(|_| err())?;
        cx.off += index_offset(i, d.size, d.stride, d.axis)?;
        Ok(())
    }
}
#[inline(always)]
fn step_of(step: usize, rev: bool) -> isize {
    if rev {
        -(step as isize)
    } else {
        step as isize
    }
}
#[inline(always)]
fn push_range<const FRONT: bool, A: AdvSink>(
    cx: &mut SliceCx<A>,
    start: Option<isize>,
    end: Option<isize>,
    step: isize,
) -> Result<(), ShapeError> {
    let d = cx.take_one::<FRONT>()?;
    if step == 0 {
        return Err(ShapeError::ZeroStep { axis: d.axis });
    }
    let (s, e) = range_bounds(start, end, d.size, d.axis)?;
    let (o, len, stride) = range_dim(s, e, step, d.stride);
    cx.off += o;
    cx.out::<FRONT>().push(len, stride)
}
impl<const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool> RtOp
    for Range<S, E, STEP, LEN, REV, ONE>
{
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        push_range::<FRONT, A>(cx, Some(S as isize), Some(E as isize), step_of(STEP, REV))
    }
}
impl<const S: usize, const STEP: usize, const REV: bool> RtOp for RangeFrom<S, STEP, REV> {
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        push_range::<FRONT, A>(cx, Some(S as isize), None, step_of(STEP, REV))
    }
}
impl<const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool> RtOp
    for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
{
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let end = if KE == 0 { None } else { Some(-(KE as isize)) };
        push_range::<FRONT, A>(cx, Some(-(KS as isize)), end, step_of(STEP, REV))
    }
}
impl RtOp for RangeDyn {
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let fit = |b: Option<i128>| b.map(isize::try_from).transpose();
        match (fit(self.start), fit(self.end)) {
            (Ok(start), Ok(end)) => push_range::<FRONT, A>(cx, start, end, self.step),
            // A bound beyond isize is outside every dim: name it as given.
            _ => {
                let d = cx.take_one::<FRONT>()?;
                let n = d.size as i128;
                Err(ShapeError::Range {
                    start: self.start.unwrap_or(0),
                    end: self.end.unwrap_or(n),
                    axis: d.axis,
                    size: d.size,
                })
            }
        }
    }
}
impl RtOp for NewAxis {
    #[inline(always)]
    fn consumes(&self) -> usize {
        0
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        cx.out::<FRONT>().push(1, 0)
    }
}

/// A list of ops at run time.
pub trait RtOps {
    /// The number of input dims the list consumes.
    fn count(&self) -> usize;
    /// Applies the list from the front.
    fn apply_front<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError>;
    /// Applies the list from the back.
    fn apply_back<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError>;
}
impl RtOps for Nil {
    #[inline(always)]
    fn count(&self) -> usize {
        0
    }
    #[inline(always)]
    fn apply_front<A: AdvSink>(&self, _: &mut SliceCx<A>) -> Result<(), ShapeError> {
        Ok(())
    }
    #[inline(always)]
    fn apply_back<A: AdvSink>(&self, _: &mut SliceCx<A>) -> Result<(), ShapeError> {
        Ok(())
    }
}
#[cold]
#[inline(never)]
fn too_many<A: AdvSink>(cx: &SliceCx<A>) -> ShapeError {
    ShapeError::TooManyIndices { given: cx.given, rank: cx.l.rank() }
}
impl<O: RtOp, R: RtOps> RtOps for Cons<O, R> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.0.consumes() + self.1.count()
    }
    #[inline(always)]
    fn apply_front<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        self.0.apply::<true, A>(cx)?;
        self.1.apply_front(cx)
    }
    #[inline(always)]
    fn apply_back<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        self.0.apply::<false, A>(cx)?;
        self.1.apply_back(cx)
    }
}

/// Applies a spec to a layout (shared by the static and dynamic front ends), checking every index
/// and bound at run time. Advanced (tensor) indices keep their dims in the returned layout and
/// are returned beside it, with their positions in it.
///
/// # Errors
/// Any index or range error, [`ShapeError::TooManyIndices`], [`ShapeError::RankTooLarge`].
#[inline(always)]
pub fn apply_spec_advanced<Pre: RtOps, Post: RtOps, A: AdvSink>(
    l: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<(Layout, Vec<AdvIndex>), ShapeError> {
    let given = spec.pre.count() + spec.post.count();
    let mut cx = SliceCx {
        l,
        front: 0,
        back: l.rank(),
        given,
        off: l.offset() as isize,
        pre: DimBuf::new(),
        post: DimBuf::new(),
        adv: A::default(),
    };
    spec.pre.apply_front(&mut cx)?;
    spec.post.apply_back(&mut cx)?;
    let mid = cx.back - cx.front;
    let rank = cx.pre.len + mid + cx.post.len;
    if rank > MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank });
    }
    let mut sizes = [1usize; MAX_RANK];
    let mut strides = [0isize; MAX_RANK];
    let mut k = 0;
    for i in 0..cx.pre.len {
        (sizes[k], strides[k]) = (cx.pre.sizes[i], cx.pre.strides[i]);
        k += 1;
    }
    for i in cx.front..cx.back {
        (sizes[k], strides[k]) = (l.sizes()[i], l.strides()[i]);
        k += 1;
    }
    for i in (0..cx.post.len).rev() {
        (sizes[k], strides[k]) = (cx.post.sizes[i], cx.post.strides[i]);
        k += 1;
    }
    // An empty result keeps the source's offset; nothing is ever read through it.
    let layout = Layout::from_arrays(sizes, strides, rank, cx.off, l.offset());
    Ok((layout, cx.adv.finish(rank)))
}

/// Applies a spec of basic indices (no index tensors) to a layout.
///
/// # Errors
/// As [`apply_spec_advanced`].
#[inline(always)]
pub fn apply_spec<Pre: RtOps, Post: RtOps>(l: &Layout, spec: &Spec<Pre, Post>) -> Result<Layout, ShapeError> {
    Ok(apply_spec_advanced::<Pre, Post, ()>(l, spec)?.0)
}

/// What `t!(x[...])` gives for a tensor of shape `S` under the rule set `M`.
type SliceOut<'a, T, S, Pre, Post, M> =
    <SpecKind<Pre, Post> as ResultKind>::Out<'a, T, <Spec<Pre, Post> as SliceShape<S, M>>::Out>;
/// What `t!(x[...])` gives under the [`Loose`] rules.
type LooseOut<'a, T, S, Pre, Post> = SliceOut<'a, T, S, Pre, Post, Loose>;
/// What `t!(mut x[...])` gives under the [`Loose`] rules.
type LooseOutMut<'a, T, S, Pre, Post> = SliceOutMut<'a, T, S, Pre, Post, Loose>;
/// What `t!(mut x[...])` gives.
type SliceOutMut<'a, T, S, Pre, Post, M> =
    <SpecKind<Pre, Post> as ResultKind>::OutMut<'a, T, <Spec<Pre, Post> as SliceShape<S, M>>::Out>;
type SpecKind<Pre, Post> = <(<Pre as AnyAdvanced>::Kind, <Post as AnyAdvanced>::Kind) as KindOr>::Out;

/// What `t!` indexes: its operand, taken by value when it is a view (so the result keeps the
/// view's lifetime) and borrowed otherwise (`t!` calls `t_source` through autoref). The probe
/// holds it and reads its layout in place (no copy on the hot path of view creation).
pub trait TSource<'a>: Sized {
    /// The element type.
    type Elem: crate::Element + 'a;
    /// The shape type.
    type Shape: Shape;
    /// The operand itself, as the probe holds it.
    #[inline(always)]
    fn t_source(self) -> Self {
        self
    }
    /// Its storage (for the lifetime of the original borrow) and its layout.
    fn t_parts(&self) -> (&'a [Self::Elem], &Layout);
}
impl<'a, D: Data, S: Shape> TSource<'a> for &'a TensorBase<D, S>
where
    D::Elem: 'a,
{
    type Elem = D::Elem;
    type Shape = S;
    #[inline(always)]
    fn t_parts(&self) -> (&'a [D::Elem], &Layout) {
        let t: &'a TensorBase<D, S> = self;
        (t.data.as_slice(), t.layout())
    }
}
impl<'a, T: crate::Element, S: Shape> TSource<'a> for crate::TensorView<'a, T, S> {
    type Elem = T;
    type Shape = S;
    #[inline(always)]
    fn t_parts(&self) -> (&'a [T], &Layout) {
        (self.data, self.layout())
    }
}
/// What `t!(mut ...)` and the assignment forms index: a mutable view of the operand (a mutable
/// view is moved, keeping its lifetime; anything else is borrowed mutably).
pub trait TSourceMut<'a> {
    /// The element type.
    type Elem: crate::Element;
    /// The shape type.
    type Shape: Shape;
    /// The mutable view.
    fn t_source_mut(self) -> TensorViewMut<'a, Self::Elem, Self::Shape>;
}
impl<'a, D: DataMut, S: Shape> TSourceMut<'a> for &'a mut TensorBase<D, S> {
    type Elem = D::Elem;
    type Shape = S;
    #[inline(always)]
    fn t_source_mut(self) -> TensorViewMut<'a, D::Elem, S> {
        self.as_view_mut()
    }
}
impl<'a, T: crate::Element, S: Shape> TSourceMut<'a> for TensorViewMut<'a, T, S> {
    type Elem = T;
    type Shape = S;
    #[inline(always)]
    fn t_source_mut(self) -> TensorViewMut<'a, T, S> {
        self
    }
}

/// A `t!` operand with its spec, on which the macro calls `t_slice`: through [`TSliceChecked`]
/// when the spec's literals and static dims are inside typenum's bridge (then every literal is
/// checked at compile time, as a bound of that method), through [`TSliceLoose`] (on `&Probe`,
/// reached by autoref only when the checked impl does not apply) otherwise. See [`Checked`] and
/// [`Loose`].
pub struct Probe<'a, X, T, S: Shape, Pre, Post> {
    src: X,
    spec: Spec<Pre, Post>,
    _source: PhantomData<(&'a [T], S)>,
}
/// The probe of `t!(x[...])` (called by the macro).
#[inline(always)]
pub fn probe<'a, X: TSource<'a>, Pre, Post>(x: X, spec: Spec<Pre, Post>) -> Probe<'a, X, X::Elem, X::Shape, Pre, Post> {
    Probe { src: x, spec, _source: PhantomData }
}
/// The mutable form of [`Probe`] (`t!(mut ...)` and the assignment forms).
pub struct ProbeMut<'a, T, S: Shape, Pre, Post> {
    data: &'a mut [T],
    layout: Layout,
    spec: Spec<Pre, Post>,
    _shape: PhantomData<S>,
}
/// The probe of `t!(mut x[...])` and `t!(x[...] = v)` (called by the macro).
#[inline(always)]
pub fn probe_mut<'a, X: TSourceMut<'a>, Pre, Post>(
    x: X,
    spec: Spec<Pre, Post>,
) -> ProbeMut<'a, X::Elem, X::Shape, Pre, Post> {
    let v = x.t_source_mut();
    let layout = *v.layout();
    ProbeMut { data: v.data, layout, spec, _shape: PhantomData }
}

/// Applies a spec to a probe's view: a view for basic indices, a copy for index tensors.
#[inline(always)]
fn slice_spec<'a, T: crate::Element, S2: Shape, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced>(
    data: &'a [T],
    layout: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<<SpecKind<Pre, Post> as ResultKind>::Out<'a, T, S2>, ShapeError>
where
    (Pre::Kind, Post::Kind): KindOr,
{
    let (l, adv) = apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(layout, spec)?;
    <SpecKind<Pre, Post> as ResultKind>::make(data, l, adv)
}
/// [`slice_spec`] for a mutable target: a mutable view, or the pending write of index tensors.
#[inline(always)]
fn slice_spec_mut<'a, T: crate::Element, S2: Shape, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced>(
    data: &'a mut [T],
    layout: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<<SpecKind<Pre, Post> as ResultKind>::OutMut<'a, T, S2>, ShapeError>
where
    (Pre::Kind, Post::Kind): KindOr,
{
    let (l, adv) = apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(layout, spec)?;
    Ok(<SpecKind<Pre, Post> as ResultKind>::make_mut(data, l, adv))
}

/// `t!(x[...])` under the [`Checked`] rules: the result shape computed with compile-time size
/// arithmetic, every literal checked by the `Checks: AllInBounds` bound of the method (a compile
/// error naming the literal, the size and the shape). Indices are checked at run time as well.
pub trait TSliceChecked {
    /// The resulting view or tensor.
    type Output;
    /// The spec's recorded checks.
    type Checks;
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    fn t_slice(&self) -> Self::Output
    where
        Self::Checks: AllInBounds;
    /// Applies the spec (`t!(try x[...])`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    fn t_try_slice(&self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds;
}
impl<
        'a,
        X: TSource<'a, Elem = T, Shape = S>,
        T: crate::Element,
        S: Shape,
        Pre: RtOps + AnyAdvanced,
        Post: RtOps + AnyAdvanced,
    > TSliceChecked for Probe<'a, X, T, S, Pre, Post>
where
    Spec<Pre, Post>: SliceShape<S, Checked>,
    (Pre::Kind, Post::Kind): KindOr,
{
    type Output = SliceOut<'a, T, S, Pre, Post, Checked>;
    type Checks = <Spec<Pre, Post> as SliceShape<S, Checked>>::Checks;
    #[inline(always)]
    #[track_caller]
    fn t_slice(&self) -> Self::Output
    where
        Self::Checks: AllInBounds,
    {
        self.t_try_slice().or_panic()
    }
    #[inline(always)]
    fn t_try_slice(&self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds,
    {
        let (data, layout) = self.src.t_parts();
        slice_spec(data, layout, &self.spec)
    }
}
/// `t!(x[...])` under the [`Loose`] rules (generic sizes, or sizes outside typenum's bridge):
/// checked at run time, and literals on static dims outside the bridge also when the program is
/// built ([`LooseCheck`]). Implemented for every probe, with the shape rule as a bound of the
/// method, so a spec that fits no rule (too many indices, index tensors that do not broadcast) is
/// an error naming that rule.
pub trait TSliceLoose<'a, T: crate::Element, S: Shape, Pre, Post> {
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    #[rustfmt::skip] // one line: the bound is what an error shows
    fn t_slice(&self) -> LooseOut<'a, T, S, Pre, Post> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre::Kind, Post::Kind): KindOr;
    /// Applies the spec (`t!(try x[...])`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    #[rustfmt::skip]
    fn t_try_slice(&self) -> Result<LooseOut<'a, T, S, Pre, Post>, ShapeError> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre::Kind, Post::Kind): KindOr;
}
impl<'a, X: TSource<'a, Elem = T, Shape = S>, T: crate::Element, S: Shape, Pre, Post> TSliceLoose<'a, T, S, Pre, Post>
    for &Probe<'a, X, T, S, Pre, Post>
{
    #[inline(always)]
    #[track_caller]
    fn t_slice(&self) -> LooseOut<'a, T, S, Pre, Post>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre::Kind, Post::Kind): KindOr,
    {
        // Evaluated here, in the function the user's `t!` instantiates, so that a failure names
        // that call.
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        let (data, layout) = self.src.t_parts();
        slice_spec(data, layout, &self.spec).or_panic()
    }
    #[inline(always)]
    fn t_try_slice(&self) -> Result<LooseOut<'a, T, S, Pre, Post>, ShapeError>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre::Kind, Post::Kind): KindOr,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        let (data, layout) = self.src.t_parts();
        slice_spec(data, layout, &self.spec)
    }
}

/// The run-time requirements of an op list on the [`Loose`] path, as one bound: ops that apply at
/// run time and describe themselves for the build-time check.
pub trait LooseOps: RtOps + AnyAdvanced + DescList {}
impl<L: RtOps + AnyAdvanced + DescList> LooseOps for L {}

/// `t!(mut x[...])` and the target of `t!(x[...] = v)` under the [`Checked`] rules (see
/// [`TSliceChecked`]).
pub trait TSliceMutChecked {
    /// The resulting mutable view or pending write.
    type Output;
    /// The spec's recorded checks.
    type Checks;
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    fn t_slice_mut(&mut self) -> Self::Output
    where
        Self::Checks: AllInBounds;
    /// Applies the spec (`t!(try mut x[...])`, `t!(try x[...] = v)`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    fn t_try_slice_mut(&mut self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds;
}
impl<'a, T: crate::Element, S: Shape, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced> TSliceMutChecked
    for ProbeMut<'a, T, S, Pre, Post>
where
    Spec<Pre, Post>: SliceShape<S, Checked>,
    (Pre::Kind, Post::Kind): KindOr,
{
    type Output = SliceOutMut<'a, T, S, Pre, Post, Checked>;
    type Checks = <Spec<Pre, Post> as SliceShape<S, Checked>>::Checks;
    #[inline(always)]
    #[track_caller]
    fn t_slice_mut(&mut self) -> Self::Output
    where
        Self::Checks: AllInBounds,
    {
        self.t_try_slice_mut().or_panic()
    }
    #[inline(always)]
    fn t_try_slice_mut(&mut self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds,
    {
        // The probe is used once: its borrow moves into the result.
        slice_spec_mut(core::mem::take(&mut self.data), &self.layout, &self.spec)
    }
}
/// The [`Loose`] form of [`TSliceMutChecked`] (see [`TSliceLoose`]).
pub trait TSliceMutLoose<'a, T: crate::Element, S: Shape, Pre, Post> {
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    #[rustfmt::skip] // one line: the bound is what an error shows
    fn t_slice_mut(&mut self) -> LooseOutMut<'a, T, S, Pre, Post> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre::Kind, Post::Kind): KindOr;
    /// Applies the spec.
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    #[rustfmt::skip]
    fn t_try_slice_mut(&mut self) -> Result<LooseOutMut<'a, T, S, Pre, Post>, ShapeError> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre::Kind, Post::Kind): KindOr;
}
impl<'a, T: crate::Element, S: Shape, Pre, Post> TSliceMutLoose<'a, T, S, Pre, Post>
    for &mut ProbeMut<'a, T, S, Pre, Post>
{
    #[inline(always)]
    #[track_caller]
    fn t_slice_mut(&mut self) -> LooseOutMut<'a, T, S, Pre, Post>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre::Kind, Post::Kind): KindOr,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        slice_spec_mut(core::mem::take(&mut self.data), &self.layout, &self.spec).or_panic()
    }
    #[inline(always)]
    fn t_try_slice_mut(&mut self) -> Result<LooseOutMut<'a, T, S, Pre, Post>, ShapeError>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre::Kind, Post::Kind): KindOr,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        slice_spec_mut(core::mem::take(&mut self.data), &self.layout, &self.spec)
    }
}

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
}
macro_rules! compound_ops {
    ($($name:ident $m:ident $div:literal;)*) => {$(
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
        }
    )*};
}
compound_ops! {
    OpAdd add false;
    OpSub sub false;
    OpMul mul false;
    OpDiv div true;
    OpRem rem true;
}

/// For integer division: [`ShapeError::DivisionByZero`] when a divisor that would be used is zero.
fn check_divides<Op: CompoundOp, T: crate::Num>(b: &[T], lb: &Layout, used: usize) -> Result<(), ShapeError> {
    if Op::DIVIDES && T::INTEGER && used > 0 {
        let mut zero = false;
        crate::layout::walk(lb.sizes(), [lb], |[i]| zero |= b[i] == T::ZERO);
        if zero {
            return Err(ShapeError::DivisionByZero { op: Op::NAME });
        }
    }
    Ok(())
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
    fn t_try_compound(self, value: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        let ls = value.layout().expand_for_assign(self.layout().sizes())?;
        check_divides::<Op, T>(value.data.as_slice(), value.layout(), self.numel())?;
        let l = *self.layout();
        crate::kernels::zip_assign(&mut self.data[..], &l, value.data.as_slice(), &ls, |d, s| *d = Op::apply(*d, s));
        Ok(())
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
    pub fn try_assign<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(
        &mut self,
        src: &TensorBase<D2, S2>,
    ) -> Result<(), ShapeError> {
        let ls = src.layout().expand_for_assign(self.layout().sizes())?;
        let ld = *self.layout();
        crate::kernels::copy_to(self.data.as_mut_slice(), &ld, src.data.as_slice(), &ls);
        Ok(())
    }
    /// [`try_assign`](Self::try_assign), panicking with the error's message.
    #[track_caller]
    #[doc(alias = "copy_")]
    pub fn assign<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(&mut self, src: &TensorBase<D2, S2>) {
        self.try_assign(src).or_panic()
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
