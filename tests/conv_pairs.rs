//! `Var`'s convolutions and poolings with hyper-parameters that differ between height and width
//! (PyTorch's `stride=(2, 1)`, `padding=(1, 0)`, `kernel_size=(3, 2)`, ...): the `_dyn` forms'
//! values and the gradients of `sum(y * g)` against PyTorch's (tests/data/conv_pairs_data.rs,
//! written by scripts/conv_pairs_data.py), untracked and tracked; the typed forms and the `nn`
//! layers with the width's hyper-parameters apart (`Conv::<2, 1, 1, 2, 1, 0, 2>`,
//! `Pool::<3, 2, 1, 1, 2, 1, 0, 2>`, `Conv2d<.., Const<2>, 1, 0, 2>`) against the same numbers;
//! and the typed forms agree with the `_dyn` forms where the pairs are equal.
use shaped::autograd::{Tape, Var};
use shaped::nn::Predict;
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
        "conv2d" => x.conv2d(w.unwrap(), b, conv),
        "conv1d" => {
            let a =
                Conv1dArgs { stride: c.stride[1], padding: c.padding[1], dilation: c.dilation[1], groups: c.groups };
            x.conv1d(w.unwrap(), b, a)
        }
        "conv_transpose2d" => {
            let a = ConvTransposeArgs {
                stride: c.stride,
                padding: c.padding,
                output_padding: c.output_padding,
                dilation: c.dilation,
                groups: c.groups,
            };
            x.conv_transpose2d(w.unwrap(), b, a)
        }
        "max_pool2d" => {
            x.max_pool2d(PoolArgs { kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: c.dilation })
        }
        "avg_pool2d" => {
            let a = PoolArgs { kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: [1, 1] };
            x.avg_pool2d(a, c.count_include_pad)
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
        .conv2d(&wd, NoBias, ConvArgs { stride: [2, 2], padding: [1, 1], dilation: [1, 1], groups: 1 })
        .max_pool2d(PoolArgs { kernel: [2, 2], stride: [2, 2], padding: [0, 0], dilation: [1, 1] });
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
    let e = x.try_conv2d(&w, NoBias, ConvArgs::default()).unwrap_err().to_string();
    assert!(e.contains('3') && e.contains('2'), "{e}");
    let e = x.try_max_pool2d(PoolArgs { kernel: [5, 1], stride: [1, 1], padding: [0, 0], dilation: [1, 1] });
    assert!(e.is_err());
    let e = x.try_avg_pool2d(PoolArgs { kernel: [2, 2], stride: [0, 1], padding: [0, 0], dilation: [1, 1] }, true);
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

/// The case named `name`.
fn case(name: &str) -> &'static data::PairCase {
    data::CASES.iter().find(|c| c.name == name).expect("a case of the fixture")
}

/// Typed operands with static shapes from a case's values.
fn st<S: shaped::Shape>(v: &[f64]) -> Tensor<f64, S> {
    let rank = S::RANK.expect("a static rank");
    Tensor::from_vec(&S::STATIC.iter().take(rank).map(|d| d.expect("a static size")).collect::<Vec<_>>(), v.to_vec())
}

