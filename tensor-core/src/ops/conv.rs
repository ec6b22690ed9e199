//! Convolutions over NCL/NCHW tensors, as `torch.nn.functional`: `conv1d`, `conv2d`,
//! `conv_transpose2d`. The pooling operations (`max_pool2d`, `avg_pool2d`,
//! `adaptive_avg_pool2d`) are in `pool.rs`, with the same two forms; [`Pool`] and [`PoolArgs`]
//! are re-exported here, their first home.
//!
//! Each comes in two forms. The typed form takes its hyper-parameters as const generics in a
//! marker value ([`Conv`], [`Pool`]) and types the result: for static input dims (and a static
//! kernel) the output's spatial dims are static, `(H + 2P - DL(K - 1) - 1) / S + 1`
//! (see [`WindowDim`](crate::shape::WindowDim)), and a non-positive size, a zero stride or
//! dilation, or a static channel mismatch is an error when the program is built, naming the
//! sizes. The `_dyn` form takes run-time hyper-parameters ([`ConvArgs`], [`Conv1dArgs`],
//! [`PoolArgs`]) and gives a [`DynShape`] result. Everything the types do not prove is checked at
//! run time (`try_` forms return [`ShapeError`], the plain forms panic with the same message).
//!
//! The product runs through the crate's matrix kernels (im2col, then faer for f32/f64; see
//! `kernels/conv.rs`); pooling is a direct loop.
use crate::error::{ConstMsg, OrPanic, ShapeError};
use crate::kernels;
use crate::kernels::conv::{Geom, Operands};
use crate::layout::{window_out, Layout};
use crate::num::Gemm;
use crate::shape::{Conv1dChannels, Conv1dShape, Conv2dChannels, Conv2dShape, ConvTranspose2dShape, DynShape, Shape};
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};
use alloc::borrow::Cow;
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

pub(crate) mod weight_grad;

pub use super::pool::{Pool, Pool2dArg, PoolArgs};

/// The hyper-parameters of a typed convolution (`conv1d`, `conv2d`), as const generics:
/// `Conv::<STRIDE, PADDING, DILATION, GROUPS, STRIDE_W, PADDING_W, DILATION_W>`, defaults stride
/// 1, padding 0, dilation 1, groups 1 (PyTorch's). The first three are the height's for
/// `conv2d` (the length's for `conv1d`), and the `_W` three the width's, by default the
/// height's: `Conv::<1, 1>` is a 3x3 "same" convolution's, `Conv::<1, 0, 1, 1, 2, 1>` PyTorch's
/// `stride=(1, 2), padding=(0, 1)`. `conv1d` takes only the first four (the `_W` ones at their
/// defaults).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::Conv;
/// assert_eq!(Conv::<1, 1>.args().padding, [1, 1]);
/// let a = Conv::<1, 0, 1, 1, 2, 1>.args();
/// assert_eq!((a.stride, a.padding, a.dilation), ([1, 2], [0, 1], [1, 1]));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conv<
    const STRIDE: usize = 1,
    const PADDING: usize = 0,
    const DILATION: usize = 1,
    const GROUPS: usize = 1,
    const STRIDE_W: usize = STRIDE,
    const PADDING_W: usize = PADDING,
    const DILATION_W: usize = DILATION,
>;

impl<
        const STRIDE: usize,
        const PADDING: usize,
        const DILATION: usize,
        const GROUPS: usize,
        const STRIDE_W: usize,
        const PADDING_W: usize,
        const DILATION_W: usize,
    > Conv<STRIDE, PADDING, DILATION, GROUPS, STRIDE_W, PADDING_W, DILATION_W>
{
    /// The same hyper-parameters as run-time values for `conv2d_dyn` (`[height, width]`).
    pub const fn args(self) -> ConvArgs {
        ConvArgs {
            stride: [STRIDE, STRIDE_W],
            padding: [PADDING, PADDING_W],
            dilation: [DILATION, DILATION_W],
            groups: GROUPS,
        }
    }
    /// The same hyper-parameters as run-time values for `conv1d_dyn`.
    pub const fn args1(self) -> Conv1dArgs {
        Conv1dArgs { stride: STRIDE, padding: PADDING, dilation: DILATION, groups: GROUPS }
    }
}

/// The run-time hyper-parameters of `conv2d_dyn` (PyTorch `conv2d`'s keyword arguments, one value
/// per spatial dim `[h, w]`). `ConvArgs::default()` is stride 1, padding 0, dilation 1, groups 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvArgs {
    /// The step between windows.
    pub stride: [usize; 2],
    /// Zeros added on both sides.
    pub padding: [usize; 2],
    /// The spacing of the kernel's taps.
    pub dilation: [usize; 2],
    /// Channel groups: input and output channels are split into `groups` independent blocks.
    pub groups: usize,
}
impl Default for ConvArgs {
    fn default() -> Self {
        ConvArgs { stride: [1, 1], padding: [0, 0], dilation: [1, 1], groups: 1 }
    }
}

/// The run-time hyper-parameters of `conv1d_dyn` (PyTorch `conv1d`'s keyword arguments).
/// `Conv1dArgs::default()` is stride 1, padding 0, dilation 1, groups 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv1dArgs {
    /// The step between windows.
    pub stride: usize,
    /// Zeros added on both sides.
    pub padding: usize,
    /// The spacing of the kernel's taps.
    pub dilation: usize,
    /// Channel groups.
    pub groups: usize,
}
impl Default for Conv1dArgs {
    fn default() -> Self {
        Conv1dArgs { stride: 1, padding: 0, dilation: 1, groups: 1 }
    }
}

