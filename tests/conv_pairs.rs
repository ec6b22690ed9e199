//! `Var`'s convolutions and poolings with hyper-parameters that differ between height and width
//! (PyTorch's `stride=(2, 1)`, `padding=(1, 0)`, `kernel_size=(3, 2)`, ...): the `_dyn` forms'
//! values and the gradients of `sum(y * g)` against PyTorch's (tests/data/conv_pairs_data.rs,
//! written by scripts/conv_pairs_data.py), untracked and tracked; and the typed forms agree with
//! the `_dyn` forms where the pairs are equal.
use shaped::autograd::{Tape, Var};
use shaped::prelude::*;
use shaped::{Conv1dArgs, ConvArgs, ConvTransposeArgs, NoBias, PoolArgs};

#[path = "data/conv_pairs_data.rs"]
mod data;

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {} values, PyTorch has {}", got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-10 * (1.0 + w.abs()), "{what}[{i}]: {g} against PyTorch's {w}");
    }
}

fn t(sizes: &[usize], v: &[f64]) -> Tensor<f64, DynShape> {
    Tensor::from_vec(sizes, v.to_vec())
}

/// The case's operation on tracked or constant operands.
fn apply<'t>(
    c: &data::PairCase,
    x: &Var<'t, f64, DynShape>,
    w: Option<&Var<'t, f64, DynShape>>,
    b: Option<&Var<'t, f64, DynShape>>,
) -> Var<'t, f64, DynShape> {
    let conv = ConvArgs { stride: c.stride, padding: c.padding, dilation: c.dilation, groups: c.groups };
    match c.op {
        "conv2d" => x.conv2d_dyn(w.unwrap(), b, conv),
        "conv1d" => {
            let a =
                Conv1dArgs { stride: c.stride[1], padding: c.padding[1], dilation: c.dilation[1], groups: c.groups };
            x.conv1d_dyn(w.unwrap(), b, a)
        }
        "conv_transpose2d" => {
            let a = ConvTransposeArgs {
                stride: c.stride,
                padding: c.padding,
                output_padding: c.output_padding,
                dilation: c.dilation,
                groups: c.groups,
            };
            x.conv_transpose2d_dyn(w.unwrap(), b, a)
        }
        "max_pool2d" => {
            x.max_pool2d_dyn(PoolArgs { kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: c.dilation })
        }
        "avg_pool2d" => {
            let a = PoolArgs { kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: [1, 1] };
            x.avg_pool2d_dyn(a, c.count_include_pad)
        }
        op => panic!("unknown op {op}"),
    }
}

#[test]
fn pairs_match_pytorch_values_and_gradients() {
    for c in data::CASES {
        let name = c.name;
        let bsizes = [c.b.len()];
        // A pooling has no weights: an empty placeholder, not passed.
        let wsizes: &[usize] = if c.w_sizes.is_empty() { &[0] } else { c.w_sizes };
        // Untracked: the value alone.
        let (x, w, b) =
            (Var::constant(t(c.x_sizes, c.x)), Var::constant(t(wsizes, c.w)), Var::constant(t(&bsizes, c.b)));
        let (wo, bo) = ((!c.w_sizes.is_empty()).then_some(&w), (!c.b.is_empty()).then_some(&b));
        let y = apply(c, &x, wo, bo);
        assert!(!y.is_tracked());
        assert_eq!(y.sizes(), c.y_sizes, "{name}: output sizes");
        close(&y.value().to_vec(), c.y, &format!("{name}: y"));
        // Tracked: every operand's gradient of sum(y * g).
        let tape = Tape::<f64>::new();
        let (x, w, b) = (tape.var(t(c.x_sizes, c.x)), tape.var(t(wsizes, c.w)), tape.var(t(&bsizes, c.b)));
        let (wo, bo) = ((!c.w_sizes.is_empty()).then_some(&w), (!c.b.is_empty()).then_some(&b));
        let y = apply(c, &x, wo, bo);
        close(&y.value().to_vec(), c.y, &format!("{name}: tracked y"));
        let grads = y.backward_with(&t(c.y_sizes, c.g));
        close(&grads.wrt(&x).expect("x's gradient").to_vec(), c.gx, &format!("{name}: dx"));
        if wo.is_some() {
            close(&grads.wrt(&w).expect("w's gradient").to_vec(), c.gw, &format!("{name}: dw"));
        }
        if bo.is_some() {
            close(&grads.wrt(&b).expect("b's gradient").to_vec(), c.gb, &format!("{name}: db"));
        }
    }
}

