//! Iteration (element order over strided views, indices, views along axes, mutable iteration) and
//! computed constructors (from_fn, collect, linspace/logspace against NumPy, eye, *_like,
//! Default), and the PyTorch float format of Display.
use shaped::prelude::*;
use shaped::{DynIndex, ShapeError};

fn m23() -> Tensor<i32, Shape![2, 3]> {
    Tensor::from([[1, 2, 3], [4, 5, 6]])
}

#[test]
fn iter_follows_logical_order_whatever_the_strides() {
    let x = m23();
    assert_eq!(x.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(x.iter().len(), 6);
    // Transposed: strides [1, 3].
    let t = x.t();
    assert_eq!(t.strides(), [1, 3]);
    assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 4, 2, 5, 3, 6]);
    // Negative strides: columns reversed, then rows reversed too.
    let r = t!(x[.., ..;-1]);
    assert_eq!(r.strides(), [3, -1]);
    assert_eq!(r.iter().copied().collect::<Vec<_>>(), [3, 2, 1, 6, 5, 4]);
    let rr = t!(x[..;-1, ..;-1]);
    assert_eq!(rr.iter().copied().collect::<Vec<_>>(), [6, 5, 4, 3, 2, 1]);
    // Stride 0 (expand): each element repeated.
    let col = Tensor::from([[7], [8]]);
    let e = col.expand::<Shape![2, 3]>();
    assert_eq!(e.strides(), [1, 0]);
    assert_eq!(e.iter().copied().collect::<Vec<_>>(), [7, 7, 7, 8, 8, 8]);
    assert_eq!(e.iter().len(), 6);
    // An offset view (column 1) and a stepped one.
    assert_eq!(t!(x[.., 1]).iter().copied().collect::<Vec<_>>(), [2, 5]);
    assert_eq!(t!(x[.., 0..3;2]).iter().copied().collect::<Vec<_>>(), [1, 3, 4, 6]);
    // Rank 0 and empty tensors.
    assert_eq!(Tensor::scalar(9).iter().copied().collect::<Vec<_>>(), [9]);
    assert_eq!(Tensor::<f32, DynShape>::zeros_sized(&[3, 0]).iter().len(), 0);
    // IntoIterator for references and views.
    let mut sum = 0;
    for v in &x {
        sum += v;
    }
    assert_eq!(sum, 21);
    assert_eq!(x.t().into_iter().copied().collect::<Vec<_>>(), [1, 4, 2, 5, 3, 6]);
    // Inline tensors iterate as well.
    let s = stensor([[1f32, 2.], [3., 4.]]);
    assert_eq!(s.t().iter().copied().collect::<Vec<_>>(), [1., 3., 2., 4.]);
    assert_eq!(s.iter().sum::<f32>(), 10.);
}

#[test]
fn indexed_iter_gives_typed_coordinates() {
    let x = m23();
    let got: Vec<([usize; 2], i32)> = x.indexed_iter().map(|(i, &v)| (i, v)).collect();
    assert_eq!(got, [([0, 0], 1), ([0, 1], 2), ([0, 2], 3), ([1, 0], 4), ([1, 1], 5), ([1, 2], 6)]);
    // Over a transposed, reversed view the coordinates are the view's.
    let t = t!(x[..;-1, ..]).t().indexed_iter().map(|([i, j], &v)| (i, j, v)).collect::<Vec<_>>();
    assert_eq!(t, [(0, 0, 4), (0, 1, 1), (1, 0, 5), (1, 1, 2), (2, 0, 6), (2, 1, 3)]);
    // DynShape: a DynIndex that derefs to a slice.
    let d = x.clone().into_dyn();
    let idx: Vec<DynIndex> = d.indexed_iter().map(|(i, _)| i).collect();
    assert_eq!(idx.len(), 6);
    assert_eq!(idx[4], [1, 1]);
    assert_eq!(idx[5].as_slice(), &[1, 2]);
    assert_eq!(format!("{:?}", idx[2]), "[0, 2]");
    assert_eq!(idx[3].iter().sum::<usize>(), 1);
    // Rank 0: the empty coordinate.
    let s = Tensor::scalar(1.5f64);
    assert_eq!(s.indexed_iter().collect::<Vec<_>>(), [([], &1.5)]);
    assert_eq!(x.indexed_iter().len(), 6);
}

