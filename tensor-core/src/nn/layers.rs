//! The layers with parameters or state (PyTorch's `nn.Linear`, `nn.LayerNorm`,
//! `nn.BatchNorm1d/2d`, `nn.Embedding`, `nn.Dropout`, `nn.Flatten`): each a struct of public
//! [`Param`] and buffer fields named as PyTorch names them (so that state dicts carry over), its
//! sizes in its type, PyTorch's default initialisation from a caller-supplied generator, and a
//! [`Forward`] that calls the functional form ([`crate::autograd::nn`]).
use super::{Count, Forward, Item, Module};
use crate::autograd::nn as f;
use crate::autograd::{GradFloat, Param, Tape, Var};
use crate::dim::{ConstDim, Dim, Dyn};
use crate::element::IndexElem;
use crate::error::{OrPanic, ShapeError};
use crate::shape::{DynShape, MatMulShape, PushDim, RemoveAxis, Shape};
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use shaped_macros::try_twin;

/// The size of a static dim, or the runtime `n` checked against it.
pub(super) fn size_of<D: Dim>(n: Option<usize>, layer: &str, what: &str) -> Result<usize, ShapeError> {
    match (D::STATIC, n) {
        (Some(s), None) => Ok(s),
        (Some(s), Some(n)) if s == n => Ok(s),
        (None, Some(n)) => Ok(n),
        (Some(s), Some(n)) => Err(ShapeError::Invalid(format!("{layer}: {what} {n} differs from the type's {s}"))),
        (None, None) => Err(ShapeError::Invalid(format!("{layer}: the {what} is a runtime size: give it"))),
    }
}

/// U(-1/√fan_in, 1/√fan_in): PyTorch's default for a linear or convolution layer's weight
/// (kaiming-uniform with `a = √5`, whose bound is exactly this) and bias.
#[cfg(feature = "rand")]
fn fan_in_uniform<T: GradFloat, S: Shape>(
    sizes: &[usize],
    fan_in: usize,
    rng: &mut (impl rand::Rng + ?Sized),
) -> Tensor<T, S> {
    let k = if fan_in == 0 { 0.0 } else { 1.0 / (fan_in as f64).sqrt() };
    // Drawn in f64 and rounded (the element type's own draw needs a bound GradFloat lacks).
    let t = Tensor::<f64, crate::shape::DynShape>::uniform_sized(sizes, -k, k, rng);
    Tensor::<T, crate::shape::DynShape>::from_vec(sizes, t.iter().map(|&v| T::from_f64(v)).collect())
        .try_into_static::<S>()
        .or_panic()
}

/// A layer's `weight` of `sizes` and, when `bias`, its `bias` of `bias_sizes`, drawn in that
/// order from `rng` by [`fan_in_uniform`]: PyTorch's default initialisation of `nn.Linear` and
/// `nn.ConvNd` (`reset_parameters`).
#[cfg(feature = "rand")]
pub(super) fn fan_in_params<T: GradFloat, W: Shape, B: Shape>(
    sizes: &[usize],
    bias_sizes: &[usize],
    fan_in: usize,
    bias: bool,
    rng: &mut (impl rand::Rng + ?Sized),
) -> (Param<T, W>, Option<Param<T, B>>) {
    let weight = Param::new(fan_in_uniform(sizes, fan_in, rng));
    let bias = bias.then(|| Param::new(fan_in_uniform(bias_sizes, fan_in, rng)));
    (weight, bias)
}

/// The leaves of a layer's `weight` and `bias` (if any) on `tape`, that a forward computes with.
pub(super) fn watch_weight_bias<'t, T: GradFloat, W: Shape, B: Shape>(
    tape: &'t Tape<T>,
    weight: &Param<T, W>,
    bias: Option<&Param<T, B>>,
) -> (Var<'t, T, W>, Option<Var<'t, T, B>>) {
    (tape.watch(weight), bias.map(|b| tape.watch(b)))
}

// ---------------------------------------------------------------------------------------------