/// Equal pairs: the typed forms (const generics, static output shapes) and the `_dyn` forms give
/// the same values and gradients.
#[test]
fn typed_forms_equal_dyn_forms_for_equal_pairs() {
    let x0: Tensor<f64, Shape![2, 3, 7, 7]> =
        Tensor::from_fn(|i| ((i[0] * 7 + i[1] * 5 + i[2] * 3 + i[3]) % 11) as f64 - 5.0);
    let w0: Tensor<f64, Shape![4, 3, 3, 3]> =
        Tensor::from_fn(|i| ((i[0] + 2 * i[1] + 3 * i[2] + i[3]) % 5) as f64 * 0.5 - 1.0);
    let tape = Tape::<f64>::new();
    let (x, w) = (tape.var(x0.clone()), tape.var(w0.clone()));
    let y = x.conv2d(&w, NoBias, shaped::Conv::<2, 1, 1>).max_pool2d(shaped::Pool::<2>);
    let gs = y.sum().backward();
    let tape2 = Tape::<f64>::new();
    let (xd, wd) = (tape2.var(x0.into_dyn()), tape2.var(w0.into_dyn()));
    let yd = xd
        .conv2d_dyn(&wd, NoBias, ConvArgs { stride: [2, 2], padding: [1, 1], dilation: [1, 1], groups: 1 })
        .max_pool2d_dyn(PoolArgs { kernel: [2, 2], stride: [2, 2], padding: [0, 0], dilation: [1, 1] });
    assert_eq!(y.value().to_vec(), yd.value().to_vec());
    let gd = yd.sum().backward();
    assert_eq!(gs.wrt(&x).unwrap().to_vec(), gd.wrt(&xd).unwrap().to_vec());
    assert_eq!(gs.wrt(&w).unwrap().to_vec(), gd.wrt(&wd).unwrap().to_vec());
}

/// A run-time size error of a `_dyn` form comes back from its `try_` form, naming the sizes.
#[test]
fn dyn_forms_report_size_errors() {
    let x = Var::constant(Tensor::<f64, DynShape>::zeros_sized(&[1, 3, 4, 4]));
    let w = Var::constant(Tensor::<f64, DynShape>::zeros_sized(&[2, 2, 3, 3]));
    let e = x.try_conv2d_dyn(&w, NoBias, ConvArgs::default()).unwrap_err().to_string();
    assert!(e.contains('3') && e.contains('2'), "{e}");
    let e = x.try_max_pool2d_dyn(PoolArgs { kernel: [5, 1], stride: [1, 1], padding: [0, 0], dilation: [1, 1] });
    assert!(e.is_err());
    let e = x.try_avg_pool2d_dyn(PoolArgs { kernel: [2, 2], stride: [0, 1], padding: [0, 0], dilation: [1, 1] }, true);
    assert!(e.is_err());
}

/// Central differences (f64, `try_gradcheck`) against every backward rule of the `_dyn` forms,
/// for each operand, on each PyTorch case's operands: the rules agree with the numbers they
/// differentiate, not only with PyTorch's.
#[test]
fn dyn_forms_pass_central_difference_checks() {
    use shaped::autograd::try_gradcheck;
    for c in data::CASES {
        let x = t(c.x_sizes, c.x);
        let has_w = !c.w_sizes.is_empty();
        let w = if has_w { t(c.w_sizes, c.w) } else { t(&[0], &[]) };
        let b = t(&[c.b.len()], c.b);
        let has_b = !c.b.is_empty();
        let (name, wc, bc) = (c.name, Var::constant(w.clone()), Var::constant(b.clone()));
        let gx = try_gradcheck(|xv| apply(c, xv, has_w.then_some(&wc), has_b.then_some(&bc)), &x, 1e-6, 1e-6, 1e-5);
        assert!(gx.is_ok(), "{name}: dx: {:?}", gx.err());
        if has_w {
            let xc = Var::constant(x.clone());
            let gw = try_gradcheck(|wv| apply(c, &xc, Some(wv), has_b.then_some(&bc)), &w, 1e-6, 1e-6, 1e-5);
            assert!(gw.is_ok(), "{name}: dw: {:?}", gw.err());
        }
        if has_b {
            let xc = Var::constant(x.clone());
            let gb = try_gradcheck(|bv| apply(c, &xc, has_w.then_some(&wc), Some(bv)), &b, 1e-6, 1e-6, 1e-5);
            assert!(gb.is_ok(), "{name}: db: {:?}", gb.err());
        }
    }
}
