//! Code that composes: chained views, mutable views and compound assignment, negative axes, static
//! and dynamic shapes mixed, and functions generic over shapes and sizes (issue 9). Expected values
//! are worked out by hand from the row-major data below (PyTorch gives the same).
mod common;
use common::err;
use shaped::prelude::*;

fn x34() -> Tensor<f32, Shape![3, 4]> {
    Tensor::from([[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]])
}

#[test]
fn views_of_views_bind_to_one_let() {
    let x = x34();
    // Each step is a view of a temporary view; the result still borrows `x` only.
    let v = x.t().narrow(Ax::<0>, 1, 2);
    let w = t!(x[.., 1..3]).t();
    let u = x.unsqueeze(Ax::<0>).squeeze(Ax::<0>).t().flip(Ax::<1>);
    let c = x.as_view().select(Ax::<1>, 2).unsqueeze(Ax::<-1>);
    assert_eq!(v.sizes(), [2, 3]);
    assert_eq!(v.to_vec(), [1., 5., 9., 2., 6., 10.]);
    assert_eq!(w.to_vec(), [1., 5., 9., 2., 6., 10.]);
    assert_eq!(u.to_vec()[..3], [8., 4., 0.]);
    assert_eq!((c.sizes(), c.to_vec()), (&[3, 1][..], vec![2., 6., 10.]));
    // No copy anywhere: all share x's storage.
    assert!(common::same_storage(v.storage(), x.storage()));
    assert!(common::same_storage(w.storage(), x.storage()));
}

#[test]
fn mutable_views_write_through_and_chain() {
    let mut x = x34();
    // A chain of mutable views bound to one let.
    let mut c = x.t_mut().narrow_mut(Ax::<0>, 1, 2);
    c.fill(-1.);
    assert_eq!(t!(x[.., 1..3]).to_vec(), [-1.; 6]);
    // Column 0 through select_mut, doubled in place.
    let mut col = x.select_mut(Ax::<1>, 0);
    col *= 2.0;
    assert_eq!(t!(x[.., 0]).to_vec(), [0., 8., 16.]);
    // The diagonal set through diagonal_mut.
    x.diagonal_mut(0, Ax::<0>, Ax::<1>).fill(9.);
    assert_eq!(t!(x[.., ..3]).diagonal(0, Ax::<0>, Ax::<1>).to_vec(), [9., 9., 9.]);
    // Negative axes, permute and flip, mutably.
    let mut y = x34();
    y.transpose_mut(Ax::<0>, Ax::<-1>).flip_mut(Ax::<0>).select_mut(Ax::<0>, 0).fill(0.);
    assert_eq!(t!(y[.., 3]).to_vec(), [0., 0., 0.]);
    y.permute_mut((Ax::<1>, Ax::<0>)).unsqueeze_mut(Ax::<1>).squeeze_mut(Ax::<1>).select_mut(Ax::<0>, 0).fill(5.);
    assert_eq!(t!(y[.., 0]).to_vec(), [5., 5., 5.]);
}

/// Writes `v` into every element of a view a caller passed in.
fn set_all(mut v: TensorViewMut<'_, f32, Shape![3]>, value: f32) {
    v.fill(value);
}

#[test]
fn functions_take_mutable_views() {
    let mut x = x34();
    set_all(x.select_mut(Ax::<1>, 0), 7.);
    set_all(t!(mut x[.., -1]), 8.);
    assert_eq!(x.to_vec(), [7., 1., 2., 8., 7., 5., 6., 8., 7., 9., 10., 8.]);
    // A mutable view of a mutable view keeps the original borrow.
    let m = x.as_view_mut();
    let inner = t!(mut m[1..]);
    let mut row = t!(mut inner[0]);
    row += 100.;
    assert_eq!(t!(x[1]).to_vec(), [107., 105., 106., 108.]);
}

