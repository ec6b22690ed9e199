//! Element-wise operators with broadcasting, scalars, reductions and matmul.
use approx::assert_relative_eq;
use shaped::prelude::*;

#[test]
fn same_shape_ops_by_value_and_reference() {
    let a = Tensor::from([[1., 2.], [3., 4.]]);
    let b = Tensor::from([[10., 20.], [30., 40.]]);
    assert_eq!((&a + &b).to_vec(), [11., 22., 33., 44.]);
    assert_eq!((&b - &a).to_vec(), [9., 18., 27., 36.]);
    assert_eq!((&a * &b).to_vec(), [10., 40., 90., 160.]);
    assert_eq!((&b / &a).to_vec(), [10., 10., 10., 10.]);
    assert_eq!((a.clone() + &b).to_vec(), [11., 22., 33., 44.]);
    assert_eq!((&a + b.clone()).to_vec(), [11., 22., 33., 44.]);
    let c: Tensor<f64, Shape![2, 2]> = a.clone() + b.clone();
    assert_eq!(c.at([1, 1]), 44.);
    // Views as operands: a transposed view is added in place.
    assert_eq!((a.t() + &a).to_vec(), [2., 5., 5., 8.]);
}

#[test]
fn broadcasting_types_and_values() {
    let x = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    let b = Tensor::from([10, 20, 30]);
    let y: Tensor<i32, Shape![2, 3]> = &x + &b;
    assert_eq!(y.to_vec(), [11, 22, 33, 14, 25, 36]);
    let col = Tensor::from([[100], [200]]);
    let z: Tensor<i32, Shape![2, 3]> = &x + &col;
    assert_eq!(z.to_vec(), [101, 102, 103, 204, 205, 206]);
    let outer: Tensor<i32, Shape![2, 3]> = &col * &Tensor::from([[1, 2, 3]]);
    assert_eq!(outer.to_vec(), [100, 200, 300, 200, 400, 600]);
    let r0: Tensor<i32, Shape![2, 3]> = &x * &Tensor::scalar(2);
    assert_eq!(r0.to_vec(), [2, 4, 6, 8, 10, 12]);
    let three: Tensor<i32, Shape![4, 2, 3]> = &Tensor::<i32, Shape![4, 1, 1]>::ones() + &x;
    assert_eq!(three.sum(), 4 * (21 + 6));
}

#[test]
fn runtime_dims_are_checked() {
    let a = Tensor::<f32, Shape![_, 3]>::ones_sized(&[2, 3]);
    let good = Tensor::<f32, Shape![_]>::ones_sized(&[3]);
    let y: Tensor<f32, Shape![_, 3]> = &a + &good;
    assert_eq!(y.to_vec(), [2.; 6]);
    let bad = Tensor::<f32, Shape![_]>::ones_sized(&[4]);
    let e = a.try_add(&bad).unwrap_err();
    assert_eq!(e.to_string(), "cannot broadcast [2, 3] with [4]");
    let one = Tensor::<f32, Shape![_]>::ones_sized(&[1]);
    assert_eq!(a.try_mul(&one).unwrap().sizes(), [2, 3]);
    let d1 = a.clone().into_dyn();
    let d2 = Tensor::<f32, DynShape>::ones_sized(&[5, 1, 1]);
    assert_eq!((&d1 + &d2).sizes(), [5, 2, 3]);
    assert_eq!(d1.try_sub(&bad.into_dyn()).unwrap_err().to_string(), "cannot broadcast [2, 3] with [4]");
}

#[test]
#[should_panic(expected = "cannot broadcast [2, 3] with [4, 3]")]
fn operator_panics_with_the_shapes() {
    let a = Tensor::<f32, Shape![_, 3]>::ones_sized(&[2, 3]);
    let b = Tensor::<f32, Shape![_, 3]>::ones_sized(&[4, 3]);
    let _ = &a + &b;
}

