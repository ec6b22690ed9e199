//! `t!` on a tracked value: the slice's type, value and gradient as the same slice of a tensor,
//! on the checked (static sizes) and loose (generic or runtime sizes) paths, with index tensors
//! whose repeats accumulate, and runtime errors as `Result`s. The runtime-size cases are also
//! checked against PyTorch in `autograd_torch` (`slice_step`, `slice_rev`, `adv_index_*`).
use shaped::autograd::{Param, Tape, Var};
use shaped::prelude::*;

fn ramp() -> Tensor<f64, Shape![3, 4]> {
    Tensor::from([[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]])
}

#[test]
fn static_slices_are_typed_views_with_scattered_gradients() {
    let tape = Tape::new();
    let p = Param::new(ramp());
    let x = tape.watch(&p);
    // A column, a stepped reversed range, a new axis: each typed as the tensor's slice.
    let col: Var<f64, Shape![3]> = t!(x[.., 1]);
    let rev: Var<f64, Shape![3, 2]> = t!(x[.., ..;-2]);
    let row: Var<f64, Shape![1, 4]> = t!(x[2, None, ..]);
    assert_eq!(col.value().to_vec(), [1., 5., 9.]);
    assert_eq!(rev.value().to_vec(), [3., 1., 7., 5., 11., 9.]);
    assert_eq!(row.value().to_vec(), [8., 9., 10., 11.]);
    // The same value as the tensor's slice.
    assert_eq!(rev.value().to_vec(), t!(ramp()[.., ..;-2]).to_vec());
    let loss = &(&col.sum() + &rev.mul_scalar(2.0).sum()) + &row.mul_scalar(3.0).sum();
    let g = loss.backward();
    let g = g.param(&p).unwrap();
    #[rustfmt::skip]
    assert_eq!(g.to_vec(), [
        0., 3., 0., 2.,
        0., 3., 0., 2.,
        3., 6., 3., 5.,
    ]);
}

#[test]
fn slices_of_slices_and_a_borrowed_operand() {
    let tape = Tape::new();
    let p = Param::new(ramp());
    let x = tape.watch(&p);
    let a: Var<f64, Shape![2, 4]> = t!(x[1..]);
    let b: Var<f64, Shape![2]> = t!((&a)[.., -1]); // a reference operand
    assert_eq!(b.value().to_vec(), [7., 11.]);
    let g = b.square().sum().backward();
    assert_eq!(g.param(&p).unwrap().to_vec(), [0., 0., 0., 0., 0., 0., 0., 14., 0., 0., 0., 22.]);
}

#[test]
fn index_tensors_gather_and_their_repeats_accumulate() {
    let tape = Tape::new();
    let p = Param::new(ramp());
    let x = tape.watch(&p);
    let rows = Tensor::<i64, Shape![3]>::from([2, 0, 2]);
    let picked: Var<f64, Shape![3, 4]> = t!(x[&rows]);
    assert_eq!(picked.value().to_vec(), [8., 9., 10., 11., 0., 1., 2., 3., 8., 9., 10., 11.]);
    let (r, c) = (Tensor::<i64, Shape![2]>::from([1, 1]), Tensor::<i64, Shape![2]>::from([3, 3]));
    let pair: Var<f64, Shape![2]> = t!(x[&r, &c]);
    assert_eq!(pair.value().to_vec(), [7., 7.]);
    let g = (&picked.sum() + &pair.sum()).backward();
    // Row 2 read twice, row 0 once; element (1, 3) twice through the pairs.
    assert_eq!(g.param(&p).unwrap().to_vec(), [1., 1., 1., 1., 0., 0., 0., 2., 2., 2., 2., 2.]);
}

/// One function over every batch size: the literal is checked at run time there (the loose rules).
fn last_column<'t, const N: usize>(x: &Var<'t, f64, Shape![N, 4]>) -> Var<'t, f64, Shape![N]> {
    t!(x[.., -1])
}

#[test]
fn generic_and_runtime_sizes_take_the_loose_rules() {
    let tape = Tape::new();
    let p = Param::new(ramp());
    let x = tape.watch(&p);
    assert_eq!(last_column(&x).value().to_vec(), [3., 7., 11.]);
    let d = tape.var(Tensor::<f64, DynShape>::from_vec(&[3, 4], ramp().to_vec()));
    let s: Var<f64, DynShape> = t!(d[1.., 0..4;3]);
    assert_eq!(s.value().sizes(), [2, 2]);
    assert_eq!(s.value().to_vec(), [4., 7., 8., 11.]);
    let g = s.sum().backward();
    assert_eq!(g.wrt(&d).unwrap().to_vec(), [0., 0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1.]);
}

#[test]
fn runtime_errors_are_results_and_panics() {
    let tape = Tape::new();
    let x = tape.var(ramp());
    let i = 3usize;
    let e = t!(try x[i]).map(|_| ()).unwrap_err();
    assert_eq!(e.to_string(), "index 3 is out of bounds for dimension 0 of size 3");
    let bad = Tensor::<i64, Shape![1]>::from([5]);
    assert!(t!(try x[.., &bad]).is_err());
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| t!(x[i]).value().to_vec()));
    assert!(r.is_err());
}

#[test]
fn untracked_values_slice_without_a_graph() {
    // The same code with tracking off: the values of a tensor's slice, no node recorded.
    let tape = Tape::no_grad();
    let x = tape.var(ramp());
    let v: Var<f64, Shape![2, 2]> = t!(x[..2, 1..;2]);
    assert_eq!(v.value().to_vec(), [1., 3., 5., 7.]);
    assert!(!v.is_tracked());
}
