//! Broadcasting as PyTorch and NumPy do it, at the type level and at run time: align the shapes
//! from the right; two dims are compatible when they are equal or one of them is 1; missing
//! leading dims count as 1. No legacy rule (same element count is not enough).
//!
//! The size-1 dim that stretches is its own type, [`One`], so the dim rules are plain impls with
//! no overlap: a dim broadcasts with itself (`impl<A> BroadcastDim<A> for A`, which also holds for
//! a generic `Const<N>`, so same-shape arithmetic needs no bound in generic code), `One` with any
//! dim, and `Dyn` with any dim (checked at run time). Two different `Const` sizes have no impl: a
//! compile error naming both shapes.
use super::{DynShape, Shape, StaticRank};
use crate::dim::*;
use crate::error::{ConstMsg, ShapeError};
use core::marker::PhantomData;

/// Dim-level broadcast of `Self` with `Rhs`. `LS`/`RS` are the full shapes, threaded through
/// only so that the error names them.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{LS}` with `{RS}`: dimension `{Self}` vs `{Rhs}`",
    label = "sizes differ and neither is 1",
    note = "the size 1 that stretches is the dim `One` (`Shape![1, ..]`, `unsqueeze`, keepdim, `Tensor::from`); a `Const<1>` is an ordinary size: relabel it with `cast_shape`"
)]
pub trait BroadcastDim<Rhs, LS = (), RS = ()> {
    /// The broadcast dim.
    type Out: Dim;
}
/// The broadcasting rule of a pair of dims `(A, B)`: equal dims (the same type, so it holds for a
/// generic `Const<N>` and for a name too), `One` with anything, `Dyn` with anything (checked at
/// run time; the result keeps a name). Two different names, or a name and a static size, have no
/// impl.
/// `LS`/`RS` are the full shapes of the operation, for the messages of the traits that use it.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{LS}` with `{RS}`: the dims `{Self}` differ",
    label = "sizes differ and neither is 1",
    note = "a product dim with a name or `_` in it meets only itself, `_` and 1; one of static sizes meets the size it equals"
)]
pub trait BroadcastPair<LS, RS> {
    /// The broadcast dim.
    type Out: Dim;
}
impl<A: Dim, LS, RS> BroadcastPair<LS, RS> for (A, A) {
    type Out = A;
}
impl<const N: usize, LS, RS> BroadcastPair<LS, RS> for (One, Const<N>) {
    type Out = Const<N>;
}
impl<const N: usize, LS, RS> BroadcastPair<LS, RS> for (Const<N>, One) {
    type Out = Const<N>;
}
impl<const N: usize, LS, RS> BroadcastPair<LS, RS> for (Const<N>, Dyn) {
    type Out = Const<N>;
}
impl<const N: usize, LS, RS> BroadcastPair<LS, RS> for (Dyn, Const<N>) {
    type Out = Const<N>;
}
impl<LS, RS> BroadcastPair<LS, RS> for (One, Dyn) {
    type Out = Dyn;
}
impl<N: Tagged, LS, RS> BroadcastPair<LS, RS> for (N, One) {
    type Out = N;
}
impl<N: Tagged, LS, RS> BroadcastPair<LS, RS> for (One, N) {
    type Out = N;
}
impl<N: Tagged, LS, RS> BroadcastPair<LS, RS> for (N, Dyn) {
    type Out = N;
}
impl<N: Tagged, LS, RS> BroadcastPair<LS, RS> for (Dyn, N) {
    type Out = N;
}
impl<LS, RS> BroadcastPair<LS, RS> for (Dyn, One) {
    type Out = Dyn;
}
prod_const_pairs!(BroadcastPair);

