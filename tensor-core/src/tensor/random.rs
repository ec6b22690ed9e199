//! Random tensors (feature `rand`, on by default): constructors (`rand`, `randn`, `uniform`,
//! `normal`, `bernoulli`, `randint`, `randperm`), in-place fills of tensors and mutable views
//! (`uniform_`, `normal_`, `bernoulli_`) and `shuffle_axis`, all driven by a caller-supplied
//! [`rand::Rng`] (there is no global generator: seed one, e.g. `StdRng::seed_from_u64(0)`, for
//! reproducible tensors, as `torch.Generator().manual_seed(0)`).
//!
//! **Order of the samples.** Elements receive the generator's samples in row-major order of the
//! tensor's coordinates, whatever its strides: filling a transposed view takes the same samples as
//! filling a contiguous tensor of the transposed shape. The same generator state thus gives the
//! same tensor for the same shape and element type. (Strided fills sample into a row-major buffer
//! first and copy it through the view.)
//!
//! **Parameters are checked before anything is sampled or written**: an invalid one is a
//! [`ShapeError::Invalid`] from the `try_` form (a panic with the same message from the plain
//! form), and an in-place fill then leaves the tensor and the generator untouched.
//!
//! Float distributions support `f32`, `f64`, `f16` and `bf16` ([`RandFloat`]); `f16`/`bf16`
//! sample in `f32` and round to nearest even (resampling the rare uniform draw that rounds up to
//! `high`, so `[low, high)` holds). Distributions are `rand_distr`'s `Uniform`, `Normal`
//! (`StandardNormal` scaled) and `Bernoulli`.
use super::{Tensor, TensorBase};
use crate::cast::CastFrom;
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{normalize_axis, Layout};
use crate::num::Num;
use crate::shape::{AllStatic, HasAxis, Shape};
use crate::storage::{BuildData, Data, DataMut, Element};
use alloc::format;
use alloc::vec::Vec;
use half::{bf16, f16};
use num_traits::NumCast;
use rand::distr::uniform::SampleUniform;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_distr::{Bernoulli, Distribution, Normal, Uniform};
use shaped_macros::try_twin;

mod sealed {
    pub trait Sealed {}
}

/// Float element types with uniform and normal distributions: `f32`, `f64`, `f16`, `bf16`
/// (the half types sample in `f32`). Sealed.
pub trait RandFloat: Num + CastFrom<f32> + sealed::Sealed {
    /// The uniform distribution on `[low, high)` in `Self`.
    #[doc(hidden)]
    type Uniform: Distribution<Self>;
    /// The normal distribution in `Self`.
    #[doc(hidden)]
    type Normal: Distribution<Self>;
    /// The value in `f64` (exact).
    #[doc(hidden)]
    fn to_f64(self) -> f64;
    /// `Uniform` on `[low, high)`; the caller has checked `low < high`, both finite.
    #[doc(hidden)]
    fn uniform_dist(low: Self, high: Self) -> Result<Self::Uniform, ShapeError>;
    /// `Normal(mean, std)`; the caller has checked both finite and `std >= 0`.
    #[doc(hidden)]
    fn normal_dist(mean: Self, std: Self) -> Result<Self::Normal, ShapeError>;
}

/// Integer element types for [`randint`](TensorBase::randint): `i8..=i64`, `isize`, `u8..=u64`,
/// `usize`. Sealed.
pub trait RandInt: Num + sealed::Sealed {
    /// The uniform distribution on `low..high` in `Self`.
    #[doc(hidden)]
    type Uniform: Distribution<Self>;
    /// `Uniform` on `low..high`; the caller has checked `low < high`.
    #[doc(hidden)]
    fn uniform_dist(low: Self, high: Self) -> Result<Self::Uniform, ShapeError>;
}
macro_rules! rand_int {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl RandInt for $t {
            type Uniform = Uniform<$t>;
            fn uniform_dist(low: Self, high: Self) -> Result<Self::Uniform, ShapeError> {
                Uniform::new(low, high).map_err(|e| rand_err("randint", e))
            }
        }
    )*};
}
rand_int!(i8, i16, i32, i64, u8, u16, u32, u64);

