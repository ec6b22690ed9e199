//! Sliding windows and convolutions (issue 29 item 3): `unfold` and `windows` against explicit
//! slicing (proptest), `conv1d`/`conv2d`/`max_pool2d`/`avg_pool2d`/`adaptive_avg_pool2d`
//! against NumPy references (tests/data/conv_data.rs, from scripts/conv_data.py) and against a
//! direct-loop convolution (proptest), typed output shapes, NaN propagation and the run-time
//! errors.
// Typed result tuples are the point of the static cases.
#![allow(clippy::type_complexity)]
mod common;

#[path = "data/conv_data.rs"]
mod data;

use common::{cases, err};
use proptest::prelude::*;
use shaped::prelude::*;
use shaped::{Conv1dArgs, ConvArgs, ConvT, ConvTransposeArgs, PoolArgs};

fn dyn_tensor(sizes: &[usize], v: &[f64]) -> Tensor<f64, DynShape> {
    Tensor::from_vec(sizes, v.to_vec())
}

/// `|a - b| <= tol * (1 + |b|)` elementwise, NaN where the other is NaN.
fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * (1.0 + y.abs()))
}

// ---- unfold / windows ----------------------------------------------------------------------

#[test]
fn unfold_typed_shapes_and_values() {
    let x: Tensor<i32, Shape![2, 7]> = Tensor::from_vec(&[2, 7], (0..14).collect());
    let u: TensorView<'_, i32, Shape![2, 3, 3]> = x.unfold(Ax::<1>, Const::<3>, Const::<2>);
    assert_eq!(u.to_vec(), [0, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9, 9, 10, 11, 11, 12, 13]);
    assert!(common::same_storage(u.storage(), x.storage()));
    // A Dyn dim stays Dyn.
    let y: Tensor<i32, Shape![_, 4]> = Tensor::from_vec(&[3, 4], (0..12).collect());
    let v: TensorView<'_, i32, Shape![_, 2, 3]> = y.unfold(Ax::<1>, Const::<3>, Const::<1>);
    assert_eq!(v.sizes(), [3, 2, 3]);
    let w: TensorView<'_, i32, Shape![_, 4, 2]> = y.unfold(Ax::<0>, Const::<2>, Const::<1>);
    assert_eq!(w.sizes(), [2, 4, 2]);
    assert_eq!(w.to_vec()[..4], [0, 4, 1, 5]);
    // Size equal to the dim: one window; step past the end: one window.
    let one: TensorView<'_, i32, Shape![2, 1, 7]> = x.unfold(Ax::<1>, Const::<7>, Const::<100>);
    assert_eq!(one.to_vec(), x.to_vec());
}

#[test]
fn unfold_errors() {
    let y: Tensor<f32, Shape![_, 4]> = Tensor::zeros_sized(&[3, 4]);
    let e = err(y.try_unfold(Ax::<0>, Const::<5>, Const::<1>));
    assert!(e.contains("window of size 5") && e.contains("dimension 0 of size 3"), "{e}");
    let d = y.as_dyn();
    assert!(err(d.try_unfold_dyn(1, 2, 0)).contains("step 0"));
    assert!(err(d.try_unfold_dyn(2, 1, 1)).contains("axis"));
    let r6: Tensor<f32, DynShape> = Tensor::zeros_sized(&[1, 1, 1, 1, 1, 2]);
    assert!(matches!(r6.try_unfold_dyn(5, 1, 1), Err(ShapeError::RankTooLarge { rank: 7 })));
    // Size 0 (PyTorch allows it): an empty window dim.
    assert_eq!(d.unfold_dyn(1, 0, 2).sizes(), [3, 3, 0]);
}

#[test]
#[should_panic(expected = "unfold: a window of size 5")]
fn unfold_panics_with_the_message() {
    let y: Tensor<f32, Shape![_, 4]> = Tensor::zeros_sized(&[3, 4]);
    let _ = y.unfold(Ax::<0>, Const::<5>, Const::<1>);
}

#[test]
fn windows_typed_and_dyn() {
    let x: Tensor<i32, Shape![3, 4]> = Tensor::from_vec(&[3, 4], (0..12).collect());
    let w: TensorView<'_, i32, Shape![2, 2, 2, 3]> = x.windows::<Shape![2, 3]>();
    assert_eq!(w.select(Ax::<0>, 1).select(Ax::<0>, 1).to_vec(), [5, 6, 7, 9, 10, 11]);
    let d = x.as_dyn().windows_dyn(&[3, 1]);
    assert_eq!(d.sizes(), [1, 4, 3, 1]);
    assert!(err(x.try_windows_dyn(&[4, 1])).contains("does not fit"));
    assert!(err(x.try_windows_dyn(&[0, 1])).contains("does not fit"));
    assert!(err(x.try_windows_dyn(&[1])).contains("does not fit"));
    let r4: Tensor<i32, DynShape> = Tensor::zeros_sized(&[2, 2, 2, 2]);
    assert!(matches!(r4.try_windows_dyn(&[1, 1, 1, 1]), Err(ShapeError::RankTooLarge { rank: 8 })));
}

fn sizes_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..6, 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256, 8), failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence }, ..ProptestConfig::default() })]

    /// `unfold(axis, size, step)`'s window `j` is `narrow(axis, j * step, size)` with the axis
    /// moved last, on contiguous and transposed sources.
    #[test]
    fn unfold_equals_slicing(sizes in sizes_strategy(), axis_pick in 0usize..3, size in 0usize..7,
                             step in 1usize..4, transpose in any::<bool>()) {
        let n: usize = sizes.iter().product();
        let base: Tensor<i64, DynShape> = Tensor::from_vec(&sizes, (0..n as i64).collect());
        let r = sizes.len();
        let x = if transpose && r > 1 { base.transpose(0, r as isize - 1) } else { base.as_dyn() };
        let axis = axis_pick % r;
        let dim = x.sizes()[axis];
        let u = x.try_unfold_dyn(axis as isize, size, step);
        if size > dim {
            prop_assert!(u.is_err());
        } else {
            let u = u.unwrap();
            let count = (dim - size) / step + 1;
            prop_assert_eq!(u.sizes()[axis], count);
            prop_assert_eq!(u.sizes()[r], size);
            for j in 0..count {
                let want = x.narrow(axis as isize, (j * step) as isize, size).movedim(axis as isize, -1).to_vec();
                prop_assert_eq!(u.select(axis as isize, j as isize).to_vec(), want);
            }
        }
    }

    /// `windows(w)` at window start `s` is the slice `s..s + w` of every dim.
    #[test]
    fn windows_equal_slicing(sizes in prop::collection::vec(1usize..5, 1..=3), seed in prop::collection::vec(0usize..5, 3)) {
        let n: usize = sizes.iter().product();
        let x: Tensor<i64, DynShape> = Tensor::from_vec(&sizes, (0..n as i64).collect());
        let win: Vec<usize> = sizes.iter().zip(&seed).map(|(&n, &s)| 1 + s % n).collect();
        let w = x.windows_dyn(&win);
        let starts: Vec<usize> = sizes.iter().zip(&win).map(|(&n, &k)| n - k + 1).collect();
        for p in 0..starts.iter().product::<usize>() {
            let at = common::unravel(p, &starts);
            let want: Vec<SliceArg> = at.iter().zip(&win).map(|(&s, &k)| SliceArg::range(s as isize..(s + k) as isize, 1)).collect();
            let got: Vec<SliceArg> = at.iter().map(|&s| SliceArg::Index(s as isize)).collect();
            let got = w.slice(&got);
            prop_assert_eq!(got.sizes(), &win[..]);
            prop_assert_eq!(got.to_vec(), x.slice(&want).to_vec());
        }
    }
}

// ---- convolutions against NumPy ------------------------------------------------------------

fn conv2d_case(c: &data::Conv2dCase) -> Tensor<f64, DynShape> {
    let x = dyn_tensor(&c.x.0, c.x.1);
    let w = dyn_tensor(&c.w.0, c.w.1);
    let args = ConvArgs { stride: c.stride, padding: c.padding, dilation: c.dilation, groups: c.groups };
    match c.bias {
        Some(b) => x.conv2d(&w, &dyn_tensor(&[b.len()], b), args),
        None => x.conv2d(&w, NoBias, args),
    }
}

#[test]
fn conv2d_matches_numpy() {
    for (i, c) in data::CONV2D.iter().enumerate() {
        let y = conv2d_case(c);
        assert_eq!(y.sizes(), c.y.0, "case {i}");
        assert!(close(&y.to_vec(), c.y.1, 1e-12), "case {i}: {:?} vs {:?}", y.to_vec(), c.y.1);
    }
}

