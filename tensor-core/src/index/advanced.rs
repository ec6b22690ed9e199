//! Advanced indexing with index tensors in `t!` (PyTorch's tensor indices): integer tensors pick
//! coordinates along one dim, bool masks select the true elements of as many dims as they have.
//! An index tensor is passed by reference, `t!(x[&rows, &cols])`. The result is a copy (a [`Tensor`]), as in PyTorch; `t!(x[rows, cols] = v)` writes through
//! the same coordinates (PyTorch's `index_put_`).
//!
//! Types: each index tensor of shape `SI` leaves a marker `AdvMark<SI>` in the list of output
//! dims; [`Resolve`] then applies PyTorch's placement rule: the index shapes broadcast to `B`;
//! if the indexed dims are adjacent, `B` takes their place, otherwise `B` comes first. A mask's
//! dim is `Dyn` (its number of true elements is known only at run time).
use super::{
    AdvList, AdvSink, AtDyn, IntIndex, KindOr, MaskIndex, RtOp, RtOps, SliceCx, SliceDims, TensorIndexRule, ToIndex,
};
use crate::error::ShapeError;
use crate::kernels;
use crate::layout::{advanced_plan, Layout};
use crate::shape::Cons;
use crate::shape::Shape;
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

/// What an expression item of `t!` without a leading `&` becomes (`t!(x[i])`, `t!(x[n - 1])`): an
/// integer gives [`AtDyn`], a reference to an index tensor held in a variable (`let i = &idx;
/// t!(x[i])`) gives [`TensorIdx`], as `&idx` written in place does. An unsuffixed integer's type
/// is still inferred (the tensor impl never matches an integer), and the op is known before it
/// is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an index of `t!`",
    label = "an integer, or a reference to an index tensor",
    note = "`t!` items are integers, ranges (`a..b;step`), `..`, `None`, `...` and index tensors by reference (`&rows`)"
)]
pub trait ExprItem {
    /// The index op.
    type Op;
    /// The op for this item.
    fn expr_op(self) -> Self::Op;
}
impl<E: ToIndex> ExprItem for E {
    type Op = AtDyn;
    #[inline(always)]
    fn expr_op(self) -> AtDyn {
        AtDyn(self.to_i128())
    }
}
impl<'a, D: Data, SI: Shape> ExprItem for &'a TensorBase<D, SI>
where
    D::Elem: ItemElem,
{
    type Op = TensorIdx<'a, D, SI>;
    #[inline(always)]
    fn expr_op(self) -> TensorIdx<'a, D, SI> {
        TensorIdx(self)
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
            return Err(ShapeError::mismatch(
                "mask index",
                "differ: the mask's shape must equal the dims it indexes",
                t.sizes(),
                dims,
            ));
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

/// An index tensor leaves its marker and consumes one dim (integers) or its rank (masks).
impl<'a, D: Data, SI: Shape, L, Ops, Sh, M, P> SliceDims<L, Sh, M, P> for Cons<TensorIdx<'a, D, SI>, Ops>
where
    D::Elem: ItemElem,
    <D::Elem as ItemElem>::Kind: TensorIndexRule<L, SI, Sh>,
    Ops: SliceDims<TensorRest<D, L, SI, Sh>, Sh, M, P>,
{
    type Out = Cons<
        <<D::Elem as ItemElem>::Kind as TensorIndexRule<L, SI, Sh>>::Mark,
        <Ops as SliceDims<TensorRest<D, L, SI, Sh>, Sh, M, P>>::Out,
    >;
    type Checks = <Ops as SliceDims<TensorRest<D, L, SI, Sh>, Sh, M, P>>::Checks;
}
/// The dims an index tensor of elements `D::Elem` and shape `SI` leaves of `L`.
type TensorRest<D, L, SI, Sh> = <<<D as Data>::Elem as ItemElem>::Kind as TensorIndexRule<L, SI, Sh>>::Rest;
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

/// The kind of a spec with the op lists `(Pre, Post)`: `B1` when either holds an index tensor,
/// with what `t!` gives for it ([`ResultKind`]).
pub trait SpecKindOf {
    /// `B0` or `B1`.
    type Kind: ResultKind;
}
impl<Pre: RtOps, Post: RtOps> SpecKindOf for (Pre, Post)
where
    (Pre::Kind, Post::Kind): KindOr,
    <(Pre::Kind, Post::Kind) as KindOr>::Out: ResultKind,
{
    type Kind = <(Pre::Kind, Post::Kind) as KindOr>::Out;
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
        let (layout, plan) = advanced_plan(&l, &adv)?;
        let out = kernels::gather_runs(data, &plan)?;
        TensorBase::try_from_parts(out, layout)
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
        let (_, plan) = advanced_plan(&self.view, &self.adv)?;
        kernels::scatter_runs(self.data, &plan, core::iter::repeat(value), |slot, v| *slot = v);
        Ok(())
    }
    /// Writes `src`, broadcast to the indexed shape (leading size-1 dims dropped, as PyTorch).
    ///
    /// # Errors
    /// Index errors; [`ShapeError::Expand`] when `src` does not broadcast to the indexed shape.
    pub fn put<D2: Data<Elem = T>, S2: Shape>(self, src: &TensorBase<D2, S2>) -> Result<(), ShapeError> {
        let (layout, plan) = advanced_plan(&self.view, &self.adv)?;
        let ls = src.layout().expand_for_assign(layout.sizes())?;
        let values = kernels::to_vec(src.storage(), &ls)?;
        kernels::scatter_runs(self.data, &plan, values, |slot, v| *slot = v);
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
        let (layout, plan) = advanced_plan(&self.view, &self.adv)?;
        let ls = src.layout().expand_for_assign(layout.sizes())?;
        check(src.storage(), src.layout(), plan.numel())?;
        let values = kernels::to_vec(src.storage(), &ls)?;
        // All old values are read before the first write: a repeated index is updated once,
        // from its old value.
        let old = kernels::gather_runs(self.data, &plan)?;
        let new = old.into_iter().zip(values).map(|(a, b)| f(a, b));
        kernels::scatter_runs(self.data, &plan, new, |slot, v| *slot = v);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------- runtime
impl<D: Data, SI: Shape> RtOp for TensorIdx<'_, D, SI>
where
    D::Elem: ItemElem,
{
    type Kind = B1;
    fn consumes(&self) -> usize {
        <D::Elem as ItemElem>::consumes(self.0)
    }
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        <D::Elem as ItemElem>::apply::<FRONT, A, D, SI>(self.0, cx)
    }
}
