//! Axis rules: which dim an axis operation removes, inserts, swaps, moves, merges, splits or
//! reorders, and the matmul and concatenation rules. Only the size of `cat`'s axis needs
//! arithmetic (a typenum sum, limited to 1024); every other rule is type equality, so it holds for
//! every static size. An axis that is out of range for the rank is an unimplemented-trait error
//! naming the shape.
use super::{DynShape, Shape, StaticRank, MAX_RANK};
use crate::dim::*;
use crate::error::ShapeError;
use core::ops::Add;

/// Removes axis `A` (`select`, reductions, `squeeze`).
#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for shape `{Self}`",
    label = "no axis {A} in this shape"
)]
pub trait RemoveAxis<const A: isize>: Shape {
    /// The shape without axis `A`.
    type Out: Shape;
    /// The removed dim.
    type Removed: Dim;
}
#[diagnostic::do_not_recommend]
impl<const A: isize> RemoveAxis<A> for DynShape {
    type Out = DynShape;
    type Removed = Dyn;
}

/// Inserts a size-1 axis at position `A` (`unsqueeze`); `A` may equal the rank.
#[diagnostic::on_unimplemented(
    message = "cannot insert axis {A} into shape `{Self}`",
    label = "axis out of range, or the result would have more than 6 dims"
)]
pub trait InsertAxis<const A: isize>: Shape {
    /// The shape with a [`One`] at position `A`.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize> InsertAxis<A> for DynShape {
    type Out = DynShape;
}

/// Swaps axes `A` and `B` (`transpose`).
#[diagnostic::on_unimplemented(
    message = "cannot transpose axes {A} and {B} of shape `{Self}`",
    label = "axis out of range for this shape"
)]
pub trait SwapAxes<const A: isize, const B: isize>: Shape {
    /// The shape with dims `A` and `B` swapped.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize, const B: isize> SwapAxes<A, B> for DynShape {
    type Out = DynShape;
}

/// Replaces the dim at axis `A` with `X` (`narrow` makes it `Dyn`).
#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for shape `{Self}`",
    label = "no axis {A} in this shape"
)]
pub trait SetAxis<const A: isize, X: Dim>: Shape {
    /// The shape with dim `A` replaced.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize, X: Dim> SetAxis<A, X> for DynShape {
    type Out = DynShape;
}

/// An axis number as a type, for [`Axes!`](crate::Axes).
#[derive(Clone, Copy, Default, Debug)]
pub struct Axis<const N: usize>;

/// The axis of a [`DynShape`] named by an entry of `permute`'s tuple of axes: any position,
/// checked when the program runs.
#[derive(Clone, Copy, Default, Debug)]
pub struct AnyAxis;

/// `Self` (a tuple of [`Axis`], spelled `Axes![2, 0, 1]`) is a permutation of the axes of `S`:
/// the rule behind [`PermuteAxes`](super::PermuteAxes), which gives `permute`'s axes as values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a permutation of the axes of `{S}`",
    label = "permute needs each axis of the shape exactly once",
    note = "give one axis for each dimension: `x.permute((Ax::<2>, Ax::<0>, Ax::<1>))`"
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

/// A dim that `squeeze` may remove from axis `A` of shape `S`: [`One`], `Const<1>`, or `Dyn`
/// (checked at run time).
#[diagnostic::on_unimplemented(
    message = "cannot squeeze axis {A} of shape `{S}`: its size is `{Self}`, not 1",
    label = "only size-1 dims can be squeezed"
)]
pub trait Squeezable<S, const A: isize>: Dim {}
impl<S, const A: isize> Squeezable<S, A> for Const<1> {}
impl<S, const A: isize> Squeezable<S, A> for One {}
impl<S, const A: isize> Squeezable<S, A> for Dyn {}

