//! The graph of one step: [`Tape`] (an arena of nodes, in creation order), [`Param`] (a trainable
//! tensor with an identity), [`Grads`] (the gradients that `backward` leaves, typed on the way
//! out) and the crate-private sink that backward rules add their input gradients to.
//!
//! Creation order is a topological order (a node's inputs exist before it), so `backward` walks
//! the arena once from the loss down, handing each node the sum of the gradients its consumers
//! sent it, then freeing it. A value used twice, a skip connection or several heads sharing a
//! trunk all sum correctly: there is one graph per step, never one per tensor (dfdx #507, #833).
use super::GradFloat;
use crate::error::ShapeError;
use crate::shape::Shape;
use crate::storage::DataMut;
use crate::tensor::Tensor;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::any::Any;
use core::cell::RefCell;
use core::sync::atomic::Ordering;

mod grads_ext;

/// A backward rule: receives the node's output gradient (a `Tensor<T, S>` of the node's own
/// shape, boxed) and adds its inputs' gradients to the sink.
pub(crate) type BackFn<T> = Box<dyn FnOnce(Box<dyn GradSlot<T>>, &mut Sink<T>)>;

/// A node of a tape, as a value refers to it.
pub(crate) struct NodeRef<'t, T> {
    pub(crate) tape: &'t Tape<T>,
    pub(crate) index: usize,
    pub(crate) generation: u64,
}
impl<T> Clone for NodeRef<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for NodeRef<'_, T> {}

struct Node<T> {
    /// `None` for a leaf (a watched parameter or a [`Tape::var`] input), whose gradient is kept.
    back: Option<BackFn<T>>,
}

struct State<T> {
    /// Bumped by every `backward`: nodes of an older generation are gone. 64 bits, and never
    /// wrapped: a tape whose generation reached `u64::MAX` refuses further backward passes, so a
    /// stale [`Var`](super::Var) can never match a later generation (a wrapping `u32` would have accepted one
    /// again after 2³² passes).
    generation: u64,
    nodes: Vec<Node<T>>,
    /// Which leaf node stands for which parameter (a parameter watched twice has two leaves,
    /// whose gradients are summed).
    params: Vec<(ParamId, usize)>,
}

#[cfg(target_has_atomic = "64")]
static NEXT_ID: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(1);
#[cfg(target_has_atomic = "64")]
fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}
/// Targets without 64-bit atomics (32-bit microcontrollers such as thumbv7em): a `usize` counter,
/// and a panic rather than a reused id once it wraps (after 2³² - 1 tapes and parameters).
#[cfg(not(target_has_atomic = "64"))]
static NEXT_ID: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(1);
#[cfg(not(target_has_atomic = "64"))]
fn next_id() -> u64 {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    assert!(id != 0, "autograd: tape and parameter ids exhausted (2^32 on this target)");
    id as u64
}

/// The record of one forward pass: every operation on a tracked [`Var`](super::Var) adds a node, and
/// [`Var::backward`](super::Var::backward) walks the nodes back from a scalar loss (PyTorch's autograd graph, candle's
/// `backward()`, TensorFlow's `GradientTape`).
///
/// One tape serves one step: create it, [`watch`](Self::watch) the parameters, run the model,
/// call `backward` on the loss, and drop it (or let the next step make a new one). `backward`
/// frees the graph, so memory does not grow over a training loop; a [`Var`](super::Var) of a finished tape
/// is refused by later operations with [`ShapeError::Autograd`].
///
/// [`Tape::no_grad`] makes a tape that records nothing (PyTorch `torch.no_grad()`): the same
/// model code then runs as inference, at the speed of plain tensor code.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{Param, Tape};
///
/// let w = Param::new(Tensor::<f64, Shape![2]>::from([3.0, -1.0]));
/// let tape = Tape::new();
/// let x = tape.watch(&w);
/// let loss = (&x * &x).sum(); // 9 + 1
/// let grads = loss.backward();
/// let g: &Tensor<f64, Shape![2]> = grads.param(&w).unwrap(); // the type is w's
/// assert_eq!(g.to_vec(), [6.0, -2.0]);
/// ```
pub struct Tape<T> {
    id: u64,
    enabled: bool,
    state: RefCell<State<T>>,
}

