//! Initial values for parameters (PyTorch's `torch.nn.init`, feature `rand`): in-place fills of a
//! tensor or a mutable view from a caller-supplied [`rand::Rng`], with PyTorch's names, formulas
//! and defaults: [`uniform_`], [`normal_`], [`trunc_normal_`], [`constant_`], [`zeros_`],
//! [`ones_`], [`eye_`], [`xavier_uniform_`], [`xavier_normal_`], [`kaiming_uniform_`],
//! [`kaiming_normal_`] and [`orthogonal_`] (feature `linalg`), with [`calculate_gain`] and
//! [`fan_in_and_fan_out`] for the scales.
//!
//! * Hyper-parameters are `f64` (PyTorch's Python floats); PyTorch's keyword defaults are named
//!   in each function's documentation (Rust has no default arguments).
//! * Elements are `f32` or `f64` ([`GradFloat`]). The samples are drawn and transformed in `f64`
//!   and rounded once to the element type: an `f64` tensor receives the values of its own
//!   [`uniform_`](crate::tensor::TensorBase::uniform_) and
//!   [`normal_`](crate::tensor::TensorBase::normal_) from the same generator state, an `f32`
//!   tensor those values rounded. They go to the elements in row-major order of the
//!   coordinates, whatever the strides, so a seed gives the same values for the same shape and
//!   element type.
//! * The fans of a weight follow PyTorch's convention for `nn.Linear` (`[out, in]`) and
//!   `nn.ConvNd` (`[out, in / groups, k..]`) weights: `fan_in = sizes[1] * receptive field`,
//!   `fan_out = sizes[0] * receptive field`, the receptive field the product of the sizes after
//!   the second ([`fan_in_and_fan_out`]).
//! * The functions that read fans or need a matrix return a [`ShapeError`] for a tensor of the
//!   wrong rank (and for hyper-parameters that give no valid distribution); the others panic on
//!   invalid hyper-parameters, as PyTorch raises. Either way the tensor and the generator are
//!   untouched when nothing can be drawn.
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::nn::init::{self, FanMode, Nonlinearity};
//! use shaped::rand::{rngs::StdRng, SeedableRng};
//! use shaped::{Shape, Tensor};
//!
//! let rng = &mut StdRng::seed_from_u64(0);
//! // A conv weight [out, in, kh, kw]: fan_out = 16 * 3 * 3 = 144.
//! let mut conv = Tensor::<f32, Shape![16, 3, 3, 3]>::zeros();
//! init::kaiming_normal_(&mut conv, 0.0, FanMode::FanOut, Nonlinearity::Relu, rng)?;
//!
//! // A linear weight [out, in] before a tanh: bound = 5/3 * sqrt(6 / (64 + 10)).
//! let mut fc = Tensor::<f32, Shape![10, 64]>::zeros();
//! init::xavier_uniform_(&mut fc, init::calculate_gain(Nonlinearity::Tanh, None), rng)?;
//! let bound = 5.0 / 3.0 * (6.0f64 / 74.0).sqrt();
//! assert!(fc.iter().all(|&x| f64::from(x).abs() <= bound));
//!
//! let mut bias = Tensor::<f32, Shape![10]>::ones();
//! init::zeros_(&mut bias);
//! assert_eq!(bias.to_vec(), [0.0; 10]);
//! // Fans need 2 dims or more.
//! assert!(init::xavier_uniform_(&mut bias, 1.0, rng).is_err());
//! # Ok::<(), shaped::ShapeError>(())
//! ```
use crate::autograd::GradFloat;
use crate::error::{OrPanic, ShapeError};
use crate::shape::Shape;
use crate::storage::DataMut;
use crate::tensor::TensorBase;
use alloc::format;
use core::f64::consts::SQRT_2;
use num_traits::{One, Zero};
use rand::distr::{Distribution, StandardUniform};
use rand::Rng;
use rand_distr::{StandardNormal, Uniform};

