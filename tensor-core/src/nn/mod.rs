//! Models as typed values (PyTorch's `torch.nn`): layers whose types hold their sizes, the
//! [`Module`] trait that walks a model's parameters and buffers under PyTorch's dotted names
//! (`encoder.layers.0.linear1.weight`), train and eval modes, and state dicts.
//!
//! * A layer is a struct of [`Param`]s and buffers (plain [`Tensor`]s, as PyTorch's
//!   `register_buffer`), generic over its sizes (`Const<N>`, or [`Dyn`](crate::Dyn) for a size
//!   chosen at run time) and its element type: [`Linear`], [`LayerNorm`], [`BatchNorm`]
//!   ([`BatchNorm1d`], [`BatchNorm2d`]), [`Embedding`], [`Dropout`] and the activations.
//! * A model is any struct of layers with `#[derive(Module)]` (the macro crate), a tuple of
//!   layers (a sequential model: each one's output is the next one's input, the names are `0`,
//!   `1`, .. as `nn.Sequential`'s), a `Vec` or an array of modules (`nn.ModuleList`).
//! * [`Forward`] runs a layer or a tuple on a [`Var`]: the same code traced under a [`Tape`] for
//!   training and untracked for inference ([`Predict::predict`], or a [`Tape::no_grad`]). Each
//!   parameter is watched once per step whatever the number of uses ([`Tape::watch`] returns
//!   the same leaf for a parameter watched again on the same tape), and the gradients come back
//!   addressed by the model's own fields (`grads.param(&model.fc1.weight)`, typed as the field).
//! * A wrong input size is a compile error at `cargo check` where the sizes are static, naming
//!   the layer's sizes and the input's shape; a runtime size is checked at run time.
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::nn::{Forward, Linear, Module, Predict, Relu};
//! use shaped::rand::{rngs::StdRng, SeedableRng};
//! use shaped::{Const, Shape, Tensor};
//! use shaped::autograd::{Tape, Var};
//!
//! let rng = &mut StdRng::seed_from_u64(0);
//! // nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
//! let mut model = (Linear::<Const<4>, Const<8>>::new(rng), Relu, Linear::<Const<8>, Const<3>>::new(rng));
//! assert_eq!(model.num_parameters(), 4 * 8 + 8 + 8 * 3 + 3);
//! assert_eq!(model.parameter_names(), ["0.weight", "0.bias", "2.weight", "2.bias"]);
//!
//! let x = Tensor::<f32, Shape![5, 4]>::ones();
//! let tape = Tape::new();
//! let y = model.forward(&tape, &Var::constant(x.clone())); // Var<f32, Shape![5, 3]>
//! let grads = y.square().sum().backward();
//! assert_eq!(grads.param(&model.0.weight).unwrap().sizes(), [8, 4]);
//! // Inference: the same forward, untracked.
//! let out: Tensor<f32, Shape![5, 3]> = model.predict(&x);
//! assert_eq!(out.to_vec(), y.value().to_vec());
//! ```
//!
//! [`Param`]: crate::autograd::Param
//! [`Var`]: crate::autograd::Var
//! [`Tape`]: crate::autograd::Tape
//! [`Tape::no_grad`]: crate::autograd::Tape::no_grad
//! [`Tape::watch`]: crate::autograd::Tape::watch
use crate::autograd::{AnyParam, GradFloat, Param, Tape, Var};
use crate::error::{OrPanic, ShapeError};
use crate::shape::Shape;
use crate::tensor::Tensor;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

mod activation;
#[cfg(feature = "rand")]
mod attention;
pub mod bert;
mod conv;
#[cfg(feature = "rand")]
pub mod data;
#[cfg(feature = "rand")]
pub mod init;
mod layers;
#[cfg(feature = "progress")]
mod progress;
mod state;

pub use crate::autograd::nn as functional;
pub use activation::{Gelu, GeluTanh, Identity, LeakyRelu, LogSoftmax, Relu, Sigmoid, Silu, Softmax, Tanh};
#[cfg(feature = "rand")]
pub use attention::{
    Activation, AttentionOptions, AttnMask, EncoderLayerOptions, MultiheadAttention, TransformerEncoderLayer,
};
pub use conv::{AvgPool2d, Conv1d, Conv2d, ConvTranspose2d, MaxPool2d};
#[cfg(feature = "rand")]
pub use layers::Dropout;
pub use layers::{BatchNorm, BatchNorm1d, BatchNorm2d, Embedding, Flatten, LayerNorm, Linear, Unflatten};
#[cfg(feature = "progress")]
pub use progress::Progress;
pub use state::{LoadReport, StateDict, StateTensor};

