//! `cummax`, `cummin` and `logcumsumexp` along an axis (issue 29), against NumPy
//! (`np.maximum.accumulate`, `np.logaddexp.accumulate`) and a running loop over each line.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;

#[test]
fn numpy_cases() {
    let x = Tensor::from([1.0f64, 3.0, 2.0, 3.0, f64::NAN, 5.0]);
    let (v, i) = x.cummax(Ax::<0>);
    let v = v.to_vec();
    assert_eq!(&v[..4], &[1.0, 3.0, 3.0, 3.0]);
    assert!(v[4].is_nan() && v[5].is_nan());
    // The latest position among equal values; the first NaN's once one is met.
    assert_eq!(i.to_vec(), vec![0, 1, 1, 3, 4, 4]);
    let (v, i) = x.cummin(0);
    assert_eq!(&v.to_vec()[..4], &[1.0, 1.0, 1.0, 1.0]);
    assert_eq!(i.to_vec(), vec![0, 0, 0, 0, 4, 4]);
    // Along the leading axis of a matrix, integers.
    let m = Tensor::from([[3, 1], [2, 5], [4, 0]]);
    let (v, i) = m.cummax(Ax::<0>);
    assert_eq!((v.to_vec(), i.to_vec()), (vec![3, 1, 3, 5, 4, 5], vec![0, 0, 0, 1, 2, 1]));
    assert!(m.clone().into_dyn().try_cummax(Ax::<2>).is_err());
}

/// np.logaddexp.accumulate([0, 1, -inf, 1000, 2]).
#[test]
#[cfg_attr(miri, ignore = "Miri gives float functions a random error of a few ulp per call")]
fn logcumsumexp_matches_numpy() {
    let l = Tensor::from([0.0f64, 1.0, f64::NEG_INFINITY, 1000.0, 2.0]).logcumsumexp(Ax::<0>).to_vec();
    assert_eq!(l, vec![0.0, 1.3132616875182228, 1.3132616875182228, 1000.0, 1000.0]);
}

/// np.roll and np.tril/np.triu of `np.arange(24).reshape(2, 3, 4)`.
#[test]
fn roll_and_triangles_match_numpy() {
    let x = Tensor::<i64, Shape![2, 3, 4]>::from_fn(|[a, b, c]| (a * 12 + b * 4 + c) as i64);
    assert_eq!(
        x.roll(2, Ax::<2>).to_vec(),
        vec![2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 18, 19, 16, 17, 22, 23, 20, 21]
    );
    assert_eq!(
        x.roll(-4, 1).to_vec(),
        vec![4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 16, 17, 18, 19, 20, 21, 22, 23, 12, 13, 14, 15]
    );
    assert_eq!(x.tril(-1).to_vec(), vec![0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 20, 21, 0, 0]);
    assert_eq!(x.triu(2).to_vec(), vec![0, 0, 2, 3, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 14, 15, 0, 0, 0, 19, 0, 0, 0, 0]);
    // Through a transposed view (the lines are strided), inline, and DynShape errors.
    let t = x.permute((Ax::<0>, Ax::<2>, Ax::<1>));
    assert_eq!(t.tril(0).to_vec(), t.contiguous().tril(0).to_vec());
    assert_eq!(t.roll(3, Ax::<1>).to_vec(), t.contiguous().roll(3, Ax::<1>).to_vec());
    let s = stensor([[1.0f32, 2.0], [3.0, 4.0]]);
    assert_eq!(s.triu(0).to_vec(), vec![1.0, 2.0, 0.0, 4.0]);
    let v = Tensor::<f32, DynShape>::from_vec(&[3], vec![1.0, 2.0, 3.0]);
    assert!(v.try_tril(0).is_err());
    assert!(v.try_roll(1, 1).is_err());
    assert_eq!(v.roll(5, 0).to_vec(), vec![2.0, 3.0, 1.0]);
}

