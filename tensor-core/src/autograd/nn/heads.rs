//! Multi-head attention read in place from packed `[n, len, heads * head_dim]` values: what a
//! transformer layer computes between its projections, as one node, so that the heads are
//! strided views of the projections instead of copies.
use super::super::ops::typed;
use super::super::tape::Sink;
use super::super::var::{back, Var};
use super::super::GradFloat;
use super::{attention_scores_grad, record};
use crate::error::ShapeError;
use crate::shape::DynShape;
use crate::tensor::{Tensor, TensorView};
use alloc::format;

/// `[n, len, heads * hd]` seen as `[n, heads, len, hd]` (head `h` is features `h hd..(h + 1) hd`),
/// a view.
fn split<'a, T: GradFloat>(
    t: &'a TensorView<'a, T, DynShape>,
    heads: usize,
) -> Result<TensorView<'a, T, DynShape>, ShapeError> {
    let hd = (t.sizes()[2] / heads) as isize;
    t.try_unflatten_dyn(2, &[heads as isize, hd])?.try_transpose(1, 2)
}

/// `[n, heads, len, hd]` back to packed `[n, len, heads * hd]` (one copy).
fn join<T: GradFloat>(t: &Tensor<T, DynShape>) -> Result<Tensor<T, DynShape>, ShapeError> {
    let s = t.sizes();
    let (n, heads, len, hd) = (s[0], s[1], s[2], s[3]);
    Ok(t.try_transpose(1, 2)?.try_reshape_dyn(&[n as isize, len as isize, (heads * hd) as isize])?.into_owned())
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
    let (qs, ks, vs) = (q.sizes(), k.sizes(), v.sizes());
    if qs.len() != 3
        || ks.len() != 3
        || vs.len() != 3
        || heads == 0
        || !qs[2].is_multiple_of(heads)
        || ks[2] != qs[2]
        || vs != ks
        || ks[0] != qs[0]
    {
        return Err(ShapeError::Invalid(format!(
            "attention: queries [n, l, e] and keys and values [n, s, e] with e a multiple of {heads} heads, got {qs:?}, {ks:?} and {vs:?}"
        )));
    }
    let scale = T::one() / T::from_f64((qs[2] / heads) as f64).sqrt();
    let (qv, kv, vv) = (q.value().as_dyn(), k.value().as_dyn(), v.value().as_dyn());
    let (qh, kh, vh) = (split(&qv, heads)?, split(&kv, heads)?, split(&vv, heads)?);
    let mut scores = qh.try_matmul(&kh.try_transpose(-2, -1)?)?; // [n, H, l, s]
    scores.map_inplace(move |x| x * scale);
    if let Some(m) = mask {
        scores.try_add_assign(&m.as_dyn())?;
    }
    let p = scores.try_softmax(-1)?;
    let out = join(&p.try_matmul(&vh)?)?;
    let (qa, ka, va) = (q.arc().clone(), k.arc().clone(), v.arc().clone());
    record([q.node(), k.node(), v.node()], out, move |[iq, ik, iv], _| {
        back(move |g: Tensor<T, DynShape>, s: &mut Sink<T>| {
            let gv = g.as_dyn();
            let gh = split(&gv, heads).expect("the output's sizes split as the inputs'");
            let (qv, kv, vv) = (qa.as_dyn(), ka.as_dyn(), va.as_dyn());
            let heads_of = |t| split(t, heads).expect("the inputs' sizes were checked");
            let (qh, kh, vh) = (heads_of(&qv), heads_of(&kv), heads_of(&vv));
            let joined = |t: Tensor<T, DynShape>| typed::<T, DynShape>(join(&t).expect("sizes checked"));
            s.add_with(iv, || joined(p.as_dyn().transpose(-2, -1).matmul(&gh)));
            if iq.is_none() && ik.is_none() {
                return;
            }
            let ds = attention_scores_grad(&gh, &p, &vh, scale);
            s.add_with(iq, || joined(ds.matmul(&kh)));
            s.add_with(ik, || joined(ds.transpose(-2, -1).matmul(&qh)));
        })
    })
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
