//! The convolution and pooling layers (PyTorch's `nn.Conv1d`, `nn.Conv2d`, `nn.ConvTranspose2d`,
//! `nn.MaxPool2d`, `nn.AvgPool2d`): each a struct of public [`Param`] fields named as PyTorch
//! names them, its sizes and hyper-parameters in its type, PyTorch's default initialisation from
//! a caller-supplied generator, and a [`Forward`] that calls the functional form
//! ([`Var::try_conv2d`] and its kin).
use super::layers::watch_weight_bias;
use super::{Forward, Item, Module};
use crate::autograd::{GradFloat, Param, Tape, Var};
use crate::dim::Dim;
use crate::error::ShapeError;
use crate::tensor::Tensor;
#[cfg(feature = "rand")]
use {
    super::layers::{fan_in_params, size_of},
    crate::dim::ConstDim,
    crate::error::OrPanic,
};

/// The kernel sizes `[height, width]` that one size `k` of a `try_new_sized` gives a layer whose
/// kernel dims are `K` and `KW`: `k` for both, except a static width beside a runtime height,
/// which keeps its own size (`None`).
#[cfg(feature = "rand")]
fn square_kernel<K: Dim, KW: Dim>(k: Option<usize>) -> [Option<usize>; 2] {
    [k, if KW::STATIC.is_some() && K::STATIC.is_none() { None } else { k }]
}

/// The kernel's height and width of a 2-D `layer` whose kernel dims are `K` and `KW`: each the
/// static size, or the given one checked against it (see [`size_of`]).
#[cfg(feature = "rand")]
fn kernel_sizes<K: Dim, KW: Dim>(layer: &str, [kh, kw]: [Option<usize>; 2]) -> Result<[usize; 2], ShapeError> {
    Ok([size_of::<K>(kh, layer, "kernel height")?, size_of::<KW>(kw, layer, "kernel width")?])
}

/// A 2-D convolution (PyTorch `nn.Conv2d(in_channels, out_channels, kernel_size, stride,
/// padding, dilation, groups, bias)`): `[N, CG * G, H, W] -> [N, O, OH, OW]`. `CG` is the input
/// channels per group (the input channels when `G = 1`), `K` the kernel's height; the
/// hyper-parameters are const generics as [`Conv`](crate::Conv)'s (`ST`, `PD`, `DL` the
/// height's). Height and width apart, as PyTorch's pairs: `KW` is the kernel's width and `SW`,
/// `PW`, `DW` the width's stride, padding and dilation, each by default the height's
/// (`nn.Conv2d(3, 8, (3, 5), stride=(1, 2))` is `Conv2d<Const<3>, Const<8>, Const<3>, f32, 1,
/// 0, 1, 1, Const<5>, 2>`). `weight` is `[O, CG, K, KW]` and `bias` `[O]`, PyTorch's keys; both
/// initialised from U(-1/√fan_in, 1/√fan_in) with `fan_in = CG K KW`, as PyTorch's default.
///
/// A static kernel larger than the padded input is a compile error, and so are static channel
/// counts that do not match (`Conv2dChannels`); a runtime channel count is checked against
/// `CG * G` at run time.
#[derive(Clone, Debug)]
pub struct Conv2d<
    CG: Dim,
    O: Dim,
    K: Dim,
    T: GradFloat = f32,
    const ST: usize = 1,
    const PD: usize = 0,
    const DL: usize = 1,
    const G: usize = 1,
    KW: Dim = K,
    const SW: usize = ST,
    const PW: usize = PD,
    const DW: usize = DL,
> {
    /// `[out_channels, in_channels / groups, K, KW]`.
    pub weight: Param<T, (O, CG, K, KW)>,
    /// `[out_channels]`, or `None` for `bias=False`.
    pub bias: Option<Param<T, (O,)>>,
}

