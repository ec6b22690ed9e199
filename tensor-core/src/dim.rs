//! Dimensions: a size known at compile time ([`Const<N>`], and [`One`] for the size-1 dim that
//! broadcasts) or at run time ([`Dyn`]).
//!
//! Stable Rust cannot branch on the value of a const generic (no specialisation, no
//! `{N == 1}`), so the size-1 dim that broadcasting stretches is its own type, [`One`]. With it,
//! every rule that only compares sizes (broadcasting, `expand`, `squeeze`, matmul inner dims,
//! batch dims, permutes, `cat`'s other dims) holds for **every** `N`: they are equality-only
//! impls, with no table. `Shape![1, 3]`, `unsqueeze`, `keepdim` reductions, `None` in `t!` and
//! literal ranges of length 1 all make `One`. A `Const<1>` (from a nested array of length 1 or
//! from generic code with `N = 1`) is an ordinary size: it broadcasts only with `Const<1>`, `One`
//! and `Dyn`; `.cast_shape::<Shape![1, ..]>()` turns it into `One` without a copy.
//!
//! In a signature, write a size-1 dim as `One`: a `Shape![360, 1, 8, 8]` tensor is
//! `(Const<360>, One, Const<8>, Const<8>)`, so a parameter `(N, One, Const<8>, Const<8>)` takes it
//! and `(N, Const<1>, Const<8>, Const<8>)` does not (rustc reports "mismatched types", naming
//! `One` and `Const<1>` in the expected and found types). A generic `Const<Z>` cannot be `One`:
//! where a dim may be 1, take it as `D: Dim` (which `One` is), or relabel the argument with
//! `cast_shape`.
//!
//! The rules that do arithmetic on sizes (literal slice bounds, reshape element counts, the
//! lengths of `a..` and of static `cat`) go through typenum's `const-generics` bridge, which
//! covers `0..=1024` plus powers of two, `2^k - 1`, powers of ten and a few others. A static dim
//! outside that range in one of those rules is a compile error that suggests `Dyn`.
use crate::layout::LayoutRepr;
use crate::storage::ArrLevel;
use core::fmt;
use typenum::{IsEqual, ToUInt, Unsigned, B0, B1, U1};

/// A dimension whose size `N` is part of the type. `Shape![2, 3]` is `(Const<2>, Const<3>)`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Const<const N: usize>;

/// The size-1 dimension that broadcasting stretches (`1` in `Shape![1, 3]`). Made by
/// `unsqueeze`, `keepdim` reductions, `None` and length-1 literal ranges in `t!`. See the module
/// docs for why it is not `Const<1>`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct One;

/// A dimension whose size is known only at run time (it lives in the tensor's layout).
/// Spelled `_` in `Shape![_, 3]`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Dyn;

impl<const N: usize> fmt::Debug for Const<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{N}")
    }
}
impl fmt::Debug for One {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("1")
    }
}
impl fmt::Debug for Dyn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_")
    }
}

/// Every dimension type: `Const<N>` for all `N`, [`One`], and [`Dyn`].
pub trait Dim: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// `Some(N)` for `Const<N>`, `None` for `Dyn`.
    const STATIC: Option<usize>;
    /// Folds a shape's layout representation for inline storage: a static dim keeps `Acc`, a
    /// `Dyn` dim makes it a stored [`Layout`](crate::Layout) (see
    /// [`Shape::InlineLay`](crate::Shape::InlineLay)).
    type Fold<Acc: LayoutRepr>: LayoutRepr;
    /// The array level `X` wrapped by this dim: `[X; N]` for `Const<N>`, `[X; 1]` for `One`, the
    /// heap marker for `Dyn` (see [`Shape::Arr`](crate::Shape::Arr)).
    type Of<X: ArrLevel>: ArrLevel<Elem = X::Elem>;
    /// The dim's name for a named runtime dim (see [`DimName`]), `None` for every other dim.
    const NAME: Option<&'static str> = None;
    /// The size that the type fixes for a product dim ([`Prod`]) of static factors (`Some(256)`
    /// for `Prod<Const<16>, Prod<Const<4>, Const<4>>>`, whose size is still stored at run time);
    /// `None` for every other dim.
    const PRODUCT: Option<usize> = None;
}
impl<const N: usize> Dim for Const<N> {
    const STATIC: Option<usize> = Some(N);
    type Fold<Acc: LayoutRepr> = Acc;
    type Of<X: ArrLevel> = X::Wrap<N>;
}
impl Dim for One {
    const STATIC: Option<usize> = Some(1);
    type Fold<Acc: LayoutRepr> = Acc;
    type Of<X: ArrLevel> = X::Wrap<1>;
}
impl Dim for Dyn {
    const STATIC: Option<usize> = None;
    type Fold<Acc: LayoutRepr> = crate::Layout;
    type Of<X: ArrLevel> = crate::storage::Heap<X::Elem>;
}

