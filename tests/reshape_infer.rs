//! `reshape`/`view`/`unflatten` into tuple shapes with a `_` dim (PyTorch's `-1`): the static
//! sizes stay in the type, the `_` is inferred from the element count, and where the source has a
//! run-time dim the counts are compared at run time with both shapes in the error.
use shaped::prelude::*;

mod common;
use common::*;

fn arange(n: usize) -> Vec<f32> {
    (0..n).map(|i| i as f32).collect()
}

#[test]
fn inferred_dim_keeps_the_static_sizes() {
    let x: Tensor<f32, Shape![_, 16, 2, 2]> = Tensor::from_vec(&[6, 16, 2, 2], arange(384));
    let h: TensorCow<f32, Shape![_, 64]> = x.reshape::<Shape![_, 64]>();
    assert_eq!(h.sizes(), [6, 64]);
    assert_eq!(h.to_vec(), arange(384));
    assert_eq!(h.at([5, 63]), 383.0);
    // A contiguous source gives a view: no copy.
    assert!(same_storage(h.storage(), x.storage()));
    let v: TensorView<f32, Shape![_, 64]> = x.view::<Shape![_, 64]>();
    assert_eq!(v.to_vec(), x.reshape_dyn(&[-1, 64]).to_vec());
    // The `_` may stand anywhere.
    let m: TensorCow<f32, Shape![3, _, 8]> = x.reshape::<Shape![3, _, 8]>();
    assert_eq!(m.sizes(), [3, 16, 8]);
    // A fully static source: the count is checked when the program is built, the `_` filled here.
    let s: Tensor<f32, Shape![6, 16, 2, 2]> = Tensor::from_vec(&[6, 16, 2, 2], arange(384));
    let r: TensorCow<f32, Shape![_, 64]> = s.reshape::<Shape![_, 64]>();
    assert_eq!((r.sizes(), r.at([1, 0])), (&[6, 64][..], 64.0));
}

#[test]
fn static_target_from_a_runtime_source_is_checked_at_run_time() {
    let x: Tensor<f32, Shape![_, 3]> = Tensor::from_vec(&[2, 3], arange(6));
    let r: TensorCow<f32, Shape![3, 2]> = x.reshape::<Shape![3, 2]>();
    assert_eq!((r.sizes(), r.to_vec()), (&[3, 2][..], arange(6)));
    let e = x.try_reshape::<Shape![4, 2]>().unwrap_err();
    assert_eq!(e.to_string(), "cannot reshape [2, 3] into [4, 2]: element counts differ");
    // A DynShape source.
    let d = x.clone().into_dyn();
    let v: TensorView<f32, Shape![_, 2]> = d.view::<Shape![_, 2]>();
    assert_eq!(v.sizes(), [3, 2]);
    let e = d.try_view::<Shape![_, 4]>().unwrap_err();
    assert_eq!(e.to_string(), "cannot reshape [2, 3] into [-1, 4]: element counts differ");
}

#[test]
#[should_panic(expected = "cannot reshape [5, 3] into [-1, 4]: element counts differ")]
fn reshape_panics_with_both_shapes() {
    let x: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[5, 3]);
    let _ = x.reshape::<Shape![_, 4]>();
}

#[test]
fn non_contiguous_sources_copy_or_refuse_to_view() {
    let x: Tensor<f32, Shape![_, 4]> = Tensor::from_vec(&[3, 4], arange(12));
    let t = x.t(); // [4, _], strides [1, 4]
    let r: TensorCow<f32, Shape![_, 6]> = t.reshape::<Shape![_, 6]>();
    assert!(!same_storage(r.storage(), x.storage()));
    // NumPy: np.arange(12).reshape(3, 4).T.reshape(-1, 6)
    assert_eq!(r.to_vec(), [0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.]);
    let e = t.try_view::<Shape![_, 6]>().unwrap_err();
    assert!(e.to_string().starts_with("cannot view [4, 3] (strides [1, 4]) as [2, 6]"), "{e}");
}

#[test]
fn empty_tensors() {
    let z: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[0, 3]);
    let r: TensorCow<f32, Shape![_, 3]> = z.reshape::<Shape![_, 3]>();
    assert_eq!(r.sizes(), [0, 3]);
    let r: TensorCow<f32, Shape![3, _]> = z.reshape::<Shape![3, _]>();
    assert_eq!(r.sizes(), [3, 0]);
}

#[test]
fn ambiguous_inference_is_an_error() {
    // PyTorch: "cannot reshape tensor of 0 elements into shape [-1, 0]".
    let z: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[0, 3]);
    let e = z.try_reshape::<Shape![_, 0]>().unwrap_err();
    assert_eq!(e.to_string(), "cannot reshape [0, 3] into [-1, 0]: element counts differ");
}

/// A generic batch: the reshape keeps the 16 static for every batch type.
fn flat<N: Dim>(x: &Tensor<f32, (N, Const<4>, Const<4>)>) -> Tensor<f32, (N, Const<16>)> {
    x.reshape::<(N, Const<16>)>().into_owned()
}

#[test]
fn generic_batches() {
    let s: Tensor<f32, Shape![2, 4, 4]> = Tensor::from_vec(&[2, 4, 4], arange(32));
    let d: Tensor<f32, Shape![_, 4, 4]> = Tensor::from_vec(&[2, 4, 4], arange(32));
    let fs: Tensor<f32, Shape![2, 16]> = flat(&s);
    let fd: Tensor<f32, Shape![_, 16]> = flat(&d);
    assert_eq!(fs.to_vec(), fd.to_vec());
    assert_eq!(fd.sizes(), [2, 16]);
}

#[test]
fn unflatten_of_a_runtime_dim() {
    let x: Tensor<f32, Shape![2, _]> = Tensor::from_vec(&[2, 12], arange(24));
    let u: TensorView<f32, Shape![2, 3, _]> = x.unflatten(Ax::<1>, (Const::<3>, Dyn));
    assert_eq!((u.sizes(), u.at([1, 2, 3])), (&[2, 3, 4][..], 23.0));
    let e = x.try_unflatten(Ax::<1>, (Const::<5>, Dyn)).unwrap_err();
    assert_eq!(e.to_string(), "cannot reshape [2, 12] into [2, 5, -1]: element counts differ");
}

#[test]
fn inline_tensors() {
    // An STensor keeps its data inline; a `_` target takes the run-time path and still views it.
    let s = STensor::<f32, Shape![16]>::arange();
    let v: TensorView<f32, Shape![_, 4]> = s.view::<Shape![_, 4]>();
    assert_eq!((v.sizes(), v.at([3, 3])), (&[4, 4][..], 15.0));
    let r: TensorCow<f32, Shape![4, _]> = s.reshape::<Shape![4, _]>();
    assert_eq!((r.sizes(), r.to_vec()), (&[4, 4][..], arange(16)));
}