/// A dim rule defined by [`BroadcastPair`]: one blanket impl (marked `do_not_recommend`, so an
/// error names this rule's own message and the two shapes rather than the pair rule).
macro_rules! broadcast_dim_rule {
    ($tr:ident) => {
        #[diagnostic::do_not_recommend]
        impl<A: Dim, B: Dim, LS, RS> $tr<B, LS, RS> for A
        where
            (A, B): $crate::shape::BroadcastPair<LS, RS>,
        {
            type Out = <(A, B) as $crate::shape::BroadcastPair<LS, RS>>::Out;
        }
    };
}
pub(crate) use broadcast_dim_rule;
broadcast_dim_rule!(BroadcastDim);

/// Shape-level broadcast (generated for every pair of ranks 0..=6; [`DynShape`] with any shape,
/// giving [`DynShape`], checked at run time). Every shape broadcasts with itself (a supertrait of
/// [`Shape`]), so `x + x` needs no bound in code generic over `S: Shape`.
#[diagnostic::on_unimplemented(
    message = "cannot broadcast `{Self}` with `{Rhs}`",
    label = "incompatible shapes",
    note = "shapes broadcast when, aligned from the right, each pair of sizes is equal or one of them is 1",
    note = "in code generic over shapes, add the bound `{Self}: BroadcastShape<{Rhs}>` (the result shape is `Broadcast<{Self}, {Rhs}>`), or use the same shape type on both sides"
)]
pub trait BroadcastShape<Rhs> {
    /// The broadcast shape (named `Output`, not `Out`, so that `S::Out` in generic code still
    /// names the one other shape rule in its bounds).
    type Output: Shape;
}
#[diagnostic::do_not_recommend]
impl BroadcastShape<DynShape> for DynShape {
    type Output = DynShape;
}

/// `Self` and `Rhs` are the same shape, with no broadcasting: the rule of the strict element-wise
/// forms (`add_same`, ...), of `matmul_out`'s output and of a loss's target against its input.
/// Same rank, and each pair of dims equal (a `Dyn` side is checked at run time, a name meets
/// itself and `Dyn`; [`DynShape`] on either side too).
#[diagnostic::on_unimplemented(
    message = "`{Self}` and `{Rhs}` are not the same shape",
    label = "these shapes must be equal: a loss's target, the `*_same` forms and `matmul_out`'s `out` never broadcast",
    note = "use `+ - * /` (or `add`, `sub`, ...) to broadcast, or reshape an operand first (`squeeze`, `unsqueeze`)"
)]
pub trait SameShape<Rhs> {}
/// A dim of [`SameShape`]: equal, or `Dyn` on either side.
#[diagnostic::on_unimplemented(
    message = "`{LS}` and `{RS}` are not the same shape: dimension `{Self}` vs `{Rhs}`",
    label = "these shapes must be equal: a loss's target, the `*_same` forms and `matmul_out`'s `out` never broadcast"
)]
pub trait SameDimStrict<Rhs, LS, RS> {}
#[diagnostic::do_not_recommend]
impl<A: Dim, LS, RS> SameDimStrict<A, LS, RS> for A {}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> SameDimStrict<Dyn, LS, RS> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> SameDimStrict<Const<N>, LS, RS> for Dyn {}
#[diagnostic::do_not_recommend]
impl<LS, RS> SameDimStrict<Dyn, LS, RS> for One {}
#[diagnostic::do_not_recommend]
impl<LS, RS> SameDimStrict<One, LS, RS> for Dyn {}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> SameDimStrict<Dyn, LS, RS> for N {}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> SameDimStrict<N, LS, RS> for Dyn {}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, const N: usize, LS, RS> SameDimStrict<Const<N>, LS, RS> for Prod<A, B> where
    Prod<A, B>: FixedProduct
{
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, const N: usize, LS, RS> SameDimStrict<Prod<A, B>, LS, RS> for Const<N> where
    Prod<A, B>: FixedProduct
{
}
#[diagnostic::do_not_recommend]
impl SameShape<DynShape> for DynShape {}

/// The shape of broadcasting `A` with `B`.
pub type Broadcast<A, B> = <A as BroadcastShape<B>>::Output;

/// Dim-level `expand`: a size-1 dim expands to any size; another size only to itself; a `Dyn` dim
/// to anything (checked at run time), and anything to `Dyn`.
#[diagnostic::on_unimplemented(
    message = "cannot expand `{LS}` to `{RS}`: dimension `{Self}` cannot become `{Target}`",
    label = "only size-1 dims can be expanded",
    note = "expand aligns the shapes from the right; each dim must equal the target or be 1"
)]
pub trait ExpandDim<Target, LS = (), RS = ()> {
    /// The target dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, LS, RS> ExpandDim<A, LS, RS> for A {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> ExpandDim<Const<N>, LS, RS> for One {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> ExpandDim<Dyn, LS, RS> for One {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> ExpandDim<Const<N>, LS, RS> for Dyn {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> ExpandDim<One, LS, RS> for Dyn {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> ExpandDim<Dyn, LS, RS> for Const<N> {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> ExpandDim<N, LS, RS> for One {
    type Out = N;
}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> ExpandDim<N, LS, RS> for Dyn {
    type Out = N;
}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> ExpandDim<Dyn, LS, RS> for N {
    type Out = Dyn;
}

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