/// A named runtime dim: a size known at run time, as [`Dyn`]'s, with an identity in the type.
/// Declare names with [`dims!`](crate::dims): `dims! { pub Batch, pub Seq }`, then write
/// `Tensor<f32, (Batch, Seq, Const<384>)>` or `Tensor<f32, Shape![dyn Batch, dyn Seq, 384]>`.
///
/// Where two dims must agree (broadcasting, element-wise operands, matmul's inner and batch
/// dims, `cat`'s other dims, `cast_shape`), a name meets itself, an anonymous [`Dyn`] (checked at
/// run time, the result keeps the name) and [`One`] (broadcast); two different names, or a name
/// and a static size, are a compile error naming both. Two tensors whose dims have the same name
/// and different runtime sizes meet with [`ShapeError::NamedDim`](crate::ShapeError::NamedDim)
/// naming the name and both sizes (a runtime size 1 does not stretch a name: both operands claim
/// the same dim). Operations that keep a dim keep its name (element-wise ops, reductions over
/// other axes, views, transpose and permute, matmul's batch and outer dims); operations that make
/// a new size (`narrow`, `flatten`, `cat` along the axis, padding) give a [`Dyn`].
/// No PyTorch counterpart (PyTorch's named tensors check names at run time).
pub trait DimName: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// The name as written (`"Batch"`): in [`Shape::describe`](crate::Shape::describe) and in
    /// runtime errors.
    const NAME: &'static str;
}
impl<N: DimName> Dim for N {
    const STATIC: Option<usize> = None;
    type Fold<Acc: LayoutRepr> = crate::Layout;
    type Of<X: ArrLevel> = crate::storage::Heap<X::Elem>;
    const NAME: Option<&'static str> = Some(<N as DimName>::NAME);
}

/// A runtime dim with an identity in its type: a name ([`DimName`]) or a product of dims
/// ([`Prod`]). Such a dim meets itself, an anonymous [`Dyn`] (checked at run time; the result
/// keeps the identity) and [`One`] (broadcast), never a different identity. Implemented by the
/// crate only.
pub trait Tagged: Dim + sealed::Tag {}
mod sealed {
    /// Seals [`Tagged`](super::Tagged).
    pub trait Tag {}
    impl<N: super::DimName> Tag for N {}
    impl<A: super::Dim, B: super::Dim> Tag for super::Prod<A, B> {}
}
impl<N: DimName> Tagged for N {}
impl<A: Dim, B: Dim> Tagged for Prod<A, B> {}