/// Matrix product shapes, as PyTorch `matmul`: `[M, K] @ [K, N] -> [M, N]`; batched: `[..B1, M,
/// K] @ [..B2, K, N] -> [..broadcast(B1, B2), M, N]` (ranks up to 6 on either side); and with a
/// 1-D operand: `[K] @ [K] -> []` (the dot product), `[..B, M, K] @ [K] -> [..B, M]`, `[K] @
/// [..B, K, N] -> [..B, N]`. A 0-d operand has no matrix product. The inner dims must be equal and
/// the batch dims must broadcast; both are checked at run time where a dim is `Dyn`. Dispatched on
/// the right-hand shape first, so that an operand of any rank reaches a message naming both
/// shapes.
pub trait MatMulShape<Rhs: Shape>: Shape {
    /// `[..B, M, N]`, without `M` or `N` where that operand is 1-D.
    type Out: Shape;
}
impl<S: Shape, R: Shape + MatRhs<S>> MatMulShape<R> for S {
    type Out = <R as MatRhs<S>>::Out;
}
/// The right operand of a matmul (see [`MatMulShape`]).
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{S}` by `{Self}`",
    label = "needs `[.., m, k] @ [.., k, n]` (either side may be 1-D): equal inner dims, batch dims that broadcast",
    note = "batch dims broadcast like element-wise operands; the size 1 that stretches is `One`",
    note = "in code generic over shapes, add the bound `{S}: MatMulShape<{Self}>` (the result shape is `<{S} as MatMulShape<{Self}>>::Out`)"
)]
pub trait MatRhs<S> {
    /// `[..B, M, N]`.
    type Out: Shape;
}
impl<K2: Dim, N: Dim, S: MatLhs<K2, N, (K2, N)>> MatRhs<S> for (K2, N) {
    type Out = <S as MatLhs<K2, N, (K2, N)>>::Out;
}
impl<K2: Dim, S: MatVecLhs<K2, (K2,)>> MatRhs<S> for (K2,) {
    type Out = <S as MatVecLhs<K2, (K2,)>>::Out;
}
#[diagnostic::do_not_recommend]
impl MatRhs<DynShape> for DynShape {
    type Out = DynShape;
}
/// The left operand of a matmul whose right operand is the 2-D `RS = [K2, N]`.
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{Self}` by `{RS}`",
    label = "matmul needs operands with at least 1 dim (`[k]` or `[.., m, k]` on the left)"
)]
pub trait MatLhs<K2, N, RS> {
    /// The product's shape.
    type Out: Shape;
}
/// The left operand of a matmul whose right operand is the 1-D `RS = [K2]` (a matrix-vector
/// product, or the dot product when both are 1-D).
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{Self}` by `{RS}`",
    label = "matmul needs operands with at least 1 dim (`[k]` or `[.., m, k]` on the left)"
)]
pub trait MatVecLhs<K2, RS> {
    /// The product's shape: `Self` without its last dim.
    type Out: Shape;
}
include!(concat!(env!("OUT_DIR"), "/matmul.rs"));
/// A batch dim of a batched matmul: the batch dims of the two operands broadcast (see
/// [`MatMulShape`]). `LS`/`RS` are the operands' shapes, for the message.
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{LS}` by `{RS}`: batch dimensions `{Self}` and `{Rhs}` do not broadcast",
    label = "batch dims must be equal or `One`",
    note = "in `[..b1, m, k] @ [..b2, k, n]` the batch dims `b1` and `b2` broadcast like element-wise operands"
)]
pub trait BatchDim<Rhs, LS, RS> {
    /// The broadcast batch dim.
    type Out: Dim;
}
super::broadcast::broadcast_dim_rule!(BatchDim);

