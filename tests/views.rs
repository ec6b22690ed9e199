//! Views never copy: each shares the source's storage; `contiguous()` and `reshape` copy only
//! when they must.
use shaped::prelude::*;

mod common;
use common::*;

fn x234() -> Tensor<i32, Shape![2, 3, 4]> {
    Tensor::<i32, Shape![24]>::arange().reshape::<Shape![2, 3, 4]>().into_owned()
}

#[test]
fn reshape_and_view_of_contiguous_share_storage() {
    let x = x234();
    let v: TensorView<i32, Shape![6, 4]> = x.view();
    assert_eq!(v.sizes(), [6, 4]);
    assert_eq!(v.at([5, 3]), 23);
    assert_eq!(v.storage().as_ptr(), x.storage().as_ptr());
    let r = x.reshape::<Shape![4, 6]>();
    assert!(same_storage(r.storage(), x.storage()), "reshape of a contiguous tensor is a view");
    assert_eq!(r.at([1, 0]), 6);
    let d = x.view_dyn(&[-1, 8]);
    assert_eq!(d.sizes(), [3, 8]);
    assert_eq!(
        x.try_view_dyn(&[5, -1]).unwrap_err().to_string(),
        "cannot reshape [2, 3, 4] into [5, -1]: element counts differ"
    );
    assert!(x.try_view_dyn(&[-1, -1]).is_err());
    assert!(same_storage(x.storage(), d.storage()));
}

#[test]
fn view_of_non_contiguous_fails_like_pytorch_and_reshape_copies() {
    let x = x234();
    let t = x.transpose(Ax::<1>, Ax::<2>); // [2, 4, 3], strides [12, 1, 4]
    assert_eq!(t.sizes(), [2, 4, 3]);
    assert_eq!(t.strides(), [12, 1, 4]);
    let e = t.try_view::<Shape![2, 12]>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot view [2, 4, 3] (strides [12, 1, 4]) as [2, 12]: the strides cannot express it without a copy; call contiguous() first or use reshape"
    );
    // Merging the untouched leading dim with nothing is fine: [2, 4, 3] -> [2, 4, 3, 1].
    let ok = t.view_dyn(&[2, 4, 3, 1]);
    assert_eq!(ok.strides()[..3], [12, 1, 4]);
    let r = t.reshape::<Shape![2, 12]>();
    assert!(!same_storage(r.storage(), x.storage()), "reshape of a transpose copies");
    assert_eq!(r.to_vec(), t.to_vec());
    assert_eq!(&r.to_vec()[..4], [0, 4, 8, 1]);
    let c = t.contiguous();
    assert_eq!(c.strides(), [12, 3, 1]);
    assert_eq!(c.to_vec(), t.to_vec());
    let c2 = x.contiguous();
    assert_eq!(c2.storage().as_ptr(), x.storage().as_ptr());
}

#[test]
fn view_merges_non_contiguous_dims_where_pytorch_does() {
    // A [4, 6] tensor sliced to every other row: [2, 6] with strides [12, 1].
    let x: Tensor<i32, Shape![4, 6]> = x234().reshape::<Shape![4, 6]>().into_owned();
    let s = t!(x[..;2, ..]);
    assert_eq!(s.strides(), [12, 1]);
    let v = s.view_dyn(&[2, 2, 3]);
    assert_eq!(v.strides(), [12, 3, 1]);
    assert_eq!(v.to_vec(), [0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17]);
    assert!(s.try_view_dyn(&[12]).is_err());
}

#[test]
fn transpose_permute_t() {
    let x = x234();
    let p = x.permute((Ax::<2>, Ax::<0>, Ax::<1>));
    let _: &TensorView<i32, Shape![4, 2, 3]> = &p;
    assert_eq!(p.strides(), [1, 12, 4]);
    assert_eq!(p.at([3, 1, 2]), x.at([1, 2, 3]));
    assert!(same_storage(p.storage(), x.storage()));
    let m = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    let mt: TensorView<i32, Shape![3, 2]> = m.t();
    assert_eq!(mt.to_vec(), [1, 4, 2, 5, 3, 6]);
    assert_eq!(Tensor::from([1, 2]).t().to_vec(), [1, 2]);
    let d = x.clone().into_dyn();
    assert_eq!(d.try_permute_dyn(&[1, 0, 2]).unwrap().sizes(), [3, 2, 4]);
    assert_eq!(
        d.try_permute_dyn(&[1, 1, 2]).unwrap_err().to_string(),
        "[1, 1, 2] is not a permutation of the axes of a tensor of rank 3"
    );
    assert_eq!(d.try_transpose(0, -1).unwrap().sizes(), [4, 3, 2]);
    assert_eq!(d.try_transpose(0, 3).unwrap_err().to_string(), "axis 3 is out of range for a tensor of rank 3");
}

