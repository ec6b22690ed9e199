// Reductions, reshapes and axis operations with their result types written out.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);

    let s: Tensor<f32, Shape![2]> = x.sum_axis(Ax::<1>);
    assert_eq!(s.to_vec(), [6., 15.]);
    let s0: Tensor<f32, Shape![3]> = x.sum_axis(Ax::<0>);
    assert_eq!(s0.to_vec(), [5., 7., 9.]);

    let r: TensorCow<f32, Shape![3, 2]> = x.reshape();
    assert_eq!(r.to_vec(), [1., 2., 3., 4., 5., 6.]);
    let flat: TensorView<f32, Shape![6]> = x.view::<Shape![6]>();
    assert_eq!(flat.sizes(), [6]);

    let tr: TensorView<f32, Shape![3, 2]> = x.transpose(Ax::<0>, Ax::<1>);
    assert_eq!(tr.at([2, 1]), 6.);
    let p: TensorView<f32, Shape![3, 2]> = x.permute((Ax::<1>, Ax::<0>));
    assert_eq!(p.to_vec(), [1., 4., 2., 5., 3., 6.]);

    let u: TensorView<f32, Shape![1, 2, 3]> = x.unsqueeze(Ax::<0>);
    let sq: TensorView<f32, Shape![2, 3]> = u.squeeze(Ax::<0>);
    assert_eq!(sq.to_vec(), x.to_vec());

    let b: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let e: TensorView<f32, Shape![4, 3]> = b.expand::<Shape![4, 3]>();
    assert_eq!(e.sum(), 24.);

    // Shape-building copies with static results: pad grows a dim by L + R, repeat multiplies it
    // by K, diag_embed appends a copy of the last dim, topk sets it to K.
    let padded: Tensor<f32, Shape![2, 6]> = x.pad((Const::<1>, Const::<2>), Ax::<1>, PadMode::Reflect, 0.0);
    assert_eq!(padded.to_vec()[..6], [2., 1., 2., 3., 2., 1.]);
    let tiled: Tensor<f32, Shape![6, 3]> = x.repeat(Const::<3>, Ax::<0>);
    let spread: Tensor<f32, Shape![2, 9]> = x.repeat_interleave(Const::<3>, Ax::<-1>);
    assert_eq!((tiled.numel(), spread.numel()), (18, 18));
    let diag: Tensor<f32, Shape![2, 3, 3]> = x.diag_embed();
    assert_eq!(diag.sum(), 21.);
    let q: Tensor<f32, Shape![2]> = x.quantile(0.5, Ax::<1>);
    assert_eq!(q.to_vec(), [2., 5.]);
    // A runtime dim stays runtime.
    let d: Tensor<f32, (Const<2>, Dyn)> =
        x.narrow(Ax::<1>, 0, 2).pad((Const::<0>, Const::<1>), Ax::<1>, PadMode::Constant, 0.0);
    assert_eq!(d.sizes(), [2, 3]);
}
