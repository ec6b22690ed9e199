//! `t!` indexing: every item form, static result types, runtime checks, and assignment.
use shaped::prelude::*;

fn x() -> Tensor<i32, Shape![3, 4]> {
    Tensor::<i32, Shape![12]>::arange().reshape::<Shape![3, 4]>().into_owned()
}

#[test]
fn literal_items_give_static_types() {
    let x = x(); // [[0,1,2,3],[4,5,6,7],[8,9,10,11]]
    let col: TensorView<i32, Shape![3]> = t!(x[.., 1]);
    assert_eq!(col.to_vec(), [1, 5, 9]);
    let last: TensorView<i32, Shape![4]> = t!(x[-1]);
    assert_eq!(last.to_vec(), [8, 9, 10, 11]);
    let e: TensorView<i32, Shape![]> = t!(x[1, -2]);
    assert_eq!(e.at([]), 6);
    let r: TensorView<i32, Shape![2, 4]> = t!(x[1..3]);
    assert_eq!(r.at([0, 0]), 4);
    let r: TensorView<i32, Shape![3, 2]> = t!(x[.., 1..=2]);
    assert_eq!(r.to_vec(), [1, 2, 5, 6, 9, 10]);
    let r: TensorView<i32, Shape![3, 3]> = t!(x[.., ..3]);
    assert_eq!(r.at([2, 2]), 10);
    let r: TensorView<i32, Shape![3, 2]> = t!(x[.., 2..]);
    assert_eq!(r.to_vec(), [2, 3, 6, 7, 10, 11]);
    let r: TensorView<i32, Shape![3, 2]> = t!(x[.., ..;2]);
    assert_eq!(r.to_vec(), [0, 2, 4, 6, 8, 10]);
    let r: TensorView<i32, Shape![2]> = t!(x[0, 1..;2]);
    assert_eq!(r.to_vec(), [1, 3]);
    let r: TensorView<i32, Shape![2, 4]> = t!(x[-2..]);
    assert_eq!(r.at([0, 0]), 4);
    let r: TensorView<i32, Shape![1]> = t!(x[0, -3..-2]);
    assert_eq!(r.to_vec(), [1]);
    let r: TensorView<i32, Shape![2]> = t!(x[0, 0..4;3]);
    assert_eq!(r.to_vec(), [0, 3]);
}

#[test]
fn negative_steps_are_reversed_views() {
    let x = x();
    let r: TensorView<i32, Shape![4]> = t!(x[0, ..;-1]);
    assert_eq!(r.to_vec(), [3, 2, 1, 0]);
    assert_eq!(r.strides(), [-1]);
    let r: TensorView<i32, Shape![3]> = t!(x[..;-1, 2]);
    assert_eq!(r.to_vec(), [10, 6, 2]);
    let r: TensorView<i32, Shape![2]> = t!(x[0, ..;-2]);
    assert_eq!(r.to_vec(), [3, 1]);
    // `a..b;-k` walks the same elements as `a..b`, from the last one back.
    let r: TensorView<i32, Shape![2]> = t!(x[0, 1..4;-2]);
    assert_eq!(r.to_vec(), [3, 1]);
    let r: TensorView<i32, Shape![2]> = t!(x[0, -2..;-1]);
    assert_eq!(r.to_vec(), [3, 2]);
    let r: TensorView<i32, Shape![0]> = t!(x[0, 2..2;-1]);
    assert_eq!(r.numel(), 0);
    let rr = t!(r[..;-1]);
    assert_eq!(rr.numel(), 0);
    let both = t!(x[..;-1, ..;-1]);
    assert_eq!(both.to_vec(), (0..12).rev().collect::<Vec<_>>());
    assert_eq!(t!(both[..;-1, ..;-1]).to_vec(), (0..12).collect::<Vec<_>>());
}

#[test]
fn none_and_ellipsis() {
    let x = x();
    let a: TensorView<i32, Shape![1, 3, 4]> = t!(x[None]);
    assert_eq!(a.strides()[1..], [4, 1]);
    let b: TensorView<i32, Shape![3, 1, 4]> = t!(x[.., None]);
    assert_eq!(b.to_vec(), x.to_vec());
    let c: TensorView<i32, Shape![3]> = t!(x[..., 0]);
    assert_eq!(c.to_vec(), [0, 4, 8]);
    let d: TensorView<i32, Shape![1, 3, 4, 1]> = t!(x[None, ..., None]);
    assert_eq!(d.sizes(), [1, 3, 4, 1]);
    let e: TensorView<i32, Shape![]> = t!(x[1, ..., -1]);
    assert_eq!(e.at([]), 7);
    let f: TensorView<i32, Shape![3, 4]> = t!(x[...]);
    assert_eq!(f, x);
    let y: Tensor<i32, Shape![2, 3, 4]> = Tensor::zeros();
    let g: TensorView<i32, Shape![3]> = t!(y[0, ..., 1]);
    assert_eq!(g.sizes(), [3]);
}