/// The product of two dims: what `flatten` and `flatten_range` make of the dims they merge
/// (PyTorch `flatten(start_dim, end_dim)` gives a plain size). `[Batch, Seq, 384]` flattened over
/// its first two dims is `[Batch×Seq, 384]`, of type `(Prod<Batch, Seq>, Const<384>)`; more dims
/// nest to the right (`[16, 4, 4]` flattened is `Prod<Const<16>, Prod<Const<4>, Const<4>>>`).
///
/// A runtime dim (its size lives in the tensor's layout, as [`Dyn`]'s) that keeps where it came
/// from: it meets itself, [`Dyn`] and [`One`], and [`unflatten_prod`](crate::TensorBase::unflatten_prod)
/// takes it apart again into its two factors. A product of static factors also meets the static
/// size it equals: `Prod<Const<16>, Prod<Const<4>, Const<4>>>` meets `Const<256>` (so a flattened
/// feature map feeds `Linear<Const<256>, _>`), a different static size is an error when the
/// program is built, naming both sizes (and at run time in any case), and `cast_shape` relabels
/// it as that `Const`. A product with a name in it never meets a static size. Its
/// [`PRODUCT`](Dim::PRODUCT) is the static size, when the factors are static.
pub struct Prod<A, B>(core::marker::PhantomData<fn() -> (A, B)>);
impl<A, B> Clone for Prod<A, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<A, B> Copy for Prod<A, B> {}
impl<A, B> Default for Prod<A, B> {
    fn default() -> Self {
        Prod(core::marker::PhantomData)
    }
}
impl<A, B> PartialEq for Prod<A, B> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<A, B> Eq for Prod<A, B> {}
impl<A, B> core::hash::Hash for Prod<A, B> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}
impl<A: Dim, B: Dim> fmt::Debug for Prod<A, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}×{:?}", A::default(), B::default())
    }
}
/// The size a type fixes: its static size, or a product dim's [`PRODUCT`](Dim::PRODUCT).
pub(crate) const fn fixed_size<D: Dim>() -> Option<usize> {
    match D::STATIC {
        Some(n) => Some(n),
        None => D::PRODUCT,
    }
}
impl<A: Dim, B: Dim> Dim for Prod<A, B> {
    const STATIC: Option<usize> = None;
    type Fold<Acc: LayoutRepr> = crate::Layout;
    type Of<X: ArrLevel> = crate::storage::Heap<X::Elem>;
    const PRODUCT: Option<usize> = match (fixed_size::<A>(), fixed_size::<B>()) {
        (Some(a), Some(b)) => match a.checked_mul(b) {
            Some(p) => Some(p),
            None => panic!("a product dim's static size overflows usize"),
        },
        _ => None,
    };
}

/// A product dim of static factors (`Const`, [`One`] or such products): it meets the static
/// size it equals ([`Prod`]).
#[diagnostic::on_unimplemented(
    message = "the product dim `{Self}` has a runtime factor, so it cannot meet a static size",
    label = "a product with a name or `_` in it meets only itself, `_` and 1"
)]
pub trait FixedProduct: Dim {}
impl<A: FixedFactor, B: FixedFactor> FixedProduct for Prod<A, B> {}

/// The two impls of a pair rule of dims (`SamePair`, `BroadcastPair`) by which a static product
/// dim ([`FixedProduct`]) meets a `Const<N>` on either side: the pair is `Const<N>`, the product's
/// size compared with `N` when the program is built (`ProductCheck`).
macro_rules! prod_const_pairs {
    ($Pair:ident) => {
        #[diagnostic::do_not_recommend]
        impl<A: Dim, B: Dim, const N: usize, LS, RS> $Pair<LS, RS> for (Prod<A, B>, Const<N>)
        where
            Prod<A, B>: FixedProduct,
        {
            type Out = Const<N>;
        }
        #[diagnostic::do_not_recommend]
        impl<A: Dim, B: Dim, const N: usize, LS, RS> $Pair<LS, RS> for (Const<N>, Prod<A, B>)
        where
            Prod<A, B>: FixedProduct,
        {
            type Out = Const<N>;
        }
    };
}
pub(crate) use prod_const_pairs;

/// A static factor of a [`FixedProduct`].
#[doc(hidden)]
pub trait FixedFactor: Dim {}
impl<const N: usize> FixedFactor for Const<N> {}
impl FixedFactor for One {}
impl<A: FixedFactor, B: FixedFactor> FixedFactor for Prod<A, B> {}

/// Declares named runtime dims ([`DimName`]): a unit struct per name, usable as a dim type
/// (`Tensor<f32, (Batch, Const<3>)>`, `Shape![dyn Batch, 3]`) and as a value. Visibility and
/// attributes (doc comments) go before each name.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{dims, Const, Tensor};
/// dims! {
///     /// The batch dim.
///     pub Batch,
///     Seq,
/// }
/// let x = Tensor::<f32, (Batch, Const<3>)>::zeros_sized(&[2, 3]);
/// let y = &x + &x; // the same names meet
/// assert_eq!(y.sizes(), [2, 3]);
/// ```
#[macro_export]
macro_rules! dims {
    ($($(#[$m:meta])* $vis:vis $name:ident),* $(,)?) => {
        $(
            $(#[$m])*
            #[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
            $vis struct $name;
            impl ::core::fmt::Debug for $name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(stringify!($name))
                }
            }
            impl $crate::DimName for $name {
                const NAME: &'static str = stringify!($name);
            }
            // Padding or repeating a named dim makes a new runtime size: `Dyn`.
            impl<const L: usize, const R: usize> $crate::shape::PadDim<L, R> for $name {
                type Out = $crate::Dyn;
            }
            impl<const K: usize> $crate::shape::TimesDim<K> for $name {
                type Out = $crate::Dyn;
            }
        )*
    };
}

/// A dim whose size is in the type (`Const<N>` for any `N`, or `One`). Constructors such as `zeros()` that
/// take no sizes need every dim to be one.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a runtime (`Dyn`) dimension, so its size is not in the type",
    label = "this needs sizes at run time",
    note = "use the `*_sized` constructor (for example `zeros_sized(&[n, 3])`) for shapes with `_` dims"
)]
pub trait ConstDim: Dim {}
impl<const N: usize> ConstDim for Const<N> {}
impl ConstDim for One {}