pub use crate::layout::broadcast_sizes;

/// Checks that the dims of one name ([`DimName`]) have one size where shapes `A` and `B` meet
/// aligned from the right, with runtime sizes `a` and `b` (broadcasting; and matmul with `tail` =
/// 2: its inner dims, and its batch dims, the last 2 dims left out of each operand of rank 2 or
/// more). A runtime size 1 does
/// not stretch a name: both operands claim the same dim. Compiled out when either shape has no
/// name.
///
/// # Errors
/// [`ShapeError::NamedDim`] naming the name, its position in the result and both sizes.
#[inline(always)]
pub(crate) fn check_names<A: Shape, B: Shape>(a: &[usize], b: &[usize], tail: usize) -> Result<(), ShapeError> {
    if const { A::NAMED && B::NAMED } {
        check_names_at(&A::NAMES, &B::NAMES, a, b, tail)
    } else {
        Ok(())
    }
}

/// Checks that the dims of one name have one size where shapes `A` and `B` of one rank must agree
/// position by position (`cat`'s dims other than `skip`, a loss's target against its input;
/// `skip` = `usize::MAX` for none). Compiled out when either shape has no name.
///
/// # Errors
/// [`ShapeError::NamedDim`] naming the name, its position and both sizes.
#[inline(always)]
pub(crate) fn check_names_equal<A: Shape, B: Shape>(a: &[usize], b: &[usize], skip: usize) -> Result<(), ShapeError> {
    if const { A::NAMED && B::NAMED } {
        check_names_equal_at(&A::NAMES, &B::NAMES, a, b, skip)
    } else {
        Ok(())
    }
}

