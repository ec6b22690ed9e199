//! The type-level rules of a spec: each op's effect on a shape ([`IndexOp`]), and the result
//! shape of a whole spec under the checked or the loose rule set.
use super::adv_rules::*;
use super::apply::RtOps;
use super::checks::*;
use super::spec::*;
use crate::dim::*;
use crate::shape::*;
use typenum::IsLessOrEqual;

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
/// ([`LooseCheck`](super::LooseCheck)).
#[derive(Clone, Copy, Debug, Default)]
pub struct Loose;

/// The dims of indexing the dims list `L` with the op list `Self` under the rule set `M`: each
/// op's output dims in order, then the dims it leaves, with the ops `Post` (those after `...`,
/// reversed) applied from the back of the rest. `Sh` is the whole shape, for the messages.
///
/// One impl per op and dim kind, each one projection deep (the output list is built as the walk
/// returns, with no concatenation), and no size comparison: the literals on static dims under
/// [`Checked`] are recorded in [`Checks`](Self::Checks) and compared only by the checked `t!`
/// method's bound ([`AllInBounds`]), so that a literal out of bounds is an error rather than a
/// fall-back to the [`Loose`] rules, and the other paths never compare. Under [`Checked`], an op
/// with a literal applies to a static dim only when the dim and the literal are inside
/// typenum's bridge.
#[diagnostic::on_unimplemented(
    message = "too many indices for shape `{Sh}`",
    label = "more indices than dimensions",
    note = "each index, range or `..` consumes one dimension; `None` adds one"
)]
pub trait SliceDims<L, Sh, M, Post> {
    /// The result dims (index tensors as [`AdvMark`]s, resolved by [`Resolve`]).
    type Out;
    /// The literal checks, a list of [`Chk`].
    type Checks;
}
/// The dims list `L` walked by `Ops`, and its checks (for the impls below).
type Walked<Ops, L, Sh, M, P> = <Ops as SliceDims<L, Sh, M, P>>::Out;
type WalkedChecks<Ops, L, Sh, M, P> = <Ops as SliceDims<L, Sh, M, P>>::Checks;
/// The end of the ops before `...` when none follow it: the remaining dims as they are.
impl<L, Sh, M> SliceDims<L, Sh, M, Nil> for Nil {
    type Out = L;
    type Checks = Nil;
}
/// The end of the ops before `...`: the ops after it walk the reversed rest, and the result is
/// reversed back (the rest, then their output dims).
impl<L: Reverse, Sh, M, O, R> SliceDims<L, Sh, M, Cons<O, R>> for Nil
where
    Cons<O, R>: SliceDims<L::Out, Sh, M, Nil>,
    Walked<Cons<O, R>, L::Out, Sh, M, Nil>: Reverse,
{
    type Out = <Walked<Cons<O, R>, L::Out, Sh, M, Nil> as Reverse>::Out;
    type Checks = WalkedChecks<Cons<O, R>, L::Out, Sh, M, Nil>;
}
/// The ops with no literal: `[generics] op on dims list => (output dims), rest`.
macro_rules! plain_dims_rules {
    ($([$($g:tt)*] $Op:ty, $L:ty => [$($Out:ty)?], $Rest:ty;)*) => {$(
        impl<$($g)* Ops, Sh, M, P> SliceDims<$L, Sh, M, P> for Cons<$Op, Ops>
        where
            Ops: SliceDims<$Rest, Sh, M, P>,
        {
            type Out = plain_dims_rules!(@out [$($Out)?] Walked<Ops, $Rest, Sh, M, P>);
            type Checks = WalkedChecks<Ops, $Rest, Sh, M, P>;
        }
    )*};
    (@out [] $rest:ty) => { $rest };
    (@out [$d:ty] $rest:ty) => { Cons<$d, $rest> };
}
plain_dims_rules! {
    [D, R,] Full, Cons<D, R> => [D], R;
    [D, R,] AtDyn, Cons<D, R> => [], R;
    [D, R,] RangeDyn, Cons<D, R> => [Dyn], R;
    [L,] NewAxis, L => [One], L;
}

