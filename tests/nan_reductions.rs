//! `nansum` and `nanmean` (issue 29): NaN elements skipped, as `np.nansum`/`np.nanmean` and
//! PyTorch's; whole, along static and runtime axes, with keepdim; against the sum and count of
//! the non-NaN elements computed apart, on random matrices with NaN.
mod common;

use proptest::prelude::*;
use shaped::prelude::*;

#[test]
fn numpy_cases() {
    let x = Tensor::from([[1.0f64, f64::NAN, 3.0], [f64::NAN, f64::NAN, f64::NAN]]);
    // np.nansum(x) = 4.0, np.nanmean(x) = 2.0; along axis 1: [4, 0] and [2, nan].
    assert_eq!(x.nansum(), 4.0);
    assert_eq!(x.nanmean(), 2.0);
    assert_eq!(x.nansum_axis(Ax::<1>).to_vec(), vec![4.0, 0.0]);
    let m = x.nanmean_axis(Ax::<1>).to_vec();
    assert!(m[0] == 2.0 && m[1].is_nan());
    assert_eq!(x.nansum_axis(Ax::<0>).to_vec(), vec![1.0, 0.0, 3.0]);
    assert_eq!(x.nansum_keepdim(Ax::<0>).sizes(), &[1, 3]);
    assert_eq!(x.clone().into_dyn().nanmean_axis(0).to_vec()[2], 3.0);
    // Infinities stay: nansum([inf, nan, 1]) = inf.
    assert_eq!(Tensor::from([f32::INFINITY, f32::NAN, 1.0]).nansum(), f32::INFINITY);
    // No elements: nansum 0, nanmean NaN.
    let e = Tensor::<f32, DynShape>::from_vec(&[0], vec![]);
    assert_eq!(e.nansum(), 0.0);
    assert!(e.nanmean().is_nan());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(256, 4), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn against_filtered_sums((r, c, v) in (1usize..6, 1usize..30).prop_flat_map(|(r, c)| (Just(r), Just(c),
        prop::collection::vec(prop_oneof![3 => (-100i32..100).prop_map(|k| k as f64), 1 => Just(f64::NAN)], r * c)))) {
        let m = Tensor::<f64, Shape![_, _]>::from_vec(&[r, c], v.clone());
        let (rows_sum, rows_mean) = (m.nansum_axis(Ax::<1>).to_vec(), m.nanmean_axis(Ax::<1>).to_vec());
        for i in 0..r {
            let kept: Vec<f64> = v[i * c..(i + 1) * c].iter().copied().filter(|x| !x.is_nan()).collect();
            let s: f64 = kept.iter().sum();
            prop_assert_eq!(rows_sum[i], s);
            let mean = s / kept.len() as f64;
            prop_assert!(rows_mean[i] == mean || (rows_mean[i].is_nan() && kept.is_empty()));
        }
        let kept: Vec<f64> = v.iter().copied().filter(|x| !x.is_nan()).collect();
        prop_assert_eq!(m.t().nansum(), kept.iter().sum::<f64>());
    }
}
