//! Axis rules: which dim an axis operation removes, inserts, swaps or reorders, and the matmul
//! rule. None needs arithmetic on sizes, so they hold for every static size. An axis that is out
//! of range for the rank is an unimplemented-trait error naming the shape.
use super::{DynShape, Shape, MAX_RANK};
use crate::dim::*;

/// Removes axis `A` (`select`, reductions, `squeeze`).
#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for shape `{Self}`",
    label = "no axis {A} in this shape"
)]
pub trait RemoveAxis<const A: usize>: Shape {
    /// The shape without axis `A`.
    type Out: Shape;
    /// The removed dim.
    type Removed: Dim;
}
impl<const A: usize> RemoveAxis<A> for DynShape {
    type Out = DynShape;
    type Removed = Dyn;
}

/// Inserts a size-1 axis at position `A` (`unsqueeze`); `A` may equal the rank.
#[diagnostic::on_unimplemented(
    message = "cannot insert axis {A} into shape `{Self}`",
    label = "axis out of range, or the result would have more than 6 dims"
)]
pub trait InsertAxis<const A: usize>: Shape {
    /// The shape with a `Const<1>` at position `A`.
    type Out: Shape;
}
impl<const A: usize> InsertAxis<A> for DynShape {
    type Out = DynShape;
}

/// Swaps axes `A` and `B` (`transpose`).
#[diagnostic::on_unimplemented(
    message = "cannot transpose axes {A} and {B} of shape `{Self}`",
    label = "axis out of range for this shape"
)]
pub trait SwapAxes<const A: usize, const B: usize>: Shape {
    /// The shape with dims `A` and `B` swapped.
    type Out: Shape;
}
impl<const A: usize, const B: usize> SwapAxes<A, B> for DynShape {
    type Out = DynShape;
}

/// Replaces the dim at axis `A` with `X` (`narrow` makes it `Dyn`).
#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for shape `{Self}`",
    label = "no axis {A} in this shape"
)]
pub trait SetAxis<const A: usize, X: Dim>: Shape {
    /// The shape with dim `A` replaced.
    type Out: Shape;
}
impl<const A: usize, X: Dim> SetAxis<A, X> for DynShape {
    type Out = DynShape;
}

/// An axis number as a type, for [`Axes!`](crate::Axes).
#[derive(Clone, Copy, Default, Debug)]
pub struct Axis<const N: usize>;

/// `Self` (a tuple of [`Axis`], spelled `Axes![2, 0, 1]`) is a permutation of the axes of `S`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a permutation of the axes of `{S}`",
    label = "permute needs each axis 0..rank exactly once",
    note = "write the permutation as `Axes![..]` with one entry per dimension"
)]
pub trait PermuteShape<S: Shape> {
    /// The permuted shape.
    type Out: Shape;
    /// The permutation as numbers (entries past the rank are 0).
    const AXES: [usize; MAX_RANK];
}

include!(concat!(env!("OUT_DIR"), "/axes.rs"));
include!(concat!(env!("OUT_DIR"), "/permute.rs"));

/// A permutation of axes as a type: `Axes![2, 0, 1]` is `(Axis<2>, Axis<0>, Axis<1>)`.
#[macro_export]
macro_rules! Axes {
    ($($a:expr),* $(,)?) => { ( $( $crate::Axis<{$a}>, )* ) };
}

/// A dim that `squeeze` may remove from axis `A` of shape `S`: `Const<1>`, or `Dyn` (checked at
/// run time).
#[diagnostic::on_unimplemented(
    message = "cannot squeeze axis {A} of shape `{S}`: its size is `{Self}`, not 1",
    label = "only size-1 dims can be squeezed"
)]
pub trait Squeezable<S, const A: usize>: Dim {}
impl<S, const A: usize> Squeezable<S, A> for Const<1> {}
impl<S, const A: usize> Squeezable<S, A> for Dyn {}

/// Matrix product shapes: `[M, K] @ [K, N] -> [M, N]`. The inner dims must be equal (checked at
/// run time where either is `Dyn`). Dispatched on the right-hand shape first, so that a 1-D
/// operand on either side reaches a message naming both shapes.
pub trait MatMulShape<Rhs: Shape>: Shape {
    /// `[M, N]`.
    type Out: Shape;
}
impl<S: Shape, R: Shape + MatRhs<S>> MatMulShape<R> for S {
    type Out = <R as MatRhs<S>>::Out;
}
/// The right operand of a matmul (see [`MatMulShape`]).
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{S}` by `{Self}`",
    label = "matmul needs two 2-D shapes `[m, k]` and `[k, n]`"
)]
pub trait MatRhs<S> {
    /// `[M, N]`.
    type Out: Shape;
}
impl<K2: Dim, N: Dim, S: MatLhs<K2, (K2, N)>> MatRhs<S> for (K2, N) {
    type Out = (<S as MatLhs<K2, (K2, N)>>::M, N);
}
impl MatRhs<DynShape> for DynShape {
    type Out = DynShape;
}
/// The left operand of a matmul whose right operand is `RS` with `K2` rows.
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{Self}` by `{RS}`",
    label = "matmul needs two 2-D shapes `[m, k]` and `[k, n]`"
)]
pub trait MatLhs<K2, RS> {
    /// The row dim of the product.
    type M: Dim;
}
impl<M: Dim, K: Dim, K2: Dim, RS> MatLhs<K2, RS> for (M, K)
where
    K: SameDim<K2, (M, K), RS>,
{
    type M = M;
}

/// The transpose of a rank-2 shape (`t()`); rank 0 and 1 shapes are their own transpose, as in
/// PyTorch.
#[diagnostic::on_unimplemented(
    message = "`t()` expects a tensor with at most 2 dims, not `{Self}`",
    label = "use `transpose::<A, B>()` or `permute` for higher ranks"
)]
pub trait TransposeShape: Shape {
    /// The transposed shape.
    type Out: Shape;
}
impl TransposeShape for () {
    type Out = ();
}
impl<A: Dim> TransposeShape for (A,) {
    type Out = (A,);
}
impl<A: Dim, B: Dim> TransposeShape for (A, B) {
    type Out = (B, A);
}
impl TransposeShape for DynShape {
    type Out = DynShape;
}
