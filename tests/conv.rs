//! Sliding windows and convolutions (issue 29 item 3): `unfold` and `windows` against explicit
//! slicing (proptest), `conv1d`/`conv2d`/`max_pool2d`/`avg_pool2d`/`adaptive_avg_pool2d`
//! against NumPy references (tests/data/conv_data.rs, from scripts/conv_data.py) and against a
//! direct-loop convolution (proptest), typed output shapes, NaN propagation and the run-time
//! errors.
mod common;

#[path = "data/conv_data.rs"]
mod data;

use common::{cases, err};
use proptest::prelude::*;
use shaped::prelude::*;
use shaped::{Conv1dArgs, ConvArgs, PoolArgs};

fn dyn_tensor(sizes: &[usize], v: &[f64]) -> Tensor<f64, DynShape> {
    Tensor::from_vec(sizes, v.to_vec())
}

/// `|a - b| <= tol * (1 + |b|)` elementwise, NaN where the other is NaN.
fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * (1.0 + y.abs()))
}

// ---- unfold / windows ----------------------------------------------------------------------

#[test]
fn unfold_typed_shapes_and_values() {
    let x: Tensor<i32, Shape![2, 7]> = Tensor::from_vec(&[2, 7], (0..14).collect());
    let u: TensorView<'_, i32, Shape![2, 3, 3]> = x.unfold::<1, 3, 2>();
    assert_eq!(u.to_vec(), [0, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 9, 9, 10, 11, 11, 12, 13]);
    assert!(common::same_storage(u.storage(), x.storage()));
    // A Dyn dim stays Dyn.
    let y: Tensor<i32, Shape![_, 4]> = Tensor::from_vec(&[3, 4], (0..12).collect());
    let v: TensorView<'_, i32, Shape![_, 2, 3]> = y.unfold::<1, 3, 1>();
    assert_eq!(v.sizes(), [3, 2, 3]);
    let w: TensorView<'_, i32, Shape![_, 4, 2]> = y.unfold::<0, 2, 1>();
    assert_eq!(w.sizes(), [2, 4, 2]);
    assert_eq!(w.to_vec()[..4], [0, 4, 1, 5]);
    // Size equal to the dim: one window; step past the end: one window.
    let one: TensorView<'_, i32, Shape![2, 1, 7]> = x.unfold::<1, 7, 100>();
    assert_eq!(one.to_vec(), x.to_vec());
}

#[test]
fn unfold_errors() {
    let y: Tensor<f32, Shape![_, 4]> = Tensor::zeros_sized(&[3, 4]);
    let e = err(y.try_unfold::<0, 5, 1>());
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
    let _ = y.unfold::<0, 5, 1>();
}

#[test]
fn windows_typed_and_dyn() {
    let x: Tensor<i32, Shape![3, 4]> = Tensor::from_vec(&[3, 4], (0..12).collect());
    let w: TensorView<'_, i32, Shape![2, 2, 2, 3]> = x.windows::<Shape![2, 3]>();
    assert_eq!(w.select::<0>(1).select::<0>(1).to_vec(), [5, 6, 7, 9, 10, 11]);
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
    #![proptest_config(ProptestConfig::with_cases(cases(256, 8)))]

    /// `unfold(axis, size, step)`'s window `j` is `narrow(axis, j * step, size)` with the axis
    /// moved last, on contiguous and transposed sources.
    #[test]
    fn unfold_equals_slicing(sizes in sizes_strategy(), axis_pick in 0usize..3, size in 0usize..7,
                             step in 1usize..4, transpose in any::<bool>()) {
        let n: usize = sizes.iter().product();
        let base: Tensor<i64, DynShape> = Tensor::from_vec(&sizes, (0..n as i64).collect());
        let r = sizes.len();
        let x = if transpose && r > 1 { base.transpose_dyn(0, r as isize - 1) } else { base.as_dyn() };
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
                let want = x.narrow_dyn(axis as isize, (j * step) as isize, size).movedim_dyn(axis as isize, -1).to_vec();
                prop_assert_eq!(u.select_dyn(axis as isize, j as isize).to_vec(), want);
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
        let r = sizes.len();
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