/// Kronecker product shapes (`kron`, PyTorch `torch.kron`, NumPy `np.kron`): two shapes of the
/// same rank (0..=6); each result dim is the product of the operands' dims ([`KronDim`]). A
/// runtime shape ([`DynShape`]) on either side gives a runtime shape, checked at run time.
#[diagnostic::on_unimplemented(
    message = "cannot take the Kronecker product of `{Self}` and `{Rhs}`",
    label = "kron needs two shapes of the same rank",
    note = "add leading size-1 dims with `unsqueeze::<0>()` to the shape with fewer dims"
)]
pub trait KronShape<Rhs: Shape>: Shape {
    /// The product's shape: dim `i` is `Self[i] * Rhs[i]`.
    type Out: Shape;
}
/// A dim of a Kronecker product: `Const<N * M>` for static sizes (a typenum product turned back
/// into a `Const` by [`ToConst`], so at most 1024, each factor in typenum's range), the other
/// factor when one side is [`One`] (any size), `Dyn` when either is `Dyn`. `LS`/`RS` are the
/// operands' shapes, for the message.
#[diagnostic::on_unimplemented(
    message = "cannot take the Kronecker product of `{LS}` and `{RS}`: no compile-time size for `{Self}` * `{Rhs}`",
    label = "a static Kronecker size needs a compile-time product",
    note = "compile-time products need concrete sizes with a product up to 1024; for larger sizes, or in code generic over sizes, make the operands runtime-shaped (`as_dyn()`)"
)]
pub trait KronDim<Rhs, LS, RS>: Dim {
    /// The product dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, const M: usize, LS, RS> KronDim<Const<M>, LS, RS> for Const<N>
where
    Const<N>: StaticDim,
    Const<M>: StaticDim,
    Tn<Const<N>>: core::ops::Mul<Tn<Const<M>>>,
    typenum::Prod<Tn<Const<N>>, Tn<Const<M>>>: ToConst,
{
    type Out = <typenum::Prod<Tn<Const<N>>, Tn<Const<M>>> as ToConst>::Out;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> KronDim<One, LS, RS> for Const<N> {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const M: usize, LS, RS> KronDim<Const<M>, LS, RS> for One {
    type Out = Const<M>;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> KronDim<One, LS, RS> for One {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl<P: ConstDim, LS, RS> KronDim<Dyn, LS, RS> for P {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<Q: ConstDim, LS, RS> KronDim<Q, LS, RS> for Dyn {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> KronDim<Dyn, LS, RS> for Dyn {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl KronShape<DynShape> for DynShape {
    type Out = DynShape;
}
/// `KronShape` for the tuple shapes `$ls` and `$rs` of one rank (their dims paired), and a
/// static shape with a runtime one.
macro_rules! kron_shape {
    ($ls:ty, $rs:ty; $(($a:ident, $b:ident)),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($a: Dim, $b: Dim),*> KronShape<$rs> for $ls
        where
            $($a: KronDim<$b, $ls, $rs>),*
        {
            type Out = ($(<$a as KronDim<$b, $ls, $rs>>::Out,)*);
        }
        #[diagnostic::do_not_recommend]
        impl<$($a: Dim),*> KronShape<DynShape> for $ls {
            type Out = DynShape;
        }
        #[diagnostic::do_not_recommend]
        impl<$($b: Dim),*> KronShape<$rs> for DynShape {
            type Out = DynShape;
        }
    };
}
kron_shape!((), (););
kron_shape!((A0,), (B0,); (A0, B0));
kron_shape!((A0, A1), (B0, B1); (A0, B0), (A1, B1));
kron_shape!((A0, A1, A2), (B0, B1, B2); (A0, B0), (A1, B1), (A2, B2));
kron_shape!((A0, A1, A2, A3), (B0, B1, B2, B3); (A0, B0), (A1, B1), (A2, B2), (A3, B3));
kron_shape!((A0, A1, A2, A3, A4), (B0, B1, B2, B3, B4); (A0, B0), (A1, B1), (A2, B2), (A3, B3), (A4, B4));
kron_shape!(
    (A0, A1, A2, A3, A4, A5), (B0, B1, B2, B3, B4, B5);
    (A0, B0), (A1, B1), (A2, B2), (A3, B3), (A4, B4), (A5, B5)
);

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
#[diagnostic::do_not_recommend]
impl TransposeShape for DynShape {
    type Out = DynShape;
}

/// All dims merged into one (`flatten()`): `[a, b, c] -> [_]`. A rank-1 shape stays itself and a
/// scalar becomes `[1]`, as in PyTorch; [`DynShape`] stays [`DynShape`].
#[diagnostic::on_unimplemented(message = "cannot flatten shape `{Self}`", label = "not a tensor shape")]
pub trait FlattenShape: Shape {
    /// The flattened shape.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl FlattenShape for DynShape {
    type Out = DynShape;
}

/// Dims `START..=END` merged into one `Dyn` dim (`flatten_range`, PyTorch
/// `flatten(start_dim, end_dim)`); `START == END` keeps the shape.
#[diagnostic::on_unimplemented(
    message = "cannot flatten axes {START}..={END} of shape `{Self}`",
    label = "flatten_range needs START <= END < rank"
)]
pub trait FlattenRange<const START: isize, const END: isize>: Shape {
    /// The shape with the merged dim.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const START: isize, const END: isize> FlattenRange<START, END> for DynShape {
    type Out = DynShape;
}

/// Dim `A` split into the dims of the tuple shape `S2` (`unflatten`): `[2, 12]` with `<1, [3, 4]>`
/// gives `[2, 3, 4]`. `S2` must have at least one dim and the result at most 6; whether the sizes
/// multiply to dim `A` is checked at run time.
#[diagnostic::on_unimplemented(
    message = "cannot unflatten axis {A} of shape `{Self}` into `{S2}`",
    label = "axis out of range, an empty target shape, or a result with more than 6 dims"
)]
pub trait Unflatten<const A: isize, S2>: Shape {
    /// `S` with `S2` spliced in at `A`.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize, S2: StaticRank> Unflatten<A, S2> for DynShape {
    type Out = DynShape;
}

/// A product dim ([`Prod`]) and its two factors, for
/// [`unflatten_prod`](crate::TensorBase::unflatten_prod).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a product dim, so `unflatten_prod` cannot split it",
    label = "only a dim made by `flatten` or `flatten_range` splits into its factors",
    note = "to split another dim, name the sizes: `unflatten(axis, (Const::<3>, Dyn))`"
)]
pub trait SplitProd: Dim {
    /// The two factors, as a rank-2 shape.
    type Parts: Shape;
}
impl<X: Dim, Y: Dim> SplitProd for Prod<X, Y> {
    type Parts = (X, Y);
}
/// The factors of the product dim at axis `A` of `S`, as a rank-2 shape.
pub type ProdParts<S, const A: isize> = <<S as RemoveAxis<A>>::Removed as SplitProd>::Parts;

/// Dim `SRC` moved to position `DST`, the others keeping their order (`movedim`, PyTorch
/// `torch.movedim`): `[a, b, c]` with `<0, 2>` gives `[b, c, a]`.
#[diagnostic::on_unimplemented(
    message = "cannot move axis {SRC} to position {DST} in shape `{Self}`",
    label = "axis out of range for this shape"
)]
pub trait MoveAxis<const SRC: isize, const DST: isize>: Shape {
    /// The shape with the dim moved.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const SRC: isize, const DST: isize> MoveAxis<SRC, DST> for DynShape {
    type Out = DynShape;
}

