//! The runtime-shape API (issue 35): a `DynShape` program, axes as runtime `isize` (negative
//! counting from the end), has every operation the const-axis API has, without composing it.
//!
//! Each hard-coded answer has beside it the PyTorch / NumPy call it answers; the values were
//! worked out by hand from those functions' documented semantics (neither library was installed
//! where the tests were written), and each runtime-axis form is also compared with its const-axis
//! twin. `every_axis_is_an_argument` reads the sources of shaped-core and fails on a public
//! method with a const axis generic, or a `_dyn` form that is neither deprecated nor one whose
//! runtime values are sizes.
// The `_dyn` runtime-axis forms are deprecated (the axis argument takes an `isize`) but stay
// for one release: this file keeps testing them, beside their axis-argument forms.
#![allow(deprecated)]
mod common;

use proptest::prelude::*;
use shaped::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn dyn_from(sizes: &[usize], data: Vec<f64>) -> Tensor<f64, DynShape> {
    Tensor::try_from_vec(sizes, data).unwrap()
}

fn dyn_i(sizes: &[usize], data: Vec<i32>) -> Tensor<i32, DynShape> {
    Tensor::try_from_vec(sizes, data).unwrap()
}

/// `Err(ShapeError::Axis { axis, rank })`, whose message names both.
fn assert_axis_err<T: std::fmt::Debug>(r: Result<T, ShapeError>, axis: isize, rank: usize) {
    match r {
        Err(e @ ShapeError::Axis { .. }) => {
            assert_eq!(e, ShapeError::Axis { axis, rank });
            let msg = e.to_string();
            assert!(msg.contains(&axis.to_string()) && msg.contains(&rank.to_string()), "{msg}");
        }
        other => panic!("expected an axis error for axis {axis}, rank {rank}, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// kthvalue / median / nanmedian / quantile / nanquantile with keepdim
// ---------------------------------------------------------------------------------------------

#[test]
fn kthvalue_keepdim_matches_pytorch_and_the_static_form() {
    // torch.kthvalue(torch.tensor([[5., 1., 3.], [2., 2., 0.]]), 2, dim=1, keepdim=True)
    //   -> values [[3.], [2.]], indices [[2], [0]]
    let s: Tensor<f64, Shape![2, 3]> = Tensor::from([[5.0, 1.0, 3.0], [2.0, 2.0, 0.0]]);
    let d = s.clone().into_dyn();
    let (v, i) = d.kthvalue_keepdim_dyn(2, 1);
    assert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&[2, 1][..], vec![3.0, 2.0], vec![2, 0]));
    let (vs, is): (Tensor<f64, Shape![2, 1]>, _) = s.kthvalue_keepdim(2, Ax::<1>);
    let _: &Tensor<i64, Shape![2, 1]> = &is;
    assert_eq!((vs.to_vec(), is.to_vec()), (v.to_vec(), i.to_vec()));
    // Negative axis; axis 0 keeps [1, 3]: torch.kthvalue(x, 1, dim=0, keepdim=True)
    //   -> values [[2., 1., 0.]], indices [[1, 0, 1]]
    let (v, i) = d.kthvalue_keepdim_dyn(1, -2);
    assert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&[1, 3][..], vec![2.0, 1.0, 0.0], vec![1, 0, 1]));
    let (vs, _) = s.kthvalue_keepdim(1, Ax::<-2>);
    assert_eq!(vs.to_vec(), v.to_vec());
    // The keepdim result is the removed-axis one with a size-1 dim.
    assert_eq!(d.kthvalue_dyn(3, -1).0.to_vec(), d.kthvalue_keepdim_dyn(3, -1).0.to_vec());
    // Errors: k out of range, axis out of range.
    assert!(matches!(d.try_kthvalue_keepdim_dyn(4, 1), Err(ShapeError::Index { index: 4, axis: 1, size: 3 })));
    assert!(matches!(d.try_kthvalue_keepdim_dyn(0, 1), Err(ShapeError::Index { index: 0, .. })));
    assert_axis_err(d.try_kthvalue_keepdim_dyn(1, 2), 2, 2);
    assert_axis_err(d.try_kthvalue_keepdim_dyn(1, -3), -3, 2);
}

#[test]
fn median_and_nanmedian_keepdim() {
    // torch.median(torch.tensor([[4., 1., 3., 2.], [0., nan, 1., 2.]]), dim=1, keepdim=True)
    //   -> values [[2.], [nan]], indices [[3], [1]]
    let x = dyn_from(&[2, 4], vec![4.0, 1.0, 3.0, 2.0, 0.0, f64::NAN, 1.0, 2.0]);
    let (v, i) = x.median_keepdim_dyn(-1);
    assert_eq!(v.sizes(), &[2, 1]);
    assert_eq!(v.to_vec()[0], 2.0);
    assert!(v.to_vec()[1].is_nan());
    assert_eq!(i.to_vec(), [3, 1]);
    let s: Tensor<f64, Shape![2, 4]> = x.clone().try_into_static().unwrap();
    let (vs, is): (Tensor<f64, Shape![2, 1]>, _) = s.median_keepdim(Ax::<1>);
    assert_eq!((vs.to_vec()[0], is.to_vec()), (2.0, vec![3, 1]));
    // torch.nanmedian(same, dim=1, keepdim=True) -> values [[2.], [1.]], indices [[3], [2]]
    let (v, i) = x.nanmedian_keepdim_dyn(1);
    assert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&[2, 1][..], vec![2.0, 1.0], vec![3, 2]));
    let (vs, is) = s.nanmedian_keepdim(Ax::<-1>);
    assert_eq!((vs.to_vec(), is.to_vec()), (v.to_vec(), i.to_vec()));
    // Along axis 0: torch.median(x, dim=0, keepdim=True) -> [[0., nan, 1., 2.]], [[1, 1, 1, 0]]
    let (v, i) = x.median_keepdim_dyn(0);
    assert_eq!(v.sizes(), &[1, 4]);
    assert_eq!(i.to_vec(), [1, 1, 1, 0]);
    assert_eq!(x.median_axis_dyn(0).1.to_vec(), i.to_vec());
    // An empty line has no median; an empty batch of lines is an empty result.
    let e = dyn_from(&[2, 0], vec![]);
    assert!(matches!(e.try_median_keepdim_dyn(1), Err(ShapeError::Index { index: 0, axis: 1, size: 0 })));
    let (v, i) = e.median_keepdim_dyn(0);
    assert_eq!((v.sizes(), i.sizes()), (&[1, 0][..], &[1, 0][..]));
    assert_axis_err(x.try_nanmedian_keepdim_dyn(5), 5, 2);
}