#[test]
fn compound_assignment_operators() {
    let mut x = x34();
    x += &Tensor::from([1., 1., 1., 1.]); // broadcast along rows
    x -= 1.;
    assert_eq!(x, x34());
    x *= &Tensor::<f32, Shape![3, 1]>::from([[1.], [2.], [3.]]); // a column
    assert_eq!(t!(x[2]).to_vec(), [24., 27., 30., 33.]);
    x /= 3.;
    assert_eq!(t!(x[2]).to_vec(), [8., 9., 10., 11.]);
    let mut i = Tensor::from([7i32, -7, 9]);
    i %= 4;
    assert_eq!(i.to_vec(), [3, -3, 1]); // the sign of the dividend, as Rust and torch.fmod
                                        // Through a view, with a tensor that broadcasts to it.
    let mut y = x34();
    let mut v = y.narrow_mut(Ax::<1>, 0, 2);
    v += &Tensor::from([10., 20.]);
    assert_eq!(t!(y[0]).to_vec(), [10., 21., 2., 3.]);
    // The try_ forms: a runtime mismatch and an integer zero divisor change nothing.
    let mut d = x34().into_dyn();
    let before = d.clone();
    assert_eq!(
        err(d.try_add_assign(&Tensor::from([1., 2.]).into_dyn())),
        "add_assign (`+=`): [3, 4] and [2] do not broadcast: the right side must broadcast to the left side's shape"
    );
    assert_eq!(d, before);
    let mut j = Tensor::from([1i64, 2]);
    assert_eq!(err(j.try_div_assign(&Tensor::from([1i64, 0]))), "div: integer division by zero");
    assert_eq!(j.to_vec(), [1, 2]);
    assert_eq!(err(j.try_rem_assign(&Tensor::from([0i64, 1]))), "rem: integer division by zero");
}

#[test]
fn indexed_compound_assignment_in_t() {
    let mut x = x34();
    t!(x[.., 0] *= 2.0);
    assert_eq!(t!(x[.., 0]).to_vec(), [0., 8., 16.]);
    t!(x[1..;1, 1..3] += &Tensor::from([1., 2.]));
    assert_eq!(t!(x[1]).to_vec(), [8., 6., 8., 7.]);
    t!(x[-1] -= 8.0);
    assert_eq!(t!(x[2]).to_vec(), [8., 2., 4., 3.]);
    t!(x[.., 3] /= 2.0);
    assert_eq!(t!(x[.., 3]).to_vec(), [1.5, 3.5, 1.5]);
    // Index tensors: read first, then written (PyTorch: a repeated index is updated once).
    let mut v = Tensor::from([1i64, 2, 3, 4]);
    let idx = Tensor::from([0i64, 0, 3]);
    t!(v[&idx] += 10);
    assert_eq!(v.to_vec(), [11, 2, 3, 14]);
    let mask = Tensor::from([true, false, true, false]);
    t!(v[&mask] *= 2);
    assert_eq!(v.to_vec(), [22, 2, 6, 14]);
    // The Result form, and nothing written on an error.
    let before = v.clone();
    assert_eq!(t!(try v[&idx] %= 0).unwrap_err().to_string(), "rem: integer division by zero");
    assert_eq!(t!(try v[1..] /= &Tensor::from([1i64, 0, 1])).unwrap_err().to_string(), "div: integer division by zero");
    let far = Tensor::from([9i64]);
    assert_eq!(t!(try v[&far] += 1).unwrap_err().to_string(), "index 9 is out of bounds for dimension 0 of size 4");
    assert_eq!(v, before);
    t!(try v[..2] += 1).unwrap();
    assert_eq!(v.to_vec(), [23, 3, 6, 14]);
    // The right side may read the target: it is evaluated first.
    let mut w = Tensor::from([1., 2., 3.]);
    t!(w[..] += &t!(w[..]) * 10.0);
    assert_eq!(w.to_vec(), [11., 22., 33.]);
}

#[test]
fn t_mut_gives_a_mutable_view() {
    let mut x = x34();
    let mut r = t!(mut x[1, ..;2]);
    r.fill(0.);
    assert_eq!(t!(x[1]).to_vec(), [0., 5., 0., 7.]);
    let i = 9;
    assert_eq!(t!(try mut x[i]).unwrap_err().to_string(), "index 9 is out of bounds for dimension 0 of size 3");
}