/// Many small images (the batched im2col: several images per product, a last block of another
/// size, blocks on the thread pool) against each image convolved alone (one image per product).
#[test]
fn batched_small_images_equal_each_image_alone() {
    let (n, c, h, w) = (1000usize, 4usize, 5usize, 5usize);
    let x = dyn_tensor(
        &[n, c, h, w],
        &(0..n * c * h * w).map(|k| ((k * 37 % 101) as f64 - 50.0) / 25.0).collect::<Vec<_>>(),
    );
    let wt = dyn_tensor(&[6, 2, 3, 3], &(0..108).map(|k| ((k * 13 % 17) as f64 - 8.0) / 9.0).collect::<Vec<_>>());
    let b = dyn_tensor(&[6], &[0.5, -1.0, 0.25, 2.0, -0.75, 1.5]);
    let args = ConvArgs { stride: [1, 2], padding: [1, 1], dilation: [1, 1], groups: 2 };
    let all = x.conv2d(&wt, &b, args);
    let per = all.sizes()[1..].iter().product::<usize>();
    let got = all.to_vec();
    for i in [0, 1, 2, 63, 500, 998, 999] {
        let one = t!(x[i..i + 1]).to_owned().conv2d(&wt, &b, args);
        assert!(close(&got[i * per..(i + 1) * per], &one.to_vec(), 1e-13), "image {i}");
    }
}

/// The digits' second layer at a batch large enough for the pool: small images take the product
/// by the unrolled weight, split in blocks of images across the threads; each image agrees with
/// its convolution alone (one image takes the im2col path), the blocks' edges (63 images) too.
#[test]
fn unrolled_blocks_equal_each_image_alone() {
    let (n, c, h, w) = (400usize, 8usize, 4usize, 4usize);
    let x = dyn_tensor(
        &[n, c, h, w],
        &(0..n * c * h * w).map(|k| ((k * 29 % 97) as f64 - 48.0) / 24.0).collect::<Vec<_>>(),
    );
    let wt = dyn_tensor(&[16, 8, 3, 3], &(0..1152).map(|k| ((k * 11 % 19) as f64 - 9.0) / 10.0).collect::<Vec<_>>());
    let b = dyn_tensor(&[16], &(0..16).map(|k| k as f64 / 8.0 - 1.0).collect::<Vec<_>>());
    let args = ConvArgs { stride: [1, 1], padding: [1, 1], dilation: [1, 1], groups: 1 };
    let all = x.conv2d(&wt, &b, args);
    let per = all.sizes()[1..].iter().product::<usize>();
    let got = all.to_vec();
    for i in [0, 1, 62, 63, 125, 126, 398, 399] {
        let one = t!(x[i..i + 1]).to_owned().conv2d(&wt, &b, args);
        assert!(close(&got[i * per..(i + 1) * per], &one.to_vec(), 1e-13), "image {i}");
    }
}

#[test]
fn conv2d_non_contiguous_operands_and_f32() {
    for (i, c) in data::CONV2D.iter().enumerate() {
        // The input stored as [N, H, W, C] and permuted back: a strided view.
        let [n, ch, h, w] = c.x.0;
        let x = dyn_tensor(&c.x.0, c.x.1);
        let nhwc = x.permute([0, 2, 3, 1]).contiguous().into_owned();
        let xv = nhwc.permute([0, 3, 1, 2]);
        assert_eq!(xv.sizes(), [n, ch, h, w]);
        let wt = dyn_tensor(&c.w.0, c.w.1);
        let args = ConvArgs { stride: c.stride, padding: c.padding, dilation: c.dilation, groups: c.groups };
        let y = match c.bias {
            Some(b) => xv.conv2d(&wt, Some(&dyn_tensor(&[b.len()], b)), args),
            None => xv.conv2d(&wt, None::<&Tensor<f64, DynShape>>, args),
        };
        assert!(close(&y.to_vec(), c.y.1, 1e-12), "case {i}");
        // f32: within f32 rounding of the f64 values.
        let (x32, w32) = (x.cast::<f32>(), wt.cast::<f32>());
        let y32 = match c.bias {
            Some(b) => x32.conv2d(&w32, &dyn_tensor(&[b.len()], b).cast::<f32>(), args),
            None => x32.conv2d(&w32, NoBias, args),
        };
        let y32: Vec<f64> = y32.to_vec().into_iter().map(f64::from).collect();
        assert!(close(&y32, c.y.1, 1e-4), "case {i} (f32)");
    }
}

