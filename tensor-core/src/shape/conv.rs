//! Sliding-window rules: the output size of a window of `K` elements (dilated by `DL`) sliding
//! with step `S` over a dim of `N` elements padded by `P` on both sides,
//! `(N + 2P - DL(K - 1) - 1) / S + 1`, for `unfold`, `windows`, convolutions and pooling. Static
//! when the dim and the window are (typenum arithmetic through the bridge, sizes 0..=1024 and the
//! bridge's larger ones), `Dyn` when either is a run-time dim.
//!
//! The arithmetic never fails to type: a window larger than the padded dim, a zero step or a zero
//! dilation compute a placeholder size, and the operation's post-monomorphisation check
//! (`ConvCheck`, `UnfoldCheck`, ...) rejects them when the program is built with a message that
//! names the sizes.
use super::{DynShape, Shape};
use crate::dim::*;
use typenum::{Diff, Max, Maximum, Prod, Quot, Sum, U1};

/// `Max(A, B) - B`: zero when `A < B` (the checks reject that case).
type SatSub<A, B> = Diff<Maximum<A, B>, B>;
/// `DL * (max(K, 1) - 1) + 1`: the span of a dilated window.
type Span<K, DL> = Sum<Prod<DL, Diff<Maximum<K, U1>, U1>>, U1>;
/// The step `max(S, 1)`, where a zero `S` stands for the window's size `K` (pooling's default
/// stride, PyTorch's `stride=None`; the other window operations reject a zero step when the
/// program is built).
type StepOf<S, K> = Maximum<<S as StepOr<K>>::Out, U1>;
/// `(N + 2P - span) / step + 1` with the subtraction saturated.
type WinOut<N, K, S, P, DL> = Sum<Quot<SatSub<Sum<Sum<N, P>, P>, Span<K, DL>>, StepOf<S, K>>, U1>;

/// A typenum step `Self`, or `K` when `Self` is zero: see [`WindowArith`].
pub trait StepOr<K> {
    /// `Self`, or `K` for zero.
    type Out;
}
impl<K> StepOr<K> for typenum::UTerm {
    type Out = K;
}
impl<U, B, K> StepOr<K> for typenum::UInt<U, B> {
    type Out = typenum::UInt<U, B>;
}

/// The sliding-window output size on typenum numbers (see the module docs); implemented for
/// every combination the arithmetic covers.
pub trait WindowArith<K, S, P, DL> {
    /// The output size, a typenum number.
    type Out;
}
impl<N, K, S, P, DL> WindowArith<K, S, P, DL> for N
where
    N: core::ops::Add<P>,
    Sum<N, P>: core::ops::Add<P>,
    K: Max<U1>,
    Maximum<K, U1>: core::ops::Sub<U1>,
    DL: core::ops::Mul<Diff<Maximum<K, U1>, U1>>,
    Prod<DL, Diff<Maximum<K, U1>, U1>>: core::ops::Add<U1>,
    Sum<Sum<N, P>, P>: Max<Span<K, DL>>,
    Maximum<Sum<Sum<N, P>, P>, Span<K, DL>>: core::ops::Sub<Span<K, DL>>,
    S: StepOr<K>,
    <S as StepOr<K>>::Out: Max<U1>,
    SatSub<Sum<Sum<N, P>, P>, Span<K, DL>>: core::ops::Div<StepOf<S, K>>,
    Quot<SatSub<Sum<Sum<N, P>, P>, Span<K, DL>>, StepOf<S, K>>: core::ops::Add<U1>,
{
    type Out = WinOut<N, K, S, P, DL>;
}

