//! Training on the tape: what tracking costs when it is off, and what a training step costs
//! against PyTorch (CPU, one thread: `scripts/torch_peers.py` prints PyTorch's times for the same
//! work; the README's training table divides them).
//!
//! - `untracked/*`: the forward pass written over `Var` on a `no_grad` tape against the same
//!   forward written over plain tensors, paired (`paired`: the median ratio, 1.00 = no cost).
//! - `step/*`: a training step (forward, cross-entropy, backward, Adam) of the digits CNN at
//!   batch 64 and of the MLP 64-256-256-10 at batch 128; `forward/*` the same forward and loss
//!   in grad mode, so that backward + Adam = step - forward.
//! - `transformer/*`: a transformer block (`TransformerEncoderLayer`, width 384, 12 heads) over
//!   `[32, 64, 384]`: its forward, also inside `keep_threads_awake`, and a training step with
//!   AdamW (`scripts/torch_peers.py --transformer` for PyTorch's).
//!
//! Run on one thread: `RAYON_NUM_THREADS=1 cargo bench --bench autograd`.
#[path = "common/mod.rs"]
mod common;
#[path = "../examples/digits/model.rs"]
mod model;
use common::paired;
use criterion::{criterion_group, criterion_main, Criterion};
use model::DigitsCnn;
use shaped::autograd::nn::{cross_entropy, linear, Reduction};
use shaped::autograd::optim::{Adam, AdamConfig};
use shaped::autograd::{Param, Tape, Var};
use shaped::nn::{Forward, Module};
use shaped::prelude::*;
use shaped::rand::SeedableRng;
use std::hint::black_box;
use std::time::Duration;

struct Mlp {
    w1: Param<f32, Shape![256, 64]>,
    b1: Param<f32, Shape![256]>,
    w2: Param<f32, Shape![256, 256]>,
    b2: Param<f32, Shape![256]>,
    w3: Param<f32, Shape![10, 256]>,
    b3: Param<f32, Shape![10]>,
}

impl Mlp {
    fn new() -> Self {
        let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(0);
        Mlp {
            w1: Param::new(Tensor::uniform(-0.125, 0.125, rng)),
            b1: Param::new(Tensor::uniform(-0.125, 0.125, rng)),
            w2: Param::new(Tensor::uniform(-0.0625, 0.0625, rng)),
            b2: Param::new(Tensor::uniform(-0.0625, 0.0625, rng)),
            w3: Param::new(Tensor::uniform(-0.0625, 0.0625, rng)),
            b3: Param::new(Tensor::uniform(-0.0625, 0.0625, rng)),
        }
    }
    /// Written once over `Var`: inference on a `no_grad` tape, training on a recording one.
    fn forward<'t>(&self, tape: &'t Tape<f32>, x: &Var<'t, f32, Shape![128, 64]>) -> Var<'t, f32, Shape![128, 10]> {
        let h = linear(x, &tape.watch(&self.w1), Some(&tape.watch(&self.b1))).relu();
        let h = linear(&h, &tape.watch(&self.w2), Some(&tape.watch(&self.b2))).relu();
        linear(&h, &tape.watch(&self.w3), Some(&tape.watch(&self.b3)))
    }
    /// The same forward over plain tensors: today's inference code.
    fn forward_plain(&self, x: &Tensor<f32, Shape![128, 64]>) -> Tensor<f32, Shape![128, 10]> {
        let h = (x.matmul(&self.w1.value().t()) + self.b1.value()).relu();
        let h = (h.matmul(&self.w2.value().t()) + self.b2.value()).relu();
        h.matmul(&self.w3.value().t()) + self.b3.value()
    }
}

/// A layer's bias (every layer of the digits CNN has one).
fn bias<S: Shape>(p: &Option<Param<f32, S>>) -> &Tensor<f32, S> {
    p.as_ref().expect("a bias").value()
}

fn cnn_plain(m: &DigitsCnn, x: &Tensor<f32, Shape![360, 1, 8, 8]>) -> Tensor<f32, Shape![360, 10]> {
    let h = x.conv2d(m.conv1.weight.value(), bias(&m.conv1.bias), Conv::<1, 1>).relu().max_pool2d(Pool::<2>);
    let h = h.conv2d(m.conv2.weight.value(), bias(&m.conv2.bias), Conv::<1, 1>).relu().max_pool2d(Pool::<2>);
    let h = h.reshape::<Shape![360, 64]>();
    let h = (h.matmul(&m.fc1.weight.value().t()) + bias(&m.fc1.bias)).gelu();
    h.matmul(&m.fc2.weight.value().t()) + bias(&m.fc2.bias)
}

