//! The element-wise and copy kernels at sizes past the caches, each against ndarray and a plain
//! loop over slices in the same process (issue 13's table). f32, one thread (the rayon pool is
//! built with one thread, so no kernel splits its work). Run with `cargo bench --bench kernels`;
//! `scripts/bench_ratios.py` turns the estimates into ratios.
//!
//! Groups: `column_broadcast` (`[1000, 1000] + [1000, 1]`), `row_broadcast`
//! (`[1000, 1000] + [1000]`), `add_assign` (`a += &b`, 1e6, contiguous), `add_assign_column`
//! (`a += &col`, `[1000, 1000]` and `[1000, 1]`), `assign` (a contiguous copy of 1e6 into an
//! existing tensor), `assign_strided` (`a.assign(&b.t())`, `[1000, 1000]`), `to_contiguous`
//! (`x.t().contiguous()`, `[2048, 2048]`), `matmul_{64,256,1024}` (new output and `matmul_out`,
//! against faer into a buffer and allocating, and ndarray; at 64 also `paired_faer` and `paired_faer_out`, the new
//! output and `matmul_out` against faer into a buffer),
//! `matmul_i32_256` and `matmul_f16_256` (integer and half products),
//! `matmul_threads` (1024 on pools of one and two threads; it runs first, before the global pool
//! is pinned to one thread), `add_new_1e6` and `add_new_16m` (`&a + &b` into a new tensor; the
//! latter also with the buffer cache off, `shaped_fresh`, and paired against the plain loop into
//! an existing buffer, `paired_loop_into_buffer`),
//! `add_out_16m` (`a.add_out(&b, &mut out)`, 1.6e7, into a preallocated output), `assign_16m`
//! (a contiguous copy of 1.6e7), `sum_full`, `sum_axis1` and `sum_axis0` (`[2048, 2048]` and its
//! transpose, against loops with 32 accumulators or a vector of running sums). Each group of one
//! shaped form against a baseline also has a `paired` benchmark (and the sums a
//! `paired_transposed` one, shaped through `x.t()`): the ratio of back-to-back calls, reported as
//! 1 ms per unit (see `paired`).
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use ndarray::{Array1, Array2};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::paired;

fn data(len: usize, seed: usize) -> Vec<f32> {
    (0..len).map(|i| (((i + seed) * 7919) % 1009) as f32 * 0.001 + 0.5).collect()
}

fn group<'a>(c: &'a mut Criterion, name: &str, elems: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(20);
    g.throughput(Throughput::Elements(elems as u64));
    g
}

const R: usize = 1000;

fn dyn_t(rows: usize, cols: usize, seed: usize) -> Tensor<f32, DynShape> {
    Tensor::<f32, DynShape>::from_vec(&[rows, cols], data(rows * cols, seed))
}

fn nd(rows: usize, cols: usize, seed: usize) -> Array2<f32> {
    Array2::from_shape_vec((rows, cols), data(rows * cols, seed)).unwrap()
}