/// The output dim of a window `K` (a dim type: the kernel's size) sliding with step `S`, padding
/// `P` and dilation `DL` over `Self`: `Const` when `Self` and `K` are static (and the sizes in the
/// compile-time range), `Dyn` otherwise.
#[diagnostic::on_unimplemented(
    message = "cannot compute the sliding-window size of `{Self}` with a window of `{K}` at compile time",
    label = "a generic size, or a static size past the compile-time range (0..=1024)",
    note = "use a `_` dim (or run-time hyper-parameters: `ConvArgs`, `PoolArgs`), which makes the output size run-time"
)]
pub trait WindowDim<K: Dim, const S: usize, const P: usize, const DL: usize>: Dim {
    /// The output dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<M: StaticDim, K: StaticDim, const S: usize, const P: usize, const DL: usize> WindowDim<K, S, P, DL> for M
where
    Const<S>: StaticDim,
    Const<P>: StaticDim,
    Const<DL>: StaticDim,
    Tn<M>: WindowArith<Tn<K>, Tn<Const<S>>, Tn<Const<P>>, Tn<Const<DL>>>,
    <Tn<M> as WindowArith<Tn<K>, Tn<Const<S>>, Tn<Const<P>>, Tn<Const<DL>>>>::Out: ToConst,
{
    type Out = <<Tn<M> as WindowArith<Tn<K>, Tn<Const<S>>, Tn<Const<P>>, Tn<Const<DL>>>>::Out as ToConst>::Out;
}
#[diagnostic::do_not_recommend]
impl<K: Dim, const S: usize, const P: usize, const DL: usize> WindowDim<K, S, P, DL> for Dyn {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<M: StaticDim, const S: usize, const P: usize, const DL: usize> WindowDim<Dyn, S, P, DL> for M {
    type Out = Dyn;
}

/// `Self` with the dim `X` appended (`unfold`'s window dim).
#[diagnostic::on_unimplemented(
    message = "cannot append a dim to shape `{Self}`",
    label = "the result would have more than 6 dims"
)]
pub trait PushDim<X: Dim>: Shape {
    /// The longer shape.
    type Out: Shape;
}
impl<X: Dim> PushDim<X> for DynShape {
    type Out = DynShape;
}
macro_rules! push_dim {
    ($($d:ident)*) => {
        impl<$($d: Dim,)* X: Dim> PushDim<X> for ($($d,)*) {
            type Out = ($($d,)* X,);
        }
    };
}
push_dim!();
push_dim!(A);
push_dim!(A B);
push_dim!(A B C);
push_dim!(A B C E);
push_dim!(A B C E F);

/// The shape of `unfold::<A, SIZE, STEP>()`: dim `A` becomes `(n - SIZE) / STEP + 1` (static for
/// a static dim) and a dim `SIZE` is appended.
#[diagnostic::on_unimplemented(
    message = "cannot unfold axis {A} of shape `{Self}`",
    label = "axis out of range, the result would have more than 6 dims, or a static size past 1024"
)]
pub trait UnfoldShape<const A: isize, const SIZE: usize, const STEP: usize>: Shape {
    /// The unfolded shape.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<S: Shape, const A: isize, const SIZE: usize, const STEP: usize> UnfoldShape<A, SIZE, STEP> for S
where
    S: super::RemoveAxis<A>,
    <S as super::RemoveAxis<A>>::Removed: WindowDim<Const<SIZE>, STEP, 0, 1>,
    S: super::SetAxis<A, <<S as super::RemoveAxis<A>>::Removed as WindowDim<Const<SIZE>, STEP, 0, 1>>::Out>,
    <S as super::SetAxis<A, <<S as super::RemoveAxis<A>>::Removed as WindowDim<Const<SIZE>, STEP, 0, 1>>::Out>>::Out:
        PushDim<Const<SIZE>>,
{
    type Out = <<S as super::SetAxis<
        A,
        <<S as super::RemoveAxis<A>>::Removed as WindowDim<Const<SIZE>, STEP, 0, 1>>::Out,
    >>::Out as PushDim<Const<SIZE>>>::Out;
}

/// The shape of `windows::<W>()`: for a tuple shape `[n0, .., nk]` and a window shape
/// `W = [w0, .., wk]` of the same rank, `[n0 - w0 + 1, .., nk - wk + 1, w0, .., wk]` (rank at most 3,
/// so the result has at most 6 dims).
#[diagnostic::on_unimplemented(
    message = "cannot take windows of shape `{W}` over shape `{Self}`",
    label = "the window shape needs the tensor's rank (at most 3) and static sizes"
)]
pub trait WindowsShape<W: Shape>: Shape {
    /// The shape of the windows view.
    type Out: Shape;
}
impl WindowsShape<DynShape> for DynShape {
    type Out = DynShape;
}
macro_rules! windows_shape {
    ($($n:ident $w:ident),*) => {
        impl<$($n: WindowDim<$w, 1, 0, 1>, $w: Dim,)*> WindowsShape<($($w,)*)> for ($($n,)*) {
            type Out = ($(<$n as WindowDim<$w, 1, 0, 1>>::Out,)* $($w,)*);
        }
    };
}
windows_shape!(N0 W0);
windows_shape!(N0 W0, N1 W1);
windows_shape!(N0 W0, N1 W1, N2 W2);