/// One entry of a model, as [`Module::visit`] hands it out.
pub enum Item<'a, T: GradFloat> {
    /// A trainable parameter (PyTorch `named_parameters()`).
    Param(&'a mut dyn AnyParam<T>),
    /// A tensor that is state but not trained (PyTorch `named_buffers()`: batch norm's running
    /// statistics), in the state dict beside the parameters.
    Buffer(&'a mut dyn AnyBuffer<T>),
    /// An integer counter saved in the state dict as an `int64` scalar (batch norm's
    /// `num_batches_tracked`).
    Count(&'a mut Count),
    /// A module's training flag (PyTorch's `self.training`): what [`Module::train`] and
    /// [`Module::eval`] set. It has no name of its own and is not in the state dict.
    Training(&'a mut bool),
}

/// A buffer of any shape, as state dicts see it: a [`Tensor`] field of a module.
pub trait AnyBuffer<T: GradFloat> {
    /// The sizes of the value.
    fn sizes(&self) -> &[usize];
    /// The shape type as text (`[64]`, `[_]`), for error messages.
    fn shape_name(&self) -> String;
    /// The elements in row-major order.
    fn to_vec(&self) -> Vec<T>;
    /// Replaces the value by `data` of `sizes` (row-major), which must be the current sizes;
    /// unchanged on error.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] naming both shapes; [`ShapeError::Invalid`] when `data` does
    /// not hold their product of elements.
    fn try_assign(&mut self, sizes: &[usize], data: Vec<T>) -> Result<(), ShapeError>;
}

impl<T: GradFloat, S: Shape> AnyBuffer<T> for Tensor<T, S> {
    fn sizes(&self) -> &[usize] {
        crate::tensor::TensorBase::sizes(self)
    }
    fn shape_name(&self) -> String {
        S::describe()
    }
    fn to_vec(&self) -> Vec<T> {
        crate::tensor::TensorBase::to_vec(self)
    }
    fn try_assign(&mut self, sizes: &[usize], data: Vec<T>) -> Result<(), ShapeError> {
        if sizes != crate::tensor::TensorBase::sizes(self) {
            return Err(ShapeError::ShapeMismatch { expected: S::describe(), got: sizes.into() });
        }
        *self = Tensor::<T, S>::try_from_vec(sizes, data)?;
        Ok(())
    }
}

/// An integer counter of a module (batch norm's `num_batches_tracked`), saved in state dicts as
/// PyTorch saves it: an `int64` tensor of shape `[]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(pub i64);

/// `prefix.name`, or `name` at the top.
pub fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// A part of a model (PyTorch `nn.Module`): its parameters, buffers and training flags, walked
/// under PyTorch's dotted names. Implemented by every layer of this module, by [`Param`] (a
/// parameter whose name is the field's), [`Tensor`] (a buffer), tuples (`0`, `1`, ..), `Vec`s
/// and arrays of modules (`0`, `1`, ..), `Option`s of them, and by `#[derive(Module)]` for a
/// struct whose fields are modules (each under its field's name; `#[module(skip)]` leaves a
/// field out, as a hyper-parameter or a random generator).
///
/// Implement [`visit`](Self::visit); everything else is provided.
pub trait Module<T: GradFloat> {
    /// Calls `f` with every entry below `prefix` (`""` at the top), in declaration order, each
    /// with its dotted name (the training flags with the name of their module).
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>));

    /// The parameters with their names (PyTorch `named_parameters()`), in declaration order.
    fn named_parameters(&mut self) -> Vec<(String, &mut dyn AnyParam<T>)> {
        let mut out = Vec::new();
        self.visit("", &mut |name, item| {
            if let Item::Param(p) = item {
                out.push((name.to_string(), p))
            }
        });
        out
    }

    /// The parameters (PyTorch `parameters()`), as an optimizer's step takes them.
    fn parameters(&mut self) -> Vec<&mut dyn AnyParam<T>> {
        self.named_parameters().into_iter().map(|(_, p)| p).collect()
    }

    /// The parameters' names, in order.
    fn parameter_names(&mut self) -> Vec<String> {
        self.named_parameters().into_iter().map(|(n, _)| n).collect()
    }

    /// The number of trainable elements (`sum(p.numel() for p in model.parameters())`).
    fn num_parameters(&mut self) -> usize {
        self.named_parameters().iter().map(|(_, p)| p.numel()).sum()
    }

    /// Sets every training flag below (PyTorch `train(mode)`): dropout drops and batch norm
    /// normalises by the batch's statistics in training mode.
    fn set_training(&mut self, training: bool) {
        self.visit("", &mut |_, item| {
            if let Item::Training(t) = item {
                *t = training
            }
        });
    }

    /// Training mode (PyTorch `model.train()`), the mode of a new model.
    fn train(&mut self) {
        self.set_training(true)
    }

    /// Evaluation mode (PyTorch `model.eval()`).
    fn eval(&mut self) {
        self.set_training(false)
    }

    /// Whether any module below is in training mode (PyTorch `model.training` of the top).
    fn is_training(&mut self) -> bool {
        let mut any = false;
        self.visit("", &mut |_, item| {
            if let Item::Training(t) = item {
                any |= *t
            }
        });
        any
    }

    /// The parameters and buffers by key (PyTorch `model.state_dict()`): float tensors with
    /// their sizes, and the `int64` counters.
    fn state_dict(&mut self) -> StateDict<T> {
        state::state_dict(self)
    }

    /// Loads `sd` (PyTorch `model.load_state_dict(sd, strict)`). Every entry is checked first
    /// (shape and dtype against the field, even when not `strict`); with `strict`, a missing or
    /// an unexpected key is an error; without, they are skipped and reported. Nothing changes on
    /// error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the keys (strict), or the key and both shapes or dtypes;
    /// naming a key the model gives twice.
    fn load_state_dict(&mut self, sd: &StateDict<T>, strict: bool) -> Result<LoadReport, ShapeError> {
        state::load_state_dict(self, sd, strict)
    }

    /// Writes the state dict to a `.safetensors` file (PyTorch
    /// `safetensors.torch.save_file(model.state_dict(), path)`): float entries as `F32` or `F64`
    /// (the element type), counters as `I64` of shape `[]`, under their dotted keys.
    ///
    /// # Errors
    /// An [`IoError::File`](crate::io::IoError::File) naming the format and `path` around the
    /// write error, or a key given twice.
    #[cfg(feature = "safetensors")]
    fn save_safetensors(&mut self, path: impl AsRef<std::path::Path>) -> Result<(), crate::io::IoError>
    where
        Self: Sized,
    {
        state::save_safetensors(self, path.as_ref())
    }

    /// Loads the state dict of a `.safetensors` file (PyTorch
    /// `model.load_state_dict(safetensors.torch.load_file(path), strict)`): a checkpoint that
    /// PyTorch saved for the same architecture loads by its own keys. The file is hostile input
    /// (the checks and bounds of [`crate::autograd::load_safetensors`]); every tensor the model
    /// needs is compared with its field (dtype, shape) before any data is read; with `strict`
    /// the file's keys must be the model's. Nothing changes on error. Returns what a non-strict
    /// load skipped.
    ///
    /// # Errors
    /// An [`IoError::File`](crate::io::IoError::File) naming the format and `path`, around
    /// [`IoError::Keys`](crate::io::IoError::Keys) listing the missing and unexpected keys
    /// (strict), [`IoError::Parameter`](crate::io::IoError::Parameter) naming the key and both
    /// shapes or dtypes, or the file's own errors.
    #[cfg(feature = "safetensors")]
    fn load_safetensors(
        &mut self,
        path: impl AsRef<std::path::Path>,
        strict: bool,
    ) -> Result<LoadReport, crate::io::IoError>
    where
        Self: Sized,
    {
        state::load_safetensors(self, path.as_ref(), strict)
    }
}

/// Every module is a [`Parameters`](crate::autograd::Parameters) (its parameters alone, under
/// their dotted keys), so the parameter savers and loaders of [`crate::autograd`] take a model.
impl<T: GradFloat, M: Module<T>> crate::autograd::Parameters<T> for M {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<T>)) {
        Module::visit(self, "", &mut |name, item| {
            if let Item::Param(p) = item {
                f(name, p)
            }
        })
    }
}