/// A uniform distribution of a pointer-sized integer, sampled as the 64-bit integer `W` (which
/// holds every value on every platform, and gives the same samples on all of them).
#[doc(hidden)]
pub struct Wide<W: SampleUniform>(Uniform<W>);
macro_rules! rand_int_wide {
    ($($t:ty => $w:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Distribution<$t> for Wide<$w> {
            fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> $t {
                // In range: `low..high` came from `$t`.
                self.0.sample(rng) as $t
            }
        }
        impl RandInt for $t {
            type Uniform = Wide<$w>;
            fn uniform_dist(low: Self, high: Self) -> Result<Self::Uniform, ShapeError> {
                Ok(Wide(Uniform::new(low as $w, high as $w).map_err(|e| rand_err("randint", e))?))
            }
        }
    )*};
}
rand_int_wide!(isize => i64, usize => u64);

/// A `rand` parameter error as a [`ShapeError::Invalid`].
fn rand_err(op: &str, e: impl core::fmt::Display) -> ShapeError {
    ShapeError::Invalid(format!("{op}: {e}"))
}

macro_rules! rand_float_prim {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl RandFloat for $t {
            type Uniform = Uniform<$t>;
            type Normal = Normal<$t>;
            fn to_f64(self) -> f64 {
                <f64 as From<$t>>::from(self)
            }
            fn uniform_dist(low: Self, high: Self) -> Result<Self::Uniform, ShapeError> {
                Uniform::new(low, high).map_err(|e| rand_err("uniform", e))
            }
            fn normal_dist(mean: Self, std: Self) -> Result<Self::Normal, ShapeError> {
                Normal::new(mean, std).map_err(|e| rand_err("normal", e))
            }
        }
    )*};
}
rand_float_prim!(f32, f64);

/// A distribution over `f32` read in the half type `H` (rounded to nearest even). With `below`,
/// draws that round to `below` or above are drawn again (for the open end of a uniform range).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Narrow<Dist, H> {
    dist: Dist,
    below: Option<H>,
}
impl<Dist: Distribution<f32>, H: CastFrom<f32> + PartialOrd> Distribution<H> for Narrow<Dist, H> {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> H {
        loop {
            let x = H::cast_from(self.dist.sample(rng));
            match self.below {
                Some(b) if x >= b => continue,
                _ => return x,
            }
        }
    }
}
macro_rules! rand_float_half {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl RandFloat for $t {
            type Uniform = Narrow<Uniform<f32>, $t>;
            type Normal = Narrow<Normal<f32>, $t>;
            fn to_f64(self) -> f64 {
                self.to_f64()
            }
            fn uniform_dist(low: Self, high: Self) -> Result<Self::Uniform, ShapeError> {
                let dist = Uniform::new(low.to_f32(), high.to_f32()).map_err(|e| rand_err("uniform", e))?;
                Ok(Narrow { dist, below: Some(high) })
            }
            fn normal_dist(mean: Self, std: Self) -> Result<Self::Normal, ShapeError> {
                let dist = Normal::new(mean.to_f32(), std.to_f32()).map_err(|e| rand_err("normal", e))?;
                Ok(Narrow { dist, below: None })
            }
        }
    )*};
}
rand_float_half!(f16, bf16);

/// `low < high`, both finite, for a uniform distribution of floats.
fn uniform_of<T: RandFloat>(low: T, high: T) -> Result<T::Uniform, ShapeError> {
    let (l, h) = (low.to_f64(), high.to_f64());
    if !(l.is_finite() && h.is_finite() && l < h) {
        return Err(ShapeError::Invalid(format!(
            "uniform: needs finite bounds with low < high, got low = {low}, high = {high}"
        )));
    }
    T::uniform_dist(low, high)
}