fn column_broadcast(c: &mut Criterion) {
    let mut g = group(c, "column_broadcast", R * R);
    let a: Tensor<f32, Shape![1000, 1000]> = Tensor::from_vec(&[R, R], data(R * R, 0));
    let b: Tensor<f32, Shape![1000, 1]> = Tensor::from_vec(&[R, 1], data(R, 7));
    let (ad, bd) = (dyn_t(R, R, 0), dyn_t(R, 1, 7));
    let (an, bn) = (nd(R, R, 0), nd(R, 1, 7));
    let (av, bv) = (data(R * R, 0), data(R, 7));
    let mut subject = || black_box(black_box(&a) + black_box(&b));
    let mut baseline = || {
        let mut out = Vec::with_capacity(R * R);
        for (row, &q) in black_box(&av).chunks_exact(R).zip(black_box(&bv)) {
            out.extend(row.iter().map(|&p| p + q));
        }
        black_box(out)
    };
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("dynamic", |x| x.iter(|| black_box(black_box(&ad) + black_box(&bd))));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an) + black_box(&bn))));
    g.bench_function("loop", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

fn row_broadcast(c: &mut Criterion) {
    let mut g = group(c, "row_broadcast", R * R);
    let a: Tensor<f32, Shape![1000, 1000]> = Tensor::from_vec(&[R, R], data(R * R, 0));
    let b: Tensor<f32, Shape![1000]> = Tensor::from_vec(&[R], data(R, 7));
    let (an, bn) = (nd(R, R, 0), Array1::from_vec(data(R, 7)));
    let (av, bv) = (data(R * R, 0), data(R, 7));
    let mut subject = || black_box(black_box(&a) + black_box(&b));
    let mut baseline = || {
        let mut out = Vec::with_capacity(R * R);
        for row in black_box(&av).chunks_exact(R) {
            out.extend(row.iter().zip(black_box(&bv)).map(|(&p, &q)| p + q));
        }
        black_box(out)
    };
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an) + black_box(&bn))));
    g.bench_function("loop", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

fn add_assign(c: &mut Criterion) {
    let n = R * R;
    let mut g = group(c, "add_assign", n);
    let mut a: Tensor<f32, Shape![1000000]> = Tensor::from_vec(&[n], data(n, 0));
    let b: Tensor<f32, Shape![1000000]> = Tensor::from_vec(&[n], data(n, 7));
    let (mut an, bn) = (Array1::from_vec(data(n, 0)), Array1::from_vec(data(n, 7)));
    let (mut av, bv) = (data(n, 0), data(n, 7));
    let mut subject = || a += black_box(&b);
    let mut baseline = || black_box(&mut av).iter_mut().zip(black_box(&bv)).for_each(|(p, &q)| *p += q);
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("ndarray", |x| x.iter(|| an += black_box(&bn)));
    g.bench_function("loop", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

fn add_assign_column(c: &mut Criterion) {
    let mut g = group(c, "add_assign_column", R * R);
    let mut a: Tensor<f32, Shape![1000, 1000]> = Tensor::from_vec(&[R, R], data(R * R, 0));
    let b: Tensor<f32, Shape![1000, 1]> = Tensor::from_vec(&[R, 1], data(R, 7));
    let (mut an, bn) = (nd(R, R, 0), nd(R, 1, 7));
    let (mut av, bv) = (data(R * R, 0), data(R, 7));
    let mut subject = || a += black_box(&b);
    let mut baseline = || {
        for (row, &q) in black_box(&mut av).chunks_exact_mut(R).zip(black_box(&bv)) {
            row.iter_mut().for_each(|p| *p += q);
        }
    };
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("ndarray", |x| x.iter(|| an += black_box(&bn)));
    g.bench_function("loop", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

fn assign(c: &mut Criterion) {
    let n = R * R;
    let mut g = group(c, "assign", n);
    let mut a: Tensor<f32, Shape![1000000]> = Tensor::from_vec(&[n], data(n, 0));
    let b: Tensor<f32, Shape![1000000]> = Tensor::from_vec(&[n], data(n, 7));
    let (mut an, bn) = (Array1::from_vec(data(n, 0)), Array1::from_vec(data(n, 7)));
    let (mut av, bv) = (data(n, 0), data(n, 7));
    let mut subject = || a.assign(black_box(&b));
    let mut baseline = || black_box(&mut av).copy_from_slice(black_box(&bv));
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("ndarray", |x| x.iter(|| an.assign(black_box(&bn))));
    g.bench_function("memcpy", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

fn assign_strided(c: &mut Criterion) {
    let mut g = group(c, "assign_strided", R * R);
    let mut a: Tensor<f32, Shape![1000, 1000]> = Tensor::from_vec(&[R, R], data(R * R, 0));
    let b: Tensor<f32, Shape![1000, 1000]> = Tensor::from_vec(&[R, R], data(R * R, 7));
    let (mut an, bn) = (nd(R, R, 0), nd(R, R, 7));
    let mut subject = || a.assign(&black_box(&b).t());
    let mut baseline = || an.assign(&black_box(&bn).t());
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("ndarray", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

fn to_contiguous(c: &mut Criterion) {
    const T: usize = 2048;
    let mut g = group(c, "to_contiguous", T * T);
    // One source buffer for every backend (see `sums`).
    let a: Tensor<f32, Shape![2048, 2048]> = Tensor::from_vec(&[T, T], data(T * T, 0));
    let av = a.as_slice().expect("a new tensor is contiguous");
    let an = ndarray::ArrayView2::from_shape((T, T), av).expect("[2048, 2048]");
    let mut subject = || black_box(black_box(&a).t().contiguous().into_owned());
    let mut baseline = || {
        let src = black_box(av);
        let mut out = vec![0f32; T * T];
        for bi in (0..T).step_by(8) {
            for bj in (0..T).step_by(8) {
                for i in bi..bi + 8 {
                    for j in bj..bj + 8 {
                        out[i * T + j] = src[j * T + i];
                    }
                }
            }
        }
        black_box(out)
    };
    g.bench_function("static", |x| x.iter(&mut subject));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an).t().as_standard_layout().into_owned())));
    g.bench_function("loop_tiled", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

/// `a @ b` of square f32 matrices: shaped (DynShape; static shapes take the same kernel), faer's
/// `matmul` on faer matrices, ndarray's `dot` (matrixmultiply), one thread.
fn matmul(c: &mut Criterion) {
    for n in [64usize, 256, 1024] {
        let mut g = group(c, &format!("matmul_{n}"), 2 * n * n * n);
        let (a, b) = (dyn_t(n, n, 0), dyn_t(n, n, 7));
        let (an, bn) = (nd(n, n, 0), nd(n, n, 7));
        let fa = faer::Mat::<f32>::from_fn(n, n, |i, j| an[(i, j)]);
        let fb = faer::Mat::<f32>::from_fn(n, n, |i, j| bn[(i, j)]);
        let mut fc = faer::Mat::<f32>::zeros(n, n);
        g.bench_function("shaped", |x| x.iter(|| black_box(black_box(&a).matmul(black_box(&b)))));
        let mut out = dyn_t(n, n, 3);
        g.bench_function("shaped_out", |x| {
            x.iter(|| {
                black_box(&a).matmul_out(black_box(&b), &mut out);
                black_box(&out);
            })
        });
        g.bench_function("faer", |x| {
            x.iter(|| {
                faer::linalg::matmul::matmul(
                    fc.as_mut(),
                    faer::Accum::Replace,
                    fa.as_ref(),
                    fb.as_ref(),
                    1.0,
                    faer::Par::Seq,
                );
                black_box(&fc);
            })
        });
        g.bench_function("faer_new", |x| x.iter(|| black_box(black_box(&fa) * black_box(&fb))));
        g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an).dot(black_box(&bn)))));
        if n == 64 {
            // shaped's new result against faer into an existing buffer, back to back.
            let mut fc = faer::Mat::<f32>::zeros(n, n);
            let mut out2 = dyn_t(n, n, 3);
            g.bench_function("paired_faer_out", |x| {
                paired(
                    x,
                    || black_box(&a).matmul_out(black_box(&b), &mut out2),
                    || {
                        let (acc, par) = (faer::Accum::Replace, faer::Par::Seq);
                        faer::linalg::matmul::matmul(fc.as_mut(), acc, fa.as_ref(), fb.as_ref(), 1.0, par);
                    },
                )
            });
            g.bench_function("paired_faer", |x| {
                paired(
                    x,
                    || black_box(black_box(&a).matmul(black_box(&b))),
                    || {
                        let (acc, par) = (faer::Accum::Replace, faer::Par::Seq);
                        faer::linalg::matmul::matmul(fc.as_mut(), acc, fa.as_ref(), fb.as_ref(), 1.0, par);
                    },
                )
            });
        }
        g.finish();
    }
}

/// Integer and half-precision products at 256: i32 against ndarray's `dot` (a generic loop for
/// integers) and a plain i-p-j loop; f16 and bf16 (widened to f32 for the f32 kernel) against
/// f32 itself.
fn matmul_other(c: &mut Criterion) {
    const N: usize = 256;
    let mut g = group(c, "matmul_i32_256", 2 * N * N * N);
    let ints = |seed: usize| (0..N * N).map(|i| (((i + seed) * 7919) % 201) as i32 - 100).collect::<Vec<i32>>();
    let (a, b) =
        (Tensor::<i32, DynShape>::from_vec(&[N, N], ints(0)), Tensor::<i32, DynShape>::from_vec(&[N, N], ints(7)));
    let (an, bn) = (Array2::from_shape_vec((N, N), ints(0)).unwrap(), Array2::from_shape_vec((N, N), ints(7)).unwrap());
    let (av, bv) = (ints(0), ints(7));
    g.bench_function("shaped", |x| x.iter(|| black_box(black_box(&a).matmul(black_box(&b)))));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an).dot(black_box(&bn)))));
    g.bench_function("loop", |x| {
        x.iter(|| {
            let mut out = vec![0i32; N * N];
            for (i, row) in out.chunks_exact_mut(N).enumerate() {
                for p in 0..N {
                    let s = black_box(&av)[i * N + p];
                    row.iter_mut()
                        .zip(&black_box(&bv)[p * N..(p + 1) * N])
                        .for_each(|(o, &e)| *o = o.wrapping_add(s.wrapping_mul(e)));
                }
            }
            black_box(out)
        })
    });
    g.finish();
    let mut g = group(c, "matmul_f16_256", 2 * N * N * N);
    let (a, b) = (dyn_t(N, N, 0), dyn_t(N, N, 7));
    let (ah, bh) = (a.map(shaped::f16::from_f32), b.map(shaped::f16::from_f32));
    let (ab, bb) = (a.map(shaped::bf16::from_f32), b.map(shaped::bf16::from_f32));
    g.bench_function("f32", |x| x.iter(|| black_box(black_box(&a).matmul(black_box(&b)))));
    g.bench_function("f16", |x| x.iter(|| black_box(black_box(&ah).matmul(black_box(&bh)))));
    g.bench_function("bf16", |x| x.iter(|| black_box(black_box(&ab).matmul(black_box(&bb)))));
    g.finish();
}

