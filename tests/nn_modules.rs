//! Models as typed values (issue 47): `#[derive(Module)]`, PyTorch's dotted names, train/eval,
//! tuples as sequential models, one forward for training and inference, each parameter watched
//! once per step.
use shaped::autograd::{Param, Tape, Var};
use shaped::nn::{
    BatchNorm2d, Dropout, Embedding, Flatten, Forward, LayerNorm, Linear, Module, Predict, Relu, Unflatten,
};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

#[derive(Module)]
struct Block {
    linear1: Linear<Const<4>, Const<8>>,
    norm: LayerNorm<Const<8>>,
    linear2: Linear<Const<8>, Const<4>>,
}

#[derive(Module)]
struct Net {
    embed: Embedding<Const<10>, Const<4>>,
    layers: Vec<Block>,
    bn: BatchNorm2d<Const<3>>,
    drop: Dropout,
    head: (Linear<Const<4>, Const<2>>, Relu),
    scale: Param<f32, Shape![]>,
    #[module(skip)]
    #[allow(dead_code)]
    note: &'static str,
}

fn net(rng: &mut StdRng) -> Net {
    Net {
        embed: Embedding::new(rng),
        layers: vec![
            Block { linear1: Linear::new(rng), norm: LayerNorm::new(), linear2: Linear::new(rng) },
            Block { linear1: Linear::new(rng), norm: LayerNorm::new(), linear2: Linear::new(rng) },
        ],
        bn: BatchNorm2d::new(),
        drop: Dropout::new(0.5, 7),
        head: (Linear::new(rng), Relu),
        scale: Param::new(Tensor::from_vec(&[], vec![1.0])),
        note: "not a module",
    }
}

#[test]
fn derived_names_are_pytorchs_dotted_keys_in_declaration_order() {
    let mut m = net(&mut StdRng::seed_from_u64(1));
    let names = m.parameter_names();
    assert_eq!(
        names,
        [
            "embed.weight",
            "layers.0.linear1.weight",
            "layers.0.linear1.bias",
            "layers.0.norm.weight",
            "layers.0.norm.bias",
            "layers.0.linear2.weight",
            "layers.0.linear2.bias",
            "layers.1.linear1.weight",
            "layers.1.linear1.bias",
            "layers.1.norm.weight",
            "layers.1.norm.bias",
            "layers.1.linear2.weight",
            "layers.1.linear2.bias",
            "bn.weight",
            "bn.bias",
            "head.0.weight",
            "head.0.bias",
            "scale",
        ]
    );
    let per_block = 4 * 8 + 8 + 8 + 8 + 8 * 4 + 4;
    assert_eq!(m.num_parameters(), 10 * 4 + 2 * per_block + 3 + 3 + 4 * 2 + 2 + 1);
    // Buffers are visited too, under PyTorch's keys, after the parameters of their module.
    let mut buffers = Vec::new();
    m.visit("", &mut |name, item| match item {
        shaped::nn::Item::Buffer(_) | shaped::nn::Item::Count(_) => buffers.push(name.to_string()),
        _ => {}
    });
    assert_eq!(buffers, ["bn.running_mean", "bn.running_var", "bn.num_batches_tracked"]);
}

#[test]
fn train_and_eval_reach_every_dropout_and_batch_norm() {
    let mut m = net(&mut StdRng::seed_from_u64(2));
    assert!(m.is_training() && m.bn.training && m.drop.training);
    m.eval();
    assert!(!m.is_training() && !m.bn.training && !m.drop.training);
    m.train();
    assert!(m.bn.training && m.drop.training);
}

#[test]
fn a_tuple_is_a_sequential_model_and_predict_is_its_untracked_forward() {
    let rng = &mut StdRng::seed_from_u64(3);
    let mut model = (Linear::<Const<4>, Const<8>, f64>::new(rng), Relu, Linear::<Const<8>, Const<3>, f64>::new(rng));
    let x = Tensor::<f64, Shape![5, 4]>::from_vec(&[5, 4], (0..20).map(|v| v as f64 / 10.0 - 1.0).collect());
    let tape = Tape::new();
    let y: Var<'_, f64, Shape![5, 3]> = model.forward(&tape, &Var::constant(x.clone()));
    // The same computation by hand.
    let w1 = model.0.weight.value();
    let b1 = model.0.bias.as_ref().unwrap().value();
    let w2 = model.2.weight.value();
    let b2 = model.2.bias.as_ref().unwrap().value();
    let h = (&x.matmul(&w1.t()) + b1).relu();
    let want = &h.matmul(&w2.t()) + b2;
    assert_eq!(y.value().to_vec(), want.to_vec());
    let grads = y.square().sum().backward();
    let gw1: &Tensor<f64, Shape![8, 4]> = grads.param(&model.0.weight).unwrap();
    assert_eq!(gw1.sizes(), [8, 4]);
    let p: Tensor<f64, Shape![5, 3]> = model.predict(&x);
    assert_eq!(p.to_vec(), want.to_vec());
}