impl<
        CG: Dim,
        O: Dim,
        K: Dim,
        T: GradFloat,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
        KW: Dim,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Conv2d<CG, O, K, T, ST, PD, DL, G, KW, SW, PW, DW>
{
    /// A layer with PyTorch's default initialisation (weight first, then bias, from `rng`).
    /// Static sizes.
    #[cfg(feature = "rand")]
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        CG: ConstDim,
        O: ConstDim,
        K: ConstDim,
        KW: ConstDim,
    {
        Self::try_new_sized(None, None, None, true, rng).or_panic()
    }

    /// A layer of `cg` input channels per group, `o` output channels and a `k` by `k` kernel
    /// (each `None`: the type's static size; `k` sizes both a runtime height and a runtime
    /// width), with or without a bias.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized(
        cg: Option<usize>,
        o: Option<usize>,
        k: Option<usize>,
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        Self::try_new_sized_hw(cg, o, square_kernel::<K, KW>(k), bias, rng)
    }

    /// A layer of `cg` input channels per group, `o` output channels and a `kh` by `kw` kernel
    /// (PyTorch's `kernel_size=(kh, kw)`; each `None`: the type's static size), with or without
    /// a bias.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized_hw(
        cg: Option<usize>,
        o: Option<usize>,
        [kh, kw]: [Option<usize>; 2],
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        let cg = size_of::<CG>(cg, "Conv2d", "in_channels / groups")?;
        let o = size_of::<O>(o, "Conv2d", "out_channels")?;
        let [kh, kw] = kernel_sizes::<K, KW>("Conv2d", [kh, kw])?;
        let (weight, bias) = fan_in_params(&[o, cg, kh, kw], &[o], cg * kh * kw, bias, rng);
        Ok(Conv2d { weight, bias })
    }

    /// A layer holding the given weight and bias.
    pub fn from_parts(weight: Tensor<T, (O, CG, K, KW)>, bias: Option<Tensor<T, (O,)>>) -> Self {
        Conv2d { weight: Param::new(weight), bias: bias.map(Param::new) }
    }
}

impl<
        CG: Dim,
        O: Dim,
        K: Dim,
        T: GradFloat,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
        KW: Dim,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Module<T> for Conv2d<CG, O, K, T, ST, PD, DL, G, KW, SW, PW, DW>
{
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
        self.bias.visit(&super::join(prefix, "bias"), f);
    }
}

impl<
        't,
        CG: Dim,
        O: Dim,
        K: Dim,
        T: GradFloat,
        S,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
        KW: Dim,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Forward<'t, T, S> for Conv2d<CG, O, K, T, ST, PD, DL, G, KW, SW, PW, DW>
where
    S: crate::shape::Conv2dShape<(O, CG, K, KW), ST, PD, DL, SW, PW, DW>
        + crate::shape::Conv2dChannels<(O, CG, K, KW), G>,
{
    type Out = <S as crate::shape::Conv2dShape<(O, CG, K, KW), ST, PD, DL, SW, PW, DW>>::Out;
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        let (w, b) = watch_weight_bias(tape, &self.weight, self.bias.as_ref());
        x.try_conv2d(&w, b.as_ref(), crate::Conv::<ST, PD, DL, G, SW, PW, DW>)
    }
}

/// 2-D max pooling (PyTorch `nn.MaxPool2d(kernel_size, stride=kernel_size, padding,
/// dilation)`): `[N, C, H, W] -> [N, C, OH, OW]`, the hyper-parameters as
/// [`Pool`](crate::Pool)'s (a stride of 0 means the kernel size, PyTorch's default): `K`,
/// `ST`, `PD`, `DL` the height's, `KW`, `SW`, `PW`, `DW` the width's, by default the height's
/// (`nn.MaxPool2d((3, 2), stride=(1, 2))` is `MaxPool2d<3, 1, 0, 1, 2, 2>`). No parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MaxPool2d<
    const K: usize,
    const ST: usize = 0,
    const PD: usize = 0,
    const DL: usize = 1,
    const KW: usize = K,
    const SW: usize = ST,
    const PW: usize = PD,
    const DW: usize = DL,
>;

impl<
        T: GradFloat,
        const K: usize,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Module<T> for MaxPool2d<K, ST, PD, DL, KW, SW, PW, DW>
{
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

impl<
        't,
        T: GradFloat,
        S,
        const K: usize,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Forward<'t, T, S> for MaxPool2d<K, ST, PD, DL, KW, SW, PW, DW>
where
    S: crate::shape::Pool2dShape<K, ST, PD, DL, KW, SW, PW, DW>,
{
    type Out = <S as crate::shape::Pool2dShape<K, ST, PD, DL, KW, SW, PW, DW>>::Out;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        Ok(x.max_pool2d(crate::Pool::<K, ST, PD, DL, KW, SW, PW, DW>))
    }
}

/// 2-D average pooling (PyTorch `nn.AvgPool2d(kernel_size, stride=kernel_size, padding,
/// count_include_pad=True)`): `[N, C, H, W] -> [N, C, OH, OW]`; `K`, `ST`, `PD` the height's,
/// `KW`, `SW`, `PW` the width's, by default the height's (a stride of 0 means the kernel size).
/// No parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AvgPool2d<
    const K: usize,
    const ST: usize = 0,
    const PD: usize = 0,
    const KW: usize = K,
    const SW: usize = ST,
    const PW: usize = PD,
> {
    /// Whether the padding's zeros count in each window's mean (PyTorch's default `true`).
    pub count_include_pad: bool,
}