#[test]
fn conv2d_typed_static_output() {
    let c = &data::CONV2D[0]; // [2, 3, 5, 6] * [4, 3, 3, 3], stride 1, padding 0, bias
    let x: Tensor<f64, Shape![2, 3, 5, 6]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![4, 3, 3, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let b: Tensor<f64, Shape![4]> = Tensor::from_vec(&[4], c.bias.unwrap().to_vec());
    let y: Tensor<f64, Shape![2, 4, 3, 4]> = x.conv2d(&w, &b, Conv::<1, 0, 1, 1>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
    // Padding 1: the same spatial size; the batch dim may be Dyn.
    let c = &data::CONV2D[1]; // the same sizes, padding 1, no bias
    let xd: Tensor<f64, Shape![_, 3, 5, 6]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![4, 3, 3, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let y: Tensor<f64, Shape![_, 4, 5, 6]> = xd.conv2d(&w, NoBias, Conv::<1, 1>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
    // Strided, padded, grouped, dilated: case 3 has per-dim hyper-parameters, case 2 is uniform.
    let c = &data::CONV2D[2]; // [1, 4, 7, 7] * [6, 2, 3, 3], stride 2, padding 1, groups 2
    let x: Tensor<f64, Shape![1, 4, 7, 7]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![6, 2, 3, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let b: Tensor<f64, Shape![6]> = Tensor::from_vec(&[6], c.bias.unwrap().to_vec());
    let y: Tensor<f64, Shape![1, 6, 4, 4]> = x.conv2d(&w, Some(&b), Conv::<2, 1, 1, 2>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
    // A Dyn spatial dim makes that output dim Dyn.
    let x: Tensor<f64, Shape![1, 4, _, 7]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let y: Tensor<f64, Shape![1, 6, _, 4]> = x.conv2d(&w, &b, Conv::<2, 1, 1, 2>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
}

#[test]
fn conv1d_matches_numpy() {
    for (i, c) in data::CONV1D.iter().enumerate() {
        let x = dyn_tensor(&c.x.0, c.x.1);
        let w = dyn_tensor(&c.w.0, c.w.1);
        let args = Conv1dArgs { stride: c.stride, padding: c.padding, dilation: c.dilation, groups: c.groups };
        let y = match c.bias {
            Some(b) => x.conv1d(&w, &dyn_tensor(&[b.len()], b), args),
            None => x.conv1d(&w, NoBias, args),
        };
        assert_eq!(y.sizes(), c.y.0, "case {i}");
        assert!(close(&y.to_vec(), c.y.1, 1e-12), "case {i}");
    }
    // Typed: [2, 3, 10] * [4, 3, 3] -> [2, 4, 8].
    let c = &data::CONV1D[0];
    let x: Tensor<f64, Shape![2, 3, 10]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![4, 3, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let b: Tensor<f64, Shape![4]> = Tensor::from_vec(&[4], c.bias.unwrap().to_vec());
    let y: Tensor<f64, Shape![2, 4, 8]> = x.conv1d(&w, &b, Conv::<1>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
    // [1, 4, 9] * [2, 2, 3], stride 2, padding 2, dilation 2, groups 2 -> [1, 2, 5].
    let c = &data::CONV1D[1];
    let x: Tensor<f64, Shape![1, 4, 9]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![2, 2, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let y: Tensor<f64, Shape![1, 2, 5]> = x.conv1d(&w, NoBias, Conv::<2, 2, 2, 2>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
}

// ---- pooling against NumPy -----------------------------------------------------------------

#[test]
fn pools_match_numpy() {
    for (i, c) in data::POOL.iter().enumerate() {
        let x = dyn_tensor(&c.x.0, c.x.1);
        let args = PoolArgs { kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: c.dilation };
        let (m, idx) = x.max_pool2d_with_indices(args);
        assert_eq!(m.sizes(), c.out, "case {i}");
        assert!(close(&m.to_vec(), c.max, 0.0), "case {i}: {:?} vs {:?}", m.to_vec(), c.max);
        assert_eq!(idx.to_vec(), c.argmax, "case {i}");
        assert!(close(&x.max_pool2d(args).to_vec(), c.max, 0.0));
        if c.dilation == [1, 1] {
            assert!(close(&x.avg_pool2d(args, true).to_vec(), c.avg_incl, 1e-12), "case {i}");
            assert!(close(&x.avg_pool2d(args, false).to_vec(), c.avg_excl, 1e-12), "case {i}");
        }
    }
}

#[test]
fn max_pool_propagates_nan() {
    // Case 2 holds NaNs: every window that reads one is NaN.
    let c = &data::POOL[2];
    assert!(c.max.iter().any(|v| v.is_nan()));
    let x: Tensor<f32, DynShape> = dyn_tensor(&c.x.0, c.x.1).cast::<f32>();
    let args = PoolArgs { kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: c.dilation };
    let m = x.max_pool2d(args);
    for (a, b) in m.to_vec().iter().zip(c.max) {
        assert_eq!(a.is_nan(), b.is_nan());
    }
}

/// The sign of zero follows PyTorch's order (window rows, then columns): max pooling keeps the
/// first of equal zeros, average pooling's sum starts at +0 (so four -0 average to +0). Checked on
/// the 2x2 stride 2 window, which has a kernel of its own, and on 2x3 for the general one.
#[test]
fn pools_keep_pytorchs_signed_zeros() {
    let x: Tensor<f32, Shape![1, 1, 2, 4]> =
        Tensor::from_vec(&[1, 1, 2, 4], vec![-0.0, 0.0, 0.0, -0.0, 0.0, 0.0, -0.0, -0.0]);
    let m = x.max_pool2d(Pool::<2>).to_vec();
    assert_eq!((m[0].is_sign_negative(), m[1].is_sign_negative()), (true, false)); // torch: [-0., 0.]
    let a = x.avg_pool2d(Pool::<2>, true).to_vec();
    assert!(a.iter().all(|v| *v == 0.0 && v.is_sign_positive()));
    let args = PoolArgs { kernel: [2, 3], stride: [2, 1], padding: [0, 0], dilation: [1, 1] };
    let m = x.clone().into_dyn().max_pool2d(args);
    let signs: Vec<bool> = m.to_vec().iter().map(|v| v.is_sign_negative()).collect();
    assert_eq!(signs, [true, false]);
    // A window of a number and NaNs is NaN, whichever element the NaN is.
    let x: Tensor<f32, Shape![1, 1, 2, 4]> =
        Tensor::from_vec(&[1, 1, 2, 4], vec![1.0, f32::NAN, 5.0, 6.0, f32::NAN, 2.0, 7.0, f32::NAN]);
    let m = x.max_pool2d(Pool::<2>).to_vec();
    assert!(m[0].is_nan() && m[1].is_nan());
}

#[test]
fn pools_typed() {
    let c = &data::POOL[0]; // [2, 3, 6, 6], kernel 2, stride 2
    let x: Tensor<f64, Shape![2, 3, 6, 6]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let m: Tensor<f64, Shape![2, 3, 3, 3]> = x.max_pool2d(Pool::<2, 2>);
    assert!(close(&m.to_vec(), c.max, 0.0));
    let (m, i): (Tensor<f64, Shape![2, 3, 3, 3]>, Tensor<i64, Shape![2, 3, 3, 3]>) =
        x.max_pool2d_with_indices(Pool::<2, 2>);
    assert!(close(&m.to_vec(), c.max, 0.0));
    assert_eq!(i.to_vec(), c.argmax);
    let a: Tensor<f64, Shape![2, 3, 3, 3]> = x.avg_pool2d(Pool::<2, 2>, true);
    assert!(close(&a.to_vec(), c.avg_incl, 1e-12));
    let c = &data::POOL[1]; // [1, 2, 7, 5], kernel 3, stride 2, padding 1
    let x: Tensor<f64, Shape![1, 2, 7, _]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let a: Tensor<f64, Shape![1, 2, 4, _]> = x.avg_pool2d(Pool::<3, 2, 1>, false);
    assert!(close(&a.to_vec(), c.avg_excl, 1e-12));
    // A global average: [N, C, 1, 1], whose size-1 dims broadcast.
    let g: Tensor<f64, Shape![1, 2, 1, 1]> = x.adaptive_avg_pool2d::<1, 1>();
    for (p, &v) in g.to_vec().iter().enumerate() {
        let plane = &c.x.1[p * 35..(p + 1) * 35];
        let mean = plane.iter().sum::<f64>() / 35.0;
        assert!((v - mean).abs() <= 1e-15 * (1.0 + mean.abs()), "plane {p}: {v} against {mean}");
    }
    let centred: Tensor<f64, Shape![1, 2, 7, _]> = &x - &g;
    assert_eq!(centred.sizes(), [1, 2, 7, 5]);
}

/// Issue 35: `Pool::<K>` strides by the kernel size, as PyTorch's `F.max_pool2d(x, K)`
/// (`stride=None`); `Pool::<K, 0>` is the same, and the output shape type follows.
#[test]
fn pool_stride_defaults_to_the_kernel() {
    let c = &data::POOL[0]; // [2, 3, 6, 6], kernel 2, stride 2
    let x: Tensor<f64, Shape![2, 3, 6, 6]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let m: Tensor<f64, Shape![2, 3, 3, 3]> = x.max_pool2d(Pool::<2>);
    assert!(close(&m.to_vec(), c.max, 0.0));
    let (_, i): (_, Tensor<i64, Shape![2, 3, 3, 3]>) = x.max_pool2d_with_indices(Pool::<2, 0>);
    assert_eq!(i.to_vec(), c.argmax);
    let a: Tensor<f64, Shape![2, 3, 3, 3]> = x.avg_pool2d(Pool::<2>, true);
    assert!(close(&a.to_vec(), c.avg_incl, 1e-12));
    // torch.nn.functional.max_pool2d(arange(16.).reshape(1, 1, 4, 4), 3): one window (stride 3).
    let y = Tensor::<f64, Shape![1, 1, 4, 4]>::from_vec(&[1, 1, 4, 4], (0..16).map(f64::from).collect());
    let m: Tensor<f64, Shape![1, 1, 1, 1]> = y.max_pool2d(Pool::<3>);
    assert_eq!(m.to_vec(), [10.0]);
    let m: Tensor<f64, Shape![1, 1, 2, 2]> = y.max_pool2d(Pool::<3, 1>);
    assert_eq!(m.to_vec(), [10.0, 11.0, 14.0, 15.0]);
    // Padding with the default stride: (4 + 2 - 3) / 3 + 1 = 2.
    let m: Tensor<f64, Shape![1, 1, 2, 2]> = y.max_pool2d(Pool::<3, 0, 1>);
    assert_eq!(m.to_vec(), [5.0, 7.0, 13.0, 15.0]);
    let d = y.as_dyn();
    assert_eq!(d.max_pool2d(Pool::<3>).sizes(), [1, 1, 1, 1]);
    assert_eq!(Pool::<3>.args(), PoolArgs::new([3, 3]));
    assert_eq!(Pool::<3, 0, 1>.args().stride, [3, 3]);
}

#[test]
fn adaptive_avg_pool_matches_numpy() {
    for (i, ((xs, xv), o, want)) in data::ADAPTIVE.iter().enumerate() {
        let x = dyn_tensor(xs, xv);
        let y = x.adaptive_avg_pool2d_dyn(*o);
        assert_eq!(y.sizes(), [xs[0], xs[1], o[0], o[1]], "case {i}");
        assert!(close(&y.to_vec(), want, 1e-12), "case {i}");
    }
}

// ---- errors --------------------------------------------------------------------------------

#[test]
fn conv_errors_name_the_shapes() {
    let x: Tensor<f32, DynShape> = Tensor::zeros_sized(&[1, 4, 5, 5]);
    let w: Tensor<f32, DynShape> = Tensor::zeros_sized(&[6, 3, 3, 3]);
    let a = ConvArgs::default();
    let e = err(x.try_conv2d(&w, NoBias, a));
    assert!(e.contains("[1, 4, 5, 5]") && e.contains("[6, 3, 3, 3]") && e.contains("groups 1"), "{e}");
    let w2: Tensor<f32, DynShape> = Tensor::zeros_sized(&[6, 2, 3, 3]);
    assert!(err(x.try_conv2d(&w2, NoBias, ConvArgs { groups: 4, ..a })).contains("groups 4"));
    let w3: Tensor<f32, DynShape> = Tensor::zeros_sized(&[3, 2, 3, 3]);
    assert!(err(x.try_conv2d(&w3, NoBias, ConvArgs { groups: 2, ..a })).contains("divide the output channels (3)"));
    assert!(err(x.try_conv2d(&w2, NoBias, ConvArgs { groups: 0, ..a })).contains("groups 0"));
    let w4: Tensor<f32, DynShape> = Tensor::zeros_sized(&[6, 4, 7, 3]);
    let e = err(x.try_conv2d(&w4, NoBias, a));
    assert!(e.contains("no output height: input height 5 with padding 0, kernel 7"), "{e}");
    assert!(x.try_conv2d(&w4, NoBias, ConvArgs { padding: [1, 0], ..a }).is_ok());
    let w5: Tensor<f32, DynShape> = Tensor::zeros_sized(&[6, 4, 3, 3]);
    assert!(err(x.try_conv2d(&w5, NoBias, ConvArgs { stride: [1, 0], ..a })).contains("stride 0"));
    assert!(err(x.try_conv2d(&w5, NoBias, ConvArgs { dilation: [0, 1], ..a })).contains("dilation 0"));
    let b: Tensor<f32, DynShape> = Tensor::zeros_sized(&[5]);
    assert!(err(x.try_conv2d(&w5, &b, a)).contains("bias of sizes [5] for 6 output channels"));
    let x3: Tensor<f32, DynShape> = Tensor::zeros_sized(&[4, 5, 5]);
    assert!(err(x3.try_conv2d(&w5, NoBias, a)).contains("[N, C, H, W]"));
    assert!(err(x.try_conv1d(&w5, NoBias, Conv1dArgs::default())).contains("[N, C, L]"));
    // Padding past isize: an error, not a wrap.
    assert!(x.try_conv2d(&w5, NoBias, ConvArgs { padding: [usize::MAX / 2, 0], ..a }).is_err());
    // Typed, with Dyn dims: the run-time check.
    let xd: Tensor<f32, Shape![1, _, 5, 5]> = Tensor::zeros_sized(&[1, 3, 5, 5]);
    let wd: Tensor<f32, Shape![6, 4, 3, 3]> = Tensor::zeros();
    assert!(err(xd.try_conv2d(&wd, NoBias, Conv::<1>)).contains("input channels (3)"));
}

#[test]
#[should_panic(expected = "conv2d: input [1, 3, 5, 5] and weights [6, 4, 3, 3] with groups 1")]
fn conv_panics_with_the_message() {
    let xd: Tensor<f32, Shape![1, _, 5, 5]> = Tensor::zeros_sized(&[1, 3, 5, 5]);
    let wd: Tensor<f32, Shape![6, 4, 3, 3]> = Tensor::zeros();
    let _ = xd.conv2d(&wd, NoBias, Conv::<1>);
}

#[test]
fn pool_errors() {
    let x: Tensor<f64, DynShape> = Tensor::zeros_sized(&[1, 1, 4, 4]);
    let e = err(x.try_max_pool2d(PoolArgs { padding: [2, 0], ..PoolArgs::new([3, 3]) }));
    assert!(e.contains("padding [2, 0] must be at most half"), "{e}");
    assert!(err(x.try_max_pool2d(PoolArgs::new([5, 5]))).contains("no output height"));
    assert!(err(x.try_max_pool2d(PoolArgs::new([0, 1]))).contains("at most half"));
    assert!(err(x.try_max_pool2d(PoolArgs { stride: [0, 1], ..PoolArgs::new([2, 2]) })).contains("stride 0"));
    assert!(err(x.try_avg_pool2d(PoolArgs { dilation: [2, 2], ..PoolArgs::new([2, 2]) }, true)).contains("dilation"));
    let x3: Tensor<f64, DynShape> = Tensor::zeros_sized(&[1, 4, 4]);
    assert!(err(x3.try_max_pool2d(PoolArgs::new([2, 2]))).contains("[N, C, H, W]"));
    assert!(err(x3.try_adaptive_avg_pool2d_dyn([1, 1])).contains("[N, C, H, W]"));
    let e0: Tensor<f64, DynShape> = Tensor::zeros_sized(&[1, 1, 0, 4]);
    assert!(err(e0.try_adaptive_avg_pool2d_dyn([1, 1])).contains("empty input plane"));
    // Empty batch: empty results.
    let nb: Tensor<f64, DynShape> = Tensor::zeros_sized(&[0, 2, 4, 4]);
    assert_eq!(nb.max_pool2d_with_indices(PoolArgs::new([2, 2])).0.sizes(), [0, 2, 2, 2]);
    let w: Tensor<f64, DynShape> = Tensor::zeros_sized(&[3, 2, 3, 3]);
    assert_eq!(nb.conv2d(&w, NoBias, ConvArgs::default()).sizes(), [0, 3, 2, 2]);
}

// ---- conv2d against a direct loop (proptest) -----------------------------------------------

/// The hyper-parameters `(stride, padding, dilation, groups)` as a [`ConvArgs`].
fn conv_args(stride: [usize; 2], padding: [usize; 2], dilation: [usize; 2], groups: usize) -> ConvArgs {
    ConvArgs { stride, padding, dilation, groups }
}

/// `conv2d` by its definition, one output element at a time.
/// `conv2d` of an `xs` input by `ws` weights (values `value(i, k)` for element `i`, `k` telling the
/// operands apart) against the direct loop: with a bias, without, and in f32 (exact for values
/// that are integers times halves).
fn agrees_with_direct_loop(xs: [usize; 4], ws: [usize; 4], a: ConvArgs, value: impl Fn(usize, usize) -> f64) {
    let fill = |len: usize, k: usize| -> Vec<f64> { (0..len).map(|i| value(i, k)).collect() };
    let (xv, wv, bv) = (fill(xs.iter().product(), 1), fill(ws.iter().product(), 3), fill(ws[0], 5));
    let (x, w) = (dyn_tensor(&xs, &xv), dyn_tensor(&ws, &wv));
    let y = x.conv2d(&w, &dyn_tensor(&[ws[0]], &bv), a);
    let os: [usize; 4] = y.sizes().try_into().unwrap();
    assert_eq!(y.to_vec(), reference(&xv, xs, &wv, ws, Some(&bv), a, os), "{xs:?} by {ws:?}");
    let want = reference(&xv, xs, &wv, ws, None, a, os);
    assert_eq!(x.conv2d(&w, NoBias, a).to_vec(), want, "{xs:?} by {ws:?}, no bias");
    let y32 = x.cast::<f32>().conv2d(&w.cast::<f32>(), NoBias, a);
    assert_eq!(y32.to_vec(), want.iter().map(|&v| v as f32).collect::<Vec<_>>(), "{xs:?} by {ws:?}, f32");
}

/// Large images (one image's im2col columns past a tile), stride 1 and 2, with groups, against
/// the direct loop: integers, exact. In f64 and f32 they take the product without im2col; in
/// i64 (a product that cannot write strided blocks) im2col in tiles of output rows, the last one
/// shorter.
#[test]
fn large_images_in_tiles_equal_direct_loop() {
    for (xs, ws, a) in [
        ([2, 16, 37, 41], [8, 16, 3, 3], ConvArgs { stride: [1, 1], padding: [1, 1], dilation: [1, 1], groups: 1 }),
        ([1, 8, 75, 70], [4, 4, 3, 5], ConvArgs { stride: [2, 1], padding: [2, 1], dilation: [1, 2], groups: 2 }),
    ] {
        let value = |i: usize, k: usize| ((i * 7 + k) % 9) as f64 - 4.0;
        agrees_with_direct_loop(xs, ws, a, value);
        let fill = |len: usize, k: usize| -> Vec<f64> { (0..len).map(|i| value(i, k)).collect() };
        let (xv, wv) = (fill(xs.iter().product(), 1), fill(ws.iter().product(), 3));
        let (x, w) = (dyn_tensor(&xs, &xv).cast::<i64>(), dyn_tensor(&ws, &wv).cast::<i64>());
        let y = x.conv2d(&w, NoBias, a);
        let os: [usize; 4] = y.sizes().try_into().unwrap();
        let want: Vec<i64> = reference(&xv, xs, &wv, ws, None, a, os).iter().map(|&v| v as i64).collect();
        assert_eq!(y.to_vec(), want, "{xs:?} by {ws:?}, i64");
    }
}

/// Large images with a stride take the product without im2col over planes split by phase (each
/// window offset reads the phase plane of its row and column remainders): stride 2 with padding,
/// stride 3 by 2 with dilation, groups and uneven padding, windows smaller than the stride (1x1
/// at stride 2, 2x2 at stride 3, so that some phases are never read), with and without bias, f64
/// and f32, against the direct loop (integers times halves: exact).
#[test]
fn large_strided_images_equal_direct_loop() {
    for (xs, ws, a) in [
        ([1, 32, 57, 60], [20, 32, 3, 3], conv_args([2, 2], [1, 1], [1, 1], 1)),
        ([2, 32, 70, 61], [6, 16, 3, 5], conv_args([3, 2], [2, 1], [2, 1], 2)),
        ([1, 256, 50, 51], [3, 256, 1, 1], conv_args([2, 2], [0, 0], [1, 1], 1)),
        ([1, 128, 61, 47], [5, 128, 2, 2], conv_args([3, 3], [1, 0], [1, 1], 1)),
    ] {
        agrees_with_direct_loop(xs, ws, a, |i, k| ((i * 5 + k) % 9) as f64 * 0.5 - 2.0);
    }
}

/// Large images with stride 1 take the product without im2col (zero-bordered planes, one
/// accumulated product per window offset, output rows in tiles): several tiles with a short last
/// one (64 output channels), groups with dilation and uneven padding, no padding, a 1x1 window
/// under padding, with and without bias, f64 and f32, against the direct loop (integers times
/// halves: exact).
#[test]
fn large_stride_one_images_equal_direct_loop() {
    let args = |padding: [usize; 2], dilation: [usize; 2], groups: usize| ConvArgs {
        stride: [1, 1],
        padding,
        dilation,
        groups,
    };
    for (xs, ws, a) in [
        ([1, 16, 37, 58], [64, 16, 3, 3], args([1, 1], [1, 1], 1)),
        ([2, 12, 40, 50], [6, 6, 3, 5], args([0, 2], [2, 1], 2)),
        ([1, 16, 40, 40], [4, 16, 3, 3], args([0, 0], [1, 1], 1)),
        ([1, 160, 30, 30], [3, 160, 1, 1], args([1, 1], [1, 1], 1)),
    ] {
        agrees_with_direct_loop(xs, ws, a, |i, k| ((i * 7 + k) % 9) as f64 * 0.5 - 2.0);
    }
}

/// Small images with stride 1 (the unrolled product): more than 16 output channels, more than 16
/// output positions, padding and dilation that differ by dim, with and without bias, f64 and f32,
/// against the direct loop (exact).
#[test]
fn small_images_with_many_channels_equal_direct_loop() {
    let args = |padding: [usize; 2], dilation: [usize; 2]| ConvArgs { stride: [1, 1], padding, dilation, groups: 1 };
    for (xs, ws, a) in [
        ([9, 3, 3, 3], [20, 3, 3, 3], args([1, 1], [1, 1])),
        ([8, 2, 5, 5], [17, 2, 4, 4], args([2, 2], [1, 1])),
        ([8, 2, 6, 6], [18, 2, 4, 5], args([2, 1], [2, 1])),
    ] {
        agrees_with_direct_loop(xs, ws, a, |i, k| ((i * 5 + k) % 11) as f64 * 0.5 - 2.5);
    }
}

/// Edge geometries of the new paths against the direct loop: a depthwise window wider than the
/// direct kernel takes (17 columns, so im2col), a 1x1 depthwise image under padding 2 (every
/// output but the centre reads only padding), a depthwise channel multiplier with stride 2, and
/// unrolled products of 2x2 images with stride, padding and dilation, and of 1x1 images.
#[test]
fn edge_geometries_equal_direct_loop() {
    let args = conv_args;
    for (xs, ws, a) in [
        ([1, 2, 3, 20], [2, 1, 1, 17], args([1, 1], [0, 8], [1, 1], 2)),
        ([9, 3, 1, 1], [3, 1, 3, 3], args([1, 1], [2, 2], [1, 1], 3)),
        ([2, 2, 9, 11], [6, 1, 3, 3], args([2, 2], [1, 0], [1, 2], 2)),
        ([8, 3, 2, 2], [4, 3, 2, 2], args([2, 1], [2, 1], [2, 1], 1)),
        ([10, 5, 1, 1], [7, 5, 1, 1], args([1, 1], [1, 1], [1, 1], 1)),
    ] {
        agrees_with_direct_loop(xs, ws, a, |i, k| ((i * 5 + k) % 7) as f64 * 0.5 - 1.5);
    }
}

#[allow(clippy::too_many_arguments)]
fn reference(
    x: &[f64],
    xs: [usize; 4],
    w: &[f64],
    ws: [usize; 4],
    b: Option<&[f64]>,
    a: ConvArgs,
    os: [usize; 4],
) -> Vec<f64> {
    let [n, c, h, wd] = xs;
    let [o, cg, kh, kw] = ws;
    let og = o / a.groups;
    let mut y = vec![0.0; os.iter().product()];
    for img in 0..n {
        for oc in 0..o {
            let g = oc / og;
            for i in 0..os[2] {
                for j in 0..os[3] {
                    let mut acc = b.map_or(0.0, |b| b[oc]);
                    for ci in 0..cg {
                        for u in 0..kh {
                            for v in 0..kw {
                                let iy = (i * a.stride[0] + u * a.dilation[0]) as isize - a.padding[0] as isize;
                                let ix = (j * a.stride[1] + v * a.dilation[1]) as isize - a.padding[1] as isize;
                                if iy < 0 || ix < 0 || iy as usize >= h || ix as usize >= wd {
                                    continue;
                                }
                                let xi = ((img * c + g * cg + ci) * h + iy as usize) * wd + ix as usize;
                                acc += w[((oc * cg + ci) * kh + u) * kw + v] * x[xi];
                            }
                        }
                    }
                    y[((img * o + oc) * os[2] + i) * os[3] + j] = acc;
                }
            }
        }
    }
    y
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(128, 4), failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence }, ..ProptestConfig::default() })]

    /// Batches of 8 or more small images take the unrolled-weight product, fewer the im2col.
    #[test]
    fn conv2d_equals_direct_loop(
        n in prop_oneof![1usize..3, 8usize..10], groups in 1usize..4, cg in 1usize..3, og in 1usize..3,
        h in 1usize..8, w in 1usize..8, kh in 1usize..4, kw in 1usize..4,
        stride in (1usize..4, 1usize..4), padding in (0usize..3, 0usize..3), dilation in (1usize..3, 1usize..3),
        bias in any::<bool>(), seed in prop::collection::vec(-4i32..5, 64),
    ) {
        let (c, o) = (cg * groups, og * groups);
        let a = ConvArgs { stride: [stride.0, stride.1], padding: [padding.0, padding.1], dilation: [dilation.0, dilation.1], groups };
        let fill = |len: usize, k: usize| -> Vec<f64> { (0..len).map(|i| seed[(i * 7 + k) % seed.len()] as f64 * 0.5).collect() };
        let xs = [n, c, h, w];
        let ws = [o, cg, kh, kw];
        let xv = fill(xs.iter().product(), 1);
        let wv = fill(ws.iter().product(), 3);
        let bv = fill(o, 5);
        let x = dyn_tensor(&xs, &xv);
        let wt = dyn_tensor(&ws, &wv);
        let b = dyn_tensor(&[o], &bv);
        let r = if bias { x.try_conv2d(&wt, &b, a) } else { x.try_conv2d(&wt, NoBias, a) };
        let oh = (h + 2 * a.padding[0]).checked_sub(a.dilation[0] * (kh - 1) + 1).map(|v| v / a.stride[0] + 1);
        let ow = (w + 2 * a.padding[1]).checked_sub(a.dilation[1] * (kw - 1) + 1).map(|v| v / a.stride[1] + 1);
        match (oh, ow) {
            (Some(oh), Some(ow)) => {
                let y = r.unwrap();
                let os = [n, o, oh, ow];
                prop_assert_eq!(y.sizes(), &os[..]);
                let want = reference(&xv, xs, &wv, ws, bias.then_some(&bv[..]), a, os);
                // Integers times halves: exact in f64 whatever the summation order.
                prop_assert_eq!(y.to_vec(), want);
            }
            _ => prop_assert!(r.is_err()),
        }
    }
}

#[test]
fn unfold_mut_only_for_disjoint_windows() {
    let mut x: Tensor<i32, Shape![2, 6]> = Tensor::zeros();
    {
        let mut w: TensorViewMut<'_, i32, Shape![2, 2, 3]> =
            x.as_view_mut().unfold_mut(Ax::<1>, Const::<3>, Const::<3>);
        w.fill(1);
    }
    assert_eq!(x.to_vec(), [1; 12]);
    x.as_view_mut().unfold_dyn_mut(1, 2, 4).fill(5);
    assert_eq!(x.to_vec(), [5, 5, 1, 1, 5, 5, 5, 5, 1, 1, 5, 5]);
    // Overlapping windows: refused, and the tensor is unchanged.
    let before = x.to_vec();
    assert!(matches!(x.as_view_mut().try_unfold_mut(Ax::<1>, Const::<3>, Const::<2>), Err(ShapeError::Overlap { .. })));
    assert!(matches!(x.as_view_mut().try_unfold_dyn_mut(0, 1, 1).map(|v| v.sizes().to_vec()), Ok(v) if v == [2, 6, 1]));
    assert!(matches!(x.as_view_mut().try_unfold_dyn_mut(1, 2, 1), Err(ShapeError::Overlap { .. })));
    assert_eq!(x.to_vec(), before);
}

// ---- conv_transpose2d ----------------------------------------------------------------------

#[test]
fn conv_transpose2d_matches_numpy() {
    for (i, c) in data::CONVT.iter().enumerate() {
        let x = dyn_tensor(&c.x.0, c.x.1);
        let w = dyn_tensor(&c.w.0, c.w.1);
        let a = ConvTransposeArgs {
            stride: c.stride,
            padding: c.padding,
            output_padding: c.output_padding,
            dilation: c.dilation,
            groups: c.groups,
        };
        let y = match c.bias {
            Some(b) => x.conv_transpose2d(&w, &dyn_tensor(&[b.len()], b), a),
            None => x.conv_transpose2d(&w, NoBias, a),
        };
        assert_eq!(y.sizes(), c.y.0, "case {i}");
        assert!(close(&y.to_vec(), c.y.1, 1e-12), "case {i}");
    }
}

#[test]
fn conv_transpose2d_errors() {
    let x: Tensor<f32, DynShape> = Tensor::zeros_sized(&[1, 4, 3, 3]);
    let w: Tensor<f32, DynShape> = Tensor::zeros_sized(&[3, 2, 3, 3]);
    let a = ConvTransposeArgs::default();
    assert!(
        err(x.try_conv_transpose2d(&w, NoBias, a)).contains("input channels (4) must equal the weight's first dim (3)")
    );
    let w: Tensor<f32, DynShape> = Tensor::zeros_sized(&[4, 2, 3, 3]);
    assert!(err(x.try_conv_transpose2d(&w, NoBias, ConvTransposeArgs { groups: 3, ..a })).contains("groups 3"));
    let e = err(x.try_conv_transpose2d(&w, NoBias, ConvTransposeArgs { output_padding: [1, 0], ..a }));
    assert!(e.contains("output padding 1"), "{e}");
    assert!(err(x.try_conv_transpose2d(&w, NoBias, ConvTransposeArgs { padding: [3, 0], ..a }))
        .contains("no output height"));
    let b: Tensor<f32, DynShape> = Tensor::zeros_sized(&[3]);
    assert!(err(x.try_conv_transpose2d(&w, &b, a)).contains("bias of sizes [3] for 2 output channels"));
    assert_eq!(x.conv_transpose2d(&w, NoBias, ConvTransposeArgs { groups: 2, ..a }).sizes(), [1, 4, 5, 5]);
    // A stride past isize with padding that would cut the output back to a small size: refused,
    // not wrapped.
    let huge = ConvTransposeArgs { stride: [usize::MAX / 2, 1], padding: [usize::MAX / 2, 0], ..a };
    assert!(matches!(x.try_conv_transpose2d(&w, NoBias, huge), Err(ShapeError::Overflow { .. })));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(128, 4), failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence }, ..ProptestConfig::default() })]

    /// `conv_transpose2d` is the adjoint of `conv2d` with the same weights:
    /// `<conv2d(x, w), y> = <x, conv_transpose2d(y, w)>`, with the output padding that gives back
    /// the input's size.
    #[test]
    fn conv_transpose2d_is_the_adjoint_of_conv2d(
        groups in 1usize..3, cg in 1usize..3, og in 1usize..3, h in 1usize..7, w in 1usize..7,
        kh in 1usize..4, kw in 1usize..4, stride in (1usize..4, 1usize..4), padding in (0usize..2, 0usize..2),
        dilation in (1usize..3, 1usize..3), seed in prop::collection::vec(-4i32..5, 64),
    ) {
        let (c, o) = (cg * groups, og * groups);
        let a = ConvArgs { stride: [stride.0, stride.1], padding: [padding.0, padding.1], dilation: [dilation.0, dilation.1], groups };
        let fill = |len: usize, k: usize| -> Vec<f64> { (0..len).map(|i| seed[(i * 7 + k) % seed.len()] as f64 * 0.5).collect() };
        let x = dyn_tensor(&[2, c, h, w], &fill(2 * c * h * w, 1));
        let wt = dyn_tensor(&[o, cg, kh, kw], &fill(o * cg * kh * kw, 3));
        let Ok(fx) = x.try_conv2d(&wt, NoBias, a) else { return Ok(()) };
        let (oh, ow) = (fx.sizes()[2], fx.sizes()[3]);
        let y = dyn_tensor(&[2, o, oh, ow], &fill(2 * o * oh * ow, 5));
        let back = |n: usize, oz: usize, i: usize| {
            (n + 2 * a.padding[i]) - ((oz - 1) * a.stride[i] + a.dilation[i] * ([kh, kw][i] - 1) + 1)
        };
        let t = ConvTransposeArgs {
            stride: a.stride,
            padding: a.padding,
            output_padding: [back(h, oh, 0), back(w, ow, 1)],
            dilation: a.dilation,
            groups,
        };
        let ty = y.conv_transpose2d(&wt, NoBias, t);
        prop_assert_eq!(ty.sizes(), x.sizes());
        let lhs: f64 = fx.to_vec().iter().zip(y.to_vec()).map(|(p, q)| p * q).sum();
        let rhs: f64 = x.to_vec().iter().zip(ty.to_vec()).map(|(p, q)| p * q).sum();
        prop_assert_eq!(lhs, rhs);
    }
}

#[test]
fn conv_transpose2d_typed() {
    let c = &data::CONVT[1]; // [1, 4, 3, 3] with [4, 3, 3, 3], stride 2, padding 1, output padding 1, groups 2
    let x: Tensor<f64, Shape![1, 4, 3, 3]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![4, 3, 3, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let y: Tensor<f64, Shape![1, 6, 6, 6]> = x.conv_transpose2d(&w, NoBias, ConvT::<2, 1, 1, 1, 2>);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
    let c = &data::CONVT[0]; // [2, 3, 4, 5] with [3, 2, 3, 3], bias
    let x: Tensor<f64, Shape![_, 3, 4, _]> = Tensor::from_vec(&c.x.0, c.x.1.to_vec());
    let w: Tensor<f64, Shape![3, 2, 3, 3]> = Tensor::from_vec(&c.w.0, c.w.1.to_vec());
    let b: Tensor<f64, Shape![2]> = Tensor::from_vec(&[2], c.bias.unwrap().to_vec());
    let y: Tensor<f64, Shape![_, 2, 6, _]> = x.conv_transpose2d(&w, &b, ConvT::<1>);
    assert_eq!(y.sizes(), c.y.0);
    assert!(close(&y.to_vec(), c.y.1, 1e-12));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(128, 4), failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence }, ..ProptestConfig::default() })]

    /// Without padding, `max_pool2d` and `avg_pool2d` are the max and mean over the windows
    /// that `unfold` gives along H and then W (the views and the pooling kernels agree).
    #[test]
    fn pools_equal_reductions_over_unfold(
        n in 1usize..3, c in 1usize..3, h in 1usize..8, w in 1usize..8, kh in 1usize..4, kw in 1usize..4,
        sh in 1usize..4, sw in 1usize..4, vals in prop::collection::vec(-100i32..100, 1..200),
    ) {
        prop_assume!(kh <= h && kw <= w);
        let len = n * c * h * w;
        let xv: Vec<f64> = (0..len).map(|i| vals[i % vals.len()] as f64 * 0.25).collect();
        let x = dyn_tensor(&[n, c, h, w], &xv);
        let windows = x.unfold_dyn(2, kh, sh).unfold_dyn(3, kw, sw).flatten_range(4, 5).into_owned();
        let args = PoolArgs { kernel: [kh, kw], stride: [sh, sw], padding: [0, 0], dilation: [1, 1] };
        let m = x.max_pool2d(args);
        prop_assert_eq!(m.to_vec(), windows.max_axis(4).to_vec());
        let a = x.avg_pool2d(args, true).to_vec();
        let want = windows.mean_axis(4).to_vec();
        prop_assert!(close(&a, &want, 1e-12), "{:?} vs {:?}", a, want);
    }
}

