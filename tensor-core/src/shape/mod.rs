//! Shapes: tuples of dims of rank 0..=6 (rank and static sizes in the type) and [`DynShape`]
//! (rank and sizes known only at run time).
//!
//! The rules that compute result shapes live beside this file: [`broadcast`] (element-wise
//! operators, `expand`), [`reshape`] (element counts), [`axes`] (removing, inserting, swapping
//! and permuting axes; matmul). Each is a trait whose `#[diagnostic::on_unimplemented]` message
//! names the shapes involved, so a mismatch is a readable error at `cargo check` time.
use crate::dim::*;
use crate::error::ShapeError;
use crate::layout::{Layout, LayoutRepr, RowMajor};
use crate::storage::{ArrLevel, Element, Scalar};
use alloc::string::String;
use core::fmt;

pub mod axes;
pub mod axis_arg;
pub mod axis_list;
pub mod broadcast;
pub mod conv;
pub mod linalg;
pub mod rank;
pub mod reshape;

pub use axes::*;
pub use axis_arg::*;
pub use axis_list::*;
pub use broadcast::*;
pub use conv::*;
pub use linalg::*;
pub use rank::*;
pub use reshape::*;

pub use crate::limits::MAX_RANK;

/// A tensor shape type: a tuple of [`Dim`]s (`Shape![2, _, 3]`) or [`DynShape`].
///
/// Every shape broadcasts with itself to itself (the supertrait), so element-wise operators on two
/// tensors of one shape type need no other bound in generic code:
/// `fn double<S: Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> { x + x }`.
pub trait Shape: Copy + Default + fmt::Debug + Send + Sync + 'static + BroadcastShape<Self, Output = Self> {
    /// `Some(rank)` for tuple shapes, `None` for [`DynShape`].
    const RANK: Option<usize>;
    /// The static size of each dim (`None` for `Dyn` dims, for [`DynShape`], and past the rank).
    const STATIC: [Option<usize>; MAX_RANK];
    /// The row-major layout of the static sizes (meaningful for fully static shapes, which inline
    /// storage uses; a `Dyn` dim counts as size 1).
    const ROW_MAJOR: Layout = Layout::row_major_const(
        &Self::STATIC,
        match Self::RANK {
            Some(r) => r,
            None => 0,
        },
    );
    /// The name of each named dim ([`DimName`]; `None` for the other dims, for [`DynShape`] and
    /// past the rank).
    const NAMES: [Option<&'static str>; MAX_RANK] = [None; MAX_RANK];
    /// The static size of each product dim of static factors ([`Dim::PRODUCT`]; `None` for
    /// every other dim and past the rank).
    const PRODUCTS: [Option<usize>; MAX_RANK] = [None; MAX_RANK];
    /// Whether any dim is named (the runtime checks of names are compiled out otherwise).
    const NAMED: bool = {
        let mut i = 0;
        let mut any = false;
        while i < MAX_RANK {
            any |= Self::NAMES[i].is_some();
            i += 1;
        }
        any
    };
    /// How inline storage of this shape stores its layout: [`RowMajor`]
    /// when every dim is static, a [`Layout`] otherwise.
    type InlineLay: LayoutRepr;
    /// The nested array type of a tensor of this shape with elements `T` (`[[T; 3]; 2]` for
    /// `Shape![2, 3]`), or the heap marker when a dim is `Dyn`: see
    /// [`ArrLevel`] and [`STensor`](crate::STensor).
    type Arr<T: Element>: ArrLevel<Elem = T>;

    /// The shape as text: `[2, _, 3]` for a tuple shape (`_` is a runtime dim, a named one shows its
    /// name: `[Batch, 3]`), `[..]` for [`DynShape`].
    fn describe() -> String {
        use core::fmt::Write;
        let Some(rank) = Self::RANK else {
            return "[..]".into();
        };
        let mut s = String::from("[");
        for (i, d) in Self::STATIC[..rank].iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            match (d, Self::NAMES[i]) {
                (Some(n), _) => write!(s, "{n}").unwrap(),
                (None, Some(name)) => s.push_str(name),
                (None, None) => s.push('_'),
            }
        }
        s.push(']');
        s
    }

    /// Checks runtime sizes against this shape type: the rank, every static size, and the size
    /// of every product dim of static factors.
    ///
    /// # Errors
    /// [`ShapeError::RankTooLarge`] for more than [`MAX_RANK`] sizes; [`ShapeError::ShapeMismatch`]
    /// naming the expected shape and the given sizes.
    fn check_sizes(sizes: &[usize]) -> Result<(), ShapeError> {
        if sizes.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: sizes.len() });
        }
        let ok = match Self::RANK {
            None => sizes.len() <= MAX_RANK,
            Some(r) => {
                sizes.len() == r
                    && sizes.iter().zip(Self::STATIC.iter()).all(|(n, s)| s.is_none_or(|s| s == *n))
                    && sizes.iter().zip(Self::PRODUCTS.iter()).all(|(n, s)| s.is_none_or(|s| s == *n))
            }
        };
        if ok {
            Ok(())
        } else {
            Err(ShapeError::ShapeMismatch { expected: Self::describe(), got: sizes.into() })
        }
    }
}

