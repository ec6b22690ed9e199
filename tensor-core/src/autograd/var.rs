//! [`Var`]: a tensor value with, when tracked, its node on a [`Tape`]; the recording helpers that
//! every differentiable operation goes through; and `backward`.
use super::tape::{BackFn, GradSlot, Grads, NodeRef, Param, Sink, Tape};
use super::GradFloat;
use crate::dim::{Const, One};
use crate::error::{OrPanic, ShapeError};
use crate::shape::{DynShape, Shape};
use crate::tensor::Tensor;
use alloc::boxed::Box;
use alloc::format;
use alloc::sync::Arc;
use shaped_macros::try_twin;

/// A tensor value in a computation that may be differentiated: the value (shared, never copied
/// by the graph) and, when it is tracked, its node on a [`Tape`] (PyTorch's tensor with
/// `requires_grad`, its `grad_fn`).
///
/// Operations on `Var`s take and give the same shape types as the same operations on
/// [`Tensor`]s, with the same compile errors: `&a + &b` broadcasts `Shape![2, 3]` with
/// `Shape![3]`, `a.matmul(&b)` needs equal inner dims. An operation on untracked values records
/// nothing ([`Tape::no_grad`], [`Var::constant`]), so one model function serves inference and
/// training. Cloning is O(1) (the value is reference-counted).
///
/// Values are immutable: there are no in-place operations on a `Var`, so a value the graph saved
/// can never change under it.
pub struct Var<'t, T: GradFloat, S: Shape> {
    value: Arc<Tensor<T, S>>,
    node: Option<NodeRef<'t, T>>,
}

impl<T: GradFloat, S: Shape> Clone for Var<'_, T, S> {
    fn clone(&self) -> Self {
        Var { value: self.value.clone(), node: self.node }
    }
}

impl<T: GradFloat, S: Shape> core::fmt::Debug for Var<'_, T, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Var").field("value", &*self.value).field("node", &self.node.map(|n| n.index)).finish()
    }
}

/// The tape's methods that make values: in this file, so that the tape (tape.rs) never names
/// [`Var`] and the two files do not import each other.
impl<T: GradFloat> Tape<T> {
    /// The parameter as a tracked value of this tape, sharing its storage (no copy): the leaf
    /// whose gradient [`Grads::param`] returns. Same shape as the parameter. On a
    /// [`no_grad`](Self::no_grad) tape, an untracked value.
    ///
    /// A parameter is watched once per step: watching it again on the same tape before
    /// `backward` returns the same leaf (a layer used twice, or a model whose every forward
    /// watches its parameters, records one leaf per parameter), and the gradient sums every use.
    pub fn watch<S: Shape>(&self, p: &Param<T, S>) -> Var<'_, T, S> {
        Var::from_arc(p.value.clone(), self.watch_node(p.id))
    }

    /// A tracked input that is not a parameter (PyTorch `requires_grad_()` on a tensor): a leaf
    /// whose gradient [`Grads::wrt`] returns. Same shape as `value`.
    pub fn var<S: Shape>(&self, value: Tensor<T, S>) -> Var<'_, T, S> {
        Var::from_arc(Arc::new(value), self.leaf())
    }
}

/// The gradients' methods that take values (as the tape's above).
impl<T: GradFloat> Grads<T> {
    /// The gradient with respect to a tracked leaf ([`Tape::var`] or [`Tape::watch`]): a tensor
    /// of the leaf's shape type (PyTorch `x.grad`); `None` for an untracked value, a value of
    /// another tape or step, an intermediate value (only leaves keep gradients, as PyTorch
    /// without `retain_grad`), or a leaf the loss does not depend on.
    pub fn wrt<S: Shape>(&self, v: &Var<'_, T, S>) -> Option<&Tensor<T, S>> {
        self.of_node(v.node()?)
    }

    /// [`wrt`](Self::wrt), with an error naming why there is none.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] for an untracked value, a value of another tape or step, or a
    /// leaf the loss does not depend on.
    pub fn try_wrt<S: Shape>(&self, v: &Var<'_, T, S>) -> Result<&Tensor<T, S>, ShapeError> {
        let Some(n) = v.node() else {
            return Err(ShapeError::Autograd(format!(
                "a gradient was asked of an untracked value of shape {}: create it with Tape::var or Tape::watch",
                S::describe()
            )));
        };
        if !self.is_of_this_step(n) {
            return Err(ShapeError::Autograd("a gradient was asked of a value of another tape or step".into()));
        }
        self.wrt(v).ok_or_else(|| {
            ShapeError::Autograd(format!(
                "no gradient for the value of shape {} (node {}): only leaves keep gradients, and the loss must depend on it",
                S::describe(),
                n.index
            ))
        })
    }
}

