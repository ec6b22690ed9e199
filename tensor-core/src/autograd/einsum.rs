//! Differentiable `einsum` over runtime-shaped values (PyTorch `torch.einsum`). The gradient of
//! operand `i` is itself an einsum: of the output's gradient with the other operands, onto
//! operand `i`'s subscripts; a letter that only operand `i` has (summed away) is broadcast back.
use super::tape::Sink;
use super::var::{back, Var};
use super::GradFloat;
use crate::error::{OrPanic, ShapeError};
use crate::ops::einsum::{parse, try_einsum as einsum_fwd, ELLIPSIS};
use crate::shape::DynShape;
use crate::tensor::Tensor;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// `einsum(eq, operands)` differentiable in every operand (PyTorch `torch.einsum`), for
/// runtime-shaped values: NumPy's equations (`"ij,jk->ik"`, `"bij,bjk->bik"`, `"ii->i"` is not
/// differentiable here, see below), with the output as
/// [`einsum`](crate::ops::einsum::einsum)'s.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{DynShape, Tensor};
/// use shaped::autograd::{einsum, Tape};
/// let tape = Tape::new();
/// let a = tape.var(Tensor::<f64, DynShape>::from_vec(&[2, 3], vec![1., 2., 3., 4., 5., 6.]));
/// let b = tape.var(Tensor::<f64, DynShape>::from_vec(&[3], vec![1., 0., -1.]));
/// let y = einsum("ij,j->i", &[&a, &b]); // [-2, -2]
/// let grads = y.sum_axis_dyn(0).backward();
/// assert_eq!(grads.wrt(&b).unwrap().to_vec(), [5., 7., 9.]); // the column sums of a
/// ```
///
/// # Panics
/// As [`try_einsum`].
#[track_caller]
pub fn einsum<'t, T: GradFloat>(eq: &str, operands: &[&Var<'t, T, DynShape>]) -> Var<'t, T, DynShape> {
    try_einsum(eq, operands).or_panic()
}

/// [`einsum`], returning an error instead of panicking.
///
/// # Errors
/// The errors of [`crate::ops::einsum::try_einsum`] (a malformed equation, sizes that do not
/// agree); [`ShapeError::Invalid`] for what has no gradient rule here: `...`, a letter repeated
/// within one operand (a diagonal), or a letter of size 1 in one operand and larger in another
/// (broadcast); [`ShapeError::Autograd`] for two tapes.
pub fn try_einsum<'t, T: GradFloat>(
    eq: &str,
    operands: &[&Var<'t, T, DynShape>],
) -> Result<Var<'t, T, DynShape>, ShapeError> {
    let values: Vec<&Tensor<T, DynShape>> = operands.iter().map(|v| v.value()).collect();
    let out = einsum_fwd(eq, &values)?;
    let p = parse(eq, operands.len())?;
    let refuse = |what: String| ShapeError::Invalid(format!("einsum \"{eq}\": {what} has no gradient rule here"));
    let mut size = [0usize; 128];
    for (term, v) in p.ops.iter().zip(&values) {
        if term.contains(&ELLIPSIS) {
            return Err(refuse("`...`".into()));
        }
        for (k, &c) in term.iter().enumerate() {
            if term[..k].contains(&c) {
                return Err(refuse(format!("the repeated letter '{}' (a diagonal)", c as char)));
            }
            let n = v.sizes()[k];
            if size[c as usize] != 0 && size[c as usize] != n {
                return Err(refuse(format!(
                    "the letter '{}' of sizes {} and {} (broadcast)",
                    c as char, size[c as usize], n
                )));
            }
            size[c as usize] = n;
        }
    }
    let terms = p.ops;
    let outs = p.out;
    let arcs: Vec<Arc<Tensor<T, DynShape>>> = operands.iter().map(|v| v.arc().clone()).collect();
    let nodes: Vec<_> = operands.iter().map(|v| v.node()).collect();
    Var::<'t, T, DynShape>::record_nodes(&nodes, out, move |idx, _| {
        back(move |g: Tensor<T, DynShape>, s: &mut Sink<T>| {
            for (i, ix) in idx.iter().enumerate() {
                s.add_with(*ix, || operand_grad(i, &terms, &outs, &arcs, &g, &size));
            }
        })
    })
}

/// The gradient of operand `i`: `einsum("out,others->kept", g, others)` over the letters of
/// operand `i` that the output or another operand has, then broadcast over the others.
fn operand_grad<T: GradFloat>(
    i: usize,
    terms: &[Vec<u8>],
    out: &[u8],
    xs: &[Arc<Tensor<T, DynShape>>],
    g: &Tensor<T, DynShape>,
    size: &[usize; 128],
) -> Tensor<T, DynShape> {
    let mine = &terms[i];
    let elsewhere = |c: u8| out.contains(&c) || terms.iter().enumerate().any(|(j, t)| j != i && t.contains(&c));
    let kept: Vec<u8> = mine.iter().copied().filter(|&c| elsewhere(c)).collect();
    let mut eq = String::from_utf8_lossy(out).into_owned();
    let mut ops: Vec<&Tensor<T, DynShape>> = alloc::vec![g];
    for (j, t) in terms.iter().enumerate() {
        if j != i {
            eq.push(',');
            eq.push_str(&String::from_utf8_lossy(t));
            ops.push(&xs[j]);
        }
    }
    eq.push_str("->");
    eq.push_str(&String::from_utf8_lossy(&kept));
    let r = einsum_fwd(&eq, &ops).or_panic();
    if kept.len() == mine.len() {
        return r;
    }
    // Letters summed away inside operand `i` alone: each element got the same gradient.
    let with_ones: Vec<isize> =
        mine.iter().map(|&c| if kept.contains(&c) { size[c as usize] as isize } else { 1 }).collect();
    let full: Vec<usize> = mine.iter().map(|&c| size[c as usize]).collect();
    r.reshape_dyn(&with_ones).expand_dyn(&full).to_owned()
}
