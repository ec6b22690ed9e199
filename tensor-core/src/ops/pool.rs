//! Pooling over NCHW tensors, as `torch.nn.functional`: `max_pool2d` (with or without
//! indices), `avg_pool2d`, `adaptive_avg_pool2d`, each in a typed form (hyper-parameters as const
//! generics in a [`Pool`] value, the output's spatial dims typed, build-time checks naming the
//! sizes) and a `_dyn` form ([`PoolArgs`], a [`DynShape`](crate::DynShape) result). The loops are
//! in `kernels/conv.rs`; the convolutions are in `conv.rs`.
use super::conv::{dense, invalid, out_size, BuildCheck, NoCheck};
use crate::error::{ConstMsg, OrPanic, ShapeError};
use crate::kernels;
use crate::kernels::conv::Geom;
use crate::layout::Layout;
use crate::num::Num;
use crate::shape::{AdaptivePool2dShape, DynShape, Pool2dShape, Shape};
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use num_traits::Float;
use shaped_macros::try_twin;
/// The hyper-parameters of a typed 2-D pooling, as const generics: a `KERNEL x KERNEL` window,
/// `STRIDE`, `PADDING` (default 0) and `DILATION` (default 1; `avg_pool2d` has none, so it must
/// be 1 there). `STRIDE` defaults to the kernel size, as PyTorch's (`F.max_pool2d(x, 2)` is
/// `Pool::<2>`, stride 2): a const generic default cannot name `KERNEL`, so the default is 0,
/// which stands for the kernel size as PyTorch's `stride=None` does (`Pool::<2, 0>` is
/// `Pool::<2, 2>`).
///
///
/// Height and width apart (PyTorch's pairs, `kernel_size=(3, 2), stride=(1, 2)`): four more
/// const generics for the width, `KERNEL_W`, `STRIDE_W`, `PADDING_W`, `DILATION_W`, each by
/// default the height's (a `STRIDE_W` of 0 is `KERNEL_W`).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::Pool;
/// assert_eq!(Pool::<3>.args().stride, [3, 3]);
/// assert_eq!(Pool::<3, 1>.args().stride, [1, 1]);
/// let a = Pool::<3, 1, 0, 1, 2, 2>.args();
/// assert_eq!((a.kernel, a.stride), ([3, 2], [1, 2]));
/// assert_eq!(Pool::<3, 0, 0, 1, 2>.args().stride, [3, 2]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pool<
    const KERNEL: usize,
    const STRIDE: usize = 0,
    const PADDING: usize = 0,
    const DILATION: usize = 1,
    const KERNEL_W: usize = KERNEL,
    const STRIDE_W: usize = STRIDE,
    const PADDING_W: usize = PADDING,
    const DILATION_W: usize = DILATION,
>;

impl<
        const KERNEL: usize,
        const STRIDE: usize,
        const PADDING: usize,
        const DILATION: usize,
        const KERNEL_W: usize,
        const STRIDE_W: usize,
        const PADDING_W: usize,
        const DILATION_W: usize,
    > Pool<KERNEL, STRIDE, PADDING, DILATION, KERNEL_W, STRIDE_W, PADDING_W, DILATION_W>
{
    /// The height's stride in effect: `STRIDE`, or `KERNEL` when `STRIDE` is 0 (the default).
    pub const EFFECTIVE_STRIDE: usize = if STRIDE == 0 { KERNEL } else { STRIDE };
    /// The width's stride in effect: `STRIDE_W`, or `KERNEL_W` when it is 0.
    pub const EFFECTIVE_STRIDE_W: usize = if STRIDE_W == 0 { KERNEL_W } else { STRIDE_W };
    /// The same hyper-parameters as run-time values for the `_dyn` forms (`[height, width]`,
    /// the strides resolved: [`PoolArgs`] takes no 0 for the kernel size).
    pub const fn args(self) -> PoolArgs {
        PoolArgs {
            kernel: [KERNEL, KERNEL_W],
            stride: [Self::EFFECTIVE_STRIDE, Self::EFFECTIVE_STRIDE_W],
            padding: [PADDING, PADDING_W],
            dilation: [DILATION, DILATION_W],
        }
    }
}