impl<T: GradFloat, S: Shape> Var<'static, T, S> {
    /// An untracked value (PyTorch's tensor without `requires_grad`): inputs, targets, masks.
    /// Takes `value` without copying; same shape. Operations mixing it with tracked values are
    /// tracked, and send it no gradient.
    pub fn constant(value: Tensor<T, S>) -> Self {
        Var { value: Arc::new(value), node: None }
    }
}

impl<T: GradFloat, S: Shape> From<Tensor<T, S>> for Var<'static, T, S> {
    fn from(value: Tensor<T, S>) -> Self {
        Var::constant(value)
    }
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    pub(crate) fn from_arc(value: Arc<Tensor<T, S>>, node: Option<NodeRef<'t, T>>) -> Self {
        Var { value, node }
    }
    pub(crate) fn node(&self) -> Option<&NodeRef<'t, T>> {
        self.node.as_ref()
    }
    pub(crate) fn arc(&self) -> &Arc<Tensor<T, S>> {
        &self.value
    }

    /// The value (PyTorch `x.detach()` without the copy): same shape.
    #[doc(alias = "data")]
    pub fn value(&self) -> &Tensor<T, S> {
        &self.value
    }

    /// The value as an untracked `Var` (PyTorch `detach()`): shares the storage, records
    /// nothing, sends no gradient back.
    pub fn detach(&self) -> Var<'static, T, S> {
        Var { value: self.value.clone(), node: None }
    }

    /// The value, consuming the `Var` (a copy when the graph still holds it).
    pub fn into_value(self) -> Tensor<T, S> {
        Arc::try_unwrap(self.value).unwrap_or_else(|a| (*a).clone())
    }

    /// Whether operations on this value are recorded (PyTorch `requires_grad`).
    #[doc(alias = "requires_grad")]
    pub fn is_tracked(&self) -> bool {
        self.node.is_some()
    }

    /// The sizes of the value.
    pub fn sizes(&self) -> &[usize] {
        self.value.sizes()
    }

    /// The number of elements of the value.
    pub fn numel(&self) -> usize {
        self.value.numel()
    }

    /// Records an operation with inputs `parents` and result `value`. `make` builds the backward
    /// rule, and is called only when some input is tracked: it receives each input's node index
    /// (`None` for an untracked input, which needs no gradient) and the result.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] when tracked inputs come from two tapes, or from a tape that has
    /// run `backward` since.
    pub(crate) fn record<S2: Shape, const N: usize>(
        parents: [Option<&NodeRef<'t, T>>; N],
        value: Tensor<T, S2>,
        make: impl FnOnce([Option<usize>; N], &Arc<Tensor<T, S2>>) -> BackFn<T>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        Self::record_nodes(&parents, value, |idx, y| make(core::array::from_fn(|k| idx[k]), y))
    }

    /// [`record`](Self::record) for any number of inputs (`cat_all`, `einsum`): `make` receives
    /// the inputs' node indices in a `Vec`, in the order of `parents`.
    ///
    /// # Errors
    /// As [`record`](Self::record).
    pub(crate) fn record_nodes<S2: Shape>(
        parents: &[Option<&NodeRef<'t, T>>],
        value: Tensor<T, S2>,
        make: impl FnOnce(alloc::vec::Vec<Option<usize>>, &Arc<Tensor<T, S2>>) -> BackFn<T>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let Some(tape) = parents.iter().flatten().map(|n| n.tape).next() else {
            return Ok(Var { value: Arc::new(value), node: None });
        };
        for n in parents.iter().flatten() {
            tape.check(n)?;
        }
        let value = Arc::new(value);
        let back = make(parents.iter().map(|p| p.map(|n| n.index)).collect(), &value);
        let node = tape.push(Some(back));
        Ok(Var { value, node: Some(node) })
    }

    /// [`record`](Self::record) for one input, `self`.
    /// [`record1`](Self::record1), returning the error of a value of a finished tape.
    pub(crate) fn try_record1<S2: Shape>(
        &self,
        value: Tensor<T, S2>,
        make: impl FnOnce(Option<usize>, &Arc<Tensor<T, S2>>) -> BackFn<T>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        Self::record([self.node.as_ref()], value, |[i], y| make(i, y))
    }

    #[track_caller]
    pub(crate) fn record1<S2: Shape>(
        &self,
        value: Tensor<T, S2>,
        make: impl FnOnce(Option<usize>, &Arc<Tensor<T, S2>>) -> BackFn<T>,
    ) -> Var<'t, T, S2> {
        Self::record([self.node.as_ref()], value, |[i], y| make(i, y)).or_panic()
    }

    /// Runs the backward pass from this value seeded with `seed` (PyTorch
    /// `y.backward(gradient=seed)`), the gradient of some scalar with respect to this value.
    /// Frees the graph. `seed` has this value's shape.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] when this value is not tracked, its tape has run `backward`
    /// since it was recorded, or `seed`'s runtime sizes differ from the value's.
    #[try_twin(
        doc = "Runs the backward pass from this value seeded with `seed` (PyTorch `y.backward(gradient=seed)`), the gradient of some scalar with respect to this value."
    )]
    pub fn try_backward_with(&self, seed: &Tensor<T, S>) -> Result<Grads<T>, ShapeError> {
        if seed.sizes() != self.sizes() {
            return Err(ShapeError::Autograd(format!(
                "the seed gradient has sizes {:?}, the value {:?}: they must be equal",
                seed.sizes(),
                self.sizes()
            )));
        }
        self.run_backward(seed.to_owned())
    }

    fn run_backward(&self, seed: Tensor<T, S>) -> Result<Grads<T>, ShapeError> {
        let Some(n) = &self.node else {
            return Err(ShapeError::Autograd(format!(
                "backward of an untracked value of shape {}: it depends on no watched parameter or Tape::var input",
                S::describe()
            )));
        };
        let seed: Box<dyn GradSlot<T>> = Box::new(seed);
        n.tape.backward_from(n, seed)
    }
}

