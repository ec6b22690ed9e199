//! Element-count rule of `reshape`/`view` into a tuple shape.
//!
//! The rule has two halves. [`ReshapeTo`] is the trait bound: the target is a tuple shape (its
//! rank in the type), checked at `cargo check` time. The element counts are compared by
//! [`NumelCheck`], a `const` evaluated for the concrete shapes when the program is built, so that
//! every static size works (not only those inside typenum's bridge) and a generic `Const<N>`
//! reshape is checked where it is instantiated. One `_` dim of the target is inferred from the
//! element count, as PyTorch's `-1`: `[6, 16, 2, 2]` into `[_, 64]` is `[6, 64]`. When the source
//! has a run-time dim (or is a [`DynShape`]) the counts are compared at run time.
use super::{static_dim, DynShape, Shape, StaticRank};
use crate::error::ConstMsg;
use crate::limits::MAX_RANK;
use core::marker::PhantomData;

/// `Self` can be reshaped into `Dst` (`reshape`, `view`): `Dst` is a tuple shape with at most one
/// `_` dim, which is inferred from the element count (PyTorch's `-1`). When `Self` is fully
/// static, the element counts are compared when the program is built ([`NumelCheck`]): a
/// mismatch is a build error naming both shapes and both counts. Otherwise they are compared at
/// run time.
#[diagnostic::on_unimplemented(
    message = "cannot reshape `{Self}` into `{Dst}` with a typed reshape: the target has no rank in its type",
    label = "the target must be a tuple shape such as `Shape![_, 64]`",
    note = "a `_` dim of the target is inferred from the element count, as PyTorch's `-1`; for a run-time rank use `reshape_dyn(&[..])`"
)]
pub trait ReshapeTo<Dst: Shape>: Shape {}
#[diagnostic::do_not_recommend]
impl<S: StaticRank, Dst: StaticRank> ReshapeTo<Dst> for S {}
#[diagnostic::do_not_recommend]
impl<Dst: StaticRank> ReshapeTo<Dst> for DynShape {}

/// The build-time half of [`ReshapeTo`]: `NumelCheck::<S, D>::OK` is `()` when `D` has at most
/// one `_` dim and, for a fully static `S`, the element counts agree (equal, or with a `_` in
/// `D`, a multiple of `D`'s other sizes); a compile error (evaluated for the concrete shapes, at
/// `cargo build`) naming both shapes and counts otherwise:
/// `cannot reshape [2, 3] (6 elements) into [4, 2] (8 elements)`,
/// `cannot reshape [6, 16, 2, 2] (384 elements) into [_, 7]: 384 is not a multiple of 7`.
pub struct NumelCheck<S, D>(PhantomData<(S, D)>);
impl<S: Shape, D: Shape> NumelCheck<S, D> {
    /// `()`, or the build error.
    pub const OK: () = if let Some(m) = reshape_error::<S, D>() {
        m.fail()
    };
    /// Both shapes fully static: the target's sizes are its type's, with no run-time work.
    pub(crate) const BOTH_STATIC: bool =
        static_numel(&S::STATIC, S::RANK).is_some() && static_numel(&D::STATIC, D::RANK).is_some();
}

/// The build error of reshaping `S` into `D`, if any (see [`NumelCheck`]).
const fn reshape_error<S: Shape, D: Shape>() -> Option<ConstMsg> {
    // A named dim of the target that the source has takes the source's size: not inferred.
    let dyns = count_dyn(&D::STATIC, D::RANK) - count_shared_names::<S, D>();
    let into = head::<S>().str(" into ").shape_named(&D::STATIC, &D::NAMES, D::RANK);
    if let Some(name) = dropped_name::<S, D>() {
        return Some(
            into.str(": the named dim `")
                .str(name)
                .str("` is not in the target (a reshape keeps every name; `cast_shape` it to `_` first to regroup it)"),
        );
    }
    let Some(n) = static_numel(&S::STATIC, S::RANK) else {
        return if dyns > 1 { Some(into.str(TWO_INFERRED)) } else { None };
    };
    match (dyns, static_numel_known(&D::STATIC, D::RANK)) {
        (2.., _) => Some(into.str(TWO_INFERRED)),
        (1, Some(0)) => Some(into.str(AMBIGUOUS)),
        (1, Some(k)) if n % k == 0 => None,
        (1, Some(k)) => Some(into.str(": ").num(n).str(" is not a multiple of ").num(k)),
        (1, None) => Some(into.str(": its sizes multiply past a usize")),
        _ if same_numel(&S::STATIC, S::RANK, &D::STATIC, D::RANK) => None,
        _ => Some(with_count(into, &D::STATIC, D::RANK)),
    }
}