/// A fully connected layer (PyTorch `nn.Linear(in_features, out_features, bias=True)`):
/// `y = x Wᵀ + b` over the last dim, `[.., I] -> [.., O]`. `weight` is `[O, I]` and `bias` `[O]`
/// (their state-dict keys are `weight` and `bias`). `I` and `O` are dims: `Const<N>`, or `Dyn`
/// for a size chosen at run time ([`try_new_sized`](Self::try_new_sized)).
///
/// An input whose last static size is not `I` is a compile error naming both shapes (the rule of
/// `matmul`); a runtime size is checked by [`Forward::try_forward`].
#[derive(Clone, Debug)]
pub struct Linear<I: Dim, O: Dim, T: GradFloat = f32> {
    /// `[out_features, in_features]`.
    pub weight: Param<T, (O, I)>,
    /// `[out_features]`, or `None` for `bias=False`.
    pub bias: Option<Param<T, (O,)>>,
}

impl<I: Dim, O: Dim, T: GradFloat> Linear<I, O, T> {
    /// A layer with PyTorch's default initialisation: weight and bias from
    /// U(-1/√in, 1/√in) (kaiming-uniform with `a = √5`), drawn from `rng`, weight first. Static
    /// sizes only; see [`try_new_sized`](Self::try_new_sized) for runtime ones.
    #[cfg(feature = "rand")]
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        I: ConstDim,
        O: ConstDim,
    {
        Self::try_new_sized(None, None, true, rng).or_panic()
    }

    /// [`new`](Self::new) without a bias (PyTorch `bias=False`).
    #[cfg(feature = "rand")]
    pub fn new_no_bias(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        I: ConstDim,
        O: ConstDim,
    {
        Self::try_new_sized(None, None, false, rng).or_panic()
    }

    /// A layer of `in_features` by `out_features` (each `None` to take the type's static size),
    /// with or without a bias, initialised as [`new`](Self::new).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a given size differs from the type's static one, or a `Dyn`
    /// size is not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized(
        in_features: Option<usize>,
        out_features: Option<usize>,
        bias: bool,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        let i = size_of::<I>(in_features, "Linear", "in_features")?;
        let o = size_of::<O>(out_features, "Linear", "out_features")?;
        let (weight, bias) = fan_in_params(&[o, i], &[o], i, bias, rng);
        Ok(Linear { weight, bias })
    }

    /// A layer holding the given weight `[O, I]` and bias `[O]` (PyTorch's `weight` and `bias`).
    pub fn from_parts(weight: Tensor<T, (O, I)>, bias: Option<Tensor<T, (O,)>>) -> Self {
        Linear { weight: Param::new(weight), bias: bias.map(Param::new) }
    }
}

impl<I: Dim, O: Dim, T: GradFloat> Module<T> for Linear<I, O, T> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
        self.bias.visit(&super::join(prefix, "bias"), f);
    }
}

impl<'t, I: Dim, O: Dim, T: GradFloat, S> Forward<'t, T, S> for Linear<I, O, T>
where
    S: MatMulShape<(I, O)>,
{
    type Out = <S as MatMulShape<(I, O)>>::Out;
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        let (w, b) = watch_weight_bias(tape, &self.weight, self.bias.as_ref());
        f::try_linear(x, &w, b.as_ref())
    }
}

// ---------------------------------------------------------------------------------------------

/// Layer normalisation over the last dim (PyTorch `nn.LayerNorm(d, eps=1e-5,
/// elementwise_affine=True)` with `normalized_shape` one size): same shape in and out; `weight`
/// (ones) and `bias` (zeros) are `[D]`. An input whose last static size is not `D` is a compile
/// error.
#[derive(Clone, Debug)]
pub struct LayerNorm<D: Dim, T: GradFloat = f32> {
    /// `[D]`, ones at first; `None` without the affine part.
    pub weight: Option<Param<T, (D,)>>,
    /// `[D]`, zeros at first; `None` without the affine part (or PyTorch's `bias=False`).
    pub bias: Option<Param<T, (D,)>>,
    /// Added to the variance (PyTorch's default 1e-5).
    pub eps: f64,
}

impl<D: Dim, T: GradFloat> LayerNorm<D, T> {
    /// A layer with PyTorch's defaults: `eps = 1e-5`, weight ones and bias zeros. Static `D`.
    pub fn new() -> Self
    where
        D: ConstDim,
    {
        Self::try_new_sized(None, 1e-5, true).or_panic()
    }