/// The run-time hyper-parameters of the `_dyn` pooling forms (PyTorch `max_pool2d`'s arguments,
/// one value per spatial dim `[h, w]`, `ceil_mode=False`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolArgs {
    /// The window's size.
    pub kernel: [usize; 2],
    /// The step between windows.
    pub stride: [usize; 2],
    /// Implicit padding on both sides (negative infinity for max pooling, zeros for average).
    pub padding: [usize; 2],
    /// The spacing of the window's taps (max pooling only; 1 for `avg_pool2d`).
    pub dilation: [usize; 2],
}
impl PoolArgs {
    /// A `kernel` window with PyTorch's defaults: stride equal to the kernel, no padding,
    /// dilation 1.
    pub fn new(kernel: [usize; 2]) -> Self {
        PoolArgs { kernel, stride: kernel, padding: [0, 0], dilation: [1, 1] }
    }
}

/// The build-time checks of a typed pooling: positive kernel and dilation (a zero stride is the
/// kernel size), padding at most half the (dilated) kernel, and a window that fits static input
/// dims; `K`, `PD`, `DL` are the height's, `KW`, `PW`, `DW` the width's.
#[allow(clippy::type_complexity)]
#[doc(hidden)]
pub struct PoolCheck<
    S,
    const K: usize,
    const PD: usize,
    const DL: usize,
    const KW: usize,
    const PW: usize,
    const DW: usize,
    const AVG: bool,
>(core::marker::PhantomData<S>);
impl<
        S: Shape,
        const K: usize,
        const PD: usize,
        const DL: usize,
        const KW: usize,
        const PW: usize,
        const DW: usize,
        const AVG: bool,
    > BuildCheck for PoolCheck<S, K, PD, DL, KW, PW, DW, AVG>
{
    const OK: () = {
        let op = if AVG { "avg_pool2d: " } else { "max_pool2d: " };
        if K == 0 || DL == 0 {
            let m = ConstMsg::new().str(op).str("kernel ").num(K).str(" and dilation ");
            m.num(DL).str(" must be positive").fail()
        }
        if KW == 0 || DW == 0 {
            let m = ConstMsg::new().str(op).str("width kernel ").num(KW).str(" and width dilation ");
            m.num(DW).str(" must be positive").fail()
        }
        if AVG && (DL != 1 || DW != 1) {
            let m = ConstMsg::new().str(op).str("dilation ").num(if DL != 1 { DL } else { DW });
            m.str(" is not supported (PyTorch's avg_pool2d has none)").fail()
        }
        let mut i = 2;
        while i < 4 {
            let (k, pd, dl) = if i == 3 { (KW, PW, DW) } else { (K, PD, DL) };
            let span = dl.saturating_mul(k - 1).saturating_add(1);
            if pd > span / 2 {
                let m = ConstMsg::new().str(op).str(if i == 3 { "width padding " } else { "padding " }).num(pd);
                m.str(" is more than half the kernel ").num(span).fail()
            }
            if let Some(n) = S::STATIC[i] {
                if span > n.saturating_add(pd.saturating_mul(2)) {
                    let dim = if i == 2 { "height " } else { "width " };
                    let m = ConstMsg::new().str(op).str("kernel ").num(k).str(" (dilation ").num(dl);
                    let m = m.str(") does not fit input ").str(dim).num(n).str(" + 2 * padding ").num(pd);
                    m.str(": the output would be empty").fail()
                }
            }
            i += 1;
        }
    };
}

impl<
        const K: usize,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > super::conv::sealed::Params for Pool<K, ST, PD, DL, KW, SW, PW, DW>
{
}
impl super::conv::sealed::Params for PoolArgs {}

