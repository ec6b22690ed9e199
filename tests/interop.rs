//! Interop (issue 14): slices and nested arrays, ndarray, nalgebra, faer and approx, each
//! direction with real values; transposed, strided and reversed views; static and dynamic shapes;
//! size errors. Run with `cargo test --test numerics --features ndarray,nalgebra,approx interop::`
//! (the `interop` module of the topic `interop_io` of the `numerics` test binary).
#![cfg(all(feature = "ndarray", feature = "nalgebra", feature = "approx"))]
use approx::{assert_abs_diff_eq, assert_relative_eq, assert_ulps_eq, AbsDiffEq, RelativeEq};
use ndarray::{array, s, Array, Array2, ArrayView2, ArrayViewMut2, Ix2, IxDyn, ShapeBuilder};
use shaped::prelude::*;

/// `[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]`.
fn m34() -> Tensor<f64, Shape![3, 4]> {
    Tensor::from_vec(&[3, 4], (0..12).map(f64::from).collect())
}

// ------------------------------------------------------------------------ slices and arrays
#[test]
fn views_of_slices() {
    let data: Vec<i32> = (0..6).collect();
    let v = TensorView::<i32, Shape![2, 3]>::from_slice(&data, &[2, 3]);
    assert_eq!(v.at([1, 0]), 3);
    assert_eq!(v.t().to_vec(), [0, 3, 1, 4, 2, 5]);
    let d = TensorView::<i32, DynShape>::from_slice(&data, &[3, 1, 2]);
    assert_eq!((d.sizes(), d.at([2, 0, 1])), (&[3, 1, 2][..], 5));

    let e = TensorView::<i32, Shape![2, 3]>::try_from_slice(&data[..5], &[2, 3]).unwrap_err();
    assert!(matches!(e, ShapeError::DataLength { len: 5, .. }), "{e}");
    let e = TensorView::<i32, Shape![2, 3]>::try_from_slice(&data, &[3, 2]).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }), "{e}");

    let mut buf = [0.0f32; 4];
    let mut w = TensorViewMut::<f32, Shape![_, 2]>::from_slice_mut(&mut buf, &[2, 2]);
    w.set([1, 0], 7.0);
    assert_eq!(buf, [0., 0., 7., 0.]);
    assert!(TensorViewMut::<f32, Shape![3]>::try_from_slice_mut(&mut buf, &[3]).is_err());
}

#[test]
fn slices_only_when_contiguous() {
    let mut x = m34();
    assert_eq!(x.as_slice().unwrap()[5], 5.);
    assert_eq!(x.t().as_slice(), None);
    assert_eq!(t!(x[1..3, ..]).as_slice().unwrap(), &[4., 5., 6., 7., 8., 9., 10., 11.]);
    assert_eq!(t!(x[.., 0..2]).as_slice(), None);
    x.as_slice_mut().unwrap()[0] = -1.;
    assert_eq!(x.at([0, 0]), -1.);
    // An owned tensor need not be contiguous: hence Option, not AsRef.
    let l = shaped::Layout::from_parts(&[2, 2], &[1, 2], 0).unwrap();
    let mut owned = Tensor::<i32, Shape![2, 2]>::try_from_parts(vec![1, 2, 3, 4], l).unwrap();
    assert_eq!(owned.as_slice(), None);
    assert_eq!(owned.as_slice_mut(), None);
    assert_eq!(owned.to_vec(), [1, 3, 2, 4]);
}

