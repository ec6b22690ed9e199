//! Advanced indexing with index tensors in `t!` (PyTorch's tensor indices): integer tensors pick
//! coordinates along one dim, bool masks select the true elements of as many dims as they have.
//! An index tensor is passed by reference, `t!(x[&rows, &cols])`. The result is a copy (a [`Tensor`]), as in PyTorch; `t!(x[rows, cols] = v)` writes through
//! the same coordinates (PyTorch's `index_put_`).
//!
//! Types: each index tensor of shape `SI` leaves a marker `AdvMark<SI>` in the list of output
//! dims; [`Resolve`] then applies PyTorch's placement rule: the index shapes broadcast to `B`;
//! if the indexed dims are adjacent, `B` takes their place, otherwise `B` comes first. A mask's
//! dim is `Dyn` (its number of true elements is known only at run time).
use super::{AdvList, AdvSink, AtDyn, Cons, IndexOp, Nil, RtOp, SliceCx, ToIndex};
use crate::dim::{Const, Dim, Dyn, One};
use crate::error::ShapeError;
use crate::kernels;
use crate::layout::{advanced_offsets, Layout};
use crate::shape::{BroadcastShape, Concat, Shape, StaticRank};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase, TensorView, TensorViewMut};
use alloc::vec;
use alloc::vec::Vec;
use core::marker::PhantomData;
use typenum::{B0, B1};

pub use crate::layout::AdvIndex;

/// An index tensor in `t!` (borrowed): integers pick coordinates along one dim; bools (a mask)
/// select the true elements of as many dims as the mask has.
pub struct TensorIdx<'a, D: Data, SI: Shape>(pub &'a TensorBase<D, SI>);

/// What a `&expr` item of `t!` becomes: a tensor gives [`TensorIdx`] (an integer, [`AtDyn`]).
pub trait IndexItem {
    /// The index op.
    type Op<'a>
    where
        Self: 'a;
    /// The op for this item.
    fn index_op(&self) -> Self::Op<'_>;
}
macro_rules! int_item {
    ($($t:ty),*) => {$(
        impl IndexItem for $t {
            type Op<'a> = AtDyn;
            #[inline(always)]
            fn index_op(&self) -> AtDyn {
                AtDyn(self.to_i128())
            }
        }
    )*};
}
int_item!(isize, usize, i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

impl<T: IndexItem + ?Sized> IndexItem for &T {
    type Op<'a>
        = T::Op<'a>
    where
        Self: 'a;
    #[inline(always)]
    fn index_op(&self) -> Self::Op<'_> {
        (**self).index_op()
    }
}

