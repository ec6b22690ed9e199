// Mutable views everywhere: `t!(mut ..)`, compound assignment through `t!`, the `*_mut` view
// methods, and functions that take a `TensorViewMut` and write through it. An assigned value may
// be computed from the target: it is evaluated first.
use shaped::prelude::*;

fn scale_into(mut v: TensorViewMut<'_, f32, Shape![3]>, k: f32) {
    v *= k;
}

pub fn main() {
    let mut x: Tensor<f32, Shape![3, 4]> = Tensor::ones();
    t!(x[.., 0] *= 2.0);
    t!(x[.., 1] += &Tensor::from([1., 2., 3.]));
    t!(x[.., 2] = &t!(x[.., 1]) * 10.0);
    scale_into(x.select_mut(Ax::<1>, 3), 5.);
    scale_into(t!(mut x[.., -1]), 2.);
    let mut d = x.diagonal_mut(0, Ax::<0>, Ax::<1>);
    d -= 1.;
    assert_eq!(t!(x[0]).to_vec(), [1., 2., 20., 10.]);
    assert_eq!(t!(x[2]).to_vec(), [2., 4., 39., 10.]);
    let v = x.as_view_mut();
    v.transpose_mut(Ax::<0>, Ax::<1>).flip_mut(Ax::<0>).select_mut(Ax::<0>, 0).fill(0.);
    assert_eq!(t!(x[.., 3]).to_vec(), [0., 0., 0.]);
}