/// The output shape of `conv2d` with `Conv::<S, P, DL, G, SW, PW, DW>` on an input of shape
/// `Self` (`[N, C, H, W]`) with weights of shape `Wt` (`[O, C/G, KH, KW]`): `[N, O, OH, OW]`, each
/// spatial dim static when the input's and the kernel's are. `S`, `P`, `DL` are the height's
/// stride, padding and dilation, `SW`, `PW`, `DW` the width's (by default the height's).
/// Implemented for every pair that [`Conv2dInput`] accepts. A call on an input of another rank is rejected when checked
/// (`the method conv2d exists ... but its trait bounds were not satisfied`, naming the input's
/// shape and `Conv2dInput`; fail case `conv2d_wrong_rank`).
pub trait Conv2dShape<
    Wt: Shape,
    const S: usize,
    const P: usize,
    const DL: usize,
    const SW: usize = S,
    const PW: usize = P,
    const DW: usize = DL,
>: Shape
{
    /// `[N, O, OH, OW]`.
    type Out: Shape;
}
impl<
        X: Shape + Conv2dInput<Wt, S, P, DL, SW, PW, DW>,
        Wt: Shape,
        const S: usize,
        const P: usize,
        const DL: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Conv2dShape<Wt, S, P, DL, SW, PW, DW> for X
{
    type Out = <X as Conv2dInput<Wt, S, P, DL, SW, PW, DW>>::Out;
}

/// An input of shape `Self` (`[N, C, H, W]`) that weights of shape `X` (`[O, C/G, KH, KW]`)
/// convolve: both tuple shapes of rank 4, or both [`DynShape`].
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{Self}` with weights of shape `{X}`",
    label = "conv2d takes `[N, C, H, W]` inputs and `[O, C/groups, KH, KW]` weights (both tuple shapes or both `DynShape`)"
)]
pub trait Conv2dInput<
    X: Shape,
    const S: usize,
    const P: usize,
    const DL: usize,
    const SW: usize = S,
    const PW: usize = P,
    const DW: usize = DL,
>
{
    /// `[N, O, OH, OW]`.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const S: usize, const P: usize, const DL: usize, const SW: usize, const PW: usize, const DW: usize>
    Conv2dInput<DynShape, S, P, DL, SW, PW, DW> for DynShape
{
    type Out = DynShape;
}
#[diagnostic::do_not_recommend]
impl<
        N: Dim,
        C: Dim,
        H,
        W,
        O: Dim,
        CG: Dim,
        KH: Dim,
        KW: Dim,
        const S: usize,
        const P: usize,
        const DL: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Conv2dInput<(O, CG, KH, KW), S, P, DL, SW, PW, DW> for (N, C, H, W)
where
    H: WindowDim<KH, S, P, DL>,
    W: WindowDim<KW, SW, PW, DW>,
{
    type Out = (N, O, H::Out, W::Out);
}

/// The input's channel dim `Self` fits weights of `CG` in-channels per group and `G` groups:
/// `Self = CG * G` where both are static (typenum arithmetic: sizes in the compile-time range, see
/// [`crate::dim`]), or a `Dyn` on either side (checked at run time). `X` and `Wt` are the input's
/// and the weights' shapes, for the message. A bound of the typed convolutions, so that
/// `cargo check` and rust-analyzer see a wrong channel count.
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{X}` with weights of shape `{Wt}`: the input has `{Self}` channels, the weights take `{CG}` per group in {G} group(s)",
    label = "the input's channels must be the weights' second dim times the groups",
    note = "a channel count past the compile-time range (0..=1024, powers of two, ...) can be a `Dyn` dim, checked at run time"
)]
pub trait ConvChannels<CG, const G: usize, X, Wt> {}
#[diagnostic::do_not_recommend]
impl<C, CG, const G: usize, X, Wt> ConvChannels<CG, G, X, Wt> for C where (C, CG): ChannelPair<G> {}