#[test]
fn runtime_expressions_give_dyn_dims() {
    let x = x();
    let (i, a, b) = (2usize, 1i64, 3);
    let r: TensorView<i32, Shape![4]> = t!(x[i]);
    assert_eq!(r.at([0]), 8);
    let r: TensorView<i32, Shape![3, _]> = t!(x[.., a..b]);
    assert_eq!(r.to_vec(), [1, 2, 5, 6, 9, 10]);
    let r: TensorView<i32, Shape![_]> = t!(x[1, a..]);
    assert_eq!(r.to_vec(), [5, 6, 7]);
    let r: TensorView<i32, Shape![_]> = t!(x[1, ..=b]);
    assert_eq!(r.to_vec(), [4, 5, 6, 7]);
    let k = -1;
    let r: TensorView<i32, Shape![_]> = t!(x[1, ..;k]);
    assert_eq!(r.to_vec(), [7, 6, 5, 4]);
    let r: TensorView<i32, Shape![_]> = t!(x[1, 1..-1]);
    assert_eq!(r.to_vec(), [5, 6]);
    let r: TensorView<i32, Shape![_]> = t!(x[2, ..-1]);
    assert_eq!(r.to_vec(), [8, 9, 10]);
    let r: TensorView<i32, Shape![_]> = t!(x[2, (i - 1)..(i + 1)]);
    assert_eq!(r.to_vec(), [9, 10]);
    let r: TensorView<i32, Shape![_]> = t!(x[2, ..=k]);
    assert_eq!(r.to_vec(), [8, 9, 10, 11]);
}

#[test]
fn dyn_dims_and_dyn_shapes_are_checked_at_run_time() {
    let d = Tensor::<i32, Shape![_, 4]>::from_vec(&[3, 4], (0..12).collect());
    let r: TensorView<i32, Shape![2, 4]> = t!(d[0..2]); // literal range on a Dyn dim: static length
    assert_eq!(r.at([1, 0]), 4);
    let e = std::panic::catch_unwind(|| t!(d[0..5]).numel()).unwrap_err();
    assert_eq!(e.downcast_ref::<String>().unwrap(), "range 0..5 is out of bounds for dimension 0 of size 3");
    let dy = x().into_dyn();
    let r = t!(dy[.., 1]);
    assert_eq!(r.to_vec(), [1, 5, 9]);
    let r = t!(dy[None, -1, ..;-1]);
    assert_eq!(r.sizes(), [1, 4]);
    assert_eq!(r.to_vec(), [11, 10, 9, 8]);
    let e = std::panic::catch_unwind(|| t!(dy[0, 0, 0]).numel()).unwrap_err();
    assert_eq!(e.downcast_ref::<String>().unwrap(), "too many indices: 3 indices for a tensor of rank 2");
    let e = std::panic::catch_unwind(|| t!(dy[3]).numel()).unwrap_err();
    assert_eq!(e.downcast_ref::<String>().unwrap(), "index 3 is out of bounds for dimension 0 of size 3");
    let e = std::panic::catch_unwind(|| t!(dy[-4]).numel()).unwrap_err();
    assert_eq!(e.downcast_ref::<String>().unwrap(), "index -4 is out of bounds for dimension 0 of size 3");
}

#[test]
fn try_form_returns_the_error() {
    let x = x();
    let (j, k) = (7, 2);
    assert_eq!(t!(try x[0, j]).unwrap_err().to_string(), "index 7 is out of bounds for dimension 1 of size 4");
    assert_eq!(t!(try x[0, k]).unwrap().at([]), 2);
    let d = x.into_dyn();
    assert_eq!(t!(try d[0, 0, 0]).unwrap_err(), ShapeError::TooManyIndices { given: 3, rank: 2 });
}

#[test]
#[should_panic(expected = "index 7 is out of bounds for dimension 1 of size 4")]
fn runtime_index_out_of_bounds_panics() {
    let x = x();
    let j = 7;
    let _ = t!(x[0, j]);
}

#[test]
#[should_panic(expected = "range 3..2 is out of bounds for dimension 1 of size 4")]
fn runtime_reversed_bounds_are_an_error_not_empty() {
    let x = x();
    let (a, b) = (3, 2);
    let _ = t!(x[0, a..b]);
}

#[test]
#[should_panic(expected = "slice step cannot be zero (dimension 1)")]
fn runtime_zero_step_panics() {
    let x = x();
    let s = 0;
    let _ = t!(x[0, ..;s]);
}

#[test]
fn views_of_views_keep_their_lifetime() {
    let x = x();
    let w = {
        let v = t!(x[1..]);
        t!(v[.., 0]) // sliced from a view value: borrows x, not v, so it outlives v
    };
    assert_eq!(w.to_vec(), [4, 8]);
    assert_eq!(w.storage().as_ptr(), x.storage().as_ptr());
    assert_eq!(w.storage_offset(), 4);
}

