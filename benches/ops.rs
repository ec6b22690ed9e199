//! The same work three ways in one process: static shapes (`Tensor<f32, Shape![..]>`), dynamic
//! shapes (`Tensor<f32, DynShape>`) and ndarray (`Array2<f32>`), one criterion group per
//! operation so the report puts them side by side. Run with `cargo bench --bench ops`; filter
//! with `cargo bench --bench ops -- matmul`.
//!
//! The `threshold` group sweeps contiguous element-wise add across
//! [`shaped::kernels::PAR_THRESHOLD`]: `shaped` uses the library kernel (serial below the
//! threshold, rayon at or above it), `serial` is the library's serial loop written out on plain
//! slices, and `ndarray` is ndarray's single-threaded add.
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use ndarray::{s, Array1, Array2, Array3, Axis};
use shaped::kernels::PAR_THRESHOLD;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// Side of the square matrices in `add`, `broadcast_add` and `sum_axis`.
const N: usize = 256;
/// Side of the square matrices in `matmul`.
const M: usize = 128;

/// Deterministic, non-trivial values (no denormals, no zeros), the same for every backend.
fn data(len: usize) -> Vec<f32> {
    (0..len).map(|i| ((i * 7919) % 1009) as f32 * 0.001 + 0.5).collect()
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(30);
    g
}

/// The three forms of one `rows x cols` matrix.
struct Mat<S: Shape> {
    st: Tensor<f32, S>,
    dy: Tensor<f32, DynShape>,
    nd: Array2<f32>,
}

fn mat<S: Shape>(rows: usize, cols: usize, seed: usize) -> Mat<S> {
    let v: Vec<f32> = data(rows * cols + seed).split_off(seed);
    Mat {
        st: Tensor::from_vec(&[rows, cols], v.clone()),
        dy: Tensor::<f32, DynShape>::from_vec(&[rows, cols], v.clone()),
        nd: Array2::from_shape_vec((rows, cols), v).unwrap(),
    }
}

fn add(c: &mut Criterion) {
    let a = mat::<Shape![N, N]>(N, N, 0);
    let b = mat::<Shape![N, N]>(N, N, 1);
    let mut g = group(c, "add");
    g.throughput(Throughput::Elements((N * N) as u64));
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st) + black_box(&b.st))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy) + black_box(&b.dy))));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd) + black_box(&b.nd))));
    g.finish();
}

fn broadcast_add(c: &mut Criterion) {
    let a = mat::<Shape![N, N]>(N, N, 0);
    let row = data(N + 3).split_off(3);
    let b_st: Tensor<f32, Shape![N]> = Tensor::from_vec(&[N], row.clone());
    let b_dy = b_st.clone().into_dyn();
    let b_nd = Array1::from_vec(row);
    let mut g = group(c, "broadcast_add");
    g.throughput(Throughput::Elements((N * N) as u64));
    g.bench_function("static", |bn| bn.iter(|| black_box(black_box(&a.st) + black_box(&b_st))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dy) + black_box(&b_dy))));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd) + black_box(&b_nd))));
    g.finish();
}

fn sum_axis(c: &mut Criterion) {
    let x = mat::<Shape![N, N]>(N, N, 0);
    let mut g = group(c, "sum_axis");
    g.throughput(Throughput::Elements((N * N) as u64));
    g.bench_function(BenchmarkId::new("static", "axis0"), |bn| {
        bn.iter(|| black_box(black_box(&x.st).sum_axis(Ax::<0>)))
    });
    g.bench_function(BenchmarkId::new("dynamic", "axis0"), |bn| bn.iter(|| black_box(black_box(&x.dy).sum_axis(0))));
    g.bench_function(BenchmarkId::new("ndarray", "axis0"), |bn| {
        bn.iter(|| black_box(black_box(&x.nd).sum_axis(Axis(0))))
    });
    g.bench_function(BenchmarkId::new("static", "axis1"), |bn| {
        bn.iter(|| black_box(black_box(&x.st).sum_axis(Ax::<1>)))
    });
    g.bench_function(BenchmarkId::new("dynamic", "axis1"), |bn| bn.iter(|| black_box(black_box(&x.dy).sum_axis(1))));
    g.bench_function(BenchmarkId::new("ndarray", "axis1"), |bn| {
        bn.iter(|| black_box(black_box(&x.nd).sum_axis(Axis(1))))
    });
    g.finish();
}

fn matmul(c: &mut Criterion) {
    let a = mat::<Shape![M, M]>(M, M, 0);
    let b = mat::<Shape![M, M]>(M, M, 5);
    let mut g = group(c, "matmul");
    g.throughput(Throughput::Elements((2 * M * M * M) as u64)); // flops
    g.bench_function(BenchmarkId::new("static", "a@b"), |bn| {
        bn.iter(|| black_box(black_box(&a.st).matmul(black_box(&b.st))))
    });
    g.bench_function(BenchmarkId::new("dynamic", "a@b"), |bn| {
        bn.iter(|| black_box(black_box(&a.dy).matmul(black_box(&b.dy))))
    });
    g.bench_function(BenchmarkId::new("ndarray", "a@b"), |bn| {
        bn.iter(|| black_box(black_box(&a.nd).dot(black_box(&b.nd))))
    });
    // The right operand is a transposed view (column-major strides), read in place.
    g.bench_function(BenchmarkId::new("static", "a@b.t"), |bn| {
        bn.iter(|| black_box(black_box(&a.st).matmul(&black_box(&b.st).t())))
    });
    g.bench_function(BenchmarkId::new("dynamic", "a@b.t"), |bn| {
        bn.iter(|| black_box(black_box(&a.dy).matmul(&black_box(&b.dy).t())))
    });
    g.bench_function(BenchmarkId::new("ndarray", "a@b.t"), |bn| {
        bn.iter(|| black_box(black_box(&a.nd).dot(&black_box(&b.nd).t())))
    });
    g.finish();
}

