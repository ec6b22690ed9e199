// Matrix products: the inner dims are checked at compile time, and a transposed view is read in
// place. The annotations prove the result types.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let m: Tensor<f32, Shape![2, 2]> = x.matmul(&x.t());
    assert_eq!(m.to_vec(), [14., 32., 32., 77.]);

    let g: Tensor<f32, Shape![3, 3]> = x.t().matmul(&x);
    assert_eq!(g.at([0, 0]), 17.);

    // A runtime inner dim unifies with a static one (checked at run time).
    let d: Tensor<f32, Shape![_, 2]> = Tensor::zeros_sized(&[3, 2]);
    let e: Tensor<f32, Shape![2, 2]> = x.matmul(&d);
    assert_eq!(e.sum(), 0.);
}