// ---- hyper-parameters as one value (issue 50) ----------------------------------------------

/// Every convolution and pooling takes its hyper-parameters as one argument: a typed marker
/// (typed result) or a run-time struct (a `DynShape` result), equal values either way, on
/// tensors and on `Var` (gradients too); the deprecated `_dyn` forms give the same.
#[test]
#[allow(deprecated)]
fn hyper_parameters_as_values_agree_with_the_typed_markers() {
    use shaped::autograd::Tape;
    let x: Tensor<f64, Shape![2, 4, 7, 6]> =
        Tensor::from_vec(&[2, 4, 7, 6], (0..336).map(|v| ((v * 37) % 23) as f64 - 11.0).collect());
    let w: Tensor<f64, Shape![6, 2, 3, 2]> =
        Tensor::from_vec(&[6, 2, 3, 2], (0..72).map(|v| ((v * 13) % 7) as f64 - 3.0).collect());
    let b: Tensor<f64, Shape![6]> = Tensor::from([0.5, -1.0, 2.0, 0.0, 1.5, -0.5]);
    // stride (2, 1), padding (1, 0), dilation (1, 2), groups 2.
    let typed: Tensor<f64, Shape![2, 6, 4, 4]> = x.conv2d(&w, &b, Conv::<2, 1, 1, 2, 1, 0, 2>);
    let args = ConvArgs { stride: [2, 1], padding: [1, 0], dilation: [1, 2], groups: 2 };
    let run: Tensor<f64, DynShape> = x.conv2d(&w, &b, args);
    assert_eq!((run.sizes(), run.to_vec()), (typed.sizes(), typed.to_vec()));
    assert_eq!(x.try_conv2d(&w, &b, args).unwrap().to_vec(), typed.to_vec());
    assert_eq!(x.conv2d_dyn(&w, &b, args).to_vec(), typed.to_vec());
    // A DynShape input with a typed marker: a DynShape result.
    let xd = x.clone().into_dyn();
    let d: Tensor<f64, DynShape> = xd.conv2d(&w.clone().into_dyn(), &b, Conv::<2, 1, 1, 2, 1, 0, 2>);
    assert_eq!(d.to_vec(), typed.to_vec());
    // Run-time errors name the sizes.
    let bad = ConvArgs { groups: 3, ..args };
    assert!(err(x.try_conv2d(&w, &b, bad)).contains("groups 3"), "{}", err(x.try_conv2d(&w, &b, bad)));

    // conv1d.
    let x1: Tensor<f64, Shape![2, 4, 9]> = Tensor::from_vec(&[2, 4, 9], (0..72).map(|v| (v % 5) as f64).collect());
    let w1: Tensor<f64, Shape![3, 4, 3]> =
        Tensor::from_vec(&[3, 4, 3], (0..36).map(|v| (v % 3) as f64 - 1.0).collect());
    let t1: Tensor<f64, Shape![2, 3, 5]> = x1.conv1d(&w1, NoBias, Conv::<2, 1>);
    let r1 = x1.conv1d(&w1, NoBias, Conv1dArgs { stride: 2, padding: 1, ..Default::default() });
    assert_eq!((r1.sizes(), r1.to_vec()), (t1.sizes(), t1.to_vec()));

    // conv_transpose2d.
    let wt: Tensor<f64, Shape![4, 3, 3, 3]> =
        Tensor::from_vec(&[4, 3, 3, 3], (0..108).map(|v| ((v * 7) % 5) as f64 - 2.0).collect());
    let tt: Tensor<f64, Shape![2, 3, 14, 12]> = x.conv_transpose2d(&wt, NoBias, ConvT::<2, 1, 1>);
    let a = ConvTransposeArgs { stride: [2, 2], padding: [1, 1], output_padding: [1, 1], ..Default::default() };
    let rt = x.conv_transpose2d(&wt, NoBias, a);
    assert_eq!((rt.sizes(), rt.to_vec()), (tt.sizes(), tt.to_vec()));

    // Pooling: max (with indices) and average.
    let pm: Tensor<f64, Shape![2, 4, 4, 3]> = x.max_pool2d(Pool::<3, 2, 1>);
    let pa = PoolArgs { kernel: [3, 3], stride: [2, 2], padding: [1, 1], dilation: [1, 1] };
    let (rm, ri) = x.max_pool2d_with_indices(pa);
    let (_, ti) = x.max_pool2d_with_indices(Pool::<3, 2, 1>);
    assert_eq!((rm.sizes(), rm.to_vec(), ri.to_vec()), (pm.sizes(), pm.to_vec(), ti.to_vec()));
    assert_eq!(x.max_pool2d_dyn(pa, true).1.unwrap().to_vec(), ti.to_vec());
    let av: Tensor<f64, Shape![2, 4, 4, 3]> = x.avg_pool2d(Pool::<3, 2, 1>, false);
    assert_eq!(x.avg_pool2d(pa, false).to_vec(), av.to_vec());

    // Var: the same values and gradients through both spellings.
    let grads = |run_time: bool| {
        let tape = Tape::<f64>::new();
        let (xv, wv, bv) = (tape.var(x.clone()), tape.var(w.clone()), tape.var(b.clone()));
        let loss = if run_time {
            let y = xv.conv2d(&wv, &bv, args).max_pool2d(PoolArgs::new([2, 2])).avg_pool2d(PoolArgs::new([1, 2]), true);
            (&y * &y).sum()
        } else {
            let y = xv
                .conv2d(&wv, &bv, Conv::<2, 1, 1, 2, 1, 0, 2>)
                .max_pool2d(Pool::<2>)
                .avg_pool2d(Pool::<1, 0, 0, 1, 2>, true);
            (&y * &y).sum()
        };
        let g = loss.backward();
        (loss.item(), g.wrt(&xv).unwrap().to_vec(), g.wrt(&wv).unwrap().to_vec(), g.wrt(&bv).unwrap().to_vec())
    };
    let (l0, gx0, gw0, gb0) = grads(false);
    let (l1, gx1, gw1, gb1) = grads(true);
    assert_eq!((l0, &gx0, &gw0, &gb0), (l1, &gx1, &gw1, &gb1));
    assert!(l0 > 0.0 && gx0.iter().any(|&v| v != 0.0) && gb0.iter().all(|&v| v != 0.0));
}