#[test]
fn negative_axes_count_from_the_end() {
    let x = x34();
    assert_eq!(x.sum_axis(Ax::<-1>).to_vec(), [6., 22., 38.]);
    assert_eq!(x.sum_axis(Ax::<-1>), x.sum_axis(Ax::<1>));
    assert_eq!(x.mean_keepdim(Ax::<-2>).sizes(), [1, 4]);
    assert_eq!(x.transpose(Ax::<-1>, Ax::<-2>).to_vec(), x.t().to_vec());
    let u: TensorView<f32, Shape![3, 4, 1]> = x.unsqueeze(Ax::<-1>);
    assert_eq!(u.sizes(), [3, 4, 1]);
    let s: TensorView<f32, Shape![3, 4]> = u.squeeze(Ax::<-1>);
    assert_eq!(s.sizes(), [3, 4]);
    assert_eq!(x.select(Ax::<-1>, 0).to_vec(), [0., 4., 8.]);
    assert_eq!(x.narrow(Ax::<-2>, 1, 1).to_vec(), [4., 5., 6., 7.]);
    assert_eq!(x.flip(Ax::<-1>).to_vec()[..4], [3., 2., 1., 0.]);
    assert_eq!(x.movedim(Ax::<-1>, Ax::<0>).sizes(), [4, 3]);
    let c: Tensor<f32, Shape![3, 8]> = x.cat(&x, Ax::<-1>);
    assert_eq!(c.sizes(), [3, 8]);
    let st: Tensor<f32, Shape![3, 4, 2]> = Tensor::stack([&x, &x], Ax::<-1>);
    assert_eq!(st.sizes(), [3, 4, 2]);
    let g = x.gather(Ax::<-1>, &Tensor::from([[3i64], [2], [1]]));
    assert_eq!(g.to_vec(), [3., 6., 9.]);
    // A DynShape tensor checks the axis at run time.
    let d = x.as_dyn();
    assert_eq!(d.sum_axis(Ax::<-1>).to_vec(), [6., 22., 38.]);
    assert_eq!(d.try_select(Ax::<-3>, 0).unwrap_err().to_string(), "axis -3 is out of range for a tensor of rank 2");
}

#[test]
fn static_and_dynamic_operands_mix() {
    let s = x34();
    let d = Tensor::<f32, DynShape>::ones_sized(&[4]);
    // Either side may be dynamic; the result is dynamic, checked at run time.
    let a: Tensor<f32, DynShape> = &s + &d;
    let b: Tensor<f32, DynShape> = &d + &s;
    assert_eq!(a, b);
    assert_eq!(a.sizes(), [3, 4]);
    assert_eq!(t!(a[0]).to_vec(), [1., 2., 3., 4.]);
    let bad = Tensor::<f32, DynShape>::ones_sized(&[3]);
    assert_eq!(err(s.try_add(&bad)), "cannot broadcast [3, 4] with [3]");
    // A borrowed static tensor as a dynamic one, without consuming it.
    let v = s.as_dyn();
    assert_eq!(v.sizes(), [3, 4]);
    assert!(common::same_storage(v.storage(), s.storage()));
    let m: Tensor<f32, DynShape> = v.matmul(&s.t());
    assert_eq!(m.sizes(), [3, 3]);
    assert_eq!(m.at([0, 0]), 14.);
    let m2: Tensor<f32, DynShape> = s.matmul(&s.t().as_dyn());
    assert_eq!(m2, m);
    // cat and where_ mix too.
    let c: Tensor<f32, DynShape> = s.cat(&d.try_unsqueeze(0).unwrap(), Ax::<0>);
    assert_eq!(c.sizes(), [4, 4]);
    let c2: Tensor<f32, DynShape> = d.try_unsqueeze(0).unwrap().cat(&s, Ax::<0>);
    assert_eq!(c2.sizes(), [4, 4]);
    let cond = Tensor::from([true, false, true, false]).into_dyn();
    let w: Tensor<f32, DynShape> = s.where_(&cond, &Tensor::scalar(-1.));
    assert_eq!(t!(w[0]).to_vec(), [0., -1., 2., -1.]);
    assert_eq!(err(s.try_cat(&bad, Ax::<1>)), "cat: [3, 4] and [3] differ in rank");
}

fn double<S: Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
    x + x
}

fn scaled_diff<S: Shape>(a: &TensorView<'_, f32, S>, b: &Tensor<f32, S>) -> Tensor<f32, S> {
    &(a - b) * 0.5
}

#[test]
fn same_shape_arithmetic_needs_only_shape() {
    let x = x34();
    assert_eq!(double(&x).to_vec()[..4], [0., 2., 4., 6.]);
    let d = x.clone().into_dyn();
    assert_eq!(double(&d).sizes(), [3, 4]);
    assert_eq!(scaled_diff(&x.as_view(), &x).sum(), 0.);
}