    /// A layer of `d` features (`None`: the type's static size) with `eps` and, when
    /// `elementwise_affine`, a weight of ones and a bias of zeros.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `d` differs from the type's static size or a `Dyn` size is
    /// not given.
    pub fn try_new_sized(d: Option<usize>, eps: f64, elementwise_affine: bool) -> Result<Self, ShapeError> {
        let d = size_of::<D>(d, "LayerNorm", "normalized_shape")?;
        Ok(LayerNorm {
            weight: elementwise_affine.then(|| Param::new(Tensor::full_sized(&[d], T::one()))),
            bias: elementwise_affine.then(|| Param::new(Tensor::zeros_sized(&[d]))),
            eps,
        })
    }

    /// The layer on a runtime-shaped value `[.., D]`, its parameters seen as `[Dyn]` (the
    /// gradient flows back to them): the transformer layers' and BERT's norms between their
    /// runtime-shaped states.
    pub(crate) fn try_forward_dyn<'t>(
        &self,
        tape: &'t Tape<T>,
        x: &Var<'t, T, DynShape>,
    ) -> Result<Var<'t, T, DynShape>, ShapeError> {
        let w = self.weight.as_ref().map(|p| tape.watch(p).try_cast_shape::<(Dyn,)>()).transpose()?;
        let b = self.bias.as_ref().map(|p| tape.watch(p).try_cast_shape::<(Dyn,)>()).transpose()?;
        f::try_layer_norm(x, w.as_ref(), b.as_ref(), T::from_f64(self.eps))
    }
}

impl<D: ConstDim, T: GradFloat> Default for LayerNorm<D, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: Dim, T: GradFloat> Module<T> for LayerNorm<D, T> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
        self.bias.visit(&super::join(prefix, "bias"), f);
    }
}

impl<'t, D: Dim, T: GradFloat, S> Forward<'t, T, S> for LayerNorm<D, T>
where
    S: RemoveAxis<-1, Removed = D>,
{
    type Out = S;
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
        let w = self.weight.as_ref().map(|p| tape.watch(p));
        let b = self.bias.as_ref().map(|p| tape.watch(p));
        f::try_layer_norm(x, w.as_ref(), b.as_ref(), T::from_f64(self.eps))
    }
}

// ---------------------------------------------------------------------------------------------

/// Batch normalisation over the channel dim 1 (PyTorch `nn.BatchNorm1d(c)` for `[N, C]` or
/// `[N, C, L]`, `nn.BatchNorm2d(c)` for `[N, C, H, W]`; the two are one type here, the input's
/// rank is its own): same shape in and out. Parameters `weight` (ones) and `bias` (zeros);
/// buffers `running_mean` (zeros), `running_var` (ones) and `num_batches_tracked` (an `int64`
/// count), all under PyTorch's state-dict keys.
///
/// In training mode (the default; [`Module::train`]) each forward normalises by the batch's
/// statistics, updates the running ones with `momentum` (PyTorch's default 0.1; the unbiased
/// variance) and counts the batch; in evaluation mode ([`Module::eval`]) it normalises by the
/// running statistics.
#[derive(Clone, Debug)]
pub struct BatchNorm<C: Dim, T: GradFloat = f32> {
    /// `[C]`, ones at first; `None` for `affine=False`.
    pub weight: Option<Param<T, (C,)>>,
    /// `[C]`, zeros at first; `None` for `affine=False`.
    pub bias: Option<Param<T, (C,)>>,
    /// `[C]`: the running mean (zeros at first).
    pub running_mean: Tensor<T, (C,)>,
    /// `[C]`: the running unbiased variance (ones at first).
    pub running_var: Tensor<T, (C,)>,
    /// The number of batches seen in training mode.
    pub num_batches_tracked: Count,
    /// The weight of a new batch in the running statistics (PyTorch's default 0.1).
    pub momentum: f64,
    /// Added to the variance (PyTorch's default 1e-5).
    pub eps: f64,
    /// Training mode (PyTorch's `self.training`).
    pub training: bool,
}