/// A shape whose rank and sizes are known only at run time (up to [`MAX_RANK`] dims): the
/// dynamic fallback. It shares storage, layout and kernels with the static shapes.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DynShape;
impl fmt::Debug for DynShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[..]")
    }
}
#[diagnostic::do_not_recommend]
impl Shape for DynShape {
    const RANK: Option<usize> = None;
    const STATIC: [Option<usize>; MAX_RANK] = [None; MAX_RANK];
    type InlineLay = Layout;
    type Arr<T: Element> = crate::storage::Heap<T>;
}

/// Tuple shapes (rank in the type). Maps the tuple to a type-level list for the recursive
/// indexing rules.
pub trait StaticRank: Shape {
    /// `Cons<D0, Cons<D1, Nil>>` for `(D0, D1)`.
    type List;
}

/// A coordinate that fits shape `S`: an array of `R` integers of any integer type (`[i, j]` with
/// `i: u32` works; negative coordinates count from the end, as PyTorch's `x[-1, 0]`) for a tuple
/// shape of rank `R`, or of any length for [`DynShape`] (its rank is checked at run time).
#[diagnostic::on_unimplemented(
    message = "an index `{Self}` does not fit shape `{S}`",
    label = "the index must be an array of integers, one per dimension",
    note = "any integer type works (`[i, j]` with `i: u32`); negative coordinates count from the end"
)]
pub trait ElemIndex<S: Shape> {
    /// The coordinates, as given (for the run-time check against the sizes).
    fn coords(&self) -> &[impl crate::element::ToIndex];
}
#[diagnostic::do_not_recommend]
impl<I: crate::element::ToIndex, const R: usize> ElemIndex<DynShape> for [I; R] {
    #[inline(always)]
    fn coords(&self) -> &[impl crate::element::ToIndex] {
        self
    }
}

/// Every dim is `Const<N>` (any `N`): the sizes come from the type alone.
#[diagnostic::on_unimplemented(
    message = "shape `{Self}` has runtime dims, so its sizes are not in the type",
    label = "this needs a fully static shape",
    note = "use the `*_sized` constructor (for example `zeros_sized(&[n, 3])`) for shapes with `_` dims"
)]
pub trait AllStatic: StaticRank {}

/// Every static dim of the shape is inside typenum's `const-generics` bridge (0..=1024, 2^k,
/// 2^k - 1, 10^k; see [`crate::dim`]), so literal bounds on it can be checked at `cargo check`
/// time: what `narrow_const`/`select_const` need for their compile-time form. `Dyn` and [`One`]
/// dims and [`DynShape`] qualify; a generic `Const<N>` does not (its calls take the run-time form).
pub trait BridgeShape: Shape {}
impl BridgeShape for DynShape {}
/// A dim for [`BridgeShape`].
pub trait BridgeDim: Dim {}
impl<const N: usize> BridgeDim for Const<N> where Const<N>: StaticDim {}
impl BridgeDim for One {}
impl BridgeDim for Dyn {}
impl<N: Tagged> BridgeDim for N {}

/// `Self` may be relabelled as `Target` without touching the data ([`cast_shape`]): the same
/// rank, and each pair of dims has the same size (`Const<1>` and [`One`] are both size 1; a `Dyn`
/// on either side is checked at run time).
///
/// [`cast_shape`]: crate::TensorBase::cast_shape
#[diagnostic::on_unimplemented(
    message = "cannot cast shape `{Self}` to `{Target}`",
    label = "the ranks or the static sizes differ",
    note = "a cast keeps the rank and every size; use `reshape` or `view` to change them"
)]
pub trait CastShape<Target: Shape>: Shape {}