/// `a @ b` at 1024 on a pool of one thread and on one of two: shaped and faer.
fn matmul_threads(c: &mut Criterion) {
    const N: usize = 1024;
    let mut g = group(c, "matmul_threads", 2 * N * N * N);
    let (a, b) = (dyn_t(N, N, 0), dyn_t(N, N, 7));
    let fa = faer::Mat::<f32>::from_fn(N, N, |i, j| a.at([i, j]));
    let fb = faer::Mat::<f32>::from_fn(N, N, |i, j| b.at([i, j]));
    let mut fc = faer::Mat::<f32>::zeros(N, N);
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        g.bench_function(format!("shaped_{threads}"), |x| {
            pool.install(|| x.iter(|| black_box(black_box(&a).matmul(black_box(&b)))))
        });
        g.bench_function(format!("faer_{threads}"), |x| {
            pool.install(|| {
                x.iter(|| {
                    let par = faer::Par::rayon(0);
                    faer::linalg::matmul::matmul(fc.as_mut(), faer::Accum::Replace, fa.as_ref(), fb.as_ref(), 1.0, par);
                    black_box(&fc);
                })
            })
        });
    }
    g.finish();
}

const M16: usize = 16_000_000;

/// The plain loop `out = a + b` into an existing buffer: the DRAM bound of a large add.
fn add_loop_into(out: &mut [f32], a: &[f32], b: &[f32]) {
    for ((o, &p), &q) in out.iter_mut().zip(black_box(a)).zip(black_box(b)) {
        *o = p + q;
    }
    black_box(out);
}