/// The pairs `(dim, rule set)` on which a literal index or bound is left to the run-time check:
/// a `Dyn` dim or a named one under either rule set (its size is known only at run time) and a static dim under
/// [`Loose`]. Each literal op has one impl of [`SliceDims`] for these and one for `Const<N>`
/// under [`Checked`]. (A trait of the pair rather than of the dim with the rule set as a
/// parameter, so that no other crate could implement it for [`One`], whose impls are apart.)
pub trait CheckedAtRunTime {}
impl<M> CheckedAtRunTime for (Dyn, M) {}
impl<N: crate::Tagged, M> CheckedAtRunTime for (N, M) {}
impl<const N: usize> CheckedAtRunTime for (Const<N>, Loose) {}

/// The ops with literals: `[generics] op, check kind and the literal it checks (the one that can
/// leave the dim) => output dims`; the same output under the run-time rules.
macro_rules! literal_dims_rules {
    ($([$($g:tt)*] $Op:ty, $K:ident $Lit:ident => [$($Out:ty)?];)*) => {$(
        impl<$($g)* const N: usize, R, Ops, Sh, P> SliceDims<Cons<Const<N>, R>, Sh, Checked, P> for Cons<$Op, Ops>
        where
            Const<$Lit>: StaticDim,
            Const<N>: StaticDim,
            Ops: SliceDims<R, Sh, Checked, P>,
        {
            type Out = plain_dims_rules!(@out [$($Out)?] Walked<Ops, R, Sh, Checked, P>);
            type Checks = Cons<Chk<$K, $Lit, N, Sh>, WalkedChecks<Ops, R, Sh, Checked, P>>;
        }
        impl<$($g)* D, R, Ops, Sh, M, P> SliceDims<Cons<D, R>, Sh, M, P> for Cons<$Op, Ops>
        where
            (D, M): CheckedAtRunTime,
            Ops: SliceDims<R, Sh, M, P>,
        {
            type Out = plain_dims_rules!(@out [$($Out)?] Walked<Ops, R, Sh, M, P>);
            type Checks = WalkedChecks<Ops, R, Sh, M, P>;
        }
        /// On a [`One`] dim, as on `Const<1>`.
        impl<$($g)* R, Ops, Sh, M, P> SliceDims<Cons<One, R>, Sh, M, P> for Cons<$Op, Ops>
        where
            Cons<$Op, Ops>: SliceDims<Cons<Const<1>, R>, Sh, M, P>,
        {
            type Out = Walked<Cons<$Op, Ops>, Cons<Const<1>, R>, Sh, M, P>;
            type Checks = WalkedChecks<Cons<$Op, Ops>, Cons<Const<1>, R>, Sh, M, P>;
        }
    )*};
}
literal_dims_rules! {
    [const I: usize,] At<I>, KIndex I => [];
    [const K: usize,] AtNeg<K>, KNegIndex K => [];
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool,]
        Range<S, E, STEP, LEN, REV, false>, KEnd E => [Const<LEN>];
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool,]
        Range<S, E, STEP, LEN, REV, true>, KEnd E => [One];
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool,]
        RangeNeg<KS, KE, STEP, LEN, REV, false>, KNegStart KS => [Const<LEN>];
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool,]
        RangeNeg<KS, KE, STEP, LEN, REV, true>, KNegStart KS => [One];
}
/// The verdict of `S <= N`.
type StartV<const S: usize, const N: usize> = Check<typenum::LeEq<TnC<S>, TnC<N>>>;
/// `S..;STEP` on a static dim: the length `ceil((N - S) / STEP)` computed with typenum (0 when
/// `S > N`, which the recorded check reports).
impl<const S: usize, const STEP: usize, const REV: bool, const N: usize, R, Ops, Sh, P>
    SliceDims<Cons<Const<N>, R>, Sh, Checked, P> for Cons<RangeFrom<S, STEP, REV>, Ops>
