//! Constructors, element access, conversions and Display.
use shaped::prelude::*;

#[test]
fn zeros_ones_full() {
    let z: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    assert_eq!(z.sizes(), [2, 3]);
    assert_eq!(z.strides(), [3, 1]);
    assert_eq!(z.to_vec(), [0.0; 6]);
    let o: Tensor<i32, Shape![4]> = Tensor::ones();
    assert_eq!(o.to_vec(), [1, 1, 1, 1]);
    let f: Tensor<u8, Shape![2, 2]> = Tensor::full(7);
    assert_eq!(f.to_vec(), [7; 4]);
    let s: Tensor<f64, Shape![]> = Tensor::zeros();
    assert_eq!((s.rank(), s.numel(), s.at([])), (0, 1, 0.0));
    let b: Tensor<bool, Shape![3]> = Tensor::ones();
    assert_eq!(b.to_vec(), [true; 3]);
}

#[test]
fn sized_constructors_check_static_dims() {
    let z = Tensor::<f32, Shape![_, 3]>::zeros_sized(&[4, 3]);
    assert_eq!(z.sizes(), [4, 3]);
    let e = Tensor::<f32, Shape![_, 3]>::try_full_sized(&[4, 2], 0.0).unwrap_err();
    assert_eq!(e.to_string(), "sizes [4, 2] do not match shape [_, 3]");
    let e = Tensor::<f32, Shape![_, 3]>::try_full_sized(&[3], 0.0).unwrap_err();
    assert_eq!(e.to_string(), "sizes [3] do not match shape [_, 3]");
    let d = Tensor::<f32, DynShape>::ones_sized(&[2, 1, 2]);
    assert_eq!(d.sizes(), [2, 1, 2]);
    let e = Tensor::<f32, DynShape>::try_full_sized(&[1; 7], 0.0).unwrap_err();
    assert_eq!(e.to_string(), "rank 7 exceeds the maximum of 6 dims");
}

#[test]
#[should_panic(expected = "sizes [4, 2] do not match shape [_, 3]")]
fn sized_constructor_panics_with_the_message() {
    let _ = Tensor::<f32, Shape![_, 3]>::zeros_sized(&[4, 2]);
}

#[test]
fn overflowing_sizes_are_an_error() {
    let e = Tensor::<u8, DynShape>::try_full_sized(&[usize::MAX, 2], 0).unwrap_err();
    assert!(matches!(e, ShapeError::Overflow { .. }), "{e}");
}

#[test]
fn from_nested_arrays() {
    let x = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let _: &Tensor<f64, Shape![2, 3]> = &x;
    assert_eq!(x.to_vec(), [1., 2., 3., 4., 5., 6.]);
    let v = Tensor::from([1u8, 2, 3]);
    let _: &Tensor<u8, Shape![3]> = &v;
    let c = Tensor::from([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]);
    assert_eq!(c.sizes(), [2, 2, 2]);
    assert_eq!(c.at([1, 0, 1]), 6);
    let d = Tensor::from([[[[1.0f32; 2]; 3]; 4]; 5]);
    assert_eq!(d.sizes(), [5, 4, 3, 2]);
    assert_eq!(d.strides(), [24, 6, 2, 1]);
}

#[test]
fn from_vec_checks_shape_and_length() {
    let x = Tensor::<f32, Shape![2, _]>::from_vec(&[2, 2], vec![1., 2., 3., 4.]);
    assert_eq!(x.at([1, 0]), 3.);
    let e = Tensor::<f32, Shape![2, _]>::try_from_vec(&[2, 3], vec![1., 2., 3., 4.]).unwrap_err();
    assert_eq!(e.to_string(), "a buffer of 4 elements does not fit shape [2, 3]");
    let e = Tensor::<f32, Shape![2, _]>::try_from_vec(&[3, 2], vec![0.; 6]).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }));
}