/// The hyper-parameters of `max_pool2d` and `avg_pool2d` as one argument (as an axis is one
/// argument): a [`Pool`] value (const generics: the output's spatial dims typed when the input's
/// are, build-time checks) or a [`PoolArgs`] value (run-time values: a
/// [`DynShape`](crate::DynShape) result, every rule checked at run time). `S` is the input's
/// shape. Sealed.
#[diagnostic::on_unimplemented(
    message = "cannot pool an input of shape `{S}` by `{Self}`",
    label = "2-D pooling takes `[N, C, H, W]` inputs"
)]
pub trait Pool2dArg<S: Shape>: super::conv::sealed::Params + Copy {
    /// The output's shape: `[N, C, OH, OW]` of [`Pool2dShape`] for [`Pool`], `DynShape` for
    /// [`PoolArgs`].
    type Out: Shape;
    /// The build-time checks of max pooling (none for run-time values).
    #[doc(hidden)]
    type MaxCheck: BuildCheck;
    /// The build-time checks of average pooling (none for run-time values).
    #[doc(hidden)]
    type AvgCheck: BuildCheck;
    /// The values.
    fn args(self) -> PoolArgs;
}
#[diagnostic::do_not_recommend]
impl<
        S: Pool2dShape<K, ST, PD, DL, KW, SW, PW, DW>,
        const K: usize,
        const ST: usize,
        const PD: usize,
        const DL: usize,
        const KW: usize,
        const SW: usize,
        const PW: usize,
        const DW: usize,
    > Pool2dArg<S> for Pool<K, ST, PD, DL, KW, SW, PW, DW>
{
    type Out = <S as Pool2dShape<K, ST, PD, DL, KW, SW, PW, DW>>::Out;
    type MaxCheck = PoolCheck<S, K, PD, DL, KW, PW, DW, false>;
    type AvgCheck = PoolCheck<S, K, PD, DL, KW, PW, DW, true>;
    fn args(self) -> PoolArgs {
        Pool::<K, ST, PD, DL, KW, SW, PW, DW>::args(self)
    }
}
impl<S: Shape> Pool2dArg<S> for PoolArgs {
    type Out = DynShape;
    type MaxCheck = NoCheck;
    type AvgCheck = NoCheck;
    fn args(self) -> PoolArgs {
        self
    }
}

/// Which pooling a [`pool_rt`](TensorBase::pool_rt) call computes.
#[derive(Clone, Copy)]
enum PoolKind {
    Max,
    Avg { count_include_pad: bool },
}

