//! Broadcasting as PyTorch and NumPy do it, at the type level and at run time: align the shapes
//! from the right; two dims are compatible when they are equal or one of them is 1; missing
//! leading dims count as 1. No legacy rule (same element count is not enough).
//!
//! Stable Rust has no specialisation, so `(N, N)`, `(1, N)` and `(N, 1)` impls would overlap at
//! `(1, 1)`. Each dim is therefore first classified into a kind (`KOne`: [`One`], `KStatic`: a
//! static size, `KDyn`: runtime) and the rule dispatches on the pair of kinds, which are distinct
//! types. Equality of two non-1 sizes is type equality (`impl<A> BroadcastSel<A, A> for (KStatic, KStatic)`).
use super::{DynShape, Shape, StaticRank, MAX_RANK};
use crate::dim::*;
use crate::error::ShapeError;

/// Dim-level broadcast of `Self` with `Rhs`. `LS`/`RS` are the full shapes, threaded through
/// only so that the error names them.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{LS}` with `{RS}`: dimension `{Self}` vs `{Rhs}`",
    label = "sizes differ and neither is 1",
    note = "the size 1 that stretches is the dim `One` (`Shape![1, ..]`, `unsqueeze`, keepdim, `Tensor::from`); a `Const<1>` is an ordinary size: relabel it with `cast_shape`"
)]
pub trait BroadcastDim<Rhs: Dim, LS = (), RS = ()>: Dim {
    /// The broadcast dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<A: DimKind, B: DimKind, LS, RS> BroadcastDim<B, LS, RS> for A
where
    (A::Kind, B::Kind): BroadcastSel<A, B, LS, RS>,
{
    type Out = <(A::Kind, B::Kind) as BroadcastSel<A, B, LS, RS>>::Out;
}

/// Selection on the pair of kinds (see the module docs).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{LS}` with `{RS}`",
    label = "dimension `{A}` does not match `{B}` (sizes differ and neither is `One`)",
    note = "shapes broadcast when, aligned from the right, each pair of sizes is equal or one of them is 1",
    note = "the size 1 that stretches is the dim `One` (`Shape![1, ..]`, `unsqueeze`, keepdim, `Tensor::from`); a `Const<1>` is an ordinary size: relabel it with `cast_shape`"
)]
pub trait BroadcastSel<A, B, LS, RS> {
    /// The broadcast dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KOne, KOne) {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KOne, KStatic) {
    type Out = B;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KStatic, KOne) {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, LS, RS> BroadcastSel<A, A, LS, RS> for (KStatic, KStatic) {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KOne, KDyn) {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KDyn, KOne) {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KStatic, KDyn) {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KDyn, KStatic) {
    type Out = B;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, LS, RS> BroadcastSel<A, B, LS, RS> for (KDyn, KDyn) {
    type Out = Dyn;
}

/// Shape-level broadcast (generated for every pair of ranks 0..=6; [`DynShape`] with itself).
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Self}` with `{Rhs}`",
    label = "incompatible shapes",
    note = "shapes broadcast when, aligned from the right, each pair of sizes is equal or one of them is 1",
    note = "the size 1 that stretches is the dim `One` (`Shape![1, ..]`, `unsqueeze`, keepdim, `Tensor::from`); a `Const<1>` is an ordinary size: relabel it with `cast_shape`"
)]
pub trait BroadcastShape<Rhs: Shape>: Shape {
    /// The broadcast shape.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl BroadcastShape<DynShape> for DynShape {
    type Out = DynShape;
}

/// The shape of broadcasting `A` with `B`.
pub type Broadcast<A, B> = <A as BroadcastShape<B>>::Out;

/// Dim-level `expand`: a size-1 dim expands to any size; another size only to itself.
#[diagnostic::on_unimplemented(
    message = "cannot expand `{LS}` to `{RS}`: dimension `{Self}` cannot become `{Target}`",
    label = "only size-1 dims can be expanded",
    note = "expand aligns the shapes from the right; each dim must equal the target or be 1"
)]
pub trait ExpandDim<Target: Dim, LS = (), RS = ()>: Dim {
    /// The target dim.
    type Out: Dim;
}
impl<A: DimKind, B: DimKind, LS, RS> ExpandDim<B, LS, RS> for A
where
    (A::Kind, B::Kind): ExpandSel<A, B, LS, RS>,
{
    type Out = B;
}
/// Selection on the pair of kinds for [`ExpandDim`].
#[diagnostic::on_unimplemented(
    message = "cannot expand `{LS}` to `{RS}`",
    label = "dimension `{A}` cannot become `{B}` (only size-1 dims can be expanded)",
    note = "expand aligns the shapes from the right; each dim must equal the target or be 1"
)]
pub trait ExpandSel<A, B, LS, RS> {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KOne, KOne) {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KOne, KStatic) {}
#[diagnostic::do_not_recommend]
impl<A, LS, RS> ExpandSel<A, A, LS, RS> for (KStatic, KStatic) {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KDyn, KStatic) {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KDyn, KOne) {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KDyn, KDyn) {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KStatic, KDyn) {}
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> ExpandSel<A, B, LS, RS> for (KOne, KDyn) {}

/// Shape-level `expand` (generated for every source rank <= target rank).
#[diagnostic::on_unimplemented(
    message = "cannot expand `{Self}` to `{Target}`",
    label = "incompatible shapes",
    note = "expand aligns the shapes from the right; each dim must equal the target or be 1"
)]
pub trait ExpandShape<Target: Shape>: Shape {
    /// The target shape.
    type Out: Shape;
}

/// `Self` (a value's shape) can be written into a tensor of shape `Dst` (`assign`, `copy_`,
/// `t!(x[..] = value)`): it expands to `Dst` (each dim equal, or [`One`], or a missing leading
/// dim). A [`DynShape`] on either side is checked at run time, where leading size-1 dims beyond
/// `Dst`'s rank are also dropped, as PyTorch does.
#[diagnostic::on_unimplemented(
    message = "cannot assign a value of shape `{Self}` to a view of shape `{Dst}`",
    label = "the value must broadcast to the view's shape",
    note = "aligned from the right, each dim of the value must equal the view's or be 1"
)]
pub trait AssignShape<Dst: Shape>: Shape {}
#[diagnostic::do_not_recommend]
impl<Src: ExpandShape<Dst>, Dst: Shape> AssignShape<Dst> for Src {}
#[diagnostic::do_not_recommend]
impl<Dst: StaticRank> ExpandShape<Dst> for DynShape {
    type Out = Dst;
}
impl<Src: StaticRank> ExpandShape<DynShape> for Src {
    type Out = DynShape;
}
#[diagnostic::do_not_recommend]
impl ExpandShape<DynShape> for DynShape {
    type Out = DynShape;
}

include!(concat!(env!("OUT_DIR"), "/broadcast.rs"));
include!(concat!(env!("OUT_DIR"), "/expand.rs"));

/// Runtime broadcast of two size lists (shared by the static and dynamic front ends).
///
/// # Errors
/// [`ShapeError::Broadcast`] when a pair of aligned sizes differs and neither is 1.
pub fn broadcast_sizes(a: &[usize], b: &[usize]) -> Result<([usize; MAX_RANK], usize), ShapeError> {
    let r = a.len().max(b.len());
    if r > MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank: r });
    }
    let mut out = [1usize; MAX_RANK];
    for (i, o) in out.iter_mut().enumerate().take(r) {
        let da = if i + a.len() >= r { a[i + a.len() - r] } else { 1 };
        let db = if i + b.len() >= r { b[i + b.len() - r] } else { 1 };
        *o = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(ShapeError::Broadcast { lhs: a.into(), rhs: b.into() });
        };
    }
    Ok((out, r))
}
