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

/// `S..;STEP` on a static dim of size `N`: the check and the length in one place.
#[diagnostic::on_unimplemented(
    message = "range start {S} is out of bounds for a dimension of size {N} in shape `{Sh}`",
    label = "literal range start out of bounds"
)]
pub trait RangeFromLen<const S: usize, const N: usize, const STEP: usize, Sh> {
    /// `ceil((N - S) / STEP)` as a typenum number (made a dim by [`ToConst`] in the caller, so
    /// that a length past 1024 gets its own message).
    type Len;
}
type TnC<const N: usize> = Tn<Const<N>>;
type Span<const N: usize, const S: usize, const STEP: usize> =
    Sub1<typenum::Sum<typenum::Diff<TnC<N>, TnC<S>>, TnC<STEP>>>;
#[diagnostic::do_not_recommend]
impl<const S: usize, const N: usize, const STEP: usize, Sh> RangeFromLen<S, N, STEP, Sh> for InBounds
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
impl<D: Dim, const I: usize, Sh> SelectFits<I, Sh> for D where At<I>: IndexOp<Cons<D, Nil>, Sh> {}

// --------------------------------------------------------------------------------- type level
/// Applies one op to the front of the remaining dims list `L`.
#[diagnostic::on_unimplemented(
    message = "too many indices for shape `{Sh}`",
    label = "more indices than dimensions",
    note = "each index, range or `..` consumes one dimension; `None` adds one"
)]
pub trait IndexOp<L, Sh> {
    /// Output dims (a list of length 0 or 1).
    type Out;
    /// The remaining input dims.
    type Rest;
}
impl<D: Dim, R, Sh> IndexOp<Cons<D, R>, Sh> for Full {
    type Out = Cons<D, Nil>;
    type Rest = R;
}
impl<const I: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh> for At<I>
where
    Const<I>: StaticDim,
    Const<N>: StaticDim,
    TnC<I>: IsLess<TnC<N>>,
    typenum::Le<TnC<I>, TnC<N>>: Verdict,
    Check<typenum::Le<TnC<I>, TnC<N>>>: IndexInBounds<I, N, Sh>,
{
    type Out = Nil;
    type Rest = R;
}
impl<const I: usize, R, Sh> IndexOp<Cons<Dyn, R>, Sh> for At<I> {
    type Out = Nil;
    type Rest = R;
}
impl<const K: usize, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh> for AtNeg<K>
where
    Const<K>: StaticDim,
    Const<N>: StaticDim,
    TnC<K>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<K>, TnC<N>>: Verdict,
    Check<typenum::LeEq<TnC<K>, TnC<N>>>: NegIndexInBounds<K, N, Sh>,
{
    type Out = Nil;
    type Rest = R;
}
impl<const K: usize, R, Sh> IndexOp<Cons<Dyn, R>, Sh> for AtNeg<K> {
    type Out = Nil;
    type Rest = R;
}
impl<D: Dim, R, Sh> IndexOp<Cons<D, R>, Sh> for AtDyn {
    type Out = Nil;
    type Rest = R;
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
    > IndexOp<Cons<Const<N>, R>, Sh> for Range<S, E, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
    Const<E>: StaticDim,
    Const<N>: StaticDim,
    TnC<E>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<E>, TnC<N>>: Verdict,
    Check<typenum::LeEq<TnC<E>, TnC<N>>>: RangeEndInBounds<E, N, Sh>,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
}
impl<const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool, R, Sh>
    IndexOp<Cons<Dyn, R>, Sh> for Range<S, E, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
}
impl<const S: usize, const STEP: usize, const REV: bool, const N: usize, R, Sh> IndexOp<Cons<Const<N>, R>, Sh>
    for RangeFrom<S, STEP, REV>
