//! The type-level rules of a spec: each op's effect on a shape ([`IndexOp`]), and the result
//! shape of a whole spec under the checked or the loose rule set.
use super::adv_rules::*;
use super::checks::*;
use super::spec::*;
use crate::dim::*;
use crate::shape::*;
use typenum::{IsLess, IsLessOrEqual};

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

/// The pairs `(dim, rule set)` on which a literal index or bound is left to the run-time check:
/// a `Dyn` dim under either rule set (its size is known only at run time) and a static dim under
/// [`Loose`]. Each literal op has one impl of [`IndexOp`] for these and one checked impl for
/// `Const<N>` under [`Checked`]. (A trait of the pair rather than of the dim with the rule set
/// as a parameter, so that no other crate could implement it for [`One`], whose impls are apart.)
pub trait CheckedAtRunTime {}
impl<M> CheckedAtRunTime for (Dyn, M) {}
impl<const N: usize> CheckedAtRunTime for (Const<N>, Loose) {}

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
/// The literal indices `i` and `-k`: no output dim, and under [`Checked`] on a static dim
/// `N` the literal checked at compile time (`i < N`, `k <= N`).
macro_rules! literal_index_rules {
    ($($Op:ident<$L:ident> checks $Cmp:ident, $Verdict:ident as $Kind:ident;)*) => {$(
        impl<const $L: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh, Checked> for $Op<$L>
        where
            Const<$L>: StaticDim,
            Const<N>: StaticDim,
            TnC<$L>: $Cmp<TnC<N>>,
            typenum::$Verdict<TnC<$L>, TnC<N>>: Verdict,
        {
            type Out = Nil;
            type Rest = R;
            type Checks = Cons<Chk<$Kind, Check<typenum::$Verdict<TnC<$L>, TnC<N>>>, $L, N, Sh>, Nil>;
        }
        impl<const $L: usize, D: Dim, R, Sh, M> IndexOp<Cons<D, R>, Sh, M> for $Op<$L>
        where
            (D, M): CheckedAtRunTime,
        {
            type Out = Nil;
            type Rest = R;
            type Checks = Nil;
        }
    )*};
}
literal_index_rules! {
    At<I> checks IsLess, Le as KIndex;
    AtNeg<K> checks IsLessOrEqual, LeEq as KNegIndex;
}
impl<D: Dim, R, Sh, M> IndexOp<Cons<D, R>, Sh, M> for AtDyn {
    type Out = Nil;
    type Rest = R;
    type Checks = Nil;
}
/// The ranges whose length the macro computed (`a..b` and `-k..-j`, any step): the output dim is
/// that length (`Const`, or `One` for a length the macro marked as one), and under [`Checked`] on
/// a static dim the one literal that can leave the dim is checked: the end of `a..b`, the start
/// `-k` of `-k..`.
macro_rules! length_range_rules {
    ($($Op:ident<$A:ident, $B:ident> checks $Lit:ident as $Kind:ident;)*) => {$(
        impl<
                const $A: usize,
                const $B: usize,
                const STEP: usize,
                const LEN: usize,
                const REV: bool,
                const ONE: bool,
                const N: usize,
                R,
                Sh,
            > IndexOp<Cons<Const<N>, R>, Sh, Checked> for $Op<$A, $B, STEP, LEN, REV, ONE>
        where
            LenDim<LEN, ONE>: PickDim,
            Const<$Lit>: StaticDim,
            Const<N>: StaticDim,
            TnC<$Lit>: IsLessOrEqual<TnC<N>>,
            typenum::LeEq<TnC<$Lit>, TnC<N>>: Verdict,
        {
            type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
            type Rest = R;
            type Checks = Cons<Chk<$Kind, Check<typenum::LeEq<TnC<$Lit>, TnC<N>>>, $Lit, N, Sh>, Nil>;
        }
        impl<
                const $A: usize,
                const $B: usize,
                const STEP: usize,
                const LEN: usize,
                const REV: bool,
                const ONE: bool,
                D: Dim,
                R,
                Sh,
                M,
            > IndexOp<Cons<D, R>, Sh, M> for $Op<$A, $B, STEP, LEN, REV, ONE>
        where
            (D, M): CheckedAtRunTime,
            LenDim<LEN, ONE>: PickDim,
        {
            type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
            type Rest = R;
            type Checks = Nil;
        }
    )*};
}
length_range_rules! {
    Range<S, E> checks E as KEnd;
    RangeNeg<KS, KE> checks KS as KNegStart;
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
impl<const S: usize, const STEP: usize, const REV: bool, D: Dim, R, Sh, M> IndexOp<Cons<D, R>, Sh, M>
    for RangeFrom<S, STEP, REV>
where
    (D, M): CheckedAtRunTime,
{
    type Out = Cons<Dyn, Nil>;
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
/// No ops after `...` (or no `...`, most specs): the remaining dims as they are, without the two
/// reversals and the concatenation (a fifth of the `cargo check` time of a short `t!`).
impl<L, Sh, M> PostApply<Nil, Sh, M> for L {
    type Out = L;
    type Checks = Nil;
}
impl<L, O, R, Sh, M> PostApply<Cons<O, R>, Sh, M> for L
where
    L: Reverse,
    Cons<O, R>: ApplyOps<L::Out, Sh, M>,
    PostRest<L, Cons<O, R>, Sh, M>: Reverse,
    PostOps<L, Cons<O, R>, Sh, M>: Reverse,
    <PostRest<L, Cons<O, R>, Sh, M> as Reverse>::Out: Concat<<PostOps<L, Cons<O, R>, Sh, M> as Reverse>::Out>,
{
    type Out = <<PostRest<L, Cons<O, R>, Sh, M> as Reverse>::Out as Concat<
        <PostOps<L, Cons<O, R>, Sh, M> as Reverse>::Out,
    >>::Out;
    type Checks = <Cons<O, R> as ApplyOps<L::Out, Sh, M>>::Checks;
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