/// Element types of index tensors in `t!`: integers (coordinates) and bool (masks).
pub trait ItemElem: Element {
    /// [`IntIndex`] or [`MaskIndex`].
    type Kind;
    /// Whether it is a bool mask (consuming as many dims as it has).
    const MASK: bool;
    /// Applies an index tensor of this element type.
    ///
    /// # Errors
    /// Mask shape errors; too many indices.
    fn apply<const FRONT: bool, A: AdvSink, D: Data<Elem = Self>, SI: Shape>(
        t: &TensorBase<D, SI>,
        cx: &mut SliceCx<A>,
    ) -> Result<(), ShapeError>;
    /// The number of dims an index tensor of this element type consumes.
    fn consumes<D: Data<Elem = Self>, SI: Shape>(t: &TensorBase<D, SI>) -> usize;
}
/// The kind of integer index tensors.
pub struct IntIndex;
/// The kind of bool masks.
pub struct MaskIndex;
macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl ItemElem for $t {
            type Kind = IntIndex;
            const MASK: bool = false;
            fn apply<const FRONT: bool, A: AdvSink, D: Data<Elem = Self>, SI: Shape>(t: &TensorBase<D, SI>, cx: &mut SliceCx<A>)
                -> Result<(), ShapeError> {
                let first = cx.take::<FRONT>(1)?;
                let index = kernels::map(t.storage(), t.layout(), |v: $t| v.to_index(), kernels::PAR_THRESHOLD)?;
                // `isize::MAX` is out of bounds for every dim; it also stands for values that do not
                // fit `isize`, so the error names the value as given.
                if let Some(p) = index.iter().position(|&i| i == isize::MAX) {
                    let given = kernels::to_vec(t.storage(), t.layout())?[p].to_i128();
                    return Err(ShapeError::Index { index: given, axis: first, size: cx.l.sizes()[first] });
                }
                let index = vec![index];
                cx.push_advanced::<FRONT>(first, AdvIndex { pos: 0, axis: first, sizes: t.sizes().into(), index })
            }
            fn consumes<D: Data<Elem = Self>, SI: Shape>(_: &TensorBase<D, SI>) -> usize {
                1
            }
        }
    )*};
}
int_elem!(isize, usize, i8, i16, i32, i64, u8, u16, u32, u64);
impl ItemElem for bool {
    type Kind = MaskIndex;
    const MASK: bool = true;
    fn apply<const FRONT: bool, A: AdvSink, D: Data<Elem = Self>, SI: Shape>(
        t: &TensorBase<D, SI>,
        cx: &mut SliceCx<A>,
    ) -> Result<(), ShapeError> {
        let k = t.rank();
        let first = cx.take::<FRONT>(k)?;
        let dims = &cx.l.sizes()[first..first + k];
        if dims != t.sizes() {
            return Err(ShapeError::Mismatch {
                op: "mask index",
                what: "differ: the mask's shape must equal the dims it indexes".into(),
                lhs: t.sizes().into(),
                rhs: dims.into(),
            });
        }
        let (count, index) = kernels::mask_coords(t.storage(), t.layout())?;
        cx.push_advanced::<FRONT>(first, AdvIndex { pos: 0, axis: first, sizes: vec![count], index })
    }
    fn consumes<D: Data<Elem = Self>, SI: Shape>(t: &TensorBase<D, SI>) -> usize {
        t.rank()
    }
}
impl<D: Data, SI: Shape> IndexItem for TensorBase<D, SI>
where
    D::Elem: ItemElem,
{
    type Op<'a>
        = TensorIdx<'a, D, SI>
    where
        Self: 'a;
    fn index_op(&self) -> TensorIdx<'_, D, SI> {
        TensorIdx(self)
    }
}

// ------------------------------------------------------------------------------- type level
/// The output-dims marker of an index tensor of shape `SI` (resolved by [`Resolve`]).
pub struct AdvMark<SI>(PhantomData<SI>);

