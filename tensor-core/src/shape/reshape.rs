//! Element-count rule of `reshape`/`view` between static shapes.
//!
//! The rule has two halves. [`ReshapeTo`] is the trait bound: both shapes fully static (no `_`
//! dim), checked at `cargo check` time. The element counts are compared by [`NumelCheck`], a
//! `const` evaluated for the concrete shapes when the program is built, so that every static size
//! works (not only those inside typenum's bridge) and a generic `Const<N>` reshape is checked
//! where it is instantiated.
use super::{AllStatic, Shape};
use crate::error::ConstMsg;
use crate::limits::MAX_RANK;
use core::marker::PhantomData;

/// `Self` can be reshaped into `Dst` at compile time: both shapes are fully static. Their
/// element counts are compared when the program is built ([`NumelCheck`]): a mismatch is a
/// build error naming both shapes and both counts.
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{Self}` into `{Dst}` with a static reshape: a shape has a run-time (`_`) dim",
    label = "both shapes must be fully static",
    note = "for run-time shapes use `into_dyn()` and `reshape_dyn(&[..])`, checked at run time"
)]
pub trait ReshapeTo<Dst: Shape>: Shape {}
#[diagnostic::do_not_recommend]
impl<S: AllStatic, Dst: AllStatic> ReshapeTo<Dst> for S {}

/// The build-time half of [`ReshapeTo`]: `NumelCheck::<S, D>::OK` is `()` when `S` and `D` hold
/// the same number of elements, and a compile error (evaluated for the concrete shapes, at
/// `cargo build`) naming both shapes and counts otherwise:
/// `cannot reshape [2, 3] (6 elements) into [4, 2] (8 elements)`.
pub struct NumelCheck<S, D>(PhantomData<(S, D)>);
impl<S: Shape, D: Shape> NumelCheck<S, D> {
    /// `()`, or the build error.
    pub const OK: () = if !same_numel(&S::STATIC, S::RANK, &D::STATIC, D::RANK) {
        let m = with_count(ConstMsg::new().str("cannot reshape ").shape(&S::STATIC, S::RANK), &S::STATIC, S::RANK);
        with_count(m.str(" into ").shape(&D::STATIC, D::RANK), &D::STATIC, D::RANK).fail()
    };
}

/// The element count of a static shape, `None` when a dim is not static or the product
/// overflows `usize`.
const fn static_numel(st: &[Option<usize>; MAX_RANK], rank: Option<usize>) -> Option<usize> {
    let Some(rank) = rank else { return None };
    let (mut n, mut i) = (1usize, 0);
    while i < rank {
        let Some(d) = st[i] else { return None };
        n = match n.checked_mul(d) {
            Some(m) => m,
            None => return None,
        };
        i += 1;
    }
    Some(n)
}

/// Both shapes static with the same element count.
const fn same_numel(
    s: &[Option<usize>; MAX_RANK],
    sr: Option<usize>,
    d: &[Option<usize>; MAX_RANK],
    dr: Option<usize>,
) -> bool {
    matches!((static_numel(s, sr), static_numel(d, dr)), (Some(a), Some(b)) if a == b)
}

/// ` (n elements)` appended.
const fn with_count(m: ConstMsg, st: &[Option<usize>; MAX_RANK], rank: Option<usize>) -> ConstMsg {
    match static_numel(st, rank) {
        Some(n) => m.str(" (").num(n).str(" elements)"),
        None => m.str(" (more elements than a usize counts)"),
    }
}

/// Equal element counts (type equality of the two typenum products).
#[deprecated(
    since = "0.1.0",
    note = "no longer used: `ReshapeTo` compares element counts when the program is built (`NumelCheck`), for every static size"
)]
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{S}` into `{D}`: element counts differ",
    label = "element counts differ",
    note = "a reshape must keep the number of elements"
)]
pub trait SameNumel<S, D> {}
#[allow(deprecated)]
impl<N, S, D> SameNumel<S, D> for (N, N) {}
