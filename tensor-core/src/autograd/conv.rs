//! Differentiable convolution and pooling. The backward rules are convolutions too (PyTorch's
//! `convolution_backward`): the input's gradient is a transposed convolution of the output's
//! gradient with the same weights, the weights' gradient a convolution of the input with the
//! output's gradient (batch and channels swapped, stride and dilation exchanged), the bias's a
//! sum; max pooling routes each output's gradient to its window's maximum, average pooling
//! spreads it over the window.
use super::ops::{c, typed};
use super::tape::Sink;
use super::var::{back, Var};
use super::GradFloat;
use crate::error::{OrPanic, ShapeError};
use crate::kernels::reduce::Sum;
use crate::ops::conv::{
    as_2d_args, Conv1dArg, Conv1dArgs, Conv2dArg, ConvArgs, ConvTranspose2dArg, ConvTransposeArgs, NoBias, Pool2dArg,
    PoolArgs,
};
use crate::shape::{AdaptivePool2dShape, DynShape, Shape};
use crate::tensor::{Tensor, TensorView};
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// The bias of a differentiable convolution: `&b` for a tracked or constant `[O]` value, or
/// [`NoBias`].
pub trait VarBias<'t, T: GradFloat> {
    /// The bias as a runtime-shaped value (its gradient flows back to the original), if any.
    #[doc(hidden)]
    fn as_dyn_var(&self) -> Option<Var<'t, T, DynShape>>;
}
impl<'t, T: GradFloat> VarBias<'t, T> for NoBias {
    fn as_dyn_var(&self) -> Option<Var<'t, T, DynShape>> {
        None
    }
}
impl<'t, T: GradFloat, B: Shape> VarBias<'t, T> for &Var<'t, T, B> {
    #[track_caller]
    fn as_dyn_var(&self) -> Option<Var<'t, T, DynShape>> {
        Some(self.try_cast_shape::<DynShape>().or_panic())
    }
}

impl<'t, T: GradFloat, B: Shape> VarBias<'t, T> for Option<&Var<'t, T, B>> {
    #[track_caller]
    fn as_dyn_var(&self) -> Option<Var<'t, T, DynShape>> {
        self.map(|b| b.try_cast_shape::<DynShape>().or_panic())
    }
}

