//! The grammar of the view methods: every view op comes as `try_x` (a `Result`) and `x` (panics
//! with that error's message), on shared tensors, and for the ops that may be written through as
//! `try_x_mut`/`x_mut` on a `TensorViewMut` (by value) and on `Tensor`/`SharedTensor` (`&mut self`).
//! The runtime-axis `_dyn` forms, `cat_dyn`, `stack_dyn`, `arange_with`, `chunk_dyn`,
//! `split_dyn` and `flatten_dyn` follow it too (they returned `Result` under the plain name before
//! 0.2). Each form is checked against the others and against values worked by hand.
use shaped::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn a23() -> Tensor<i32, DynShape> {
    Tensor::<i32, Shape![6]>::arange().into_dyn().reshape_dyn(&[2, 3]).into_owned()
}

/// The panic message of `f`, which must panic.
fn panic_message(f: impl FnOnce()) -> String {
    let e = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap()
}

#[test]
fn dyn_forms_return_views_and_try_forms_results() {
    let x = a23();
    let t = x.transpose(0, 1);
    assert_eq!((t.sizes(), t.to_vec()), (&[3, 2][..], vec![0, 3, 1, 4, 2, 5]));
    assert_eq!(x.try_transpose(0, -1).unwrap().to_vec(), t.to_vec());
    assert_eq!(x.try_transpose(0, 2).unwrap_err().to_string(), "axis 2 is out of range for a tensor of rank 2");
    assert_eq!(x.permute([1, 0]).to_vec(), t.to_vec());
    assert_eq!(x.unsqueeze(1).sizes(), &[2, 1, 3]);
    assert_eq!(x.unsqueeze(1).squeeze(1).sizes(), &[2, 3]);
    assert_eq!(x.narrow(1, 1, 2).to_vec(), [1, 2, 4, 5]);
    assert_eq!(x.select(0, -1).to_vec(), [3, 4, 5]);
    assert_eq!(x.select(1, 0).expand_dyn(&[2, 2]).to_vec(), [0, 3, 0, 3]);
    assert_eq!(x.flip_dyn(&[0, 1]).to_vec(), [5, 4, 3, 2, 1, 0]);
    assert_eq!(x.flatten_range(0, -1).to_vec(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(x.unflatten(1, [3, 1]).sizes(), &[2, 3, 1]);
    assert_eq!(x.movedim(0, 1).to_vec(), t.to_vec());
    assert_eq!(x.diagonal(1, 0, 1).to_vec(), [1, 5]);
    assert_eq!(x.view_dyn(&[3, -1]).sizes(), &[3, 2]);
    let c: Vec<Vec<i32>> = x.chunk(2, 1).iter().map(|v| v.to_vec()).collect();
    assert_eq!(c, [vec![0, 1, 3, 4], vec![2, 5]]);
    let s: Vec<Vec<i32>> = x.split(1, 0).iter().map(|v| v.to_vec()).collect();
    assert_eq!(s, [vec![0, 1, 2], vec![3, 4, 5]]);
    // Each try form fails where its plain form panics, with the same message.
    let cases: Vec<(String, Box<dyn Fn()>)> = vec![
        (x.try_squeeze(0).unwrap_err().to_string(), Box::new(|| drop(a23().squeeze(0).to_vec()))),
        (x.try_narrow(1, 2, 2).unwrap_err().to_string(), Box::new(|| drop(a23().narrow(1, 2, 2).to_vec()))),
        (x.try_select(5, 0).unwrap_err().to_string(), Box::new(|| drop(a23().select(5, 0).to_vec()))),
        (x.try_flip_dyn(&[0, 0]).unwrap_err().to_string(), Box::new(|| drop(a23().flip_dyn(&[0, 0]).to_vec()))),
        (x.try_diagonal(0, 1, 1).unwrap_err().to_string(), Box::new(|| drop(a23().diagonal(0, 1, 1).to_vec()))),
        (x.try_expand_dyn(&[4, 3]).unwrap_err().to_string(), Box::new(|| drop(a23().expand_dyn(&[4, 3]).to_vec()))),
        (x.try_chunk(0, 0).unwrap_err().to_string(), Box::new(|| drop(a23().chunk(0, 0)))),
        (x.try_split(0, 0).unwrap_err().to_string(), Box::new(|| drop(a23().split(0, 0)))),
        (x.try_flatten_range(1, 0).unwrap_err().to_string(), Box::new(|| drop(a23().flatten_range(1, 0).to_vec()))),
        (x.try_permute([0, 0]).unwrap_err().to_string(), Box::new(|| drop(a23().permute([0, 0]).to_vec()))),
    ];
    for (want, f) in cases {
        assert_eq!(panic_message(f), want);
    }
}

#[test]
fn typed_forms_have_try_forms_for_dyn_shapes() {
    let x = a23();
    // Const axes on a DynShape tensor are checked at run time.
    assert_eq!(
        x.try_transpose(Ax::<0>, Ax::<2>).unwrap_err().to_string(),
        "axis 2 is out of range for a tensor of rank 2"
    );
    assert_eq!(
        x.try_movedim(Ax::<0>, Ax::<-3>).unwrap_err().to_string(),
        "axis -3 is out of range for a tensor of rank 2"
    );
    assert_eq!(x.try_flip(Ax::<2>).unwrap_err().to_string(), "axis 2 is out of range for a tensor of rank 2");
    assert!(x.try_diagonal(0, Ax::<1>, Ax::<1>).is_err());
    assert!(x.try_unsqueeze(Ax::<4>).is_err());
    assert_eq!(x.try_t().unwrap().to_vec(), [0, 3, 1, 4, 2, 5]);
    let three = x.unsqueeze(0);
    assert_eq!(three.try_t().unwrap_err().to_string(), "t() expects a tensor with at most 2 dims, got [1, 2, 3]");
    assert_eq!(panic_message(|| drop(a23().unsqueeze(0).t().to_vec())), three.try_t().unwrap_err().to_string());
    // On tuple shapes the same calls cannot fail, and the try forms agree with the plain ones.
    let s: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5]]);
    assert_eq!(s.try_transpose(Ax::<0>, Ax::<1>).unwrap().to_vec(), s.transpose(Ax::<0>, Ax::<1>).to_vec());
    assert_eq!(s.try_permute((Ax::<1>, Ax::<0>)).unwrap().to_vec(), s.t().to_vec());
    assert_eq!(s.try_unsqueeze(Ax::<0>).unwrap().sizes(), &[1, 2, 3]);
    assert_eq!(s.try_movedim(Ax::<1>, Ax::<0>).unwrap().to_vec(), [0, 3, 1, 4, 2, 5]);
    assert_eq!(s.try_diagonal(1, Ax::<0>, Ax::<1>).unwrap().to_vec(), [1, 5]);
    assert_eq!(s.try_flatten_range(Ax::<0>, Ax::<1>).unwrap().to_vec(), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn mutable_forms_write_through_on_every_receiver() {
    // TensorViewMut, by value: the forms chain and keep the source's lifetime.
    let mut x = a23();
    x.as_view_mut().transpose_mut(0, 1).select_mut(0, 2).fill(-1);
    assert_eq!(x.to_vec(), [0, 1, -1, 3, 4, -1]);
    assert!(x.as_view_mut().try_select_mut(2, 0).is_err());
    // Tensor, &mut self: both the try and the plain forms.
    x.try_diagonal_mut(0, 0, 1).unwrap().fill(9);
    assert_eq!(x.to_vec(), [9, 1, -1, 3, 9, -1]);
    x.flip_dyn_mut(&[1]).narrow_mut(1, 0, 1).fill(7);
    assert_eq!(x.to_vec(), [9, 1, 7, 3, 9, 7]);
    assert_eq!(x.try_movedim_mut(0, 5).unwrap_err().to_string(), "axis 5 is out of range for a tensor of rank 2");
    assert_eq!(
        panic_message(|| drop(a23().movedim_mut(0, 5).to_vec())),
        "axis 5 is out of range for a tensor of rank 2"
    );
    // Typed mutable forms gained try forms too.
    let mut s: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5]]);
    s.try_t_mut().unwrap().try_select_mut(Ax::<0>, 1).unwrap().fill(8);
    assert_eq!(s.to_vec(), [0, 8, 2, 3, 8, 5]);
    s.permute_mut((Ax::<1>, Ax::<0>)).unsqueeze_mut(Ax::<0>).squeeze_mut(Ax::<0>).select_mut(Ax::<1>, 0).fill(6);
    assert_eq!(s.to_vec(), [6, 6, 6, 3, 8, 5]);
    // SharedTensor: the write copies on a shared buffer, and the other holder is unchanged.
    let a = a23().into_shared();
    let mut b = a.clone();
    b.unsqueeze_mut(0).squeeze_mut(0).permute_dyn_mut(&[1, 0]).select_mut(0, 0).fill(5);
    assert_eq!((a.to_vec(), b.to_vec()), (vec![0, 1, 2, 3, 4, 5], vec![5, 1, 2, 5, 4, 5]));
}

#[test]
fn joins_and_arange_follow_the_grammar() {
    let a = a23();
    let c = Tensor::cat_all(&[&a, &a], -1);
    assert_eq!((c.sizes(), c.to_vec()), (&[2, 6][..], vec![0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5]));
    assert_eq!(Tensor::try_cat_all(&[&a, &a], 0).unwrap().sizes(), &[4, 3]);
    let s = Tensor::stack_all(&[&a, &a], 2);
    assert_eq!(s.sizes(), &[2, 3, 2]);
    let err = Tensor::try_stack_all(&[&a, &a], 4).unwrap_err().to_string();
    assert_eq!(panic_message(|| drop(Tensor::stack_all(&[&a23(), &a23()], 4))), err);
    assert_eq!(Tensor::<f64, _>::arange_with(0.0, 1.0, 0.25).to_vec(), [0.0, 0.25, 0.5, 0.75]);
    let err = Tensor::<f64, _>::try_arange_with(0.0, 1.0, 0.0).unwrap_err().to_string();
    assert_eq!(err, "arange: invalid range 0..1 with step 0");
    assert_eq!(panic_message(|| drop(Tensor::<f64, _>::arange_with(0.0, 1.0, 0.0))), err);
}
