//! Differentiable `einsum` over runtime-shaped values (PyTorch `torch.einsum`). The gradient of
//! operand `i` is itself an einsum: of the output's gradient with the other operands, onto
//! operand `i`'s subscripts; a letter that only operand `i` has (summed away) is broadcast back.
use super::ops::scatter_view;
use super::tape::Sink;
use super::var::{back, Var};
use super::GradFloat;
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::ops::einsum::{explicit_labels, parse, run as einsum_run, try_einsum as einsum_fwd, ELLIPSIS};
use crate::shape::DynShape;
use crate::tensor::Tensor;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// `einsum(eq, operands)` differentiable in every operand (PyTorch `torch.einsum`), for
/// runtime-shaped values: NumPy's equations (`"ij,jk->ik"`, `"bij,bjk->bik"`, diagonals as
/// `"ii->i"`, `...`, size-1 letters that broadcast), with the output as
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
/// let grads = y.sum_axis(0).backward();
/// assert_eq!(grads.wrt(&b).unwrap().to_vec(), [5., 7., 9.]); // the column sums of a
/// ```
///
/// # Errors
/// The errors of [`crate::ops::einsum::try_einsum`] (a malformed equation, sizes that do not
/// agree); [`ShapeError::Autograd`] for two tapes.
#[try_twin(
    free,
    doc = "`einsum(eq, operands)` differentiable in every operand (PyTorch `torch.einsum`), for runtime-shaped values."
)]
pub fn try_einsum<'t, T: GradFloat>(
    eq: &str,
    operands: &[&Var<'t, T, DynShape>],
) -> Result<Var<'t, T, DynShape>, ShapeError> {
    let values: Vec<&Tensor<T, DynShape>> = operands.iter().map(|v| v.value()).collect();
    let out = einsum_fwd(eq, &values)?;
    let p = parse(eq, operands.len())?;
    // Every term with explicit labels: the dims under `...` get labels of their own (128 + k),
    // right-aligned as the forward aligns them; each label's size is its largest (a size 1
    // broadcasts).
    let ell: Vec<usize> =
        p.ops.iter().zip(&values).map(|(t, v)| v.rank() - t.iter().filter(|&&c| c != ELLIPSIS).count()).collect();
    let ell_rank = ell.iter().copied().max().unwrap_or(0);
    let terms: Vec<Vec<u8>> = p.ops.iter().zip(&ell).map(|(t, &e)| explicit_labels(t, e, ell_rank)).collect();
    let outs = explicit_labels(&p.out, ell_rank, ell_rank);
    let mut size = [0usize; 256];
    for (term, v) in terms.iter().zip(&values) {
        for (&c, &n) in term.iter().zip(v.sizes()) {
            if size[c as usize] <= 1 {
                size[c as usize] = n;
            }
        }
    }
    let arcs: Vec<Arc<Tensor<T, DynShape>>> = operands.iter().map(|v| v.arc().clone()).collect();
    let nodes: Vec<_> = operands.iter().map(|v| v.node()).collect();
    let eq: String = eq.into();
    Var::<'t, T, DynShape>::record_nodes(&nodes, out, move |idx, _| {
        back(move |g: Tensor<T, DynShape>, s: &mut Sink<T>| {
            for (i, ix) in idx.iter().enumerate() {
                s.add_with(*ix, || operand_grad(&eq, i, &terms, &outs, &arcs, &g, &size));
            }
        })
    })
}

/// The gradient of operand `i`: the einsum of the output's gradient with the other operands onto
/// operand `i`'s distinct labels that the output or another operand has; then summed over the
/// labels where operand `i` has size 1 and the others more (it was broadcast), broadcast over
/// the labels only operand `i` has (summed away), and written onto the diagonal of a label
/// repeated in operand `i` (zero elsewhere).
fn operand_grad<T: GradFloat>(
    eq: &str,
    i: usize,
    terms: &[Vec<u8>],
    out: &[u8],
    xs: &[Arc<Tensor<T, DynShape>>],
    g: &Tensor<T, DynShape>,
    size: &[usize; 256],
) -> Tensor<T, DynShape> {
    let mine = &terms[i];
    let my_sizes = xs[i].sizes();
    let my_size = |c: u8| my_sizes[mine.iter().position(|&d| d == c).unwrap_or(0)];
    let mut uniq: Vec<u8> = Vec::with_capacity(mine.len());
    for &c in mine {
        if !uniq.contains(&c) {
            uniq.push(c);
        }
    }
    let elsewhere = |c: u8| out.contains(&c) || terms.iter().enumerate().any(|(j, t)| j != i && t.contains(&c));
    let kept: Vec<u8> = uniq.iter().copied().filter(|&c| elsewhere(c)).collect();
    let mut subs: Vec<&[u8]> = alloc::vec![out];
    let mut ops = alloc::vec![g.as_view()];
    for (j, t) in terms.iter().enumerate() {
        if j != i {
            subs.push(t);
            ops.push(xs[j].as_view());
        }
    }
    let mut r = einsum_run(eq, &subs, &kept, &ops).or_panic();
    // Labels broadcast from size 1 in this operand: their gradients add up.
    for (a, &c) in kept.iter().enumerate() {
        if my_size(c) == 1 && size[c as usize] != 1 {
            r = r.sum_keepdim(a as isize);
        }
    }
    // Labels summed away inside this operand alone: each element got the same gradient.
    if kept.len() != uniq.len() {
        let with_ones: Vec<isize> =
            uniq.iter().map(|&c| if kept.contains(&c) { my_size(c) as isize } else { 1 }).collect();
        let full: Vec<usize> = uniq.iter().map(|&c| my_size(c)).collect();
        r = r.reshape_dyn(&with_ones).expand_dyn(&full).to_owned();
    }
    if uniq.len() == mine.len() {
        return r;
    }
    // A repeated label: the gradient lives on the diagonal. The diagonal's layout over a
    // contiguous buffer of the operand's sizes: each distinct label's stride is the sum of the
    // strides of its positions (distinct label values reach distinct elements).
    let whole = Layout::contiguous(my_sizes).or_panic();
    let strides: Vec<isize> = uniq
        .iter()
        .map(|&c| mine.iter().zip(whole.strides()).filter(|(d, _)| **d == c).map(|(_, &st)| st).sum())
        .collect();
    let sizes: Vec<usize> = uniq.iter().map(|&c| my_size(c)).collect();
    let diag = Layout::from_parts(&sizes, &strides, 0).or_panic();
    scatter_view::<T, DynShape, DynShape>(&r, diag, whole, whole.numel())
}