/// The activations whose gain [`calculate_gain`] knows (the strings of PyTorch's
/// `calculate_gain(nonlinearity)`: `'linear'`, `'conv1d'`, .., `'leaky_relu'`, `'selu'`).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nonlinearity {
    /// `'linear'`: no activation (gain 1).
    Linear,
    /// `'conv1d'` (gain 1).
    Conv1d,
    /// `'conv2d'` (gain 1).
    Conv2d,
    /// `'conv3d'` (gain 1).
    Conv3d,
    /// `'conv_transpose1d'` (gain 1).
    ConvTranspose1d,
    /// `'conv_transpose2d'` (gain 1).
    ConvTranspose2d,
    /// `'conv_transpose3d'` (gain 1).
    ConvTranspose3d,
    /// `'sigmoid'` (gain 1).
    Sigmoid,
    /// `'tanh'` (gain 5/3).
    Tanh,
    /// `'relu'` (gain sqrt(2)).
    Relu,
    /// `'leaky_relu'` (gain sqrt(2 / (1 + negative_slope^2)), the slope `param` of
    /// [`calculate_gain`], 0.01 when `None`); the default nonlinearity of PyTorch's
    /// `kaiming_uniform_`/`kaiming_normal_`.
    LeakyRelu,
    /// `'selu'` (gain 3/4).
    Selu,
}

/// Which fan scales a Kaiming initialisation (PyTorch's `mode='fan_in'`, the default, or
/// `'fan_out'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FanMode {
    /// The inputs of each output unit, `sizes[1] * receptive field`: keeps the variance of the
    /// activations in the forward pass (PyTorch's default).
    FanIn,
    /// The outputs fed by each input unit, `sizes[0] * receptive field`: keeps the variance of
    /// the gradients in the backward pass.
    FanOut,
}

/// The recommended gain of an activation: the factor by which the initial standard deviation
/// is scaled so that the activation keeps the variance of its input (PyTorch
/// `torch.nn.init.calculate_gain(nonlinearity, param=None)`).
///
/// | nonlinearity | gain |
/// |---|---|
/// | linear, conv, conv transpose, sigmoid | 1 |
/// | tanh | 5/3 |
/// | relu | sqrt(2) |
/// | leaky_relu | sqrt(2 / (1 + negative_slope^2)), `negative_slope = param.unwrap_or(0.01)` |
/// | selu | 3/4 |
///
/// `param` is read for [`Nonlinearity::LeakyRelu`] alone, as PyTorch's.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::nn::init::{calculate_gain, Nonlinearity};
/// assert_eq!(calculate_gain(Nonlinearity::Relu, None), 2f64.sqrt());
/// assert_eq!(calculate_gain(Nonlinearity::LeakyRelu, Some(0.0)), 2f64.sqrt());
/// assert_eq!(calculate_gain(Nonlinearity::Tanh, None), 5.0 / 3.0);
/// ```
pub fn calculate_gain(nonlinearity: Nonlinearity, param: Option<f64>) -> f64 {
    use Nonlinearity::*;
    match nonlinearity {
        Linear | Conv1d | Conv2d | Conv3d | ConvTranspose1d | ConvTranspose2d | ConvTranspose3d | Sigmoid => 1.0,
        Tanh => 5.0 / 3.0,
        Relu => SQRT_2,
        LeakyRelu => {
            let slope = param.unwrap_or(0.01);
            libm::sqrt(2.0 / (1.0 + slope * slope))
        }
        Selu => 3.0 / 4.0,
    }
}

