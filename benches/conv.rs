//! A ResNet-like 3x3 convolution layer in one process: `shaped`'s `conv2d` (im2col + the crate's
//! gemm, faer for f32) against a plain im2col written here followed by faer's `matmul` on the
//! same buffers (the usual CPU recipe, and what `shaped` should cost no more than). Input
//! `[8, 64, 56, 56]`, weights `[64, 64, 3, 3]`, padding 1, stride 1, f32. Run with
//! `cargo bench --bench conv`.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use faer::{Accum, MatMut, MatRef, Par};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 8;
const C: usize = 64;
const O: usize = 64;
const H: usize = 56;
const K: usize = 3;
const P: usize = 1;

/// Deterministic, non-trivial values (no denormals, no zeros).
fn data(len: usize, seed: usize) -> Vec<f32> {
    (0..len).map(|i| (((i + seed) * 7919) % 1009) as f32 * 0.001 - 0.5).collect()
}

/// The baseline's im2col: `[C * K * K, H * W]` for one image, stride 1, padding `P`.
fn im2col(x: &[f32], col: &mut [f32]) {
    let hw = H * H;
    for c in 0..C {
        for i in 0..K {
            for j in 0..K {
                let row = &mut col[((c * K + i) * K + j) * hw..][..hw];
                for y in 0..H {
                    for xo in 0..H {
                        let (iy, ix) = ((y + i) as isize - P as isize, (xo + j) as isize - P as isize);
                        row[y * H + xo] = if iy < 0 || ix < 0 || iy >= H as isize || ix >= H as isize {
                            0.0
                        } else {
                            x[(c * H + iy as usize) * H + ix as usize]
                        };
                    }
                }
            }
        }
    }
}

/// im2col + faer matmul per image (faer threaded over rayon's pool, as `shaped`'s gemm is for
/// products this large).
fn baseline(x: &[f32], w: &[f32], col: &mut [f32], out: &mut [f32]) {
    let (kk, hw) = (C * K * K, H * H);
    let lhs = MatRef::from_row_major_slice(w, O, kk);
    for n in 0..N {
        im2col(&x[n * C * hw..(n + 1) * C * hw], col);
        let rhs = MatRef::from_row_major_slice(col, kk, hw);
        let dst = MatMut::from_row_major_slice_mut(&mut out[n * O * hw..(n + 1) * O * hw], O, hw);
        let par = if rayon::current_num_threads() > 1 { Par::rayon(0) } else { Par::Seq };
        faer::linalg::matmul::matmul(dst, Accum::Replace, lhs, rhs, 1.0, par);
    }
}

fn conv(c: &mut Criterion) {
    let xv = data(N * C * H * H, 0);
    let wv = data(O * C * K * K, 1);
    let x: Tensor<f32, Shape![N, C, H, H]> = Tensor::from_vec(&[N, C, H, H], xv.clone());
    let w: Tensor<f32, Shape![O, C, K, K]> = Tensor::from_vec(&[O, C, K, K], wv.clone());
    let mut col = vec![0.0f32; C * K * K * H * H];
    let mut out = vec![0.0f32; N * O * H * H];
    // The two agree (the same products, possibly summed in another order).
    baseline(&xv, &wv, &mut col, &mut out);
    let y: Tensor<f32, Shape![N, O, H, H]> = x.conv2d(&w, NoBias, Conv::<1, 1>);
    let worst = y.to_vec().iter().zip(&out).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    assert!(worst < 1e-2, "shaped and the baseline differ by {worst}");

    let mut g = c.benchmark_group("conv2d_resnet_3x3");
    g.measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(2)).sample_size(10);
    g.throughput(Throughput::Elements((2 * N * O * C * K * K * H * H) as u64));
    g.bench_function("shaped", |b| b.iter(|| black_box(black_box(&x).conv2d(black_box(&w), NoBias, Conv::<1, 1>))));
    g.bench_function("im2col_faer", |b| {
        b.iter(|| baseline(black_box(&xv), black_box(&wv), &mut col, &mut out));
    });
    g.finish();
}

criterion_group!(benches, conv);
criterion_main!(benches);
