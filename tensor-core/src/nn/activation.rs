//! The activations as layers (PyTorch's `nn.ReLU`, `nn.GELU`, ...): unit structs (or a
//! hyper-parameter) with no parameters, so they sit in a tuple model between the layers whose
//! sizes they keep. Each applies the [`Var`] method of the same name; same shape in and out.
use super::{Forward, Item, Module};
use crate::autograd::{GradFloat, Tape, Var};
use crate::error::ShapeError;
use crate::shape::Ax;
use crate::shape::{RemoveAxis, Shape};

macro_rules! activation {
    ($($(#[$m:meta])* $name:ident, $torch:literal, |$x:ident| $body:expr;)*) => {$(
        #[doc = concat!("PyTorch `nn.", $torch, "` as a layer: same shape in and out, no parameters.")]
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl<T: GradFloat> Module<T> for $name {
            fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
        }

        impl<'t, T: GradFloat, S: Shape> Forward<'t, T, S> for $name {
            type Out = S;
            fn try_forward(&mut self, _: &'t Tape<T>, $x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
                Ok($body)
            }
        }
    )*};
}

activation! {
    Relu, "ReLU", |x| x.relu();
    /// The exact form, `x Φ(x)` (PyTorch's default `approximate='none'`).
    Gelu, "GELU", |x| x.gelu();
    /// The tanh approximation (PyTorch `nn.GELU(approximate='tanh')`).
    GeluTanh, "GELU(approximate='tanh')", |x| x.gelu_tanh();
    Tanh, "Tanh", |x| x.tanh();
    Sigmoid, "Sigmoid", |x| x.sigmoid();
    Silu, "SiLU", |x| x.silu();
    Identity, "Identity", |x| x.clone();
}

/// PyTorch `nn.LeakyReLU(negative_slope)` as a layer (PyTorch's default slope is 0.01): same
/// shape, no parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeakyRelu(pub f64);

impl Default for LeakyRelu {
    fn default() -> Self {
        LeakyRelu(0.01)
    }
}

impl<T: GradFloat> Module<T> for LeakyRelu {
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

impl<'t, T: GradFloat, S: Shape> Forward<'t, T, S> for LeakyRelu {
    type Out = S;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
        Ok(x.leaky_relu(T::from_f64(self.0)))
    }
}

/// PyTorch `nn.Softmax(dim=A)` as a layer: the softmax along axis `A` (negative from the end),
/// checked against the input's rank at compile time; same shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Softmax<const A: isize>;

/// PyTorch `nn.LogSoftmax(dim=A)` as a layer: the log-softmax along axis `A`; same shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LogSoftmax<const A: isize>;

impl<T: GradFloat, const A: isize> Module<T> for Softmax<A> {
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}
impl<T: GradFloat, const A: isize> Module<T> for LogSoftmax<A> {
    fn visit<'a>(&'a mut self, _: &str, _: &mut dyn FnMut(&str, Item<'a, T>)) {}
}

impl<'t, T: GradFloat, S: RemoveAxis<A>, const A: isize> Forward<'t, T, S> for Softmax<A> {
    type Out = S;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
        Ok(x.softmax(Ax::<A>))
    }
}

impl<'t, T: GradFloat, S: RemoveAxis<A>, const A: isize> Forward<'t, T, S> for LogSoftmax<A> {
    type Out = S;
    fn try_forward(&mut self, _: &'t Tape<T>, x: &Var<'t, T, S>) -> Result<Var<'t, T, S>, ShapeError> {
        Ok(x.log_softmax(Ax::<A>))
    }
}