/// `&a + &b` into a new tensor: 1e6 (cache-resident) and 1.6e7 (DRAM; the 64 MB output comes from
/// the cache of freed large buffers, `shaped_fresh` turns the cache off so that every output gets
/// fresh pages from the system); also on a pool of two threads.
fn add_new(c: &mut Criterion) {
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for (name, n) in [("add_new_1e6", R * R), ("add_new_16m", M16)] {
        let mut g = group(c, name, n);
        let (a, b) =
            (Tensor::<f32, DynShape>::from_vec(&[n], data(n, 0)), Tensor::<f32, DynShape>::from_vec(&[n], data(n, 7)));
        let (an, bn) = (Array1::from_vec(data(n, 0)), Array1::from_vec(data(n, 7)));
        let (av, bv) = (data(n, 0), data(n, 7));
        let mut subject = || black_box(black_box(&a) + black_box(&b));
        let mut baseline =
            || black_box(black_box(&av).iter().zip(black_box(&bv)).map(|(&p, &q)| p + q).collect::<Vec<f32>>());
        g.bench_function("shaped", |x| x.iter(&mut subject));
        g.bench_function("shaped_2threads", |x| two.install(|| x.iter(&mut subject)));
        if n == M16 {
            g.bench_function("shaped_fresh", |x| {
                let limit = shaped::set_buffer_cache_limit(0);
                x.iter(&mut subject);
                shaped::set_buffer_cache_limit(limit);
            });
        }
        g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an) + black_box(&bn))));
        g.bench_function("loop", |x| x.iter(&mut baseline));
        if n == R * R {
            g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
        } else {
            // The DRAM bound: the same loop writing into an existing buffer (`add_out_16m`'s).
            let mut ov = vec![0f32; n];
            let mut into_buffer = || add_loop_into(&mut ov, &av, &bv);
            g.bench_function("paired_loop_into_buffer", |x| paired(x, &mut subject, &mut into_buffer));
        }
        g.finish();
    }
}