/// Fully static shape with its element count as a typenum number.
#[diagnostic::on_unimplemented(
    message = "shape `{Self}` is not fully static within 0..=1024 per dim (or a power of two or ten)",
    note = "compile-time reshape needs every dim to be static; use `into_dyn()` and `reshape_dyn` for runtime shapes"
)]
pub trait NumelShape: Shape {
    /// The product of the sizes.
    type Numel: typenum::Unsigned;
}

/// Type-level list cell (internal to the indexing rules).
#[derive(Clone, Copy, Default, Debug)]
pub struct Cons<H, T>(pub H, pub T);
/// Type-level empty list.
#[derive(Clone, Copy, Default, Debug)]
pub struct Nil;

/// List of dims back to a tuple shape.
#[diagnostic::on_unimplemented(
    message = "indexing `{S}` would give more than 6 dims",
    label = "tensors have at most 6 dims"
)]
pub trait ListToTuple<S = ()> {
    /// The tuple shape.
    type Tuple: Shape;
}

/// Appends list `R`.
pub trait Concat<R> {
    /// `Self ++ R`.
    type Out;
}
impl<R> Concat<R> for Nil {
    type Out = R;
}
impl<H, T: Concat<R>, R> Concat<R> for Cons<H, T> {
    type Out = Cons<H, T::Out>;
}

/// Reverses a list.
pub trait Reverse {
    /// The reversed list.
    type Out;
}
#[doc(hidden)]
pub trait RevAcc<Acc> {
    type Out;
}
impl<Acc> RevAcc<Acc> for Nil {
    type Out = Acc;
}
impl<H, T: RevAcc<Cons<H, Acc>>, Acc> RevAcc<Acc> for Cons<H, T> {
    type Out = T::Out;
}
impl<L: RevAcc<Nil>> Reverse for L {
    type Out = L::Out;
}

include!(concat!(env!("OUT_DIR"), "/shapes.rs"));

/// The sizes of a shape as its type gives them (a `_` dim reads as 1) in the first `rank` entries,
/// and that rank (0 for [`DynShape`]): the sizes of a fully static shape, for the callers that ask
/// for [`AllStatic`].
pub(crate) fn static_sizes<S: Shape>() -> ([usize; MAX_RANK], usize) {
    (S::STATIC.map(|d| d.unwrap_or(1)), S::RANK.unwrap_or(0))
}

/// Axis `a` of `S` counted from the front and its static size, if `S` is a tuple shape with such
/// an axis and that dim is static.
pub(crate) const fn static_dim<S: Shape>(a: isize) -> Option<(usize, usize)> {
    let Some(rank) = S::RANK else {
        return None;
    };
    let a = if a < 0 { a + rank as isize } else { a };
    if a < 0 || a as usize >= rank {
        return None;
    }
    match S::STATIC[a as usize] {
        Some(n) => Some((a as usize, n)),
        None => None,
    }
}

/// Shape type from sizes: `Shape![2, 3]` is `(Const<2>, Const<3>)`; a literal `1` is the
/// broadcastable size-1 dim [`One`]; `_` is a runtime dim
/// (`Dyn`); `dyn Batch` is the named runtime dim `Batch` (declared with [`dims!`](crate::dims),
/// see [`DimName`]); `Shape![]` is the rank-0 (scalar) shape; `Shape![..]` is [`DynShape`]. A size
/// may be a literal, a const generic parameter name, or `{expr}`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Const, Dyn};
/// let _: Shape![2, _, 3] = (Const::<2>, Dyn, Const::<3>);
/// ```
#[macro_export]
macro_rules! Shape {
    (..) => { $crate::DynShape };
    ($($d:tt $($n:ty)?),* $(,)?) => { ( $( $crate::__dim!($d $($n)?), )* ) };
}
#[doc(hidden)]
#[macro_export]
macro_rules! __dim {
    (_) => { $crate::Dyn };
    (1) => { $crate::One };
    ($n:literal) => { $crate::Const<$n> };
    ($n:ident) => { $crate::Const<$n> };
    ({$n:expr}) => { $crate::Const<{$n}> };
    (dyn $n:ty) => { $n };
}
