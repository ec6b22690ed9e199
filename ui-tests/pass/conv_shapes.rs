// The typed output shapes of the sliding-window operations: static where the input's dims and
// the hyper-parameters are, `Dyn` where a dim is, `DynShape` for the `_dyn` forms.
use shaped::prelude::*;
use shaped::{ConvArgs, PoolArgs};

pub fn main() {
    // unfold / windows: zero-copy views.
    let x: Tensor<f32, Shape![4, 10]> = Tensor::zeros();
    let u: TensorView<f32, Shape![4, 4, 3]> = x.unfold(Ax::<1>, Const::<3>, Const::<2>);
    let xd: Tensor<f32, Shape![_, 10]> = Tensor::zeros_sized(&[4, 10]);
    let d: TensorView<f32, Shape![_, 10, 2]> = xd.unfold(Ax::<0>, Const::<2>, Const::<1>);
    let w: TensorView<f32, Shape![3, 8, 2, 3]> = x.windows::<Shape![2, 3]>();
    assert_eq!(
        (u.sizes(), d.sizes(), w.sizes()),
        ([4, 4, 3].as_slice(), [3, 10, 2].as_slice(), [3, 8, 2, 3].as_slice())
    );

    // A ResNet stem and block: 7x7 stride 2 padding 3, then a 3x3 "same" convolution.
    let img: Tensor<f32, Shape![2, 3, 32, 32]> = Tensor::zeros();
    let stem: Tensor<f32, Shape![8, 3, 7, 7]> = Tensor::zeros();
    let b: Tensor<f32, Shape![8]> = Tensor::zeros();
    let y: Tensor<f32, Shape![2, 8, 16, 16]> = img.conv2d(&stem, &b, Conv::<2, 3>);
    let p: Tensor<f32, Shape![2, 8, 8, 8]> = y.max_pool2d(Pool::<3, 2, 1>);
    let k: Tensor<f32, Shape![8, 8, 3, 3]> = Tensor::zeros();
    let z: Tensor<f32, Shape![2, 8, 8, 8]> = p.conv2d(&k, NoBias, Conv::<1, 1>);
    // Depthwise, dilated.
    let dw: Tensor<f32, Shape![8, 1, 3, 3]> = Tensor::zeros();
    let z2: Tensor<f32, Shape![2, 8, 4, 4]> = z.conv2d(&dw, NoBias, Conv::<1, 0, 2, 8>);
    let a: Tensor<f32, Shape![2, 8, 2, 2]> = z2.avg_pool2d(Pool::<2, 2>, true);
    let g: Tensor<f32, Shape![2, 8, 1, 1]> = z.adaptive_avg_pool2d::<1, 1>();
    assert_eq!((a.sizes(), g.sizes()), ([2, 8, 2, 2].as_slice(), [2, 8, 1, 1].as_slice()));

    // A Dyn batch and height stay Dyn; the static width is computed.
    let v: Tensor<f32, Shape![_, 3, _, 32]> = Tensor::zeros_sized(&[1, 3, 20, 32]);
    let y: Tensor<f32, Shape![_, 8, _, 16]> = v.conv2d(&stem, &b, Conv::<2, 3>);
    assert_eq!(y.sizes(), [1, 8, 10, 16]);

    // conv1d.
    let s: Tensor<f64, Shape![1, 2, 100]> = Tensor::zeros();
    let k1: Tensor<f64, Shape![4, 2, 5]> = Tensor::zeros();
    let o: Tensor<f64, Shape![1, 4, 48]> = s.conv1d(&k1, NoBias, Conv::<2, 0>);
    assert_eq!(o.sizes(), [1, 4, 48]);

    // Run-time hyper-parameters: DynShape.
    let r: Tensor<f32, DynShape> =
        img.conv2d(&stem, NoBias, ConvArgs { stride: [2, 1], padding: [3, 3], ..Default::default() });
    assert_eq!(r.sizes(), [2, 8, 16, 32]);
    let (m, i) = img.max_pool2d_with_indices(PoolArgs::new([2, 2]));
    assert_eq!((m.sizes(), i.sizes()), ([2, 3, 16, 16].as_slice(), [2, 3, 16, 16].as_slice()));
}