impl<const K: usize, const ST: usize, const PD: usize, const KW: usize, const SW: usize, const PW: usize> Default
    for AvgPool2d<K, ST, PD, KW, SW, PW>
{
    fn default() -> Self {
        AvgPool2d { count_include_pad: true }
    }
}

impl<
        T: GradFloat,
        const K: usize,
        const ST: usize,
        const PD: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
    > Module<T> for AvgPool2d<K, ST, PD, KW, SW, PW>
{
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

impl<
        't,
        T: GradFloat,
        S,
        const K: usize,
        const ST: usize,
        const PD: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
    > Forward<'t, T, S> for AvgPool2d<K, ST, PD, KW, SW, PW>
where
    S: crate::shape::Pool2dShape<K, ST, PD, 1, KW, SW, PW, 1>,
{
    type Out = <S as crate::shape::Pool2dShape<K, ST, PD, 1, KW, SW, PW, 1>>::Out;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        Ok(x.avg_pool2d(crate::Pool::<K, ST, PD, 1, KW, SW, PW, 1>, self.count_include_pad))
    }
}

// ---------------------------------------------------------------------------------------------

/// A 1-D convolution (PyTorch `nn.Conv1d(in_channels, out_channels, kernel_size, stride, padding,
/// dilation, groups, bias)`): `[N, CG * G, L] -> [N, O, OL]`. `CG` is the input channels per
/// group, `K` the kernel size; the hyper-parameters are const generics as
/// [`Conv`](crate::Conv)'s. `weight` is `[O, CG, K]` and `bias` `[O]`, both from
/// U(-1/√fan_in, 1/√fan_in) with `fan_in = CG K` (PyTorch's default).
#[derive(Clone, Debug)]
pub struct Conv1d<
    CG: Dim,
    O: Dim,
    K: Dim,
    T: GradFloat = f32,
    const ST: usize = 1,
    const PD: usize = 0,
    const DL: usize = 1,
    const G: usize = 1,
> {
    /// `[out_channels, in_channels / groups, K]`.
    pub weight: Param<T, (O, CG, K)>,
    /// `[out_channels]`, or `None` for `bias=False`.
    pub bias: Option<Param<T, (O,)>>,
}

impl<CG: Dim, O: Dim, K: Dim, T: GradFloat, const ST: usize, const PD: usize, const DL: usize, const G: usize>
    Conv1d<CG, O, K, T, ST, PD, DL, G>
{
    /// A layer with PyTorch's default initialisation (weight first, then bias). Static sizes.
    #[cfg(feature = "rand")]
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        CG: ConstDim,
        O: ConstDim,
        K: ConstDim,
    {
        Self::try_new_sized(None, None, None, true, rng).or_panic()
    }

    /// A layer of `cg` input channels per group, `o` output channels and a kernel of `k` (each
    /// `None`: the type's static size), with or without a bias.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized(
        cg: Option<usize>,
        o: Option<usize>,
        k: Option<usize>,
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        let cg = size_of::<CG>(cg, "Conv1d", "in_channels / groups")?;
        let o = size_of::<O>(o, "Conv1d", "out_channels")?;
        let k = size_of::<K>(k, "Conv1d", "kernel_size")?;
        let (weight, bias) = fan_in_params(&[o, cg, k], &[o], cg * k, bias, rng);
        Ok(Conv1d { weight, bias })
    }
}

impl<CG: Dim, O: Dim, K: Dim, T: GradFloat, const ST: usize, const PD: usize, const DL: usize, const G: usize> Module<T>
    for Conv1d<CG, O, K, T, ST, PD, DL, G>
{
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
        self.bias.visit(&super::join(prefix, "bias"), f);
    }
}

impl<
        't,
        CG: Dim,
        O: Dim,
        K: Dim,
        T: GradFloat,
        S,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const G: usize,
    > Forward<'t, T, S> for Conv1d<CG, O, K, T, ST, PD, DL, G>
where
    S: crate::shape::Conv1dShape<(O, CG, K), ST, PD, DL> + crate::shape::Conv1dChannels<(O, CG, K), G>,
{
    type Out = <S as crate::shape::Conv1dShape<(O, CG, K), ST, PD, DL>>::Out;
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        let (w, b) = watch_weight_bias(tape, &self.weight, self.bias.as_ref());
        x.try_conv1d(&w, b.as_ref(), crate::Conv::<ST, PD, DL, G>)
    }
}