impl<T: GradFloat> Default for Tape<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: GradFloat> core::fmt::Debug for Tape<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let st = self.state.borrow();
        f.debug_struct("Tape")
            .field("id", &self.id)
            .field("enabled", &self.enabled)
            .field("nodes", &st.nodes.len())
            .field("generation", &st.generation)
            .finish()
    }
}

impl<T: GradFloat> Tape<T> {
    /// An empty tape that records (PyTorch's default grad mode).
    pub fn new() -> Self {
        Tape {
            id: next_id(),
            enabled: true,
            state: RefCell::new(State { generation: 0, nodes: Vec::new(), params: Vec::new() }),
        }
    }

    /// A tape that records nothing (PyTorch `torch.no_grad()` / `torch.inference_mode()`):
    /// [`watch`](Self::watch) and [`var`](Self::var) give untracked values, so a model written
    /// once over [`Var`](super::Var) runs as inference with no graph and no saved tensors.
    #[doc(alias = "inference_mode")]
    pub fn no_grad() -> Self {
        Tape { enabled: false, ..Self::new() }
    }

    /// Whether this tape records operations (`false` for [`no_grad`](Self::no_grad)).
    pub fn is_recording(&self) -> bool {
        self.enabled
    }

    /// The number of nodes recorded since the last `backward` (leaves included).
    pub fn len(&self) -> usize {
        self.state.borrow().nodes.len()
    }

    /// Whether no node has been recorded since the last `backward`.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The node of parameter `id` on this tape, added the first time it is watched in a step
    /// (`None` on a [`no_grad`](Self::no_grad) tape): what `watch` (in var.rs) wraps.
    pub(crate) fn watch_node(&self, id: ParamId) -> Option<NodeRef<'_, T>> {
        if !self.enabled {
            return None;
        }
        let known = {
            let st = self.state.borrow();
            st.params.iter().find(|(pid, _)| *pid == id).map(|&(_, index)| NodeRef {
                tape: self,
                index,
                generation: st.generation,
            })
        };
        if known.is_some() {
            return known;
        }
        let node = self.push(None);
        self.state.borrow_mut().params.push((id, node.index));
        Some(node)
    }

    /// A new leaf node (`None` on a [`no_grad`](Self::no_grad) tape): what `var` (in var.rs)
    /// wraps.
    pub(crate) fn leaf(&self) -> Option<NodeRef<'_, T>> {
        if self.enabled {
            Some(self.push(None))
        } else {
            None
        }
    }

    /// Adds a node and returns its handle.
    pub(crate) fn push(&self, back: Option<BackFn<T>>) -> NodeRef<'_, T> {
        let mut st = self.state.borrow_mut();
        let index = st.nodes.len();
        st.nodes.push(Node { back });
        NodeRef { tape: self, index, generation: st.generation }
    }

    /// Checks that `n` is a live node of this tape.
    pub(crate) fn check(&self, n: &NodeRef<'_, T>) -> Result<(), ShapeError> {
        if !core::ptr::eq(n.tape, self) {
            return Err(ShapeError::Autograd(format!(
                "values of two tapes are combined (tape {} and tape {}): every tracked value of one step must come from one tape",
                self.id, n.tape.id
            )));
        }
        let st = self.state.borrow();
        if n.generation != st.generation || n.index >= st.nodes.len() {
            return Err(ShapeError::Autograd(format!(
                "a value recorded before tape {}'s backward is used after it: backward frees the graph, so watch the parameters again on a new tape",
                self.id
            )));
        }
        Ok(())
    }

    /// Runs the backward pass from node `root`, seeded with `seed` (a `Tensor<T, S>` of the
    /// root's shape), and frees the graph.
    pub(crate) fn backward_from(
        &self,
        root: &NodeRef<'_, T>,
        seed: Box<dyn GradSlot<T>>,
    ) -> Result<Grads<T>, ShapeError> {
        self.check(root)?;
        let (mut nodes, params, generation) = {
            let mut st = self.state.borrow_mut();
            let generation = st.generation;
            // Checked before anything is taken: at the last generation the graph stays as it is.
            let Some(next) = generation.checked_add(1) else {
                return Err(ShapeError::Autograd(format!(
                    "tape {} has run {} backward passes, its last generation: make a new tape",
                    self.id,
                    u64::MAX
                )));
            };
            st.generation = next;
            let nodes = core::mem::take(&mut st.nodes);
            let params = core::mem::take(&mut st.params);
            (nodes, params, generation)
        };
        nodes.truncate(root.index + 1);
        let mut sink = Sink { grads: Vec::new() };
        sink.grads.resize_with(nodes.len(), || None);
        sink.grads[root.index] = Some(seed);
        walk(&mut nodes, &mut sink)?;
        let nodes = sink.grads.len();
        let mut grads = Grads { tape: self.id, generation, nodes, grads: sink.grads, params };
        grads.merge_params();
        Ok(grads)
    }
}