/// `v` as a batch of images: `[N, C, L]` as `[N, C, 1, L]` when `one_d`.
fn image<T: GradFloat>(v: TensorView<'_, T, DynShape>, one_d: bool) -> TensorView<'_, T, DynShape> {
    if one_d {
        v.unsqueeze(2)
    } else {
        v
    }
}

/// The transposed convolution that maps the output sizes `gs` of the convolution `a` with a
/// `k` kernel back to its input sizes `xs` (`[N, C, H, W]` both): the same hyper-parameters,
/// and the output padding that picks `xs` among the input sizes a strided convolution maps to
/// `gs`.
fn transposed(a: ConvArgs, k: [usize; 2], xs: &[usize], gs: &[usize]) -> ConvTransposeArgs {
    let mut output_padding = [0; 2];
    for i in 0..2 {
        let span = xs[2 + i] + 2 * a.padding[i] - a.dilation[i] * (k[i] - 1) - 1;
        output_padding[i] = span - (gs[2 + i] - 1) * a.stride[i];
    }
    ConvTransposeArgs { stride: a.stride, padding: a.padding, output_padding, dilation: a.dilation, groups: a.groups }
}

/// The input's gradient of `y = conv2d(x, w, a)` (`x` of sizes `xs`) from `g = dL/dy`: the
/// transposed convolution of `g` by `w`, which with stride 1 and a padding within the window's
/// reach is the plain convolution of `g` by the weights flipped in both spatial dims with their
/// channels swapped per group (`[C, O / groups, KH, KW]`), padded by the reach minus the
/// padding: the forward's kernels (no scatter of columns). The large 3x3 layer's forward and
/// input gradient (`[8, 64, 56, 56]`): 52.9 -> 36.4-38.1 ms on one thread.
fn input_grad<T: GradFloat>(
    w: &TensorView<'_, T, DynShape>,
    g: &TensorView<'_, T, DynShape>,
    a: ConvArgs,
    xs: &[usize],
) -> Tensor<T, DynShape> {
    let (ws, gs) = (w.sizes(), g.sizes());
    let (o, cg, kh, kw) = (ws[0], ws[1], ws[2], ws[3]);
    let reach = [a.dilation[0] * (kh - 1), a.dilation[1] * (kw - 1)];
    if a.stride != [1, 1] || a.padding[0] > reach[0] || a.padding[1] > reach[1] {
        return g.conv_transpose2d(w, NoBias, transposed(a, [kh, kw], xs, gs));
    }
    let (groups, og) = (a.groups, o / a.groups);
    let wv = w.to_vec();
    let flipped = (0..wv.len())
        .map(|k| {
            // Element `[gi cg + ci, oi, i, j]` of the flipped weights.
            let (c, oi, i, j) = (k / (og * kh * kw), (k / (kh * kw)) % og, (k / kw) % kh, k % kw);
            let (gi, ci) = (c / cg, c % cg);
            wv[(((gi * og + oi) * cg + ci) * kh + (kh - 1 - i)) * kw + (kw - 1 - j)]
        })
        .collect();
    let wf = Tensor::<T, DynShape>::from_vec(&[cg * groups, og, kh, kw], flipped);
    let args = ConvArgs {
        stride: [1, 1],
        padding: [reach[0] - a.padding[0], reach[1] - a.padding[1]],
        dilation: a.dilation,
        groups,
    };
    let gx = g.conv2d(&wf, NoBias, args);
    debug_assert_eq!(gx.sizes(), xs, "the input gradient's sizes");
    gx
}

/// The gradients of a 2-D convolution `y = conv2d(x, w, b, a)` from `g = dL/dy`: `(gx, gw, gb)`,
/// each computed only when asked for.
fn conv2d_backward<T: GradFloat>(
    x: TensorView<'_, T, DynShape>,
    w: TensorView<'_, T, DynShape>,
    g: TensorView<'_, T, DynShape>,
    a: ConvArgs,
    need: [bool; 3],
) -> [Option<Tensor<T, DynShape>>; 3] {
    let (xs, ws) = (x.sizes(), w.sizes());
    let gx = need[0].then(|| input_grad(&w, &g, a, xs));
    let gw = need[1]
        .then(|| crate::ops::conv::weight_grad::conv2d_weight_grad(&x, &g, [ws[0], ws[1], ws[2], ws[3]], a).or_panic());
    let gb = need[2].then(|| g.reduce_with(&[0, 2, 3], false, &Sum).or_panic());
    [gx, gw, gb]
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// 2-D convolution (PyTorch `nn.functional.conv2d`), differentiable in the input, the
    /// weights and the bias: input `[N, C, H, W]`, weights `[O, C / GROUPS, KH, KW]`, bias `[O]`
    /// or [`NoBias`], output `[N, O, OH, OW]` typed as
    /// [`Tensor::conv2d`](crate::TensorBase::conv2d)'s, with the same build-time checks: the
    /// hyper-parameters are a `Conv::<..>` (typed) or a [`ConvArgs`] (run-time values, PyTorch's
    /// `stride=(sh, sw), padding=(ph, pw), ...`; a [`DynShape`] result).
    ///
    /// # Errors
    /// As [`Tensor::try_conv2d`](crate::TensorBase::try_conv2d); [`ShapeError::Autograd`] when
    /// the operands are tracked by two tapes.
    #[try_twin]
    pub fn try_conv2d<W: Shape, B: VarBias<'t, T>, A: Conv2dArg<S, W>>(
        &self,
        weight: &Var<'t, T, W>,
        bias: B,
        args: A,
    ) -> Result<Var<'t, T, A::Out>, ShapeError> {
        let b = bias.as_dyn_var();
        let out = self.value().try_conv2d(weight.value(), b.as_ref().map(|v| v.value()), args)?;
        self.record_conv(weight, b, out, args.args(), false)
    }

    /// 1-D convolution (PyTorch `nn.functional.conv1d`), differentiable: input `[N, C, L]`,
    /// weights `[O, C / GROUPS, K]`, output `[N, O, OL]` as
    /// [`Tensor::conv1d`](crate::TensorBase::conv1d)'s.
    ///
    /// # Errors
    /// As [`Tensor::try_conv1d`](crate::TensorBase::try_conv1d); [`ShapeError::Autograd`] when
    /// the operands are tracked by two tapes.
    #[try_twin]
    pub fn try_conv1d<W: Shape, B: VarBias<'t, T>, A: Conv1dArg<S, W>>(
        &self,
        weight: &Var<'t, T, W>,
        bias: B,
        args: A,
    ) -> Result<Var<'t, T, A::Out>, ShapeError> {
        let b = bias.as_dyn_var();
        let out = self.value().try_conv1d(weight.value(), b.as_ref().map(|v| v.value()), args)?;
        // As height-1 images: the 2-D rule with stride, padding and dilation 1 / 0 / 1 in height.
        self.record_conv(weight, b, out, as_2d_args(args.args1()), true)
    }

    /// Records a convolution of `self` by `weight` (and the bias `b`) whose value is `out`;
    /// `one_d` reads the operands as height-1 images (`[N, C, L]` as `[N, C, 1, L]`).
    fn record_conv<W: Shape, S2: Shape>(
        &self,
        weight: &Var<'t, T, W>,
        b: Option<Var<'t, T, DynShape>>,
        out: Tensor<T, S2>,
        args: ConvArgs,
        one_d: bool,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        self.record_weighted(weight, b, out, move |x, w, g, s, [ix, iw, ib]| {
            let flat = |t: Tensor<T, DynShape>| if one_d { t.squeeze(2).to_owned() } else { t };
            let need = [ix.is_some(), iw.is_some(), ib.is_some()];
            let (xi, wi, gi) = (image(x.as_dyn(), one_d), image(w.as_dyn(), one_d), image(g.as_dyn(), one_d));
            let [gx, gw, gb] = conv2d_backward(xi, wi, gi, args, need);
            s.add_with(ix, || typed::<T, S>(flat(gx.unwrap())));
            s.add_with(iw, || typed::<T, W>(flat(gw.unwrap())));
            if let (Some(i), Some(gb)) = (ib, gb) {
                s.add(i, gb);
            }
        })
    }

    /// Records a node of `self`, `weight` and the bias `b` whose value is `out`, its backward
    /// pass `rule(x, w, g, s, [ix, iw, ib])`: the input's and the weights' values, the output's
    /// gradient, the sink and the three operands' node indices. The scaffold of the
    /// convolutions' records.
    fn record_weighted<W: Shape, S2: Shape>(
        &self,
        weight: &Var<'t, T, W>,
        b: Option<Var<'t, T, DynShape>>,
        out: Tensor<T, S2>,
        rule: impl FnOnce(&Tensor<T, S>, &Tensor<T, W>, Tensor<T, S2>, &mut Sink<T>, [Option<usize>; 3]) + 'static,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let (x, w) = (self.arc().clone(), weight.arc().clone());
        let bnode = b.as_ref().and_then(|v| v.node());
        Self::record([self.node(), weight.node(), bnode], out, move |nodes, _| {
            back(move |g: Tensor<T, S2>, s: &mut Sink<T>| rule(&x, &w, g, s, nodes))
        })
    }

    /// 2-D max pooling (PyTorch `nn.functional.max_pool2d`), differentiable: `[N, C, H, W]` to
    /// `[N, C, OH, OW]` as [`Tensor::max_pool2d`](crate::TensorBase::max_pool2d), the
    /// hyper-parameters a `Pool::<..>` or a [`PoolArgs`] (a [`DynShape`] result). Each output's
    /// gradient goes to its window's maximum (the first among equal ones, as PyTorch's CPU
    /// kernel); overlapping windows add up.
    ///
    /// # Errors
    /// As [`Tensor::try_max_pool2d`](crate::TensorBase::try_max_pool2d) (a window larger than
    /// the padded input at run time, ...); [`ShapeError::Autograd`] for a value of a finished
    /// tape.
    #[try_twin]
    pub fn try_max_pool2d<A: Pool2dArg<S>>(&self, args: A) -> Result<Var<'t, T, A::Out>, ShapeError> {
        if !self.is_tracked() {
            // No graph: PyTorch's plain forward, without the positions of the maxima.
            return Ok(Var::from_arc(alloc::sync::Arc::new(self.value().try_max_pool2d(args)?), None));
        }
        let (out, idx) = self.value().try_max_pool2d_with_indices(args)?;
        self.record_max_pool(out, idx)
    }

    /// Records a max pooling of `self` whose values are `out` and whose maxima are at the flat
    /// positions `idx` of their planes: the backward scatters each gradient to its maximum.
    fn record_max_pool<S2: Shape>(
        &self,
        out: Tensor<T, S2>,
        idx: Tensor<i64, S2>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let xl = *self.value().layout();
        self.try_record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let xs = xl.sizes();
                    let (planes, hw) = (xs[0] * xs[1], xs[2] * xs[3]);
                    let per = g.sizes()[2] * g.sizes()[3];
                    let (gv, iv) = (g.as_dyn(), idx.as_dyn());
                    let gd = gv.reshape_dyn(&[planes as isize, per as isize]);
                    let id = iv.reshape_dyn(&[planes as isize, per as isize]);
                    let mut gx = Tensor::<T, DynShape>::zeros_sized(&[planes, hw]);
                    gx.scatter_add_at(1, &id, &gd).or_panic();
                    typed::<T, S>(gx.reshape_dyn(&xs.iter().map(|&n| n as isize).collect::<Vec<_>>()).into_owned())
                })
            })
        })
    }

    /// 2-D average pooling (PyTorch `nn.functional.avg_pool2d`), differentiable: `[N, C, H, W]`
    /// to `[N, C, OH, OW]` as [`Tensor::avg_pool2d`](crate::TensorBase::avg_pool2d). Each
    /// output's gradient is spread evenly over its window (over the window's elements inside the
    /// input when `count_include_pad` is false).
    ///
    /// # Errors
    /// As [`Tensor::try_avg_pool2d`](crate::TensorBase::try_avg_pool2d);
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_avg_pool2d<A: Pool2dArg<S>>(
        &self,
        args: A,
        count_include_pad: bool,
    ) -> Result<Var<'t, T, A::Out>, ShapeError> {
        let out = self.value().try_avg_pool2d(args, count_include_pad)?;
        self.record_avg_pool(out, args.args(), count_include_pad)
    }

    /// Records an average pooling of `self` with `args` whose value is `out`.
    fn record_avg_pool<S2: Shape>(
        &self,
        out: Tensor<T, S2>,
        args: PoolArgs,
        count_include_pad: bool,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let xl = *self.value().layout();
        self.try_record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || typed::<T, S>(avg_pool_backward(g.as_dyn(), xl.sizes(), args, count_include_pad)))
            })
        })
    }
}