/// Dims `D1` and `D2` removed and the diagonal's length (`Dyn`) appended (`diagonal`, PyTorch
/// `torch.diagonal`): `[a, b, c]` with `<0, 2>` gives `[b, _]`. The axes must differ.
#[diagnostic::on_unimplemented(
    message = "cannot take the diagonal of axes {D1} and {D2} of shape `{Self}`",
    label = "the two axes must differ and both be in range"
)]
pub trait DiagonalShape<const D1: isize, const D2: isize>: Shape {
    /// The shape of the diagonal view.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const D1: isize, const D2: isize> DiagonalShape<D1, D2> for DynShape {
    type Out = DynShape;
}

/// Dim `X` inserted at position `A` (`0..=rank`): what `stack` does to its inputs' shape
/// ([`InsertAxis`] is the special case `X = One`).
#[diagnostic::on_unimplemented(
    message = "cannot insert a dim at axis {A} of shape `{Self}`",
    label = "axis out of range, or the result would have more than 6 dims"
)]
pub trait InsertDim<const A: isize, X: Dim>: Shape {
    /// The shape with `X` at `A`.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize, X: Dim> InsertDim<A, X> for DynShape {
    type Out = DynShape;
}

/// Concatenation of `Self` and `Rhs` along axis `A` (`cat`, PyTorch `torch.cat`): same rank,
/// dims other than `A` equal ([`CatSameDim`]), dim `A` the sum ([`CatSumDim`]). Dispatched on the
/// right operand first ([`CatRhs`]), as [`MatMulShape`], so that an operand of another rank
/// reaches a message naming both shapes rather than a type mismatch.
pub trait CatShape<const A: isize, Rhs: Shape>: Shape {
    /// The concatenated shape.
    type Out: Shape;
}
impl<const A: isize, S: Shape, R: Shape + CatRhs<A, S>> CatShape<A, R> for S {
    type Out = <R as CatRhs<A, S>>::Out;
}
/// The right operand of a `cat` along axis `A` whose left operand is `S` (see [`CatShape`]).
#[diagnostic::on_unimplemented(
    message = "cannot concatenate `{S}` and `{Self}` along axis {A}",
    label = "the shapes need the same rank and axis {A} in range"
)]
pub trait CatRhs<const A: isize, S> {
    /// The concatenated shape.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize> CatRhs<A, DynShape> for DynShape {
    type Out = DynShape;
}