/// The fans of a weight of these sizes, `(fan_in, fan_out)` (PyTorch's
/// `torch.nn.init._calculate_fan_in_and_fan_out`): `fan_in = sizes[1] * r` and
/// `fan_out = sizes[0] * r`, with the receptive field `r` the product of `sizes[2..]` (1 for a
/// matrix). A linear weight `[out, in]` has fans `(in, out)`, a conv weight `[out, in, kh, kw]`
/// `(in * kh * kw, out * kh * kw)`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::nn::init::fan_in_and_fan_out;
/// assert_eq!(fan_in_and_fan_out(&[256, 512]), Ok((512, 256)));
/// assert_eq!(fan_in_and_fan_out(&[64, 32, 3, 3]), Ok((288, 576)));
/// assert!(fan_in_and_fan_out(&[10]).is_err());
/// ```
///
/// # Errors
/// [`ShapeError::Invalid`] for fewer than 2 sizes; [`ShapeError::Overflow`] when a fan does not
/// fit in `usize` (sizes that no tensor has).
pub fn fan_in_and_fan_out(sizes: &[usize]) -> Result<(usize, usize), ShapeError> {
    let [out, inp, rest @ ..] = sizes else {
        return Err(ShapeError::Invalid(format!(
            "fan in and fan out can not be computed for a tensor with fewer than 2 dimensions, got sizes {sizes:?}"
        )));
    };
    let overflow = || ShapeError::Overflow { sizes: sizes.into() };
    let field = rest.iter().try_fold(1usize, |p, &s| p.checked_mul(s)).ok_or_else(overflow)?;
    Ok((inp.checked_mul(field).ok_or_else(overflow)?, out.checked_mul(field).ok_or_else(overflow)?))
}

/// The fan of `mode` (PyTorch's `_calculate_correct_fan`).
fn fan(sizes: &[usize], mode: FanMode) -> Result<usize, ShapeError> {
    let (fan_in, fan_out) = fan_in_and_fan_out(sizes)?;
    Ok(match mode {
        FanMode::FanIn => fan_in,
        FanMode::FanOut => fan_out,
    })
}

/// Every element set to `f()`, in row-major order of the coordinates.
fn fill_with<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>, mut f: impl FnMut() -> D::Elem) {
    for x in t.iter_mut() {
        *x = f();
    }
}

/// The uniform fill on `[low, high)` for `op`, both ends rounded to the element type first;
/// checked before anything is drawn or written.
fn uniform_impl<D: DataMut, S: Shape>(
    op: &str,
    t: &mut TensorBase<D, S>,
    low: f64,
    high: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    let (lo, hi) = (D::Elem::from_f64(low), D::Elem::from_f64(high));
    let (l, h) = (lo.as_f64(), hi.as_f64());
    // As PyTorch's `uniform_`: `from <= to` and `to - from` representable (`from == to` fills
    // `from`).
    if !(l <= h && (hi - lo).as_f64().is_finite()) {
        return Err(ShapeError::Invalid(format!(
            "{op}: expects a finite range low <= high in the element type, got [{low}, {high})"
        )));
    }
    if l == h {
        t.fill_(lo);
        return Ok(());
    }
    // `rand_distr`'s `Uniform` in f64, as the tensor's own `uniform_` of an f64 tensor.
    let dist = Uniform::new(l, h).map_err(|e| ShapeError::Invalid(format!("{op}: {e}")))?;
    fill_with(t, || loop {
        // A draw that rounds to `hi` (in f32, or in f64 by the rounding of `low + scale u`) is
        // drawn again, so that the range is half-open.
        let x = D::Elem::from_f64(dist.sample(rng));
        if x < hi {
            break x;
        }
    });
    Ok(())
}

/// The fill for `op` of a Glorot or He initialisation from its standard deviation `std` (see
/// [`xavier_std`], [`kaiming_std`]): samples of mean 0 drawn uniformly on `[-√3 std, √3 std)`
/// (that bound gives the standard deviation `std`) when `uniform`, else from `N(0, std^2)`. A
/// `std` of `None` (a tensor without elements) leaves the tensor as it is.
fn fill_with_std<D: DataMut, S: Shape>(
    op: &str,
    t: &mut TensorBase<D, S>,
    std: Option<f64>,
    uniform: bool,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    match std {
        Some(std) if uniform => {
            let bound = libm::sqrt(3.0) * std;
            uniform_impl(op, t, -bound, bound, rng)
        }
        Some(std) => normal_impl(op, t, 0.0, std, rng),
        None => Ok(()),
    }
}