/// A shape whose tensors have one element, so that [`Var::backward`] needs no seed: `Shape![]`
/// (what `sum()` and `mean()` give), the all-size-1 shapes, and [`DynShape`] (checked at run
/// time).
#[diagnostic::on_unimplemented(
    message = "`backward()` needs a scalar loss, but `{Self}` has more than one element",
    label = "a loss of shape `{Self}`",
    note = "reduce the loss first (`.sum()`, `.mean()`, or a loss function), or seed it: `.backward_with(&seed)` with a seed of the same shape"
)]
pub trait ScalarShape: Shape {}
#[diagnostic::do_not_recommend]
impl ScalarShape for () {}
#[diagnostic::do_not_recommend]
impl ScalarShape for (One,) {}
#[diagnostic::do_not_recommend]
impl ScalarShape for (Const<1>,) {}
#[diagnostic::do_not_recommend]
impl ScalarShape for (One, One) {}
#[diagnostic::do_not_recommend]
impl ScalarShape for (Const<1>, Const<1>) {}
#[diagnostic::do_not_recommend]
impl ScalarShape for DynShape {}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// The gradients of this scalar with respect to every tracked leaf it depends on (PyTorch
    /// `loss.backward()`), typed as their leaves: [`Grads::param`] of a
    /// `Param<f32, Shape![32, 64]>` is a `Tensor<f32, Shape![32, 64]>`. Frees the graph: the
    /// tape can record the next step. A loss of another shape is a compile error (reduce it
    /// first, or seed it with [`backward_with`](Self::backward_with)).
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] when the value is not tracked, when its tape has run `backward`
    /// since it was recorded, or (for a [`DynShape`] loss) when it has more than one element.
    #[try_twin(
        doc = "The gradients of this scalar with respect to every tracked leaf it depends on (PyTorch `loss.backward()`), typed as their leaves."
    )]
    pub fn try_backward(&self) -> Result<Grads<T>, ShapeError>
    where
        S: ScalarShape,
    {
        if self.numel() != 1 {
            return Err(ShapeError::Autograd(format!(
                "backward() needs a one-element loss, got sizes {:?}: reduce it (sum, mean) or seed it with backward_with",
                self.sizes()
            )));
        }
        self.run_backward(self.value.ones_like())
    }

    /// The single element of this scalar value.
    pub fn item(&self) -> T
    where
        S: ScalarShape,
    {
        self.value.storage()[self.value.layout().offset()]
    }
}

/// Wraps a typed backward closure (receiving the output gradient as a `Tensor<T, S>` of the
/// output's shape) as a [`BackFn`].
pub(crate) fn back<T: GradFloat, S: Shape>(f: impl FnOnce(Tensor<T, S>, &mut Sink<T>) + 'static) -> BackFn<T> {
    Box::new(move |g, sink| {
        let g =
            g.into_any().downcast::<Tensor<T, S>>().expect("shaped::autograd: an output gradient of the wrong type");
        f(*g, sink)
    })
}
