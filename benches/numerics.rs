//! The numerics surface against ndarray, static and dynamic shapes in one process (one criterion
//! group per operation, `[256, 256]` f32): `exp`, a comparison (`greater`, giving bools), `max`
//! along each axis, `softmax` along the last axis, and the sums whose accuracy rule (pairwise on
//! contiguous runs, Kahan-compensated along leading axes) could cost time. Run with
//! `cargo bench --bench numerics`.
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use ndarray::{Array2, Axis, Zip};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 256;

/// Deterministic values in [-2.5, 2.5), the same for every backend.
fn data(len: usize, seed: usize) -> Vec<f32> {
    (0..len).map(|i| (((i + seed) * 7919) % 1009) as f32 * 0.005 - 2.5).collect()
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(30);
    g.throughput(Throughput::Elements((N * N) as u64));
    g
}

struct Mat {
    st: Tensor<f32, Shape![N, N]>,
    dy: Tensor<f32, DynShape>,
    nd: Array2<f32>,
}

fn mat(seed: usize) -> Mat {
    let v = data(N * N, seed);
    Mat {
        st: Tensor::from_vec(&[N, N], v.clone()),
        dy: Tensor::<f32, DynShape>::from_vec(&[N, N], v.clone()),
        nd: Array2::from_shape_vec((N, N), v).unwrap(),
    }
}

fn nd_softmax(a: &Array2<f32>) -> Array2<f32> {
    let m = a.fold_axis(Axis(1), f32::NEG_INFINITY, |&m, &x| m.max(x)).insert_axis(Axis(1));
    let e = (a - &m).mapv(f32::exp);
    let s = e.sum_axis(Axis(1)).insert_axis(Axis(1));
    e / s
}

fn numerics(c: &mut Criterion) {
    let (a, b) = (mat(0), mat(1));

    let mut g = group(c, "exp");
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).exp())));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).exp())));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd).mapv(f32::exp))));
    g.finish();

    let mut g = group(c, "greater");
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).greater(black_box(&b.st)))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).greater(black_box(&b.dy)))));
    g.bench_function("ndarray", |bn| {
        bn.iter(|| black_box(Zip::from(black_box(&a.nd)).and(black_box(&b.nd)).map_collect(|x, y| x > y)))
    });
    g.finish();

    for (name, axis) in [("max_axis1", 1usize), ("max_axis0", 0)] {
        let mut g = group(c, name);
        if axis == 1 {
            g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).max_axis(Ax::<1>))));
        } else {
            g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).max_axis(Ax::<0>))));
        }
        g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).max_axis(axis as isize))));
        g.bench_function("ndarray", |bn| {
            bn.iter(|| black_box(black_box(&a.nd).fold_axis(Axis(axis), f32::NEG_INFINITY, |&m, &x| m.max(x))))
        });
        g.finish();
    }

    let mut g = group(c, "softmax");
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).softmax(Ax::<1>))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).softmax(1))));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(nd_softmax(black_box(&a.nd)))));
    g.finish();

    let mut g = group(c, "sum_all");
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).sum())));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).sum())));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd).sum())));
    g.finish();

    let mut g = group(c, "sum_axis0");
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).sum_axis(Ax::<0>))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).sum_axis(0))));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd).sum_axis(Axis(0)))));
    g.finish();

    let mut g = group(c, "sum_axis1");
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st).sum_axis(Ax::<1>))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy).sum_axis(1))));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd).sum_axis(Axis(1)))));
    g.finish();
}

criterion_group!(benches, numerics);
criterion_main!(benches);