/// Runs every node's rule from the last to the first, each with the sum of its consumers'
/// gradients, freeing each node's saved tensors as soon as its rule has run.
fn walk<T: GradFloat>(nodes: &mut Vec<Node<T>>, sink: &mut Sink<T>) -> Result<(), ShapeError> {
    for i in (0..nodes.len()).rev() {
        let Some(back) = nodes[i].back.take() else { continue };
        if let Some(g) = sink.grads[i].take() {
            run_rule(i, back, g, sink)?;
        }
        // Saved tensors of this node go now, not at the end of the walk.
        drop(nodes.pop());
    }
    Ok(())
}

/// Runs one backward rule. With `std`, a panic inside it (a bug of the rule, an allocation that
/// fails inside a kernel) comes back as [`ShapeError::Autograd`] naming the node and the panic's
/// message instead of unwinding through `try_backward` (the graph is freed either way; with
/// `panic = "abort"` there is nothing to catch). Without `std` the panic propagates.
fn run_rule<T: GradFloat>(
    i: usize,
    back: BackFn<T>,
    g: Box<dyn GradSlot<T>>,
    sink: &mut Sink<T>,
) -> Result<(), ShapeError> {
    #[cfg(not(feature = "std"))]
    {
        let _ = i;
        back(g, sink);
        Ok(())
    }
    #[cfg(feature = "std")]
    {
        let run = std::panic::AssertUnwindSafe(move || back(g, sink));
        std::panic::catch_unwind(run).map_err(|payload| {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| String::from(*s))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".into());
            ShapeError::Autograd(format!(
                "the backward rule of node {i} failed: {msg} (this is a bug in shaped's rule: please report it)"
            ))
        })
    }
}

/// Where backward rules send their inputs' gradients: one slot per node, summed on arrival.
pub(crate) struct Sink<T> {
    grads: Vec<Option<Box<dyn GradSlot<T>>>>,
}

impl<T: GradFloat> Sink<T> {
    /// Adds `g` (the gradient of node `index`, whose value has shape `S`) to what that node has.
    pub(crate) fn add<S: Shape>(&mut self, index: usize, g: Tensor<T, S>) {
        match &mut self.grads[index] {
            slot @ None => {
                // Stored gradients are row-major and own exactly their elements, so that
                // optimizers can read them as slices.
                let g = if g.is_contiguous() && g.storage().len() == g.numel() { g } else { g.to_owned() };
                *slot = Some(Box::new(g))
            }
            Some(prev) => {
                let prev = prev
                    .as_any_mut()
                    .downcast_mut::<Tensor<T, S>>()
                    .expect("shaped::autograd: a node's gradient changed type");
                let mut dst = prev.as_view_mut().into_dyn();
                dst += &g.as_dyn();
            }
        }
    }
}

/// The identity of a [`Param`], stable for its life: what optimizers key their state by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ParamId(u64);

/// A trainable tensor (PyTorch `nn.Parameter`): a value of static, mixed or dynamic shape with an
/// identity ([`ParamId`]) that gradients and optimizer state refer to.
///
/// [`Tape::watch`] shares its storage with the graph (no copy); after `backward` has freed the
/// graph, [`value_mut`](Self::value_mut) and the optimizers update it in place. A value still
/// saved by a live graph is copied on write instead, so a graph never sees a parameter change
/// under it (PyTorch's version-counter error cannot arise).
#[derive(Clone, Debug)]
pub struct Param<T: GradFloat, S: Shape> {
    pub(crate) value: Arc<Tensor<T, S>>,
    pub(crate) id: ParamId,
}

