//! Multi-head attention read in place from packed `[n, len, heads * head_dim]` values: what a
//! transformer layer computes between its projections, as one node, so that the heads are
//! strided views of the projections instead of copies.
use super::super::tape::Sink;
use super::super::var::{back, Var};
use super::super::GradFloat;
use super::{attention_scores_grad, record};
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::DynShape;
use crate::tensor::{Tensor, TensorView};
use alloc::borrow::Cow;
use alloc::format;
use alloc::sync::Arc;

/// `[n, len, w]` seen as `[n, heads, len, hd]` over the features `off..off + heads * hd` (head `h`
/// is features `off + h hd..off + (h + 1) hd`): the layout of that view in `t`'s buffer, which
/// must be row-major (`dense`).
fn heads_layout(sizes: &[usize], offset: usize, off: usize, e: usize, heads: usize) -> Result<Layout, ShapeError> {
    let (n, len, w, hd) = (sizes[0], sizes[1], sizes[2], e / heads);
    Layout::from_parts(&[n, heads, len, hd], &[(len * w) as isize, hd as isize, w as isize, 1], offset + off)
}

/// `t` row-major: itself when it is, else a row-major copy.
fn dense<T: GradFloat>(t: &Tensor<T, DynShape>) -> Cow<'_, Tensor<T, DynShape>> {
    if t.layout().is_contiguous() {
        Cow::Borrowed(t)
    } else {
        Cow::Owned(Tensor::from_vec(t.sizes(), t.to_vec()))
    }
}

/// The heads of features `off..off + e` of the row-major `[n, len, w]` tensor `t`, a view.
fn heads_of<'a, T: GradFloat>(
    t: &'a Tensor<T, DynShape>,
    off: usize,
    e: usize,
    heads: usize,
) -> Result<TensorView<'a, T, DynShape>, ShapeError> {
    TensorView::try_from_parts(t.storage(), heads_layout(t.sizes(), t.layout().offset(), off, e, heads)?)
}

/// `[n, heads, len, hd]` (any layout) into features `off..` of the row-major `[n, len, w]`
/// buffer `dst` of `sizes` (one strided copy).
fn put_heads<T: GradFloat>(dst: &mut [T], sizes: &[usize], off: usize, src: &Tensor<T, DynShape>) {
    let s = src.sizes();
    let lo = heads_layout(sizes, 0, off, s[1] * s[3], s[1]).expect("the sizes were checked");
    crate::kernels::copy_to(dst, &lo, src.storage(), src.layout());
}

/// `[n, heads, len, hd]` back to packed `[n, len, heads * hd]` (one copy).
fn join<T: GradFloat>(t: &Tensor<T, DynShape>) -> Result<Tensor<T, DynShape>, ShapeError> {
    let s = t.sizes();
    let sizes = [s[0], s[2], s[1] * s[3]];
    let mut out = crate::memory::try_vec_for_overwrite(sizes.iter().product())?;
    put_heads(&mut out, &sizes, 0, t);
    Tensor::try_from_vec(&sizes, out)
}