#[test]
fn nested_arrays() {
    let x = m34();
    assert_eq!(x.to_array(), [[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]);
    assert_eq!(x.t().to_array(), [[0., 4., 8.], [1., 5., 9.], [2., 6., 10.], [3., 7., 11.]]);
    assert_eq!(x.flip(Ax::<1>).to_array()[0], [3., 2., 1., 0.]);
    assert_eq!(x.into_array()[2][3], 11.);
    let s = stensor([[1u8, 2], [3, 4]]);
    assert_eq!(s.t().to_array(), [[1, 3], [2, 4]]);

    let y = Tensor::<u8, Shape![2, 3]>::try_from(vec![1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(y.at([1, 2]), 6);
    let e = Tensor::<u8, Shape![2, 3]>::try_from(vec![1, 2, 3]).unwrap_err();
    assert_eq!(e.to_string(), ShapeError::DataLength { len: 3, sizes: vec![2, 3] }.to_string());
}

// ---------------------------------------------------------------------------------- ndarray
#[test]
fn tensor_views_to_ndarray() {
    let x = m34();
    let a: Array2<f64> = Array::from_shape_vec((3, 4), (0..12).map(f64::from).collect()).unwrap();
    let v: ArrayView2<f64> = x.to_ndarray_view();
    assert_eq!(v, a);
    assert_eq!(v.as_ptr(), x.storage().as_ptr());
    assert_eq!(x.t().into_ndarray_view(), a.t());
    assert_eq!(t!(x[.., 0..4;2]).into_ndarray_view(), a.slice(s![.., ..;2]));
    // Negative strides: reversed rows, reversed columns, both; ndarray agrees element-wise and
    // on the strides.
    let r = t!(x[..;-1, ..]).into_ndarray_view();
    assert_eq!(r, a.slice(s![..;-1, ..]));
    assert_eq!(r.strides(), &[-4, 1]);
    let rc = t!(x[1..;-1, ..;-2]).into_ndarray_view();
    assert_eq!(rc, a.slice(s![1..;-1, ..;-2]));
    assert_eq!(rc.strides(), &[-4, -2]);
    assert_eq!(x.flip(Ax::<0>).t().into_ndarray_view(), a.slice(s![..;-1, ..]).reversed_axes());

    // Dynamic rank: IxDyn, with a size-1 dim from unsqueeze and an expanded (stride-0) dim.
    let d = x.as_dyn().try_unsqueeze(1).unwrap();
    let dv = d.to_ndarray_view();
    assert_eq!(dv.shape(), &[3, 1, 4]);
    assert_eq!(dv.into_dimensionality::<ndarray::Ix3>().unwrap()[[2, 0, 3]], 11.);
    let e = Tensor::<f64, Shape![4]>::from([1., 2., 3., 4.]);
    let b = e.expand::<Shape![2, 4]>();
    assert_eq!(b.to_ndarray_view(), array![[1., 2., 3., 4.], [1., 2., 3., 4.]]);
    // Empty and 0-d.
    let z = Tensor::<f32, Shape![_, 3]>::zeros_sized(&[0, 3]);
    assert_eq!(z.to_ndarray_view().shape(), &[0, 3]);
    assert_eq!(Tensor::scalar(2.5f32).to_ndarray_view().into_scalar(), &2.5);
}

#[test]
fn mutable_views_to_ndarray() {
    let mut x = m34();
    {
        let mut v: ArrayViewMut2<f64> = x.to_ndarray_view_mut();
        v[[2, 3]] = 100.;
    }
    assert_eq!(x.at([2, 3]), 100.);
    // Through a reversed, transposed mutable view: ndarray's [i, j] is x[j, 3 - i].
    let mut fv = x.as_view_mut().flip_mut(Ax::<1>).t_mut().into_ndarray_view_mut();
    fv[[0, 1]] = -5.; // x[1, 3]
    fv.slice_mut(s![.., 2]).fill(0.); // fv[.., 2] is row 2 of x, reversed
    assert_eq!(x.at([1, 3]), -5.);
    assert_eq!(t!(x[2, ..]).to_vec(), [0., 0., 0., 0.]);
    assert_eq!(t!(x[0, ..]).to_vec(), [0., 1., 2., 3.]);
    let mut d = Tensor::<i64, DynShape>::zeros_sized(&[2, 2, 2]);
    d.to_ndarray_view_mut()[[1, 1, 0]] = 9;
    assert_eq!(d.to_vec(), [0, 0, 0, 0, 0, 0, 9, 0]);
}

#[test]
fn ndarray_views_to_tensors() {
    let a: Array2<f64> = Array::from_shape_vec((3, 4), (0..12).map(f64::from).collect()).unwrap();
    let x = m34();
    let v = TensorView::<f64, Shape![3, 4]>::try_from_ndarray_view(a.view()).unwrap();
    assert_eq!(v, x);
    assert_eq!(v.storage().as_ptr(), a.as_ptr());
    let t = TensorView::<f64, Shape![4, 3]>::try_from_ndarray_view(a.t()).unwrap();
    assert_eq!(t.to_vec(), x.t().to_vec());
    assert_eq!(t.strides(), &[1, 4]);
    let r = TensorView::<f64, DynShape>::try_from_ndarray_view(a.slice(s![..;-1, ..;-1])).unwrap();
    assert_eq!(r.to_vec(), x.flip(Ax::<0>).flip(Ax::<1>).to_vec());
    assert_eq!(r.strides(), &[-4, -1]);
    let rt = TensorView::<f64, Shape![_, _]>::try_from_ndarray_view(a.slice(s![..;-1, ..]).reversed_axes()).unwrap();
    assert_eq!(rt.to_vec(), x.flip(Ax::<0>).t().to_vec());
    // A view with gaps between its elements cannot be borrowed as one slice.
    let e = TensorView::<f64, DynShape>::try_from_ndarray_view(a.slice(s![.., ..;2])).unwrap_err();
    assert!(e.to_string().contains("does not fill the memory"), "{e}");
    let row = ndarray::arr1(&[1., 2., 3.]);
    assert!(TensorView::<f64, DynShape>::try_from_ndarray_view(row.broadcast((2, 3)).unwrap()).is_err());
    // Sizes checked against the static shape; any dimension type comes in.
    let e = TensorView::<f64, Shape![4, 3]>::try_from_ndarray_view(a.view()).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }), "{e}");
    let ad = a.clone().into_dyn();
    let s = TensorView::<f64, Shape![3, _]>::try_from_ndarray_view(ad.view()).unwrap();
    assert_eq!(s.sizes(), &[3, 4]);
    let e3 = ndarray::Array3::<f32>::zeros((1, 0, 2));
    assert_eq!(TensorView::<f32, DynShape>::try_from_ndarray_view(e3.view()).unwrap().sizes(), &[1, 0, 2]);

    let mut b = a.clone();
    {
        let mut w =
            TensorViewMut::<f64, Shape![4, 3]>::try_from_ndarray_view_mut(b.view_mut().reversed_axes()).unwrap();
        w.set([3, 0], -1.);
        t!(w[0, ..] = 7.);
    }
    assert_eq!(b[[0, 3]], -1.);
    assert_eq!(b.column(0).to_vec(), [7., 7., 7.]);
    assert!(TensorViewMut::<f64, DynShape>::try_from_ndarray_view_mut(b.slice_mut(s![..;2, ..;2])).is_err());
}