where
    Const<S>: StaticDim,
    Const<N>: StaticDim,
    TnC<S>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<S>, TnC<N>>: Verdict,
    Check<typenum::LeEq<TnC<S>, TnC<N>>>: RangeFromLen<S, N, STEP, Sh>,
    <Check<typenum::LeEq<TnC<S>, TnC<N>>> as RangeFromLen<S, N, STEP, Sh>>::Len: ToConst,
{
    type Out = Cons<<<Check<typenum::LeEq<TnC<S>, TnC<N>>> as RangeFromLen<S, N, STEP, Sh>>::Len as ToConst>::Out, Nil>;
    type Rest = R;
}
impl<const S: usize, const STEP: usize, const REV: bool, R, Sh> IndexOp<Cons<Dyn, R>, Sh> for RangeFrom<S, STEP, REV> {
    type Out = Cons<Dyn, Nil>;
    type Rest = R;
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
    > IndexOp<Cons<Const<N>, R>, Sh> for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
    Const<KS>: StaticDim,
    Const<N>: StaticDim,
    TnC<KS>: IsLessOrEqual<TnC<N>>,
    typenum::LeEq<TnC<KS>, TnC<N>>: Verdict,
    Check<typenum::LeEq<TnC<KS>, TnC<N>>>: NegStartInBounds<KS, N, Sh>,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
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
    > IndexOp<Cons<Dyn, R>, Sh> for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
where
    LenDim<LEN, ONE>: PickDim,
{
    type Out = Cons<<LenDim<LEN, ONE> as PickDim>::D, Nil>;
    type Rest = R;
}
impl<D: Dim, R, Sh> IndexOp<Cons<D, R>, Sh> for RangeDyn {
    type Out = Cons<Dyn, Nil>;
    type Rest = R;
}
impl<L, Sh> IndexOp<L, Sh> for NewAxis {
    type Out = Cons<One, Nil>;
    type Rest = L;
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
impl<Op: ConsumesDim, Sh> IndexOp<Nil, Sh> for Op
where
    Sh: TooManyIndices,
{
    type Out = Nil;
    type Rest = Nil;
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
        impl<$($g)* R, Sh> IndexOp<Cons<One, R>, Sh> for $op
        where
            $op: IndexOp<Cons<Const<1>, R>, Sh>,
        {
            type Out = <$op as IndexOp<Cons<Const<1>, R>, Sh>>::Out;
            type Rest = R;
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
pub trait ApplyOps<L, Sh> {
    /// Output dims.
    type Out;
    /// Remaining input dims.
    type Rest;
}
impl<L, Sh> ApplyOps<L, Sh> for Nil {
    type Out = Nil;
    type Rest = L;
}
impl<L, Sh, O, R> ApplyOps<L, Sh> for Cons<O, R>
where
    O: IndexOp<L, Sh>,
    R: ApplyOps<<O as IndexOp<L, Sh>>::Rest, Sh>,
    <O as IndexOp<L, Sh>>::Out: Concat<<R as ApplyOps<<O as IndexOp<L, Sh>>::Rest, Sh>>::Out>,
{
    type Out = <<O as IndexOp<L, Sh>>::Out as Concat<<R as ApplyOps<<O as IndexOp<L, Sh>>::Rest, Sh>>::Out>>::Out;
    type Rest = <R as ApplyOps<<O as IndexOp<L, Sh>>::Rest, Sh>>::Rest;
}

/// After the front ops: the reversed post-ellipsis ops applied to the back.
pub trait PostApply<Post, Sh> {
    /// The remaining dims followed by the post ops' output.
    type Out;
}
type PostOps<L, Post, Sh> = <Post as ApplyOps<<L as Reverse>::Out, Sh>>::Out;
type PostRest<L, Post, Sh> = <Post as ApplyOps<<L as Reverse>::Out, Sh>>::Rest;
impl<L, Post, Sh> PostApply<Post, Sh> for L
where
    L: Reverse,
    Post: ApplyOps<L::Out, Sh>,
    PostRest<L, Post, Sh>: Reverse,
    PostOps<L, Post, Sh>: Reverse,
    <PostRest<L, Post, Sh> as Reverse>::Out: Concat<<PostOps<L, Post, Sh> as Reverse>::Out>,
{
    type Out = <<PostRest<L, Post, Sh> as Reverse>::Out as Concat<<PostOps<L, Post, Sh> as Reverse>::Out>>::Out;
}

/// The result shape of indexing `Self` with `Spec<Pre, Post>`.
pub trait SliceShape<Pre, Post>: Shape {
    /// The view's shape.
    type Out: Shape;
}
type PreOut<S, Pre> = <Pre as ApplyOps<<S as StaticRank>::List, S>>::Out;
type PreRest<S, Pre> = <Pre as ApplyOps<<S as StaticRank>::List, S>>::Rest;
impl<S, Pre, Post> SliceShape<Pre, Post> for S
where
    S: StaticRank,
    Pre: ApplyOps<S::List, S>,
    PreRest<S, Pre>: PostApply<Post, S>,
    PreOut<S, Pre>: Concat<<PreRest<S, Pre> as PostApply<Post, S>>::Out>,
    Joined<S, Pre, Post>: Resolve<S>,
    <Joined<S, Pre, Post> as Resolve<S>>::Out: ListToTuple<S>,
{
    type Out = <<Joined<S, Pre, Post> as Resolve<S>>::Out as ListToTuple<S>>::Tuple;
}
/// The output dims of all ops, before advanced indices are resolved.
type Joined<S, Pre, Post> = <PreOut<S, Pre> as Concat<<PreRest<S, Pre> as PostApply<Post, S>>::Out>>::Out;
#[diagnostic::do_not_recommend]
impl<Pre, Post> SliceShape<Pre, Post> for DynShape {
    type Out = DynShape;
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
    stat: Option<usize>,
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
    stat: &'l [Option<usize>; MAX_RANK],
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
        DimIn { size: self.l.sizes()[i], stride: self.l.strides()[i], stat: self.stat[i], axis: i }
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
        if d.stat.is_some() {
            cx.off += I as isize * d.stride; // checked at compile time
        } else {
            cx.off += index_offset(I as isize, d.size, d.stride, d.axis)?;
        }
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

/// Applies a spec to a layout (shared by the static and dynamic front ends). `stat` holds the
/// static sizes of the shape type. Advanced (tensor) indices keep their dims in the returned
/// layout and are returned beside it, with their positions in it.
///
/// # Errors
/// Any index or range error, [`ShapeError::TooManyIndices`], [`ShapeError::RankTooLarge`].
#[inline(always)]
pub fn apply_spec_advanced<Pre: RtOps, Post: RtOps, A: AdvSink>(
    l: &Layout,
    stat: &[Option<usize>; MAX_RANK],
    spec: &Spec<Pre, Post>,
) -> Result<(Layout, Vec<AdvIndex>), ShapeError> {
    let given = spec.pre.count() + spec.post.count();
    let mut cx = SliceCx {
        l,
        stat,
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
pub fn apply_spec<Pre: RtOps, Post: RtOps>(
    l: &Layout,
    stat: &[Option<usize>; MAX_RANK],
    spec: &Spec<Pre, Post>,
) -> Result<Layout, ShapeError> {
    Ok(apply_spec_advanced::<Pre, Post, ()>(l, stat, spec)?.0)
}

/// What `t!(x[...])` gives for a tensor of shape `S`.
type SliceOut<'a, T, S, Pre, Post> = <SpecKind<Pre, Post> as ResultKind>::Out<'a, T, <S as SliceShape<Pre, Post>>::Out>;

/// The body of both [`TSlice`] impls: a view for basic indices, a copy for index tensors.
#[inline(always)]
fn slice_spec<'a, T: crate::Element, S, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced>(
    data: &'a [T],
    layout: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<SliceOut<'a, T, S, Pre, Post>, ShapeError>
where
    S: SliceShape<Pre, Post>,
    (Pre::Kind, Post::Kind): KindOr,
{
    let (l, adv) =
        apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(layout, &S::STATIC, spec)?;
    <SpecKind<Pre, Post> as ResultKind>::make(data, l, adv)
}

/// What `t!(x[...])` calls (through autoref, so `x` may be an owned tensor, a view or a
/// reference). Basic indices give a view that keeps the source's lifetime; index tensors give a
/// copy (a [`Tensor`](crate::Tensor)), as in PyTorch.
pub trait TSlice<Pre, Post> {
    /// The resulting view or tensor.
    type Output;
    /// Applies the spec, panicking on a runtime index error.
    fn t_slice(self, spec: Spec<Pre, Post>) -> Self::Output;
    /// Applies the spec (`t!(try x[...])`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    fn t_try_slice(self, spec: Spec<Pre, Post>) -> Result<Self::Output, ShapeError>;
}
type SpecKind<Pre, Post> = <(<Pre as AnyAdvanced>::Kind, <Post as AnyAdvanced>::Kind) as KindOr>::Out;
impl<'a, D: Data, S, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced> TSlice<Pre, Post> for &'a TensorBase<D, S>
where
    S: SliceShape<Pre, Post>,
    (Pre::Kind, Post::Kind): KindOr,
{
    type Output = <SpecKind<Pre, Post> as ResultKind>::Out<'a, D::Elem, <S as SliceShape<Pre, Post>>::Out>;
    #[inline(always)]
    #[track_caller]
    fn t_slice(self, spec: Spec<Pre, Post>) -> Self::Output {
        self.t_try_slice(spec).or_panic()
    }
    #[inline(always)]
    fn t_try_slice(self, spec: Spec<Pre, Post>) -> Result<Self::Output, ShapeError> {
        slice_spec::<D::Elem, S, Pre, Post>(self.data.as_slice(), &self.layout, &spec)
    }
}
impl<'a, T: crate::Element, S, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced> TSlice<Pre, Post>
    for TensorBase<&'a [T], S>
where
    S: SliceShape<Pre, Post>,
    (Pre::Kind, Post::Kind): KindOr,
{
    type Output = <SpecKind<Pre, Post> as ResultKind>::Out<'a, T, <S as SliceShape<Pre, Post>>::Out>;
    #[inline(always)]
    #[track_caller]
    fn t_slice(self, spec: Spec<Pre, Post>) -> Self::Output {
        self.t_try_slice(spec).or_panic()
    }
    #[inline(always)]
    fn t_try_slice(self, spec: Spec<Pre, Post>) -> Result<Self::Output, ShapeError> {
        slice_spec::<T, S, Pre, Post>(self.data, &self.layout, &spec)
    }
}

/// What `t!(x[...] = value)` calls: a mutable view of the indexed elements (basic indices), or
/// the pending write of PyTorch's `index_put_` (index tensors).
pub trait TSliceMut<Pre, Post>: Sized {
    /// The resulting mutable view or pending write.
    type Output;
    /// Applies the spec (`t!(try x[...] = v)`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    fn t_try_slice_mut(self, spec: Spec<Pre, Post>) -> Result<Self::Output, ShapeError>;
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    fn t_slice_mut(self, spec: Spec<Pre, Post>) -> Self::Output {
        self.t_try_slice_mut(spec).or_panic()
    }
}
impl<'a, D: DataMut, S, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced> TSliceMut<Pre, Post>
    for &'a mut TensorBase<D, S>
where
    S: SliceShape<Pre, Post>,
    (Pre::Kind, Post::Kind): KindOr,
{
    type Output = <SpecKind<Pre, Post> as ResultKind>::OutMut<'a, D::Elem, <S as SliceShape<Pre, Post>>::Out>;
    #[inline(always)]
    fn t_try_slice_mut(self, spec: Spec<Pre, Post>) -> Result<Self::Output, ShapeError> {
        let (l, adv) = apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(
            &self.layout,
            &S::STATIC,
            &spec,
        )?;
        Ok(<SpecKind<Pre, Post> as ResultKind>::make_mut(self.data.as_mut_slice(), l, adv))
    }
}

/// `t!(mut v[...])` on a mutable view takes it by value, so the result keeps its lifetime.
impl<'a, T: crate::Element, S, Pre: RtOps + AnyAdvanced, Post: RtOps + AnyAdvanced> TSliceMut<Pre, Post>
    for TensorViewMut<'a, T, S>
where
    S: SliceShape<Pre, Post>,
    (Pre::Kind, Post::Kind): KindOr,
{
    type Output = <SpecKind<Pre, Post> as ResultKind>::OutMut<'a, T, <S as SliceShape<Pre, Post>>::Out>;
    #[inline(always)]
    fn t_try_slice_mut(self, spec: Spec<Pre, Post>) -> Result<Self::Output, ShapeError> {
        let (l, adv) = apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(
            &self.layout,
            &S::STATIC,
            &spec,
        )?;
        Ok(<SpecKind<Pre, Post> as ResultKind>::make_mut(self.data, l, adv))
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
        let ls = value.layout.expand_for_assign(self.layout.sizes())?;
        check_divides::<Op, T>(value.data.as_slice(), &value.layout, self.numel())?;
        let l = self.layout;
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
                let l = self.layout;
                crate::kernels::map_inplace(&mut self.data[..], &l, |v| Op::apply(v, value));
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

/// `t!(try x[...] op= value)`: the indexed compound write as a `Result` (the value is evaluated
/// first).
///
/// # Errors
/// Runtime index errors of the spec, and the errors of [`TCompound::t_try_compound`].
#[inline(always)]
pub fn try_compound<X: TSliceMut<Pre, Post>, Pre, Post, Op, V>(
    target: X,
    spec: Spec<Pre, Post>,
    _op: Op,
    value: V,
) -> Result<(), ShapeError>
where
    X::Output: TCompound<Op, V>,
{
    target.t_try_slice_mut(spec)?.t_try_compound(value)
}

/// `t!(x[...] op= value)`: the indexed compound write, panicking on an error.
#[inline(always)]
#[track_caller]
pub fn compound<X: TSliceMut<Pre, Post>, Pre, Post, Op, V>(target: X, spec: Spec<Pre, Post>, _op: Op, value: V)
where
    X::Output: TCompound<Op, V>,
{
    target.t_slice_mut(spec).t_compound(value)
}

/// `t!(try x[...] = value)`: the indexed write as a `Result` (the value is evaluated first).
///
/// # Errors
/// Runtime index errors of the spec, and the errors of [`TAssign::t_try_assign`].
#[inline(always)]
pub fn try_assign<X: TSliceMut<Pre, Post>, Pre, Post, V>(
    target: X,
    spec: Spec<Pre, Post>,
    value: V,
) -> Result<(), ShapeError>
where
    X::Output: TAssign<V>,
{
    target.t_try_slice_mut(spec)?.t_try_assign(value)
}

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
        let ls = src.layout.expand_for_assign(self.layout.sizes())?;
        crate::kernels::zip_assign(self.data.as_mut_slice(), &self.layout, src.data.as_slice(), &ls, |d, s| *d = s);
        Ok(())
    }
    /// [`try_assign`](Self::try_assign), panicking with the error's message.
    #[track_caller]
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
    pub fn copy_from<D2: Data<Elem = D::Elem>, S2: AssignShape<S>>(&mut self, src: &TensorBase<D2, S2>) {
        self.assign(src)
    }
}