/// `mean` finite, `std` finite and `>= 0`, for a normal distribution.
fn normal_of<T: RandFloat>(mean: T, std: T) -> Result<T::Normal, ShapeError> {
    let (m, s) = (mean.to_f64(), std.to_f64());
    if !(m.is_finite() && s.is_finite() && s >= 0.0) {
        return Err(ShapeError::Invalid(format!(
            "normal: needs a finite mean and a finite std >= 0, got mean = {mean}, std = {std}"
        )));
    }
    T::normal_dist(mean, std)
}

/// `p` in `[0, 1]` (not NaN), as a distribution of `T::ONE` (probability `p`) and `T::ZERO`.
fn bernoulli_of<T: Element>(p: f64) -> Result<impl Distribution<T>, ShapeError> {
    let b = Bernoulli::new(p)
        .map_err(|_| ShapeError::Invalid(format!("bernoulli: needs a probability p in [0, 1], got p = {p}")))?;
    Ok(b.map(|x| if x { T::ONE } else { T::ZERO }))
}

/// `low < high` for a uniform distribution of integers.
fn randint_of<T: RandInt>(low: T, high: T) -> Result<T::Uniform, ShapeError> {
    if low >= high {
        return Err(ShapeError::Invalid(format!("randint: needs low < high, got low = {low}, high = {high}")));
    }
    T::uniform_dist(low, high)
}

/// `n` samples of `dist` in a fallibly allocated vector.
fn sample_vec<T: Element, R: Rng + ?Sized>(
    n: usize,
    dist: &impl Distribution<T>,
    rng: &mut R,
) -> Result<Vec<T>, ShapeError> {
    kernels::try_collect((0..n).map(|_| dist.sample(rng)))
}

/// Every element of `ld` in `dst` set to a sample of `dist`, in row-major order of the
/// coordinates. Allocates a row-major buffer first for a strided layout, so an allocation failure
/// leaves `dst` untouched.
fn fill_with<T: Element, R: Rng + ?Sized>(
    dst: &mut [T],
    ld: &Layout,
    dist: &impl Distribution<T>,
    rng: &mut R,
) -> Result<(), ShapeError> {
    let (o, n) = (ld.offset(), ld.numel());
    if n == 0 {
        return Ok(());
    }
    if ld.is_contiguous() {
        for x in &mut dst[o..o + n] {
            *x = dist.sample(rng);
        }
        return Ok(());
    }
    let src = sample_vec(n, dist, rng)?;
    kernels::zip_assign(dst, ld, &src, &Layout::contiguous(ld.sizes())?, |d, s| *d = s);
    Ok(())
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A new tensor of the given sizes (checked against `S`) filled with samples of `dist`.
    fn try_sample_sized<R: Rng + ?Sized>(
        sizes: &[usize],
        dist: &impl Distribution<T>,
        rng: &mut R,
    ) -> Result<Self, ShapeError> {
        S::check_sizes(sizes)?;
        let layout = Layout::contiguous(sizes)?;
        Ok(TensorBase::from_parts(sample_vec(layout.numel(), dist, rng)?, layout))
    }

    /// [`bernoulli`](Self::bernoulli) with runtime sizes checked against `S`: PyTorch
    /// `torch.bernoulli(torch.full(sizes, p))`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for `p` outside `[0, 1]` or NaN; [`ShapeError::ShapeMismatch`]
    /// when the sizes do not fit `S`; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[try_twin(doc = "[`bernoulli`](Self::bernoulli) with runtime sizes checked against `S`.")]
    pub fn try_bernoulli_sized(sizes: &[usize], p: f64, rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError> {
        Self::try_sample_sized(sizes, &bernoulli_of::<T>(p)?, rng)
    }
}

impl<T: RandFloat, S: Shape> Tensor<T, S> {
    /// [`rand`](Self::rand) with runtime sizes checked against `S`: `rand_sized(&[n, 3], rng)` is
    /// PyTorch `torch.rand(n, 3)`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "[`rand`](Self::rand) with runtime sizes checked against `S`.")]
    pub fn try_rand_sized(sizes: &[usize], rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError> {
        Self::try_uniform_sized(sizes, T::ZERO, T::ONE, rng)
    }

    /// [`randn`](Self::randn) with runtime sizes checked against `S`: `randn_sized(&[n, 3], rng)`
    /// is PyTorch `torch.randn(n, 3)`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "[`randn`](Self::randn) with runtime sizes checked against `S`.")]
    pub fn try_randn_sized(sizes: &[usize], rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError> {
        Self::try_normal_sized(sizes, T::ZERO, T::ONE, rng)
    }

    /// [`uniform`](Self::uniform) with runtime sizes checked against `S`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for bounds as in [`try_uniform`](Self::try_uniform);
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "[`uniform`](Self::uniform) with runtime sizes checked against `S`.")]
    pub fn try_uniform_sized(
        sizes: &[usize],
        low: T,
        high: T,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        Self::try_sample_sized(sizes, &uniform_of(low, high)?, rng)
    }

    /// [`normal`](Self::normal) with runtime sizes checked against `S`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for parameters as in [`try_normal`](Self::try_normal);
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "[`normal`](Self::normal) with runtime sizes checked against `S`.")]
    pub fn try_normal_sized(
        sizes: &[usize],
        mean: T,
        std: T,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        Self::try_sample_sized(sizes, &normal_of(mean, std)?, rng)
    }
}