/// np.diff of `(np.arange(24).reshape(2, 3, 4) ** 2) % 7` along axes 1 and 0.
#[test]
fn diff_matches_numpy() {
    let x = Tensor::<i64, Shape![2, 3, 4]>::from_fn(|[a, b, c]| ((a * 12 + b * 4 + c) as i64).pow(2) % 7);
    let d1 = x.diff(Ax::<1>);
    let _: &Tensor<i64, Shape![2, _, 4]> = &d1;
    assert_eq!(d1.sizes(), &[2, 2, 4]);
    assert_eq!(d1.to_vec(), vec![2, 3, -3, -2, -1, 0, 1, 2, 0, 1, 2, 3, -3, -2, -1, 0]);
    assert_eq!(x.diff(0).to_vec(), vec![4, 0, -4, -1, 2, -2, 1, 4, 0, -4, -1, 2]);
    // Of a transposed view, of a single element and of an empty dim: one less, or 0.
    let t = x.permute((Ax::<2>, Ax::<1>, Ax::<0>));
    assert_eq!(t.diff(Ax::<2>).to_vec(), t.contiguous().diff(Ax::<2>).to_vec());
    assert_eq!(Tensor::from([5u8]).diff(Ax::<0>).sizes(), &[0]);
    assert_eq!(Tensor::<f32, DynShape>::from_vec(&[0, 2], vec![]).diff(0).sizes(), &[0, 2]);
    // Integers wrap, as `-`.
    assert_eq!(Tensor::from([200u8, 10]).diff(Ax::<0>).to_vec(), vec![66]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 4), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn against_running_loops((r, c, v) in (1usize..5, 0usize..30).prop_flat_map(|(r, c)| (Just(r), Just(c),
        prop::collection::vec(prop_oneof![4 => (-5i32..5).prop_map(|k| k as f64), 1 => Just(f64::NAN), 1 => -50.0f64..50.0], r * c)))) {
        let m = Tensor::<f64, Shape![_, _]>::from_vec(&[r, c], v.clone());
        let (mx, mi) = m.cummax(Ax::<1>);
        let l = m.logcumsumexp(Ax::<1>).to_vec();
        for i in 0..r {
            let line = &v[i * c..(i + 1) * c];
            let mut best = 0usize;
            for k in 0..c {
                if k == 0 || (!line[best].is_nan() && (line[k].is_nan() || line[k] >= line[best])) {
                    best = k;
                }
                prop_assert_eq!(mi.to_vec()[i * c + k], best as i64);
                prop_assert_eq!(mx.to_vec()[i * c + k].to_bits(), line[best].to_bits());
                // The running log-sum-exp from its definition, shifted by the running maximum.
                let seen = &line[..=k];
                let want = if seen.iter().any(|x| x.is_nan()) {
                    f64::NAN
                } else {
                    let mm = seen.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    mm + seen.iter().map(|x| (x - mm).exp()).sum::<f64>().ln()
                };
                let acc = l[i * c + k];
                prop_assert!((acc - want).abs() <= 1e-12 * (1.0 + want.abs()) || (acc.is_nan() && want.is_nan()), "{} vs {}", acc, want);
            }
        }
    }

    /// `cumsum` of a contiguous tensor (lines side by side in blocks of eight along the last
    /// axis, running sums across the inner dims along the others) against the same values in a
    /// transposed layout, which walks line by line: the same bits along every axis, with infinities,
    /// NaN, huge and tiny values among the terms.
    #[test]
    fn contiguous_cumsum_equals_the_line_walk((a, b, c, v) in (2usize..12, 2usize..5, 2usize..20).prop_flat_map(|(a, b, c)| (Just(a), Just(b), Just(c),
        prop::collection::vec(prop_oneof![6 => -1e3f32..1e3, 1 => Just(f32::INFINITY), 1 => Just(f32::NEG_INFINITY), 1 => Just(f32::NAN), 1 => Just(3e38f32), 1 => Just(1e-40f32)], a * b * c)))) {
        let x = Tensor::<f32, DynShape>::from_vec(&[a, b, c], v);
        // The same values as a non-contiguous view: dims reversed in memory.
        let reversed = x.permute([2, 1, 0]).contiguous().into_owned();
        let strided = reversed.permute([2, 1, 0]);
        prop_assert!(!strided.is_contiguous());
        let sizes = [a, b, c];
        let xs = x.to_vec();
        for axis in 0..3isize {
            let (want, got) = (strided.cumsum(axis).to_vec(), x.cumsum(axis).to_vec());
            for (w, g) in want.iter().zip(&got) {
                prop_assert_eq!(w.to_bits(), g.to_bits(), "axis {}", axis);
            }
            // PyTorch's CPU kernel: each line's running sum in f64, every prefix rounded to f32.
            let ax = axis as usize;
            let stride: usize = sizes[ax + 1..].iter().product();
            for start in (0..xs.len()).filter(|i| (i / stride).is_multiple_of(sizes[ax])) {
                let mut run = 0f64;
                for k in 0..sizes[ax] {
                    let i = start + k * stride;
                    run += xs[i] as f64;
                    let want = run as f32;
                    prop_assert!(want.to_bits() == got[i].to_bits() || (want.is_nan() && got[i].is_nan()), "axis {} at {}: {} vs {}", axis, i, got[i], want);
                }
            }
        }
    }
}