/// The hyper-parameters of a typed transposed convolution, as const generics:
/// `ConvT::<STRIDE, PADDING, OUTPUT_PADDING, DILATION, GROUPS, STRIDE_W, PADDING_W,
/// OUTPUT_PADDING_W, DILATION_W>`, defaults stride 1, padding 0, output padding 0, dilation 1,
/// groups 1 (PyTorch's); the first four are the height's, the `_W` ones the width's (by default
/// the height's).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::ConvT;
/// let a = ConvT::<2, 1, 1, 1, 1, 1, 0, 0>.args();
/// assert_eq!((a.stride, a.padding, a.output_padding), ([2, 1], [1, 0], [1, 0]));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConvT<
    const STRIDE: usize = 1,
    const PADDING: usize = 0,
    const OUTPUT_PADDING: usize = 0,
    const DILATION: usize = 1,
    const GROUPS: usize = 1,
    const STRIDE_W: usize = STRIDE,
    const PADDING_W: usize = PADDING,
    const OUTPUT_PADDING_W: usize = OUTPUT_PADDING,
    const DILATION_W: usize = DILATION,
>;
impl<
        const STRIDE: usize,
        const PADDING: usize,
        const OUTPUT_PADDING: usize,
        const DILATION: usize,
        const GROUPS: usize,
        const STRIDE_W: usize,
        const PADDING_W: usize,
        const OUTPUT_PADDING_W: usize,
        const DILATION_W: usize,
    > ConvT<STRIDE, PADDING, OUTPUT_PADDING, DILATION, GROUPS, STRIDE_W, PADDING_W, OUTPUT_PADDING_W, DILATION_W>
{
    /// The same hyper-parameters as run-time values for `conv_transpose2d_dyn` (`[height,
    /// width]`).
    pub const fn args(self) -> ConvTransposeArgs {
        ConvTransposeArgs {
            stride: [STRIDE, STRIDE_W],
            padding: [PADDING, PADDING_W],
            output_padding: [OUTPUT_PADDING, OUTPUT_PADDING_W],
            dilation: [DILATION, DILATION_W],
            groups: GROUPS,
        }
    }
}

/// The run-time hyper-parameters of `conv_transpose2d_dyn` (PyTorch `conv_transpose2d`'s
/// keyword arguments, one value per spatial dim `[h, w]`). `ConvTransposeArgs::default()` is
/// stride 1, padding 0, output padding 0, dilation 1, groups 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvTransposeArgs {
    /// The stride of the convolution this one transposes.
    pub stride: [usize; 2],
    /// The padding of the convolution this one transposes (removed from the output's borders).
    pub padding: [usize; 2],
    /// Extra rows and columns added at the output's end (less than the stride or the dilation),
    /// to pick among the input sizes a strided convolution maps to one output size.
    pub output_padding: [usize; 2],
    /// The spacing of the kernel's taps.
    pub dilation: [usize; 2],
    /// Channel groups.
    pub groups: usize,
}
impl Default for ConvTransposeArgs {
    fn default() -> Self {
        ConvTransposeArgs { stride: [1, 1], padding: [0, 0], output_padding: [0, 0], dilation: [1, 1], groups: 1 }
    }
}

/// The sealing of the hyper-parameter argument traits: implemented by the typed markers
/// ([`Conv`], [`ConvT`], [`Pool`]) and the run-time structs ([`ConvArgs`], [`Conv1dArgs`],
/// [`ConvTransposeArgs`], [`PoolArgs`]) only.
pub(super) mod sealed {
    pub trait Params {}
}

/// A build-time check of typed hyper-parameters: evaluating `OK` fails the build, naming the
/// sizes, when they cannot work (a zero stride, a kernel larger than a static input, ...). The
/// argument traits name it as a type so that the method reads the check's constant directly, and
/// a failure's report stays short.
#[doc(hidden)]
pub trait BuildCheck {
    /// Evaluating it fails the build when the check fails.
    const OK: ();
}
/// No build-time check (run-time hyper-parameters).
#[doc(hidden)]
pub struct NoCheck;
impl BuildCheck for NoCheck {
    const OK: () = ();
}
impl<
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > sealed::Params for Conv<ST, PD, DL, G, SW, PW, DW>
{
}
impl<
        const ST: usize,
        const PD: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > sealed::Params for ConvT<ST, PD, OP, DL, G, SW, PW, OPW, DW>
{
}
impl sealed::Params for ConvArgs {}
impl sealed::Params for Conv1dArgs {}
impl sealed::Params for ConvTransposeArgs {}