impl<T: RandInt, S: Shape> Tensor<T, S> {
    /// [`randint`](Self::randint) with runtime sizes checked against `S`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `low >= high`; [`ShapeError::ShapeMismatch`] when the sizes do
    /// not fit `S`; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
    #[try_twin(doc = "[`randint`](Self::randint) with runtime sizes checked against `S`.")]
    pub fn try_randint_sized(
        sizes: &[usize],
        low: T,
        high: T,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        Self::try_sample_sized(sizes, &randint_of(low, high)?, rng)
    }
}

impl<T: Element + NumCast> Tensor<T, (Dyn,)> {
    /// A random permutation of `0..n` as a `[_]` tensor of `n` elements: PyTorch
    /// `torch.randperm(n)` (which gives `i64`; any integer or float element type works here),
    /// NumPy `rng.permutation(n)`. Fisher-Yates through `rand`'s `SliceRandom::shuffle`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Shape, Tensor};
    /// let p = Tensor::<i64, Shape![_]>::randperm(5, &mut StdRng::seed_from_u64(3));
    /// let mut v = p.to_vec();
    /// v.sort();
    /// assert_eq!(v, [0, 1, 2, 3, 4]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when some integer of `0..n` is not exactly a `T` (checked before
    /// anything is sampled): `randperm(300)` of `u8`, or of a float type beyond its exact
    /// integers, `n > 2049` for `f16`, `n > 257` for `bf16`, `n > 2^24 + 1` for `f32` (the
    /// values would repeat; PyTorch refuses these too); [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "A random permutation of `0..n` as a `[_]` tensor of `n` elements.", alias = "permutation")]
    pub fn try_randperm(n: usize, rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError> {
        // Every integer below `n` is exact when `n - 1` and `n - 2` both are: an integer type
        // holds all of `0..n` once it holds `n - 1`, and a float type holds every integer up to
        // `2^p` (p the significand's bits) and no odd one above it, so one of two neighbours
        // beyond `2^p` is inexact.
        let exact = |i: usize| <T as NumCast>::from(i).and_then(|t| t.to_usize()) == Some(i);
        if let Some(bad) = [n.checked_sub(2), n.checked_sub(1)].into_iter().flatten().find(|&i| !exact(i)) {
            return Err(ShapeError::Invalid(format!(
                "randperm({n}): {bad} is not exactly representable in the element type {}, so the values would repeat",
                core::any::type_name::<T>().rsplit("::").next().unwrap_or("")
            )));
        }
        let layout = Layout::contiguous(&[n])?;
        let mut data = kernels::try_collect((0..n).map(|i| <T as NumCast>::from(i).expect("checked above")))?;
        data.shuffle(rng);
        Ok(TensorBase::from_parts(data, layout))
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The slices along `axis` in a random order, in a new tensor.
    fn shuffle_impl(&self, axis: usize, rng: &mut (impl Rng + ?Sized)) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let n = self.sizes()[axis];
        let mut perm = kernels::try_collect(0..n)?;
        perm.shuffle(rng);
        let ol = Layout::contiguous(self.sizes())?;
        let li = Layout::contiguous(&[n])?;
        let data = kernels::index_select(self.data.as_slice(), self.layout(), axis, &perm, &li, &ol)?;
        Ok(TensorBase::from_parts(data, ol))
    }

    /// A copy with the slices along `axis` in a random order, each slice kept intact (rows of a
    /// matrix for `A = 0`): same shape. NumPy `rng.permutation(x, axis=A)`; PyTorch has no
    /// shuffle (`x[torch.randperm(n)]` for `A = 0`). Negative `A` counts from the end; it is
    /// checked at compile time for tuple shapes.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![3, 2]> = Tensor::from([[0, 1], [10, 11], [20, 21]]);
    /// let y = x.shuffle_axis(Ax::<0>, &mut StdRng::seed_from_u64(0));
    /// let mut rows: Vec<_> = y.to_vec().chunks(2).map(|r| r.to_vec()).collect();
    /// rows.sort();
    /// assert_eq!(rows, [[0, 1], [10, 11], [20, 21]]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] when a [`DynShape`](crate::DynShape) tensor has no `axis`;
    /// [`ShapeError::Alloc`].
    #[try_twin(
        doc = "A copy with the slices along axis `A` in a random order, each slice kept intact (rows of a matrix for `A = 0`).",
        alias = "permutation",
        alias = "shuffle"
    )]
    pub fn try_shuffle_axis<X, M>(
        &self,
        axis: X,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<Tensor<D::Elem, S>, ShapeError>
    where
        S: HasAxis<X, M>,
    {
        self.shuffle_impl(normalize_axis(<S as HasAxis<X, M>>::axis_index(&axis), self.rank())?, rng)
    }
    /// [`shuffle_axis`](Self::shuffle_axis) with a runtime axis (negative counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for an axis outside `-rank..rank` (nothing is sampled);
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "[`shuffle_axis`](Self::shuffle_axis) with a runtime axis (negative counts from the end).")]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_shuffle_axis_dyn(
        &self,
        axis: isize,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<Tensor<D::Elem, S>, ShapeError> {
        self.shuffle_impl(normalize_axis(axis, self.rank())?, rng)
    }
}