/// Height and width apart in the typed forms (const generics, static output shapes): the
/// PyTorch cases with unequal pairs, through `Tensor`, through a tracked `Var` (values and every
/// gradient) and through the `nn` layers, against PyTorch's numbers.
#[test]
fn typed_pairs_match_pytorch() {
    // conv2d: stride (2, 1), padding (1, 0), dilation (1, 2), groups 2, a 3x2 kernel.
    let c = case("conv2d_groups_pairs");
    let (x, w, b) = (st::<Shape![2, 4, 7, 6]>(c.x), st::<Shape![6, 2, 3, 2]>(c.w), st::<Shape![6]>(c.b));
    let conv = shaped::Conv::<2, 1, 1, 2, 1, 0, 2>;
    let y: Tensor<f64, Shape![2, 6, 4, 4]> = x.conv2d(&w, &b, conv);
    close(&y.to_vec(), c.y, "conv2d pairs: typed y");
    let tape = Tape::<f64>::new();
    let (xv, wv, bv) = (tape.var(x.clone()), tape.var(w.clone()), tape.var(b.clone()));
    let yv: Var<'_, f64, Shape![2, 6, 4, 4]> = xv.conv2d(&wv, &bv, conv);
    let grads = yv.backward_with(&st::<Shape![2, 6, 4, 4]>(c.g));
    close(&grads.wrt(&xv).unwrap().to_vec(), c.gx, "conv2d pairs: typed dx");
    close(&grads.wrt(&wv).unwrap().to_vec(), c.gw, "conv2d pairs: typed dw");
    close(&grads.wrt(&bv).unwrap().to_vec(), c.gb, "conv2d pairs: typed db");
    let mut layer = shaped::nn::Conv2d::<Const<2>, Const<6>, Const<3>, f64, 2, 1, 1, 2, Const<2>, 1, 0, 2>::from_parts(
        w.clone(),
        Some(b.clone()),
    );
    let y: Tensor<f64, Shape![2, 6, 4, 4]> = layer.predict(&x);
    close(&y.to_vec(), c.y, "Conv2d layer with pairs");

    // conv2d: a 1x3 kernel, stride (1, 3), padding (0, 2), no bias.
    let c = case("conv2d_wide_kernel");
    let (x, w) = (st::<Shape![1, 3, 5, 8]>(c.x), st::<Shape![2, 3, 1, 3]>(c.w));
    let y: Tensor<f64, Shape![1, 2, 5, 4]> = x.conv2d(&w, NoBias, shaped::Conv::<1, 0, 1, 1, 3, 2>);
    close(&y.to_vec(), c.y, "conv2d wide kernel: typed y");

    // conv_transpose2d: stride (2, 3), padding (1, 0), output padding (1, 2), a 3x2 kernel.
    let c = case("conv_transpose2d_pairs");
    let (x, w, b) = (st::<Shape![2, 4, 3, 4]>(c.x), st::<Shape![4, 3, 3, 2]>(c.w), st::<Shape![3]>(c.b));
    let convt = shaped::ConvT::<2, 1, 1, 1, 1, 3, 0, 2>;
    let y: Tensor<f64, Shape![2, 3, 6, 13]> = x.conv_transpose2d(&w, &b, convt);
    close(&y.to_vec(), c.y, "conv_transpose2d pairs: typed y");
    let tape = Tape::<f64>::new();
    let (xv, wv, bv) = (tape.var(x.clone()), tape.var(w.clone()), tape.var(b.clone()));
    let yv: Var<'_, f64, Shape![2, 3, 6, 13]> = xv.conv_transpose2d(&wv, &bv, convt);
    let grads = yv.backward_with(&st::<Shape![2, 3, 6, 13]>(c.g));
    close(&grads.wrt(&xv).unwrap().to_vec(), c.gx, "conv_transpose2d pairs: typed dx");
    close(&grads.wrt(&wv).unwrap().to_vec(), c.gw, "conv_transpose2d pairs: typed dw");
    close(&grads.wrt(&bv).unwrap().to_vec(), c.gb, "conv_transpose2d pairs: typed db");
    let mut layer = shaped::nn::ConvTranspose2d::<Const<4>, Const<3>, Const<3>, f64, 2, 1, 1, 1, 1, Const<2>, 3, 0, 2> {
        weight: shaped::autograd::Param::new(w.clone()),
        bias: Some(shaped::autograd::Param::new(Tensor::<f64, Shape![_]>::from_vec(&[3], c.b.to_vec()))),
    };
    let y: Tensor<f64, Shape![2, 3, 6, 13]> = layer.predict(&x);
    close(&y.to_vec(), c.y, "ConvTranspose2d layer with pairs");

    // conv_transpose2d: groups 2, dilation (2, 1), output padding (0, 1), no bias.
    let c = case("conv_transpose2d_groups_dilated");
    let (x, w) = (st::<Shape![1, 4, 4, 3]>(c.x), st::<Shape![4, 1, 2, 3]>(c.w));
    let y: Tensor<f64, Shape![1, 2, 6, 6]> = x.conv_transpose2d(&w, NoBias, shaped::ConvT::<1, 0, 0, 2, 2, 2, 1, 1, 1>);
    close(&y.to_vec(), c.y, "conv_transpose2d groups dilated: typed y");

    // max_pool2d: kernel (3, 2), stride (2, 1), padding (1, 0), dilation (1, 2).
    let c = case("max_pool2d_pairs");
    let x = st::<Shape![2, 3, 7, 8]>(c.x);
    let pool = shaped::Pool::<3, 2, 1, 1, 2, 1, 0, 2>;
    let y: Tensor<f64, Shape![2, 3, 4, 6]> = x.max_pool2d(pool);
    close(&y.to_vec(), c.y, "max_pool2d pairs: typed y");
    let tape = Tape::<f64>::new();
    let xv = tape.var(x.clone());
    let yv: Var<'_, f64, Shape![2, 3, 4, 6]> = xv.max_pool2d(pool);
    let grads = yv.backward_with(&st::<Shape![2, 3, 4, 6]>(c.g));
    close(&grads.wrt(&xv).unwrap().to_vec(), c.gx, "max_pool2d pairs: typed dx");
    let y: Tensor<f64, Shape![2, 3, 4, 6]> = shaped::nn::MaxPool2d::<3, 2, 1, 1, 2, 1, 0, 2>.predict(&x);
    close(&y.to_vec(), c.y, "MaxPool2d layer with pairs");

    // avg_pool2d: kernel (2, 3), stride (2, 2), padding (1, 1), padding counted; and kernel
    // (3, 2), stride (1, 2), padding (1, 1), not counted.
    let c = case("avg_pool2d_pairs_pad_counted");
    let x = st::<Shape![2, 2, 6, 7]>(c.x);
    let y: Tensor<f64, Shape![2, 2, 4, 4]> = x.avg_pool2d(shaped::Pool::<2, 2, 1, 1, 3, 2, 1>, true);
    close(&y.to_vec(), c.y, "avg_pool2d pairs: typed y");
    let y: Tensor<f64, Shape![2, 2, 4, 4]> = shaped::nn::AvgPool2d::<2, 2, 1, 3, 2, 1>::default().predict(&x);
    close(&y.to_vec(), c.y, "AvgPool2d layer with pairs");
    let c = case("avg_pool2d_pairs_pad_not_counted");
    let x = st::<Shape![2, 2, 6, 7]>(c.x);
    let tape = Tape::<f64>::new();
    let xv = tape.var(x.clone());
    let yv: Var<'_, f64, Shape![2, 2, 6, 4]> = xv.avg_pool2d(shaped::Pool::<3, 1, 1, 1, 2, 2, 1>, false);
    close(&yv.value().to_vec(), c.y, "avg_pool2d pairs, pad not counted: typed y");
    let grads = yv.backward_with(&st::<Shape![2, 2, 6, 4]>(c.g));
    close(&grads.wrt(&xv).unwrap().to_vec(), c.gx, "avg_pool2d pairs, pad not counted: typed dx");
}

