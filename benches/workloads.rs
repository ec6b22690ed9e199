//! The hot paths of real workloads (issue 28's table), each against its peer in the same process:
//! a plain loop over slices, ndarray, or nalgebra. f32, one thread (the rayon pool is built with
//! one thread). NumPy's figures for the same work come from `scripts/numpy_peers.py`, run on the
//! same machine (`shaped::guide::speed`, src/guide/speed.md, quotes both). Run with `cargo bench --bench workloads`.
//!
//! Groups:
//! - `row_gather`: the rows of `x: [1500, 64]` in the order of a permutation `idx`, into a new
//!   tensor: `t!(x[&idx])`, `t!(x[&idx, ..])` and `x.index_select(Ax::<0>, &idx)`, against a loop of
//!   `copy_from_slice` per row into a new `Vec` and ndarray's `select(Axis(0), ..)`; `paired` is
//!   the ratio of back-to-back calls of `t!(x[&idx])` and the loop (1 ms per unit).
//! - `column_gather`: the columns of `x` in the order of a permutation of 64, `t!(x[.., &idx])`
//!   (one element per step: no run), against a loop.
//! - `small_reduce`: reductions of an inline `STensor<f32, Shape![4, 4]>` and `Shape![4]`
//!   (`sum`, `max`, `norm`, `sum_axis(Ax::<1>)`) against nalgebra's `Matrix4`/`Vector4` (`sum`, `max`,
//!   `norm`, `column_sum`: the row sums as a column), 64 tensors per iteration, each result
//!   through `black_box` (no dependency chain between them). nalgebra stores columns, so its
//!   `column_sum` adds four contiguous columns while row sums of a row-major tensor add across
//!   each row; `col_sums_4x4/shaped` (`sum_axis(Ax::<0>)`, whole rows added) and
//!   `row_sum_layout_4x4/nalgebra` (`row_sum`, across each column) pair the same memory access.
//! - `matmul_transposed_{64,256,1024}`: `c = op(a) @ op(b)` for the four transpose combinations
//!   (`nn`, `tn`, `nt`, `tt`; `t` is a `.t()` view of a row-major matrix), shaped's `matmul_out`
//!   into an existing output against faer's `matmul` on the same views (faer's `MatRef`s with the
//!   same strides) into an existing row-major output, one thread; `paired` is the ratio of
//!   back-to-back calls, `paired_2t` (1024 only) the same in a 2-thread pool, faer on 2 threads.
//! - `transcendental_{f32,f64}_{1600,1000000}`: `exp`, `tanh`, `sigmoid`, `ln`, `sin` of vectors into new
//!   tensors against a plain loop of Rust's scalar functions; the 1e6 case also in a 2-thread
//!   pool.
//! - `gelu_{f32,f64}_{360x32,1000000}`: `gelu`, `gelu_tanh`, `erf`, `erfc` into new tensors
//!   against a plain loop of libm's scalar functions (`gelu` as `0.5 x (1 + erf(x / sqrt 2))`,
//!   shaped's scalar formula before issue 37).
//! - `sort_rows`: `sort`, `argsort` and `topk::<10, 1>` of the rows of a `[256, 1024]` f32 matrix
//!   against loops over row slices (`sort_by`, `select_nth_unstable_by`).
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion, Throughput};
use shaped::prelude::*;
use shaped::rand::{rngs::SmallRng, seq::SliceRandom, SeedableRng};
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::paired;

fn group<'a>(c: &'a mut Criterion, name: &str, elems: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(30);
    g.throughput(Throughput::Elements(elems as u64));
    g
}

fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    p.shuffle(&mut SmallRng::seed_from_u64(seed));
    p
}

