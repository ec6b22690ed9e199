// Reductions, reshapes and axis operations with their result types written out.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);

    let s: Tensor<f32, Shape![2]> = x.sum_axis::<1>();
    assert_eq!(s.to_vec(), [6., 15.]);
    let s0: Tensor<f32, Shape![3]> = x.sum_axis::<0>();
    assert_eq!(s0.to_vec(), [5., 7., 9.]);

    let r: TensorCow<f32, Shape![3, 2]> = x.reshape();
    assert_eq!(r.to_vec(), [1., 2., 3., 4., 5., 6.]);
    let flat: TensorView<f32, Shape![6]> = x.view::<Shape![6]>();
    assert_eq!(flat.sizes(), [6]);

    let tr: TensorView<f32, Shape![3, 2]> = x.transpose::<0, 1>();
    assert_eq!(tr.at([2, 1]), 6.);
    let p: TensorView<f32, Shape![3, 2]> = x.permute::<Axes![1, 0]>();
    assert_eq!(p.to_vec(), [1., 4., 2., 5., 3., 6.]);

    let u: TensorView<f32, Shape![1, 2, 3]> = x.unsqueeze::<0>();
    let sq: TensorView<f32, Shape![2, 3]> = u.squeeze::<0>();
    assert_eq!(sq.to_vec(), x.to_vec());

    let b: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let e: TensorView<f32, Shape![4, 3]> = b.expand::<Shape![4, 3]>();
    assert_eq!(e.sum(), 24.);
}