#[test]
fn owned_arrays_both_ways() {
    let x = m34();
    let a = x.clone().into_ndarray();
    assert_eq!(a, Array::from_shape_vec((3, 4), (0..12).map(f64::from).collect()).unwrap());
    let moved = m34();
    let p2 = moved.storage().as_ptr();
    assert_eq!(moved.into_ndarray().as_ptr(), p2, "row-major from offset 0: O(1), no copy");
    // Not contiguous: one copy in row-major order.
    let l = shaped::Layout::from_parts(&[2, 3], &[1, 2], 0).unwrap();
    let tt = Tensor::<i32, DynShape>::try_from_parts(vec![1, 2, 3, 4, 5, 6], l).unwrap();
    let ta: ndarray::ArrayD<i32> = tt.into_ndarray();
    assert_eq!(ta, array![[1, 3, 5], [2, 4, 6]].into_dyn());

    // ndarray -> tensor: standard layout moves the buffer (with an offset after slicing).
    let b: Array2<f32> = Array::from_shape_vec((2, 3), vec![1., 2., 3., 4., 5., 6.]).unwrap();
    let pb = b.as_ptr();
    let t = Tensor::<f32, Shape![2, 3]>::try_from_ndarray(b).unwrap();
    assert_eq!((t.storage().as_ptr(), t.to_vec()), (pb, vec![1., 2., 3., 4., 5., 6.]));
    let mut c: Array2<i32> = Array::from_shape_vec((3, 2), vec![1, 2, 3, 4, 5, 6]).unwrap();
    c.slice_collapse(s![1.., ..]);
    let tc = Tensor::<i32, Shape![2, 2]>::from_ndarray(c);
    assert_eq!((tc.storage_offset(), tc.to_vec()), (2, vec![3, 4, 5, 6]));
    // Column-major and reversed arrays: a copy in logical order.
    let f: Array2<i32> = Array::from_shape_vec((2, 3).f(), vec![1, 4, 2, 5, 3, 6]).unwrap();
    assert_eq!(Tensor::<i32, DynShape>::from_ndarray(f).to_vec(), [1, 2, 3, 4, 5, 6]);
    let mut g = array![[1, 2], [3, 4]];
    g.invert_axis(ndarray::Axis(0));
    let tg = Tensor::<i32, Shape![2, 2]>::from_ndarray(g);
    assert_eq!((tg.to_vec(), tg.is_contiguous()), (vec![3, 4, 1, 2], true));
    // IxDyn into a static shape, and size errors.
    let d = Array::<f64, IxDyn>::zeros(IxDyn(&[2, 2, 2]));
    assert_eq!(Tensor::<f64, Shape![2, _, 2]>::try_from_ndarray(d.clone()).unwrap().numel(), 8);
    let e = Tensor::<f64, Shape![2, 2]>::try_from_ndarray(d).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }), "{e}");
    let seven = Array::<u8, IxDyn>::zeros(IxDyn(&[1; 7]));
    assert!(matches!(Tensor::<u8, DynShape>::try_from_ndarray(seven), Err(ShapeError::RankTooLarge { rank: 7 })));
    let back: Array<f64, Ix2> =
        Tensor::<f64, Shape![2, 3]>::from_ndarray(array![[1., 2., 3.], [4., 5., 6.]]).into_ndarray();
    assert_eq!(back, array![[1., 2., 3.], [4., 5., 6.]]);
}