/// The reason given when a target has two `_` dims.
const TWO_INFERRED: &str = ": only one `_` dim can be inferred (PyTorch's -1); name the others";
/// The reason given when the `_` dim could be any size.
const AMBIGUOUS: &str = ": the `_` dim is ambiguous when the other sizes multiply to 0";

/// Whether two names are the same (`str` equality is not `const`).
pub(crate) const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The position of the dim named `name` in the first `rank` entries of `names`.
pub(crate) const fn name_position(names: &[Option<&'static str>; MAX_RANK], rank: usize, name: &str) -> Option<usize> {
    let mut i = 0;
    while i < rank {
        if let Some(n) = names[i] {
            if same_name(n, name) {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

/// The number of named dims of `D` that `S` has too (their sizes come from `S`).
const fn count_shared_names<S: Shape, D: Shape>() -> usize {
    let (Some(sr), Some(dr)) = (S::RANK, D::RANK) else { return 0 };
    let (mut n, mut i) = (0, 0);
    while i < dr {
        if let Some(name) = D::NAMES[i] {
            if name_position(&S::NAMES, sr, name).is_some() {
                n += 1;
            }
        }
        i += 1;
    }
    n
}

/// A named dim of `S` that `D` does not have: a reshape that would regroup it.
const fn dropped_name<S: Shape, D: Shape>() -> Option<&'static str> {
    let (Some(sr), Some(dr)) = (S::RANK, D::RANK) else { return None };
    let mut i = 0;
    while i < sr {
        if let Some(name) = S::NAMES[i] {
            if name_position(&D::NAMES, dr, name).is_none() {
                return Some(name);
            }
        }
        i += 1;
    }
    None
}

/// The target sizes `to` (from [`request`]) with each named dim that the source has given the
/// source's size `sizes` of that name.
pub(crate) fn fill_names<S: Shape, D: Shape>(to: &mut [isize], sizes: &[usize]) {
    let Some(sr) = S::RANK else { return };
    for (i, t) in to.iter_mut().enumerate() {
        if let Some(j) = D::NAMES[i].and_then(|n| name_position(&S::NAMES, sr, n)) {
            *t = sizes[j] as isize;
        }
    }
}

/// Checks that a reshape from `from` (shape `S`) into `to` (shape `D`) keeps each named dim of
/// `S` whole: `D` has it, and the dims before it hold as many elements in both, so that the name
/// still indexes the same slices of the data (a reshape that drops a name, moves it, `[Batch,
/// Seq] -> [Seq, Batch]`, or regroups it, is refused).
///
/// # Errors
/// [`ShapeError::ReshapeName`] naming the dim and both sizes.
pub(crate) fn check_names_kept<S: Shape, D: Shape>(from: &[usize], to: &[usize]) -> Result<(), crate::ShapeError> {
    let Some(sr) = S::RANK else { return Ok(()) };
    for j in 0..sr {
        let Some(name) = S::NAMES[j] else { continue };
        let err = || crate::ShapeError::ReshapeName { name, from: from.into(), to: to.into() };
        let Some(i) = name_position(&D::NAMES, to.len(), name) else { return Err(err()) };
        let before = |s: &[usize]| s.iter().try_fold(1usize, |a, &b| a.checked_mul(b));
        if before(&from[..j]) != before(&to[..i]) || from[j] != to[i] {
            return Err(err());
        }
    }
    Ok(())
}

/// `cannot reshape [6, 16, 2, 2] (384 elements)`: the start of every build error.
const fn head<S: Shape>() -> ConstMsg {
    let m = ConstMsg::new().str("cannot reshape ").shape_named(&S::STATIC, &S::NAMES, S::RANK);
    if count_dyn(&S::STATIC, S::RANK) == 0 && S::RANK.is_some() {
        with_count(m, &S::STATIC, S::RANK)
    } else {
        m
    }
}

/// The number of `_` dims of a tuple shape (0 for [`DynShape`], whose rank is unknown).
const fn count_dyn(st: &[Option<usize>; MAX_RANK], rank: Option<usize>) -> usize {
    let Some(rank) = rank else { return 0 };
    let (mut n, mut i) = (0, 0);
    while i < rank {
        if st[i].is_none() {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The product of a tuple shape's static sizes (its `_` dims skipped), `None` on overflow or for
/// [`DynShape`].
const fn static_numel_known(st: &[Option<usize>; MAX_RANK], rank: Option<usize>) -> Option<usize> {
    let Some(rank) = rank else { return None };
    let (mut n, mut i) = (1usize, 0);
    while i < rank {
        if let Some(d) = st[i] {
            n = match n.checked_mul(d) {
                Some(m) => m,
                None => return None,
            };
        }
        i += 1;
    }
    Some(n)
}

/// The sizes a reshape into `D` asks for, as `reshape_dyn` takes them: each static size, `-1`
/// for the `_` dim; and the rank.
pub(crate) fn request<D: Shape>() -> ([isize; MAX_RANK], usize) {
    (D::STATIC.map(|d| d.map_or(-1, |n| n as isize)), D::RANK.unwrap_or(0))
}

/// The element count of a static shape, `None` when a dim is not static or the product
/// overflows `usize`.
const fn static_numel(st: &[Option<usize>; MAX_RANK], rank: Option<usize>) -> Option<usize> {
    if count_dyn(st, rank) > 0 {
        None
    } else {
        static_numel_known(st, rank)
    }
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

/// The build-time check of `unflatten(axis, sizes)` where the axis's position `A` and the sizes'
/// shape `S2` are known when the program is built ([`UnflattenAxis::AT`](super::UnflattenAxis)):
/// `S2` has at most one `_` dim and, when dim `A` of `S` is static, `S2`'s sizes multiply to it
/// (or, with a `_`, divide it). A compile error at `cargo build` naming the shapes and the sizes
/// otherwise: `cannot unflatten dim 1 (size 12) of [2, 12] into [5, _]: 12 is not a multiple of 5`.
pub struct UnflattenCheck<S, X, M, U>(PhantomData<(S, X, M, U)>);
impl<S: super::UnflattenAxis<X, M, U>, X, M, U> UnflattenCheck<S, X, M, U> {
    /// `()`, or the build error.
    pub const OK: () = if let Some(a) = <S as super::UnflattenAxis<X, M, U>>::AT {
        if let Some(m) = unflatten_error::<S, <S as super::UnflattenAxis<X, M, U>>::Target>(a) {
            m.fail()
        }
    };
}

/// The build error of `unflatten` at position `a` into `S2` on `S`, if any (see [`UnflattenCheck`]).
const fn unflatten_error<S: Shape, S2: Shape>(a: isize) -> Option<ConstMsg> {
    let dyns = count_dyn(&S2::STATIC, S2::RANK);
    // The axis is checked by the `Unflatten` rule for tuple shapes; a `DynShape` has no static
    // dim to compare.
    let dim = match static_dim::<S>(a) {
        Some((_, n)) => Some(n),
        None => None,
    };
    let mut m = ConstMsg::new().str("cannot unflatten dim ");
    m = if a < 0 { m.str("-").num(a.unsigned_abs()) } else { m.num(a as usize) };
    if let Some(n) = dim {
        m = m.str(" (size ").num(n).str(")");
    }
    m = m.str(" of ").shape(&S::STATIC, S::RANK).str(" into ").shape(&S2::STATIC, S2::RANK);
    let Some(n) = dim else {
        return if dyns > 1 { Some(m.str(TWO_INFERRED)) } else { None };
    };
    match (dyns, static_numel_known(&S2::STATIC, S2::RANK)) {
        (2.., _) => Some(m.str(TWO_INFERRED)),
        (0, Some(k)) if k == n => None,
        (0, Some(k)) => Some(m.str(": ").num(k).str(" elements, not ").num(n)),
        (1, Some(0)) => Some(m.str(AMBIGUOUS)),
        (1, Some(k)) if n % k == 0 => None,
        (1, Some(k)) => Some(m.str(": ").num(n).str(" is not a multiple of ").num(k)),
        _ => Some(m.str(": its sizes multiply past a usize")),
    }
}