/// The parallel splits of a convolution (from 2^24 multiply-adds) and of a pooling (from 2^17
/// outputs) give the bits of the same calls on one thread: integers times halves (exact sums)
/// and independent windows.
#[test]
#[cfg_attr(miri, ignore)]
fn parallel_splits_equal_one_thread() {
    let fill = |len: usize, k: usize| -> Vec<f64> { (0..len).map(|i| ((i * 7 + k) % 9) as f64 * 0.5 - 2.0).collect() };
    // 4 * 16 * 48 * 48 outputs of 16 * 9 multiply-adds: 2.1e7.
    let (xs, ws) = ([4, 16, 48, 48], [16, 16, 3, 3]);
    let x = dyn_tensor(&xs, &fill(xs.iter().product(), 1));
    let w = dyn_tensor(&ws, &fill(ws.iter().product(), 3));
    let b = dyn_tensor(&[16], &fill(16, 5));
    let a = ConvArgs { padding: [1, 1], ..ConvArgs::default() };
    // 8 * 64 * 32 * 32 = 524,288 pooled outputs.
    let p = dyn_tensor(&[8, 64, 64, 64], &fill(8 * 64 * 64 * 64, 2));
    let run = || {
        (
            x.conv2d(&w, &b, a).to_vec(),
            p.max_pool2d(PoolArgs::new([2, 2])).to_vec(),
            p.avg_pool2d(PoolArgs::new([3, 3]), true).to_vec(),
        )
    };
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap();
    let (one, two) = (pool(1).install(run), pool(2).install(run));
    assert!(one.0 == two.0 && one.1 == two.1 && one.2 == two.2);
    let os: [usize; 4] = x.conv2d(&w, &b, a).sizes().try_into().unwrap();
    assert_eq!(one.0, reference(x.to_vec().as_slice(), xs, &w.to_vec(), ws, Some(&b.to_vec()), a, os));
    // Below the threshold outside the pool and past the lower one on a pool thread
    // (`kernels::conv`'s `PAR_CONV_FLOPS_IN_POOL`): the digits' layers, 1.7e6 multiply-adds through
    // the column blocks and 1.2e7 through the unrolled weight, split on two threads.
    for (xs, ws) in [([360, 1, 8, 8], [8, 1, 3, 3]), ([360, 8, 4, 4], [16, 8, 3, 3])] {
        let x = dyn_tensor(&xs, &fill(xs.iter().product(), 4));
        let w = dyn_tensor(&ws, &fill(ws.iter().product(), 6));
        let b = dyn_tensor(&ws[..1], &fill(ws[0], 8));
        let run = || x.conv2d(&w, &b, a).to_vec();
        let (one, two) = (pool(1).install(run), pool(2).install(run));
        let os: [usize; 4] = x.conv2d(&w, &b, a).sizes().try_into().unwrap();
        assert_eq!(one, two, "{xs:?} by {ws:?}: one thread and two");
        assert_eq!(one, reference(x.to_vec().as_slice(), xs, &w.to_vec(), ws, Some(&b.to_vec()), a, os));
    }
}