fn view(c: &mut Criterion) {
    let v = data(8 * 4 * 4);
    let st: Tensor<f32, Shape![8, 4, 4]> = Tensor::from_vec(&[8, 4, 4], v.clone());
    let dy = st.clone().into_dyn();
    let nd = Array3::from_shape_vec((8, 4, 4), v).unwrap();
    // The same view four ways; sanity-check that they agree before timing them.
    let expect = t!(st[.., 1, 0..2]).to_vec();
    assert_eq!(t!(dy[.., 1, 0..2]).to_vec(), expect);
    let args = [SliceArg::Full, SliceArg::Index(1), SliceArg::range(0..2, 1)];
    assert_eq!(dy.slice(&args).to_vec(), expect);
    assert_eq!(nd.slice(s![.., 1, 0..2]).iter().copied().collect::<Vec<_>>(), expect);

    let mut g = group(c, "view");
    g.bench_function("static_t!", |bn| {
        bn.iter(|| {
            let x = black_box(&st);
            black_box(t!(x[.., 1, 0..2]))
        })
    });
    g.bench_function("dynamic_t!", |bn| {
        bn.iter(|| {
            let x = black_box(&dy);
            black_box(t!(x[.., 1, 0..2]))
        })
    });
    g.bench_function("dynamic_slice", |bn| {
        bn.iter(|| {
            let x = black_box(&dy);
            black_box(x.slice(&[SliceArg::Full, SliceArg::Index(1), SliceArg::range(0..2, 1)]))
        })
    });
    g.bench_function("ndarray_s!", |bn| {
        bn.iter(|| {
            let x = black_box(&nd);
            black_box(x.slice(s![.., 1, 0..2]))
        })
    });
    g.finish();
}

fn threshold(c: &mut Criterion) {
    eprintln!("threshold: `shaped` uses rayon from PAR_THRESHOLD = 2^{} elements", PAR_THRESHOLD.trailing_zeros());
    let mut g = group(c, "threshold");
    for log2 in [14u32, 16, 17, 18, 19, 20] {
        let n = 1usize << log2;
        let (va, vb) = (data(n), data(n + 1).split_off(1));
        let a = Tensor::<f32, DynShape>::from_vec(&[n], va.clone());
        let b = Tensor::<f32, DynShape>::from_vec(&[n], vb.clone());
        let (na, nb) = (Array1::from_vec(va.clone()), Array1::from_vec(vb.clone()));
        let label = format!("2^{log2}");
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::new("shaped", &label), &n, |bn, _| {
            bn.iter(|| black_box(black_box(&a) + black_box(&b)))
        });
        // The kernel's serial fast path (`kernels::zip`), without the threshold.
        g.bench_with_input(BenchmarkId::new("serial", &label), &n, |bn, _| {
            bn.iter(|| {
                let (x, y) = (black_box(&va), black_box(&vb));
                black_box(x.iter().zip(y).map(|(&p, &q)| p + q).collect::<Vec<f32>>())
            })
        });
        g.bench_with_input(BenchmarkId::new("ndarray", &label), &n, |bn, _| {
            bn.iter(|| black_box(black_box(&na) + black_box(&nb)))
        });
    }
    g.finish();
}

/// `einsum!("bij,bjk->bik")` against the crate's own batch `matmul` on the same `[16, 64, 64]`
/// operands (static shapes), and the runtime `einsum` on `DynShape` copies: the lowering should
/// cost little beyond the product (target: at most 1.2x `matmul`).
fn einsum(c: &mut Criterion) {
    const B: usize = 16;
    const K: usize = 64;
    let a = Tensor::<f32, Shape![B, K, K]>::from_vec(&[B, K, K], data(B * K * K));
    let b = Tensor::<f32, Shape![B, K, K]>::from_vec(&[B, K, K], data(B * K * K + 3).split_off(3));
    let (ad, bd) = (a.as_dyn().to_owned(), b.as_dyn().to_owned());
    let mut g = group(c, "einsum");
    g.throughput(Throughput::Elements((2 * B * K * K * K) as u64)); // flops
    g.bench_function(BenchmarkId::new("matmul", "bij,bjk->bik"), |bn| {
        bn.iter(|| black_box(black_box(&a).matmul(black_box(&b))))
    });
    g.bench_function(BenchmarkId::new("einsum!", "bij,bjk->bik"), |bn| {
        bn.iter(|| {
            let (a, b) = (black_box(&a), black_box(&b));
            black_box(einsum!("bij,bjk->bik", a, b))
        })
    });
    g.bench_function(BenchmarkId::new("try_einsum", "bij,bjk->bik"), |bn| {
        bn.iter(|| black_box(try_einsum("bij,bjk->bik", &[black_box(&ad), black_box(&bd)]).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, add, broadcast_add, sum_axis, matmul, view, threshold, einsum);
criterion_main!(benches);