impl<T: GradFloat, S: Shape> Param<T, S> {
    /// A new parameter holding `value` (same shape), with a fresh identity.
    pub fn new(value: Tensor<T, S>) -> Self {
        Param { value: Arc::new(value), id: ParamId(next_id()) }
    }
    /// The current value.
    pub fn value(&self) -> &Tensor<T, S> {
        &self.value
    }
    /// The value, writable: in place when no live graph saved it, a copy otherwise.
    pub fn value_mut(&mut self) -> &mut Tensor<T, S> {
        Arc::make_mut(&mut self.value)
    }
    /// The parameter's identity.
    pub fn id(&self) -> ParamId {
        self.id
    }
    /// The value, consuming the parameter (a copy if a live graph still shares it).
    pub fn into_value(self) -> Tensor<T, S> {
        Arc::try_unwrap(self.value).unwrap_or_else(|a| (*a).clone())
    }
}

/// A parameter of any shape, as optimizers and gradient clipping see it: an identity and its
/// elements in row-major order. Implemented by [`Param`]; optimizers take
/// `&mut [&mut dyn AnyParam<T>]`, so one call updates parameters of different shapes.
pub trait AnyParam<T: GradFloat> {
    /// The parameter's identity.
    fn id(&self) -> ParamId;
    /// Its number of elements.
    fn numel(&self) -> usize;
    /// Calls `f` with the elements in row-major order, writable (made contiguous first if they
    /// are not).
    fn update(&mut self, f: &mut dyn FnMut(&mut [T]));
    /// The sizes of the value.
    fn sizes(&self) -> &[usize];
    /// The shape type as text (`[32, 64]`, `[_, 64]`), for error messages.
    fn shape_name(&self) -> String;
    /// The elements in row-major order.
    fn to_vec(&self) -> Vec<T>;
    /// Replaces the value by `data` of `sizes` (row-major), which must equal the current sizes
    /// (PyTorch's strict `load_state_dict`); the parameter is unchanged on error.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] naming the parameter's shape and `sizes`;
    /// [`ShapeError::Invalid`] when `data` does not hold their product of elements.
    fn try_assign(&mut self, sizes: &[usize], data: Vec<T>) -> Result<(), ShapeError>;
}

/// A model's parameters, by name: what saving, loading and optimizers walk (PyTorch's
/// `named_parameters()`). Implement it by calling `f` once per parameter with a unique, stable
/// name (the key in files):
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{AnyParam, Param, Parameters};
///
/// struct Linear {
///     w: Param<f32, Shape![4, 3]>,
///     b: Param<f32, Shape![4]>,
/// }
/// impl Parameters<f32> for Linear {
///     fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
///         f("w", &mut self.w);
///         f("b", &mut self.b);
///     }
/// }
/// let mut m = Linear { w: Param::new(Tensor::zeros()), b: Param::new(Tensor::zeros()) };
/// let mut n = 0;
/// m.visit(&mut |_, p| n += p.numel());
/// assert_eq!(n, 16);
/// ```
pub trait Parameters<T: GradFloat> {
    /// Calls `f` with each parameter and its name.
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<T>));
}

impl<T: GradFloat, S: Shape> AnyParam<T> for Param<T, S> {
    fn id(&self) -> ParamId {
        self.id
    }
    fn numel(&self) -> usize {
        self.value.numel()
    }
    fn update(&mut self, f: &mut dyn FnMut(&mut [T])) {
        let v = Arc::make_mut(&mut self.value);
        if !v.is_contiguous() || v.storage().len() != v.numel() {
            *v = v.to_owned();
        }
        f(v.data.as_mut_slice())
    }
    fn sizes(&self) -> &[usize] {
        self.value.sizes()
    }
    fn shape_name(&self) -> String {
        S::describe()
    }
    fn to_vec(&self) -> Vec<T> {
        self.value.to_vec()
    }
    fn try_assign(&mut self, sizes: &[usize], data: Vec<T>) -> Result<(), ShapeError> {
        if sizes != self.value.sizes() {
            return Err(ShapeError::ShapeMismatch { expected: format!("{:?}", self.value.sizes()), got: sizes.into() });
        }
        let t = Tensor::<T, S>::try_from_vec(sizes, data)?;
        self.value = Arc::new(t);
        Ok(())
    }
}