/// `a + b` of 1.6e7 into an existing output (NumPy's `out=`).
fn add_out(c: &mut Criterion) {
    let mut g = group(c, "add_out_16m", M16);
    let (a, b) = (
        Tensor::<f32, DynShape>::from_vec(&[M16], data(M16, 0)),
        Tensor::<f32, DynShape>::from_vec(&[M16], data(M16, 7)),
    );
    let mut out = Tensor::<f32, DynShape>::zeros_sized(&[M16]);
    let (an, bn) = (Array1::from_vec(data(M16, 0)), Array1::from_vec(data(M16, 7)));
    let mut on = Array1::<f32>::zeros(M16);
    let (av, bv) = (data(M16, 0), data(M16, 7));
    let mut ov = vec![0f32; M16];
    let mut subject = || black_box(&a).add_out(black_box(&b), &mut out);
    let mut baseline = || add_loop_into(&mut ov, &av, &bv);
    g.bench_function("shaped", |x| x.iter(&mut subject));
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    g.bench_function("shaped_2threads", |x| two.install(|| x.iter(&mut subject)));
    g.bench_function("ndarray", |x| {
        x.iter(|| ndarray::Zip::from(&mut on).and(black_box(&an)).and(black_box(&bn)).for_each(|o, &p, &q| *o = p + q))
    });
    g.bench_function("loop", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

/// A contiguous copy of 1.6e7 into an existing tensor.
fn assign_16m(c: &mut Criterion) {
    let mut g = group(c, "assign_16m", M16);
    let mut a = Tensor::<f32, DynShape>::from_vec(&[M16], data(M16, 0));
    let b = Tensor::<f32, DynShape>::from_vec(&[M16], data(M16, 7));
    let (mut av, bv) = (data(M16, 0), data(M16, 7));
    let mut subject = || a.assign(black_box(&b));
    let mut baseline = || black_box(&mut av).copy_from_slice(black_box(&bv));
    g.bench_function("shaped", |x| x.iter(&mut subject));
    g.bench_function("memcpy", |x| x.iter(&mut baseline));
    g.bench_function("paired", |x| paired(x, &mut subject, &mut baseline));
    g.finish();
}

/// A sum of a slice with 32 independent accumulators (eight AVX or four SSE... registers of f32):
/// the speed bar of issue 13 (not accurate: plain left-to-right sums per lane).
fn sum32(s: &[f32]) -> f32 {
    let mut acc = [0f32; 32];
    let chunks = s.chunks_exact(32);
    let rest: f32 = chunks.remainder().iter().sum();
    for ch in chunks {
        for k in 0..32 {
            acc[k] += ch[k];
        }
    }
    acc.iter().sum::<f32>() + rest
}

/// Full and per-row sums of `[2048, 2048]`. Every backend reads the same buffer (ndarray through
/// a view of it): on the development machine two copies of the same 16 MB differ by up to 25% in
/// the time a plain loop takes to read them, which would swamp the kernels' differences.
fn sums(c: &mut Criterion) {
    const T: usize = 2048;
    let a: Tensor<f32, Shape![2048, 2048]> = Tensor::from_vec(&[T, T], data(T * T, 0));
    let av = a.as_slice().expect("a new tensor is contiguous");
    let an = ndarray::ArrayView2::from_shape((T, T), av).expect("[2048, 2048]");
    let full = || black_box(sum32(black_box(av)));
    let rows = || black_box(black_box(av).chunks_exact(T).map(sum32).collect::<Vec<f32>>());
    // Column sums: rows added into a vector of 2048 running sums.
    let cols = || {
        let mut acc = vec![0f32; T];
        for row in black_box(av).chunks_exact(T) {
            acc.iter_mut().zip(row).for_each(|(s, &e)| *s += e);
        }
        black_box(acc)
    };
    let mut g = group(c, "sum_full", T * T);
    let (shaped, transposed) = (|| black_box(black_box(&a).sum()), || black_box(black_box(&a).t().sum()));
    g.bench_function("shaped", |x| x.iter(shaped));
    g.bench_function("shaped_transposed", |x| x.iter(transposed));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an).sum())));
    g.bench_function("loop32", |x| x.iter(full));
    g.bench_function("paired", |x| paired(x, shaped, full));
    g.bench_function("paired_transposed", |x| paired(x, transposed, full));
    g.finish();
    let mut g = group(c, "sum_axis1", T * T);
    let (shaped, transposed) =
        (|| black_box(black_box(&a).sum_axis(Ax::<1>)), || black_box(black_box(&a).t().sum_axis(Ax::<0>)));
    g.bench_function("shaped", |x| x.iter(shaped));
    g.bench_function("shaped_transposed", |x| x.iter(transposed));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an).sum_axis(ndarray::Axis(1)))));
    g.bench_function("loop32", |x| x.iter(rows));
    g.bench_function("paired", |x| paired(x, shaped, rows));
    g.finish();
    let mut g = group(c, "sum_axis0", T * T);
    let (shaped, transposed) =
        (|| black_box(black_box(&a).sum_axis(Ax::<0>)), || black_box(black_box(&a).t().sum_axis(Ax::<1>)));
    g.bench_function("shaped", |x| x.iter(shaped));
    g.bench_function("shaped_transposed", |x| x.iter(transposed));
    g.bench_function("ndarray", |x| x.iter(|| black_box(black_box(&an).sum_axis(ndarray::Axis(0)))));
    g.bench_function("loop", |x| x.iter(cols));
    g.bench_function("paired", |x| paired(x, shaped, cols));
    g.bench_function("paired_transposed", |x| paired(x, transposed, cols));
    g.finish();
}