#[cold]
#[inline(never)]
fn check_names_equal_at(
    na: &[Option<&'static str>],
    nb: &[Option<&'static str>],
    a: &[usize],
    b: &[usize],
    skip: usize,
) -> Result<(), ShapeError> {
    for i in (0..a.len().min(b.len())).filter(|&i| i != skip) {
        name_clash((na[i], a[i]), (nb[i], b[i]), i)?;
    }
    Ok(())
}

/// A dim named `x` of size `p` meeting one named `y` of size `q`, reported at `axis`: an error
/// when the names are one and the sizes differ.
#[inline(always)]
fn name_clash(
    (x, p): (Option<&'static str>, usize),
    (y, q): (Option<&'static str>, usize),
    axis: usize,
) -> Result<(), ShapeError> {
    match (x, y) {
        (Some(x), Some(y)) if x == y && p != q => Err(ShapeError::NamedDim { name: x, axis, lhs: p, rhs: q }),
        _ => Ok(()),
    }
}

#[cold]
#[inline(never)]
fn check_names_at(
    na: &[Option<&'static str>],
    nb: &[Option<&'static str>],
    a: &[usize],
    b: &[usize],
    tail: usize,
) -> Result<(), ShapeError> {
    // Matmul's inner dims: the left operand's last against the right one's first of its last
    // two (its only dim when it is 1-D); reported as the left operand's last dim.
    if tail == 2 && !a.is_empty() && !b.is_empty() {
        let (ia, ib) = (a.len() - 1, b.len().saturating_sub(2));
        name_clash((na[ia], a[ia]), (nb[ib], b[ib]), ia)?;
    }
    // A 1-D matmul operand has no batch dims.
    let ta = if a.len() >= 2 { tail } else { a.len() };
    let tb = if b.len() >= 2 { tail } else { b.len() };
    let (ra, rb) = (a.len() - ta, b.len() - tb);
    let r = ra.max(rb);
    for i in 1..=ra.min(rb) {
        let (ia, ib) = (ra - i, rb - i);
        name_clash((na[ia], a[ia]), (nb[ib], b[ib]), r - i)?;
    }
    Ok(())
}

/// The build-time half of a product dim meeting a static size ([`Prod`]): `ProductCheck::<A, B,
/// TAIL>::OK` is `()` unless a product dim of static factors in one shape meets, where `A` and
/// `B` meet, a static size in the other that is neither its size nor 1; a compile error at
/// `cargo build` naming both sizes and both shapes otherwise. The shapes meet from the right
/// (broadcasting, `TAIL = 0`) or, for matmul (`TAIL = 2`), at the inner dims (the left operand's
/// last, the right one's second-to-last) and the batch dims before the last two. The sizes are
/// compared at run time in any case.
pub struct ProductCheck<A, B, const TAIL: usize>(PhantomData<(A, B)>);
impl<A: Shape, B: Shape, const TAIL: usize> ProductCheck<A, B, TAIL> {
    /// `()`, or the build error.
    pub const OK: () = if let Some(m) = product_error::<A, B>(TAIL) {
        m.fail()
    };
}

/// The build error of [`ProductCheck`], if any.
const fn product_error<A: Shape, B: Shape>(tail: usize) -> Option<ConstMsg> {
    let (Some(ra), Some(rb)) = (A::RANK, B::RANK) else { return None };
    if tail == 2 && ra > 0 && rb > 0 {
        let ib = rb.saturating_sub(2);
        if let Some(m) = product_pair::<A, B>(ra - 1, ib) {
            return Some(m);
        }
    }
    let ta = if ra >= 2 { tail } else { ra };
    let tb = if rb >= 2 { tail } else { rb };
    let (ra, rb) = (ra - ta, rb - tb);
    let mut i = 1;
    while i <= ra && i <= rb {
        if let Some(m) = product_pair::<A, B>(ra - i, rb - i) {
            return Some(m);
        }
        i += 1;
    }
    None
}

/// Dim `ia` of `A` against dim `ib` of `B`: a product against a static size other than it and 1.
const fn product_pair<A: Shape, B: Shape>(ia: usize, ib: usize) -> Option<ConstMsg> {
    let (p, n, pa) = match (A::PRODUCTS[ia], B::STATIC[ib], B::PRODUCTS[ib], A::STATIC[ia]) {
        (Some(p), Some(n), _, _) => (p, n, true),
        (_, _, Some(p), Some(n)) => (p, n, false),
        _ => return None,
    };
    if p == n || n == 1 {
        return None;
    }
    let (ip, is) = if pa { (ia, ib) } else { (ib, ia) };
    let m = ConstMsg::new().str("a product dim of static size ").num(p).str(" (dim ").num(ip).str(" of ");
    let m =
        if pa { m.shape_named(&A::STATIC, &A::NAMES, A::RANK) } else { m.shape_named(&B::STATIC, &B::NAMES, B::RANK) };
    let m = m.str(") meets the static size ").num(n).str(" (dim ").num(is).str(" of ");
    let m =
        if pa { m.shape_named(&B::STATIC, &B::NAMES, B::RANK) } else { m.shape_named(&A::STATIC, &A::NAMES, A::RANK) };
    Some(m.str("): the flattened sizes differ from what the other operand expects"))
}