/// The gradients a `backward` left: one per leaf ([`Tape::watch`]ed parameter or [`Tape::var`]
/// input) that the loss depends on, each with its leaf's shape type.
pub struct Grads<T> {
    tape: u64,
    generation: u64,
    /// The number of nodes of the graph walked: slots past it hold gradients added by
    /// [`Grads::accumulate`], which no [`Var`](super::Var) of this step addresses.
    nodes: usize,
    grads: Vec<Option<Box<dyn GradSlot<T>>>>,
    params: Vec<(ParamId, usize)>,
}

impl<T: GradFloat> core::fmt::Debug for Grads<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Grads").field("tape", &self.tape).field("params", &self.params.len()).finish()
    }
}

impl<T: GradFloat> Grads<T> {
    /// The gradient of the loss with respect to parameter `p`: a tensor of `p`'s shape type, or
    /// `None` when the loss does not depend on `p` (or `p` was not watched). A parameter watched
    /// more than once gets the sum (as PyTorch accumulates into `.grad`).
    pub fn param<S: Shape>(&self, p: &Param<T, S>) -> Option<&Tensor<T, S>> {
        self.param_at::<S>(p.id)
    }

    /// A parameter watched twice has its gradients summed into its first leaf when the grads
    /// are built (`merge_params`), so the first leaf of `id` answers.
    fn param_at<S: Shape>(&self, id: ParamId) -> Option<&Tensor<T, S>> {
        let &(_, i) = self.params.iter().find(|(pid, _)| *pid == id)?;
        self.slot::<S>(i)
    }

    fn slot<S: Shape>(&self, i: usize) -> Option<&Tensor<T, S>> {
        self.grads.get(i)?.as_ref()?.as_any().downcast_ref::<Tensor<T, S>>()
    }

    /// [`param`](Self::param), with an error naming why there is none.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] when the loss does not depend on `p` or `p` was not watched.
    pub fn try_param<S: Shape>(&self, p: &Param<T, S>) -> Result<&Tensor<T, S>, ShapeError> {
        self.param(p).ok_or_else(|| {
            ShapeError::Autograd(format!("no gradient for parameter {:?} of shape {}: it was not watched on this tape, or the loss does not depend on it", p.id, S::describe()))
        })
    }

    /// Whether node `n` belongs to the tape and step these gradients came from.
    pub(crate) fn is_of_this_step(&self, n: &NodeRef<'_, T>) -> bool {
        n.tape.id == self.tape && n.generation == self.generation
    }

    /// The gradient of leaf node `n` (`wrt`, in var.rs): `None` for a node of another tape or
    /// step, a node past this step's, or one the loss does not depend on.
    pub(crate) fn of_node<S: Shape>(&self, n: &NodeRef<'_, T>) -> Option<&Tensor<T, S>> {
        if !self.is_of_this_step(n) || n.index >= self.nodes {
            return None;
        }
        if let Some(&(id, _)) = self.params.iter().find(|&&(_, i)| i == n.index) {
            return self.param_at::<S>(id);
        }
        self.slot::<S>(n.index)
    }

    /// The gradient of parameter `id` as elements in row-major order (what optimizers read), or
    /// `None`.
    pub fn param_slice(&self, id: ParamId) -> Option<&[T]> {
        let &(_, i) = self.params.iter().find(|(pid, _)| *pid == id)?;
        Some(self.grads.get(i)?.as_ref()?.elems())
    }

    /// Multiplies every gradient by `scale` (for clipping and loss scaling).
    pub fn scale(&mut self, scale: T) {
        for g in self.grads.iter_mut().flatten() {
            for v in g.elems_mut() {
                *v *= scale;
            }
        }
    }

    /// The 2-norm of all the parameters' gradients taken together.
    pub fn norm(&self) -> T {
        let mut acc = T::zero();
        for (id, _) in &self.params {
            if let Some(s) = self.param_slice(*id) {
                for &v in s {
                    acc += v * v;
                }
            }
        }
        acc.sqrt()
    }