#[test]
fn assignment_through_views() {
    let mut x: Tensor<f32, Shape![3, 2]> = Tensor::zeros();
    t!(x[.., 1] = 1.0);
    assert_eq!(x.to_vec(), [0., 1., 0., 1., 0., 1.]);
    let col = Tensor::from([7., 8., 9.]);
    t!(x[.., 0] = col);
    assert_eq!(x.to_vec(), [7., 1., 8., 1., 9., 1.]);
    t!(x[.., 0] = &Tensor::from([5.0])); // broadcast
    assert_eq!(x.to_vec(), [5., 1., 5., 1., 5., 1.]);
    // A runtime shape may have leading 1s beyond the view's rank: dropped as in PyTorch.
    t!(x[.., 0] = &Tensor::from([[5.0]]).into_dyn());
    assert_eq!(x.to_vec(), [5., 1., 5., 1., 5., 1.]);
    let src = Tensor::from([[1., 2.], [3., 4.], [5., 6.]]);
    t!(x[..;-1, ..] = t!(src[.., ..]));
    assert_eq!(x.to_vec(), [5., 6., 3., 4., 1., 2.]);
    let i = 1;
    t!(x[i, ..] = -1.0);
    assert_eq!(x.at([1, 1]), -1.0);
    t!(x[...] = 0.0);
    assert_eq!(x.sum(), 0.0);
    let mut d = x.clone().into_dyn();
    t!(d[-1, ..] = 4.0);
    assert_eq!(d.to_vec(), [0., 0., 0., 0., 4., 4.]);
}

#[test]
#[should_panic(expected = "cannot expand [2] to [3]: only size-1 dims can be expanded")]
fn assignment_of_mismatched_shape_panics() {
    // (with a static value this does not compile: ui-tests/fail/assign_shape_mismatch.rs)
    let mut x: Tensor<f32, Shape![3, 2]> = Tensor::zeros();
    t!(x[.., 0] = Tensor::from([1.0, 2.0]).into_dyn());
}

#[test]
fn slice_args_for_dynamic_code() {
    let d = x().into_dyn();
    let v = d.slice(&[SliceArg::Index(-1), SliceArg::range(1.., 2)]);
    assert_eq!(v.to_vec(), [9, 11]);
    let v = d.slice(&[SliceArg::Ellipsis, SliceArg::NewAxis, SliceArg::range(..=1, 1)]);
    assert_eq!(v.sizes(), [3, 1, 2]);
    let v = d.slice(&[SliceArg::range(.., -1), SliceArg::Full]);
    assert_eq!(v.to_vec(), [8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3]);
    let e = d.try_slice(&[SliceArg::Full, SliceArg::Full, SliceArg::Index(0)]).unwrap_err();
    assert_eq!(e.to_string(), "too many indices: 3 indices for a tensor of rank 2");
    let e = d.try_slice(&[SliceArg::Ellipsis, SliceArg::Ellipsis]).unwrap_err();
    assert_eq!(e.to_string(), "an index can only have a single ellipsis (`...`)");
    assert!(matches!(d.try_slice(&[SliceArg::range(.., 0)]), Err(ShapeError::ZeroStep { axis: 0 })));
    assert!(matches!(d.try_slice(&[SliceArg::range(0..9, 1)]), Err(ShapeError::Range { .. })));
}

/// `t!(x[..] op= &y)` runs the operator's own in-place form (issue 26: the two had drifted, the
/// `t!` form serial and the operator on rayon's pool): the same values at a size past the
/// parallel threshold, the same errors, and nothing written on an error.
#[test]
fn indexed_compound_assignment_is_the_operators() {
    let n = if cfg!(miri) { 64 } else { 1 << 19 };
    let y = Tensor::<f32, DynShape>::from_vec(&[n], (0..n).map(|i| (i % 97) as f32 * 0.5).collect());
    let mut a = Tensor::<f32, DynShape>::from_vec(&[n], (0..n).map(|i| (i % 13) as f32).collect());
    let mut b = a.clone();
    t!(a[..] += &y);
    b += &y;
    assert_eq!(a, b);
    t!(a[..] *= &y);
    b *= &y;
    assert_eq!(a, b);
    let mut xi = Tensor::<i32, DynShape>::from_vec(&[4], vec![1, 2, 3, 4]);
    let z = Tensor::<i32, DynShape>::from_vec(&[4], vec![1, 0, 1, 1]);
    let e1 = t!(try xi[..] /= &z).unwrap_err();
    let e2 = xi.try_div_assign(&z).unwrap_err();
    assert_eq!(e1.to_string(), e2.to_string());
    assert_eq!(xi.to_vec(), [1, 2, 3, 4]);
    let w = Tensor::<i32, DynShape>::from_vec(&[3], vec![1, 1, 1]);
    let e1 = t!(try xi[..] -= &w).unwrap_err();
    assert_eq!(e1.to_string(), xi.try_sub_assign(&w).unwrap_err().to_string());
    assert_eq!(xi.to_vec(), [1, 2, 3, 4]);
}

#[test]
#[rustfmt::skip] // the point is the missing spaces
fn assignments_written_without_spaces() {
    let mut a = x();
    let p = &3;
    t!(a[0, 0]=-1);
    t!(a[0, 1]+=-10);
    t!(a[0, 2]*=-2);
    t!(a[1, ..]=&Tensor::<i32, Shape![4]>::full(7));
    t!(a[2, 0]=*p);
    assert_eq!(a.to_vec(), [-1, -9, -4, 3, 7, 7, 7, 7, 3, 9, 10, 11]);
}