/// One thread against two for each kind of contiguous kernel over sizes around the thresholds
/// (`kernels::PAR_THRESHOLD`, `PAR_REDUCE_THRESHOLD`, `PAR_COPY_THRESHOLD`): `add` (`&a + &b`
/// into a new tensor), `add_assign` (`a += &b`, in place), `exp` (a costly element-wise
/// function), `sum`, `assign`.
fn threads(c: &mut Criterion) {
    let pools: Vec<_> =
        [1usize, 2].iter().map(|&t| (t, rayon::ThreadPoolBuilder::new().num_threads(t).build().unwrap())).collect();
    for kind in ["add", "add_assign", "exp", "sum", "assign"] {
        let mut g = c.benchmark_group(format!("threads_{kind}"));
        g.measurement_time(Duration::from_millis(1200)).warm_up_time(Duration::from_millis(300)).sample_size(20);
        let big: &[u32] = if kind == "exp" { &[] } else { &[22, 24] };
        for &log2 in [12u32, 14, 15, 16, 17, 18, 19, 20].iter().chain(big) {
            let n = 1usize << log2;
            let a = Tensor::<f32, DynShape>::from_vec(&[n], data(n, 0));
            let b = Tensor::<f32, DynShape>::from_vec(&[n], data(n, 7));
            let mut o = Tensor::<f32, DynShape>::zeros_sized(&[n]);
            g.throughput(Throughput::Elements(n as u64));
            for (t, pool) in &pools {
                let id = criterion::BenchmarkId::new(format!("{t}thread"), format!("2^{log2}"));
                g.bench_function(id, |x| {
                    pool.install(|| match kind {
                        "add" => x.iter(|| black_box(black_box(&a) + black_box(&b))),
                        "exp" => x.iter(|| black_box(black_box(&a).exp())),
                        "sum" => x.iter(|| black_box(black_box(&a).sum())),
                        "add_assign" => x.iter(|| o += black_box(&b)),
                        _ => x.iter(|| o.assign(black_box(&b))),
                    })
                });
            }
        }
        g.finish();
    }
}

fn one_thread(c: &mut Criterion) {
    // The kernels decide on threads from the current pool: one thread keeps every run serial.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    column_broadcast(c);
    row_broadcast(c);
    add_assign(c);
    add_assign_column(c);
    assign(c);
    assign_strided(c);
    to_contiguous(c);
    matmul(c);
    matmul_other(c);
    add_new(c);
    add_out(c);
    assign_16m(c);
    sums(c);
}

criterion_group!(benches, matmul_threads, threads, one_thread);
criterion_main!(benches);