#[test]
fn scalars_on_either_side() {
    let x = Tensor::from([1.0f32, 2.0, 4.0]);
    assert_eq!((&x + 1.0).to_vec(), [2., 3., 5.]);
    assert_eq!((&x * 2.0).to_vec(), [2., 4., 8.]);
    assert_eq!((8.0 / &x).to_vec(), [8., 4., 2.]);
    assert_eq!((10.0 - x.clone()).to_vec(), [9., 8., 6.]);
    assert_eq!((x.t() - 1.0).to_vec(), [0., 1., 3.]);
    let i = Tensor::from([[1u8, 2], [3, 4]]);
    assert_eq!((&i.t() * 3).to_vec(), [3, 9, 6, 12]);
    let h = Tensor::from([shaped::f16::from_f32(1.5)]);
    assert_eq!((&h + shaped::f16::ONE).at([0]).to_f32(), 2.5);
}

#[test]
fn map_and_mixed_views() {
    let x = Tensor::from([[1, -2], [3, -4]]);
    assert_eq!(x.t().map(|v: i32| v.abs()).to_vec(), [1, 3, 2, 4]);
    let v = t!(x[.., 1]);
    let s: Tensor<i32, Shape![2, 2]> = &x + v;
    assert_eq!(s.to_vec(), [-1, -6, 1, -8]);
}

#[test]
fn sum_and_mean() {
    let x = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    assert_eq!(x.sum(), 21.);
    assert_eq!(x.mean(), 3.5);
    let s0: Tensor<f64, Shape![3]> = x.sum_axis(Ax::<0>);
    assert_eq!(s0.to_vec(), [5., 7., 9.]);
    let s1: Tensor<f64, Shape![2]> = x.sum_axis(Ax::<1>);
    assert_eq!(s1.to_vec(), [6., 15.]);
    let m0: Tensor<f64, Shape![3]> = x.mean_axis(Ax::<0>);
    assert_eq!(m0.to_vec(), [2.5, 3.5, 4.5]);
    assert_eq!(x.t().sum_axis(Ax::<1>).to_vec(), [5., 7., 9.]);
    assert_eq!(t!(x[.., ..;-1]).sum_axis(Ax::<1>).to_vec(), [6., 15.]);
    let d = x.clone().into_dyn();
    assert_eq!(d.sum_axis(-1).to_vec(), [6., 15.]);
    assert_eq!(d.mean_axis(0).to_vec(), [2.5, 3.5, 4.5]);
    assert_eq!(d.try_sum_axis(2).unwrap_err().to_string(), "axis 2 is out of range for a tensor of rank 2");
    assert_eq!(d.sum_axis(Ax::<1>).sizes(), [2]);
    let e = Tensor::<f32, Shape![_]>::zeros_sized(&[0]);
    assert_eq!(e.sum(), 0.0);
    assert!(e.mean().is_nan());
    let ints = Tensor::from([[1u32, 2], [3, 4]]);
    assert_eq!(ints.sum_axis(Ax::<0>).to_vec(), [4, 6]);
    assert_eq!(ints.sum(), 10);
}

#[test]
#[should_panic(expected = "axis 3 is out of range for a tensor of rank 2")]
fn dyn_sum_axis_out_of_range_panics() {
    let _ = Tensor::from([[1, 2]]).into_dyn().sum_axis(Ax::<3>);
}

#[test]
#[cfg_attr(miri, ignore = "a million elements is too slow under Miri")]
fn sum_of_large_float_tensor_is_accurate() {
    let n = 1 << 20;
    let x = Tensor::<f32, Shape![_]>::full_sized(&[n], 0.1);
    assert_relative_eq!(x.sum(), 0.1 * n as f32, max_relative = 1e-4);
}