/// The hyper-parameters of `conv2d` as one argument (as an axis is one argument, [`AxisArg`](crate::AxisArg)):
/// a [`Conv`] value (const generics: the output's spatial dims typed when the input's and the
/// kernel's are, and the build-time checks of [`conv2d`](crate::TensorBase::conv2d)) or a
/// [`ConvArgs`] value (run-time values, PyTorch's keyword arguments: a [`DynShape`] result,
/// everything checked at run time). `S` is the input's shape, `W` the weights'. Sealed.
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{S}` with weights of shape `{W}` by `{Self}`",
    label = "conv2d takes `[N, C, H, W]` inputs and `[O, C/groups, KH, KW]` weights, the input's `C` the weights' `C/groups` times the groups",
    note = "a channel count past the compile-time range (0..=1024, powers of two, ...) can be a `Dyn` dim, checked at run time"
)]
pub trait Conv2dArg<S: Shape, W: Shape>: sealed::Params + Copy {
    /// The output's shape: `[N, O, OH, OW]` of [`Conv2dShape`] for [`Conv`], [`DynShape`] for
    /// [`ConvArgs`].
    type Out: Shape;
    /// The build-time checks (none for run-time values).
    #[doc(hidden)]
    type Check: BuildCheck;
    /// The values.
    fn args(self) -> ConvArgs;
}
#[diagnostic::do_not_recommend]
impl<
        S: Conv2dShape<W, ST, PD, DL, SW, PW, DW> + Conv2dChannels<W, G>,
        W: Shape,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Conv2dArg<S, W> for Conv<ST, PD, DL, G, SW, PW, DW>
{
    type Out = <S as Conv2dShape<W, ST, PD, DL, SW, PW, DW>>::Out;
    type Check = ConvCheck<S, W, 2, ST, PD, DL, G, SW, PW, DW>;
    fn args(self) -> ConvArgs {
        Conv::<ST, PD, DL, G, SW, PW, DW>::args(self)
    }
}
impl<S: Shape, W: Shape> Conv2dArg<S, W> for ConvArgs {
    type Out = DynShape;
    type Check = NoCheck;
    fn args(self) -> ConvArgs {
        self
    }
}

/// The hyper-parameters of `conv1d` as one argument: a [`Conv`] value with the first four const
/// generics (typed output length, build-time checks) or a [`Conv1dArgs`] value (a [`DynShape`]
/// result). `S` is the input's shape (`[N, C, L]`), `W` the weights' (`[O, C/G, K]`). Sealed.
#[diagnostic::on_unimplemented(
    message = "cannot convolve an input of shape `{S}` with weights of shape `{W}` by `{Self}`",
    label = "conv1d takes `[N, C, L]` inputs and `[O, C/groups, K]` weights, the input's `C` the weights' `C/groups` times the groups",
    note = "a channel count past the compile-time range (0..=1024, powers of two, ...) can be a `Dyn` dim, checked at run time"
)]
pub trait Conv1dArg<S: Shape, W: Shape>: sealed::Params + Copy {
    /// The output's shape: `[N, O, OL]` of [`Conv1dShape`] for [`Conv`], [`DynShape`] for
    /// [`Conv1dArgs`].
    type Out: Shape;
    /// The build-time checks (none for run-time values).
    #[doc(hidden)]
    type Check: BuildCheck;
    /// The values.
    fn args1(self) -> Conv1dArgs;
}
#[diagnostic::do_not_recommend]
impl<
        S: Conv1dShape<W, ST, PD, DL> + Conv1dChannels<W, G>,
        W: Shape,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
    > Conv1dArg<S, W> for Conv<ST, PD, DL, G, ST, PD, DL>
{
    type Out = <S as Conv1dShape<W, ST, PD, DL>>::Out;
    type Check = ConvCheck<S, W, 1, ST, PD, DL, G, ST, PD, DL>;
    fn args1(self) -> Conv1dArgs {
        Conv::<ST, PD, DL, G>::args1(self)
    }
}
impl<S: Shape, W: Shape> Conv1dArg<S, W> for Conv1dArgs {
    type Out = DynShape;
    type Check = NoCheck;
    fn args1(self) -> Conv1dArgs {
        self
    }
}

/// The hyper-parameters of `conv_transpose2d` as one argument: a [`ConvT`] value (typed output,
/// build-time checks) or a [`ConvTransposeArgs`] value (a [`DynShape`] result). Sealed.
#[diagnostic::on_unimplemented(
    message = "cannot transpose-convolve an input of shape `{S}` with weights of shape `{W}` by `{Self}`",
    label = "conv_transpose2d takes `[N, C, H, W]` inputs and `[C, O/groups, KH, KW]` weights"
)]
pub trait ConvTranspose2dArg<S: Shape, W: Shape>: sealed::Params + Copy {
    /// The output's shape: [`ConvTranspose2dShape`]'s for [`ConvT`], [`DynShape`] for
    /// [`ConvTransposeArgs`].
    type Out: Shape;
    /// The build-time checks (none for run-time values).
    #[doc(hidden)]
    type Check: BuildCheck;
    /// The values.
    fn args(self) -> ConvTransposeArgs;
}
#[diagnostic::do_not_recommend]
impl<
        S: ConvTranspose2dShape<W, ST, PD, OP, DL, G, SW, PW, OPW, DW>,
        W: Shape,
        const ST: usize,
        const PD: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > ConvTranspose2dArg<S, W> for ConvT<ST, PD, OP, DL, G, SW, PW, OPW, DW>
{
    type Out = <S as ConvTranspose2dShape<W, ST, PD, OP, DL, G, SW, PW, OPW, DW>>::Out;
    type Check = ConvTCheck<S, W, ST, PD, OP, DL, G, SW, PW, OPW, DW>;
    fn args(self) -> ConvTransposeArgs {
        ConvT::<ST, PD, OP, DL, G, SW, PW, OPW, DW>::args(self)
    }
}
impl<S: Shape, W: Shape> ConvTranspose2dArg<S, W> for ConvTransposeArgs {
    type Out = DynShape;
    type Check = NoCheck;
    fn args(self) -> ConvTransposeArgs {
        self
    }
}

/// A convolution's optional bias: a rank-1 tensor of one value per output channel (`&b` or
/// `Some(&b)`), or [`NoBias`] (or `None::<&Tensor<T, DynShape>>`).
pub trait Bias<T> {
    /// The sizes and row-major values, if there is a bias.
    #[doc(hidden)]
    fn values(&self) -> Option<(&[usize], Result<Vec<T>, ShapeError>)>;
}
/// No bias (PyTorch `bias=None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoBias;
impl<T> Bias<T> for NoBias {
    fn values(&self) -> Option<(&[usize], Result<Vec<T>, ShapeError>)> {
        None
    }
}
impl<D: Data, S: Shape> Bias<D::Elem> for &TensorBase<D, S> {
    fn values(&self) -> Option<(&[usize], Result<Vec<D::Elem>, ShapeError>)> {
        Some((self.sizes(), self.try_to_vec()))
    }
}
impl<D: Data, S: Shape> Bias<D::Elem> for Option<&TensorBase<D, S>> {
    fn values(&self) -> Option<(&[usize], Result<Vec<D::Elem>, ShapeError>)> {
        self.map(|b| (b.sizes(), b.try_to_vec()))
    }
}