#[test]
fn axis_views_have_typed_shapes_and_contents() {
    let x = m23();
    let rows: Vec<TensorView<i32, Shape![3]>> = x.rows().collect();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].to_vec(), rows[1].to_vec()), (vec![1, 2, 3], vec![4, 5, 6]));
    let outer: Vec<TensorView<i32, Shape![3]>> = x.outer_iter().collect();
    assert_eq!(outer[1].to_vec(), [4, 5, 6]);
    let cols: Vec<TensorView<i32, Shape![2]>> = x.axis_iter(Ax::<1>).collect();
    assert_eq!(cols.iter().map(|c| c.to_vec()).collect::<Vec<_>>(), [[1, 4], [2, 5], [3, 6]]);
    assert_eq!(cols[2].strides(), [3]);
    assert_eq!(x.axis_iter(Ax::<-1>).len(), 3);
    // Double-ended.
    assert_eq!(x.axis_iter(Ax::<1>).next_back().unwrap().to_vec(), [3, 6]);
    assert_eq!(x.axis_iter(Ax::<1>).rev().map(|c| c.at([0])).collect::<Vec<_>>(), [3, 2, 1]);
    // Views of views keep the source's lifetime, and rank 3 gives matrices.
    let c = Tensor::<i32, Shape![2, 2, 2]>::from_fn(|[i, j, k]| (100 * i + 10 * j + k) as i32);
    let mats: Vec<TensorView<i32, Shape![2, 2]>> = c.axis_iter(Ax::<2>).collect();
    assert_eq!(mats[1].to_vec(), [1, 11, 101, 111]);
    // Reversed axis: views in the reversed order.
    let r = t!(x[..;-1, ..]);
    assert_eq!(r.rows().map(|v| v.to_vec()).collect::<Vec<_>>(), [[4, 5, 6], [1, 2, 3]]);
    // Runtime axis.
    let d: Vec<TensorView<i32, (Dyn,)>> = x.axis_iter(-1).collect();
    assert_eq!((d.len(), d[0].sizes(), d[0].to_vec()), (3, &[2][..], vec![1, 4]));
    assert_eq!(x.try_axis_iter(2).unwrap_err(), ShapeError::Axis { axis: 2, rank: 2 },);
    let dx = x.clone().into_dyn();
    assert!(dx.try_axis_iter(Ax::<3>).is_err());
    assert_eq!(dx.axis_iter(Ax::<0>).map(|v| v.to_vec()).collect::<Vec<_>>(), [[1, 2, 3], [4, 5, 6]]);
}

#[test]
fn iter_mut_writes_in_logical_order() {
    // Contiguous.
    let mut x = m23();
    for (k, v) in x.iter_mut().enumerate() {
        *v = 10 * k as i32;
    }
    assert_eq!(x.to_vec(), [0, 10, 20, 30, 40, 50]);
    // Increasing but not contiguous (a narrowed view).
    let mut y = Tensor::<i32, Shape![3, 4]>::zeros();
    let mut n = y.narrow_mut(Ax::<1>, 1, 2);
    assert_eq!(n.iter_mut().len(), 6);
    for (k, v) in n.iter_mut().enumerate() {
        *v = k as i32 + 1;
    }
    assert_eq!(y.to_vec(), [0, 1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0]);
    // Transposed: logical order of the transpose.
    let mut z = m23();
    for (k, v) in z.t_mut().iter_mut().enumerate() {
        *v = k as i32;
    }
    assert_eq!(z.to_vec(), [0, 2, 4, 1, 3, 5]);
    // Negative stride, through IntoIterator of the mutable view.
    let mut w = Tensor::from([1, 2, 3, 4]);
    for (k, v) in w.flip_mut(Ax::<0>).into_iter().enumerate() {
        *v = k as i32;
    }
    assert_eq!(w.to_vec(), [3, 2, 1, 0]);
    // `for v in &mut t`, all borrows alive at once.
    let mut s = stensor([1f64, 2., 3.]);
    let refs: Vec<&mut f64> = (&mut s).into_iter().collect();
    for r in refs {
        *r *= 2.;
    }
    assert_eq!(s.to_vec(), [2., 4., 6.]);
    // Shared storage is made private before the write.
    let a = Tensor::from([1, 2]).into_shared();
    let mut b = a.clone();
    b.iter_mut().for_each(|v| *v += 1);
    assert_eq!((a.to_vec(), b.to_vec()), (vec![1, 2], vec![2, 3]));
}