/// PyTorch `nn.BatchNorm1d`: [`BatchNorm`] over `[N, C]` or `[N, C, L]`.
pub type BatchNorm1d<C, T = f32> = BatchNorm<C, T>;
/// PyTorch `nn.BatchNorm2d`: [`BatchNorm`] over `[N, C, H, W]`.
pub type BatchNorm2d<C, T = f32> = BatchNorm<C, T>;

impl<C: Dim, T: GradFloat> BatchNorm<C, T> {
    /// A layer with PyTorch's defaults (`eps = 1e-5`, `momentum = 0.1`, affine, tracking the
    /// running statistics), in training mode. Static `C`.
    pub fn new() -> Self
    where
        C: ConstDim,
    {
        Self::try_new_sized(None, 1e-5, 0.1, true).or_panic()
    }

    /// A layer of `c` channels (`None`: the type's static size) with `eps`, `momentum` and,
    /// when `affine`, a weight of ones and a bias of zeros.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `c` differs from the type's static size or a `Dyn` size is
    /// not given.
    pub fn try_new_sized(c: Option<usize>, eps: f64, momentum: f64, affine: bool) -> Result<Self, ShapeError> {
        let c = size_of::<C>(c, "BatchNorm", "num_features")?;
        Ok(BatchNorm {
            weight: affine.then(|| Param::new(Tensor::full_sized(&[c], T::one()))),
            bias: affine.then(|| Param::new(Tensor::zeros_sized(&[c]))),
            running_mean: Tensor::zeros_sized(&[c]),
            running_var: Tensor::full_sized(&[c], T::one()),
            num_batches_tracked: Count(0),
            momentum,
            eps,
            training: true,
        })
    }
}

impl<C: ConstDim, T: GradFloat> Default for BatchNorm<C, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Dim, T: GradFloat> Module<T> for BatchNorm<C, T> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
        self.bias.visit(&super::join(prefix, "bias"), f);
        self.running_mean.visit(&super::join(prefix, "running_mean"), f);
        self.running_var.visit(&super::join(prefix, "running_var"), f);
        <Count as Module<T>>::visit(&mut self.num_batches_tracked, &super::join(prefix, "num_batches_tracked"), f);
        f(prefix, Item::Training(&mut self.training));
    }
}

impl<'t, C: Dim, T: GradFloat, S> Forward<'t, T, S> for BatchNorm<C, T>
where
    S: RemoveAxis<1, Removed = C>,
{
    type Out = S;
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
        let w = self.weight.as_ref().map(|p| tape.watch(p));
        let b = self.bias.as_ref().map(|p| tape.watch(p));
        let y = f::try_batch_norm(
            x,
            Some(&mut self.running_mean),
            Some(&mut self.running_var),
            w.as_ref(),
            b.as_ref(),
            self.training,
            T::from_f64(self.momentum),
            T::from_f64(self.eps),
        )?;
        if self.training {
            self.num_batches_tracked.0 += 1;
        }
        Ok(y)
    }
}

// ---------------------------------------------------------------------------------------------

/// A lookup table (PyTorch `nn.Embedding(num_embeddings, embedding_dim)`): indices of any shape
/// `S` give `[..S, E]`, each index's row of `weight` `[N, E]` (initialised from N(0, 1), as
/// PyTorch's). The input is an index tensor, not a [`Var`]: call [`forward`](Self::forward).
#[derive(Clone, Debug)]
pub struct Embedding<N: Dim, E: Dim, T: GradFloat = f32> {
    /// `[num_embeddings, embedding_dim]`.
    pub weight: Param<T, (N, E)>,
}

impl<N: Dim, E: Dim, T: GradFloat> Embedding<N, E, T> {
    /// A table with PyTorch's initialisation, N(0, 1) from `rng`. Static sizes.
    #[cfg(feature = "rand")]
    pub fn new(rng: &mut (impl rand::Rng + ?Sized)) -> Self
    where
        N: ConstDim,
        E: ConstDim,
    {
        Self::try_new_sized(None, None, rng).or_panic()
    }