/// A tensor's elements as one row-major slice: borrowed when contiguous, copied otherwise.
pub(super) fn dense<D: Data, S: Shape>(t: &TensorBase<D, S>) -> Result<Cow<'_, [D::Elem]>, ShapeError> {
    Ok(match kernels::contiguous_slice(t.data.as_slice(), t.layout()) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(kernels::to_vec(t.data.as_slice(), t.layout())?),
    })
}

pub(super) fn invalid(msg: alloc::string::String) -> ShapeError {
    ShapeError::Invalid(msg)
}

/// The output size along one spatial dim, or an error naming the sizes.
pub(super) fn out_size(
    op: &str,
    dim: &str,
    n: usize,
    k: usize,
    s: usize,
    p: usize,
    d: usize,
) -> Result<usize, ShapeError> {
    window_out(n, k, s, p, d).ok_or_else(|| {
        invalid(format!(
            "{op}: no output {dim}: input {dim} {n} with padding {p}, kernel {k} with dilation {d}, stride {s} \
             (the output size (n + 2p - d(k - 1) - 1) / s + 1 must be positive, with k, d, s >= 1)"
        ))
    })
}

/// The values of a convolution's bias, if it has one, checked to be `[o]` (`ws`: the weights'
/// sizes, for the message).
fn bias_values<T, B: Bias<T>>(op: &str, bias: &B, o: usize, ws: &[usize]) -> Result<Option<Vec<T>>, ShapeError> {
    match bias.values() {
        None => Ok(None),
        Some((bs, v)) => {
            if bs != [o] {
                return Err(invalid(format!("{op}: bias of sizes {bs:?} for {o} output channels (weights {ws:?})")));
            }
            Ok(Some(v?))
        }
    }
}