#[test]
fn quantile_keepdim() {
    // np.quantile([[4, 1, 3, 2], [0, 10, 20, 30]], 0.25, axis=1, keepdims=True) -> [[1.75], [7.5]]
    let x = dyn_from(&[2, 4], vec![4.0, 1.0, 3.0, 2.0, 0.0, 10.0, 20.0, 30.0]);
    let q = x.quantile_keepdim_dyn(0.25, -1);
    assert_eq!((q.sizes(), q.to_vec()), (&[2, 1][..], vec![1.75, 7.5]));
    let s: Tensor<f64, Shape![2, 4]> = x.clone().try_into_static().unwrap();
    let qs: Tensor<f64, Shape![2, 1]> = s.quantile_keepdim(0.25, Ax::<1>);
    assert_eq!(qs.to_vec(), q.to_vec());
    // np.quantile(same, 0.5, axis=0, keepdims=True) -> [[2., 5.5, 11.5, 16.]]
    let q = x.quantile_keepdim_dyn(0.5, 0);
    assert_eq!((q.sizes(), q.to_vec()), (&[1, 4][..], vec![2.0, 5.5, 11.5, 16.0]));
    assert_eq!(x.quantile_dyn(0.5, 0).to_vec(), q.to_vec());
    // np.nanquantile([[1, nan, 3], [nan, nan, nan]], 0.5, axis=1, keepdims=True) -> [[2.], [nan]]
    let y = dyn_from(&[2, 3], vec![1.0, f64::NAN, 3.0, f64::NAN, f64::NAN, f64::NAN]);
    let q = y.nanquantile_keepdim_dyn(0.5, 1);
    assert_eq!(q.sizes(), &[2, 1]);
    assert_eq!(q.to_vec()[0], 2.0);
    assert!(q.to_vec()[1].is_nan());
    let ys: Tensor<f64, Shape![2, 3]> = y.clone().try_into_static().unwrap();
    assert_eq!(ys.nanquantile_keepdim(0.5, Ax::<1>).to_vec()[0], 2.0);
    // Errors: q outside [0, 1], axis out of range.
    assert!(matches!(x.try_quantile_keepdim_dyn(1.5, 0), Err(ShapeError::Invalid(_))));
    assert_axis_err(x.try_quantile_keepdim_dyn(0.5, -3), -3, 2);
    assert_axis_err(y.try_nanquantile_keepdim_dyn(0.5, 2), 2, 2);
}

// ---------------------------------------------------------------------------------------------
// roll
// ---------------------------------------------------------------------------------------------