/// A 2-D transposed convolution (PyTorch `nn.ConvTranspose2d(in_channels, out_channels,
/// kernel_size, stride, padding, output_padding, groups, bias, dilation)`):
/// `[N, C, H, W] -> [N, OG * G, OH, OW]`. `weight` is `[C, OG, K, KW]` (PyTorch's layout: input
/// channels first, `OG` the output channels per group) and `bias` `[OG * G]`; both from
/// U(-1/√fan_in, 1/√fan_in) with PyTorch's `fan_in = OG K KW` (the weight's dim 1 times the
/// kernel). The hyper-parameters are const generics as [`ConvT`](crate::ConvT)'s: `K`, `ST`,
/// `PD`, `OP`, `DL` the height's, `KW`, `SW`, `PW`, `OPW`, `DW` the width's, by default the
/// height's.
#[derive(Clone, Debug)]
pub struct ConvTranspose2d<
    C: Dim,
    OG: Dim,
    K: Dim,
    T: GradFloat = f32,
    const ST: usize = 1,
    const PD: usize = 0,
    const OP: usize = 0,
    const DL: usize = 1,
    const G: usize = 1,
    KW: Dim = K,
    const SW: usize = ST,
    const PW: usize = PD,
    const OPW: usize = OP,
    const DW: usize = DL,
> {
    /// `[in_channels, out_channels / groups, K, KW]`.
    pub weight: Param<T, (C, OG, K, KW)>,
    /// `[out_channels]` (a runtime dim: `OG * G`), or `None` for `bias=False`.
    pub bias: Option<Param<T, (crate::dim::Dyn,)>>,
}

impl<
        C: Dim,
        OG: Dim,
        K: Dim,
        T: GradFloat,
        const ST: usize,
        const PD: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        KW: Dim,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > ConvTranspose2d<C, OG, K, T, ST, PD, OP, DL, G, KW, SW, PW, OPW, DW>
{
    /// A layer with PyTorch's default initialisation (weight first, then bias). Static sizes.
    #[cfg(feature = "rand")]
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        C: ConstDim,
        OG: ConstDim,
        K: ConstDim,
        KW: ConstDim,
    {
        Self::try_new_sized(None, None, None, true, rng).or_panic()
    }

    /// A layer of `c` input channels, `og` output channels per group and a `k` by `k` kernel
    /// (each `None`: the type's static size; `k` sizes both a runtime height and a runtime
    /// width), with or without a bias.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized(
        c: Option<usize>,
        og: Option<usize>,
        k: Option<usize>,
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        Self::try_new_sized_hw(c, og, square_kernel::<K, KW>(k), bias, rng)
    }

    /// A layer of `c` input channels, `og` output channels per group and a `kh` by `kw` kernel
    /// (PyTorch's `kernel_size=(kh, kw)`; each `None`: the type's static size), with or without
    /// a bias.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized_hw(
        c: Option<usize>,
        og: Option<usize>,
        [kh, kw]: [Option<usize>; 2],
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        let c = size_of::<C>(c, "ConvTranspose2d", "in_channels")?;
        let og = size_of::<OG>(og, "ConvTranspose2d", "out_channels / groups")?;
        let [kh, kw] = kernel_sizes::<K, KW>("ConvTranspose2d", [kh, kw])?;
        // PyTorch's fan in of a transposed convolution: the weight's dim 1 times the kernel.
        let (weight, bias) = fan_in_params(&[c, og, kh, kw], &[og * G], og * kh * kw, bias, rng);
        Ok(ConvTranspose2d { weight, bias })
    }
}

impl<
        C: Dim,
        OG: Dim,
        K: Dim,
        T: GradFloat,
        const ST: usize,
        const PD: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        KW: Dim,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > Module<T> for ConvTranspose2d<C, OG, K, T, ST, PD, OP, DL, G, KW, SW, PW, OPW, DW>
{
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
        self.bias.visit(&super::join(prefix, "bias"), f);
    }
}

impl<
        't,
        C: Dim,
        OG: Dim,
        K: Dim,
        T: GradFloat,
        S,
        const ST: usize,
        const PD: usize,
        const OP: usize,
        const DL: usize,
        const G: usize,
        KW: Dim,
        const SW: usize,
        const PW: usize,
        const OPW: usize,
        const DW: usize,
    > Forward<'t, T, S> for ConvTranspose2d<C, OG, K, T, ST, PD, OP, DL, G, KW, SW, PW, OPW, DW>
where
    S: crate::shape::ConvTranspose2dShape<(C, OG, K, KW), ST, PD, OP, DL, G, SW, PW, OPW, DW>,
{
    type Out = <S as crate::shape::ConvTranspose2dShape<(C, OG, K, KW), ST, PD, OP, DL, G, SW, PW, OPW, DW>>::Out;
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        let (w, b) = watch_weight_bias(tape, &self.weight, self.bias.as_ref());
        x.try_conv_transpose2d(&w, b.as_ref(), crate::ConvT::<ST, PD, OP, DL, G, SW, PW, OPW, DW>)
    }
}