/// Scaled dot-product attention of `heads` heads on packed queries `q` `[n, l, e]` and keys and
/// values `k`, `v` `[n, s, e]` (`e = heads * hd`, head `h` the features `h hd..(h + 1) hd`),
/// with an additive score mask `mask` that broadcasts to `[n, heads, l, s]` (Hugging Face's
/// extended attention mask `[n, 1, 1, s]`): `softmax(q kᵀ / sqrt(hd) + mask) v` per head, the
/// heads joined, `[n, l, e]`. PyTorch's `scaled_dot_product_attention` on
/// `x.view(n, len, heads, hd).transpose(1, 2)` and back. One node; the heads are read in place
/// from the packed values (no copies), and the gradients are those of
/// [`try_scaled_dot_product_attention`](super::try_scaled_dot_product_attention), the mask a
/// constant.
///
/// # Errors
/// [`ShapeError::Invalid`] when the operands are not rank 3, `e` is not a multiple of `heads`,
/// or the batch, key or feature counts differ, naming the sizes; the mask's broadcast error;
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
pub(crate) fn try_packed_attention<'t, T: GradFloat>(
    q: &Var<'t, T, DynShape>,
    k: &Var<'t, T, DynShape>,
    v: &Var<'t, T, DynShape>,
    heads: usize,
    mask: Option<&Tensor<T, DynShape>>,
) -> Result<Var<'t, T, DynShape>, ShapeError> {
    let e = q.sizes().get(2).copied().unwrap_or(0);
    if k.sizes().get(2) != Some(&e) || v.sizes().get(2) != Some(&e) {
        return Err(ShapeError::Invalid(format!(
            "attention: queries [n, l, e] and keys and values [n, s, e] with e a multiple of {heads} heads, got {:?}, {:?} and {:?}",
            q.sizes(),
            k.sizes(),
            v.sizes()
        )));
    }
    try_attention_blocks([(q, 0), (k, 0), (v, 0)], e, heads, mask, None)
}

/// [`try_packed_attention`] on blocks of wider values: the queries are features `off..off + e`
/// of `q.0` (`[n, l, w]`, `off = q.1`), the keys and values those of `k.0` and `v.0` (`[n, s, w]`),
/// so that the three blocks of one packed `[n, l, 3e]` projection (PyTorch's `in_proj` of
/// self-attention) are read in place and their gradients written into one `[n, l, 3e]` tensor.
/// `zero_rows` (`[n, 1, l, 1]`, broadcast to the weights) marks queries whose weights are set to
/// zero after the softmax (a query whose keys are all masked, on PyTorch's
/// `scaled_dot_product_attention` path: its output is 0 and it sends no gradient).
///
/// # Errors
/// As [`try_packed_attention`], also when a block does not fit its value's features, and the
/// broadcast error of `zero_rows`.
pub(crate) fn try_attention_blocks<'t, T: GradFloat>(
    [q, k, v]: [(&Var<'t, T, DynShape>, usize); 3],
    e: usize,
    heads: usize,
    mask: Option<&Tensor<T, DynShape>>,
    zero_rows: Option<&Tensor<bool, DynShape>>,
) -> Result<Var<'t, T, DynShape>, ShapeError> {
    let (qs, ks, vs) = (q.0.sizes(), k.0.sizes(), v.0.sizes());
    let fits = |s: &[usize], off: usize| s.len() == 3 && off.checked_add(e).is_some_and(|end| end <= s[2]);
    if !fits(qs, q.1)
        || !fits(ks, k.1)
        || !fits(vs, v.1)
        || heads == 0
        || !e.is_multiple_of(heads)
        || ks[..2] != vs[..2]
        || ks[0] != qs[0]
    {
        return Err(ShapeError::Invalid(format!(
            "attention: queries [n, l, e] and keys and values [n, s, e] with e = {e} a multiple of {heads} heads, got {qs:?}, {ks:?} and {vs:?} (features from {}, {} and {})",
            q.1, k.1, v.1
        )));
    }
    let scale = T::one() / T::from_f64((e / heads) as f64).sqrt();
    let (qv, kv, vv) = (dense(q.0.value()), dense(k.0.value()), dense(v.0.value()));
    let (qh, kh, vh) = (heads_of(&qv, q.1, e, heads)?, heads_of(&kv, k.1, e, heads)?, heads_of(&vv, v.1, e, heads)?);
    let mut scores = qh.try_matmul(&kh.try_transpose(-2, -1)?)?; // [n, H, l, s]
    scores.map_inplace(move |x| x * scale);
    if let Some(m) = mask {
        scores.try_add_assign(&m.as_dyn())?;
    }
    let mut p = scores.try_softmax(-1)?;
    if let Some(rows) = zero_rows {
        p.try_masked_fill_(rows, T::zero())?;
    }
    let out = join(&p.try_matmul(&vh)?)?;
    let offs = [q.1, k.1, v.1];
    // One value behind all three blocks (self-attention's packed projection): one gradient.
    let one = q.0.node().map(|n| n.index) == k.0.node().map(|n| n.index)
        && k.0.node().map(|n| n.index) == v.0.node().map(|n| n.index)
        && Arc::ptr_eq(q.0.arc(), k.0.arc())
        && Arc::ptr_eq(k.0.arc(), v.0.arc());
    let (qa, ka, va) = (q.0.arc().clone(), k.0.arc().clone(), v.0.arc().clone());
    record([q.0.node(), k.0.node(), v.0.node()], out, move |[iq, ik, iv], _| {
        back(move |g: Tensor<T, DynShape>, s: &mut Sink<T>| {
            let g = dense(&g);
            let gh = heads_of(&g, 0, e, heads).expect("the output's sizes split as the inputs'");
            let (qv, kv, vv) = (dense(&qa), dense(&ka), dense(&va));
            let heads_of = |t, off| heads_of(t, off, e, heads).expect("the inputs' sizes were checked");
            let (qh, kh, vh) = (heads_of(&qv, offs[0]), heads_of(&kv, offs[1]), heads_of(&vv, offs[2]));
            let dv = || p.as_dyn().transpose(-2, -1).matmul(&gh);
            if iq.is_none() && ik.is_none() {
                s.add_with(iv, || widened(&vv, offs[2], dv()));
                return;
            }
            let ds = attention_scores_grad(&gh, &p, &vh, scale);
            let dq = || ds.matmul(&kh);
            let dk = || ds.transpose(-2, -1).matmul(&qh);
            if one {
                s.add_with(iq, || {
                    let sizes = qv.sizes().to_vec();
                    let mut buf = alloc::vec![T::zero(); sizes.iter().product()];
                    for (off, d) in offs.into_iter().zip([dq(), dk(), dv()]) {
                        put_heads(&mut buf, &sizes, off, &d);
                    }
                    Tensor::<T, DynShape>::from_vec(&sizes, buf)
                });
                return;
            }
            s.add_with(iv, || widened(&vv, offs[2], dv()));
            s.add_with(iq, || widened(&qv, offs[0], dq()));
            s.add_with(ik, || widened(&kv, offs[1], dk()));
        })
    })
}

