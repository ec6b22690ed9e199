// Static and runtime (`_`) dims in one shape: the static parts stay static through broadcasting,
// matmul, slicing, reductions and cat; the `Dyn` parts are checked at run time.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<f32, Shape![_, 3]> = Tensor::ones_sized(&[5, 3]);
    let bias: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let y: Tensor<f32, Shape![_, 3]> = &x + &bias;
    let w: Tensor<f32, Shape![3, 2]> = Tensor::ones();
    let z: Tensor<f32, Shape![_, 2]> = y.matmul(&w);
    assert_eq!(z.sizes(), [5, 2]);
    let s: TensorView<f32, Shape![2, 2]> = t!(z[1..3, ..]);
    let k: Tensor<f32, Shape![_, 1]> = z.sum_keepdim(Ax::<1>);
    let c: Tensor<f32, Shape![_, 2]> = z.cat(&z, Ax::<0>);
    assert_eq!((s.sum(), k.sizes(), c.sizes()), (36., &[5, 1][..], &[10, 2][..]));
    // A `Dyn` dim against a static one resolves to the static size.
    let d: Tensor<f32, Shape![_]> = Tensor::ones_sized(&[3]);
    let e: Tensor<f32, Shape![4, 3]> = &Tensor::<f32, Shape![4, 3]>::ones() + &d;
    assert_eq!(e.sum(), 24.);
    // Fully dynamic shapes share the kernels; into_static converts back after a runtime check.
    let dynamic = e.clone().into_dyn();
    let back: Tensor<f32, Shape![4, 3]> = dynamic.into_static();
    assert_eq!(back.to_vec(), e.to_vec());
}