/// A static dim with a typenum twin, for the rules that compare or multiply sizes.
#[diagnostic::on_unimplemented(
    message = "static size `{Self}` is outside the range that compile-time size arithmetic covers",
    label = "no type-level number for this size",
    note = "slice bounds and reshape counts are checked at compile time for sizes 0..=1024 and powers of two, powers of ten and 2^k - 1; use `Dyn` (`_` in `Shape![..]`) for this dim"
)]
pub trait StaticDim: Dim {
    /// The typenum number equal to the size.
    type Tn: Unsigned;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> StaticDim for Const<N>
where
    typenum::Const<N>: ToUInt,
    typenum::U<N>: Unsigned,
{
    type Tn = typenum::U<N>;
}
#[diagnostic::do_not_recommend]
impl StaticDim for One {
    type Tn = typenum::U1;
}

/// typenum number -> `Const<N>`, for `N` in `0..=1024` (generated by `build.rs`).
#[diagnostic::on_unimplemented(
    message = "a computed static size is larger than 1024",
    note = "sizes computed at compile time (such as the length of `a..` on a static dim) are limited to 0..=1024; use `Dyn` for this dim"
)]
pub trait ToConst {
    /// The `Const<N>` dim.
    type Out: Dim;
}
include!(concat!(env!("OUT_DIR"), "/to_const.rs"));

/// The typenum twin of a static dim.
pub type Tn<D> = <D as StaticDim>::Tn;