impl<'a, D: Data, SI: Shape, L, Sh, M> IndexOp<L, Sh, M> for TensorIdx<'a, D, SI>
where
    D::Elem: ItemElem,
    <D::Elem as ItemElem>::Kind: TensorIndexRule<L, SI, Sh>,
{
    type Out = <<D::Elem as ItemElem>::Kind as TensorIndexRule<L, SI, Sh>>::Out;
    type Rest = <<D::Elem as ItemElem>::Kind as TensorIndexRule<L, SI, Sh>>::Rest;
    type Checks = Nil;
}
/// An index tensor has no literal to check; it consumes one dim (integers) or its rank (masks).
impl<D: Data, SI: Shape> super::DescOp for TensorIdx<'_, D, SI>
where
    D::Elem: ItemElem,
{
    const DESC: super::OpDesc = super::OpDesc::new(
        0,
        0,
        if <D::Elem as ItemElem>::MASK {
            match SI::RANK {
                Some(r) => r,
                None => 1,
            }
        } else {
            1
        },
    );
}
/// How an index tensor of shape `SI` consumes the dims list `L`: an integer tensor takes one dim
/// and leaves `AdvMark<SI>`; a mask takes as many dims as it has and leaves `AdvMark<(Dyn,)>`.
#[diagnostic::on_unimplemented(message = "too many indices for shape `{Sh}`", label = "more indices than dimensions")]
pub trait TensorIndexRule<L, SI, Sh> {
    /// Output dims (the marker).
    type Out;
    /// Remaining input dims.
    type Rest;
}
impl<X: Dim, R, SI, Sh> TensorIndexRule<Cons<X, R>, SI, Sh> for IntIndex {
    type Out = Cons<AdvMark<SI>, Nil>;
    type Rest = R;
}
impl<L, SI: StaticRank, Sh> TensorIndexRule<L, SI, Sh> for MaskIndex
where
    L: DropDims<SI::List, Sh>,
{
    type Out = Cons<AdvMark<(Dyn,)>, Nil>;
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

/// Resolves the advanced-index markers of an output-dims list (PyTorch's placement rule).
#[diagnostic::on_unimplemented(
    message = "the index tensors used on `{S}` do not broadcast together",
    label = "index tensors must broadcast with each other (and have a static rank)"
)]
pub trait Resolve<S> {
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
impl<SI, T, Acc: JoinAdv<SI>> BcastAdv<Acc> for Cons<AdvMark<SI>, T>
where
    T: BcastAdv<Acc::Out>,
{
    type Out = <T as BcastAdv<Acc::Out>>::Out;
}
/// A basic dim passes (one impl per dim type, so a marker never matches two impls).
macro_rules! bcast_adv_dim {
    ($([$($g:tt)*] $d:ty;)*) => {$(
        impl<$($g)* T: BcastAdv<Acc>, Acc> BcastAdv<Acc> for Cons<$d, T> {
            type Out = T::Out;
        }
    )*};
}
bcast_adv_dim! {
    [const N: usize,] Const<N>;
    [] One;
    [] Dyn;
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

/// Whether an op is an index tensor (`B1`) or a basic index (`B0`).
pub trait OpKind {
    /// `B0` or `B1`.
    type Kind;
}
macro_rules! basic_kind {
    ($($(#[$g:meta])* [$($p:tt)*] $t:ty;)*) => {$( impl<$($p)*> OpKind for $t { type Kind = B0; } )*};
}
basic_kind! {
    [] super::Full;
    [const I: usize] super::At<I>;
    [const K: usize] super::AtNeg<K>;
    [] AtDyn;
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool] super::Range<S, E, STEP, LEN, REV, ONE>;
    [const S: usize, const STEP: usize, const REV: bool] super::RangeFrom<S, STEP, REV>;
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool] super::RangeNeg<KS, KE, STEP, LEN, REV, ONE>;
    [] super::RangeDyn;
    [] super::NewAxis;
}
impl<D: Data, SI: Shape> OpKind for TensorIdx<'_, D, SI> {
    type Kind = B1;
}
/// Whether a list of ops holds an index tensor.
pub trait AnyAdvanced {
    /// `B0` or `B1`.
    type Kind;
}
impl AnyAdvanced for Nil {
    type Kind = B0;
}
impl<O: OpKind, R: AnyAdvanced> AnyAdvanced for Cons<O, R>
where
    (O::Kind, R::Kind): KindOr,
{
    type Kind = <(O::Kind, R::Kind) as KindOr>::Out;
}
/// `B0 | B0 = B0`, otherwise `B1`.
pub trait KindOr {
    /// The disjunction.
    type Out: ResultKind;
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

/// What `t!` gives for basic indices (`B0`: a view) and for index tensors (`B1`: a copy).
pub trait ResultKind {
    /// Where the spec's advanced indices are collected (`()` for basic specs).
    type Sink: AdvSink;
    /// The result of `t!(x[...])`.
    type Out<'a, T: Element + 'a, S: Shape>;
    /// The target of `t!(x[...] = v)`.
    type OutMut<'a, T: Element + 'a, S: Shape>;
    /// Builds the result from the view layout and the index tensors.
    ///
    /// # Errors
    /// Index errors of the index tensors.
    fn make<'a, T: Element, S: Shape>(
        data: &'a [T],
        l: Layout,
        adv: Vec<AdvIndex>,
    ) -> Result<Self::Out<'a, T, S>, ShapeError>;
    /// Builds the assignment target.
    fn make_mut<'a, T: Element, S: Shape>(data: &'a mut [T], l: Layout, adv: Vec<AdvIndex>) -> Self::OutMut<'a, T, S>;
}
impl ResultKind for B0 {
    type Sink = ();
    type Out<'a, T: Element + 'a, S: Shape> = TensorView<'a, T, S>;
    type OutMut<'a, T: Element + 'a, S: Shape> = TensorViewMut<'a, T, S>;
    #[inline(always)]
    fn make<'a, T: Element, S: Shape>(
        data: &'a [T],
        l: Layout,
        _: Vec<AdvIndex>,
    ) -> Result<TensorView<'a, T, S>, ShapeError> {
        Ok(TensorBase::from_parts(data, l))
    }
    #[inline(always)]
    fn make_mut<'a, T: Element, S: Shape>(data: &'a mut [T], l: Layout, _: Vec<AdvIndex>) -> TensorViewMut<'a, T, S> {
        TensorBase::from_parts(data, l)
    }
}
impl ResultKind for B1 {
    type Sink = AdvList;
    type Out<'a, T: Element + 'a, S: Shape> = Tensor<T, S>;
    type OutMut<'a, T: Element + 'a, S: Shape> = IndexPut<'a, T, S>;
    fn make<T: Element, S: Shape>(data: &[T], l: Layout, adv: Vec<AdvIndex>) -> Result<Tensor<T, S>, ShapeError> {
        let (sizes, offsets) = advanced_offsets(&l, &adv)?;
        let out = kernels::gather_offsets(data, &offsets)?;
        TensorBase::try_from_parts(out, Layout::contiguous(&sizes)?)
    }
    fn make_mut<'a, T: Element, S: Shape>(data: &'a mut [T], l: Layout, adv: Vec<AdvIndex>) -> IndexPut<'a, T, S> {
        IndexPut { data, view: l, adv, _shape: PhantomData }
    }
}

