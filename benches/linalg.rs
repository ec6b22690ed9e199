//! Linear algebra (issue 12): `inv`, `solve` (a vector right side), `eigh` and `svd` at 4x4,
//! 64x64 and 512x512, f64, in one process against nalgebra (`Matrix4`/`DMatrix`) and faer called
//! directly (`Mat`, the library `shaped` calls above 8x8). At 4x4 `shaped` runs its direct code on
//! an inline `STensor` for `inv`/`solve`. Run with `cargo bench --bench linalg`, then
//! `python3 scripts/bench_ratios.py --base faer linalg_inv_64 ...` for the speed guide's ratios (src/guide/speed.md).
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion};
use faer::Side;
use nalgebra as na;
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

fn group<'a>(c: &'a mut Criterion, name: &str, n: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    let (time, samples) = if n >= 512 { (3, 10) } else { (1, 30) };
    g.measurement_time(Duration::from_secs(time)).warm_up_time(Duration::from_millis(300)).sample_size(samples);
    g
}

/// A deterministic well-conditioned matrix (diagonally dominant) and its symmetric part.
fn values(n: usize) -> Vec<f64> {
    (0..n * n)
        .map(|q| {
            let (i, j) = (q / n, q % n);
            ((i * 7 + j * 13) % 11) as f64 * 0.1 - 0.5 + if i == j { n as f64 } else { 0.0 }
        })
        .collect()
}

fn symmetric(n: usize) -> Vec<f64> {
    let a = values(n);
    (0..n * n).map(|q| (a[q] + a[(q % n) * n + q / n]) / 2.0).collect()
}

/// The three backends' copies of one matrix.
struct Forms {
    shaped: Tensor<f64, Shape![_, _]>,
    na: na::DMatrix<f64>,
    faer: faer::Mat<f64>,
}

fn forms(n: usize, v: &[f64]) -> Forms {
    Forms {
        shaped: Tensor::from_vec(&[n, n], v.to_vec()),
        na: na::DMatrix::from_row_slice(n, n, v),
        faer: faer::Mat::from_fn(n, n, |i, j| v[i * n + j]),
    }
}

fn inv(c: &mut Criterion) {
    for n in [4, 64, 512] {
        let m = forms(n, &values(n));
        let mut g = group(c, &format!("linalg_inv_{n}"), n);
        if n == 4 {
            let s = Tensor::<f64, Shape![4, 4]>::from_vec(&[4, 4], values(4)).to_inline();
            let n4 = na::Matrix4::from_row_slice(&values(4));
            g.bench_function("inline", |b| b.iter(|| black_box(black_box(&s).inv())));
            g.bench_function("nalgebra_static", |b| b.iter(|| black_box(black_box(n4).try_inverse())));
        }
        g.bench_function("shaped", |b| b.iter(|| black_box(black_box(&m.shaped).inv())));
        g.bench_function("nalgebra", |b| b.iter(|| black_box(black_box(&m.na).clone().try_inverse())));
        g.bench_function("faer", |b| {
            b.iter(|| {
                use faer::linalg::solvers::DenseSolveCore;
                black_box(black_box(&m.faer).partial_piv_lu().inverse())
            })
        });
        g.finish();
    }
}

fn solve(c: &mut Criterion) {
    for n in [4, 64, 512] {
        let m = forms(n, &values(n));
        let rhs: Vec<f64> = (0..n).map(|i| (i % 5) as f64 - 2.0).collect();
        let bs: Tensor<f64, Shape![_]> = Tensor::from_vec(&[n], rhs.clone());
        let bn = na::DVector::from_column_slice(&rhs);
        let bf = faer::Mat::from_fn(n, 1, |i, _| rhs[i]);
        let mut g = group(c, &format!("linalg_solve_{n}"), n);
        if n == 4 {
            let s = Tensor::<f64, Shape![4, 4]>::from_vec(&[4, 4], values(4)).to_inline();
            let b4 = Tensor::<f64, Shape![4]>::from_vec(&[4], rhs.clone()).to_inline();
            let n4 = na::Matrix4::from_row_slice(&values(4));
            let nb4 = na::Vector4::from_column_slice(&rhs);
            g.bench_function("inline", |b| b.iter(|| black_box(black_box(&s).solve(black_box(&b4)))));
            g.bench_function("nalgebra_static", |b| b.iter(|| black_box(black_box(n4).lu().solve(black_box(&nb4)))));
        }
        g.bench_function("shaped", |b| b.iter(|| black_box(black_box(&m.shaped).solve(black_box(&bs)))));
        g.bench_function("nalgebra", |b| b.iter(|| black_box(black_box(&m.na).clone().lu().solve(black_box(&bn)))));
        g.bench_function("faer", |b| {
            b.iter(|| {
                use faer::linalg::solvers::Solve;
                black_box(black_box(&m.faer).partial_piv_lu().solve(black_box(&bf)))
            })
        });
        g.finish();
    }
}

fn eigh(c: &mut Criterion) {
    for n in [4, 64, 512] {
        let m = forms(n, &symmetric(n));
        let mut g = group(c, &format!("linalg_eigh_{n}"), n);
        g.bench_function("shaped", |b| b.iter(|| black_box(black_box(&m.shaped).eigh())));
        g.bench_function("nalgebra", |b| b.iter(|| black_box(black_box(&m.na).clone().symmetric_eigen())));
        g.bench_function("faer", |b| b.iter(|| black_box(black_box(&m.faer).self_adjoint_eigen(Side::Lower))));
        g.finish();
    }
}

fn svd(c: &mut Criterion) {
    for n in [4, 64, 512] {
        let m = forms(n, &values(n));
        let mut g = group(c, &format!("linalg_svd_{n}"), n);
        g.bench_function("shaped", |b| b.iter(|| black_box(black_box(&m.shaped).svd())));
        g.bench_function("nalgebra", |b| b.iter(|| black_box(black_box(&m.na).clone().svd(true, true))));
        g.bench_function("faer", |b| b.iter(|| black_box(black_box(&m.faer).thin_svd())));
        g.finish();
    }
    // The backends agree (singular values of the 64x64 case).
    let m = forms(64, &values(64));
    let s = m.shaped.svdvals().to_vec();
    let sn = m.na.clone().singular_values();
    assert!(s.iter().zip(sn.iter()).all(|(a, b)| (a - b).abs() < 1e-9 * b.abs().max(1.0)));
}

criterion_group!(benches, inv, solve, eigh, svd);
criterion_main!(benches);