// --------------------------------------------------------------------------------- nalgebra
#[test]
fn nalgebra_views_and_copies() {
    use nalgebra::{DMatrix, DVector, Matrix2x3, SMatrix};
    let x = m34();
    let m = SMatrix::<f64, 3, 4>::from_row_slice(&x.to_vec());
    // Row-major layouts are refused (nalgebra's strided views are unsound there), the
    // transpose is column-major and viewed in place.
    let e = x.try_to_nalgebra_view().unwrap_err();
    assert!(e.to_string().contains("column-major"), "{e}");
    let t = x.t().try_into_nalgebra_view().unwrap();
    assert_eq!(t, m.transpose());
    assert_eq!(t.strides(), (1, 4));
    // Columns 0 and 3 of the transpose (rows 0 and 3 of [4, 3]... as a column slice).
    let xt = x.t();
    let cols = t!(xt[.., 0..3;2]).try_into_nalgebra_view().unwrap();
    assert_eq!(cols, DMatrix::from_row_slice(4, 2, &[0., 8., 1., 9., 2., 10., 3., 11.]));
    assert!(t!(x[1.., 0..4;3]).try_into_nalgebra_view().is_err());
    // Negative strides: no view, but the copies work.
    let f = x.flip(Ax::<1>);
    assert!(f.try_to_nalgebra_view().is_err());
    assert_eq!(f.to_smatrix(), SMatrix::<f64, 3, 4>::from_row_slice(&f.to_vec()));
    assert_eq!(f.as_dyn().to_dmatrix(), DMatrix::from_row_slice(3, 4, &f.to_vec()));
    assert_eq!(x.to_smatrix(), m);
    let sv = xt.try_to_smatrix_view().unwrap();
    assert_eq!(sv.strides(), (1, 4));
    assert_eq!(sv.transpose(), m);
    assert!(x.try_to_smatrix_view().is_err());
    assert!(x.flip(Ax::<0>).try_to_smatrix_view().is_err());
    let z = Tensor::<f64, Shape![0, 3]>::zeros();
    assert_eq!(z.try_to_smatrix_view().unwrap().shape(), (0, 3));
    assert!(Tensor::<f64, Shape![3]>::from([1., 2., 3.]).try_to_dmatrix().is_err());
    assert_eq!(t!(x[.., 1]).to_dvector(), DVector::from_vec(vec![1., 5., 9.]));
    assert!(x.try_to_dvector().is_err());

    let mut y = m34();
    {
        let mut tv = y.as_view_mut().t_mut();
        let mut w = tv.try_to_nalgebra_view_mut().unwrap();
        assert_eq!(w.strides(), (1, 4));
        w[(3, 2)] = -1.;
    }
    assert_eq!(y.at([2, 3]), -1.);

    // Back, all copies: SMatrix by From, any matrix or view by from_nalgebra.
    let a = Matrix2x3::new(1, 2, 3, 4, 5, 6);
    let ta: Tensor<i32, (Const<2>, Const<3>)> = a.into();
    assert_eq!(ta.to_vec(), [1, 2, 3, 4, 5, 6]);
    let dm = DMatrix::from_row_slice(2, 2, &[1., 2., 3., 4.]);
    assert_eq!(Tensor::<f64, DynShape>::from_nalgebra(&dm).to_vec(), [1., 2., 3., 4.]);
    assert_eq!(Tensor::<f64, Shape![2, 2]>::from_nalgebra(&dm.transpose()).to_vec(), [1., 3., 2., 4.]);
    assert_eq!(Tensor::<f64, Shape![_, _]>::from_nalgebra(&dm.view((0, 1), (2, 1))).to_vec(), [2., 4.]);
    assert_eq!(Tensor::<f64, Shape![_]>::from_nalgebra(&DVector::from_vec(vec![5., 6.])).to_vec(), [5., 6.]);
    let e = Tensor::<f64, Shape![3, 3]>::try_from_nalgebra(&dm).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }), "{e}");
}

