//! The dynamic fallback: conversions both ways in O(1) on the same storage, and the linear
//! regression of the lecture solved on the crate's own tensors.
use approx::assert_abs_diff_eq;
use shaped::prelude::*;

#[test]
fn into_dyn_and_back_share_storage() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let ptr = x.storage().as_ptr();
    let d: Tensor<f32, DynShape> = x.into_dyn();
    assert_eq!((d.sizes(), d.storage().as_ptr()), (&[2, 3][..], ptr));
    let half: Tensor<f32, Shape![_, 3]> = d.try_into_static().unwrap();
    assert_eq!(half.storage().as_ptr(), ptr);
    let back: Tensor<f32, Shape![2, 3]> = half.into_static();
    assert_eq!(back.storage().as_ptr(), ptr);
    let e = back.clone().into_dyn().try_into_static::<Shape![3, 2]>().unwrap_err();
    assert_eq!(e.to_string(), "sizes [2, 3] do not match shape [3, 2]");
    let e = back.clone().into_dyn().try_into_static::<Shape![_]>().unwrap_err();
    assert_eq!(e.to_string(), "sizes [2, 3] do not match shape [_]");
    // Views convert the same way.
    let v = t!(back[.., 1..]).into_dyn();
    let s: TensorView<f32, Shape![2, 2]> = v.try_into_static().unwrap();
    assert_eq!(s.to_vec(), [2., 3., 5., 6.]);
}

#[test]
fn dynamic_and_static_tensors_compute_the_same() {
    let a: Tensor<f64, Shape![3, 4]> = Tensor::<f64, Shape![12]>::arange().reshape().into_owned();
    let b: Tensor<f64, Shape![4]> = Tensor::from([1., -1., 2., -2.]);
    let s = (&a * &b).sum_axis(Ax::<1>);
    let d = (&a.clone().into_dyn() * &b.clone().into_dyn()).sum_axis(1);
    assert_eq!(s.to_vec(), d.to_vec());
    let m = a.matmul(&a.t());
    let md = a.clone().into_dyn().matmul(&a.clone().into_dyn().t());
    assert_eq!(m.to_vec(), md.to_vec());
}

#[test]
fn from_parts_refuses_layouts_outside_storage() {
    let data: Vec<i32> = (0..20).collect();
    // The lecture's `set_(q, storage_offset=5, size=(3, 2), stride=(4, 1))`.
    let l = shaped::Layout::from_parts(&[3, 2], &[4, 1], 5).unwrap();
    let v = TensorView::<i32, Shape![3, 2]>::try_from_parts(&data[..], l).unwrap();
    assert_eq!(v.to_vec(), [5, 6, 9, 10, 13, 14]);
    let far = shaped::Layout::from_parts(&[3, 2], &[8, 1], 5).unwrap();
    assert!(TensorView::<i32, DynShape>::try_from_parts(&data[..], far).is_err());
    assert!(TensorView::<i32, Shape![2, 2]>::try_from_parts(&data[..], l).is_err());
    assert!(shaped::Layout::from_parts(&[3], &[-1], 1).is_err());
}

#[test]
fn linear_regression_of_the_lecture() {
    let text = include_str!("../examples/data/systolic-blood-pressure-vs-age.dat");
    let values: Vec<f64> = text.split_whitespace().map(|v| v.parse().unwrap()).collect();
    let data = Tensor::<f64, Shape![_, 2]>::from_vec(&[values.len() / 2, 2], values);
    let nb = data.sizes()[0];
    assert_eq!(nb, 30);
    let mut x = Tensor::<f64, Shape![_, 2]>::zeros_sized(&[nb, 2]);
    let mut y = Tensor::<f64, Shape![_, 1]>::zeros_sized(&[nb, 1]);
    t!(x[.., 0] = t!(data[.., 0]));
    t!(x[.., 1] = 1.0);
    t!(y[.., 0] = t!(data[.., 1]));
    let alpha = x.lstsq(&y).solution;
    // The closed form of simple regression: a = cov(age, p) / var(age), b = mean(p) - a mean(age).
    let (a, b) = (0.9708703514427235, 98.71471813821842);
    assert_abs_diff_eq!(alpha.at([0, 0]), a, epsilon = 1e-9);
    assert_abs_diff_eq!(alpha.at([1, 0]), b, epsilon = 1e-7);
    // The same solution from the normal equations on the crate's own kernels.
    let xtx = x.t().matmul(&x);
    let xty = x.t().matmul(&y);
    let det = xtx.at([0, 0]) * xtx.at([1, 1]) - xtx.at([0, 1]) * xtx.at([1, 0]);
    let a2 = (xtx.at([1, 1]) * xty.at([0, 0]) - xtx.at([0, 1]) * xty.at([1, 0])) / det;
    assert_abs_diff_eq!(a2, a, epsilon = 1e-9);
    let e = x.try_lstsq(&Tensor::<f64, Shape![_, 1]>::zeros_sized(&[29, 1])).unwrap_err();
    assert_eq!(e.to_string(), "lstsq of [30, 2] and [29, 1]: the row counts differ or the batch dims do not match");
}