#[test]
fn matmul_static_and_strided() {
    let a = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let b = Tensor::from([[7., 8.], [9., 10.], [11., 12.]]);
    let c: Tensor<f64, Shape![2, 2]> = a.matmul(&b);
    assert_eq!(c.to_vec(), [58., 64., 139., 154.]);
    // A transposed operand is read in place.
    let g: Tensor<f64, Shape![2, 2]> = a.matmul(&a.t());
    assert_eq!(g.to_vec(), [14., 32., 32., 77.]);
    let gt: Tensor<f64, Shape![3, 3]> = a.t().matmul(&a);
    assert_eq!(gt.at([2, 2]), 45.);
    // Reversed and stepped views (negative and non-unit strides).
    let r = t!(b[..;-1, ..]);
    assert_eq!(a.matmul(&r).to_vec(), a.matmul(&r.contiguous()).to_vec());
    assert_eq!(a.matmul(&r).to_vec(), [50., 56., 131., 146.]);
    let f32s = Tensor::from([[1.0f32, 2.0], [3.0, 4.0]]);
    assert_eq!(f32s.matmul(&f32s.t()).to_vec(), [5., 11., 11., 25.]);
    let ints = Tensor::from([[1, 2], [3, 4]]);
    assert_eq!(ints.matmul(&ints).to_vec(), [7, 10, 15, 22]);
    assert_eq!(ints.t().matmul(&t!(ints[..;-1, ..])).to_vec(), [6, 10, 10, 16]);
}

#[test]
fn matmul_runtime_dims() {
    let a = Tensor::<f32, Shape![2, _]>::ones_sized(&[2, 3]);
    let b = Tensor::<f32, Shape![_, 4]>::ones_sized(&[3, 4]);
    let c: Tensor<f32, Shape![2, 4]> = a.matmul(&b);
    assert_eq!(c.to_vec(), [3.; 8]);
    let bad = Tensor::<f32, Shape![_, 4]>::ones_sized(&[5, 4]);
    assert_eq!(
        a.try_matmul(&bad).unwrap_err().to_string(),
        "cannot matmul [2, 3] by [5, 4]: inner dimensions 3 and 5 differ"
    );
    let d = a.clone().into_dyn();
    let d4 = Tensor::<f32, DynShape>::ones_sized(&[4]);
    assert_eq!(
        d.try_matmul(&d4).unwrap_err().to_string(),
        "cannot matmul [2, 3] by [4]: inner dimensions 3 and 4 differ"
    );
    let empty = Tensor::<f32, Shape![2, _]>::ones_sized(&[2, 0]);
    let z = Tensor::<f32, Shape![_, 4]>::ones_sized(&[0, 4]);
    assert_eq!(empty.matmul(&z).to_vec(), [0.; 8]);
}

/// One early-exit scan (`kernels::any`) serves tensor equality and the integer zero-divisor
/// checks: the same answers over transposed, strided, broadcast, empty and 0-d layouts.
#[test]
fn equality_and_zero_divisor_scans_over_any_layout() {
    let a = Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]);
    let t = a.t().to_owned();
    assert!(t.t() == a);
    let mut b = a.clone();
    t!(b[1, 2] = 7.);
    assert!(a != b);
    assert!(t!(a[.., ..;2]) == Tensor::<f64, Shape![2, 2]>::from([[1., 3.], [4., 6.]]));
    let nan = Tensor::from([1., f64::NAN]);
    assert!(nan != nan);
    assert!(Tensor::from([0.0f64, 1.]) == Tensor::from([-0.0f64, 1.]));
    assert!(Tensor::scalar(3i32) == Tensor::scalar(3i32));
    let e = Tensor::<f32, DynShape>::zeros_sized(&[0, 4]);
    assert!(e == Tensor::<f32, DynShape>::zeros_sized(&[0, 4]));
    // A zero divisor found wherever it is: the last element of a transposed view, a broadcast
    // row; none in an empty divisor.
    let x = Tensor::<i32, Shape![2, 2]>::from([[1, 2], [3, 4]]);
    let y = Tensor::<i32, Shape![2, 2]>::from([[5, 6], [7, 0]]);
    assert_eq!(x.try_div(&y.t()).unwrap_err().to_string(), "div: integer division by zero");
    let row = Tensor::<i32, Shape![2]>::from([1, 0]);
    assert!(x.try_div(&row).is_err());
    let mut z = x.clone();
    assert!(z.try_rem_assign(&row.expand::<Shape![2, 2]>()).is_err());
    assert_eq!(z, x);
    assert!(x.try_div(&Tensor::<i32, Shape![2]>::from([1, 2])).is_ok());
}