// ------------------------------------------------------------------------------------ faer
#[cfg(any(feature = "faer", feature = "linalg"))]
#[test]
fn faer_views_and_copies() {
    let x = m34();
    let m = x.to_faer();
    assert_eq!((m.nrows(), m.ncols(), m.row_stride(), m.col_stride()), (3, 4, 4, 1));
    assert_eq!(*m.get(2, 1), 9.);
    let t = x.t().try_into_faer().unwrap();
    assert_eq!((t.nrows(), *t.get(1, 2)), (4, 9.));
    let f = t!(x[..;-1, 1..;2]).try_into_faer().unwrap();
    assert_eq!((f.row_stride(), f.col_stride(), *f.get(0, 0), *f.get(2, 1)), (-4, 2, 9., 3.));
    assert!(Tensor::<f64, Shape![3]>::from([1., 2., 3.]).try_to_faer().is_err());
    assert!(x.as_dyn().try_to_faer().is_ok());

    let mut y = m34();
    {
        let mut fv = y.as_view_mut().flip_mut(Ax::<0>);
        let mut w = fv.to_faer_mut();
        *w.as_mut().get_mut(0, 0) = -1.;
    }
    assert_eq!(y.at([2, 0]), -1.);

    let a = faer::mat![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
    assert_eq!(Tensor::<f64, Shape![3, 2]>::from_faer(a.as_ref()).to_vec(), [1., 2., 3., 4., 5., 6.]);
    assert_eq!(Tensor::<f64, DynShape>::from_faer(a.transpose()).to_vec(), [1., 3., 5., 2., 4., 6.]);
    let e = Tensor::<f64, Shape![2, 3]>::try_from_faer(a.as_ref()).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }), "{e}");
    // Round trip through faer's own product.
    let p = x.to_faer() * x.t().try_into_faer().unwrap();
    assert_eq!(Tensor::<f64, Shape![3, 3]>::from_faer(p.as_ref()), x.matmul(&x.t()));
}