/// A dim of `cat`'s operands outside the concatenation axis: equal sizes (type equality, so every
/// static size works; a `Dyn` side is checked at run time). `LS`/`RS` are the full shapes, `A` the
/// axis, only for the error message.
#[diagnostic::on_unimplemented(
    message = "cannot concatenate `{LS}` and `{RS}` along axis {A}: dimension `{Self}` vs `{Rhs}`",
    label = "dims other than the concatenation axis must be equal"
)]
pub trait CatSameDim<Rhs, LS, RS, const A: isize>: Dim {
    /// The unified dim (static when either side is).
    type Out: Dim;
}
impl<const N: usize, LS, RS, const A: isize> CatSameDim<Const<N>, LS, RS, A> for Const<N> {
    type Out = Const<N>;
}
impl<const N: usize, LS, RS, const A: isize> CatSameDim<Dyn, LS, RS, A> for Const<N> {
    type Out = Const<N>;
}
impl<const N: usize, LS, RS, const A: isize> CatSameDim<Const<N>, LS, RS, A> for Dyn {
    type Out = Const<N>;
}
impl<LS, RS, const A: isize> CatSameDim<Dyn, LS, RS, A> for Dyn {
    type Out = Dyn;
}
impl<N: Tagged, LS, RS, const A: isize> CatSameDim<N, LS, RS, A> for N {
    type Out = N;
}
impl<N: Tagged, LS, RS, const A: isize> CatSameDim<Dyn, LS, RS, A> for N {
    type Out = N;
}
impl<N: Tagged, LS, RS, const A: isize> CatSameDim<N, LS, RS, A> for Dyn {
    type Out = N;
}

/// The concatenation axis of `cat`: `Const<N + M>` when both sizes are static (a typenum sum
/// turned back into a `Const` by [`ToConst`], so the sum must be at most 1024 and each size in
/// typenum's range), `Dyn` when either is `Dyn`.
#[diagnostic::on_unimplemented(
    message = "cannot concatenate `{LS}` and `{RS}` along axis {A}: no compile-time size for `{Self}` + `{Rhs}`",
    label = "a static concatenated size needs a compile-time sum",
    note = "compile-time sums need concrete sizes with a total up to 1024; in code generic over sizes, or for larger totals, use `Tensor::cat_all` (its concatenated dim is `Dyn`) or make the axis `Dyn` (`_` in `Shape![..]`, or `as_dyn()`)"
)]
pub trait CatSumDim<Rhs, LS, RS, const A: isize>: Dim {
    /// The concatenated dim.
    type Out: Dim;
}
// One impl whose nested `CatSumPair` carries the cases: an error is then reported with
// `CatSumDim`'s message, naming both sizes (as `SameDim`'s is).
#[diagnostic::do_not_recommend]
impl<P: Dim, Q: Dim, LS, RS, const A: isize> CatSumDim<Q, LS, RS, A> for P
where
    (P, Q): CatSumPair,
{
    type Out = <(P, Q) as CatSumPair>::Out;
}
/// The cases of [`CatSumDim`] for the pair `(Self.0, Self.1)`: a typenum sum of two static sizes
/// ([`One`] counts as 1), `Dyn` when either is `Dyn` or a name (the sum is a new size).
#[doc(hidden)]
pub trait CatSumPair {
    /// The concatenated dim.
    type Out: Dim;
}
impl<const N: usize, const M: usize> CatSumPair for (Const<N>, Const<M>)
where
    Const<N>: StaticDim,
    Const<M>: StaticDim,
    Tn<Const<N>>: Add<Tn<Const<M>>>,
    typenum::Sum<Tn<Const<N>>, Tn<Const<M>>>: ToConst,
{
    type Out = <typenum::Sum<Tn<Const<N>>, Tn<Const<M>>> as ToConst>::Out;
}
impl<const N: usize> CatSumPair for (Const<N>, One)
where
    (Const<N>, Const<1>): CatSumPair,
{
    type Out = <(Const<N>, Const<1>) as CatSumPair>::Out;
}
impl<const M: usize> CatSumPair for (One, Const<M>)
where
    (Const<1>, Const<M>): CatSumPair,
{
    type Out = <(Const<1>, Const<M>) as CatSumPair>::Out;
}
impl CatSumPair for (One, One) {
    type Out = Const<2>;
}
/// The runtime cases of [`CatSumPair`]: `Dyn`.
macro_rules! cat_sum_dyn {
    ($([$($g:tt)*] $p:ty, $q:ty;)*) => {$(
        impl<$($g)*> CatSumPair for ($p, $q) {
            type Out = Dyn;
        }
    )*};
}
cat_sum_dyn! {
    [const N: usize] Const<N>, Dyn;
    [] One, Dyn;
    [const M: usize] Dyn, Const<M>;
    [] Dyn, One;
    [] Dyn, Dyn;
    [N: Tagged, const M: usize] N, Const<M>;
    [N: Tagged] N, One;
    [N: Tagged] N, Dyn;
    [N: Tagged, Q: Tagged] N, Q;
    [N: Tagged, const M: usize] Const<M>, N;
    [N: Tagged] One, N;
    [N: Tagged] Dyn, N;
}