where
    Const<S>: StaticDim,
    Const<N>: StaticDim,
    TnC<S>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<S>, TnC<N>>: Verdict,
    StartV<S, N>: RangeFromLen<S, N, STEP>,
    <StartV<S, N> as RangeFromLen<S, N, STEP>>::Len: ToConst,
    Ops: SliceDims<R, Sh, Checked, P>,
{
    type Out = Cons<<<StartV<S, N> as RangeFromLen<S, N, STEP>>::Len as ToConst>::Out, Walked<Ops, R, Sh, Checked, P>>;
    type Checks = Cons<Chk<KStart, S, N, Sh>, WalkedChecks<Ops, R, Sh, Checked, P>>;
}
impl<const S: usize, const STEP: usize, const REV: bool, D, R, Ops, Sh, M, P> SliceDims<Cons<D, R>, Sh, M, P>
    for Cons<RangeFrom<S, STEP, REV>, Ops>
where
    (D, M): CheckedAtRunTime,
    Ops: SliceDims<R, Sh, M, P>,
{
    type Out = Cons<Dyn, Walked<Ops, R, Sh, M, P>>;
    type Checks = WalkedChecks<Ops, R, Sh, M, P>;
}
/// On a [`One`] dim, as on `Const<1>`.
impl<const S: usize, const STEP: usize, const REV: bool, R, Ops, Sh, M, P> SliceDims<Cons<One, R>, Sh, M, P>
    for Cons<RangeFrom<S, STEP, REV>, Ops>
where
    Cons<RangeFrom<S, STEP, REV>, Ops>: SliceDims<Cons<Const<1>, R>, Sh, M, P>,
{
    type Out = Walked<Cons<RangeFrom<S, STEP, REV>, Ops>, Cons<Const<1>, R>, Sh, M, P>;
    type Checks = WalkedChecks<Cons<RangeFrom<S, STEP, REV>, Ops>, Cons<Const<1>, R>, Sh, M, P>;
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
impl<Op: ConsumesDim, Ops, Sh, M, P> SliceDims<Nil, Sh, M, P> for Cons<Op, Ops>
where
    Sh: TooManyIndices,
{
    type Out = Nil;
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
/// The two op lists of a [`Spec`] (so that [`SliceShape`] has a blanket impl, which rustc does
/// not list under an error).
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
/// The output dims of all ops, before advanced indices are resolved.
type SpecDims<S, Pre, Post, M> = <Pre as SliceDims<<S as StaticRank>::List, S, M, Post>>::Out;
/// The kind of a spec (`B0` basic, `B1` with index tensors).
type KindOf<Pre, Post> = <(<Pre as RtOps>::Kind, <Post as RtOps>::Kind) as KindOr>::Out;
impl<X: SpecParts, S, M> SliceShape<S, M> for X
where
    S: StaticRank,
    X::Pre: SliceDims<S::List, S, M, X::Post> + RtOps,
    X::Post: RtOps,
    (<X::Pre as RtOps>::Kind, <X::Post as RtOps>::Kind): KindOr,
    SpecDims<S, X::Pre, X::Post, M>: Resolve<S, KindOf<X::Pre, X::Post>>,
    <SpecDims<S, X::Pre, X::Post, M> as Resolve<S, KindOf<X::Pre, X::Post>>>::Out: ListToTuple<S>,
{
    type Out = <<SpecDims<S, X::Pre, X::Post, M> as Resolve<S, KindOf<X::Pre, X::Post>>>::Out as ListToTuple<S>>::Tuple;
    type Checks = <X::Pre as SliceDims<S::List, S, M, X::Post>>::Checks;
}
#[diagnostic::do_not_recommend]
impl<X: SpecParts, M> SliceShape<DynShape, M> for X {
    type Out = DynShape;
    type Checks = Nil;
}
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
    Cons<At<I>, Nil>: SliceDims<Cons<D, Nil>, Sh, Checked, Nil>,
    <Cons<At<I>, Nil> as SliceDims<Cons<D, Nil>, Sh, Checked, Nil>>::Checks: AllInBounds,
{
}