/// Pooling.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float + Num,
{
    /// The `[N, C, H, W]` sizes, or an error naming the operation.
    fn nchw(&self, op: &str) -> Result<[usize; 4], ShapeError> {
        match *self.sizes() {
            [n, c, h, w] => Ok([n, c, h, w]),
            ref s => Err(invalid(format!("{op}: expects an [N, C, H, W] input, got {s:?}"))),
        }
    }

    /// Max or average pooling with run-time hyper-parameters; `idx` asks for max pooling's indices.
    #[allow(clippy::type_complexity)]
    fn pool_rt<S2: Shape>(
        &self,
        a: PoolArgs,
        kind: PoolKind,
        idx: bool,
    ) -> Result<(Tensor<D::Elem, S2>, Option<Tensor<i64, S2>>), ShapeError> {
        let op = if let PoolKind::Max = kind { "max_pool2d" } else { "avg_pool2d" };
        let [n, c, h, w] = self.nchw(op)?;
        if let PoolKind::Avg { .. } = kind {
            if a.dilation != [1, 1] {
                return Err(invalid(format!("{op}: dilation {:?} is not supported (PyTorch's has none)", a.dilation)));
            }
        }
        for i in 0..2 {
            let (k, d, p) = (a.kernel[i], a.dilation[i], a.padding[i]);
            // PyTorch: padding at most half the effective kernel, so every window reads input.
            let span = d.checked_mul(k.saturating_sub(1)).and_then(|s| s.checked_add(1));
            if k == 0 || span.is_none_or(|s| p > s / 2) {
                return Err(invalid(format!(
                    "{op}: padding {:?} must be at most half the (dilated) kernel {:?} (dilation {:?})",
                    a.padding, a.kernel, a.dilation
                )));
            }
        }
        let oh = out_size(op, "height", h, a.kernel[0], a.stride[0], a.padding[0], a.dilation[0])?;
        let ow = out_size(op, "width", w, a.kernel[1], a.stride[1], a.padding[1], a.dilation[1])?;
        let sizes = [n, c, oh, ow];
        let numel = Layout::contiguous(&sizes)?.numel();
        let mut out = kernels::try_vec(numel, D::Elem::ZERO)?;
        let mut ind = if idx { Some(kernels::try_vec(numel, 0i64)?) } else { None };
        if numel > 0 {
            let x = dense(self)?;
            let geom = Geom {
                n,
                c,
                h,
                w,
                kh: a.kernel[0],
                kw: a.kernel[1],
                stride: a.stride,
                pad: a.padding,
                dil: a.dilation,
                oh,
                ow,
            };
            match kind {
                PoolKind::Max => kernels::pool::max_pool2d(&x, &geom, &mut out, ind.as_deref_mut()),
                PoolKind::Avg { count_include_pad } => {
                    kernels::pool::avg_pool2d(&x, &geom, &mut out, count_include_pad)
                }
            }
        }
        let ind = match ind {
            Some(v) => Some(Tensor::try_from_vec(&sizes, v)?),
            None => None,
        };
        Ok((Tensor::try_from_vec(&sizes, out)?, ind))
    }

    /// Max pooling with indices, as tensors of shape `S2`.
    #[allow(clippy::type_complexity)]
    fn max_with_indices<S2: Shape>(&self, a: PoolArgs) -> Result<(Tensor<D::Elem, S2>, Tensor<i64, S2>), ShapeError> {
        let (v, i) = self.pool_rt(a, PoolKind::Max, true)?;
        Ok((v, i.expect("indices were asked for")))
    }

    /// 2-D max pooling (PyTorch `torch.nn.functional.max_pool2d(input, K, S, P, DL)`,
    /// `ceil_mode=False`): input `[N, C, H, W]`, output `[N, C, OH, OW]` with
    /// `OH = (H + 2P - DL(K - 1) - 1) / S + 1`, static when `H`, `W` are. Each output is its
    /// window's largest element; NaN propagates (a window holding a NaN gives NaN, as PyTorch).
    /// Padding counts as negative infinity. The hyper-parameters are one value
    /// ([`Pool2dArg`]): `Pool::<K, S, P, DL, ..>` (a zero kernel or dilation, padding more than
    /// half the dilated kernel, or a window that does not fit a static input is an error when
    /// the program is built, naming the sizes) or a [`PoolArgs`] of run-time values (a
    /// [`DynShape`] result, checked at run time).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::Pool;
    /// let x: Tensor<f32, Shape![1, 1, 2, 4]> = Tensor::from([[[[1.0, 5.0, 2.0, 0.0], [3.0, 4.0, f32::NAN, 1.0]]]]);
    /// let y: Tensor<f32, Shape![1, 1, 1, 2]> = x.max_pool2d(Pool::<2, 2>);
    /// assert_eq!(y.to_vec()[0], 5.0);
    /// assert!(y.to_vec()[1].is_nan());
    /// // Run-time hyper-parameters: a `DynShape` result.
    /// let y = x.max_pool2d(shaped::PoolArgs::new([2, 2]));
    /// assert_eq!((y.sizes(), y.to_vec()[0]), (&[1, 1, 1, 2][..], 5.0));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the sizes when the window does not fit a run-time dim; for a
    /// [`DynShape`] tensor also when the rank is not 4; [`ShapeError::Alloc`].
    pub fn try_max_pool2d<A: Pool2dArg<S>>(&self, args: A) -> Result<Tensor<D::Elem, A::Out>, ShapeError> {
        let () = <A::MaxCheck as BuildCheck>::OK;
        Ok(self.pool_rt(args.args(), PoolKind::Max, false)?.0)
    }
    /// [`try_max_pool2d`](Self::try_max_pool2d), panicking with the error's message.
    #[track_caller]
    pub fn max_pool2d<A: Pool2dArg<S>>(&self, args: A) -> Tensor<D::Elem, A::Out> {
        let () = <A::MaxCheck as BuildCheck>::OK;
        self.pool_rt(args.args(), PoolKind::Max, false).or_panic().0
    }
    /// [`try_max_pool2d`](Self::try_max_pool2d) with the positions of the maxima (PyTorch
    /// `max_pool2d(..., return_indices=True)`): `(values, indices)`, both `[N, C, OH, OW]`,
    /// `indices` the `i64` flat position `iy * W + ix` of each maximum within its `H x W` plane.
    /// Among equal maxima the first in the window (row-major); for a window holding NaN, its
    /// last NaN (PyTorch's CPU kernel).
    ///
    /// # Errors
    /// As [`try_max_pool2d`](Self::try_max_pool2d).
    #[allow(clippy::type_complexity)]
    pub fn try_max_pool2d_with_indices<A: Pool2dArg<S>>(
        &self,
        args: A,
    ) -> Result<(Tensor<D::Elem, A::Out>, Tensor<i64, A::Out>), ShapeError> {
        let () = <A::MaxCheck as BuildCheck>::OK;
        self.max_with_indices(args.args())
    }
    /// [`try_max_pool2d_with_indices`](Self::try_max_pool2d_with_indices), panicking with the
    /// error's message.
    #[track_caller]
    pub fn max_pool2d_with_indices<A: Pool2dArg<S>>(&self, args: A) -> (Tensor<D::Elem, A::Out>, Tensor<i64, A::Out>) {
        let () = <A::MaxCheck as BuildCheck>::OK;
        self.max_with_indices(args.args()).or_panic()
    }
    /// [`try_max_pool2d`](Self::try_max_pool2d) with run-time hyper-parameters (per spatial
    /// dim): a [`DynShape`] result, and the indices when `with_indices` (as
    /// [`max_pool2d_with_indices`](Self::max_pool2d_with_indices)).
    ///
    /// # Errors
    /// As [`try_max_pool2d`](Self::try_max_pool2d).
    #[allow(clippy::type_complexity)]
    #[deprecated(
        note = "the hyper-parameters are one argument: `max_pool2d(args)` and `max_pool2d_with_indices(args)` take a `PoolArgs` as well as a `Pool::<..>` (a `DynShape` result for `PoolArgs`)"
    )]
    #[try_twin]
    pub fn try_max_pool2d_dyn(
        &self,
        args: PoolArgs,
        with_indices: bool,
    ) -> Result<(Tensor<D::Elem, DynShape>, Option<Tensor<i64, DynShape>>), ShapeError> {
        self.pool_rt(args, PoolKind::Max, with_indices)
    }

    /// 2-D average pooling (PyTorch `torch.nn.functional.avg_pool2d(input, K, S, P,
    /// ceil_mode=False, count_include_pad)`): input `[N, C, H, W]`, output `[N, C, OH, OW]` with
    /// `OH = (H + 2P - K) / S + 1`, static when `H`, `W` are. Each output is its window's sum
    /// divided by `K * K` when `count_include_pad` (PyTorch's default, padding counted as zeros)
    /// or by the number of input elements the window covers. `ceil_mode=True` and
    /// `divisor_override` are not provided. The hyper-parameters are one value, `Pool::<K, S, P>`
    /// or a [`PoolArgs`] (dilation must be 1), as [`max_pool2d`](Self::max_pool2d)'s.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::Pool;
    /// let x: Tensor<f64, Shape![1, 1, 2, 2]> = Tensor::from([[[[1.0, 2.0], [3.0, 4.0]]]]);
    /// // Padding 1, stride 2: each 2x2 window holds one element and three zeros of padding.
    /// let y: Tensor<f64, Shape![1, 1, 2, 2]> = x.avg_pool2d(Pool::<2, 2, 1>, true);
    /// assert_eq!(y.to_vec(), [0.25, 0.5, 0.75, 1.0]);
    /// let y: Tensor<f64, Shape![1, 1, 2, 2]> = x.avg_pool2d(Pool::<2, 2, 1>, false);
    /// assert_eq!(y.to_vec(), [1.0, 2.0, 3.0, 4.0]);
    /// // Stride 1: a 3x3 output.
    /// let y: Tensor<f64, Shape![1, 1, 3, 3]> = x.avg_pool2d(Pool::<2, 1, 1>, true);
    /// assert_eq!(y.to_vec()[4], 2.5);
    /// ```
    ///
    /// # Errors
    /// As [`try_max_pool2d`](Self::try_max_pool2d).
    pub fn try_avg_pool2d<A: Pool2dArg<S>>(
        &self,
        args: A,
        count_include_pad: bool,
    ) -> Result<Tensor<D::Elem, A::Out>, ShapeError> {
        let () = <A::AvgCheck as BuildCheck>::OK;
        Ok(self.pool_rt(args.args(), PoolKind::Avg { count_include_pad }, false)?.0)
    }
    /// [`try_avg_pool2d`](Self::try_avg_pool2d), panicking with the error's message.
    #[track_caller]
    pub fn avg_pool2d<A: Pool2dArg<S>>(&self, args: A, count_include_pad: bool) -> Tensor<D::Elem, A::Out> {
        let () = <A::AvgCheck as BuildCheck>::OK;
        self.pool_rt(args.args(), PoolKind::Avg { count_include_pad }, false).or_panic().0
    }
    /// [`try_avg_pool2d`](Self::try_avg_pool2d) with run-time hyper-parameters: a [`DynShape`]
    /// result.
    ///
    /// # Errors
    /// As [`try_avg_pool2d`](Self::try_avg_pool2d).
    #[deprecated(
        note = "the hyper-parameters are one argument: `avg_pool2d(args, count_include_pad)` takes a `PoolArgs` as well as a `Pool::<..>` (a `DynShape` result for `PoolArgs`)"
    )]
    #[try_twin]
    pub fn try_avg_pool2d_dyn(
        &self,
        args: PoolArgs,
        count_include_pad: bool,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.try_avg_pool2d(args, count_include_pad)
    }

    fn adaptive_rt<S2: Shape>(&self, oh: usize, ow: usize) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let op = "adaptive_avg_pool2d";
        let [n, c, h, w] = self.nchw(op)?;
        // The output's element count first (`ShapeError::Overflow` for `[1 << 32, 1 << 32]`;
        // `oh * ow` itself overflowed here before).
        let sizes = [n, c, oh, ow];
        let numel = Layout::contiguous(&sizes)?.numel();
        if (h == 0 || w == 0) && oh > 0 && ow > 0 {
            return Err(invalid(format!("{op}: empty input plane {:?} for an output of {oh} x {ow}", self.sizes())));
        }
        let mut out = kernels::try_vec(numel, D::Elem::ZERO)?;
        if numel > 0 {
            let x = dense(self)?;
            let geom = Geom { n, c, h, w, kh: 0, kw: 0, stride: [1, 1], pad: [0, 0], dil: [1, 1], oh, ow };
            kernels::pool::adaptive_avg_pool2d(&x, &geom, &mut out);
        }
        Tensor::try_from_vec(&sizes, out)
    }

    /// Adaptive 2-D average pooling to `OH x OW` (PyTorch
    /// `torch.nn.functional.adaptive_avg_pool2d(input, (OH, OW))`): input `[N, C, H, W]`,
    /// output `[N, C, OH, OW]` (static `OH`, `OW`). Output row `i` averages input rows
    /// `floor(i * H / OH)` to `ceil((i + 1) * H / OH)` (exclusive), likewise for columns; windows
    /// may overlap when `OH` does not divide `H`. `<1, 1>` is global average pooling.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<f32, Shape![1, 1, 2, 3]> = Tensor::from([[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]);
    /// let y: Tensor<f32, Shape![1, 1, 1, 2]> = x.adaptive_avg_pool2d::<1, 2>();
    /// assert_eq!(y.to_vec(), [3.0, 4.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for an empty `H` or `W` with a non-empty output; for a
    /// [`DynShape`] tensor also when the rank is not 4; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_adaptive_avg_pool2d<const OH: usize, const OW: usize>(
        &self,
    ) -> Result<Tensor<D::Elem, <S as AdaptivePool2dShape<OH, OW>>::Out>, ShapeError>
    where
        S: AdaptivePool2dShape<OH, OW>,
    {
        self.adaptive_rt(OH, OW)
    }
    /// [`try_adaptive_avg_pool2d`](Self::try_adaptive_avg_pool2d) with a run-time output size
    /// `[oh, ow]`: a [`DynShape`] result.
    ///
    /// # Errors
    /// As [`try_adaptive_avg_pool2d`](Self::try_adaptive_avg_pool2d), [`ShapeError::Invalid`]
    /// when the rank is not 4, and [`ShapeError::Overflow`] when the output's element count
    /// overflows (checked first).
    #[try_twin]
    pub fn try_adaptive_avg_pool2d_dyn(&self, out: [usize; 2]) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.adaptive_rt(out[0], out[1])
    }
}