#[test]
#[should_panic(expected = "t() expects a tensor with at most 2 dims, got [2, 3, 4]")]
fn t_of_rank_3_dyn_panics() {
    let _ = x234().into_dyn().t();
}

#[test]
fn squeeze_unsqueeze() {
    let x = Tensor::from([[1, 2, 3]]);
    let s: TensorView<i32, Shape![3]> = x.squeeze(Ax::<0>);
    assert_eq!(s.to_vec(), [1, 2, 3]);
    let u: TensorView<i32, Shape![1, 3, 1]> = x.unsqueeze(Ax::<2>);
    assert_eq!(u.sizes(), [1, 3, 1]);
    assert_eq!(u.to_vec(), [1, 2, 3]);
    let d = Tensor::<i32, Shape![_, 3]>::zeros_sized(&[2, 3]);
    assert_eq!(d.try_squeeze(Ax::<0>).unwrap_err().to_string(), "cannot squeeze axis 0 of [2, 3]: its size is not 1");
    let dd = x.clone().into_dyn();
    assert_eq!(dd.try_squeeze(0).unwrap().sizes(), [3]);
    assert_eq!(dd.try_unsqueeze(-1).unwrap().sizes(), [1, 3, 1]);
    assert!(dd.try_unsqueeze(3).is_err());
    assert!(dd.try_squeeze(1).is_err());
}

#[test]
fn narrow_select() {
    let x = x234();
    let n = x.narrow(Ax::<2>, 1, 2);
    let _: &TensorView<i32, Shape![2, 3, _]> = &n;
    assert_eq!(n.sizes(), [2, 3, 2]);
    assert_eq!(n.at([1, 2, 0]), x.at([1, 2, 1]));
    assert_eq!(x.narrow(Ax::<2>, -2, 2).at([0, 0, 0]), 2);
    assert_eq!(
        x.try_narrow(Ax::<1>, 2, 2).unwrap_err().to_string(),
        "range 2..4 is out of bounds for dimension 1 of size 3"
    );
    let s: TensorView<i32, Shape![2, 4]> = x.select(Ax::<1>, 2);
    assert_eq!(s.to_vec(), [8, 9, 10, 11, 20, 21, 22, 23]);
    assert_eq!(x.select(Ax::<0>, -1).at([0, 0]), 12);
    assert_eq!(x.try_select(Ax::<0>, 2).unwrap_err().to_string(), "index 2 is out of bounds for dimension 0 of size 2");
    assert!(same_storage(s.storage(), x.storage()));
    let d = x.clone().into_dyn();
    assert_eq!(d.try_select(-1, 0).unwrap().sizes(), [2, 3]);
    assert_eq!(d.try_narrow(0, 1, 1).unwrap().sizes(), [1, 3, 4]);
}

#[test]
fn expand_uses_stride_zero() {
    let row = Tensor::from([[1, 2, 3]]);
    let e: TensorView<i32, Shape![2, 4, 3]> = row.expand::<Shape![2, 4, 3]>();
    assert_eq!(e.strides(), [0, 0, 1]);
    assert_eq!(e.at([1, 3, 2]), 3);
    assert_eq!(e.sum(), 48);
    let d = Tensor::<i32, Shape![_]>::from_vec(&[2], vec![1, 2]);
    assert_eq!(
        d.try_expand::<Shape![3, 4]>().unwrap_err().to_string(),
        "cannot expand [2] to [3, 4]: only size-1 dims can be expanded"
    );
    assert_eq!(d.try_expand::<Shape![3, 2]>().unwrap().to_vec(), [1, 2, 1, 2, 1, 2]);
    assert_eq!(row.clone().into_dyn().try_expand_dyn(&[2, 3]).unwrap().to_vec(), [1, 2, 3, 1, 2, 3]);
    let huge = row.into_dyn().try_expand_dyn(&[1 << 40, 1 << 40, 3]).unwrap_err();
    assert!(matches!(huge, ShapeError::Overflow { .. }), "{huge}");
}

#[test]
fn views_of_views() {
    let x = x234();
    let v = t!(x[1, .., 1..]); // [3, 3]
    let w = v.t(); // [3, 3] transposed
    let z = t!(w[..;-1, 0]); // first column of w reversed = row 0 of v reversed
    assert_eq!(z.to_vec(), [15, 14, 13]);
    assert!(same_storage(z.storage(), x.storage()));
}