    /// A table of `num` rows of `dim` (each `None`: the type's static size), N(0, 1).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a size differs from the type's static one or a `Dyn` size is
    /// not given.
    #[cfg(feature = "rand")]
    pub fn try_new_sized(
        num: Option<usize>,
        dim: Option<usize>,
        rng: &mut (impl rand::Rng + ?Sized),
    ) -> Result<Self, ShapeError> {
        let n = size_of::<N>(num, "Embedding", "num_embeddings")?;
        let e = size_of::<E>(dim, "Embedding", "embedding_dim")?;
        let t = Tensor::<f64, crate::shape::DynShape>::randn_sized(&[n, e], rng);
        let w = Tensor::<T, crate::shape::DynShape>::from_vec(&[n, e], t.iter().map(|&v| T::from_f64(v)).collect());
        Ok(Embedding { weight: Param::new(w.try_into_static()?) })
    }

    /// The rows of `indices` (PyTorch `embedding(input)`): `[..S] -> [..S, E]`, recorded on
    /// `tape` (the weight is watched there).
    ///
    /// # Errors
    /// As [`crate::autograd::nn::try_embedding`]: an index outside `0..N` names the index and
    /// its position.
    #[try_twin]
    pub fn try_forward<'t, S: PushDim<E>>(
        &self,
        tape: &'t Tape<T>,
        indices: &TensorBase<impl Data<Elem: IndexElem>, S>,
    ) -> Result<Var<'t, T, <S as PushDim<E>>::Out>, ShapeError> {
        f::try_embedding(indices, &tape.watch(&self.weight))
    }
}

impl<N: Dim, E: Dim, T: GradFloat> Module<T> for Embedding<N, E, T> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        self.weight.visit(&super::join(prefix, "weight"), f);
    }
}

// ---------------------------------------------------------------------------------------------

/// Dropout (PyTorch `nn.Dropout(p=0.5)`): in training mode each element is zeroed with
/// probability `p` and the others scaled by `1 / (1 - p)`; in evaluation mode the identity. The
/// layer owns its generator, seeded when it is made, so a run is reproducible (PyTorch draws from
/// its global generator). Same shape in and out.
#[cfg(feature = "rand")]
#[derive(Debug)]
pub struct Dropout {
    /// The probability of zeroing an element.
    pub p: f64,
    /// Training mode.
    pub training: bool,
    rng: rand::rngs::StdRng,
}

#[cfg(feature = "rand")]
impl Dropout {
    /// A dropout layer of probability `p`, in training mode, whose generator is seeded with
    /// `seed`.
    pub fn new(p: f64, seed: u64) -> Self {
        use rand::SeedableRng;
        Dropout { p, training: true, rng: rand::rngs::StdRng::seed_from_u64(seed) }
    }
}

#[cfg(feature = "rand")]
impl<T: GradFloat> Module<T> for Dropout {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        f(prefix, Item::Training(&mut self.training));
    }
}

#[cfg(feature = "rand")]
impl<'t, T: GradFloat, S: Shape> Forward<'t, T, S> for Dropout {
    type Out = S;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
        f::try_dropout(x, self.p, self.training, &mut self.rng)
    }
}

// ---------------------------------------------------------------------------------------------

/// PyTorch `nn.Flatten()` (`start_dim=1`): `[N, ..] -> [N, D]`, every dim after the batch merged
/// into one of type `D` (`Dyn` by default: the product at run time; `Const<K>` keeps it static,
/// checked against the product when the program is built for a static input, and when the layer
/// runs otherwise). The batch dim is kept as it is: a
/// flatten never regroups it (PyTorch's `x.reshape(n, -1)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flatten<D: Dim = crate::dim::Dyn>(core::marker::PhantomData<D>);

impl<D: Dim> Flatten<D> {
    /// The layer.
    pub fn new() -> Self {
        Flatten(core::marker::PhantomData)
    }
}