fn row_gather(c: &mut Criterion) {
    const R: usize = 1500;
    const C: usize = 64;
    let x = Tensor::<f32, Shape![R, C]>::from_fn(|[i, j]| (i * C + j) as f32);
    let perm = permutation(R, 7);
    let idx = Tensor::<i64, Shape![R]>::from_fn(|[k]| perm[k] as i64);
    let flat = x.to_vec();
    let nd = ndarray::Array2::from_shape_vec((R, C), flat.clone()).unwrap();
    let loop_gather = || {
        let mut out = Vec::with_capacity(R * C);
        for &i in &perm {
            out.extend_from_slice(&flat[i * C..(i + 1) * C]);
        }
        out
    };
    let mut g = group(c, "row_gather", R * C);
    g.bench_function("shaped_t_idx", |b| b.iter(|| black_box(t!(x[&idx]))));
    g.bench_function("shaped_t_idx_full", |b| b.iter(|| black_box(t!(x[&idx, ..]))));
    g.bench_function("shaped_index_select", |b| b.iter(|| black_box(x.index_select(Ax::<0>, &idx))));
    g.bench_function("loop", |b| b.iter(|| black_box(loop_gather())));
    g.bench_function("ndarray_select", |b| b.iter(|| black_box(nd.select(ndarray::Axis(0), &perm))));
    g.bench_function("paired", |b| paired(b, || t!(x[&idx]), loop_gather));
    g.finish();
}

fn column_gather(c: &mut Criterion) {
    const R: usize = 1500;
    const C: usize = 64;
    let x = Tensor::<f32, Shape![R, C]>::from_fn(|[i, j]| (i * C + j) as f32);
    let perm = permutation(C, 11);
    let idx = Tensor::<i64, Shape![C]>::from_fn(|[k]| perm[k] as i64);
    let flat = x.to_vec();
    let loop_gather = || {
        let mut out = Vec::with_capacity(R * C);
        for row in flat.chunks_exact(C) {
            out.extend(perm.iter().map(|&j| row[j]));
        }
        out
    };
    let mut g = group(c, "column_gather", R * C);
    g.bench_function("shaped_t_idx", |b| b.iter(|| black_box(t!(x[.., &idx]))));
    g.bench_function("loop", |b| b.iter(|| black_box(loop_gather())));
    g.bench_function("paired", |b| paired(b, || t!(x[.., &idx]), loop_gather));
    g.finish();
}

/// `f` of each element of `xs`, each result through `black_box` (no dependency between them).
fn each<T, R>(xs: &[T], f: impl Fn(&T) -> R) {
    for x in black_box(xs) {
        black_box(f(x));
    }
}

fn small_reduce(c: &mut Criterion) {
    use nalgebra as na;
    const K: usize = 64;
    let vals = |k: usize| -> [[f32; 4]; 4] {
        core::array::from_fn(|i| core::array::from_fn(|j| ((k * 16 + i * 4 + j) % 17) as f32 * 0.25 - 2.0))
    };
    let ms: Vec<STensor<f32, Shape![4, 4]>> = (0..K).map(|k| STensor::new(vals(k))).collect();
    let vs: Vec<STensor<f32, Shape![4]>> = (0..K).map(|k| STensor::new(vals(k)[0])).collect();
    let nms: Vec<na::Matrix4<f32>> = (0..K).map(|k| na::Matrix4::from_fn(|i, j| vals(k)[i][j])).collect();
    let nvs: Vec<na::Vector4<f32>> = (0..K).map(|k| na::Vector4::from_fn(|i, _| vals(k)[0][i])).collect();
    let mut g = group(c, "small_reduce", K);
    g.bench_function("sum_4x4/shaped", |b| b.iter(|| each(&ms, |m| m.sum())));
    g.bench_function("sum_4x4/nalgebra", |b| b.iter(|| each(&nms, |m| m.sum())));
    g.bench_function("max_4x4/shaped", |b| b.iter(|| each(&ms, |m| m.max())));
    g.bench_function("max_4x4/nalgebra", |b| b.iter(|| each(&nms, |m| m.max())));
    g.bench_function("norm_vec4/shaped", |b| b.iter(|| each(&vs, |v| v.norm(Norm::L2))));
    g.bench_function("norm_vec4/nalgebra", |b| b.iter(|| each(&nvs, |v| v.norm())));
    g.bench_function("row_sums_4x4/shaped", |b| b.iter(|| each(&ms, |m| m.sum_axis(Ax::<1>))));
    g.bench_function("row_sums_4x4/nalgebra", |b| b.iter(|| each(&nms, |m| m.column_sum())));
    // The same reductions with the memory access matched: the sums of a row-major tensor's
    // columns add whole rows, as nalgebra's `column_sum` adds whole (column-major) columns; its
    // `row_sum` sums across columns, as `sum_axis(Ax::<1>)` sums across a row-major row.
    g.bench_function("col_sums_4x4/shaped", |b| b.iter(|| each(&ms, |m| m.sum_axis(Ax::<0>))));
    g.bench_function("row_sum_layout_4x4/nalgebra", |b| b.iter(|| each(&nms, |m| m.row_sum())));
    g.finish();
}

