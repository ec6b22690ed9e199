//! `gradcheck`: the backward rules of a function against central differences, in `f64`
//! (PyTorch `torch.autograd.gradcheck`).
use super::tape::Tape;
use super::var::Var;
use crate::error::ShapeError;
use crate::shape::Shape;
use crate::storage::DataMut;
use crate::tensor::Tensor;
use alloc::format;
use alloc::vec::Vec;

/// What [`try_gradcheck`] compared: the analytic Jacobian (from `backward`) and the numerical one
/// (central differences), both `outputs x inputs` in row-major order.
#[derive(Clone, Debug)]
pub struct GradcheckReport {
    /// The Jacobian from the backward rules: row `j` is the gradient of output element `j`.
    pub analytic: Vec<f64>,
    /// The Jacobian from central differences `(f(x + eps) - f(x - eps)) / 2 eps`.
    pub numerical: Vec<f64>,
    /// Number of output elements (rows).
    pub outputs: usize,
    /// Number of input elements (columns).
    pub inputs: usize,
    /// The largest `|analytic - numerical|`.
    pub max_abs_err: f64,
}

/// Checks the gradients of `f` at `x` against central differences (PyTorch
/// `torch.autograd.gradcheck` with its defaults: `eps = 1e-6`, `atol = 1e-5`, `rtol = 1e-3`):
/// `true` when every Jacobian entry agrees, `|analytic - numerical| <= atol + rtol |numerical|`.
/// `x` has any shape, `f`'s output any shape; the whole Jacobian is compared (one backward per
/// output element, two evaluations per input element), so keep the tensors small.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Ax, Shape, Tensor};
/// use shaped::autograd::{gradcheck, Var};
/// let x = Tensor::<f64, Shape![2, 3]>::from([[0.1, -0.4, 0.9], [1.3, -2.0, 0.5]]);
/// assert!(gradcheck(|x: &Var<f64, Shape![2, 3]>| x.tanh().softmax(Ax::<1>), &x));
/// ```
pub fn gradcheck<S: Shape, S2: Shape>(
    f: impl for<'t> Fn(&Var<'t, f64, S>) -> Var<'t, f64, S2>,
    x: &Tensor<f64, S>,
) -> bool {
    try_gradcheck(f, x, 1e-6, 1e-5, 1e-3).is_ok()
}

/// [`gradcheck`] with its step and tolerances, returning the Jacobians compared.
///
/// # Errors
/// [`ShapeError::Autograd`] naming the first output and input element whose entries disagree
/// (both values given), or when `f`'s output does not depend on its input through tracked
/// operations.
pub fn try_gradcheck<S: Shape, S2: Shape>(
    f: impl for<'t> Fn(&Var<'t, f64, S>) -> Var<'t, f64, S2>,
    x: &Tensor<f64, S>,
    eps: f64,
    atol: f64,
    rtol: f64,
) -> Result<GradcheckReport, ShapeError> {
    let x = x.to_owned();
    let n_in = x.numel();
    let eval = |x: &Tensor<f64, S>| -> Vec<f64> { f(&Var::constant(x.clone())).value().to_vec() };
    let y0 = eval(&x);
    let n_out = y0.len();

    // Analytic: one backward per output element, seeded with that element's unit vector.
    let mut analytic = alloc::vec![0.0; n_out * n_in];
    for j in 0..n_out {
        let tape = Tape::<f64>::new();
        let xv = tape.var(x.clone());
        let y = f(&xv);
        let mut seed = y.value().zeros_like();
        seed.data.as_mut_slice()[j] = 1.0;
        let grads = y.try_backward_with(&seed)?;
        if let Some(g) = grads.wrt(&xv) {
            for (i, v) in g.to_vec().into_iter().enumerate() {
                analytic[j * n_in + i] = v;
            }
        }
    }

    // Numerical: central differences, one input element at a time.
    let mut numerical = alloc::vec![0.0; n_out * n_in];
    let base = x.to_vec();
    for i in 0..n_in {
        let mut plus = base.clone();
        plus[i] += eps;
        let mut minus = base.clone();
        minus[i] -= eps;
        let yp = eval(&Tensor::<f64, S>::from_vec(x.sizes(), plus));
        let ym = eval(&Tensor::<f64, S>::from_vec(x.sizes(), minus));
        for j in 0..n_out {
            numerical[j * n_in + i] = (yp[j] - ym[j]) / (2.0 * eps);
        }
    }

    let mut max_abs_err: f64 = 0.0;
    for j in 0..n_out {
        for i in 0..n_in {
            let (a, n) = (analytic[j * n_in + i], numerical[j * n_in + i]);
            let err = (a - n).abs();
            max_abs_err = max_abs_err.max(err);
            // NaN on either side fails too.
            if err.is_nan() || err > atol + rtol * n.abs() {
                return Err(ShapeError::Autograd(format!(
                    "gradcheck: Jacobian mismatch for output {j} with respect to input {i}: analytic {a}, numerical {n} (atol {atol}, rtol {rtol})"
                )));
            }
        }
    }
    Ok(GradcheckReport { analytic, numerical, outputs: n_out, inputs: n_in, max_abs_err })
}