/// The gradient of a value of `like`'s sizes `[n, len, w]` whose features `off..` are the heads
/// `d` (`[n, heads, len, hd]`), zero elsewhere: `d` joined when the heads are all of it.
fn widened<T: GradFloat>(like: &Tensor<T, DynShape>, off: usize, d: Tensor<T, DynShape>) -> Tensor<T, DynShape> {
    let sizes = like.sizes();
    let ds = d.sizes();
    if off == 0 && sizes[2] == ds[1] * ds[3] {
        return join(&d).expect("the sizes were checked");
    }
    let mut buf = alloc::vec![T::zero(); sizes.iter().product()];
    put_heads(&mut buf, sizes, off, &d);
    Tensor::from_vec(sizes, buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::autograd::{Param, Tape};

    /// A deterministic `[sizes]` f64 tensor (values in [-1.5, 1.5)).
    fn ramp(sizes: &[usize], seed: usize) -> Tensor<f64, DynShape> {
        let n: usize = sizes.iter().product();
        Tensor::from_vec(sizes, (0..n).map(|i| ((i * 37 + seed * 11) % 29) as f64 / 29.0 * 3.0 - 1.5).collect())
    }

    /// Against the heads copied out and run through `scaled_dot_product_attention` with the
    /// mask added by hand: values to 1e-14 and the gradients of `q`, `k` and `v` to 1e-12, with
    /// two queries, three keys and a masked key (`[2, 2, 6]` by `[2, 3, 6]`, two heads of 3).
    #[test]
    fn packed_attention_equals_heads_copied_out() {
        let (n, l, s, heads, hd) = (2, 2, 3, 2, 3);
        let e = heads * hd;
        let (q, k, v) =
            (Param::new(ramp(&[n, l, e], 1)), Param::new(ramp(&[n, s, e], 2)), Param::new(ramp(&[n, s, e], 3)));
        // Key 2 of the first sequence is padding.
        let m = Tensor::<f64, DynShape>::from_vec(
            &[n, 1, 1, s],
            (0..n * s).map(|i| if i == 2 { f64::MIN } else { 0.0 }).collect(),
        );
        let up = ramp(&[n, l, e], 4); // the upstream gradient, through a weighted sum
        let run = |packed: bool| {
            let tape = Tape::new();
            let (qv, kv, vv) = (tape.watch(&q), tape.watch(&k), tape.watch(&v));
            let out = if packed {
                try_packed_attention(&qv, &kv, &vv, heads, Some(&m)).unwrap()
            } else {
                // [n, len, e] -> [n, heads, len, hd] as copies, attention with the mask, back.
                fn split<'t>(x: &Var<'t, f64, DynShape>, sizes: [usize; 4]) -> Var<'t, f64, DynShape> {
                    x.try_reshape_sized::<DynShape>(&sizes.map(|n| n as isize))
                        .unwrap()
                        .try_permute([0, 2, 1, 3])
                        .unwrap()
                }
                let (qh, kh, vh) =
                    (split(&qv, [n, l, heads, hd]), split(&kv, [n, s, heads, hd]), split(&vv, [n, s, heads, hd]));
                let scale = 1.0 / (hd as f64).sqrt();
                let scores = qh.try_matmul(&kh.try_transpose(-2, -1).unwrap()).unwrap().mul_scalar(scale);
                let p = scores.try_add(&Var::constant(m.clone())).unwrap().try_softmax(-1).unwrap();
                let o = p.try_matmul(&vh).unwrap();
                o.try_permute([0, 2, 1, 3])
                    .unwrap()
                    .try_reshape_sized::<DynShape>(&[n as isize, l as isize, e as isize])
                    .unwrap()
            };
            let value = out.value().clone();
            let loss = (&out * &Var::constant(up.clone())).sum();
            let g = loss.backward();
            (value, [g.param(&q).unwrap().clone(), g.param(&k).unwrap().clone(), g.param(&v).unwrap().clone()])
        };
        let ((got, got_g), (want, want_g)) = (run(true), run(false));
        assert_eq!(got.sizes(), [n, l, e]);
        for (a, b) in got.to_vec().iter().zip(want.to_vec()) {
            assert!((a - b).abs() <= 1e-14, "value {a} against {b}");
        }
        for (name, (a, b)) in ["q", "k", "v"].iter().zip(got_g.iter().zip(&want_g)) {
            assert_eq!(a.sizes(), b.sizes());
            for (x, y) in a.to_vec().iter().zip(b.to_vec()) {
                assert!((x - y).abs() <= 1e-12, "gradient of {name}: {x} against {y}");
            }
        }
        // The masked key gets no gradient from the first sequence's queries.
        assert!(got_g[1].to_vec()[2 * e..3 * e].iter().all(|&x| x == 0.0));
        assert!(got_g[2].to_vec()[2 * e..3 * e].iter().all(|&x| x == 0.0));
    }

    /// Central differences (f64) of the output with respect to each of q, k and v, the others
    /// held, with a masked key.
    #[test]
    fn packed_attention_gradcheck() {
        let m = Tensor::<f64, DynShape>::from_vec(&[1, 1, 1, 3], alloc::vec![0.0, -1e9, 0.0]);
        let (q, k, v) = (ramp(&[1, 2, 4], 1), ramp(&[1, 3, 4], 2), ramp(&[1, 3, 4], 3));
        let c = |t: &Tensor<f64, DynShape>| Var::constant(t.clone());
        assert!(crate::autograd::gradcheck(|x| try_packed_attention(x, &c(&k), &c(&v), 2, Some(&m)).unwrap(), &q));
        assert!(crate::autograd::gradcheck(|x| try_packed_attention(&c(&q), x, &c(&v), 2, Some(&m)).unwrap(), &k));
        assert!(crate::autograd::gradcheck(|x| try_packed_attention(&c(&q), &c(&k), x, 2, Some(&m)).unwrap(), &v));
    }

    /// Blocks of one packed `[n, l, 3e]` value (self-attention's projection) against the three
    /// blocks copied out: the output to 1e-14 and the packed value's gradient, written as one
    /// tensor, to 1e-12 against the three blocks' gradients; with a query whose weights are
    /// zeroed (`zero_rows`: output 0, and its query block gets no gradient). Central differences
    /// of the packed value too.
    #[test]
    fn blocks_of_one_packed_value_equal_the_blocks_copied_out() {
        let (n, l, heads, e) = (2, 3, 2, 4);
        let qkv = Param::new(ramp(&[n, l, 3 * e], 5));
        let rows =
            Tensor::<bool, DynShape>::from_vec(&[n, 1, l, 1], alloc::vec![false, true, false, false, false, false]);
        let up = ramp(&[n, l, e], 6);
        let tape = Tape::new();
        let x = tape.watch(&qkv);
        let out = try_attention_blocks([(&x, 0), (&x, e), (&x, 2 * e)], e, heads, None, Some(&rows)).unwrap();
        let g = out.mul(&Var::constant(up.clone())).sum().backward();
        let got_g = g.wrt(&x).unwrap().to_vec();
        let tape = Tape::new();
        let x2 = tape.watch(&qkv);
        let part = |i: usize| x2.narrow(crate::shape::Ax::<2>, (i * e) as isize, e);
        let (q, k, v) = (part(0), part(1), part(2));
        let want = try_attention_blocks([(&q, 0), (&k, 0), (&v, 0)], e, heads, None, Some(&rows)).unwrap();
        let want_g = want.mul(&Var::constant(up.clone())).sum().backward().wrt(&x2).unwrap().to_vec();
        for (a, b) in out.value().to_vec().iter().zip(want.value().to_vec()) {
            assert!((a - b).abs() <= 1e-14, "output {a} against {b}");
        }
        for (a, b) in got_g.iter().zip(&want_g) {
            assert!((a - b).abs() <= 1e-12, "gradient {a} against {b}");
        }
        // Query 1 of the first sequence: output 0, no gradient into its query features.
        assert!(out.value().to_vec()[e..2 * e].iter().all(|&v| v == 0.0));
        assert!(got_g[3 * e..4 * e].iter().all(|&v| v == 0.0));
        let c = ramp(&[n, l, 3 * e], 7);
        assert!(crate::autograd::gradcheck(
            |x| try_attention_blocks([(x, 0), (x, e), (x, 2 * e)], e, heads, None, Some(&rows)).unwrap(),
            &c
        ));
        // A block past its value's features is an error naming the offsets.
        let err = try_attention_blocks([(&x, 0), (&x, e), (&x, 2 * e + 1)], e, heads, None, None).unwrap_err();
        assert!(format!("{err}").contains("features from 0, 4 and 9"), "{err}");
    }

    /// Sizes that do not fit are errors naming them.
    #[test]
    fn packed_attention_refuses_sizes_that_do_not_fit() {
        let x = Var::constant(Tensor::<f64, DynShape>::zeros_sized(&[2, 3, 6]));
        let y = Var::constant(Tensor::<f64, DynShape>::zeros_sized(&[2, 3, 4]));
        assert!(matches!(try_packed_attention(&x, &x, &x, 4, None), Err(ShapeError::Invalid(_))));
        let e = try_packed_attention(&x, &y, &y, 2, None).unwrap_err();
        assert!(format!("{e}").contains("[2, 3, 4]"), "{e}");
    }
}