fn matmul_transposed(c: &mut Criterion) {
    for n in [64usize, 256, 1024] {
        let data =
            |seed: usize| -> Vec<f32> { (0..n * n).map(|i| (((i + seed) * 7919) % 1009) as f32 * 0.001).collect() };
        let (da, db) = (data(1), data(2));
        let a = Tensor::<f32, DynShape>::from_vec(&[n, n], da);
        let b = Tensor::<f32, DynShape>::from_vec(&[n, n], db);
        let mut out = Tensor::<f32, DynShape>::zeros_sized(&[n, n]);
        let mut fc = vec![0f32; n * n];
        // faer reads the tensors' own buffers (the same alignment: a copy elsewhere in the heap
        // may straddle cache lines differently).
        let (sa, sb) = (a.as_slice().expect("contiguous"), b.as_slice().expect("contiguous"));
        let fa = faer::MatRef::from_row_major_slice(sa, n, n);
        let fb = faer::MatRef::from_row_major_slice(sb, n, n);
        let mut g = group(c, &format!("matmul_transposed_{n}"), n * n * n);
        if n == 1024 {
            g.sample_size(10);
        }
        for (name, ta, tb) in [("nn", false, false), ("tn", true, false), ("nt", false, true), ("tt", true, true)] {
            let (va, vb) = (if ta { a.t() } else { a.as_view() }, if tb { b.t() } else { b.as_view() });
            let (ra, rb) = (if ta { fa.transpose() } else { fa }, if tb { fb.transpose() } else { fb });
            g.bench_function(format!("{name}/shaped"), |x| {
                x.iter(|| black_box(&va).matmul_out(black_box(&vb), &mut out))
            });
            let faer_mm = |fc: &mut [f32]| {
                faer::linalg::matmul::matmul(
                    faer::MatMut::from_row_major_slice_mut(fc, n, n),
                    faer::Accum::Replace,
                    black_box(ra),
                    black_box(rb),
                    1.0,
                    faer::Par::Seq,
                )
            };
            g.bench_function(format!("{name}/faer"), |x| x.iter(|| faer_mm(&mut fc)));
            // The ratio of back-to-back calls (1 ms per unit): the two sequential rows above run
            // seconds apart and move by up to 10% between runs on a shared machine.
            g.bench_function(format!("{name}/paired"), |x| {
                common::paired(x, || black_box(&va).matmul_out(black_box(&vb), &mut out), || faer_mm(&mut fc))
            });
            if n == 1024 {
                // Two threads: shaped in a 2-thread pool (it splits from 2^21 multiply-adds)
                // against faer told to use that pool's two threads.
                let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("a 2-thread pool");
                g.bench_function(format!("{name}/paired_2t"), |x| {
                    two.install(|| {
                        common::paired(
                            x,
                            || black_box(&va).matmul_out(black_box(&vb), &mut out),
                            || {
                                faer::linalg::matmul::matmul(
                                    faer::MatMut::from_row_major_slice_mut(&mut fc, n, n),
                                    faer::Accum::Replace,
                                    black_box(ra),
                                    black_box(rb),
                                    1.0,
                                    faer::Par::rayon(2),
                                )
                            },
                        )
                    })
                });
            }
        }
        g.finish();
    }
}