/// The cases of [`ConvChannels`] on the pair `(input channels, in-channels per group)`.
#[doc(hidden)]
pub trait ChannelPair<const G: usize> {}
#[diagnostic::do_not_recommend]
impl<const G: usize> ChannelPair<G> for (Dyn, Dyn) {}
#[diagnostic::do_not_recommend]
impl<const N: usize, const G: usize> ChannelPair<G> for (Dyn, Const<N>) {}
#[diagnostic::do_not_recommend]
impl<const N: usize, const G: usize> ChannelPair<G> for (Const<N>, Dyn) {}
#[diagnostic::do_not_recommend]
impl<const G: usize> ChannelPair<G> for (Dyn, One) {}
#[diagnostic::do_not_recommend]
impl<const G: usize> ChannelPair<G> for (One, Dyn) {}
// One input channel: one group of one.
#[diagnostic::do_not_recommend]
impl ChannelPair<1> for (One, One) {}
#[diagnostic::do_not_recommend]
impl ChannelPair<1> for (One, Const<1>) {}
// One in-channel per group: as many groups as channels (a depthwise convolution).
#[diagnostic::do_not_recommend]
impl<const N: usize> ChannelPair<N> for (Const<N>, One) {}
#[diagnostic::do_not_recommend]
impl<const N: usize, const M: usize, const G: usize> ChannelPair<G> for (Const<N>, Const<M>)
where
    Const<N>: StaticDim,
    Const<M>: StaticDim,
    Const<G>: StaticDim,
    Tn<Const<M>>: core::ops::Mul<Tn<Const<G>>>,
    Prod<Tn<Const<M>>, Tn<Const<G>>>: typenum::Same<Tn<Const<N>>>,
{
}

/// The channel rule of `conv2d` with `G` groups on an input of shape `Self` (`[N, C, H, W]`) and
/// weights of shape `Wt` (`[O, C/G, KH, KW]`): [`ConvChannels`] on `C`; none for [`DynShape`].
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{Self}` with weights of shape `{Wt}` in {G} group(s): the channels do not match",
    label = "the input's channels `C` of `[N, C, H, W]` must be the weights' `C/groups` of `[O, C/groups, KH, KW]` times the groups",
    note = "a channel count past the compile-time range (0..=1024, powers of two, ...) can be a `Dyn` dim, checked at run time"
)]
pub trait Conv2dChannels<Wt: Shape, const G: usize>: Shape {}
#[diagnostic::do_not_recommend]
impl<const G: usize> Conv2dChannels<DynShape, G> for DynShape {}
#[diagnostic::do_not_recommend]
impl<N: Dim, C: Dim, H: Dim, W: Dim, O: Dim, CG: Dim, KH: Dim, KW: Dim, const G: usize>
    Conv2dChannels<(O, CG, KH, KW), G> for (N, C, H, W)
where
    C: ConvChannels<CG, G, (N, C, H, W), (O, CG, KH, KW)>,
{
}

/// The channel rule of `conv1d` with `G` groups on an input of shape `Self` (`[N, C, L]`) and
/// weights of shape `Wt` (`[O, C/G, K]`): [`ConvChannels`] on `C`; none for [`DynShape`].
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{Self}` with weights of shape `{Wt}` in {G} group(s): the channels do not match",
    label = "the input's channels `C` of `[N, C, L]` must be the weights' `C/groups` of `[O, C/groups, K]` times the groups",
    note = "a channel count past the compile-time range (0..=1024, powers of two, ...) can be a `Dyn` dim, checked at run time"
)]
pub trait Conv1dChannels<Wt: Shape, const G: usize>: Shape {}
#[diagnostic::do_not_recommend]
impl<const G: usize> Conv1dChannels<DynShape, G> for DynShape {}
#[diagnostic::do_not_recommend]
impl<N: Dim, C: Dim, L: Dim, O: Dim, CG: Dim, K: Dim, const G: usize> Conv1dChannels<(O, CG, K), G> for (N, C, L) where
    C: ConvChannels<CG, G, (N, C, L), (O, CG, K)>
{
}