/// Two dims that must be equal (matmul inner dims, same-shape operands). Equality only, so it
/// holds for every `N`; a `Dyn` side is checked at run time. `LS`/`RS` are the full shapes, only
/// for the error message.
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{LS}` by `{RS}`: inner dimensions `{Self}` and `{Rhs}` differ",
    label = "the columns of the left matrix must equal the rows of the right one"
)]
pub trait SameDim<Rhs, LS = (), RS = ()> {
    /// The unified dim (static when either side is).
    type Out: Dim;
}
// One impl whose nested `SamePair` carries the cases: a mismatch is then reported by
// `SameDim`'s message (naming both inner sizes) from a batched matmul too, as `BatchDim`'s is.
#[diagnostic::do_not_recommend]
impl<A, B, LS, RS> SameDim<B, LS, RS> for A
where
    (A, B): SamePair<LS, RS>,
{
    type Out = <(A, B) as SamePair<LS, RS>>::Out;
}
/// The cases of [`SameDim`]: `(Self.0, Self.1)` equal, or `Dyn` on either side.
#[diagnostic::on_unimplemented(
    message = "cannot matmul `{LS}` by `{RS}`: inner dimensions differ",
    label = "the columns of the left matrix must equal the rows of the right one"
)]
#[doc(hidden)]
pub trait SamePair<LS, RS> {
    /// The unified dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> SamePair<LS, RS> for (Const<N>, Const<N>) {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> SamePair<LS, RS> for (Const<N>, Dyn) {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize, LS, RS> SamePair<LS, RS> for (Dyn, Const<N>) {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> SamePair<LS, RS> for (Dyn, Dyn) {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> SamePair<LS, RS> for (N, N) {
    type Out = N;
}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> SamePair<LS, RS> for (N, Dyn) {
    type Out = N;
}
#[diagnostic::do_not_recommend]
impl<N: Tagged, LS, RS> SamePair<LS, RS> for (Dyn, N) {
    type Out = N;
}
prod_const_pairs!(SamePair);
#[diagnostic::do_not_recommend]
impl<LS, RS> SamePair<LS, RS> for (One, One) {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> SamePair<LS, RS> for (One, Dyn) {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> SamePair<LS, RS> for (Dyn, One) {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> SamePair<LS, RS> for (One, Const<1>) {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl<LS, RS> SamePair<LS, RS> for (Const<1>, One) {
    type Out = One;
}

/// `Self`, once `X` is known: a batched matmul's output names its last dim through the inner dims'
/// [`SameDim`] projection, so that a mismatch of the inner dims is reported by `SameDim`'s message.
#[doc(hidden)]
pub trait AfterDim<X> {
    /// `Self`.
    type Out: Dim;
}
impl<D: Dim, X> AfterDim<X> for D {
    type Out = D;
}

/// A dim that may be relabelled as `Target` without touching the data (`cast_shape`): equal
/// static sizes (every `N`; `Const<1>` and [`One`] are both size 1), a `Dyn` on either side
/// (checked at run time), or a name ([`DimName`]) to itself, to `Dyn` and from `Dyn` (the way to
/// name an anonymous runtime dim). Two different names do not cast: go through `Dyn`.
#[diagnostic::on_unimplemented(
    message = "cannot cast dimension `{Self}` to `{Target}`: the sizes differ",
    label = "a cast keeps every size; use `reshape` to change them"
)]
pub trait CastDim<Target>: Dim {}
impl<const N: usize> CastDim<Const<N>> for Const<N> {}
impl<const N: usize> CastDim<Dyn> for Const<N> {}
impl<const N: usize> CastDim<Const<N>> for Dyn {}
impl CastDim<Dyn> for Dyn {}
impl CastDim<One> for One {}
impl CastDim<Dyn> for One {}
impl CastDim<One> for Dyn {}
impl<N: Tagged> CastDim<N> for N {}
impl<N: Tagged> CastDim<Dyn> for N {}
impl<N: Tagged> CastDim<N> for Dyn {}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim, const N: usize> CastDim<Const<N>> for Prod<A, B> where Prod<A, B>: FixedProduct {}
impl CastDim<Const<1>> for One {}
impl CastDim<One> for Const<1> {}

/// The output dim of a literal `t!` range of length `LEN`: `Const<LEN>`, or [`One`] when the
/// macro sets `ONE` (exactly when `LEN == 1`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LenDim<const LEN: usize, const ONE: bool>;
/// Picks the dim type for [`LenDim`].
pub trait PickDim {
    /// `Const<LEN>` or [`One`].
    type D: Dim;
}
impl<const L: usize> PickDim for LenDim<L, false> {
    type D = Const<L>;
}
impl<const L: usize> PickDim for LenDim<L, true> {
    type D = One;
}

/// The dim that `Tensor::from(array)` gives a nested-array level of length `N`: [`One`] for 1 (so
/// that `Tensor::from([[1.], [2.]])` broadcasts like PyTorch's `[2, 1]`), `Const<N>` otherwise.
/// It needs the size class of `N`, so it covers typenum's range (`0..=1024`, powers of two and
/// ten, `2^k - 1`); `Tensor::from_array` keeps `Const<N>` for every `N` and in generic code.
#[diagnostic::on_unimplemented(
    message = "`Tensor::from` cannot classify an array of length `{Self}` at compile time",
    label = "array lengths 0..=1024 (or a power of two or ten) only",
    note = "use `Tensor::from_array` (every length, dims stay `Const<N>`) or `Tensor::from_vec`"
)]
pub trait ArrayDim {
    /// [`One`] or `Const<N>`.
    type D: ConstDim;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> ArrayDim for Const<N>
where
    typenum::Const<N>: ToUInt,
    typenum::U<N>: IsEqual<U1>,
    typenum::Eq<typenum::U<N>, U1>: PickArrayDim<N>,
{
    type D = <typenum::Eq<typenum::U<N>, U1> as PickArrayDim<N>>::D;
}
/// `B1` (length 1) gives [`One`], `B0` gives `Const<N>`.
pub trait PickArrayDim<const N: usize> {
    /// The dim.
    type D: ConstDim;
}
impl<const N: usize> PickArrayDim<N> for B1 {
    type D = One;
}
impl<const N: usize> PickArrayDim<N> for B0 {
    type D = Const<N>;
}
/// The dim of an array level of length `N` (see [`ArrayDim`]).
pub type ArrDim<const N: usize> = <Const<N> as ArrayDim>::D;