/// `exp`, `tanh`, `sigmoid`, `ln` and `sin` of f32 and f64 tensors of `[50, 32]` and
/// `[1_000_000]` elements (values in `[-4, 4)`, `(0.5, 8.5]` for `ln`), into a new tensor, against a plain loop of Rust's scalar functions into
/// a new `Vec`. The 1e6 case also runs in a 2-thread pool (`_2t`, the default on this machine).
/// NumPy's times come from `scripts/numpy_peers.py`.
macro_rules! transcendentals {
    ($fname:ident, $t:ident) => {
        fn $fname(c: &mut Criterion) {
            let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            type Op = (&'static str, fn(&Tensor<$t, Shape![_]>) -> Tensor<$t, Shape![_]>, fn($t) -> $t);
            let ops: [Op; 5] = [
                ("exp", |t| t.exp(), $t::exp),
                ("tanh", |t| t.tanh(), $t::tanh),
                ("sigmoid", |t| t.sigmoid(), |x| 1.0 / (1.0 + (-x).exp())),
                ("ln", |t| t.ln(), $t::ln),
                ("sin", |t| t.sin(), $t::sin),
            ];
            for n in [1600usize, 1_000_000] {
                let mut g = group(c, &format!("transcendental_{}_{n}", stringify!($t)), n);
                for (name, f, scalar) in ops {
                    // [-4, 4), and (0.5, 8.5] for ln.
                    let shift = if name == "ln" { 4.5 } else { 0.0 };
                    let v: Vec<$t> = (0..n).map(|i| i as $t / n as $t * 8.0 - 4.0 + shift).collect();
                    let x = Tensor::<$t, Shape![_]>::from_vec(&[n], v.clone());
                    g.bench_function(format!("{name}/shaped"), |b| b.iter(|| black_box(f(black_box(&x)))));
                    g.bench_function(format!("{name}/loop"), |b| {
                        b.iter(|| black_box(black_box(&v).iter().map(|&e| scalar(e)).collect::<Vec<$t>>()))
                    });
                    if n > 100_000 {
                        g.bench_function(format!("{name}/shaped_2t"), |b| {
                            two.install(|| b.iter(|| black_box(f(black_box(&x)))))
                        });
                    }
                }
                g.finish();
            }
        }
    };
}
transcendentals!(transcendentals_f32, f32);
transcendentals!(transcendentals_f64, f64);

/// `gelu`, `gelu_tanh`, `erf` and `erfc` of f32 and f64 tensors of `[360, 32]` (the digits
/// CNN's hidden layer) and `[1_000_000]` (standard normal-ish values: `[-4, 4)` evenly), into a new
/// tensor, against a plain loop of libm's scalar functions into a new `Vec` (for `gelu`, the
/// formula shaped used before, `0.5 x (1 + erf(x / sqrt 2))`). One thread. PyTorch's times come
/// from `scripts/torch_peers.py`.
macro_rules! gelus {
    ($fname:ident, $t:ident) => {
        fn $fname(c: &mut Criterion) {
            type Op = (&'static str, fn(&Tensor<$t, Shape![_, _]>) -> Tensor<$t, Shape![_, _]>, fn($t) -> $t);
            let ops: [Op; 4] = [
                (
                    "gelu",
                    |t| t.gelu(),
                    |x| {
                        let x = x as f64;
                        (x * 0.5 * (1.0 + libm::erf(x / core::f64::consts::SQRT_2))) as $t
                    },
                ),
                (
                    "gelu_tanh",
                    |t| t.gelu_tanh(),
                    |x| {
                        let x = x as f64;
                        let u = 0.7978845608028654 * (x + 0.044715 * x * x * x);
                        (0.5 * x * (1.0 + u.tanh())) as $t
                    },
                ),
                ("erf", |t| t.erf(), |x| libm::erf(x as f64) as $t),
                ("erfc", |t| t.erfc(), |x| libm::erfc(x as f64) as $t),
            ];
            for (r, cols) in [(360usize, 32usize), (1_000_000, 1)] {
                let n = r * cols;
                let name = if cols == 1 { format!("{n}") } else { format!("{r}x{cols}") };
                let mut g = group(c, &format!("gelu_{}_{name}", stringify!($t)), n);
                let v: Vec<$t> = (0..n).map(|i| i as $t / n as $t * 8.0 - 4.0).collect();
                let x = Tensor::<$t, Shape![_, _]>::from_vec(&[r, cols], v.clone());
                for (name, f, scalar) in ops {
                    g.bench_function(format!("{name}/shaped"), |b| b.iter(|| black_box(f(black_box(&x)))));
                    g.bench_function(format!("{name}/loop"), |b| {
                        b.iter(|| black_box(black_box(&v).iter().map(|&e| scalar(e)).collect::<Vec<$t>>()))
                    });
                }
                g.finish();
            }
        }
    };
}
gelus!(gelus_f32, f32);
gelus!(gelus_f64, f64);

/// `sort::<1>`, `argsort::<1>` and `topk::<10, 1>` of the rows of a `[256, 1024]` f32 matrix of
/// distinct values in random order, against loops over the rows as slices: a stable `sort_by`
/// of the values (ndarray has no sort; its users sort slices so), a stable `sort_by` of the
/// positions, and `select_nth_unstable_by` plus a sort of the 10 selected positions.
fn sorting(c: &mut Criterion) {
    const R: usize = 256;
    const C: usize = 1024;
    let perm = permutation(R * C, 11);
    let v: Vec<f32> = perm.iter().map(|&p| p as f32).collect();
    let x = Tensor::<f32, Shape![R, C]>::from_vec(&[R, C], v.clone());
    let mut g = group(c, "sort_rows", R * C);
    g.bench_function("sort/shaped", |b| b.iter(|| black_box(black_box(&x).sort(Ax::<1>, false))));
    g.bench_function("sort/loop", |b| {
        b.iter(|| {
            let mut out = black_box(&v).clone();
            for row in out.chunks_mut(C) {
                row.sort_by(|a, b| a.total_cmp(b));
            }
            out
        })
    });
    g.bench_function("argsort/shaped", |b| b.iter(|| black_box(black_box(&x).argsort(Ax::<1>, false))));
    g.bench_function("argsort/loop", |b| {
        b.iter(|| {
            let mut out: Vec<i64> = Vec::with_capacity(R * C);
            let mut idx: Vec<usize> = Vec::with_capacity(C);
            for row in black_box(&v).chunks(C) {
                idx.clear();
                idx.extend(0..C);
                idx.sort_by(|&a, &b| row[a].total_cmp(&row[b]));
                out.extend(idx.iter().map(|&i| i as i64));
            }
            out
        })
    });
    g.bench_function("topk10/shaped", |b| b.iter(|| black_box(black_box(&x).topk(Const::<10>, Ax::<1>, true))));
    g.bench_function("topk10/loop", |b| {
        b.iter(|| {
            let mut out: Vec<f32> = Vec::with_capacity(R * 10);
            let mut idx: Vec<usize> = Vec::with_capacity(C);
            for row in black_box(&v).chunks(C) {
                idx.clear();
                idx.extend(0..C);
                let cmp = |a: &usize, b: &usize| row[*b].total_cmp(&row[*a]);
                idx.select_nth_unstable_by(9, cmp);
                idx[..10].sort_unstable_by(cmp);
                out.extend(idx[..10].iter().map(|&i| row[i]));
            }
            out
        })
    });
    g.finish();
}

fn one_thread(c: &mut Criterion) {
    rayon::ThreadPoolBuilder::new().num_threads(1).build_global().ok();
    row_gather(c);
    column_gather(c);
    small_reduce(c);
    matmul_transposed(c);
    transcendentals_f32(c);
    transcendentals_f64(c);
    gelus_f32(c);
    gelus_f64(c);
    sorting(c);
}

criterion_group!(benches, one_thread);
criterion_main!(benches);