include!(concat!(env!("OUT_DIR"), "/axes_more.rs"));

/// `Self` (a tuple of [`Axis`], spelled `Axes![0, 2]`) lists distinct axes of `S` in increasing
/// order, for reductions over several axes (`sum_axes`, `mean_axes` and their `_keepdim` forms):
/// the rule behind [`ReduceAxesArg`](super::ReduceAxesArg), which gives the axes as values.
#[diagnostic::on_unimplemented(
    message = "cannot reduce shape `{S}` over axes `{Self}`",
    label = "axes must exist in the shape, be distinct, and be listed in increasing order",
    note = "list the axes in increasing order: `x.sum_axes((Ax::<0>, Ax::<2>))`"
)]
pub trait ReduceAxes<S: Shape> {
    /// `S` without the reduced axes.
    type Out: Shape;
    /// `S` with each reduced axis replaced by [`One`] (`keepdim=True`).
    type Keep: Shape;
    /// The axes as numbers.
    const AXES: &'static [usize];
}
include!(concat!(env!("OUT_DIR"), "/reduce_axes.rs"));

/// Runtime rule of `cat` (shared by the static and dynamic front ends): every operand has the
/// same rank and the same sizes outside `axis`; the result's dim `axis` is the sum. `op` names the
/// operation in the error.
///
/// # Errors
/// [`ShapeError::Invalid`] for no operands; [`ShapeError::Axis`] when `axis` is not below the
/// rank; [`ShapeError::Mismatch`] naming the first operand and the first one that differs in
/// rank or outside `axis`; [`ShapeError::Overflow`] when the sum overflows.
pub fn cat_sizes<'a>(
    op: &'static str,
    sizes: impl IntoIterator<Item = &'a [usize]>,
    axis: usize,
) -> Result<([usize; MAX_RANK], usize), ShapeError> {
    let mut it = sizes.into_iter();
    let Some(first) = it.next() else {
        return Err(ShapeError::Invalid(alloc::format!("{op}: expected a non-empty list of tensors")));
    };
    let r = first.len();
    if axis >= r {
        return Err(ShapeError::Axis { axis: axis as isize, rank: r });
    }
    let mut out = [1usize; MAX_RANK];
    out[..r].copy_from_slice(first);
    for s in it {
        let what = if s.len() != r {
            "differ in rank".into()
        } else if s.iter().zip(first).enumerate().any(|(i, (a, b))| i != axis && a != b) {
            alloc::format!("differ outside dimension {axis}")
        } else {
            out[axis] = out[axis].checked_add(s[axis]).ok_or_else(|| ShapeError::Overflow { sizes: s.into() })?;
            continue;
        };
        return Err(ShapeError::Mismatch { op, what, lhs: first.into(), rhs: s.into() });
    }
    Ok((out, r))
}