/// The weights' and the input's gradients of `conv2d` (through the tape: `∂ Σ gy · conv2d(x, w)
/// / ∂w` and `/ ∂x`) against their definition, `gw[o, ci, i, j] = Σ gy[b, o, y, x] x[b, gi cg + ci, y sh - ph + i dh,
/// x sw - pw + j dw]`, for every path of the kernel: large images (output rows in tiles; one
/// image and several; with a stride, groups and dilation), narrow rows with stride 1 (zero-bordered planes) and 2 (the gather
/// table), blocks of many small images in more than 16 blocks (partial gradients summed in
/// order), groups, dilation, a 1x1 window, and work past the threshold of threads (parts on
/// rayon's pool); f64, values integers times halves: exact. The same gradient in f32 on one and
/// two threads: the same bits.
#[test]
fn weight_and_input_gradients_equal_their_definition() {
    use shaped::autograd::{Param, Tape, Var};
    let args = conv_args;
    for (xs, ws, a) in [
        ([1, 16, 37, 58], [8, 16, 3, 3], args([1, 1], [1, 1], [1, 1], 1)),
        ([3, 8, 40, 50], [6, 4, 3, 5], args([2, 1], [2, 1], [1, 2], 2)),
        ([5, 3, 8, 8], [4, 3, 3, 3], args([1, 1], [1, 1], [1, 1], 1)),
        ([4, 4, 9, 11], [6, 2, 3, 3], args([2, 2], [1, 0], [1, 1], 2)),
        ([600, 2, 4, 4], [3, 2, 3, 3], args([1, 1], [1, 1], [1, 1], 1)),
        ([2, 6, 20, 20], [5, 6, 1, 1], args([1, 1], [0, 0], [1, 1], 1)),
        // Past the threshold of threads (2.9e7 multiply-adds): four parts on rayon's pool.
        ([4, 16, 40, 40], [32, 16, 3, 3], args([1, 1], [1, 1], [1, 1], 1)),
        // Stride 1 with uneven padding and dilation, groups (the input's gradient as the plain
        // convolution by the flipped weights), and a padding past the window's reach (not).
        ([2, 6, 12, 15], [4, 3, 3, 2], args([1, 1], [2, 0], [2, 3], 2)),
        ([2, 2, 7, 7], [3, 2, 3, 3], args([1, 1], [3, 1], [1, 1], 1)),
        // Large images with a stride: with groups, dilation and uneven padding, and a 5x5
        // window at stride 2.
        ([2, 32, 61, 100], [6, 16, 3, 5], args([2, 3], [2, 1], [2, 1], 2)),
        ([1, 24, 45, 45], [4, 24, 5, 5], args([2, 2], [2, 2], [1, 1], 1)),
    ] {
        let val =
            |len: usize, k: usize| -> Vec<f64> { (0..len).map(|i| ((i * 7 + k) % 9) as f64 * 0.5 - 2.0).collect() };
        let (xv, wv) = (val(xs.iter().product(), 1), val(ws.iter().product(), 3));
        let x = dyn_tensor(&xs, &xv);
        let os: [usize; 4] = x.conv2d(&dyn_tensor(&ws, &wv), NoBias, a).sizes().try_into().unwrap();
        let gv = val(os.iter().product(), 5);
        let (w, xp) = (Param::new(dyn_tensor(&ws, &wv)), Param::new(x.clone()));
        let tape = Tape::new();
        let (wt, xt) = (tape.watch(&w), tape.watch(&xp));
        let y = xt.conv2d(&wt, NoBias, a);
        let grads = y.mul(&Var::constant(dyn_tensor(&os, &gv))).sum().backward();
        let got = grads.param(&w).unwrap().to_vec();
        let (cg, og) = (xs[1] / a.groups, ws[0] / a.groups);
        let mut want = vec![0.0; ws.iter().product()];
        let mut want_x = vec![0.0; xs.iter().product()];
        for (k, gw) in want.iter_mut().enumerate() {
            let (oc, ci, i, j) =
                (k / (ws[1] * ws[2] * ws[3]), (k / (ws[2] * ws[3])) % ws[1], (k / ws[3]) % ws[2], k % ws[3]);
            let c = (oc / og) * cg + ci;
            for b in 0..xs[0] {
                for y in 0..os[2] {
                    for x in 0..os[3] {
                        let iy = (y * a.stride[0] + i * a.dilation[0]) as isize - a.padding[0] as isize;
                        let ix = (x * a.stride[1] + j * a.dilation[1]) as isize - a.padding[1] as isize;
                        if iy < 0 || ix < 0 || iy >= xs[2] as isize || ix >= xs[3] as isize {
                            continue;
                        }
                        let xi = ((b * xs[1] + c) * xs[2] + iy as usize) * xs[3] + ix as usize;
                        let gy = gv[((b * os[1] + oc) * os[2] + y) * os[3] + x];
                        *gw += gy * xv[xi];
                        want_x[xi] += gy * wv[k];
                    }
                }
            }
        }
        assert_eq!(got, want, "{xs:?} by {ws:?}, {a:?}");
        assert_eq!(grads.param(&xp).unwrap().to_vec(), want_x, "input gradient: {xs:?} by {ws:?}, {a:?}");
        // f32 on pools of one and two threads: the same bits (the images' parts are fixed by the
        // sizes, their partial sums added in order).
        let f32_grad = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let w = Param::new(dyn_tensor(&ws, &wv).cast::<f32>());
                let tape = Tape::new();
                let wt = tape.watch(&w);
                let y = Var::constant(x.cast::<f32>()).conv2d(&wt, NoBias, a);
                let g = y.mul(&Var::constant(dyn_tensor(&os, &gv).cast::<f32>())).sum().backward();
                g.param(&w).unwrap().to_vec()
            })
        };
        assert_eq!(f32_grad(1), f32_grad(2), "{xs:?} by {ws:?}: one thread and two");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(128, 4), failure_persistence: None, ..ProptestConfig::default() })]
    /// `max_pool2d` with indices (the backward pass's input) against the direct loop of its
    /// definition: window rows then columns, the first element starting the window, a larger
    /// value or a NaN taking it (so ties keep the first, NaN the last). Windows of 1 to 3 (the
    /// 2x2 and 3x3 ones run specialised), strides, dilation, with and without padding, over
    /// planes holding ties, ±inf and NaN; f32 and f64.
    #[test]
    fn max_pool_indices_follow_the_definition(
        vals in prop::collection::vec(prop_oneof![
            6 => (-3i32..3).prop_map(f64::from),
            1 => Just(f64::NEG_INFINITY),
            1 => Just(f64::INFINITY),
            1 => Just(f64::NAN),
        ], 2 * 3 * 7 * 8),
        k in (1usize..4, 1usize..4),
        stride in (1usize..4, 1usize..4),
        dil in prop_oneof![3 => Just((1usize, 1usize)), 1 => (1usize..3, 1usize..3)],
        padded in any::<bool>(),
    ) {
        let (h, w) = (7usize, 8usize);
        let pad = if padded { (k.0 / 2, k.1 / 2) } else { (0, 0) };
        let (eh, ew) = (dil.0 * (k.0 - 1) + 1, dil.1 * (k.1 - 1) + 1);
        prop_assume!(h + 2 * pad.0 >= eh && w + 2 * pad.1 >= ew && pad.0 * 2 <= eh && pad.1 * 2 <= ew);
        let (oh, ow) = ((h + 2 * pad.0 - eh) / stride.0 + 1, (w + 2 * pad.1 - ew) / stride.1 + 1);
        let args = PoolArgs { kernel: [k.0, k.1], stride: [stride.0, stride.1], padding: [pad.0, pad.1], dilation: [dil.0, dil.1] };
        let x = Tensor::<f64, DynShape>::from_vec(&[2, 3, h, w], vals.clone());
        let (y, i) = x.try_max_pool2d_with_indices(args).unwrap();
        let x32 = x.map(|v| v as f32);
        let (y32, i32_) = x32.try_max_pool2d_with_indices(args).unwrap();
        let (y, i, y32, i32_) = (y.to_vec(), i.to_vec(), y32.to_vec(), i32_.to_vec());
        prop_assert_eq!(y.len(), 6 * oh * ow);
        for p in 0..6 {
            let plane = &vals[p * h * w..(p + 1) * h * w];
            for oy in 0..oh {
                for ox in 0..ow {
                    let (mut best, mut at) = (f64::NEG_INFINITY, None);
                    for a in 0..k.0 {
                        for b in 0..k.1 {
                            let (py, px) = (oy * stride.0 + a * dil.0, ox * stride.1 + b * dil.1);
                            if py < pad.0 || px < pad.1 || py - pad.0 >= h || px - pad.1 >= w {
                                continue;
                            }
                            let kk = (py - pad.0) * w + px - pad.1;
                            let v = plane[kk];
                            at = at.or(Some(kk));
                            if v > best || v.is_nan() {
                                best = v;
                                at = Some(kk);
                            }
                        }
                    }
                    let o = p * oh * ow + oy * ow + ox;
                    let same = |g: f64| g == best || (g.is_nan() && best.is_nan());
                    prop_assert!(same(y[o]) && same(f64::from(y32[o])), "value at {o}: {} / {} against {best}", y[o], y32[o]);
                    prop_assert_eq!(i[o], at.unwrap() as i64, "index at {}", o);
                    prop_assert_eq!(i32_[o], at.unwrap() as i64, "f32 index at {}", o);
                }
            }
        }
    }
}