/// The input gradient of an average pooling: each output's gradient divided by its window's
/// divisor, then summed back over the windows by a transposed convolution with a kernel of ones
/// (one channel per plane).
fn avg_pool_backward<T: GradFloat>(
    g: TensorView<'_, T, DynShape>,
    xs: &[usize],
    a: PoolArgs,
    count_include_pad: bool,
) -> Tensor<T, DynShape> {
    let (n, ch) = (xs[0], xs[1]);
    let gs = g.sizes();
    let (kh, kw) = (a.kernel[0], a.kernel[1]);
    let full = c::<T>((kh * kw) as f64);
    // Divisors: the kernel's area, or the number of its taps inside the input.
    let g = if count_include_pad || (a.padding == [0, 0]) {
        g.map(move |v| v / full)
    } else {
        let ones = Tensor::<T, DynShape>::full_sized(&[1, 1, xs[2], xs[3]], T::one());
        let inside = ones.avg_pool2d(a, true).map(move |v| v * full); // taps inside each window
        g.zip_with(&inside.as_dyn(), |v, k| v / k)
    };
    let planes = g.reshape_dyn(&[(n * ch) as isize, 1, gs[2] as isize, gs[3] as isize]);
    let ones_k = Tensor::<T, DynShape>::full_sized(&[1, 1, kh, kw], T::one());
    let ca = ConvArgs { stride: a.stride, padding: a.padding, dilation: [1, 1], groups: 1 };
    let gx = planes.conv_transpose2d(&ones_k, NoBias, transposed(ca, a.kernel, xs, gs));
    let sizes: Vec<isize> = xs.iter().map(|&v| v as isize).collect();
    gx.reshape_dyn(&sizes).into_owned()
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// 2-D transposed convolution (PyTorch `nn.functional.conv_transpose2d`), differentiable in
    /// the input, the weights and the bias: input `[N, C, H, W]`, weights `[C, O / GROUPS, KH,
    /// KW]`, output as [`Tensor::conv_transpose2d`](crate::TensorBase::conv_transpose2d)'s. The
    /// input's gradient is the convolution with the same weights; the weights' is the weight
    /// gradient of that convolution with the roles of input and output swapped.
    ///
    /// # Errors
    /// As [`Tensor::try_conv_transpose2d`](crate::TensorBase::try_conv_transpose2d);
    /// [`ShapeError::Autograd`] for two tapes.
    #[try_twin]
    pub fn try_conv_transpose2d<W: Shape, B: VarBias<'t, T>, A: ConvTranspose2dArg<S, W>>(
        &self,
        weight: &Var<'t, T, W>,
        bias: B,
        args: A,
    ) -> Result<Var<'t, T, A::Out>, ShapeError> {
        let b = bias.as_dyn_var();
        let out = self.value().try_conv_transpose2d(weight.value(), b.as_ref().map(|v| v.value()), args)?;
        self.record_conv_transpose(weight, b, out, args.args())
    }

    /// Records a transposed convolution of `self` by `weight` (and the bias `b`) with `a`, whose
    /// value is `out`.
    fn record_conv_transpose<W: Shape, S2: Shape>(
        &self,
        weight: &Var<'t, T, W>,
        b: Option<Var<'t, T, DynShape>>,
        out: Tensor<T, S2>,
        a: ConvTransposeArgs,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let args = ConvArgs { stride: a.stride, padding: a.padding, dilation: a.dilation, groups: a.groups };
        self.record_weighted(weight, b, out, move |x, w, g, s, [ix, iw, ib]| {
            let gd = g.as_dyn();
            s.add_with(ix, || {
                // The convolution of the output gradient has the input's sizes, plus one row
                // or column per dim whose output padding reaches the stride (allowed when it
                // stays below the dilation): those read only the padding, and are dropped.
                let gx = gd.conv2d(&w.as_dyn(), NoBias, args);
                let xs = x.sizes();
                if gx.sizes()[2..] == xs[2..] {
                    typed::<T, S>(gx)
                } else {
                    typed::<T, S>(gx.narrow(2, 0, xs[2]).narrow(3, 0, xs[3]).to_owned())
                }
            });
            if iw.is_some() {
                // y = convT(x, w) is the input gradient of x' = conv(y, w): its weight
                // gradient is conv's with input g and output gradient x.
                let [_, gw, _] = conv2d_backward(gd, w.as_dyn(), x.as_dyn(), args, [false, true, false]);
                s.add_with(iw, || typed::<T, W>(gw.unwrap()));
            }
            s.add_with(ib, || gd.reduce_with::<Sum, DynShape>(&[0, 2, 3], false, &Sum).or_panic());
        })
    }

    /// Adaptive 2-D average pooling to `OH x OW` (PyTorch `nn.functional.adaptive_avg_pool2d`),
    /// differentiable: `[N, C, H, W]` to `[N, C, OH, OW]`. Pooling is separable, `Y = Aₕ X Aᵥᵀ`
    /// with `Aₕ` the `[OH, H]` matrix of the row windows' averages, so the gradient is
    /// `Aₕᵀ G Aᵥ` (two products).
    ///
    /// # Errors
    /// As [`Tensor::try_adaptive_avg_pool2d`](crate::TensorBase::try_adaptive_avg_pool2d);
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_adaptive_avg_pool2d<const OH: usize, const OW: usize>(
        &self,
    ) -> Result<Var<'t, T, <S as AdaptivePool2dShape<OH, OW>>::Out>, ShapeError>
    where
        S: AdaptivePool2dShape<OH, OW>,
    {
        let out = self.value().try_adaptive_avg_pool2d::<OH, OW>()?;
        let xl = *self.value().layout();
        self.try_record1(out, move |i, _| {
            back(move |g: Tensor<T, <S as AdaptivePool2dShape<OH, OW>>::Out>, s| {
                s.add_with(i, || {
                    let (h, w) = (xl.sizes()[2], xl.sizes()[3]);
                    let ah = window_means::<T>(OH, h); // [OH, H]
                    let aw = window_means::<T>(OW, w); // [OW, W]
                    let gx = ah.as_dyn().t().matmul(&g.as_dyn()).matmul(&aw.as_dyn());
                    typed::<T, S>(gx)
                })
            })
        })
    }
}