/// A dim padded by `L` elements before and `R` after (`pad`): `Const<N + L + R>` when the dim is
/// static (a typenum sum turned back into a `Const`, so the total must be at most 1024 and each
/// term in typenum's range), `Dyn` when it is `Dyn`.
#[diagnostic::on_unimplemented(
    message = "cannot pad dimension `{Self}` by {L} and {R} with a compile-time size",
    label = "a static padded size needs a compile-time sum",
    note = "compile-time sums need concrete sizes with a total up to 1024; for larger totals or in code generic over sizes, make the dim `Dyn` (`_` in `Shape![..]`, or `as_dyn()`) or use `pad_dyn`"
)]
pub trait PadDim<const L: usize, const R: usize>: Dim {
    /// The padded dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<P: ConstDim + StaticDim, const L: usize, const R: usize> PadDim<L, R> for P
where
    Const<L>: StaticDim,
    Const<R>: StaticDim,
    Tn<P>: Add<Tn<Const<L>>>,
    typenum::Sum<Tn<P>, Tn<Const<L>>>: Add<Tn<Const<R>>>,
    typenum::Sum<typenum::Sum<Tn<P>, Tn<Const<L>>>, Tn<Const<R>>>: ToConst,
{
    type Out = <typenum::Sum<typenum::Sum<Tn<P>, Tn<Const<L>>>, Tn<Const<R>>> as ToConst>::Out;
}
#[diagnostic::do_not_recommend]
impl<const L: usize, const R: usize> PadDim<L, R> for Dyn {
    type Out = Dyn;
}

/// `Self` padded along axis `A` by `L` elements before and `R` after (`pad::<A, L, R>`): dim `A`
/// becomes [`PadDim`]'s sum, the others stay.
#[diagnostic::on_unimplemented(
    message = "cannot pad axis {A} of shape `{Self}` by {L} and {R}",
    label = "the axis must exist, and a static dim needs a padded size up to 1024",
    note = "for padded sizes above 1024 or in code generic over sizes, make the dim `Dyn` (`_` in `Shape![..]`, or `as_dyn()`) or use `pad_dyn`"
)]
pub trait PadShape<const A: isize, const L: usize, const R: usize>: Shape {
    /// The padded shape.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize, const L: usize, const R: usize> PadShape<A, L, R> for DynShape {
    type Out = DynShape;
}

/// A dim repeated `K` times (`repeat::<A, K>`, `repeat_interleave::<A, K>`): `Const<N * K>` when
/// the dim is static (a typenum product turned back into a `Const`, so at most 1024), `Dyn` when
/// it is `Dyn`.
#[diagnostic::on_unimplemented(
    message = "cannot repeat dimension `{Self}` {K} times with a compile-time size",
    label = "a static repeated size needs a compile-time product",
    note = "compile-time products need concrete sizes with a result up to 1024; for larger results or in code generic over sizes, make the dim `Dyn` (`_` in `Shape![..]`, or `as_dyn()`) or use `repeat_dyn`"
)]
pub trait TimesDim<const K: usize>: Dim {
    /// The repeated dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<P: ConstDim + StaticDim, const K: usize> TimesDim<K> for P
where
    Const<K>: StaticDim,
    Tn<P>: core::ops::Mul<Tn<Const<K>>>,
    typenum::Prod<Tn<P>, Tn<Const<K>>>: ToConst,
{
    type Out = <typenum::Prod<Tn<P>, Tn<Const<K>>> as ToConst>::Out;
}
#[diagnostic::do_not_recommend]
impl<const K: usize> TimesDim<K> for Dyn {
    type Out = Dyn;
}

/// `Self` with axis `A` repeated `K` times (`repeat::<A, K>`, `repeat_interleave::<A, K>`): dim
/// `A` becomes [`TimesDim`]'s product, the others stay.
#[diagnostic::on_unimplemented(
    message = "cannot repeat axis {A} of shape `{Self}` {K} times",
    label = "the axis must exist, and a static dim needs a repeated size up to 1024",
    note = "for repeated sizes above 1024 or in code generic over sizes, make the dim `Dyn` (`_` in `Shape![..]`, or `as_dyn()`) or use `repeat_dyn`"
)]
pub trait RepeatShape<const A: isize, const K: usize>: Shape {
    /// The repeated shape.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const A: isize, const K: usize> RepeatShape<A, K> for DynShape {
    type Out = DynShape;
}