/// The normal fill of mean `mean` and standard deviation `std` for `op`; checked before
/// anything is drawn or written.
fn normal_impl<D: DataMut, S: Shape>(
    op: &str,
    t: &mut TensorBase<D, S>,
    mean: f64,
    std: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    if !(mean.is_finite() && std.is_finite() && std >= 0.0) {
        return Err(ShapeError::Invalid(format!(
            "{op}: expects a finite mean and a finite std >= 0, got mean {mean} and std {std}"
        )));
    }
    fill_with(t, || {
        let z: f64 = StandardNormal.sample(rng);
        D::Elem::from_f64(mean + std * z)
    });
    Ok(())
}

/// Fills the tensor with samples of the uniform distribution on `[a, b)` (PyTorch
/// `torch.nn.init.uniform_(tensor, a=0.0, b=1.0)`). Any shape; the shape is unchanged, and a
/// mutable view is filled in place (only the elements it reaches). `a` and `b` are rounded to
/// the element type first; `a == b` fills `a`, as PyTorch's.
///
/// # Panics
/// Unless `a <= b` with `b - a` finite in the element type (PyTorch raises for the same
/// ranges); nothing is drawn or written then.
#[track_caller]
pub fn uniform_<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>, a: f64, b: f64, rng: &mut (impl Rng + ?Sized))
where
    D::Elem: GradFloat,
{
    uniform_impl("uniform_", t, a, b, rng).or_panic()
}

/// Fills the tensor with samples of the normal distribution `N(mean, std^2)` (PyTorch
/// `torch.nn.init.normal_(tensor, mean=0.0, std=1.0)`). Any shape, unchanged; fills views in
/// place.
///
/// # Panics
/// Unless `mean` is finite and `std` finite and `>= 0` (PyTorch checks `std >= 0`); nothing is
/// drawn or written then.
#[track_caller]
pub fn normal_<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>, mean: f64, std: f64, rng: &mut (impl Rng + ?Sized))
where
    D::Elem: GradFloat,
{
    normal_impl("normal_", t, mean, std, rng).or_panic()
}

/// Fills the tensor with samples of the normal distribution `N(mean, std^2)` truncated to
/// `[a, b]` (PyTorch `torch.nn.init.trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0)`).
/// Any shape, unchanged; fills views in place. `a` and `b` are values, not multiples of `std`
/// (PyTorch's default `[-2, 2]` with `std = 0.02` truncates nothing in practice); they may be
/// infinite.
///
/// PyTorch's method, in `f64`: a uniform sample `u` on `[erf(α/√2), erf(β/√2))`, with
/// `α = (a - mean) / std` and `β = (b - mean) / std` (the interval `[2Φ(α) - 1, 2Φ(β) - 1)`),
/// is mapped to `mean + std √2 erfinv(u)`, then clamped to `[a, b]`. As PyTorch's (which warns
/// when `mean` is more than `2 std` outside `[a, b]`), it loses accuracy when `[a, b]` lies far
/// in one tail: beyond about 8 standard deviations from the mean both ends of the uniform
/// interval round to `±1` and the values collapse to the nearer bound.
///
/// # Panics
/// Unless `mean` is finite, `std` finite and `> 0`, and `a < b` (not NaN); nothing is drawn or
/// written then. (PyTorch also accepts `a == b`, filling `a`.)
#[track_caller]
pub fn trunc_normal_<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    mean: f64,
    std: f64,
    a: f64,
    b: f64,
    rng: &mut (impl Rng + ?Sized),
) where
    D::Elem: GradFloat,
{
    trunc_normal_impl(t, mean, std, a, b, rng).or_panic()
}

fn trunc_normal_impl<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    mean: f64,
    std: f64,
    a: f64,
    b: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    if !(mean.is_finite() && std.is_finite() && std > 0.0 && a < b) {
        return Err(ShapeError::Invalid(format!(
            "trunc_normal_: expects a finite mean, a finite std > 0 and a < b, got mean {mean}, std {std}, [{a}, {b}]"
        )));
    }
    let scale = std * SQRT_2;
    let erf = crate::vmath::special::erf;
    // 2Φ(x) - 1 = erf(x / √2), PyTorch's `2 * norm_cdf(x) - 1` without the rounding of the `1 +`.
    let (lo, hi) = (erf((a - mean) / scale), erf((b - mean) / scale));
    fill_with(t, || {
        let u: f64 = StandardUniform.sample(rng);
        let x = crate::num::erfinv(lo + (hi - lo) * u) * scale + mean;
        D::Elem::from_f64(x.clamp(a, b))
    });
    Ok(())
}