/// A convolution's output of `sizes` (checked by the caller), zeros when it is empty, else
/// computed by `kernel` (`kernels::conv::conv2d` or `conv_transpose2d`) from the contiguous
/// values of `x` and `weight`; `o` output channels in `groups` groups.
fn run_conv<D: Data, S: Shape, D2: Data<Elem = D::Elem>, W: Shape, S2: Shape>(
    x: &TensorBase<D, S>,
    weight: &TensorBase<D2, W>,
    bias: Option<Vec<D::Elem>>,
    geom: &Geom,
    [o, groups]: [usize; 2],
    sizes: &[usize],
    kernel: fn(Operands<'_, D::Elem>, &mut [D::Elem]) -> Result<(), ShapeError>,
) -> Result<Tensor<D::Elem, S2>, ShapeError>
where
    D::Elem: Gemm,
{
    let numel = sizes.iter().product();
    // Both kernels write every output element (`conv_transpose2d` zeroes its output first).
    let mut out = crate::memory::try_vec_for_overwrite(numel)?;
    if numel > 0 {
        let (x, wt) = (dense(x)?, dense(weight)?);
        kernel(Operands { x: &x, wt: &wt, bias: bias.as_deref(), g: geom, o, groups }, &mut out)?;
    }
    Tensor::try_from_vec(sizes, out)
}

/// The hyper-parameters of a 1-D convolution as those of a 2-D one over height-1 images.
pub(crate) fn as_2d_args(a: Conv1dArgs) -> ConvArgs {
    ConvArgs { stride: [1, a.stride], padding: [0, a.padding], dilation: [1, a.dilation], groups: a.groups }
}

/// The build-time checks of a typed convolution of `SPATIAL` (1 or 2) spatial dims: positive
/// stride, dilation and groups; static channels that match; static output sizes that are
/// positive. `ST`, `PD`, `DL` are the first spatial dim's, `SW`, `PW`, `DW` the width's (equal
/// to the first for `conv1d`).
#[allow(clippy::type_complexity)]
#[doc(hidden)]
pub struct ConvCheck<
    S,
    W,
    const SPATIAL: usize,
    const ST: usize,
    const PD: usize,
    const DL: usize,
    const G: usize,
    const SW: usize,
    const PW: usize,
    const DW: usize,
>(core::marker::PhantomData<(S, W)>);
impl<
        S: Shape,
        W: Shape,
        const SPATIAL: usize,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > BuildCheck for ConvCheck<S, W, SPATIAL, ST, PD, DL, G, SW, PW, DW>
{
    const OK: () = {
        let op = if SPATIAL == 1 { "conv1d: " } else { "conv2d: " };
        if ST == 0 || DL == 0 || G == 0 {
            let m = ConstMsg::new().str(op).str("stride ").num(ST).str(", dilation ").num(DL).str(" and groups ");
            m.num(G).str(" must be positive").fail()
        }
        if SW == 0 || DW == 0 {
            let m = ConstMsg::new().str(op).str("width stride ").num(SW).str(" and width dilation ").num(DW);
            m.str(" must be positive").fail()
        }
        // Channels: input dim 1 against weight dim 1 times the groups; weight dim 0 by groups.
        if let (Some(c), Some(cg)) = (S::STATIC[1], W::STATIC[1]) {
            if c != cg.saturating_mul(G) {
                let m = ConstMsg::new().str(op).str("input channels ").num(c).str(" != weight in-channels ").num(cg);
                let m = m.str(" * groups ").num(G).str(" (input ").shape(&S::STATIC, S::RANK);
                m.str(", weight ").shape(&W::STATIC, W::RANK).str(")").fail()
            }
        }
        if let Some(o) = W::STATIC[0] {
            if o % G != 0 {
                let m = ConstMsg::new().str(op).str("output channels ").num(o).str(" are not divisible by groups ");
                m.num(G).fail()
            }
        }
        let mut i = 2;
        while i < 2 + SPATIAL {
            let (pd, dl) = if i == 3 { (PW, DW) } else { (PD, DL) };
            if let (Some(n), Some(k)) = (S::STATIC[i], W::STATIC[i]) {
                let padded = n.saturating_add(pd.saturating_mul(2));
                if k == 0 || dl.saturating_mul(k - 1).saturating_add(1) > padded {
                    let dim = if SPATIAL == 1 {
                        "length "
                    } else if i == 2 {
                        "height "
                    } else {
                        "width "
                    };
                    let m = ConstMsg::new().str(op).str("kernel ").str(dim).num(k).str(" (dilation ").num(dl);
                    let m = m.str(") does not fit input ").str(dim).num(n).str(" + 2 * padding ").num(pd);
                    m.str(": the output would be empty").fail()
                }
            }
            i += 1;
        }
    };
}

/// The build-time checks of a typed transposed convolution: positive stride, dilation and
/// groups; an output padding below the stride or the dilation; static channels that match; a
/// positive static output size.
#[allow(clippy::type_complexity)]
#[doc(hidden)]
pub struct ConvTCheck<
    S,
    W,
    const ST: usize,
    const PD: usize,
    const OP: usize,
    const DL: usize,
    const G: usize,
    const SW: usize,
    const PW: usize,
    const OPW: usize,
    const DW: usize,
>(core::marker::PhantomData<(S, W)>);
impl<
        S: Shape,
        W: Shape,
        const ST: usize,
        const PD: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > BuildCheck for ConvTCheck<S, W, ST, PD, OP, DL, G, SW, PW, OPW, DW>
{
    const OK: () = {
        let op = "conv_transpose2d: ";
        if ST == 0 || DL == 0 || G == 0 {
            let m = ConstMsg::new().str(op).str("stride ").num(ST).str(", dilation ").num(DL).str(" and groups ");
            m.num(G).str(" must be positive").fail()
        }
        if SW == 0 || DW == 0 {
            let m = ConstMsg::new().str(op).str("width stride ").num(SW).str(" and width dilation ").num(DW);
            m.str(" must be positive").fail()
        }
        if OP >= ST && OP >= DL {
            let m = ConstMsg::new().str(op).str("output padding ").num(OP).str(" must be smaller than the stride ");
            m.num(ST).str(" or the dilation ").num(DL).fail()
        }
        if OPW >= SW && OPW >= DW {
            let m = ConstMsg::new().str(op).str("width output padding ").num(OPW);
            m.str(" must be smaller than the width stride ").num(SW).str(" or the width dilation ").num(DW).fail()
        }
        if let (Some(c), Some(ci)) = (S::STATIC[1], W::STATIC[0]) {
            if c != ci || c % G != 0 {
                let m = ConstMsg::new().str(op).str("input channels ").num(c).str(" against weights ");
                let m = m.shape(&W::STATIC, W::RANK).str(" with groups ").num(G);
                m.str(": the weight's first dim must equal the channels, which groups must divide").fail()
            }
        }
        let mut i = 2;
        while i < 4 {
            let (st, pd, opd, dl) = if i == 3 { (SW, PW, OPW, DW) } else { (ST, PD, OP, DL) };
            if let (Some(n), Some(k)) = (S::STATIC[i], W::STATIC[i]) {
                let span = if n == 0 || k == 0 {
                    0
                } else {
                    (n - 1).saturating_mul(st).saturating_add(dl.saturating_mul(k - 1)).saturating_add(opd + 1)
                };
                if span <= pd.saturating_mul(2) {
                    let dim = if i == 2 { "height " } else { "width " };
                    let m = ConstMsg::new().str(op).str("input ").str(dim).num(n).str(" with kernel ").num(k);
                    let m = m.str(", stride ").num(st).str(", dilation ").num(dl).str(" and output padding ").num(opd);
                    m.str(" gives no output once padding ").num(pd).str(" is cut from both sides").fail()
                }
            }
            i += 1;
        }
    };
}

/// Convolutions.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// The convolution with the run-time hyper-parameters `a`; `one_d` reads `[N, C, L]` input
    /// and `[O, C/G, K]` weights as height-1 images.
    fn conv_rt<D2: Data<Elem = D::Elem>, W: Shape, B: Bias<D::Elem>, S2: Shape>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: &B,
        a: ConvArgs,
        one_d: bool,
    ) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let op = if one_d { "conv1d" } else { "conv2d" };
        let (xs, ws) = (self.sizes(), weight.sizes());
        let rank = if one_d { 3 } else { 4 };
        if xs.len() != rank || ws.len() != rank {
            let want = if one_d {
                "[N, C, L] input and [O, C/groups, K]"
            } else {
                "[N, C, H, W] input and [O, C/groups, KH, KW]"
            };
            return Err(invalid(format!("{op}: expects {want} weights, got input {xs:?} and weights {ws:?}")));
        }
        // As height-1 images for 1-D.
        let (x4, w4) = if one_d {
            ([xs[0], xs[1], 1, xs[2]], [ws[0], ws[1], 1, ws[2]])
        } else {
            ([xs[0], xs[1], xs[2], xs[3]], [ws[0], ws[1], ws[2], ws[3]])
        };
        let [n, c, h, w] = x4;
        let [o, cg, kh, kw] = w4;
        let g = a.groups;
        if g == 0 || cg.checked_mul(g) != Some(c) || o % g != 0 {
            return Err(invalid(format!(
                "{op}: input {xs:?} and weights {ws:?} with groups {g}: the input channels ({c}) must equal the weight's \
                 in-channels ({cg}) times groups, and groups must be positive and divide the output channels ({o})"
            )));
        }
        let bias = bias_values(op, bias, o, ws)?;
        let oh = out_size(op, "height", h, kh, a.stride[0], a.padding[0], a.dilation[0])?;
        let ow = out_size(op, if one_d { "length" } else { "width" }, w, kw, a.stride[1], a.padding[1], a.dilation[1])?;
        let out_sizes: &[usize] = if one_d { &[n, o, ow] } else { &[n, o, oh, ow] };
        Layout::contiguous(out_sizes)?;
        // The im2col buffer `[C/G * KH * KW, OH * OW]`.
        Layout::contiguous(&[cg, kh, kw, oh, ow])?;
        let geom = Geom { n, c, h, w, kh, kw, stride: a.stride, pad: a.padding, dil: a.dilation, oh, ow };
        run_conv(self, weight, bias, &geom, [o, g], out_sizes, kernels::conv::conv2d)
    }

    /// 2-D convolution (PyTorch `torch.nn.functional.conv2d(input, weight, bias, stride,
    /// padding, dilation, groups)`, a cross-correlation as PyTorch's): input `[N, C, H, W]`,
    /// weights `[O, C / GROUPS, KH, KW]`, an optional bias `[O]`, output `[N, O, OH, OW]` with
    /// `OH = (H + 2P - DL(KH - 1) - 1) / S + 1` (likewise `OW` with the width's). The
    /// hyper-parameters are one value ([`Conv2dArg`]):
    /// - `Conv::<S, P, DL, GROUPS, SW, PW, DW>`, the width's (`SW`, `PW`, `DW`) by default the
    ///   height's (PyTorch's pairs, `stride=(1, 2)`, are `Conv::<1, 0, 1, 1, 2>`); `OH` and `OW`
    ///   are static when `H`, `W`, `KH`, `KW` are (sizes 0..=1024), `Dyn` otherwise. When the
    ///   program is built, a zero stride, dilation or group count, static channels that do not
    ///   match, or a static kernel that does not fit the padded input is an error naming the
    ///   sizes.
    /// - a [`ConvArgs`] of run-time values (PyTorch's keyword arguments): a [`DynShape`] result,
    ///   every rule checked at run time.
    ///
    /// Computed as im2col and a matrix product (faer for f32/f64).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::{Conv, NoBias};
    /// let x: Tensor<f32, Shape![1, 1, 4, 4]> = Tensor::ones();
    /// let w: Tensor<f32, Shape![2, 1, 3, 3]> = Tensor::ones();
    /// let b: Tensor<f32, Shape![2]> = Tensor::from([0.0, 1.0]);
    /// let y: Tensor<f32, Shape![1, 2, 4, 4]> = x.conv2d(&w, &b, Conv::<1, 1>);
    /// assert_eq!(y.to_vec()[..4], [4.0, 6.0, 6.0, 4.0]);
    /// let y: Tensor<f32, Shape![1, 2, 2, 2]> = x.conv2d(&w, NoBias, Conv::<1, 0>);
    /// assert_eq!(y.to_vec(), [9.0; 8]);
    /// // Height and width apart: stride (1, 2), padding (0, 1), a 3x2 kernel.
    /// let w32: Tensor<f32, Shape![1, 1, 3, 2]> = Tensor::ones();
    /// let y: Tensor<f32, Shape![1, 1, 2, 3]> = x.conv2d(&w32, NoBias, Conv::<1, 0, 1, 1, 2, 1>);
    /// assert_eq!(y.to_vec(), [3.0, 6.0, 3.0, 3.0, 6.0, 3.0]);
    /// // The same with run-time hyper-parameters: a `DynShape` result.
    /// use shaped::{ConvArgs, DynShape};
    /// let a = ConvArgs { stride: [1, 2], padding: [0, 1], ..ConvArgs::default() };
    /// let y: Tensor<f32, DynShape> = x.conv2d(&w32, NoBias, a);
    /// assert_eq!((y.sizes(), y.to_vec()), (&[1, 1, 2, 3][..], vec![3.0, 6.0, 3.0, 3.0, 6.0, 3.0]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the shapes when run-time channels do not match (input `C`
    /// against `C / GROUPS` of the weights times `GROUPS`, `GROUPS` not dividing `O`), the bias
    /// is not `[O]`, or a run-time kernel does not fit the padded input; for [`DynShape`]
    /// tensors also when the ranks are not 4; [`ShapeError::Overflow`] for an output past
    /// `isize::MAX` elements; [`ShapeError::Alloc`].
    pub fn try_conv2d<D2, W, B, A>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: B,
        args: A,
    ) -> Result<Tensor<D::Elem, A::Out>, ShapeError>
    where
        D2: Data<Elem = D::Elem>,
        W: Shape,
        B: Bias<D::Elem>,
        A: Conv2dArg<S, W>,
    {
        let () = <A::Check as BuildCheck>::OK;
        self.conv_rt(weight, &bias, args.args(), false)
    }
    /// [`try_conv2d`](Self::try_conv2d), panicking with the error's message.
    #[track_caller]
    pub fn conv2d<D2, W, B, A>(&self, weight: &TensorBase<D2, W>, bias: B, args: A) -> Tensor<D::Elem, A::Out>
    where
        D2: Data<Elem = D::Elem>,
        W: Shape,
        B: Bias<D::Elem>,
        A: Conv2dArg<S, W>,
    {
        // Checked here rather than through `try_conv2d` (which would report the failure twice),
        // so that a failure names the user's call.
        let () = <A::Check as BuildCheck>::OK;
        self.conv_rt(weight, &bias, args.args(), false).or_panic()
    }
    /// [`try_conv2d`](Self::try_conv2d) with run-time hyper-parameters (per spatial dim): a
    /// [`DynShape`] result `[N, O, OH, OW]`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the shapes when the ranks are not 4, the channels or groups
    /// do not match, the bias is not `[O]`, a stride, dilation or kernel size is 0, or the kernel
    /// does not fit the padded input; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[deprecated(
        note = "the hyper-parameters are one argument: `conv2d(&w, bias, args)` takes a `ConvArgs` as well as a `Conv::<..>` (a `DynShape` result for `ConvArgs`)"
    )]
    #[try_twin]
    pub fn try_conv2d_dyn<D2: Data<Elem = D::Elem>, W: Shape, B: Bias<D::Elem>>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: B,
        args: ConvArgs,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.try_conv2d(weight, bias, args)
    }

    /// 1-D convolution (PyTorch `torch.nn.functional.conv1d`): input `[N, C, L]`, weights
    /// `[O, C / GROUPS, K]`, an optional bias `[O]`, output `[N, O, OL]` with
    /// `OL = (L + 2P - DL(K - 1) - 1) / S + 1`, static when `L` and `K` are. The
    /// hyper-parameters are one value ([`Conv1dArg`]): `Conv::<S, P, DL, GROUPS>` (a typed result
    /// and the build-time checks of [`conv2d`](Self::conv2d)) or a [`Conv1dArgs`] of run-time
    /// values (a [`DynShape`] result).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::{Conv, NoBias};
    /// let x: Tensor<f64, Shape![1, 1, 5]> = Tensor::from([[[1.0, 2.0, 3.0, 4.0, 5.0]]]);
    /// let w: Tensor<f64, Shape![1, 1, 2]> = Tensor::from([[[1.0, -1.0]]]);
    /// let y: Tensor<f64, Shape![1, 1, 2]> = x.conv1d(&w, NoBias, Conv::<2>);
    /// assert_eq!(y.to_vec(), [-1.0, -1.0]);
    /// let y = x.conv1d(&w, NoBias, shaped::Conv1dArgs { stride: 2, ..Default::default() });
    /// assert_eq!((y.sizes(), y.to_vec()), (&[1, 1, 2][..], vec![-1.0, -1.0]));
    /// ```
    ///
    /// # Errors
    /// As [`try_conv2d`](Self::try_conv2d), for rank-3 operands.
    pub fn try_conv1d<D2, W, B, A>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: B,
        args: A,
    ) -> Result<Tensor<D::Elem, A::Out>, ShapeError>
    where
        D2: Data<Elem = D::Elem>,
        W: Shape,
        B: Bias<D::Elem>,
        A: Conv1dArg<S, W>,
    {
        let () = <A::Check as BuildCheck>::OK;
        self.conv_rt(weight, &bias, as_2d_args(args.args1()), true)
    }
    /// [`try_conv1d`](Self::try_conv1d), panicking with the error's message.
    #[track_caller]
    pub fn conv1d<D2, W, B, A>(&self, weight: &TensorBase<D2, W>, bias: B, args: A) -> Tensor<D::Elem, A::Out>
    where
        D2: Data<Elem = D::Elem>,
        W: Shape,
        B: Bias<D::Elem>,
        A: Conv1dArg<S, W>,
    {
        let () = <A::Check as BuildCheck>::OK;
        self.conv_rt(weight, &bias, as_2d_args(args.args1()), true).or_panic()
    }
    /// [`try_conv1d`](Self::try_conv1d) with run-time hyper-parameters: a [`DynShape`] result
    /// `[N, O, OL]`.
    ///
    /// # Errors
    /// As [`try_conv2d`](Self::try_conv2d) with a [`ConvArgs`], for rank-3 operands.
    #[deprecated(
        note = "the hyper-parameters are one argument: `conv1d(&w, bias, args)` takes a `Conv1dArgs` as well as a `Conv::<..>` (a `DynShape` result for `Conv1dArgs`)"
    )]
    #[try_twin]
    pub fn try_conv1d_dyn<D2: Data<Elem = D::Elem>, W: Shape, B: Bias<D::Elem>>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: B,
        args: Conv1dArgs,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.try_conv1d(weight, bias, args)
    }
}