impl<D: DataMut, S: Shape> TensorBase<D, S> {
    /// Every element set to a sample of `dist` (row-major order of the coordinates).
    fn fill_dist(
        &mut self,
        dist: &impl Distribution<D::Elem>,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<(), ShapeError> {
        let layout = *self.layout();
        fill_with(self.data.as_mut_slice(), &layout, dist, rng)
    }

    /// Overwrites every element with a Bernoulli draw, `1` (`true`) with probability `p` and `0`
    /// (`false`) otherwise: PyTorch `bernoulli_(p)`. Same shape; writes through views, touching
    /// only the elements the view reaches.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for `p` outside `[0, 1]` or NaN; [`ShapeError::Alloc`] (a strided
    /// view samples into a buffer first). On error nothing has been written.
    #[try_twin(
        doc = "Overwrites every element with a Bernoulli draw, `1` (`true`) with probability `p` and `0` (`false`) otherwise."
    )]
    pub fn try_bernoulli_(&mut self, p: f64, rng: &mut (impl Rng + ?Sized)) -> Result<(), ShapeError> {
        let dist = bernoulli_of::<D::Elem>(p)?;
        self.fill_dist(&dist, rng)
    }
}

impl<D: DataMut, S: Shape> TensorBase<D, S>
where
    D::Elem: RandFloat,
{
    /// Overwrites every element with a uniform sample from `[low, high)`: PyTorch
    /// `uniform_(low, high)`. Same shape; writes through views, touching only the elements the
    /// view reaches.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Ax, Shape, Tensor};
    /// let mut w: Tensor<f32, Shape![4, 4]> = Tensor::zeros();
    /// w.narrow_mut(Ax::<1>, 0, 2).uniform_(-0.5, 0.5, &mut StdRng::seed_from_u64(0)); // columns 0 and 1
    /// assert_eq!(w.at([3, 3]), 0.0);
    /// assert!(w.try_uniform_(1.0, 1.0, &mut StdRng::seed_from_u64(0)).is_err());
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] unless `low < high`, both finite (PyTorch also accepts
    /// `low == high`); [`ShapeError::Alloc`]. On error nothing has been written or sampled.
    #[try_twin(doc = "Overwrites every element with a uniform sample from `[low, high)`.")]
    pub fn try_uniform_(
        &mut self,
        low: D::Elem,
        high: D::Elem,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<(), ShapeError> {
        let dist = uniform_of(low, high)?;
        self.fill_dist(&dist, rng)
    }

    /// Overwrites every element with a normal sample of mean `mean` and standard deviation `std`:
    /// PyTorch `normal_(mean, std)`. Same shape; writes through views, touching only the elements
    /// the view reaches.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] unless `mean` is finite and `std` finite and `>= 0` (PyTorch
    /// checks only `std >= 0`); [`ShapeError::Alloc`]. On error nothing has been written or
    /// sampled.
    #[try_twin(doc = "Overwrites every element with a normal sample of mean `mean` and standard deviation `std`.")]
    pub fn try_normal_(
        &mut self,
        mean: D::Elem,
        std: D::Elem,
        rng: &mut (impl Rng + ?Sized),
    ) -> Result<(), ShapeError> {
        let dist = normal_of(mean, std)?;
        self.fill_dist(&dist, rng)
    }
}

/// The random constructors of fully static shapes, written once for the heap
/// ([`Tensor`]) and inline ([`STensor`](crate::STensor)) storage (see
/// [`BuildData`]): the same distributions, checks and sample order in both, so a seed gives the
/// same values, and the storage follows the target type
/// (`let w: STensor<f32, Shape![3, 3]> = STensor::randn(&mut rng);`).
impl<D: BuildData, S: Shape> TensorBase<D, S> {
    /// A new tensor of shape `S` (fully static) filled with samples of `dist`, in row-major
    /// order.
    fn sample_static<R: Rng + ?Sized>(dist: &impl Distribution<D::Elem>, rng: &mut R) -> Result<Self, ShapeError>
    where
        S: AllStatic,
    {
        Self::try_static_from_fn(|_| dist.sample(rng))
    }

    /// A tensor of shape `S` (fully static) of independent Bernoulli draws: each element is
    /// `D::Elem::ONE` with probability `p`, else `D::Elem::ZERO` (`1.0`/`0.0` for floats as
    /// `torch.bernoulli(torch.full(size, p))` and `torch.empty(size).bernoulli_(p)`, `1`/`0` for
    /// integers, `true`/`false` for `bool`). NumPy `rng.binomial(1, p, size)`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Shape, Tensor};
    /// let mut rng = StdRng::seed_from_u64(0);
    /// let mask = Tensor::<bool, Shape![2, 3]>::bernoulli(0.5, &mut rng);
    /// let sure = Tensor::<f32, Shape![4]>::bernoulli(1.0, &mut rng);
    /// assert_eq!(sure.to_vec(), [1.0; 4]);
    /// # let _ = mask;
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `p` is outside `[0, 1]` or NaN (nothing is sampled);
    /// [`ShapeError::Alloc`].
    #[try_twin(doc = "A tensor of shape `S` (fully static) of independent Bernoulli draws.")]
    pub fn try_bernoulli(p: f64, rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError>
    where
        S: AllStatic,
    {
        Self::sample_static(&bernoulli_of::<D::Elem>(p)?, rng)
    }
}

impl<D: BuildData, S: Shape> TensorBase<D, S>
where
    D::Elem: RandFloat,
{
    /// A tensor of shape `S` (fully static) of uniform samples from `[0, 1)`: PyTorch
    /// `torch.rand(size)`, NumPy `rng.random(size)`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Shape, Tensor};
    /// let mut rng = StdRng::seed_from_u64(42);
    /// let x = Tensor::<f32, Shape![2, 3]>::rand(&mut rng);
    /// assert!(x.to_vec().iter().all(|&v| (0.0..1.0).contains(&v)));
    /// let again = Tensor::<f32, Shape![2, 3]>::rand(&mut StdRng::seed_from_u64(42));
    /// assert_eq!(x, again);
    /// ```
    ///
    /// # Panics
    /// When the tensor cannot be allocated.
    #[doc(alias = "random")]
    #[doc(alias = "random_using")]
    #[doc(alias = "new_random")]
    #[track_caller]
    pub fn rand(rng: &mut (impl Rng + ?Sized)) -> Self
    where
        S: AllStatic,
    {
        Self::try_uniform(D::Elem::ZERO, D::Elem::ONE, rng).or_panic()
    }
    /// A tensor of shape `S` (fully static) of standard normal samples (mean 0, standard
    /// deviation 1): PyTorch `torch.randn(size)`, NumPy `rng.standard_normal(size)`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Shape, Tensor};
    /// let w = Tensor::<f64, Shape![3, 3]>::randn(&mut StdRng::seed_from_u64(7));
    /// assert!(w.to_vec().iter().all(|v| v.is_finite()));
    /// ```
    ///
    /// # Panics
    /// When the tensor cannot be allocated.
    #[doc(alias = "standard_normal")]
    #[track_caller]
    pub fn randn(rng: &mut (impl Rng + ?Sized)) -> Self
    where
        S: AllStatic,
    {
        Self::try_normal(D::Elem::ZERO, D::Elem::ONE, rng).or_panic()
    }
    /// A tensor of shape `S` (fully static) of uniform samples from `[low, high)`: PyTorch
    /// `torch.empty(size).uniform_(low, high)`, NumPy `rng.uniform(low, high, size)`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] unless `low < high` with both finite and `high - low` finite
    /// (PyTorch also accepts `low == high`); nothing is sampled then. [`ShapeError::Alloc`].
    #[try_twin(doc = "A tensor of shape `S` (fully static) of uniform samples from `[low, high)`.")]
    pub fn try_uniform(low: D::Elem, high: D::Elem, rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError>
    where
        S: AllStatic,
    {
        Self::sample_static(&uniform_of(low, high)?, rng)
    }
    /// A tensor of shape `S` (fully static) of normal samples with mean `mean` and standard
    /// deviation `std`: PyTorch `torch.normal(mean, std, size)`, NumPy
    /// `rng.normal(mean, std, size)`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] unless `mean` is finite and `std` finite and `>= 0` (`std == 0`
    /// gives `mean` everywhere); nothing is sampled then. [`ShapeError::Alloc`].
    #[try_twin(
        doc = "A tensor of shape `S` (fully static) of normal samples with mean `mean` and standard deviation `std`."
    )]
    pub fn try_normal(mean: D::Elem, std: D::Elem, rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError>
    where
        S: AllStatic,
    {
        Self::sample_static(&normal_of(mean, std)?, rng)
    }
}

impl<D: BuildData, S: Shape> TensorBase<D, S>
where
    D::Elem: RandInt,
{
    /// A tensor of shape `S` (fully static) of integers drawn uniformly from `low..high` (high
    /// excluded): PyTorch `torch.randint(low, high, size)`, NumPy `rng.integers(low, high, size)`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::rand::{rngs::StdRng, SeedableRng};
    /// use shaped::{Shape, Tensor};
    /// let dice = Tensor::<u8, Shape![10]>::randint(1, 7, &mut StdRng::seed_from_u64(1));
    /// assert!(dice.to_vec().iter().all(|d| (1..7).contains(d)));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `low >= high` (nothing is sampled); [`ShapeError::Alloc`].
    #[try_twin(
        doc = "A tensor of shape `S` (fully static) of integers drawn uniformly from `low..high` (high excluded).",
        alias = "integers"
    )]
    pub fn try_randint(low: D::Elem, high: D::Elem, rng: &mut (impl Rng + ?Sized)) -> Result<Self, ShapeError>
    where
        S: AllStatic,
    {
        Self::sample_static(&randint_of(low, high)?, rng)
    }
}