#[test]
fn axis_iter_mut_splits_disjoint_views() {
    let mut x = Tensor::<i32, Shape![3, 2]>::zeros();
    let rows: Vec<TensorViewMut<i32, Shape![2]>> = x.axis_iter_mut(Ax::<0>).collect();
    assert_eq!(rows.len(), 3);
    for (i, mut r) in rows.into_iter().enumerate() {
        r.fill(i as i32 + 1);
    }
    assert_eq!(x.to_vec(), [1, 1, 2, 2, 3, 3]);
    // Reversed rows (negative stride) split from the end of the buffer.
    let mut v = x.flip_mut(Ax::<0>);
    for (i, mut r) in v.axis_iter_mut(Ax::<0>).enumerate() {
        r.set([1], 10 * i as i32);
    }
    assert_eq!(x.to_vec(), [1, 20, 2, 10, 3, 0]);
    // Axis 1 of the transpose is axis 0 of the source: disjoint rows again.
    let mut t = x.t_mut();
    for (i, mut c) in t.axis_iter_mut(Ax::<1>).enumerate() {
        c.set([0], -(i as i32));
    }
    assert_eq!(x.to_vec(), [0, 20, -1, 10, -2, 0]);
    // Columns of a row-major matrix interleave: refused, for_each_axis_mut works.
    let e = x.try_axis_iter_mut(Ax::<1>).unwrap_err();
    assert!(e.to_string().contains("interleave in memory"), "{e}");
    x.for_each_axis_mut(Ax::<1>, |j, mut col: TensorViewMut<i32, Shape![3]>| col.fill(j as i32 * 7));
    assert_eq!(x.to_vec(), [0, 7, 0, 7, 0, 7]);
    // Rank 3, middle axis: each view spans its own block only when the axis is outermost.
    let mut c = Tensor::<i32, Shape![2, 2, 2]>::zeros();
    assert!(c.try_axis_iter_mut(Ax::<1>).is_err());
    c.for_each_axis_mut(Ax::<1>, |j, mut m| m.fill(j as i32));
    assert_eq!(c.to_vec(), [0, 0, 1, 1, 0, 0, 1, 1]);
    // Empty views and a length-1 axis.
    let mut z = Tensor::<i32, DynShape>::zeros_sized(&[3, 0]);
    assert_eq!(z.axis_iter_mut(Ax::<0>).map(|v| v.numel()).collect::<Vec<_>>(), [0, 0, 0]);
    let mut one = Tensor::<i32, Shape![1, 3]>::zeros();
    for mut r in one.axis_iter_mut(Ax::<0>) {
        r.fill(4);
    }
    assert_eq!(one.to_vec(), [4, 4, 4]);
    assert_eq!(one.axis_iter_mut(Ax::<1>).len(), 3);
    // An inline tensor.
    let mut s = stensor([[1f32, 2.], [3., 4.]]);
    for mut r in s.axis_iter_mut(Ax::<0>) {
        r.fill(0.);
    }
    assert_eq!(s.to_vec(), [0.; 4]);
}

#[test]
fn from_fn_static_and_sized() {
    let t = Tensor::<i32, Shape![2, 3]>::from_fn(|[i, j]| 10 * i as i32 + j as i32);
    assert_eq!(t.to_vec(), [0, 1, 2, 10, 11, 12]);
    let mut calls = Vec::new();
    let _ = Tensor::<u8, Shape![2, 2]>::from_fn(|idx| {
        calls.push(idx);
        0
    });
    assert_eq!(calls, [[0, 0], [0, 1], [1, 0], [1, 1]]);
    let s = Tensor::<f32, Shape![]>::from_fn(|[]| 2.5);
    assert_eq!(s.item(), 2.5);
    let r = Tensor::<i64, Shape![_, 2]>::from_fn_sized(&[3, 2], |[i, j]| (i * 2 + j) as i64);
    assert_eq!((r.sizes(), r.to_vec()), (&[3, 2][..], vec![0, 1, 2, 3, 4, 5]));
    let d = Tensor::<usize, DynShape>::from_fn_sized(&[2, 1, 2], |idx| idx.iter().sum());
    assert_eq!(d.to_vec(), [0, 1, 1, 2]);
    let e = Tensor::<f32, Shape![_, 2]>::try_from_fn_sized(&[2, 3], |_| 0.).unwrap_err();
    assert_eq!(e.to_string(), "sizes [2, 3] do not match shape [_, 2]");
    assert!(Tensor::<f32, DynShape>::try_from_fn_sized(&[1; 7], |_| 0.).is_err());
    // The empty tensor calls nothing.
    let z = Tensor::<f32, Shape![_]>::from_fn_sized(&[0], |_| unreachable!());
    assert_eq!(z.numel(), 0);
}

