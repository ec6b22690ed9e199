//! [`Grads`] across backward passes and clipped by value: [`Grads::accumulate`] (PyTorch's
//! `.grad` accumulation when `zero_grad` is not called between `backward`s) and
//! [`Grads::clip_value`] (`nn.utils.clip_grad_value_`).
use super::{GradFloat, Grads};
use crate::error::{OrPanic, ShapeError};
use alloc::format;

impl<T: GradFloat> Grads<T> {
    /// Adds the parameters' gradients of `other` (the gradients of another backward pass, of
    /// any tape) to these, parameter by parameter ([`ParamId`](crate::autograd::ParamId)): what
    /// PyTorch's `.grad` does over several `loss.backward()` calls without `zero_grad()`, for
    /// gradient accumulation over micro-batches. A parameter with a gradient in both gets the sum
    /// (`self + other`, element by element, in that order); one with a gradient in `other` only
    /// gets a copy of it (then `param`, `param_slice` and the optimizers see it, typed as its
    /// parameter). The gradients of [`Tape::var`](crate::autograd::Tape::var) inputs are not
    /// parameters and are left as they are (those of `other` are not added).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::autograd::{Param, Tape, Var};
    ///
    /// let w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, 2.0]));
    /// let batches = [[1.0, 0.5], [2.0, -1.0], [0.0, 4.0]];
    /// let mut total = None;
    /// for x in batches {
    ///     let tape = Tape::new();
    ///     let x = Var::constant(Tensor::<f64, Shape![2]>::from(x));
    ///     let loss = (&tape.watch(&w) * &x).sum();
    ///     let g = loss.backward();
    ///     match &mut total {
    ///         None => total = Some(g),
    ///         Some(t) => t.accumulate(&g),
    ///     }
    /// }
    /// // d/dw sum(w * x) = x, summed over the batches.
    /// assert_eq!(total.unwrap().param(&w).unwrap().to_vec(), [3.0, 3.5]);
    /// ```
    ///
    /// # Panics
    /// When [`try_accumulate`](Self::try_accumulate) returns an error.
    #[track_caller]
    pub fn accumulate(&mut self, other: &Grads<T>) {
        self.try_accumulate(other).or_panic()
    }

    /// [`accumulate`](Self::accumulate), with an error instead of a panic.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] naming the [`ParamId`](crate::autograd::ParamId) and both
    /// shapes when a parameter's gradients differ in shape (a runtime-shaped parameter resized
    /// between the two passes). Checked for every parameter before anything is added: nothing
    /// changes on error.
    pub fn try_accumulate(&mut self, other: &Grads<T>) -> Result<(), ShapeError> {
        for &(id, j) in &other.params {
            let Some(g) = other.grads.get(j).and_then(Option::as_ref) else { continue };
            let Some(&(_, i)) = self.params.iter().find(|(p, _)| *p == id) else { continue };
            let Some(mine) = self.grads.get(i).and_then(Option::as_ref) else { continue };
            if mine.sizes() != g.sizes() || mine.as_any().type_id() != g.as_any().type_id() {
                return Err(ShapeError::Autograd(format!(
                    "accumulate: the gradients of parameter {id:?} have shapes {:?} and {:?}: the parameter's size changed between the two backward passes",
                    mine.sizes(),
                    g.sizes()
                )));
            }
        }
        for &(id, j) in &other.params {
            let Some(g) = other.grads.get(j).and_then(Option::as_ref) else { continue };
            match self.params.iter().find(|(p, _)| *p == id) {
                Some(&(_, i)) => {
                    if i >= self.grads.len() {
                        // A parameter watched after the loss: no slot was made for it.
                        self.grads.resize_with(i + 1, || None);
                    }
                    match &mut self.grads[i] {
                        slot @ None => *slot = Some(g.clone_box()),
                        Some(mine) => {
                            for (x, &y) in mine.elems_mut().iter_mut().zip(g.elems()) {
                                *x += y;
                            }
                        }
                    }
                }
                None => {
                    let i = self.grads.len().max(self.nodes);
                    self.grads.resize_with(i, || None);
                    self.grads.push(Some(g.clone_box()));
                    self.params.push((id, i));
                }
            }
        }
        Ok(())
    }

    /// Clamps every gradient element to `[-clip, clip]` (PyTorch `nn.utils.clip_grad_value_`:
    /// `clamp_min_(-clip)` then `clamp_max_(clip)`), the gradients of parameters and of
    /// [`Tape::var`](crate::autograd::Tape::var) inputs alike. As PyTorch's: a NaN element stays
    /// NaN, infinities become `±clip`, a NaN `clip` makes every element NaN, and a negative
    /// `clip` sets every non-NaN element to `clip` (the lower bound `-clip` is then above the
    /// upper one).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::autograd::{Param, Tape};
    ///
    /// let w = Param::new(Tensor::<f32, Shape![3]>::from([1.0, 2.0, 3.0]));
    /// let tape = Tape::new();
    /// let loss = tape.watch(&w).square().mul_scalar(0.5).sum(); // the gradient is w
    /// let mut grads = loss.backward();
    /// grads.clip_value(2.5);
    /// assert_eq!(grads.param(&w).unwrap().to_vec(), [1.0, 2.0, 2.5]);
    /// ```
    pub fn clip_value(&mut self, clip: T) {
        let lo = -clip;
        for g in self.grads.iter_mut().flatten() {
            for v in g.elems_mut() {
                let x = *v;
                // clamp_min_(-clip): NaN in either operand gives NaN, as ATen's.
                let x = if x.is_nan() {
                    x
                } else if lo.is_nan() || x < lo {
                    lo
                } else {
                    x
                };
                // clamp_max_(clip).
                *v = if x.is_nan() {
                    x
                } else if clip.is_nan() || clip < x {
                    clip
                } else {
                    x
                };
            }
        }
    }
}
