//! Rank rules used by `gather`, `scatter`, `index_select`, `nonzero` and `masked_fill`: equal
//! ranks, a 1-D index, the rank as a dim, and "broadcasts to without enlarging".
use super::{DynShape, ExpandShape, Shape};
use crate::dim::{Const, Dim, Dyn, One};

/// `Self` has the same rank as `S` (`gather` and `scatter` need one index dim per input dim).
/// Implemented for tuple shapes of equal rank, and for [`DynShape`] with any shape (its rank is
/// checked at run time).
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not have the same rank as `{S}`",
    label = "needs the same number of dims as `{S}`",
    note = "gather and scatter take an index (and src) with one dim per dim of the input"
)]
pub trait SameRank<S: Shape>: Shape {}

/// The rank of a shape as a dim: `Const<R>` for a tuple shape of rank `R`, `Dyn` for
/// [`DynShape`]. The column count of [`nonzero`](crate::TensorBase::nonzero).
pub trait RankDim: Shape {
    /// `Const<R>` or `Dyn`.
    type Rank: Dim;
}

macro_rules! rank_impls {
    ($r:literal; $($a:ident),*; $($b:ident),*) => {
        impl<$($a: Dim,)* $($b: Dim,)*> SameRank<($($b,)*)> for ($($a,)*) {}
        impl<$($a: Dim,)*> SameRank<DynShape> for ($($a,)*) {}
        impl<$($a: Dim,)*> SameRank<($($a,)*)> for DynShape {}
        impl<$($a: Dim,)*> RankDim for ($($a,)*) {
            type Rank = Const<$r>;
        }
    };
}
rank_impls!(0; ; );
rank_impls!(1; A0; B0);
rank_impls!(2; A0, A1; B0, B1);
rank_impls!(3; A0, A1, A2; B0, B1, B2);
rank_impls!(4; A0, A1, A2, A3; B0, B1, B2, B3);
rank_impls!(5; A0, A1, A2, A3, A4; B0, B1, B2, B3, B4);
rank_impls!(6; A0, A1, A2, A3, A4, A5; B0, B1, B2, B3, B4, B5);
#[diagnostic::do_not_recommend]
impl SameRank<DynShape> for DynShape {}
#[diagnostic::do_not_recommend]
impl RankDim for DynShape {
    type Rank = Dyn;
}

/// The shape of a 1-D index or of a vector of sample points (`index_select`, `index_add_`,
/// `index_copy_`, `index_fill_`, `trapezoid_x`): `(K,)`, of length `K`; `()`, one position (the
/// dim is kept with size 1, as PyTorch's 0-d index); or a [`DynShape`], whose runtime rank must be
/// 1 (or 0), checked at run time, of length `Dyn`.
#[diagnostic::on_unimplemented(
    message = "an index of shape `{Self}` is not 1-D",
    label = "takes a 1-D index: `(K,)`, `()` or a `DynShape` of rank 1",
    note = "PyTorch's index_select, index_add_, index_copy_ and index_fill_ take a 1-D index"
)]
pub trait VectorShape: Shape {
    /// The number of positions: `K`, `One`, or `Dyn`.
    type Len: Dim;
}
impl<K: Dim> VectorShape for (K,) {
    type Len = K;
}
impl VectorShape for () {
    type Len = One;
}
#[diagnostic::do_not_recommend]
impl VectorShape for DynShape {
    type Len = Dyn;
}

/// A mask of shape `Self` broadcasts to `S` without changing `S` (what `masked_fill` needs):
/// aligned from the right, each dim of `Self` equals that of `S` or is 1. Static dims are checked
/// at compile time ([`ExpandShape`]); `Dyn` dims and [`DynShape`] at run time.
#[diagnostic::on_unimplemented(
    message = "a mask of shape `{Self}` does not broadcast to `{S}`",
    label = "the mask must broadcast to the tensor's shape without enlarging it",
    note = "aligned from the right, each dim of the mask must equal the tensor's or be 1"
)]
pub trait ExpandsTo<S: Shape>: Shape {}
#[diagnostic::do_not_recommend]
impl<S: Shape, M: ExpandShape<S>> ExpandsTo<S> for M {}