#[test]
fn collect_into_one_dim() {
    let t: Tensor<f32, Shape![_]> = (0..5).map(|i| i as f32 * 0.5).collect();
    assert_eq!((t.sizes(), t.to_vec()), (&[5][..], vec![0., 0.5, 1., 1.5, 2.]));
    let d: Tensor<i32, DynShape> = [3, 1, 2].into_iter().collect();
    assert_eq!((d.sizes(), d.to_vec()), (&[3][..], vec![3, 1, 2]));
    let e: Tensor<u8, Shape![_]> = core::iter::empty().collect();
    assert_eq!(e.sizes(), [0]);
    // Round trip through iter().
    let x = m23();
    let back: Tensor<i32, Shape![_]> = x.t().iter().copied().collect();
    assert_eq!(back.to_vec(), [1, 4, 2, 5, 3, 6]);
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
}

#[test]
fn linspace_logspace_match_numpy() {
    // np.linspace(-1.0, 2.0, 7)
    let a = Tensor::<f64, Shape![7]>::linspace(-1., 2.);
    assert_eq!(a.to_vec(), [-1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0]);
    // np.linspace(0.0, 1.0, 10)
    let b = Tensor::<f64, Shape![_]>::linspace_sized(0., 1., 10);
    assert_close(
        &b.to_vec(),
        &[
            0.0,
            0.1111111111111111,
            0.2222222222222222,
            0.3333333333333333,
            0.4444444444444444,
            0.5555555555555556,
            0.6666666666666666,
            0.7777777777777777,
            0.8888888888888888,
            1.0,
        ],
        1e-15,
    );
    assert_eq!((b.at([0]), b.at([9])), (0.0, 1.0)); // both ends exact
                                                    // np.linspace(0, 1, 3, dtype=np.float32)
    assert_eq!(Tensor::<f32, Shape![3]>::linspace(0., 1.).to_vec(), [0.0, 0.5, 1.0]);
    // One and zero steps: [start] and [].
    assert_eq!(Tensor::<f64, (Const<1>,)>::linspace(3., 5.).to_vec(), [3.]);
    assert_eq!(Tensor::<f64, Shape![_]>::linspace_sized(3., 5., 0).sizes(), [0]);
    // Decreasing range.
    assert_eq!(Tensor::<f64, Shape![3]>::linspace(1., -1.).to_vec(), [1., 0., -1.]);
    // np.logspace(0.0, 3.0, 4)
    assert_close(&Tensor::<f64, Shape![4]>::logspace(0., 3., 10.).to_vec(), &[1.0, 10.0, 100.0, 1000.0], 1e-13);
    // np.logspace(-2.0, 2.0, 5, base=2.0)
    assert_close(
        &Tensor::<f64, Shape![_]>::logspace_sized(-2., 2., 5, 2.).to_vec(),
        &[0.25, 0.5, 1.0, 2.0, 4.0],
        1e-13,
    );
    // np.logspace(1.0, 2.0, 3)
    assert_close(
        &Tensor::<f64, Shape![_]>::try_logspace_sized(1., 2., 3, 10.).unwrap().to_vec(),
        &[10.0, 31.622776601683793, 100.0],
        1e-13,
    );
    assert!(matches!(
        Tensor::<f64, Shape![_]>::try_linspace_sized(0., 1., usize::MAX),
        Err(ShapeError::Overflow { .. })
    ));
}

#[test]
fn eye_static_and_sized() {
    let i = Tensor::<f32, Shape![3, 3]>::eye();
    assert_eq!(i.to_vec(), [1., 0., 0., 0., 1., 0., 0., 0., 1.]);
    // np.eye(2, 3)
    let r = Tensor::<f64, Shape![_, _]>::eye_sized(2, 3);
    assert_eq!((r.sizes(), r.to_vec()), (&[2, 3][..], vec![1., 0., 0., 0., 1., 0.]));
    let t = Tensor::<i32, DynShape>::eye_sized(3, 2);
    assert_eq!(t.to_vec(), [1, 0, 0, 1, 0, 0]);
    let e = Tensor::<f32, Shape![2, _]>::try_eye_sized(3, 3).unwrap_err();
    assert_eq!(e.to_string(), "sizes [3, 3] do not match shape [2, _]");
    assert_eq!(Tensor::<bool, Shape![_, _]>::eye_sized(0, 4).sizes(), [0, 4]);
    // The identity of matmul.
    let a = Tensor::from([[1., 2.], [3., 4.]]);
    assert_eq!(a.matmul(&Tensor::<f64, Shape![2, 2]>::eye()), a);
}