fn benches(c: &mut Criterion) {
    let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(7);
    let mut g = c.benchmark_group("autograd");
    g.measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500)).sample_size(30);

    let mlp = Mlp::new();
    let xm: Tensor<f32, Shape![128, 64]> = Tensor::randn(rng);
    let ym: Tensor<i64, Shape![128]> = Tensor::from_vec(&[128], (0..128).map(|i| i % 10).collect());
    // `forward` takes `&mut self` (batch norm and dropout update state, as in PyTorch): the
    // benches share one model through a RefCell, whose borrow costs nanoseconds.
    let cnn = std::cell::RefCell::new(DigitsCnn::new(0));
    let x360: Tensor<f32, Shape![360, 1, 8, 8]> = Tensor::randn(rng);
    let x64: Tensor<f32, Shape![64, 1, 8, 8]> = Tensor::randn(rng);
    let y64: Tensor<i64, Shape![64]> = Tensor::from_vec(&[64], (0..64).map(|i| i % 10).collect());

    // Tracking off: the Var forward on a no_grad tape against the plain tensor forward.
    g.bench_function("untracked/mlp forward [128, 64] (ratio to plain tensors)", |b| {
        let xv = Var::constant(xm.clone());
        paired(b, || mlp.forward(&Tape::no_grad(), black_box(&xv)).into_value(), || mlp.forward_plain(black_box(&xm)))
    });
    g.bench_function("untracked/cnn forward [360, 1, 8, 8] (ratio to plain tensors)", |b| {
        let xv = Var::constant(x360.clone());
        paired(
            b,
            || cnn.borrow_mut().forward(&Tape::no_grad(), black_box(&xv)).into_value(),
            || cnn_plain(&cnn.borrow(), black_box(&x360)),
        )
    });
    g.bench_function("untracked/mlp forward [128, 64]", |b| {
        let xv = Var::constant(xm.clone());
        b.iter(|| mlp.forward(&Tape::no_grad(), black_box(&xv)).into_value())
    });
    g.bench_function("untracked/cnn forward [360, 1, 8, 8]", |b| {
        let xv = Var::constant(x360.clone());
        b.iter(|| cnn.borrow_mut().forward(&Tape::no_grad(), black_box(&xv)).into_value())
    });

    // Training.
    g.bench_function("forward/mlp forward+loss [128] (grad mode)", |b| {
        let xv = Var::constant(xm.clone());
        b.iter(|| {
            let tape = Tape::new();
            cross_entropy(&mlp.forward(&tape, &xv), &ym, Reduction::Mean, 0.0).item()
        })
    });
    g.bench_function("backward/mlp forward+backward [128]", |b| {
        let xv = Var::constant(xm.clone());
        b.iter(|| {
            let tape = Tape::new();
            cross_entropy(&mlp.forward(&tape, &xv), &ym, Reduction::Mean, 0.0).backward()
        })
    });
    g.bench_function("step/mlp train step (Adam) [128]", |b| {
        let mut m = Mlp::new();
        let mut opt = Adam::new(AdamConfig::default());
        let xv = Var::constant(xm.clone());
        b.iter(|| {
            let tape = Tape::new();
            let grads = cross_entropy(&m.forward(&tape, &xv), &ym, Reduction::Mean, 0.0).backward();
            let Mlp { w1, b1, w2, b2, w3, b3 } = &mut m;
            opt.step(&mut [w1, b1, w2, b2, w3, b3], &grads);
        })
    });
    g.bench_function("forward/cnn forward+loss [64] (grad mode)", |b| {
        let xv = Var::constant(x64.clone());
        b.iter(|| {
            let tape = Tape::new();
            cross_entropy(&cnn.borrow_mut().forward(&tape, &xv), &y64, Reduction::Mean, 0.0).item()
        })
    });
    g.bench_function("backward/cnn forward+backward [64]", |b| {
        let xv = Var::constant(x64.clone());
        b.iter(|| {
            let tape = Tape::new();
            cross_entropy(&cnn.borrow_mut().forward(&tape, &xv), &y64, Reduction::Mean, 0.0).backward()
        })
    });
    g.bench_function("step/cnn train step (Adam) [64]", |b| {
        let mut m = DigitsCnn::new(0);
        let mut opt = Adam::new(AdamConfig::default());
        let xv = Var::constant(x64.clone());
        b.iter(|| {
            let tape = Tape::new();
            let grads = cross_entropy(&m.forward(&tape, &xv), &y64, Reduction::Mean, 0.0).backward();
            opt.step(&mut m.parameters(), &grads);
        })
    });
    g.finish();
}

/// A transformer block (issue 51): PyTorch's `nn.TransformerEncoderLayer(384, 12, 1536,
/// dropout=0.0, batch_first=True)` over `[32, 64, 384]`, its forward on a `no_grad` tape and a
/// training step (forward, the mean of the squared output, backward, AdamW). The PyTorch side is
/// `scripts/torch_peers.py --transformer`.
fn transformer(c: &mut Criterion) {
    use shaped::autograd::optim::{AdamW, AdamWConfig};
    use shaped::nn::{EncoderLayerOptions, TransformerEncoderLayer};
    type Block = TransformerEncoderLayer<Const<384>, 12, Const<1536>>;
    let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(3);
    let options = EncoderLayerOptions { dropout: 0.0, ..EncoderLayerOptions::default() };
    let mut block = Block::new_with(options, rng);
    let x = Var::constant(Tensor::<f32, Shape![32, 64, 384]>::randn(rng));
    let mut g = c.benchmark_group("transformer");
    g.sample_size(10).measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(2));
    g.bench_function("forward [32, 64, 384] (no_grad)", |b| {
        b.iter(|| block.forward(&Tape::no_grad(), black_box(&x)).into_value())
    });
    // Inside `keep_threads_awake` the closure runs on a pool thread, so it takes the input tensor
    // (a tape's `Var`s are not `Sync`) and copies it into its own `Var` (3 MB, included).
    let xt = x.value().clone();
    g.bench_function("forward [32, 64, 384] (no_grad, keep_threads_awake)", |b| {
        b.iter(|| {
            shaped::keep_threads_awake(|| block.forward(&Tape::no_grad(), &Var::constant(xt.clone())).into_value())
        })
    });
    g.bench_function("train step (AdamW) [32, 64, 384]", |b| {
        let mut opt = AdamW::new(AdamWConfig::default());
        b.iter(|| {
            let tape = Tape::new();
            let grads = block.forward(&tape, black_box(&x)).square().mean().backward();
            opt.step(&mut block.parameters(), &grads);
        })
    });
    g.finish();
}

criterion_group!(autograd, benches, transformer);
criterion_main!(autograd);