/// `try_new_sized_hw`, the layers' constructor with a kernel size per dim: sizes that differ from
/// the type's static ones, and runtime sizes not given, are errors naming the size; given sizes
/// shape the weights and PyTorch's `fan_in = in_channels / groups * kh * kw` bounds them.
#[test]
fn layer_constructors_with_kernel_pairs_check_every_size() {
    use shaped::nn::{Conv2d, ConvTranspose2d};
    let mut rng = <shaped::rand::rngs::StdRng as shaped::rand::SeedableRng>::seed_from_u64(7);
    type Wide = Conv2d<Const<2>, Const<4>, Const<3>, f32, 1, 0, 1, 1, Const<5>>;
    let e = Wide::try_new_sized_hw(None, None, [None, Some(4)], true, &mut rng).unwrap_err().to_string();
    assert!(e.contains("kernel width 4 differs from the type's 5"), "{e}");
    let e = Wide::try_new_sized_hw(None, None, [Some(2), None], true, &mut rng).unwrap_err().to_string();
    assert!(e.contains("kernel height 2 differs from the type's 3"), "{e}");
    type Runtime = Conv2d<Const<2>, Const<4>, Dyn, f32, 1, 0, 1, 1, Dyn>;
    let e = Runtime::try_new_sized_hw(None, None, [Some(3), None], true, &mut rng).unwrap_err().to_string();
    assert!(e.contains("kernel width is a runtime size"), "{e}");
    let layer = Runtime::try_new_sized_hw(None, None, [Some(3), Some(2)], true, &mut rng).unwrap();
    assert_eq!(layer.weight.value().sizes(), &[4, 2, 3, 2]);
    let bound = 1.0 / (2.0f32 * 3.0 * 2.0).sqrt();
    assert!(layer.weight.value().to_vec().iter().all(|w| w.abs() <= bound));
    // One size for both dims of a runtime kernel; a static width beside a runtime height keeps its own.
    let square = Runtime::try_new_sized(None, None, Some(3), false, &mut rng).unwrap();
    assert_eq!(square.weight.value().sizes(), &[4, 2, 3, 3]);
    type Mixed = Conv2d<Const<2>, Const<4>, Dyn, f32, 1, 0, 1, 1, Const<5>>;
    let mixed = Mixed::try_new_sized(None, None, Some(3), false, &mut rng).unwrap();
    assert_eq!(mixed.weight.value().sizes(), &[4, 2, 3, 5]);
    type T2 = ConvTranspose2d<Const<4>, Const<3>, Const<3>, f32, 1, 0, 0, 1, 1, Const<2>>;
    let e = T2::try_new_sized_hw(None, None, [None, Some(3)], true, &mut rng).unwrap_err().to_string();
    assert!(e.contains("kernel width 3 differs from the type's 2"), "{e}");
    assert_eq!(
        T2::try_new_sized_hw(None, None, [None, None], true, &mut rng).unwrap().weight.value().sizes(),
        &[4, 3, 3, 2]
    );
}