impl<T: GradFloat, S: Shape> Module<T> for Param<T, S> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        f(prefix, Item::Param(self))
    }
}

impl<T: GradFloat, S: Shape> Module<T> for Tensor<T, S> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        f(prefix, Item::Buffer(self))
    }
}

impl<T: GradFloat> Module<T> for Count {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        f(prefix, Item::Count(self))
    }
}

impl<T: GradFloat, M: Module<T>> Module<T> for Option<M> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        if let Some(m) = self {
            m.visit(prefix, f)
        }
    }
}

impl<T: GradFloat, M: Module<T>> Module<T> for Vec<M> {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        for (i, m) in self.iter_mut().enumerate() {
            m.visit(&join(prefix, &i.to_string()), f)
        }
    }
}

impl<T: GradFloat, M: Module<T>, const N: usize> Module<T> for [M; N] {
    fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
        for (i, m) in self.iter_mut().enumerate() {
            m.visit(&join(prefix, &i.to_string()), f)
        }
    }
}

impl<T: GradFloat> Module<T> for () {
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

/// A layer or a model applied to a tracked or untracked value (PyTorch's `forward`, called as
/// `model(x)` there): `S` is the input's shape and [`Out`](Self::Out) the output's, both in the
/// types, so a model's shapes are checked where it is called. `&mut self`: batch norm updates
/// its running statistics and dropout draws from its generator in training mode, as PyTorch's
/// modules do.
pub trait Forward<'t, T: GradFloat, S: Shape> {
    /// The output's shape.
    type Out: Shape;