impl<T: GradFloat, D: Dim> Module<T> for Flatten<D> {
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

impl<'t, T: GradFloat, S, N: Dim, D: Dim> Forward<'t, T, S> for Flatten<D>
where
    S: RemoveAxis<0, Removed = N>,
{
    type Out = (N, D);
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, (N, D)>, ShapeError> {
        let () = FlattenCheck::<S, D>::OK;
        let sizes = x.sizes();
        let n = sizes[0];
        let rest: usize = sizes[1..].iter().product();
        if let Some(d) = D::STATIC {
            if d != rest {
                return Err(ShapeError::Invalid(format!(
                    "Flatten: the input {sizes:?} has {rest} elements after the batch dim, the layer's output dim is {d}"
                )));
            }
        }
        x.try_reshape_sized::<(N, D)>(&[n as isize, rest as isize])
    }
}

/// The build-time check of [`Flatten<D>`]: when the dims of `S` after the batch are static and
/// `D` is, their product is `D` (`Flatten<Const<250>>` after a `[N, 16, 4, 4]` feature map does
/// not build, naming 256 and 250).
struct FlattenCheck<S, D>(core::marker::PhantomData<(S, D)>);
impl<S: Shape, D: Dim> FlattenCheck<S, D> {
    const OK: () = if let Some(m) = flatten_error::<S, D>() {
        m.fail()
    };
}
/// The build error of [`FlattenCheck`], if any.
const fn flatten_error<S: Shape, D: Dim>() -> Option<crate::error::ConstMsg> {
    let (Some(rank), Some(d)) = (S::RANK, D::STATIC) else { return None };
    let (mut n, mut i) = (1usize, 1);
    while i < rank {
        match (S::STATIC[i], S::PRODUCTS[i]) {
            (Some(k), _) | (None, Some(k)) => n = n.saturating_mul(k),
            _ => return None,
        }
        i += 1;
    }
    if n == d {
        return None;
    }
    let m = crate::error::ConstMsg::new().str("Flatten: the input ").shape_named(&S::STATIC, &S::NAMES, S::RANK);
    Some(m.str(" has ").num(n).str(" elements after the batch dim, the layer's output dim is ").num(d))
}

/// PyTorch `nn.Unflatten(1, unflattened_size)`: `[N, D] -> [N, ..U]`, the inverse of
/// [`Flatten`]: the second dim split into the dims of `U` (`Shape![16, 4, 4]` for
/// `nn.Unflatten(1, (16, 4, 4))`). The batch dim is kept as it is. `U` may hold a `Dyn` dim,
/// whose size is what the others leave (PyTorch's `-1`). No parameters.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Dyn, Shape, Tensor};
/// use shaped::autograd::Tape;
/// use shaped::nn::{Forward, Unflatten};
/// let tape = Tape::<f32>::new();
/// let x = tape.var(Tensor::<f32, (Dyn, shaped::Const<12>)>::zeros_sized(&[5, 12]));
/// let y = Unflatten::<Shape![3, 4]>::new().forward(&tape, &x);
/// assert_eq!(y.sizes(), [5, 3, 4]);
/// ```
///
/// # Errors
/// [`ShapeError::Reshape`] (from `try_forward`) when `D` is not the product of `U`'s sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Unflatten<U: Shape>(core::marker::PhantomData<U>);

impl<U: Shape> Unflatten<U> {
    /// The layer.
    pub fn new() -> Self {
        Unflatten(core::marker::PhantomData)
    }
}

impl<T: GradFloat, U: Shape> Module<T> for Unflatten<U> {
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

impl<'t, T: GradFloat, N: Dim, D: Dim, U> Forward<'t, T, (N, D)> for Unflatten<U>
where
    U: crate::shape::InsertAxis<0>,
    <U as crate::shape::InsertAxis<0>>::Out: crate::shape::SetAxis<0, N>,
{
    type Out = <<U as crate::shape::InsertAxis<0>>::Out as crate::shape::SetAxis<0, N>>::Out;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, (N, D)>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
        let rank = U::RANK.ok_or_else(|| {
            ShapeError::Invalid("Unflatten: the unflattened shape must have a static rank (a tuple shape)".into())
        })?;
        let mut sizes: alloc::vec::Vec<isize> = alloc::vec![x.sizes()[0] as isize];
        // A `Dyn` dim takes what the others leave (one at most: PyTorch's single `-1`).
        sizes.extend(U::STATIC[..rank].iter().map(|d| d.map_or(-1, |n| n as isize)));
        x.try_reshape_sized::<Self::Out>(&sizes)
    }
}
