//! The type-level rules of index tensors in `t!`: the marker an index tensor leaves in the output
//! dims ([`AdvMark`]), how integer tensors and masks consume dims ([`TensorIndexRule`]), and
//! PyTorch's placement of the broadcast index dims ([`Resolve`]).
use crate::dim::{Dim, Dyn};
use crate::shape::{BroadcastShape, Concat, Cons, Nil, Shape, StaticRank};
use core::marker::PhantomData;
use typenum::{B0, B1};

/// The kind of integer index tensors.
pub struct IntIndex;
/// The kind of bool masks.
pub struct MaskIndex;
/// The output-dims marker of an index tensor of shape `SI` (resolved by [`Resolve`]).
pub struct AdvMark<SI>(PhantomData<SI>);

/// How an index tensor of shape `SI` consumes the dims list `L`: an integer tensor takes one dim
/// and leaves `AdvMark<SI>`; a mask takes as many dims as it has and leaves `AdvMark<(Dyn,)>`.
#[diagnostic::on_unimplemented(message = "too many indices for shape `{Sh}`", label = "more indices than dimensions")]
pub trait TensorIndexRule<L, SI, Sh> {
    /// The output dim (the marker).
    type Mark;
    /// Remaining input dims.
    type Rest;
}
impl<X: Dim, R, SI, Sh> TensorIndexRule<Cons<X, R>, SI, Sh> for IntIndex {
    type Mark = AdvMark<SI>;
    type Rest = R;
}
impl<L, SI: StaticRank, Sh> TensorIndexRule<L, SI, Sh> for MaskIndex
where
    L: DropDims<SI::List, Sh>,
{
    type Mark = AdvMark<(Dyn,)>;
    type Rest = <L as DropDims<SI::List, Sh>>::Rest;
}

/// Drops one dim of `Self` per entry of `M` (a mask consumes as many dims as it has).
#[diagnostic::on_unimplemented(
    message = "too many indices for shape `{Sh}`: the mask has more dims than are left",
    label = "a bool mask consumes as many dims as it has"
)]
pub trait DropDims<M, Sh> {
    /// The remaining dims.
    type Rest;
}
/// One impl per mask rank (no recursion), so that a mask with more dims than are left matches no
/// impl and the error is this trait's message alone.
macro_rules! drop_dims {
    ($($m:ident $h:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($m, $h,)* T, Sh> DropDims<drop_dims!(@list $($m),*), Sh> for drop_dims!(@tail T; $($h),*) {
            type Rest = T;
        }
    };
    (@list) => { Nil };
    (@list $m:ident $(, $ms:ident)*) => { Cons<$m, drop_dims!(@list $($ms),*)> };
    (@tail $t:ident;) => { $t };
    (@tail $t:ident; $h:ident $(, $hs:ident)*) => { Cons<$h, drop_dims!(@tail $t; $($hs),*)> };
}
drop_dims!(M0 H0);
drop_dims!(M0 H0, M1 H1);
drop_dims!(M0 H0, M1 H1, M2 H2);
drop_dims!(M0 H0, M1 H1, M2 H2, M3 H3);
drop_dims!(M0 H0, M1 H1, M2 H2, M3 H3, M4 H4);
drop_dims!(M0 H0, M1 H1, M2 H2, M3 H3, M4 H4, M5 H5);

/// Resolves the advanced-index markers of an output-dims list (PyTorch's placement rule) for a
/// spec of kind `K` (`B1`, with index tensors); for a basic spec (`B0`) the list as it is, with
/// no walk.
#[diagnostic::on_unimplemented(
    message = "the index tensors used on `{S}` do not broadcast together",
    label = "index tensors must broadcast with each other (and have a static rank)"
)]
pub trait Resolve<S, K = B1> {
    /// The final list of dims.
    type Out;
}
impl<S, L> Resolve<S> for L
where
    L: BcastAdv<NoAdv>,
    <L as BcastAdv<NoAdv>>::Out: Place<L>,
{
    type Out = <<L as BcastAdv<NoAdv>>::Out as Place<L>>::Out;
}
impl<S, L> Resolve<S, B0> for L {
    type Out = L;
}

/// No index tensor seen (yet).
pub struct NoAdv;