#[test]
fn like_constructors_and_default() {
    let x = m23();
    let f: Tensor<i32, Shape![2, 3]> = x.t().t().full_like(7);
    assert_eq!((f.sizes(), f.strides(), f.to_vec()), (&[2, 3][..], &[3, 1][..], vec![7; 6]));
    // The transpose's shape, contiguous.
    let z = x.t().zeros_like();
    assert_eq!((z.sizes(), z.strides()), (&[3, 2][..], &[2, 1][..]));
    assert_eq!(z.to_vec(), [0; 6]);
    let o = x.clone().into_dyn().ones_like();
    assert_eq!((o.sizes(), o.to_vec()), (&[2, 3][..], vec![1; 6]));
    // Inline in, inline out.
    let s = stensor([[1f64, 2.], [3., 4.]]);
    let sz: STensor<f64, Shape![2, 2]> = s.zeros_like();
    assert_eq!(sz.into_array(), [[0., 0.], [0., 0.]]);
    let so: STensor<f64, Shape![2, 2]> = s.try_full_like(0.5).unwrap();
    assert_eq!(so.to_vec(), [0.5; 4]);
    // Default: zeros of a static shape.
    let d: Tensor<f32, Shape![2, 3]> = Default::default();
    assert_eq!((d.sizes(), d.to_vec()), (&[2, 3][..], vec![0.; 6]));
    let d0 = Tensor::<u8, Shape![]>::default();
    assert_eq!(d0.item(), 0);
}

#[test]
fn display_floats_like_pytorch() {
    // Strings as PyTorch 2.x prints the same tensors (default print options).
    assert_eq!(Tensor::from([1f32, 2., 3.]).to_string(), "tensor([1., 2., 3.])");
    assert_eq!(Tensor::from([0.1f64, 1.5]).to_string(), "tensor([0.1000, 1.5000])");
    assert_eq!(Tensor::from([[1f32, -2.], [3., 4.]]).to_string(), "tensor([[ 1., -2.],\n        [ 3.,  4.]])");
    assert_eq!(Tensor::from([0.5f32, -0.25]).to_string(), "tensor([ 0.5000, -0.2500])");
    assert_eq!(Tensor::<f32, Shape![2]>::zeros().to_string(), "tensor([0., 0.])");
    assert_eq!(Tensor::scalar(2.5f32).to_string(), "tensor(2.5000)");
    assert_eq!(Tensor::scalar(3f64).to_string(), "tensor(3.)");
    // Scientific notation when magnitudes span more than 1000, exceed 1e8 or fall below 1e-4.
    assert_eq!(Tensor::from([1e-5f64, 1.]).to_string(), "tensor([1.0000e-05, 1.0000e+00])");
    assert_eq!(Tensor::from([1e10f64, 1.]).to_string(), "tensor([1.0000e+10, 1.0000e+00])");
    assert_eq!(Tensor::from([0.5f64, 123.25]).to_string(), "tensor([  0.5000, 123.2500])");
    assert_eq!(Tensor::from([0.1f64, 123.25]).to_string(), "tensor([1.0000e-01, 1.2325e+02])");
    // Non-finite values.
    assert_eq!(Tensor::from([f32::NAN, 1.5, f32::NEG_INFINITY]).to_string(), "tensor([   nan, 1.5000,   -inf])");
    assert_eq!(Tensor::from([f64::INFINITY, 1.]).to_string(), "tensor([inf, 1.])");
    // Half precision types print as floats too.
    let h = Tensor::from([shaped::f16::from_f32(0.5), shaped::f16::from_f32(2.)]);
    assert_eq!(h.to_string(), "tensor([0.5000, 2.0000])");
    // An explicit precision sets the decimals of every element, integers included.
    assert_eq!(format!("{:.2}", Tensor::from([1.5f32, -2.0])), "tensor([ 1.50, -2.00])");
    assert_eq!(format!("{:.1}", Tensor::from([1f64, 2.])), "tensor([1.0, 2.0])");
    // Summarised tensors: the mode comes from the shown elements.
    let big = Tensor::<f64, Shape![2000]>::linspace(1., 2.);
    assert_eq!(big.to_string(), "tensor([1.0000, 1.0005, 1.0010, ..., 1.9990, 1.9995, 2.0000])");
    // Views print their logical order; integers and bools are unchanged.
    let x = Tensor::from([[1f32, 2.], [3., 4.]]);
    assert_eq!(x.t().to_string(), "tensor([[1., 3.],\n        [2., 4.]])");
    assert_eq!(Tensor::from([1, 20]).to_string(), "tensor([ 1, 20])");
    assert_eq!(Tensor::from([true, false]).to_string(), "tensor([ true, false])");
}