// ---------------------------------------------------------------------------------- approx
#[test]
fn approximate_equality() {
    let x = m34();
    let y = x.map(|v| v + 1e-10);
    assert_abs_diff_eq!(x, y, epsilon = 1e-9);
    assert!(!x.abs_diff_eq(&y, 1e-11));
    assert_relative_eq!(x, y, max_relative = 1e-9, epsilon = 1e-9);
    assert!(!x.relative_eq(&x.map(|v| v * 1.001), 1e-12, 1e-6));
    assert_ulps_eq!(x, x.clone(), max_ulps = 0);
    assert_abs_diff_eq!(x.t(), y.t().to_owned(), epsilon = 1e-9);
    // Static and dynamic tensors of the same sizes compare; other sizes never do.
    assert_abs_diff_eq!(x, y.clone().into_dyn(), epsilon = 1e-9);
    let flat = Tensor::<f64, Shape![12]>::from_vec(&[12], x.to_vec());
    assert!(!x.abs_diff_eq(&flat, 1.0));
    assert!(!x.abs_diff_eq(&x.t(), 100.0));
    let z = Tensor::<f64, DynShape>::zeros_sized(&[0, 2]);
    assert!(z.abs_diff_eq(&Tensor::<f64, DynShape>::zeros_sized(&[0, 2]), 0.));
    assert!(!z.abs_diff_eq(&Tensor::<f64, DynShape>::zeros_sized(&[2, 0]), 0.));
    let h = Tensor::<f32, Shape![2]>::from([1.0, f32::NAN]);
    assert!(!h.abs_diff_eq(&h, 1.0));
}

// ------------------------------------------------------------------- edge layouts, all crates
#[cfg(any(feature = "faer", feature = "linalg"))]
#[test]
fn offsets_and_size_one_dims() {
    // A view starting inside its buffer: every crate sees exactly its elements.
    let x = m34();
    let v = t!(x[1.., 1..]);
    assert_eq!(v.storage_offset(), 5);
    assert_eq!(v.to_ndarray_view(), array![[5., 6., 7.], [9., 10., 11.]]);
    assert!(v.try_into_nalgebra_view().is_err()); // row-major: nalgebra views are column-major
    let vt = v.t();
    assert_eq!(
        vt.try_into_nalgebra_view().unwrap(),
        nalgebra::DMatrix::from_row_slice(3, 2, &[5., 9., 6., 10., 7., 11.])
    );
    assert_eq!(*v.try_into_faer().unwrap().get(1, 2), 11.);
    let back = TensorView::<f64, DynShape>::try_from_ndarray_view(v.into_ndarray_view()).unwrap_err();
    assert!(back.to_string().contains("does not fill"), "{back}"); // rows 1..3, cols 1..4 of 4: gaps

    // Mutable tensors whose size-1 dims carry a stride of 0 or anything else (never stepped
    // along): ndarray's, nalgebra's and faer's aliasing checks accept them.
    let l = shaped::Layout::from_parts(&[1, 3], &[0, 1], 1).unwrap();
    let mut buf = [0i32; 4];
    let mut w = TensorViewMut::<i32, Shape![_, 3]>::try_from_parts(&mut buf[..], l).unwrap();
    w.to_ndarray_view_mut()[[0, 2]] = 1;
    w.try_to_nalgebra_view_mut().unwrap()[(0, 1)] = 2;
    *w.to_faer_mut().get_mut(0, 0) = 3;
    assert_eq!(buf, [0, 3, 2, 1]);
    let l = shaped::Layout::from_parts(&[3, 1], &[-1, 7], 2).unwrap();
    let mut w = TensorViewMut::<i32, DynShape>::try_from_parts(&mut buf[..], l).unwrap();
    w.to_ndarray_view_mut()[[0, 0]] = 10;
    *w.to_faer_mut().get_mut(2, 0) = 30;
    assert!(w.try_to_nalgebra_view_mut().is_err(), "negative stride");
    assert_eq!(buf, [30, 3, 10, 1]);
    let mut u = Tensor::<f32, Shape![2, 2]>::zeros();
    let mut uu = u.as_view_mut().unsqueeze_mut(Ax::<1>);
    uu.to_ndarray_view_mut()[[1, 0, 1]] = 4.;
    assert_eq!(u.to_vec(), [0., 0., 0., 4.]);
}