/// `f32` cumulative sums are PyTorch's CPU ones, which run in `f64`: a prefix past `f32`'s range
/// is `inf`, and a later one back in range is finite again (`torch.tensor([3e38, 3e38,
/// -3e38]).cumsum(0)` is `[3e38, inf, 3e38]`); `1e-8` steps survive a running value of 1
/// (`torch.tensor([1.0, 1e-8, 1e-8, -1.0] * 3).cumsum(0)`). `f64` and `bf16` keep their own
/// accumulators (PyTorch adds `bfloat16` in `float`: an overflow stays `inf`).
#[test]
fn f32_cumsum_matches_pytorch() {
    let c = Tensor::from([3e38f32, 3e38, -3e38]).cumsum(Ax::<0>).to_vec();
    assert_eq!(c, vec![3e38, f32::INFINITY, 3e38]);
    let x = Tensor::from([1.0f32, 1e-8, 1e-8, -1.0, 1.0, 1e-8, 1e-8, -1.0, 1.0, 1e-8, 1e-8, -1.0]);
    let torch: [f64; 12] = [
        1.0,
        1.0,
        1.0,
        1.999999987845058e-08,
        1.0,
        1.0,
        1.0,
        3.999999975690116e-08,
        1.0,
        1.0,
        1.0000001192092896,
        5.99999978589949e-08,
    ];
    assert_eq!(x.cumsum(Ax::<0>).to_vec(), torch.map(|v| v as f32).to_vec());
    let h = Tensor::from([3e38f32, 3e38, -3e38].map(shaped::bf16::from_f32)).cumsum(Ax::<0>).to_vec();
    assert!(h[1].to_f32().is_infinite() && h[2].to_f32().is_infinite(), "{h:?}");
}

/// An `i64` running sum past 64 bits is an error in a full block of eight lines and in the last,
/// partial one (the contiguous path of `cumsum`), as along the walk.
#[test]
fn cumsum_overflow_is_an_error_in_every_block() {
    for (rows, bad) in [(8usize, 3usize), (11, 9)] {
        let mut v = vec![1i64; rows * 4];
        v[bad * 4 + 2] = i64::MAX;
        let x = Tensor::<i64, DynShape>::from_vec(&[rows, 4], v);
        assert!(common::err(x.try_cumsum(1)).contains("does not fit 64 bits"));
        assert!(common::err(x.try_cumsum(0)).contains("does not fit 64 bits"));
    }
}