#[test]
fn arange() {
    let a: Tensor<f32, Shape![5]> = Tensor::arange();
    assert_eq!(a.to_vec(), [0., 1., 2., 3., 4.]);
    let b: Tensor<i64, Shape![3]> = Tensor::arange();
    assert_eq!(b.to_vec(), [0, 1, 2]);
    let c = Tensor::<f64, Shape![_]>::try_arange_with(1.0, 2.0, 0.25).unwrap();
    assert_eq!(c.to_vec(), [1.0, 1.25, 1.5, 1.75]);
    let d = Tensor::<i32, Shape![_]>::try_arange_with(10, 0, -3).unwrap();
    assert_eq!(d.to_vec(), [10, 7, 4, 1]);
    assert!(Tensor::<i32, Shape![_]>::try_arange_with(0, 5, 0).is_err());
    assert!(Tensor::<i32, Shape![_]>::try_arange_with(0, 5, -1).is_err());
    assert_eq!(Tensor::<f32, Shape![_]>::try_arange_with(3.0, 3.0, 1.0).unwrap().numel(), 0);
}

#[test]
fn element_access() {
    let mut x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    x[[1, 2]] = 5.0;
    x.set([0, 1], 3.0);
    assert_eq!(x[[1, 2]], 5.0);
    assert_eq!(x.at([0, 1]), 3.0);
    assert_eq!(x.try_at([2, 0]).unwrap_err().to_string(), "index 2 is out of bounds for dimension 0 of size 2");
    assert!(x.try_set([0, 3], 1.0).is_err());
    let d = x.clone().into_dyn();
    assert_eq!(d.at([1, 2]), 5.0);
    assert!(d.try_at([1]).is_err());
    assert_eq!(d.try_at([1, 2, 0]).unwrap_err().to_string(), "too many indices: 3 indices for a tensor of rank 2");
    let mut v = x.as_view_mut();
    v[[0, 0]] = -1.0;
    assert_eq!(x.at([0, 0]), -1.0);
    x.fill(2.0);
    assert_eq!(x.sum(), 12.0);
}

#[test]
#[should_panic(expected = "index 3 is out of bounds for dimension 1 of size 3")]
fn index_out_of_bounds_panics() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x[[0, 3]];
}

#[test]
fn clone_copies_and_views_share() {
    let x = Tensor::from([1, 2, 3]);
    let y = x.clone();
    assert_ne!(x.storage().as_ptr(), y.storage().as_ptr());
    let v = x.as_view();
    assert_eq!(v.storage().as_ptr(), x.storage().as_ptr());
    assert_eq!(x, y);
    assert_eq!(x, v);
    assert_ne!(x, Tensor::from([1, 2, 4]));
}

#[test]
fn display_like_pytorch() {
    let x = Tensor::from([[1, 2, 3], [40, 50, 60]]);
    assert_eq!(x.to_string(), "tensor([[ 1,  2,  3],\n        [40, 50, 60]])");
    let f = Tensor::from([1.5f32, -2.0]);
    assert_eq!(format!("{f:.2}"), "tensor([ 1.50, -2.00])");
    assert_eq!(Tensor::scalar(3u8).to_string(), "tensor(3)");
    let c = Tensor::from([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]);
    assert_eq!(c.to_string(), "tensor([[[1, 2],\n         [3, 4]],\n\n        [[5, 6],\n         [7, 8]]])");
    let t = x.t();
    assert_eq!(t.to_string(), "tensor([[ 1, 40],\n        [ 2, 50],\n        [ 3, 60]])");
    let big: Tensor<i32, Shape![2000]> = Tensor::arange();
    assert_eq!(big.to_string(), "tensor([   0,    1,    2, ..., 1997, 1998, 1999])");
    let dbg = format!("{:?}", Tensor::from([1, 2]).into_dyn());
    assert_eq!(dbg, "tensor([1, 2]) shape=[..] sizes=[2] strides=[1] offset=0");
}