/// Transposed convolution.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// 2-D transposed convolution (PyTorch `torch.nn.functional.conv_transpose2d(input, weight,
    /// bias, stride, padding, output_padding, groups, dilation)`, the gradient of `conv2d` with
    /// respect to its input): input `[N, C, H, W]`, weights `[C, O / G, KH, KW]`, an optional
    /// bias `[O]`, output `[N, O, OH, OW]` with `OH = (H - 1)S - 2P + DL(KH - 1) + OP + 1`
    /// (likewise `OW` with the width's). The hyper-parameters are one value
    /// ([`ConvTranspose2dArg`]):
    /// - `ConvT::<S, P, OP, DL, G, ..>`: `OH`, `OW` static when `H` and `KH` are (and `O` when
    ///   `O / G` is); when the program is built, a zero stride, dilation or group count, an
    ///   output padding not below the stride or the dilation, static channels that do not match,
    ///   or an empty static output is an error naming the sizes;
    /// - a [`ConvTransposeArgs`] of run-time values: a [`DynShape`] result.
    ///
    /// Computed as the matrix product `wᵀ @ x` per image and group (the crate's gemm) and a
    /// col2im sum.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Shape, Tensor};
    /// use shaped::{ConvT, ConvTransposeArgs, NoBias};
    /// let x: Tensor<f32, Shape![2, 8, 7, 7]> = Tensor::ones();
    /// let w: Tensor<f32, Shape![8, 4, 3, 3]> = Tensor::ones();
    /// // Stride 2, padding 1, output padding 1: doubles the size.
    /// let y: Tensor<f32, Shape![2, 4, 14, 14]> = x.conv_transpose2d(&w, NoBias, ConvT::<2, 1, 1>);
    /// assert_eq!(y.to_vec()[0], 8.0);
    /// // Run-time hyper-parameters.
    /// let x = Tensor::<f32, DynShape>::from_vec(&[1, 1, 2, 2], vec![1.0, 2.0, 3.0, 4.0]);
    /// let w = Tensor::<f32, DynShape>::from_vec(&[1, 1, 2, 2], vec![1.0; 4]);
    /// let a = ConvTransposeArgs { stride: [2, 2], ..Default::default() };
    /// let y = x.conv_transpose2d(&w, NoBias, a);
    /// assert_eq!(y.sizes(), [1, 1, 4, 4]);
    /// assert_eq!(y.to_vec()[..4], [1.0, 1.0, 2.0, 2.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the shapes when the ranks are not 4, the input channels do
    /// not match the weights' first dim, groups is 0 or does not divide it, the bias is not
    /// `[O]`, a stride or dilation is 0, an output padding is not smaller than the stride or the
    /// dilation, or the output would be empty (for what the types do not fix);
    /// [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    pub fn try_conv_transpose2d<D2, W, B, A>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: B,
        args: A,
    ) -> Result<Tensor<D::Elem, A::Out>, ShapeError>
    where
        D2: Data<Elem = D::Elem>,
        W: Shape,
        B: Bias<D::Elem>,
        A: ConvTranspose2dArg<S, W>,
    {
        let () = <A::Check as BuildCheck>::OK;
        self.conv_transpose_rt(weight, &bias, args.args())
    }
    /// [`try_conv_transpose2d`](Self::try_conv_transpose2d), panicking with the error's message.
    #[track_caller]
    pub fn conv_transpose2d<D2, W, B, A>(&self, weight: &TensorBase<D2, W>, bias: B, args: A) -> Tensor<D::Elem, A::Out>
    where
        D2: Data<Elem = D::Elem>,
        W: Shape,
        B: Bias<D::Elem>,
        A: ConvTranspose2dArg<S, W>,
    {
        let () = <A::Check as BuildCheck>::OK;
        self.conv_transpose_rt(weight, &bias, args.args()).or_panic()
    }
    /// [`try_conv_transpose2d`](Self::try_conv_transpose2d) with run-time hyper-parameters: a
    /// [`DynShape`] result.
    ///
    /// # Errors
    /// As [`try_conv_transpose2d`](Self::try_conv_transpose2d).
    #[deprecated(
        note = "the hyper-parameters are one argument: `conv_transpose2d(&w, bias, args)` takes a `ConvTransposeArgs` as well as a `ConvT::<..>` (a `DynShape` result for `ConvTransposeArgs`)"
    )]
    #[try_twin]
    pub fn try_conv_transpose2d_dyn<D2: Data<Elem = D::Elem>, W: Shape, B: Bias<D::Elem>>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: B,
        args: ConvTransposeArgs,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.try_conv_transpose2d(weight, bias, args)
    }

    fn conv_transpose_rt<D2: Data<Elem = D::Elem>, W: Shape, B: Bias<D::Elem>, S2: Shape>(
        &self,
        weight: &TensorBase<D2, W>,
        bias: &B,
        a: ConvTransposeArgs,
    ) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let op = "conv_transpose2d";
        let (xs, ws) = (self.sizes(), weight.sizes());
        let ([n, c, h, w], [ci, og, kh, kw]) = match (xs, ws) {
            (&[n, c, h, w], &[ci, og, kh, kw]) => ([n, c, h, w], [ci, og, kh, kw]),
            _ => {
                return Err(invalid(format!(
                    "{op}: expects [N, C, H, W] input and [C, O/groups, KH, KW] weights, got input {xs:?} and weights {ws:?}"
                )))
            }
        };
        let g = a.groups;
        if g == 0 || c != ci || c % g != 0 {
            return Err(invalid(format!(
                "{op}: input {xs:?} and weights {ws:?} with groups {g}: the input channels ({c}) must equal the weight's \
                 first dim ({ci}), and groups must be positive and divide it"
            )));
        }
        let o = og.checked_mul(g).ok_or_else(|| ShapeError::Overflow { sizes: ws.into() })?;
        let bias = bias_values(op, bias, o, ws)?;
        let mut outs = [0usize; 2];
        for (i, (dim, n_in, k)) in [("height", h, kh), ("width", w, kw)].into_iter().enumerate() {
            let (s, p, op_, d) = (a.stride[i], a.padding[i], a.output_padding[i], a.dilation[i]);
            // In 128 bits: every term fits, and the sum is compared before it becomes a size.
            let reach = (n_in as i128 - 1) * s as i128 + d as i128 * (k as i128 - 1);
            let size = reach - 2 * p as i128 + op_ as i128 + 1;
            // The kernel steps to `reach` before cutting the padding: it must fit too.
            if reach > isize::MAX as i128 {
                return Err(ShapeError::Overflow { sizes: xs.into() });
            }
            if s == 0
                || d == 0
                || k == 0
                || n_in == 0
                || (op_ >= s && op_ >= d)
                || size <= 0
                || size > isize::MAX as i128
            {
                return Err(invalid(format!(
                    "{op}: no output {dim}: input {dim} {n_in}, kernel {k}, stride {s}, padding {p}, output padding {op_}, \
                     dilation {d} (the size (n - 1)s - 2p + d(k - 1) + output_padding + 1 must be positive, with n, k, s, \
                     d >= 1 and output_padding below the stride or the dilation)"
                )));
            }
            outs[i] = size as usize;
        }
        let [oh, ow] = outs;
        let sizes = [n, o, oh, ow];
        Layout::contiguous(&sizes)?;
        Layout::contiguous(&[og, kh, kw, h, w])?;
        let geom = Geom { n, c, h, w, kh, kw, stride: a.stride, pad: a.padding, dil: a.dilation, oh, ow };
        run_conv(self, weight, bias, &geom, [o, g], &sizes, kernels::conv::conv_transpose2d)
    }
}