/// The convolutions and poolings with run-time hyper-parameters, height and width apart (PyTorch's
/// `stride=(sh, sw)`, `padding=(ph, pw)`, ...): each takes the run-time form's argument struct
/// ([`ConvArgs`], [`Conv1dArgs`], [`ConvTransposeArgs`], [`PoolArgs`]) and gives a
/// [`DynShape`] value, differentiable as the typed form.
impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// 2-D convolution with run-time hyper-parameters, one per spatial dim (PyTorch
    /// `nn.functional.conv2d(x, w, b, stride=(sh, sw), padding=(ph, pw), dilation=(dh, dw),
    /// groups)`), differentiable in the input, the weights and the bias: input `[N, C, H, W]`,
    /// weights `[O, C / groups, KH, KW]`, bias `[O]` or [`NoBias`], output `[N, O, OH, OW]`
    /// as a [`DynShape`] value.
    ///
    /// # Errors
    /// As [`Tensor::try_conv2d_dyn`](crate::TensorBase::try_conv2d_dyn) (ranks, channels,
    /// groups, a zero stride or dilation, a kernel larger than the padded input);
    /// [`ShapeError::Autograd`] when the operands are tracked by two tapes.
    #[deprecated(
        note = "the hyper-parameters are one argument: `conv2d(&w, bias, args)` takes a `ConvArgs` as well as a `Conv::<..>`"
    )]
    #[try_twin]
    pub fn try_conv2d_dyn<W: Shape, B: VarBias<'t, T>>(
        &self,
        weight: &Var<'t, T, W>,
        bias: B,
        args: ConvArgs,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        self.try_conv2d(weight, bias, args)
    }

    /// 1-D convolution with run-time hyper-parameters (PyTorch `nn.functional.conv1d(x, w, b,
    /// stride, padding, dilation, groups)`), differentiable: input `[N, C, L]`, weights
    /// `[O, C / groups, K]`, output `[N, O, OL]` as a [`DynShape`] value.
    ///
    /// # Errors
    /// As [`Tensor::try_conv1d_dyn`](crate::TensorBase::try_conv1d_dyn);
    /// [`ShapeError::Autograd`] when the operands are tracked by two tapes.
    #[deprecated(
        note = "the hyper-parameters are one argument: `conv1d(&w, bias, args)` takes a `Conv1dArgs` as well as a `Conv::<..>`"
    )]
    #[try_twin]
    pub fn try_conv1d_dyn<W: Shape, B: VarBias<'t, T>>(
        &self,
        weight: &Var<'t, T, W>,
        bias: B,
        args: Conv1dArgs,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        self.try_conv1d(weight, bias, args)
    }

    /// 2-D transposed convolution with run-time hyper-parameters, one per spatial dim (PyTorch
    /// `nn.functional.conv_transpose2d(x, w, b, stride, padding, output_padding, groups,
    /// dilation)` with pairs), differentiable: input `[N, C, H, W]`, weights
    /// `[C, O / groups, KH, KW]`, output `[N, O, OH, OW]` as a [`DynShape`] value.
    ///
    /// # Errors
    /// As [`Tensor::try_conv_transpose2d_dyn`](crate::TensorBase::try_conv_transpose2d_dyn);
    /// [`ShapeError::Autograd`] when the operands are tracked by two tapes.
    #[deprecated(
        note = "the hyper-parameters are one argument: `conv_transpose2d(&w, bias, args)` takes a `ConvTransposeArgs` as well as a `ConvT::<..>`"
    )]
    #[try_twin]
    pub fn try_conv_transpose2d_dyn<W: Shape, B: VarBias<'t, T>>(
        &self,
        weight: &Var<'t, T, W>,
        bias: B,
        args: ConvTransposeArgs,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        self.try_conv_transpose2d(weight, bias, args)
    }

    /// 2-D max pooling with run-time hyper-parameters, one per spatial dim (PyTorch
    /// `nn.functional.max_pool2d(x, (kh, kw), (sh, sw), (ph, pw), (dh, dw))`), differentiable:
    /// `[N, C, H, W]` to `[N, C, OH, OW]` as a [`DynShape`] value; the gradient goes to each
    /// window's maximum as [`try_max_pool2d`](Self::try_max_pool2d)'s.
    ///
    /// # Errors
    /// As [`Tensor::try_max_pool2d_dyn`](crate::TensorBase::try_max_pool2d_dyn);
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[deprecated(
        note = "the hyper-parameters are one argument: `max_pool2d(args)` takes a `PoolArgs` as well as a `Pool::<..>`"
    )]
    #[try_twin]
    pub fn try_max_pool2d_dyn(&self, args: PoolArgs) -> Result<Var<'t, T, DynShape>, ShapeError> {
        self.try_max_pool2d(args)
    }

    /// 2-D average pooling with run-time hyper-parameters, one per spatial dim (PyTorch
    /// `nn.functional.avg_pool2d(x, (kh, kw), (sh, sw), (ph, pw), count_include_pad=...)`; the
    /// dilation must be 1), differentiable: `[N, C, H, W]` to `[N, C, OH, OW]` as a
    /// [`DynShape`] value.
    ///
    /// # Errors
    /// As [`Tensor::try_avg_pool2d_dyn`](crate::TensorBase::try_avg_pool2d_dyn);
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[deprecated(
        note = "the hyper-parameters are one argument: `avg_pool2d(args, count_include_pad)` takes a `PoolArgs` as well as a `Pool::<..>`"
    )]
    #[try_twin]
    pub fn try_avg_pool2d_dyn(
        &self,
        args: PoolArgs,
        count_include_pad: bool,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        self.try_avg_pool2d(args, count_include_pad)
    }
}

/// The `[out, n]` matrix of adaptive pooling's window means along one dim: row `i` averages
/// `floor(i n / out) .. ceil((i + 1) n / out)` (PyTorch's windows).
fn window_means<T: GradFloat>(out: usize, n: usize) -> Tensor<T, DynShape> {
    let mut m = alloc::vec![T::zero(); out * n];
    for i in 0..out {
        let (lo, hi) = (i * n / out, ((i + 1) * n).div_ceil(out));
        let k = c::<T>(1.0 / (hi - lo) as f64);
        for j in lo..hi {
            m[i * n + j] = k;
        }
    }
    Tensor::from_vec(&[out, n], m)
}