/// Folds the broadcast of every index shape in the list into `Acc`.
pub trait BcastAdv<Acc> {
    /// `NoAdv`, or the broadcast index shape `B`.
    type Out;
}
impl<Acc> BcastAdv<Acc> for Nil {
    type Out = Acc;
}
/// One impl for a list cell, dispatched on whether its head is an index marker ([`AdvFlag`]): a
/// marker and a plain dim (any dim type, names too) never match two impls of one trait, so a
/// mismatch is reported from inside (the index shapes' broadcast).
impl<H: AdvFlag, T, Acc> BcastAdv<Acc> for Cons<H, T>
where
    (H::Flag, H): BcastCell<T, Acc>,
{
    type Out = <(H::Flag, H) as BcastCell<T, Acc>>::Out;
}
/// `B1` for an index marker, `B0` for a plain dim.
pub trait AdvFlag {
    /// `B1` or `B0`.
    type Flag;
}
impl<SI> AdvFlag for AdvMark<SI> {
    type Flag = B1;
}
impl<D: Dim> AdvFlag for D {
    type Flag = B0;
}
/// A list cell of [`BcastAdv`]: `(flag, head)` with the tail `T`.
pub trait BcastCell<T, Acc> {
    /// As [`BcastAdv::Out`].
    type Out;
}
/// An index marker adds its shape to the broadcast.
impl<SI, T, Acc: JoinAdv<SI>> BcastCell<T, Acc> for (B1, AdvMark<SI>)
where
    T: BcastAdv<Acc::Out>,
{
    type Out = <T as BcastAdv<Acc::Out>>::Out;
}
/// A plain dim passes.
impl<D, T: BcastAdv<Acc>, Acc> BcastCell<T, Acc> for (B0, D) {
    type Out = T::Out;
}
/// Adds one index shape to the broadcast so far.
#[diagnostic::on_unimplemented(
    message = "index tensors of shapes `{Self}` and `{SI}` do not broadcast together",
    label = "the index tensors of one `t!` must broadcast with each other"
)]
pub trait JoinAdv<SI> {
    /// The broadcast shape.
    type Out;
}
impl<SI> JoinAdv<SI> for NoAdv {
    type Out = SI;
}
#[diagnostic::do_not_recommend]
impl<S: Shape + BroadcastShape<SI>, SI: Shape> JoinAdv<SI> for S {
    type Out = <S as BroadcastShape<SI>>::Output;
}

/// Places the broadcast index shape `Self` into the list `L`.
pub trait Place<L> {
    /// The final list.
    type Out;
}
impl<L> Place<L> for NoAdv {
    type Out = L;
}
impl<B: StaticRank, L: SplitFirst> Place<L> for B
where
    <L as SplitFirst>::Rest: InRun,
    <<L as SplitFirst>::Rest as InRun>::Out: Arrange<B, L>,
{
    type Out = <<<L as SplitFirst>::Rest as InRun>::Out as Arrange<B, L>>::Out;
}
/// `B1`: the index tensors are adjacent (their broadcast shape takes their place); `B0`: they
/// are not (it comes first).
pub trait Arrange<B, L> {
    /// The final list.
    type Out;
}
impl<B: StaticRank, L: SplitFirst> Arrange<B, L> for B1
where
    <L as SplitFirst>::Rest: Basic,
    B::List: Concat<<<L as SplitFirst>::Rest as Basic>::Out>,
    <L as SplitFirst>::Prefix: Concat<<B::List as Concat<<<L as SplitFirst>::Rest as Basic>::Out>>::Out>,
{
    type Out =
        <<L as SplitFirst>::Prefix as Concat<<B::List as Concat<<<L as SplitFirst>::Rest as Basic>::Out>>::Out>>::Out;
}
impl<B: StaticRank, L: Basic> Arrange<B, L> for B0
where
    B::List: Concat<<L as Basic>::Out>,
{
    type Out = <B::List as Concat<<L as Basic>::Out>>::Out;
}

/// The dims of a list without its index markers.
pub trait Basic {
    /// The plain dims.
    type Out;
}
impl Basic for Nil {
    type Out = Nil;
}
impl<SI, T: Basic> Basic for Cons<AdvMark<SI>, T> {
    type Out = T::Out;
}
impl<D: Dim, T: Basic> Basic for Cons<D, T> {
    type Out = Cons<D, T::Out>;
}
/// Splits a list before its first index marker.
pub trait SplitFirst {
    /// The dims before the first marker.
    type Prefix;
    /// The rest, starting at the first marker.
    type Rest;
}
impl SplitFirst for Nil {
    type Prefix = Nil;
    type Rest = Nil;
}
impl<SI, T> SplitFirst for Cons<AdvMark<SI>, T> {
    type Prefix = Nil;
    type Rest = Cons<AdvMark<SI>, T>;
}
impl<D: Dim, T: SplitFirst> SplitFirst for Cons<D, T> {
    type Prefix = Cons<D, T::Prefix>;
    type Rest = T::Rest;
}
/// Inside the first run of markers: `B1` when no marker follows a plain dim.
pub trait InRun {
    /// `B1` (adjacent) or `B0`.
    type Out;
}
impl InRun for Nil {
    type Out = B1;
}
impl<SI, T: InRun> InRun for Cons<AdvMark<SI>, T> {
    type Out = T::Out;
}
impl<D: Dim, T: AfterRun> InRun for Cons<D, T> {
    type Out = T::Out;
}
/// After the first run of markers: `B0` when another marker appears.
pub trait AfterRun {
    /// `B1` (adjacent) or `B0`.
    type Out;
}
impl AfterRun for Nil {
    type Out = B1;
}
impl<SI, T> AfterRun for Cons<AdvMark<SI>, T> {
    type Out = B0;
}
impl<D: Dim, T: AfterRun> AfterRun for Cons<D, T> {
    type Out = T::Out;
}

/// `B0 | B0 = B0`, otherwise `B1` (the kinds' [`ResultKind`](super::ResultKind) picks what `t!`
/// gives).
pub trait KindOr {
    /// The disjunction.
    type Out;
}
impl KindOr for (B0, B0) {
    type Out = B0;
}
impl KindOr for (B0, B1) {
    type Out = B1;
}
impl KindOr for (B1, B0) {
    type Out = B1;
}
impl KindOr for (B1, B1) {
    type Out = B1;
}