    /// The output for input `x`, recorded on `tape` when `x` or a parameter is tracked there
    /// (the parameters are watched on `tape`; a [`Tape::no_grad`](crate::autograd::Tape::no_grad)
    /// records nothing).
    ///
    /// # Errors
    /// The layer's runtime shape errors (a `Dyn` size that does not fit), naming the layer's
    /// sizes and the input's; [`ShapeError::Autograd`] when `x` belongs to another tape.
    fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError>;

    /// [`try_forward`](Self::try_forward), panicking with the error's message.
    #[track_caller]
    fn forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Var<'t, T, Self::Out> {
        self.try_forward(tape, x).or_panic()
    }
}

/// Inference on plain tensors (PyTorch's `with torch.no_grad(): model(x)`): the forward of
/// [`Forward`] on an untracked value, nothing recorded.
pub trait Predict<T: GradFloat, S: Shape> {
    /// The output's shape.
    type Out: Shape;
    /// The output for `x`, untracked.
    ///
    /// # Errors
    /// As [`Forward::try_forward`].
    fn try_predict(&mut self, x: &Tensor<T, S>) -> Result<Tensor<T, Self::Out>, ShapeError>;
    /// [`try_predict`](Self::try_predict), panicking with the error's message.
    #[track_caller]
    fn predict(&mut self, x: &Tensor<T, S>) -> Tensor<T, Self::Out> {
        self.try_predict(x).or_panic()
    }
}

impl<T: GradFloat, S: Shape, M, O: Shape> Predict<T, S> for M
where
    M: for<'t> Forward<'t, T, S, Out = O>,
{
    type Out = O;
    fn try_predict(&mut self, x: &Tensor<T, S>) -> Result<Tensor<T, O>, ShapeError> {
        let tape = Tape::no_grad();
        // The input's storage is shared, not copied.
        let v = Var::from_arc(Arc::new(x.clone()), None);
        Ok(self.try_forward(&tape, &v)?.into_value())
    }
}

macro_rules! tuple_module {
    ($($name:ident $idx:tt),+) => {
        impl<T: GradFloat, $($name: Module<T>),+> Module<T> for ($($name,)+) {
            fn visit<'a>(&'a mut self, prefix: &str, f: &mut dyn FnMut(&str, Item<'a, T>)) {
                $(self.$idx.visit(&join(prefix, stringify!($idx)), f);)+
            }
        }
    };
}
tuple_module!(A 0);
tuple_module!(A 0, B 1);
tuple_module!(A 0, B 1, C 2);
tuple_module!(A 0, B 1, C 2, D 3);
tuple_module!(A 0, B 1, C 2, D 3, E 4);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_module!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

/// A tuple of layers is a sequential model (PyTorch `nn.Sequential`): each one's output is the
/// next one's input, and a size that does not fit between two layers is a compile error there.
macro_rules! tuple_forward {
    ($first:ident $fi:tt $(, $name:ident $idx:tt $prev:ident)*) => {
        impl<'t, T: GradFloat, S: Shape, $first: Forward<'t, T, S> $(, $name: Forward<'t, T, $prev::Out>)*>
            Forward<'t, T, S> for ($first, $($name,)*)
        {
            type Out = tuple_forward!(@last $first $(, $name)*);
            fn try_forward(&mut self, tape: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, Self::Out>, ShapeError> {
                let y = self.$fi.try_forward(tape, x)?;
                $(let y = self.$idx.try_forward(tape, &y)?;)*
                Ok(y)
            }
        }
    };
    (@last $a:ident) => { $a::Out };
    (@last $a:ident, $($rest:ident),+) => { tuple_forward!(@last $($rest),+) };
}
tuple_forward!(A 0);
tuple_forward!(A 0, B 1 A);
tuple_forward!(A 0, B 1 A, C 2 B);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E, G 6 F);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E, G 6 F, H 7 G);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E, G 6 F, H 7 G, I 8 H);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E, G 6 F, H 7 G, I 8 H, J 9 I);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E, G 6 F, H 7 G, I 8 H, J 9 I, K 10 J);
tuple_forward!(A 0, B 1 A, C 2 B, D 3 C, E 4 D, F 5 E, G 6 F, H 7 G, I 8 H, J 9 I, K 10 J, L 11 K);