/// Sets every element to `val` (PyTorch `torch.nn.init.constant_(tensor, val)`), rounded to the
/// element type. Any shape, unchanged; fills views in place.
pub fn constant_<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>, val: f64)
where
    D::Elem: GradFloat,
{
    t.fill_(D::Elem::from_f64(val))
}

/// Sets every element to 0 (PyTorch `torch.nn.init.zeros_(tensor)`). Any shape, unchanged;
/// fills views in place.
pub fn zeros_<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>)
where
    D::Elem: GradFloat,
{
    t.fill_(D::Elem::zero())
}

/// Sets every element to 1 (PyTorch `torch.nn.init.ones_(tensor)`). Any shape, unchanged;
/// fills views in place.
pub fn ones_<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>)
where
    D::Elem: GradFloat,
{
    t.fill_(D::Elem::one())
}

/// Sets a matrix `[m, n]` to the identity: 1 at `[i, i]`, 0 elsewhere, rectangular matrices
/// included (PyTorch `torch.nn.init.eye_(tensor)`, which keeps the identity of the inputs in a
/// linear layer).
///
/// # Errors
/// [`ShapeError::Invalid`] unless the tensor has exactly 2 dims; it is unchanged then.
pub fn eye_<D: DataMut, S: Shape>(t: &mut TensorBase<D, S>) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    let &[_, cols] = t.sizes() else {
        return Err(ShapeError::Invalid(format!(
            "eye_: only tensors with 2 dimensions are supported, got sizes {:?}",
            t.sizes()
        )));
    };
    let (zero, one) = (D::Elem::zero(), D::Elem::one());
    for (k, x) in t.iter_mut().enumerate() {
        *x = if k / cols == k % cols { one } else { zero };
    }
    Ok(())
}

/// The check of the gain of `op`.
fn check_gain(op: &str, gain: f64) -> Result<(), ShapeError> {
    if gain.is_finite() && gain >= 0.0 {
        Ok(())
    } else {
        Err(ShapeError::Invalid(format!("{op}: expects a finite gain >= 0, got {gain}")))
    }
}

/// The standard deviation of the Glorot initialisations, `gain * sqrt(2 / (fan_in + fan_out))`,
/// or `None` for a tensor without elements; checked.
fn xavier_std<D: DataMut, S: Shape>(op: &str, t: &TensorBase<D, S>, gain: f64) -> Result<Option<f64>, ShapeError> {
    let (fan_in, fan_out) = fan_in_and_fan_out(t.sizes())?;
    check_gain(op, gain)?;
    if t.numel() == 0 {
        return Ok(None);
    }
    // Both fans are at least 1 for a tensor with elements.
    Ok(Some(gain * libm::sqrt(2.0 / (fan_in as f64 + fan_out as f64))))
}

/// Fills a weight with samples of the uniform distribution on `[-bound, bound)`,
/// `bound = gain * sqrt(6 / (fan_in + fan_out))` (standard deviation
/// `gain * sqrt(2 / (fan_in + fan_out))`): Glorot and Bengio's initialisation (PyTorch
/// `torch.nn.init.xavier_uniform_(tensor, gain=1.0)`). The fans are those of
/// [`fan_in_and_fan_out`]: a weight of at least 2 dims, `[out, in, k..]`, whose shape is
/// unchanged. A weight without elements is left as it is (PyTorch divides by zero for `[0, 0]`).
///
/// # Errors
/// [`ShapeError::Invalid`] for fewer than 2 dims or a gain that is not finite and `>= 0`; the
/// tensor and the generator are untouched then.
pub fn xavier_uniform_<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    gain: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    let std = xavier_std("xavier_uniform_", t, gain)?;
    fill_with_std("xavier_uniform_", t, std, true, rng)
}