#[test]
fn roll_over_several_dims_and_flattened() {
    // torch.roll(torch.arange(1, 9).view(4, 2), shifts=(2, 1), dims=(0, 1))
    //   -> [[6, 5], [8, 7], [2, 1], [4, 3]]
    let x = dyn_i(&[4, 2], (1..=8).collect());
    assert_eq!(x.roll_dims_dyn(&[2, 1], &[0, 1]).to_vec(), [6, 5, 8, 7, 2, 1, 4, 3]);
    // The same as rolling one dim after the other.
    assert_eq!(x.roll_dims_dyn(&[2, 1], &[0, 1]).to_vec(), x.roll_dyn(2, 0).roll_dyn(1, 1).to_vec());
    // Negative axes and shifts; a repeated dim adds its shifts (torch.roll(x, (1, 1), (0, -2))
    // == torch.roll(x, 2, 0)).
    assert_eq!(x.roll_dims_dyn(&[-1], &[-1]).to_vec(), x.roll_dyn(-1, 1).to_vec());
    assert_eq!(x.roll_dims_dyn(&[1, 1], &[0, -2]).to_vec(), x.roll_dyn(2, 0).to_vec());
    // Against the const-axis form on a static tensor (same answer, inline result type kept).
    let s: Tensor<i32, Shape![4, 2]> = x.clone().try_into_static().unwrap();
    let r: Tensor<i32, Shape![4, 2]> = s.roll_dims_dyn(&[3], &[0]);
    assert_eq!(r.to_vec(), s.roll(3, Ax::<0>).to_vec());
    // torch.roll(torch.arange(1, 9).view(4, 2), 1) -> [[8, 1], [2, 3], [4, 5], [6, 7]]
    assert_eq!(x.roll_flat(1).to_vec(), [8, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(x.roll_flat(1).sizes(), &[4, 2]);
    assert_eq!(x.roll_flat(-9).to_vec(), [2, 3, 4, 5, 6, 7, 8, 1]);
    // A transposed (non-contiguous) view rolls its row-major order.
    let t = x.t();
    assert_eq!(t.roll_flat(1).to_vec(), [8, 1, 3, 5, 7, 2, 4, 6]);
    assert_eq!(t.roll_dims_dyn(&[1], &[1]).to_vec(), t.roll_dyn(1, 1).to_vec());
    // Empty tensors stay empty.
    let e = dyn_i(&[0, 3], vec![]);
    assert_eq!(e.roll_flat(2).sizes(), &[0, 3]);
    assert_eq!(e.roll_dims_dyn(&[1, 1], &[0, 1]).sizes(), &[0, 3]);
    // Errors: misaligned or empty lists; an axis past the rank.
    assert!(matches!(x.try_roll_dims_dyn(&[1, 2], &[0]), Err(ShapeError::Invalid(_))));
    assert!(matches!(x.try_roll_dims_dyn(&[], &[]), Err(ShapeError::Invalid(_))));
    assert_axis_err(x.try_roll_dims_dyn(&[1, 1], &[0, 2]), 2, 2);
}

// ---------------------------------------------------------------------------------------------
// scatter_add / scatter_reduce / index_add / index_copy / index_fill
// ---------------------------------------------------------------------------------------------

#[test]
fn scatter_add_and_reduce_with_a_runtime_axis() {
    // torch.zeros(3, 5).scatter_add_(0, torch.tensor([[0, 1, 2, 0, 0]]), torch.ones(2, 5))
    //   -> [[1, 0, 0, 1, 1], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0]]
    let mut x = Tensor::<f32, DynShape>::zeros_sized(&[3, 5]);
    let index = Tensor::from([[0i64, 1, 2, 0, 0]]).into_dyn();
    let ones = Tensor::<f32, DynShape>::ones_sized(&[2, 5]);
    x.scatter_add_dyn_(0, &index, &ones);
    assert_eq!(x.to_vec(), [1., 0., 0., 1., 1., 0., 1., 0., 0., 0., 0., 0., 1., 0., 0.]);
    // The static form gives the same; negative axis -2 is axis 0.
    let s: Tensor<f32, Shape![3, 5]> = Tensor::zeros();
    let ones_s: Tensor<f32, Shape![2, 5]> = Tensor::ones();
    let ys = s.scatter_add(Ax::<0>, &Tensor::from([[0i64, 1, 2, 0, 0]]), &ones_s);
    let yd = Tensor::<f32, DynShape>::zeros_sized(&[3, 5]).scatter_add_dyn(-2, &index, &ones);
    assert_eq!(ys.to_vec(), yd.to_vec());
    // torch.tensor([1., 2., 3., 4.]).scatter_reduce(0, torch.tensor([0, 1, 0, 1, 2, 1]),
    //   torch.tensor([1., 2., 3., 4., 5., 6.]), "sum", include_self=False) -> [4, 12, 5, 4]
    let input = Tensor::from([1.0f32, 2.0, 3.0, 4.0]).into_dyn();
    let idx = Tensor::from([0i64, 1, 0, 1, 2, 1]).into_dyn();
    let src = Tensor::from([1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).into_dyn();
    assert_eq!(input.scatter_reduce_dyn(-1, &idx, &src, ScatterReduce::Sum, false).to_vec(), [4.0, 12.0, 5.0, 4.0]);
    // ... "amax", include_self=True on [5, 4, 3, 2] -> [5, 6, 5, 2]
    let mut input2 = Tensor::from([5.0f32, 4.0, 3.0, 2.0]).into_dyn();
    input2.scatter_reduce_dyn_(0, &idx, &src, ScatterReduce::Amax, true);
    assert_eq!(input2.to_vec(), [5.0, 6.0, 5.0, 2.0]);
    // Mean, with the static form on the same data.
    let st = Tensor::from([1.0f32, 2.0, 3.0, 4.0]);
    let ss = st.scatter_reduce(
        Ax::<0>,
        &Tensor::from([0i64, 1, 0, 1, 2, 1]),
        &Tensor::from([1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]),
        ScatterReduce::Mean,
        true,
    );
    assert_eq!(input.scatter_reduce_dyn(0, &idx, &src, ScatterReduce::Mean, true).to_vec(), ss.to_vec());
    // Errors leave the tensor unchanged.
    let before = x.to_vec();
    assert_axis_err(x.try_scatter_add_dyn_(2, &index, &ones), 2, 2);
    assert!(matches!(
        x.try_scatter_add_dyn_(0, &Tensor::from([[3i64, 0, 0, 0, 0]]), &ones),
        Err(ShapeError::IndexEntry { .. })
    ));
    assert!(matches!(x.try_scatter_add_dyn_(0, &Tensor::from([0i64]), &ones), Err(ShapeError::Mismatch { .. })));
    assert_axis_err(x.try_scatter_reduce_dyn_(-3, &index, &ones, ScatterReduce::Prod, true), -3, 2);
    assert_eq!(x.to_vec(), before);
    // Empty index: nothing written.
    let empty = Tensor::<i64, DynShape>::try_from_vec(&[0, 5], vec![]).unwrap();
    assert_eq!(x.scatter_add_dyn(0, &empty, &ones).to_vec(), before);
}

#[test]
fn index_add_copy_fill_with_a_runtime_axis() {
    // torch.ones(5, 3).index_add_(0, torch.tensor([0, 4, 2]), torch.arange(1., 10.).view(3, 3))
    //   -> [[2, 3, 4], [1, 1, 1], [8, 9, 10], [1, 1, 1], [5, 6, 7]]
    let mut x = Tensor::<f32, DynShape>::ones_sized(&[5, 3]);
    let t = dyn_from(&[3, 3], (1..=9).map(f64::from).collect()).to_vec();
    let t = Tensor::<f32, DynShape>::try_from_vec(&[3, 3], t.iter().map(|&v| v as f32).collect()).unwrap();
    let i = Tensor::from([0i64, 4, 2]);
    x.index_add_dyn_(0, &i, &t, 1.0);
    assert_eq!(x.to_vec(), [2., 3., 4., 1., 1., 1., 8., 9., 10., 1., 1., 1., 5., 6., 7.]);
    // torch.ones(2, 3).index_add(1, torch.tensor([0, 2, 0]), [[1,2,3],[4,5,6]], alpha=2)
    //   -> [[9, 1, 5], [21, 1, 11]]; the static form agrees.
    let ones = Tensor::<f32, DynShape>::ones_sized(&[2, 3]);
    let s = Tensor::<f32, DynShape>::try_from_vec(&[2, 3], vec![1., 2., 3., 4., 5., 6.]).unwrap();
    let y = ones.index_add_dyn(-1, &Tensor::from([0i64, 2, 0]), &s, 2.0);
    assert_eq!(y.to_vec(), [9., 1., 5., 21., 1., 11.]);
    let os: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let ss: Tensor<f32, Shape![2, 3]> = s.clone().try_into_static().unwrap();
    assert_eq!(os.index_add(Ax::<1>, &Tensor::from([0i64, 2, 0]), &ss, 2.0).to_vec(), y.to_vec());

    // torch.zeros(5, 3).index_copy_(0, torch.tensor([0, 4, 2]), arange(1, 10).view(3, 3))
    //   -> [[1, 2, 3], [0, 0, 0], [7, 8, 9], [0, 0, 0], [4, 5, 6]]
    let z = Tensor::<f32, DynShape>::zeros_sized(&[5, 3]);
    let c = z.index_copy_dyn(0, &i, &t);
    assert_eq!(c.to_vec(), [1., 2., 3., 0., 0., 0., 7., 8., 9., 0., 0., 0., 4., 5., 6.]);
    // Along the last axis, in place, with a rank-0 index (one position).
    let mut m = dyn_i(&[2, 3], vec![0; 6]);
    m.index_copy_dyn_(-1, &Tensor::<i64, DynShape>::try_from_vec(&[], vec![1]).unwrap(), &dyn_i(&[2, 1], vec![7, 8]));
    assert_eq!(m.to_vec(), [0, 7, 0, 0, 8, 0]);

    // torch.tensor([[1,2,3],[4,5,6],[7,8,9]]).index_fill_(1, torch.tensor([0, 2]), -1)
    //   -> [[-1, 2, -1], [-1, 5, -1], [-1, 8, -1]]
    let mut f = dyn_i(&[3, 3], (1..=9).collect());
    f.index_fill_dyn_(1, &Tensor::from([0i64, 2]), -1);
    assert_eq!(f.to_vec(), [-1, 2, -1, -1, 5, -1, -1, 8, -1]);
    let g = dyn_i(&[3, 3], (1..=9).collect()).index_fill_dyn(-2, &Tensor::from([1i64, 1]), 0);
    assert_eq!(g.to_vec(), [1, 2, 3, 0, 0, 0, 7, 8, 9]);
    // An empty index fills nothing; an empty tensor takes an empty index.
    assert_eq!(
        g.index_fill_dyn(0, &Tensor::<i64, DynShape>::try_from_vec(&[0], vec![]).unwrap(), 5).to_vec(),
        g.to_vec()
    );
    let e = dyn_i(&[0, 2], vec![]);
    assert_eq!(e.index_fill_dyn(1, &Tensor::from([1i64]), 5).sizes(), &[0, 2]);

    // Errors, each leaving the tensor unchanged.
    let before = f.to_vec();
    assert_axis_err(f.try_index_fill_dyn_(2, &Tensor::from([0i64]), 0), 2, 2);
    assert!(matches!(f.try_index_fill_dyn_(0, &Tensor::from([0i64, 3]), 0), Err(ShapeError::Index { .. })));
    assert!(matches!(f.try_index_fill_dyn_(0, &Tensor::from([[0i64]]), 0), Err(ShapeError::Invalid(_))));
    assert!(matches!(
        f.try_index_copy_dyn_(0, &Tensor::from([0i64, 1]), &dyn_i(&[2, 2], vec![0; 4])),
        Err(ShapeError::Mismatch { .. })
    ));
    assert!(matches!(
        f.try_index_copy_dyn_(0, &Tensor::from([0i64, 1]), &dyn_i(&[3, 3], vec![0; 9])),
        Err(ShapeError::Mismatch { .. })
    ));
    assert_axis_err(f.try_index_copy_dyn_(-3, &Tensor::from([0i64]), &dyn_i(&[1, 3], vec![0; 3])), -3, 2);
    assert!(matches!(
        f.try_index_add_dyn_(1, &Tensor::from([0i64]), &dyn_i(&[1, 3], vec![0; 3]), 1),
        Err(ShapeError::Mismatch { .. })
    ));
    assert_eq!(f.to_vec(), before);
}

#[test]
fn index_copy_and_fill_with_a_const_axis_match_the_runtime_forms() {
    let x: Tensor<i32, Shape![3, 2]> = Tensor::zeros();
    let src: Tensor<i32, Shape![2, 2]> = Tensor::from([[1, 2], [3, 4]]);
    let i = Tensor::from([2i64, 0]);
    let c = x.index_copy(Ax::<0>, &i, &src);
    assert_eq!(c.to_vec(), [3, 4, 0, 0, 1, 2]);
    assert_eq!(c.to_vec(), x.clone().into_dyn().index_copy_dyn(-2, &i, &src).to_vec());
    let f = c.index_fill(Ax::<1>, &Tensor::from([1i64]), 9);
    assert_eq!(f.to_vec(), [3, 9, 0, 9, 1, 9]);
    let mut g = c.clone();
    g.index_fill_(Ax::<-1>, &Tensor::from([1i64]), 9);
    assert_eq!(g.to_vec(), f.to_vec());
    let mut h = x.clone();
    h.index_copy_(Ax::<0>, &i, &src);
    assert_eq!(h.to_vec(), c.to_vec());
    // A repeated entry: the last write wins.
    assert_eq!(x.index_copy(Ax::<0>, &Tensor::from([1i64, 1]), &src).to_vec(), [0, 0, 3, 4, 0, 0]);
    assert!(matches!(x.try_index_fill(Ax::<0>, &Tensor::from([3i64]), 1), Err(ShapeError::Index { .. })));
}

#[test]
fn index_fill_counts_negative_entries_from_the_end() {
    // torch.zeros(3, 2, dtype=torch.int32).index_fill_(0, torch.tensor([-1, 0]), 7)
    // -> [[7, 7], [0, 0], [7, 7]]; an entry outside -3..3 is an IndexError, as -4 here.
    let mut x = dyn_i(&[3, 2], vec![0; 6]);
    x.index_fill_dyn_(0, &Tensor::from([-1i64, 0]), 7);
    assert_eq!(x.to_vec(), [7, 7, 0, 0, 7, 7]);
    let before = x.to_vec();
    let e = x.try_index_fill_dyn_(0, &Tensor::from([0i64, -4]), 1).unwrap_err();
    assert_eq!(e.to_string(), "index -4 is out of bounds for dimension 0 of size 3");
    assert_eq!(x.to_vec(), before);
    // index_add_ and index_copy_ refuse a negative entry, naming its position.
    let e = x.try_index_copy_dyn_(0, &Tensor::from([0i64, -1]), &dyn_i(&[2, 2], vec![1; 4])).unwrap_err();
    assert!(matches!(e, ShapeError::IndexEntry { index: -1, .. }), "{e}");
    assert_eq!(x.to_vec(), before);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// `roll_dims_dyn` is `roll_dyn` dim after dim; `roll_flat` is a rotation of the row-major
    /// elements; each keepdim form is the removed-axis form with a size-1 dim.
    #[test]
    fn runtime_forms_agree_with_their_definitions(
        r in 0usize..4, c in 0usize..5, s0 in -9isize..9, s1 in -9isize..9,
        a0 in -2isize..2, a1 in -2isize..2, data in proptest::collection::vec(-3i32..3, 20),
    ) {
        let x = dyn_i(&[r, c], data[..r * c].to_vec());
        let want = x.roll_dyn(s0, a0).roll_dyn(s1, a1).to_vec();
        prop_assert_eq!(x.roll_dims_dyn(&[s0, s1], &[a0, a1]).to_vec(), want);
        let mut v = x.to_vec();
        if !v.is_empty() {
            let k = s0.rem_euclid(v.len() as isize) as usize;
            v.rotate_right(k);
        }
        prop_assert_eq!(x.roll_flat(s0).to_vec(), v);
        let ax = a0.rem_euclid(2) as usize;
        if x.sizes()[ax] > 0 {
            let mut keep = x.sizes().to_vec();
            keep[ax] = 1;
            let k = 1 + (s1.unsigned_abs() % x.sizes()[ax]);
            let (v, i) = x.kthvalue_keepdim_dyn(k, a0);
            let (v0, i0) = x.kthvalue_dyn(k, a0);
            prop_assert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&keep[..], v0.to_vec(), i0.to_vec()));
            let (v, i) = x.median_keepdim_dyn(a0);
            let (v0, i0) = x.median_axis_dyn(a0);
            prop_assert_eq!((v.sizes(), v.to_vec(), i.to_vec()), (&keep[..], v0.to_vec(), i0.to_vec()));
            let xf = dyn_from(x.sizes(), x.to_vec().into_iter().map(f64::from).collect());
            let q = xf.quantile_keepdim_dyn(0.3, a0);
            prop_assert_eq!((q.sizes(), q.to_vec()), (&keep[..], xf.quantile_dyn(0.3, a0).to_vec()));
        }
        // repeat_interleave_flat is repeat_interleave_dyn of the flattened tensor.
        let flat = dyn_i(&[r * c], x.to_vec());
        prop_assert_eq!(x.repeat_interleave_flat(2).to_vec(), flat.repeat_interleave_dyn(2, 0).to_vec());
    }
}

// ---------------------------------------------------------------------------------------------
// repeat_interleave, diag
// ---------------------------------------------------------------------------------------------

#[test]
fn repeat_interleave_with_one_count() {
    // torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2, dim=0) -> [[1,2],[1,2],[3,4],[3,4]]
    let x = dyn_i(&[2, 2], vec![1, 2, 3, 4]);
    let y = x.repeat_interleave_dyn(2, 0);
    assert_eq!((y.sizes(), y.to_vec()), (&[4, 2][..], vec![1, 2, 1, 2, 3, 4, 3, 4]));
    // ... dim=-1 -> [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]] (count 3)
    let y = x.repeat_interleave_dyn(3, -1);
    assert_eq!((y.sizes(), y.to_vec()), (&[2, 6][..], vec![1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]));
    // The static form agrees.
    let s: Tensor<i32, Shape![2, 2]> = x.clone().try_into_static().unwrap();
    assert_eq!(s.repeat_interleave(Const::<3>, Ax::<1>).to_vec(), y.to_vec());
    assert_eq!(s.repeat_interleave(Const::<2>, Ax::<0>).to_vec(), x.repeat_interleave_dyn(2, -2).to_vec());
    // torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2) -> [1, 1, 2, 2, 3, 3, 4, 4]
    let f = x.repeat_interleave_flat(2);
    assert_eq!((f.sizes(), f.to_vec()), (&[8][..], vec![1, 1, 2, 2, 3, 3, 4, 4]));
    // A transposed view flattens in its own row-major order.
    assert_eq!(x.t().repeat_interleave_flat(1).to_vec(), [1, 3, 2, 4]);
    // Count 0 empties the dim; empty inputs stay empty.
    assert_eq!(x.repeat_interleave_dyn(0, 1).sizes(), &[2, 0]);
    assert_eq!(x.repeat_interleave_flat(0).sizes(), &[0]);
    assert_eq!(dyn_i(&[0, 2], vec![]).repeat_interleave_dyn(3, 1).sizes(), &[0, 6]);
    // Rank 0 is one element.
    let r0 = Tensor::<i32, DynShape>::try_from_vec(&[], vec![7]).unwrap();
    assert_eq!(r0.repeat_interleave_flat(3).to_vec(), [7, 7, 7]);
    // torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), torch.tensor([0, 2, 1, 0]))
    //   -> [2, 2, 3]; on the transpose (row-major [1, 3, 2, 4]) -> [3, 3, 2]
    let counts = Tensor::from([0i64, 2, 1, 0]);
    assert_eq!(x.repeat_interleave_counts_flat(&counts).to_vec(), [2, 2, 3]);
    assert_eq!(x.t().repeat_interleave_counts_flat(&counts).to_vec(), [3, 3, 2]);
    assert!(matches!(x.try_repeat_interleave_counts_flat(&Tensor::from([1i64, 1])), Err(ShapeError::Mismatch { .. })));
    // Errors.
    assert_axis_err(x.try_repeat_interleave_dyn(2, 2), 2, 2);
    assert!(matches!(x.try_repeat_interleave_dyn(usize::MAX, 0), Err(ShapeError::Overflow { .. })));
    assert!(matches!(x.try_repeat_interleave_flat(usize::MAX), Err(ShapeError::Overflow { .. })));
}

#[test]
fn diag_builds_and_reads() {
    // torch.diag(torch.tensor([1, 2, 3])) -> 3x3 with 1, 2, 3 on the diagonal
    let v = dyn_i(&[3], vec![1, 2, 3]);
    let m = v.diag_dyn(0);
    assert_eq!((m.sizes(), m.to_vec()), (&[3, 3][..], vec![1, 0, 0, 0, 2, 0, 0, 0, 3]));
    // torch.diag(torch.tensor([1, 2]), 1) -> [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    let m = dyn_i(&[2], vec![1, 2]).diag_dyn(1);
    assert_eq!((m.sizes(), m.to_vec()), (&[3, 3][..], vec![0, 1, 0, 0, 0, 2, 0, 0, 0]));
    // torch.diag(torch.arange(12).view(3, 4)) -> [0, 5, 10]; diagonal=1 -> [1, 6, 11];
    // diagonal=-1 -> [4, 9]; diagonal=5 -> [] (past the edge)
    let a = dyn_i(&[3, 4], (0..12).collect());
    assert_eq!(a.diag_dyn(0).to_vec(), [0, 5, 10]);
    assert_eq!(a.diag_dyn(1).to_vec(), [1, 6, 11]);
    assert_eq!(a.diag_dyn(-1).to_vec(), [4, 9]);
    assert_eq!(a.diag_dyn(5).sizes(), &[0]);
    // The same as diagonal / diag_embed of the static API; a transposed view reads its own
    // diagonal.
    let s: Tensor<i32, Shape![3, 4]> = a.clone().try_into_static().unwrap();
    assert_eq!(s.diagonal(1, Ax::<0>, Ax::<1>).to_vec(), a.diag_dyn(1).to_vec());
    assert_eq!(a.t().diag_dyn(-1).to_vec(), [1, 6, 11]);
    let vs: Tensor<i32, Shape![3]> = Tensor::from([1, 2, 3]);
    assert_eq!(vs.diag_embed().to_vec(), v.diag_dyn(0).to_vec());
    // Round trip: diag(diag(v)) == v.
    assert_eq!(v.diag_dyn(-2).diag_dyn(-2).to_vec(), v.to_vec());
    // Empty: a 0-vector gives a 0x0 matrix, and back.
    let e = dyn_i(&[0], vec![]);
    assert_eq!(e.diag_dyn(0).sizes(), &[0, 0]);
    assert_eq!(e.diag_dyn(0).diag_dyn(0).sizes(), &[0]);
    // Rank 0 and 3 are errors naming the shape.
    let err = dyn_i(&[1, 1, 1], vec![0]).try_diag_dyn(0).unwrap_err();
    assert!(matches!(err, ShapeError::Invalid(ref m) if m.contains("[1, 1, 1]")), "{err}");
    assert!(Tensor::<i32, DynShape>::try_from_vec(&[], vec![1]).unwrap().try_diag_dyn(0).is_err());
}

// ---------------------------------------------------------------------------------------------
// gather / scatter / trapezoid_x / mutable axis iteration: the twins the scan asked for
// ---------------------------------------------------------------------------------------------

#[test]
fn gather_and_scatter_with_a_runtime_axis() {
    // torch.gather(torch.tensor([[1, 2], [3, 4]]), 1, torch.tensor([[0, 0], [1, 0]]))
    //   -> [[1, 1], [4, 3]]
    let x = dyn_i(&[2, 2], vec![1, 2, 3, 4]);
    let i = Tensor::<i64, DynShape>::try_from_vec(&[2, 2], vec![0, 0, 1, 0]).unwrap();
    assert_eq!(x.gather_dyn(1, &i).to_vec(), [1, 1, 4, 3]);
    assert_eq!(x.gather_dyn(-1, &i).to_vec(), [1, 1, 4, 3]);
    let s: Tensor<i32, Shape![2, 2]> = x.clone().try_into_static().unwrap();
    let is: Tensor<i64, Shape![2, 2]> = i.clone().try_into_static().unwrap();
    assert_eq!(s.gather(Ax::<0>, &is).to_vec(), x.gather_dyn(-2, &i).to_vec());
    // torch.zeros(3, 5).scatter_(0, torch.tensor([[0, 1, 2, 0]]), torch.arange(1, 11).view(2, 5))
    //   -> [[1, 0, 0, 4, 0], [0, 2, 0, 0, 0], [0, 0, 3, 0, 0]]
    let mut z = dyn_i(&[3, 5], vec![0; 15]);
    z.scatter_dyn_(0, &Tensor::from([[0i64, 1, 2, 0]]), &dyn_i(&[2, 5], (1..=10).collect()));
    assert_eq!(z.to_vec(), [1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0]);
    // torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23) -> 1.23 at (0, 2), (1, 3)
    let f = dyn_from(&[2, 4], vec![2.0; 8]);
    let g = f.scatter_value_dyn(1, &Tensor::from([[2i64], [3]]), 1.23);
    assert_eq!(g.to_vec(), [2.0, 2.0, 1.23, 2.0, 2.0, 2.0, 2.0, 1.23]);
    let fs: Tensor<f64, Shape![2, 4]> = f.clone().try_into_static().unwrap();
    assert_eq!(fs.scatter_value(Ax::<1>, &Tensor::from([[2i64], [3]]), 1.23).to_vec(), g.to_vec());
    assert_eq!(x.scatter_dyn(-1, &Tensor::from([[1i64], [0]]), &dyn_i(&[2, 1], vec![9, 8])).to_vec(), [1, 9, 8, 4]);
    // Errors, leaving the tensor unchanged.
    let before = z.to_vec();
    assert_axis_err(z.try_scatter_dyn_(2, &Tensor::from([[0i64]]), &dyn_i(&[1, 1], vec![1])), 2, 2);
    assert_axis_err(z.try_scatter_value_dyn_(-3, &Tensor::from([[0i64]]), 1), -3, 2);
    assert!(matches!(z.try_scatter_value_dyn_(0, &Tensor::from([[0i64, 3]]), 1), Err(ShapeError::IndexEntry { .. })));
    assert_eq!(z.to_vec(), before);
    assert_axis_err(x.try_gather_dyn(2, &i), 2, 2);
    assert!(matches!(x.try_gather_dyn(0, &Tensor::from([0i64])), Err(ShapeError::Mismatch { .. })));
    // Empty index: an empty result.
    let e = Tensor::<i64, DynShape>::try_from_vec(&[0, 2], vec![]).unwrap();
    assert_eq!(x.gather_dyn(0, &e).sizes(), &[0, 2]);
}

#[test]
fn trapezoid_x_and_mutable_axis_iteration_with_a_runtime_axis() {
    // torch.trapezoid(torch.tensor([[1., 2., 3.], [0., 4., 0.]]), torch.tensor([0., 1., 3.]))
    //   -> [6.5, 6.0]
    let y = dyn_from(&[2, 3], vec![1.0, 2.0, 3.0, 0.0, 4.0, 0.0]);
    let x = Tensor::from([0.0, 1.0, 3.0]);
    assert_eq!(y.trapezoid_x_dyn(&x, -1).to_vec(), [6.5, 6.0]);
    let ys: Tensor<f64, Shape![2, 3]> = y.clone().try_into_static().unwrap();
    assert_eq!(ys.trapezoid_x(&x, Ax::<1>).to_vec(), y.trapezoid_x_dyn(&x, 1).to_vec());
    // Along axis 0 with points [0, 2]: [(1+0), (2+4), (3+0)] -> [1, 6, 3]
    assert_eq!(y.trapezoid_x_dyn(&Tensor::from([0.0, 2.0]), 0).to_vec(), [1.0, 6.0, 3.0]);
    assert!(matches!(y.try_trapezoid_x_dyn(&Tensor::from([0.0, 2.0]), 1), Err(ShapeError::Mismatch { .. })));
    assert!(matches!(y.try_trapezoid_x_dyn(&Tensor::from([[0.0, 1.0, 2.0]]), 1), Err(ShapeError::Invalid(_))));
    assert_axis_err(y.try_trapezoid_x_dyn(&x, 2), 2, 2);

    let mut m = dyn_i(&[2, 3], (0..6).collect());
    for (k, mut row) in m.axis_iter_dyn_mut(-2).enumerate() {
        row.fill_(k as i32 * 10);
    }
    assert_eq!(m.to_vec(), [0, 0, 0, 10, 10, 10]);
    // Columns of a row-major matrix interleave: an error for the coexisting views ...
    assert!(matches!(m.try_axis_iter_dyn_mut(1), Err(ShapeError::Invalid(_))));
    // ... while one view at a time works for every axis, in the static form's order.
    let mut seen = Vec::new();
    m.for_each_axis_dyn_mut(-1, |k, mut col| {
        seen.push(col.to_vec());
        col.fill_(k as i32);
    });
    assert_eq!(seen, [vec![0, 10], vec![0, 10], vec![0, 10]]);
    assert_eq!(m.to_vec(), [0, 1, 2, 0, 1, 2]);
    assert_axis_err(m.try_for_each_axis_dyn_mut(2, |_, _| ()), 2, 2);
    assert_axis_err(m.try_axis_iter_dyn_mut(-3).map(|_| ()), -3, 2);
}

// ---------------------------------------------------------------------------------------------
// Every axis is an argument; the `_dyn` forms are deprecated
// ---------------------------------------------------------------------------------------------

/// The source with comments removed and string and char literals emptied, so that names in
/// docs and messages do not count as code.
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            'r' if (c.get(i + 1) == Some(&'"') || (c.get(i + 1) == Some(&'#') && c.get(i + 2) == Some(&'"')))
                && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_')) =>
            {
                // A raw string r"..." or r#"..."#.
                let hashes = if c[i + 1] == '#' { 1 } else { 0 };
                i += 2 + hashes;
                while i < c.len() && !(c[i] == '"' && (hashes == 0 || c.get(i + 1) == Some(&'#'))) {
                    i += 1;
                }
                i += 1 + hashes;
                out.push_str("\"\"");
            }
            '"' => {
                i += 1;
                while i < c.len() && c[i] != '"' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            '\'' if c.get(i + 1) == Some(&'\\') => {
                // An escaped char literal: '\n', '\'', '\u{..}'.
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            }
            '\'' if c.get(i + 2) == Some(&'\'') => {
                i += 3;
                out.push_str("' '");
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn is_ident(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// The text between the bracket at `open` and its match.
fn balanced(s: &str, open: usize) -> &str {
    let b = s.as_bytes();
    let (o, cl) = match b[open] {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        b'<' => (b'<', b'>'),
        x => panic!("not a bracket: {}", x as char),
    };
    let mut depth = 0;
    for (k, &x) in b.iter().enumerate().skip(open) {
        if x == o {
            depth += 1;
        } else if x == cl && !(o == b'<' && k > 0 && b[k - 1] == b'-') {
            depth -= 1;
            if depth == 0 {
                return &s[open + 1..k];
            }
        }
    }
    panic!("unbalanced bracket");
}

fn idents(s: &str) -> Vec<&str> {
    s.split(|ch: char| !is_ident(ch))
        .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

/// The methods that still take their axis as a const generic, each with the reason.
const CONST_AXIS: &[(&str, &str)] = &[
    (
        "narrow_const",
        "`t!`'s lowering of a literal range: the bounds are const generics checked when the program is built",
    ),
    ("select_const", "`t!`'s lowering of a literal index, likewise"),
    (
        "unflatten_prod",
        "splits a product dim (`Prod<X, Y>`), a fact of the shape's type only; `unflatten` is the general form",
    ),
];

/// The `_dyn` forms that stay, not deprecated: their runtime values are sizes, lists of axes or
/// the dims of a new tensor, not one axis.
const RUNTIME_SIZE_FORMS: &[&str] = &[
    "reshape_dyn",
    "view_dyn",
    "expand_dyn",
    "flip_dyn",
    "roll_dims_dyn",
    "pad_dyn",
    "repeat_dyn",
    "repeat_interleave_dyn",
    "topk_dyn",
    "unfold_dyn",
    "windows_dyn",
    "one_hot_dyn",
    "diag_dyn",
    "diag_embed_dyn",
    "adaptive_avg_pool2d_dyn",
];

/// A `pub fn` the sources write out (or `#[try_twin]` writes from one).
struct PubFn {
    name: String,
    file: String,
    /// It takes a const `isize` generic: a const axis.
    const_axis: bool,
    deprecated: bool,
}

/// What the sources write out: every `pub fn` (and the twins `#[try_twin]` writes from it), and
/// the macros whose bodies write a `pub fn $name<..>` with a const `isize` generic.
fn scan_api() -> (Vec<PubFn>, BTreeSet<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tensor-core/src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let (mut fns, mut macros) = (Vec::new(), BTreeSet::new());
    for f in &files {
        let code = axis_write_forms(&code_only(&std::fs::read_to_string(f).unwrap()));
        let file = f.strip_prefix(&root).unwrap().display().to_string();
        let mut from = 0;
        while let Some(k) = code[from..].find("macro_rules!") {
            let at = from + k + "macro_rules!".len();
            let name = idents(&code[at..])[0].to_string();
            let open = at + code[at..].find('{').unwrap();
            let body = balanced(&code, open);
            from = open + body.len();
            let mut b = 0;
            while let Some(k) = body[b..].find("pub fn $") {
                b += k + "pub fn $".len();
                let rest = body[b..].trim_start_matches(is_ident).trim_start();
                if rest.starts_with('<') && balanced(rest, 0).contains(": isize") {
                    macros.insert(name.clone());
                }
            }
        }
        let mut from = 0;
        while let Some(k) = code[from..].find("pub fn ") {
            let s = from + k + "pub fn ".len();
            from = s;
            let name: String = code[s..].chars().take_while(|&c| is_ident(c)).collect();
            if name.is_empty() {
                continue; // `pub fn $name` in a macro
            }
            let attrs = &code[..s - "pub fn ".len()];
            let attrs = &attrs[attrs.rfind(['{', '}', ';']).map_or(0, |k| k + 1)..];
            // `#[try_twin]` on `try_x` writes `x` too, with the same generics and attributes;
            // `#[try_twin(copy = ..)]` on an in-place `try_x_` writes the copying `try_x` and `x`.
            let twin = name.strip_prefix("try_").filter(|_| attrs.contains("#[try_twin")).map(str::to_string);
            let copies = twin
                .as_deref()
                .filter(|_| attrs.contains("copy = "))
                .and_then(|t| t.strip_suffix('_'))
                .map(|c| [format!("try_{c}"), c.to_string()]);
            let rest = &code[s + name.len()..];
            let axis = rest.starts_with('<') && balanced(rest, 0).contains(": isize");
            let deprecated = attrs.contains("#[deprecated");
            for name in [Some(name), twin].into_iter().flatten().chain(copies.into_iter().flatten()) {
                fns.push(PubFn { name, file: file.clone(), const_axis: axis, deprecated });
            }
        }
    }
    (fns, macros)
}

/// `code` with the public forms that `axis_write!` invocations (ops/select.rs) write spelled
/// out: in such a block, `fn try_x..` is a `pub fn` (the `*_at` bodies are `pub(crate)`).
fn axis_write_forms(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut from = 0;
    while let Some(k) = code[from..].find("axis_write! {") {
        let open = from + k + "axis_write! ".len();
        let body = balanced(code, open);
        out.push_str(&code[from..=open]);
        out.push_str(&body.replace("fn try_", "pub fn try_"));
        from = open + 1 + body.len();
    }
    out.push_str(&code[from..]);
    out
}

/// `try_x_mut` -> `x`: the family a method belongs to.
fn family(name: &str) -> &str {
    let n = name.strip_prefix("try_").unwrap_or(name);
    n.strip_suffix("_mut").unwrap_or(n)
}

/// Issue 50: every axis is an argument (`Ax::<1>`, an `isize`, a dim name), so a public method
/// takes no const axis generic (but the few of `CONST_AXIS`, each with its reason), and every
/// `_dyn` form written out is a deprecated forwarder (but those of `RUNTIME_SIZE_FORMS`, whose
/// runtime values are sizes).
#[test]
fn every_axis_is_an_argument() {
    let (fns, macros) = scan_api();
    assert!(fns.len() > 1000, "only {} public functions found", fns.len());
    assert!(macros.is_empty(), "macros writing methods with a const axis: {macros:?}");
    let allowed: BTreeSet<&str> = CONST_AXIS.iter().map(|(n, _)| *n).collect();
    let const_axis: BTreeSet<&str> = fns.iter().filter(|f| f.const_axis).map(|f| family(&f.name)).collect();
    let stray: Vec<_> = const_axis.difference(&allowed).collect();
    assert!(stray.is_empty(), "methods with a const axis generic: {stray:?} (take `axis: X` with `S: HasAxis<X, M>`)");
    assert_eq!(const_axis, allowed, "an entry of CONST_AXIS no longer takes a const axis");
    let keep: BTreeSet<&str> = RUNTIME_SIZE_FORMS.iter().copied().collect();
    let dyn_forms: Vec<_> =
        fns.iter().filter(|f| f.name.contains("_dyn") && !["as_dyn", "into_dyn"].contains(&f.name.as_str())).collect();
    let deprecated = dyn_forms.iter().filter(|f| f.deprecated).count();
    assert!(deprecated > 60, "only {deprecated} deprecated `_dyn` forms found: the scan is broken");
    let undeprecated: BTreeMap<&str, &str> = dyn_forms
        .iter()
        .filter(|f| !f.deprecated && !keep.contains(family(&f.name).replace("_dyn_", "_dyn").trim_end_matches('_')))
        .map(|f| (f.name.as_str(), f.file.as_str()))
        .collect();
    assert!(undeprecated.is_empty(), "`_dyn` forms neither deprecated nor in RUNTIME_SIZE_FORMS: {undeprecated:?}");
    // (Some of the kept forms are written by macros, which the scan does not read.)
    for n in ["reshape_dyn", "pad_dyn", "topk_dyn", "adaptive_avg_pool2d_dyn"] {
        assert!(dyn_forms.iter().any(|f| f.name == n), "the scan missed `{n}`");
    }
}

#[test]
fn the_source_scanner_ignores_comments_and_strings() {
    let code =
        code_only("pub fn a() {} // pub fn b\n/* pub fn c */ let s = \"pub fn d\"; let c = '\"'; pub fn e<'x>() {}");
    assert!(code.contains("pub fn a") && code.contains("pub fn e"));
    assert!(!code.contains("pub fn b") && !code.contains("pub fn c") && !code.contains("pub fn d"), "{code}");
    assert_eq!(
        (family("try_narrow_const_mut"), family("unfold_dyn_mut"), family("sum_axis")),
        ("narrow_const", "unfold_dyn", "sum_axis")
    );
}