    /// Scales the gradients so that their joint 2-norm is at most `max_norm` (PyTorch
    /// `nn.utils.clip_grad_norm_` with its default `error_if_nonfinite=False`: every gradient is
    /// multiplied by `min(max_norm / (norm + 1e-6), 1)`) and returns the norm before clipping.
    /// As PyTorch's, a NaN norm (a NaN gradient) makes every gradient NaN, and an infinite one
    /// scales them by 0 (so an infinite element becomes NaN): a step with a non-finite gradient
    /// is never taken silently with the other gradients unchanged. Check the returned norm
    /// (`norm.is_finite()`) to skip such a step.
    pub fn clip_norm(&mut self, max_norm: T) -> T {
        let norm = self.norm();
        let coef = max_norm / (norm + T::from(1e-6).unwrap_or_else(T::zero));
        // `clamp(max=1)` keeps a NaN coefficient, as torch.clamp does.
        if coef.is_nan() || coef < T::one() {
            self.scale(coef);
        }
        norm
    }

    /// Sums watched-twice parameters into one leaf (called once, when the grads are built).
    pub(crate) fn merge_params(&mut self) {
        let mut i = 0;
        while i < self.params.len() {
            let (id, first) = self.params[i];
            let mut j = i + 1;
            while j < self.params.len() {
                if self.params[j].0 == id {
                    let (_, other) = self.params.remove(j);
                    if let Some(g) = self.grads[other].take() {
                        match &mut self.grads[first] {
                            slot @ None => *slot = Some(g),
                            Some(prev) => {
                                for (x, y) in prev.elems_mut().iter_mut().zip(g.elems()) {
                                    *x += *y;
                                }
                            }
                        }
                    }
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
    }
}

/// A gradient tensor of some shape, stored erased: typed again by downcasting through
/// [`as_any`](Self::as_any) (to the leaf's own `Tensor<T, S>`), or read as its row-major
/// elements by optimizers.
pub(crate) trait GradSlot<T>: Any {
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    fn elems(&self) -> &[T];
    fn elems_mut(&mut self) -> &mut [T];
    /// The gradient's sizes.
    fn sizes(&self) -> &[usize];
    /// A copy, boxed (for [`Grads::accumulate`]).
    fn clone_box(&self) -> Box<dyn GradSlot<T>>;
}

impl<T: GradFloat, S: Shape> GradSlot<T> for Tensor<T, S> {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    // Stored gradients are contiguous and own exactly their elements (`Sink::add`).
    fn elems(&self) -> &[T] {
        self.storage()
    }
    fn elems_mut(&mut self) -> &mut [T] {
        self.data.as_mut_slice()
    }
    fn sizes(&self) -> &[usize] {
        crate::tensor::TensorBase::sizes(self)
    }
    fn clone_box(&self) -> Box<dyn GradSlot<T>> {
        // A clone owns exactly its elements, contiguous, as `elems` needs.
        Box::new(self.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// A value recorded in generation 0 must stay stale after 2³² backward passes (a wrapping
    /// `u32` accepted it again and pointed it at an unrelated node), and the last generation
    /// refuses `backward` instead of wrapping to a generation that stale values carry.
    #[test]
    fn generation_never_wraps() {
        let p = Param::new(Tensor::<f64, (crate::dim::Const<2>,)>::from([1.0, 2.0]));
        let tape = Tape::<f64>::new();
        let old = tape.watch(&p);
        // Jump to the last generation of a 32-bit counter: the next pass is the one that wrapped.
        tape.state.borrow_mut().generation = u64::from(u32::MAX);
        let x = tape.watch(&p);
        let g = (&x * &x).sum().backward();
        assert_eq!(g.param(&p).unwrap().to_vec(), [2.0, 4.0]);
        assert_eq!(tape.state.borrow().generation, 1 << 32);
        // Generation 0 (the old value's) is not the current one: refused, not aliased.
        let _fresh = tape.watch(&p);
        let e = old.try_cast_shape::<crate::shape::DynShape>().map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("before tape"), "{e}");
        drop(_fresh);

        // The last 64-bit generation: backward is refused and nothing is freed or bumped.
        let tape = Tape::<f64>::new();
        tape.state.borrow_mut().generation = u64::MAX;
        let x = tape.watch(&p);
        let loss = (&x * &x).sum();
        let e = loss.try_backward().unwrap_err();
        assert!(e.to_string().contains("last generation"), "{e}");
        assert_eq!(tape.state.borrow().generation, u64::MAX);
        assert_eq!(tape.len(), 3); // the leaf, the product and the sum: nothing freed
    }
}