#[test]
fn a_layer_used_twice_is_watched_once_and_its_gradient_sums_both_uses() {
    let rng = &mut StdRng::seed_from_u64(4);
    let mut lin = Linear::<Const<3>, Const<3>, f64>::new(rng);
    let x = Var::constant(Tensor::<f64, Shape![2, 3]>::from([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]]));
    let tape = Tape::new();
    let h = lin.forward(&tape, &x);
    let y = lin.forward(&tape, &h);
    // One leaf per parameter, however many uses: the tape holds 2 leaves and 2 linear nodes.
    assert_eq!(tape.len(), 4);
    let g = y.sum().backward();
    // By hand with the functional form: the same weight watched as one leaf, used twice.
    let tape2 = Tape::new();
    let (w, b) = (tape2.watch(&lin.weight), tape2.watch(lin.bias.as_ref().unwrap()));
    let h = shaped::nn::functional::linear(&x, &w, Some(&b));
    let y2 = shaped::nn::functional::linear(&h, &w, Some(&b));
    let g2 = y2.sum().backward();
    assert_eq!(g.param(&lin.weight).unwrap().to_vec(), g2.param(&lin.weight).unwrap().to_vec());
    assert_eq!(y.value().to_vec(), y2.value().to_vec());
}

#[test]
fn flatten_keeps_the_batch_and_checks_a_static_size() {
    let tape = Tape::<f32>::new();
    let x = tape.var(Tensor::<f32, Shape![_, 4, 2, 2]>::zeros_sized(&[3, 4, 2, 2]));
    let y = Flatten::<Const<16>>::new().forward(&tape, &x);
    assert_eq!(y.sizes(), [3, 16]);
    let g = y.sum().backward();
    assert_eq!(g.wrt(&x).unwrap().sizes(), [3, 4, 2, 2]);
    let tape = Tape::<f32>::new();
    // With static sizes after the batch, `Flatten::<Const<12>>` does not build
    // (ui-tests/mono/fail/flatten_layer_wrong_size.rs); with runtime ones it fails when it runs.
    let x = tape.var(Tensor::<f32, Shape![_, _, 2, 2]>::zeros_sized(&[3, 4, 2, 2]));
    let e = Flatten::<Const<12>>::new().try_forward(&tape, &x).unwrap_err().to_string();
    assert!(e.contains("[3, 4, 2, 2]") && e.contains("16") && e.contains("12"), "{e}");
    // A runtime output size is the product.
    let y = Flatten::<Dyn>::new().forward(&tape, &x);
    assert_eq!(y.sizes(), [3, 16]);
}

#[test]
fn unflatten_inverts_flatten_with_static_or_inferred_sizes() {
    let tape = Tape::<f32>::new();
    let v: Vec<f32> = (0..48).map(|i| i as f32).collect();
    let x = tape.var(Tensor::<f32, Shape![_, 4, 2, 2]>::from_vec(&[3, 4, 2, 2], v.clone()));
    let flat = Flatten::<Const<16>>::new().forward(&tape, &x);
    // nn.Unflatten(1, (4, 2, 2)): the values in place, the static sizes in the type.
    let back: Var<'_, f32, (Dyn, Const<4>, Const<2>, Const<2>)> =
        Unflatten::<Shape![4, 2, 2]>::new().forward(&tape, &flat);
    assert_eq!(back.value().to_vec(), v);
    let g = (&back * &back).sum().backward();
    assert_eq!(g.wrt(&x).unwrap().to_vec(), v.iter().map(|a| 2.0 * a).collect::<Vec<_>>());
    // nn.Unflatten(1, (-1, 2)): a `Dyn` dim is what the others leave.
    let tape = Tape::<f32>::new();
    let flat = tape.var(Tensor::<f32, (Dyn, Const<16>)>::zeros_sized(&[3, 16]));
    let y = Unflatten::<(Dyn, Const<2>)>::new().forward(&tape, &flat);
    assert_eq!(y.sizes(), [3, 8, 2]);
    // 16 is not 3 x 5.
    let e = Unflatten::<Shape![3, 5]>::new().try_forward(&tape, &flat).unwrap_err().to_string();
    assert!(e.contains("16") || e.contains("48"), "{e}");
}

#[test]
fn batch_norm_counts_batches_in_training_and_uses_running_statistics_in_eval() {
    let mut bn = BatchNorm2d::<Const<2>, f64>::new();
    let x = Tensor::<f64, Shape![2, 2, 1, 2]>::from([[[[1.0, 3.0]], [[0.0, 4.0]]], [[[5.0, 7.0]], [[8.0, 0.0]]]]);
    let tape = Tape::new();
    let _ = bn.forward(&tape, &Var::constant(x.clone()));
    assert_eq!(bn.num_batches_tracked.0, 1);
    // Channel 0 holds 1, 3, 5, 7: mean 4, unbiased variance 20/3.
    let (m, v) = (bn.running_mean.to_vec(), bn.running_var.to_vec());
    assert!((m[0] - 0.4).abs() < 1e-12 && (v[0] - (0.9 + 0.1 * 20.0 / 3.0)).abs() < 1e-12);
    bn.eval();
    let y: Tensor<f64, Shape![2, 2, 1, 2]> = bn.predict(&x);
    let want = (1.0 - m[0]) / (v[0] + 1e-5).sqrt();
    assert!((y.to_vec()[0] - want).abs() < 1e-12);
    assert_eq!(bn.num_batches_tracked.0, 1);
}