/// Fills a weight with samples of `N(0, std^2)`, `std = gain * sqrt(2 / (fan_in + fan_out))`:
/// Glorot and Bengio's initialisation (PyTorch `torch.nn.init.xavier_normal_(tensor,
/// gain=1.0)`). The fans are those of [`fan_in_and_fan_out`]: a weight of at least 2 dims,
/// `[out, in, k..]`, whose shape is unchanged. A weight without elements is left as it is.
///
/// # Errors
/// [`ShapeError::Invalid`] for fewer than 2 dims or a gain that is not finite and `>= 0`; the
/// tensor and the generator are untouched then.
pub fn xavier_normal_<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    gain: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    let std = xavier_std("xavier_normal_", t, gain)?;
    fill_with_std("xavier_normal_", t, std, false, rng)
}

/// The standard deviation of the He initialisations, `gain / sqrt(fan)`, with the gain of
/// `calculate_gain(nonlinearity, Some(a))`, or `None` for a tensor without elements; checked.
fn kaiming_std<D: DataMut, S: Shape>(
    op: &str,
    t: &TensorBase<D, S>,
    a: f64,
    mode: FanMode,
    nonlinearity: Nonlinearity,
) -> Result<Option<f64>, ShapeError> {
    // PyTorch returns before computing the fans for a tensor without elements.
    if t.numel() == 0 {
        return Ok(None);
    }
    let fan = fan(t.sizes(), mode)?;
    let gain = calculate_gain(nonlinearity, Some(a));
    if !gain.is_finite() {
        return Err(ShapeError::Invalid(format!("{op}: the gain of {nonlinearity:?} with a = {a} is {gain}")));
    }
    Ok(Some(gain / libm::sqrt(fan as f64)))
}

/// Fills a weight with samples of the uniform distribution on `[-bound, bound)`,
/// `bound = gain * sqrt(3 / fan)` (standard deviation `gain / sqrt(fan)`), the gain
/// [`calculate_gain(nonlinearity, Some(a))`](calculate_gain): He et al.'s initialisation (PyTorch
/// `torch.nn.init.kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')`).
///
/// `a` is the negative slope of a leaky ReLU, read for [`Nonlinearity::LeakyRelu`] alone:
/// PyTorch's defaults (`a = 0.0`, [`FanMode::FanIn`], [`Nonlinearity::LeakyRelu`]) give the
/// gain sqrt(2) of a ReLU, and `nn.Linear`'s and `nn.ConvNd`'s own initialisation
/// (`a = sqrt(5)`, leaky ReLU, fan in) gives `bound = 1 / sqrt(fan_in)`. The fan is that of
/// `mode` ([`fan_in_and_fan_out`]): a weight of at least 2 dims, `[out, in, k..]`, whose shape
/// is unchanged. A weight without elements is left as it is, whatever its rank (PyTorch warns).
///
/// # Errors
/// [`ShapeError::Invalid`] for fewer than 2 dims or a gain that is not finite (`a` NaN); the
/// tensor and the generator are untouched then.
pub fn kaiming_uniform_<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    a: f64,
    mode: FanMode,
    nonlinearity: Nonlinearity,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    let std = kaiming_std("kaiming_uniform_", t, a, mode, nonlinearity)?;
    fill_with_std("kaiming_uniform_", t, std, true, rng)
}

/// Fills a weight with samples of `N(0, std^2)`, `std = gain / sqrt(fan)`, the gain
/// [`calculate_gain(nonlinearity, Some(a))`](calculate_gain): He et al.'s initialisation (PyTorch
/// `torch.nn.init.kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')`).
///
/// `a` is the negative slope of a leaky ReLU, read for [`Nonlinearity::LeakyRelu`] alone
/// (PyTorch's defaults give the gain sqrt(2) of a ReLU). The fan is that of `mode`
/// ([`fan_in_and_fan_out`]): a weight of at least 2 dims, `[out, in, k..]`, whose shape is
/// unchanged. A weight without elements is left as it is, whatever its rank (PyTorch warns).
///
/// # Errors
/// [`ShapeError::Invalid`] for fewer than 2 dims or a gain that is not finite (`a` NaN); the
/// tensor and the generator are untouched then.
pub fn kaiming_normal_<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    a: f64,
    mode: FanMode,
    nonlinearity: Nonlinearity,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    let std = kaiming_std("kaiming_normal_", t, a, mode, nonlinearity)?;
    fill_with_std("kaiming_normal_", t, std, false, rng)
}