include!(concat!(env!("OUT_DIR"), "/conv_channels.rs"));

/// The output shape of `conv1d` with `Conv::<S, P, DL, G>` on an input of shape `Self`
/// (`[N, C, L]`) with weights of shape `Wt` (`[O, C/G, K]`): `[N, O, OL]` (see
/// [`Conv1dInput`]).
pub trait Conv1dShape<Wt: Shape, const S: usize, const P: usize, const DL: usize>: Shape {
    /// `[N, O, OL]`.
    type Out: Shape;
}
impl<X: Shape + Conv1dInput<Wt, S, P, DL>, Wt: Shape, const S: usize, const P: usize, const DL: usize>
    Conv1dShape<Wt, S, P, DL> for X
{
    type Out = <X as Conv1dInput<Wt, S, P, DL>>::Out;
}

/// An input of shape `Self` (`[N, C, L]`) that weights of shape `X` (`[O, C/G, K]`) convolve:
/// both tuple shapes of rank 3, or both [`DynShape`].
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{Self}` with weights of shape `{X}`",
    label = "conv1d takes `[N, C, L]` inputs and `[O, C/groups, K]` weights (both tuple shapes or both `DynShape`)"
)]
pub trait Conv1dInput<X: Shape, const S: usize, const P: usize, const DL: usize> {
    /// `[N, O, OL]`.
    type Out: Shape;
}
#[diagnostic::do_not_recommend]
impl<const S: usize, const P: usize, const DL: usize> Conv1dInput<DynShape, S, P, DL> for DynShape {
    type Out = DynShape;
}
#[diagnostic::do_not_recommend]
impl<N: Dim, C: Dim, L, O: Dim, CG: Dim, K: Dim, const S: usize, const P: usize, const DL: usize>
    Conv1dInput<(O, CG, K), S, P, DL> for (N, C, L)
where
    L: WindowDim<K, S, P, DL>,
{
    type Out = (N, O, L::Out);
}

/// The output shape of a 2-D pooling with a `K x KW` window, stride `S`, padding `P` and dilation
/// `DL` along the height and `SW`, `PW`, `DW` along the width (by default the height's) on an
/// input of shape `Self` (`[N, C, H, W]`): `[N, C, OH, OW]`.
#[diagnostic::on_unimplemented(
    message = "cannot pool over shape `{Self}`",
    label = "2-D pooling takes `[N, C, H, W]` inputs"
)]
pub trait Pool2dShape<
    const K: usize,
    const S: usize,
    const P: usize,
    const DL: usize,
    const KW: usize = K,
    const SW: usize = S,
    const PW: usize = P,
    const DW: usize = DL,
>: Shape
{
    /// `[N, C, OH, OW]`.
    type Out: Shape;
}
impl<
        const K: usize,
        const S: usize,
        const P: usize,
        const DL: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Pool2dShape<K, S, P, DL, KW, SW, PW, DW> for DynShape
{
    type Out = DynShape;
}
impl<
        N: Dim,
        C: Dim,
        H,
        W,
        const K: usize,
        const S: usize,
        const P: usize,
        const DL: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Pool2dShape<K, S, P, DL, KW, SW, PW, DW> for (N, C, H, W)
where
    H: WindowDim<Const<K>, S, P, DL>,
    W: WindowDim<Const<KW>, SW, PW, DW>,
{
    type Out = (N, C, H::Out, W::Out);
}

/// The output shape of `adaptive_avg_pool2d::<OH, OW>()` on `Self` (`[N, C, H, W]`):
/// `[N, C, OH, OW]` (a size of 1 is [`One`], which broadcasts, as every computed size; sizes up
/// to 1024).
#[diagnostic::on_unimplemented(
    message = "cannot pool over shape `{Self}`",
    label = "2-D pooling takes `[N, C, H, W]` inputs"
)]
pub trait AdaptivePool2dShape<const OH: usize, const OW: usize>: Shape {
    /// `[N, C, OH, OW]`.
    type Out: Shape;
}
impl<const OH: usize, const OW: usize> AdaptivePool2dShape<OH, OW> for DynShape {
    type Out = DynShape;
}
impl<N: Dim, C: Dim, H: Dim, W: Dim, const OH: usize, const OW: usize> AdaptivePool2dShape<OH, OW> for (N, C, H, W)
where
    Const<OH>: StaticDim,
    Const<OW>: StaticDim,
    Tn<Const<OH>>: ToConst,
    Tn<Const<OW>>: ToConst,
{
    type Out = (N, C, <Tn<Const<OH>> as ToConst>::Out, <Tn<Const<OW>> as ToConst>::Out);
}

/// `(max(N, 1) - 1) * S + DL * (max(K, 1) - 1) + OP + 1`: the transposed convolution's size
/// before the padding is cut off.
type TSpan<N, K, S, OP, DL> =
    Sum<Sum<Sum<Prod<Diff<Maximum<N, U1>, U1>, S>, Prod<DL, Diff<Maximum<K, U1>, U1>>>, OP>, U1>;

/// The transposed convolution's output size on typenum numbers,
/// `(N - 1) * S - 2P + DL * (K - 1) + OP + 1`, saturated at 0 (the operation's check rejects it).
pub trait TransposeArith<K, S, P, OP, DL> {
    /// The output size, a typenum number.
    type Out;
}
impl<N, K, S, P, OP, DL> TransposeArith<K, S, P, OP, DL> for N
where
    N: Max<U1>,
    Maximum<N, U1>: core::ops::Sub<U1>,
    Diff<Maximum<N, U1>, U1>: core::ops::Mul<S>,
    K: Max<U1>,
    Maximum<K, U1>: core::ops::Sub<U1>,
    DL: core::ops::Mul<Diff<Maximum<K, U1>, U1>>,
    Prod<Diff<Maximum<N, U1>, U1>, S>: core::ops::Add<Prod<DL, Diff<Maximum<K, U1>, U1>>>,
    Sum<Prod<Diff<Maximum<N, U1>, U1>, S>, Prod<DL, Diff<Maximum<K, U1>, U1>>>: core::ops::Add<OP>,
    Sum<Sum<Prod<Diff<Maximum<N, U1>, U1>, S>, Prod<DL, Diff<Maximum<K, U1>, U1>>>, OP>: core::ops::Add<U1>,
    P: core::ops::Add<P>,
    TSpan<N, K, S, OP, DL>: Max<Sum<P, P>>,
    Maximum<TSpan<N, K, S, OP, DL>, Sum<P, P>>: core::ops::Sub<Sum<P, P>>,
{
    type Out = SatSub<TSpan<N, K, S, OP, DL>, Sum<P, P>>;
}

/// The output dim of a transposed convolution of `Self` with a kernel `K`, stride `S`, padding
/// `P`, output padding `OP` and dilation `DL`: `Const` when `Self` and `K` are static (sizes in
/// the compile-time range), `Dyn` otherwise.
#[diagnostic::on_unimplemented(
    message = "cannot compute the transposed-convolution size of `{Self}` with a kernel of `{K}` at compile time",
    label = "a generic size, or a static size past the compile-time range (0..=1024)",
    note = "use a `_` dim (or a `ConvTransposeArgs`), which makes the output size run-time"
)]
pub trait TransposeDim<K: Dim, const S: usize, const P: usize, const OP: usize, const DL: usize>: Dim {
    /// The output dim.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<M: StaticDim, K: StaticDim, const S: usize, const P: usize, const OP: usize, const DL: usize>
    TransposeDim<K, S, P, OP, DL> for M
where
    Const<S>: StaticDim,
    Const<P>: StaticDim,
    Const<OP>: StaticDim,
    Const<DL>: StaticDim,
    Tn<M>: TransposeArith<Tn<K>, Tn<Const<S>>, Tn<Const<P>>, Tn<Const<OP>>, Tn<Const<DL>>>,
    <Tn<M> as TransposeArith<Tn<K>, Tn<Const<S>>, Tn<Const<P>>, Tn<Const<OP>>, Tn<Const<DL>>>>::Out: ToConst,
{
    type Out =
        <<Tn<M> as TransposeArith<Tn<K>, Tn<Const<S>>, Tn<Const<P>>, Tn<Const<OP>>, Tn<Const<DL>>>>::Out as ToConst>::Out;
}
#[diagnostic::do_not_recommend]
impl<K: Dim, const S: usize, const P: usize, const OP: usize, const DL: usize> TransposeDim<K, S, P, OP, DL> for Dyn {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl<M: StaticDim, const S: usize, const P: usize, const OP: usize, const DL: usize> TransposeDim<Dyn, S, P, OP, DL>
    for M
{
    type Out = Dyn;
}

/// `Self * G`: the output channels of a grouped transposed convolution (weights `[C, O/G, ..]`),
/// static for a static `Self` (products up to 1024), `Dyn` otherwise.
#[diagnostic::on_unimplemented(
    message = "cannot compute `{Self}` times the groups at compile time",
    label = "a static size past the compile-time range (0..=1024)"
)]
pub trait GroupsDim<const G: usize>: Dim {
    /// The product.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<M: StaticDim, const G: usize> GroupsDim<G> for M
where
    Const<G>: StaticDim,
    Tn<M>: core::ops::Mul<Tn<Const<G>>>,
    Prod<Tn<M>, Tn<Const<G>>>: ToConst,
{
    type Out = <Prod<Tn<M>, Tn<Const<G>>> as ToConst>::Out;
}
#[diagnostic::do_not_recommend]
impl<const G: usize> GroupsDim<G> for Dyn {
    type Out = Dyn;
}

/// The output shape of `conv_transpose2d` with `ConvT::<S, P, OP, DL, G, SW, PW, OPW, DW>` on an
/// input of shape `Self` (`[N, C, H, W]`) with weights of shape `Wt` (`[C, O/G, KH, KW]`):
/// `[N, O, OH, OW]`. The `W`-suffixed parameters are the width's (by default the height's).
#[diagnostic::on_unimplemented(
    message = "cannot transpose-convolve an input of shape `{Self}` with weights of shape `{Wt}`",
    label = "conv_transpose2d takes `[N, C, H, W]` inputs and `[C, O/groups, KH, KW]` weights (both tuple shapes or both `DynShape`)"
)]
pub trait ConvTranspose2dShape<
    Wt: Shape,
    const S: usize,
    const P: usize,
    const OP: usize,
    const DL: usize,
    const G: usize,
    const SW: usize = S,
    const PW: usize = P,
    const OPW: usize = OP,
    const DW: usize = DL,
>: Shape
{
    /// `[N, O, OH, OW]`.
    type Out: Shape;
}
impl<
        const S: usize,
        const P: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > ConvTranspose2dShape<DynShape, S, P, OP, DL, G, SW, PW, OPW, DW> for DynShape
{
    type Out = DynShape;
}
impl<
        N: Dim,
        C: Dim,
        H,
        W,
        CI: Dim,
        OG: GroupsDim<G>,
        KH: Dim,
        KW: Dim,
        const S: usize,
        const P: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > ConvTranspose2dShape<(CI, OG, KH, KW), S, P, OP, DL, G, SW, PW, OPW, DW> for (N, C, H, W)
where
    H: TransposeDim<KH, S, P, OP, DL>,
    W: TransposeDim<KW, SW, PW, OPW, DW>,
{
    type Out = (N, OG::Out, H::Out, W::Out);
}
