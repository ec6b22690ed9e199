//! A network at PyTorch's speed (issue 37): the digits CNN's forward over `[360, 1, 8, 8]` stage
//! by stage and whole, pooling over `[32, 64, 56, 56]` and a depthwise 3x3 convolution, all f32
//! on plain tensors. PyTorch's times for the same work come from `scripts/torch_peers.py` (one
//! thread, and two); the README divides them. The large 3x3 convolution is `benches/conv.rs`.
//!
//! Run on one thread as `RAYON_NUM_THREADS=1 cargo bench --bench network`, and on two without it.
#[path = "../examples/digits/model.rs"]
mod model;
use criterion::{criterion_group, criterion_main, Criterion};
use model::DigitsCnn;
use shaped::prelude::*;
use shaped::rand::SeedableRng;
use std::hint::black_box;
use std::time::Duration;

type X = Tensor<f32, Shape![360, 1, 8, 8]>;

/// A layer's bias (every layer of the digits CNN has one).
fn bias<S: Shape>(p: &Option<shaped::autograd::Param<f32, S>>) -> &Tensor<f32, S> {
    p.as_ref().expect("a bias").value()
}

fn forward(m: &DigitsCnn, x: &X) -> Tensor<f32, Shape![360, 10]> {
    let h = x.conv2d(m.conv1.weight.value(), bias(&m.conv1.bias), Conv::<1, 1>).relu().max_pool2d(Pool::<2>);
    let h = h.conv2d(m.conv2.weight.value(), bias(&m.conv2.bias), Conv::<1, 1>).relu().max_pool2d(Pool::<2>);
    let h = h.reshape::<Shape![360, 64]>();
    let h = (h.matmul(&m.fc1.weight.value().t()) + bias(&m.fc1.bias)).gelu();
    (h.matmul(&m.fc2.weight.value().t()) + bias(&m.fc2.bias)).log_softmax(Ax::<1>)
}

fn benches(c: &mut Criterion) {
    let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(7);
    let m = DigitsCnn::new(0);
    let x: X = Tensor::randn(rng);
    // The intermediate values, each stage's input.
    let h1 = x.conv2d(m.conv1.weight.value(), bias(&m.conv1.bias), Conv::<1, 1>);
    let r1 = h1.relu();
    let p1 = r1.max_pool2d(Pool::<2>);
    let h2 = p1.conv2d(m.conv2.weight.value(), bias(&m.conv2.bias), Conv::<1, 1>);
    let r2 = h2.relu();
    let p2 = r2.max_pool2d(Pool::<2>).reshape::<Shape![360, 64]>().to_owned();
    let l1 = p2.matmul(&m.fc1.weight.value().t()) + bias(&m.fc1.bias);
    let g1 = l1.gelu();
    let l2 = g1.matmul(&m.fc2.weight.value().t()) + bias(&m.fc2.bias);

    let mut g = c.benchmark_group("cnn360");
    g.measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    g.bench_function("forward", |b| b.iter(|| forward(&m, black_box(&x))));
    // The same forward called from inside rayon's pool (`install`): the caller is then one of
    // the pool's threads and takes part in each parallel stage, instead of handing every stage
    // to the pool and sleeping until it is done (a wake-up each way per stage).
    g.bench_function("forward (in the pool)", |b| b.iter(|| rayon::scope(|_| forward(&m, black_box(&x)))));
    // The forward inside `keep_threads_awake`: the pool's other workers spin between stages, and
    // the stages split from lower sizes.
    g.bench_function("forward (keep_threads_awake)", |b| {
        b.iter(|| shaped::keep_threads_awake(|| forward(&m, black_box(&x))))
    });
    g.bench_function("conv1 [360,1,8,8] 1->8 3x3 pad 1", |b| {
        b.iter(|| black_box(&x).conv2d(m.conv1.weight.value(), bias(&m.conv1.bias), Conv::<1, 1>))
    });
    g.bench_function("relu [360,8,8,8]", |b| b.iter(|| black_box(&h1).relu()));
    g.bench_function("max_pool2d [360,8,8,8]", |b| b.iter(|| black_box(&r1).max_pool2d(Pool::<2>)));
    g.bench_function("conv2 [360,8,4,4] 8->16 3x3 pad 1", |b| {
        b.iter(|| black_box(&p1).conv2d(m.conv2.weight.value(), bias(&m.conv2.bias), Conv::<1, 1>))
    });
    g.bench_function("relu [360,16,4,4]", |b| b.iter(|| black_box(&h2).relu()));
    g.bench_function("max_pool2d [360,16,4,4]", |b| b.iter(|| black_box(&r2).max_pool2d(Pool::<2>)));
    g.bench_function("linear [360,64] -> 32", |b| {
        b.iter(|| black_box(&p2).matmul(&m.fc1.weight.value().t()) + bias(&m.fc1.bias))
    });
    g.bench_function("gelu [360,32]", |b| b.iter(|| black_box(&l1).gelu()));
    g.bench_function("linear [360,32] -> 10", |b| {
        b.iter(|| black_box(&g1).matmul(&m.fc2.weight.value().t()) + bias(&m.fc2.bias))
    });
    g.bench_function("log_softmax [360,10]", |b| b.iter(|| black_box(&l2).log_softmax(Ax::<1>)));
    g.finish();

    let big: Tensor<f32, Shape![32, 64, 56, 56]> = Tensor::randn(rng);
    let mut g = c.benchmark_group("pool [32,64,56,56]");
    g.measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1)).sample_size(20);
    g.bench_function("max_pool2d 2x2", |b| b.iter(|| black_box(&big).max_pool2d(Pool::<2>)));
    g.bench_function("max_pool2d 3x3 stride 2", |b| b.iter(|| black_box(&big).max_pool2d(Pool::<3, 2>)));
    g.bench_function("avg_pool2d 2x2", |b| b.iter(|| black_box(&big).avg_pool2d(Pool::<2>, true)));
    g.bench_function("avg_pool2d 3x3 stride 2", |b| b.iter(|| black_box(&big).avg_pool2d(Pool::<3, 2>, true)));
    g.finish();

    let xd: Tensor<f32, Shape![8, 64, 56, 56]> = Tensor::randn(rng);
    let wd: Tensor<f32, Shape![64, 1, 3, 3]> = Tensor::randn(rng);
    let mut g = c.benchmark_group("conv2d_depthwise [8,64,56,56] 3x3");
    g.measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1)).sample_size(20);
    g.bench_function("shaped", |b| b.iter(|| black_box(&xd).conv2d(&wd, NoBias, Conv::<1, 1, 1, 64>)));
    g.finish();
}

criterion_group!(network, benches);
criterion_main!(network);
