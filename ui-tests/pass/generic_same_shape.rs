// Same-shape arithmetic needs only `S: Shape` (every shape broadcasts with itself), and operands
// whose shapes are both parameters need the documented `BroadcastShape` bound.
use shaped::prelude::*;
use shaped::shape::{Broadcast, BroadcastShape};

fn double<S: Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
    x + x
}

fn lerp<S: Shape>(a: &Tensor<f32, S>, b: &TensorView<'_, f32, S>, t: f32) -> Tensor<f32, S> {
    &(a * (1. - t)) + &(b * t)
}

fn residual<S1: Shape + BroadcastShape<S2>, S2: Shape>(
    x: &Tensor<f32, S1>,
    y: &Tensor<f32, S2>,
) -> Tensor<f32, Broadcast<S1, S2>> {
    x + y
}

pub fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    assert_eq!(double(&x).to_vec(), [2., 4., 6., 8., 10., 12.]);
    assert_eq!(double(&x.clone().into_dyn()).sizes(), [2, 3]);
    assert_eq!(lerp(&x, &x.as_view(), 0.5), x);
    let r: Tensor<f32, Shape![2, 3]> = residual(&x, &Tensor::from([1., 1., 1.]));
    assert_eq!(r.at([0, 0]), 2.);
}
