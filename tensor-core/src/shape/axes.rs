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

/// A dim that `squeeze` may remove: `Const<1>`, or `Dyn` (checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot squeeze a dimension of size `{Self}`",
    label = "only size-1 dims can be squeezed"
)]
pub trait Squeezable: Dim {}
impl Squeezable for Const<1> {}
impl Squeezable for Dyn {}

/// Matrix product shapes: `[M, K] @ [K, N] -> [M, N]`. The inner dims must be equal (checked at
/// run time where either is `Dyn`).
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{Self}` by `{Rhs}`",
    label = "matmul needs two 2-D shapes `[m, k]` and `[k, n]`"
)]
pub trait MatMulShape<Rhs: Shape>: Shape {
    /// `[M, N]`.
    type Out: Shape;
}
impl<M: Dim, K: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N)> for (M, K)
where
    K: SameDim<K2, (M, K), (K2, N)>,
{
    type Out = (M, N);
}
impl MatMulShape<DynShape> for DynShape {
    type Out = DynShape;
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
