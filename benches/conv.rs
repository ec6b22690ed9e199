//! A ResNet-like 3x3 convolution layer in one process: `shaped`'s `conv2d` (im2col + the crate's
//! gemm, faer for f32) against a plain im2col written here followed by faer's `matmul` on the
//! same buffers (the usual CPU recipe, and what `shaped` should cost no more than). Input
//! `[8, 64, 56, 56]`, weights `[64, 64, 3, 3]`, padding 1, stride 1, f32. Group `conv_shapes`:
//! 1x1, strided and dilated layers and backward passes, against PyTorch through
//! `scripts/torch_peers.py --conv`. Run with `cargo bench --bench conv`.
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

/// The other convolution shapes of issue 51 and the backward passes, each against PyTorch's
/// time for the same work (`scripts/torch_peers.py --conv`): a 1x1 layer, a strided and a
/// dilated 3x3 layer over the large input, and forward + backward of the large 3x3 layer with
/// the input's gradient only, the weights' only, and of the digits CNN's second layer with both
/// (the loss the output's sum, as `y.sum().backward()`).
fn conv_shapes(c: &mut Criterion) {
    use shaped::autograd::{Param, Tape, Var};
    use shaped::ConvArgs;
    let t = |sizes: &[usize], seed: usize| -> Tensor<f32, DynShape> {
        Tensor::from_vec(sizes, data(sizes.iter().product(), seed))
    };
    let args = |stride: usize, padding: usize, dilation: usize| ConvArgs {
        stride: [stride; 2],
        padding: [padding; 2],
        dilation: [dilation; 2],
        groups: 1,
    };
    let x = t(&[N, C, H, H], 0);
    let (w1, w2, w3) = (t(&[128, C, 1, 1], 1), t(&[128, C, 3, 3], 2), t(&[O, C, 3, 3], 3));
    let mut g = c.benchmark_group("conv_shapes");
    g.measurement_time(Duration::from_secs(10)).warm_up_time(Duration::from_secs(2)).sample_size(10);
    g.bench_function("1x1 [8,64,56,56] 64->128", |b| {
        b.iter(|| black_box(black_box(&x).conv2d(&w1, NoBias, args(1, 0, 1))))
    });
    g.bench_function("stride 2 [8,64,56,56] 64->128 3x3 pad 1", |b| {
        b.iter(|| black_box(black_box(&x).conv2d(&w2, NoBias, args(2, 1, 1))))
    });
    g.bench_function("dilation 2 [8,64,56,56] 64->64 3x3 pad 2", |b| {
        b.iter(|| black_box(black_box(&x).conv2d(&w3, NoBias, args(1, 2, 2))))
    });
    let (xp, wp) = (Param::new(x.clone()), Param::new(w3.clone()));
    let (xc, wc) = (Var::constant(x.clone()), Var::constant(w3.clone()));
    g.bench_function("3x3 [8,64,56,56] forward+backward, input gradient", |b| {
        b.iter(|| {
            let tape = Tape::new();
            let xv = tape.watch(&xp);
            black_box(xv.conv2d(&wc, NoBias, args(1, 1, 1)).sum().backward());
        })
    });
    g.bench_function("3x3 [8,64,56,56] forward+backward, weight gradient", |b| {
        b.iter(|| {
            let tape = Tape::new();
            let wv = tape.watch(&wp);
            black_box(xc.conv2d(&wv, NoBias, args(1, 1, 1)).sum().backward());
        })
    });
    let (x2, w2s, b2) = (Param::new(t(&[360, 8, 4, 4], 4)), Param::new(t(&[16, 8, 3, 3], 5)), Param::new(t(&[16], 6)));
    g.bench_function("digits conv2 [360,8,4,4] 8->16 forward+backward, all gradients", |b| {
        b.iter(|| {
            let tape = Tape::new();
            let (xv, wv, bv) = (tape.watch(&x2), tape.watch(&w2s), tape.watch(&b2));
            black_box(xv.conv2d(&wv, &bv, args(1, 1, 1)).sum().backward());
        })
    });
    g.finish();
}

criterion_group!(benches, conv, conv_shapes);
criterion_main!(benches);