/// The pending write of `t!(x[rows, cols] = value)` (PyTorch `index_put_`): the indexed
/// elements, of shape `S`, receive a scalar or a tensor broadcast to `S`. Where an index repeats,
/// the last write wins.
pub struct IndexPut<'a, T, S> {
    data: &'a mut [T],
    view: Layout,
    adv: Vec<AdvIndex>,
    _shape: PhantomData<S>,
}
impl<T: Element, S: Shape> IndexPut<'_, T, S> {
    /// Writes `value` to every indexed element.
    ///
    /// # Errors
    /// Index errors of the index tensors.
    pub fn put_value(self, value: T) -> Result<(), ShapeError> {
        let (_, offsets) = advanced_offsets(&self.view, &self.adv)?;
        for o in offsets {
            self.data[o] = value;
        }
        Ok(())
    }
    /// Writes `src`, broadcast to the indexed shape (leading size-1 dims dropped, as PyTorch).
    ///
    /// # Errors
    /// Index errors; [`ShapeError::Expand`] when `src` does not broadcast to the indexed shape.
    pub fn put<D2: Data<Elem = T>, S2: Shape>(self, src: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        let (sizes, offsets) = advanced_offsets(&self.view, &self.adv)?;
        let ls = src.layout().expand_for_assign(&sizes)?;
        let values = kernels::to_vec(src.storage(), &ls)?;
        for (o, v) in offsets.into_iter().zip(values) {
            self.data[o] = v;
        }
        Ok(())
    }
    /// `x[idx] op= src` as PyTorch runs it: the indexed elements are read first, combined with
    /// `src` (broadcast to the indexed shape; a one-element `src` for a scalar) by `f`, and written
    /// back, so a repeated index is updated once, from its old value (the last write wins).
    ///
    /// # Errors
    /// As [`put`](Self::put); [`ShapeError::DivisionByZero`] from `check`. Nothing is written on
    /// an error.
    pub(crate) fn combine<D2: Data<Elem = T>, S2: Shape>(
        self,
        src: &TensorBase<D2, S2>,
        check: impl FnOnce(&[T], &Layout, usize) -> Result<(), ShapeError>,
        f: impl Fn(T, T) -> T,
    ) -> Result<(), ShapeError> {
        let (sizes, offsets) = advanced_offsets(&self.view, &self.adv)?;
        let ls = src.layout().expand_for_assign(&sizes)?;
        check(src.storage(), src.layout(), offsets.len())?;
        let values = kernels::to_vec(src.storage(), &ls)?;
        let old = kernels::gather_offsets(self.data, &offsets)?;
        for ((o, a), b) in offsets.into_iter().zip(old).zip(values) {
            self.data[o] = f(a, b);
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------- runtime
impl<D: Data, SI: Shape> RtOp for TensorIdx<'_, D, SI>
where
    D::Elem: ItemElem,
{
    fn consumes(&self) -> usize {
        <D::Elem as ItemElem>::consumes(self.0)
    }
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        <D::Elem as ItemElem>::apply::<FRONT, A, D, SI>(self.0, cx)
    }
}