/// Fills a weight with a random (semi-)orthogonal matrix times `gain` (PyTorch
/// `torch.nn.init.orthogonal_(tensor, gain=1)`, Saxe et al.): the tensor `[rows, ..]` is seen as
/// a matrix `[rows, cols]`, `cols` the product of the other sizes; with `rows >= cols` its
/// columns are orthonormal (`WᵀW = gain² I`), otherwise its rows (`WWᵀ = gain² I`). The shape is
/// unchanged.
///
/// PyTorch's algorithm: a `[rows, cols]` matrix of standard normal samples (row-major), transposed
/// when `rows < cols`, is factored `A = QR` (reduced QR, [`qr`](crate::tensor::TensorBase::qr));
/// each column of `Q` is multiplied by the sign of `R`'s diagonal entry, which makes `Q` uniform
/// over the orthogonal matrices (Mezzadri, 2007), transposed back, scaled by `gain` and written.
/// (A zero diagonal entry, of probability zero, keeps its column, where PyTorch's `sign` would
/// zero it.) A weight without elements is left as it is.
///
/// # Errors
/// [`ShapeError::Invalid`] for fewer than 2 dims or a gain that is not finite;
/// [`ShapeError::Alloc`]. The tensor and the generator are untouched then.
#[cfg(feature = "linalg")]
pub fn orthogonal_<D: DataMut, S: Shape>(
    t: &mut TensorBase<D, S>,
    gain: f64,
    rng: &mut (impl Rng + ?Sized),
) -> Result<(), ShapeError>
where
    D::Elem: GradFloat,
{
    use crate::dim::Dyn;
    use crate::tensor::Tensor;
    use alloc::vec::Vec;
    type T<D> = <D as crate::storage::Data>::Elem;

    if t.rank() < 2 {
        return Err(ShapeError::Invalid(format!(
            "orthogonal_: only tensors with 2 or more dimensions are supported, got sizes {:?}",
            t.sizes()
        )));
    }
    if !gain.is_finite() {
        return Err(ShapeError::Invalid(format!("orthogonal_: expects a finite gain, got {gain}")));
    }
    let n = t.numel();
    if n == 0 {
        return Ok(());
    }
    let rows = t.sizes()[0];
    let cols = n / rows;
    let mut a = Vec::new();
    a.try_reserve_exact(n).map_err(|_| ShapeError::Alloc { count: n, elem_size: size_of::<T<D>>() })?;
    a.extend((0..n).map(|_| T::<D>::from_f64(StandardNormal.sample(rng))));
    // `[m, k]` with `m >= k`: the samples, or their transpose.
    let wide = rows < cols;
    let (m, k) = if wide { (cols, rows) } else { (rows, cols) };
    let a = if wide { (0..n).map(|i| a[(i % rows) * cols + i / rows]).collect() } else { a };
    let (q, r) = Tensor::<T<D>, (Dyn, Dyn)>::try_from_vec(&[m, k], a)?.try_qr()?;
    let (q, r) = (q.to_vec(), r.to_vec());
    // `gain * sign(R[j, j])` for each column `j` of `Q`.
    let g = T::<D>::from_f64(gain);
    let scale: Vec<T<D>> = (0..k).map(|j| if r[j * k + j] < T::<D>::zero() { -g } else { g }).collect();
    for (i, x) in t.iter_mut().enumerate() {
        let (i, j) = (i / cols, i % cols);
        // Element `[i, j]` of `Q` `[m, k]`, or of its transpose.
        let (i, j) = if wide { (j, i) } else { (i, j) };
        *x = q[i * k + j] * scale[j];
    }
    Ok(())
}
