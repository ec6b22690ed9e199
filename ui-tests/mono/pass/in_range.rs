// The in-range versions of the calls in `fail/`: they build and run.
use shaped::prelude::*;

fn main() {
    // Literal indices and bounds at the end of a dim outside the compile-time size range.
    let a: Tensor<f32, Shape![50000, 3]> = Tensor::zeros();
    let tail: TensorView<f32, Shape![10, 3]> = t!(a[49990..50000]);
    assert_eq!(tail.sizes(), [10, 3]);
    let last: TensorView<f32, Shape![3]> = t!(a[49999]);
    assert_eq!(last.sizes(), [3]);

    // narrow_const ending exactly at the end of such a dim.
    let x: Tensor<f32, Shape![3000]> = Tensor::zeros();
    let end: TensorView<f32, Shape![2]> = x.narrow_const::<0, 2998, 2>();
    assert_eq!(end.sizes(), [2]);

    // An inline result of exactly 64 KiB: [128] + [128, 1] is [128, 128] f32.
    let row = STensor::<f32, Shape![128]>::zeros();
    let col = STensor::<f32, Shape![128, 1]>::zeros();
    let grid: STensor<f32, Shape![128, 128]> = &row + &col;
    assert_eq!(grid.sizes(), [128, 128]);

    // topk of every element of a static dim.
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let (v, i): (Tensor<f32, Shape![3, 4]>, Tensor<i64, Shape![3, 4]>) = x.topk(Const::<4>, Ax::<1>, true);
    assert_eq!((v.sizes(), i.sizes()), ([3, 4].as_slice(), [3, 4].as_slice()));

    // Sliding windows and convolutions whose sizes just fit (see the conv*, unfold*, windows*,
    // *_pool2d* cases).
    let u: TensorView<f32, Shape![3, 1, 4]> = x.unfold(Ax::<1>, Const::<4>, Const::<1>);
    assert_eq!(u.sizes(), [3, 1, 4]);
    let w: TensorView<f32, Shape![2, 1, 2, 4]> = x.windows::<Shape![2, 4]>();
    assert_eq!(w.sizes(), [2, 1, 2, 4]);
    let img: Tensor<f32, Shape![1, 2, 3, 3]> = Tensor::zeros();
    let k: Tensor<f32, Shape![4, 2, 5, 5]> = Tensor::zeros();
    let y: Tensor<f32, Shape![1, 4, 1, 1]> = img.conv2d(&k, NoBias, Conv::<1, 1>);
    assert_eq!(y.sizes(), [1, 4, 1, 1]);
    let p: Tensor<f32, Shape![1, 2, 1, 1]> = img.max_pool2d(Pool::<3, 3, 1>);
    assert_eq!(p.sizes(), [1, 2, 1, 1]);
    // A transposed convolution that doubles the size (output padding 1 < stride 2).
    let t: Tensor<f32, Shape![2, 2, 3, 3]> = Tensor::zeros();
    let up: Tensor<f32, Shape![1, 2, 6, 6]> = img.conv_transpose2d(&t, NoBias, shaped::ConvT::<2, 1, 1>);
    assert_eq!(up.sizes(), [1, 2, 6, 6]);
    // einsum! with agreeing static letters, in concrete and generic code.
    let m: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let n: Tensor<f32, Shape![3, 4]> = Tensor::ones();
    let p: Tensor<f32, Shape![2, 4]> = einsum!("ij,jk->ik", m, n);
    assert_eq!(p.to_vec(), [3.0; 8]);
    fn trace<const N: usize>(x: &Tensor<f64, Shape![N, N]>) -> f64 {
        einsum!("ii->", x).item()
    }
    assert_eq!(trace(&Tensor::<f64, Shape![3, 3]>::ones()), 3.0);

    // A `_` in a reshape, view or unflatten target is inferred from the element count.
    let c: Tensor<f32, Shape![6, 16, 2, 2]> = Tensor::zeros();
    let r: TensorCow<f32, Shape![_, 64]> = c.reshape::<Shape![_, 64]>();
    let v: TensorView<f32, Shape![6, _]> = c.view::<Shape![6, _]>();
    let u: TensorView<f32, Shape![6, 4, _, 2, 2]> = c.unflatten(Ax::<1>, (Const::<4>, Dyn));
    assert_eq!((r.sizes(), v.sizes(), u.sizes()), ([6, 64].as_slice(), [6, 64].as_slice(), [6, 4, 4, 2, 2].as_slice()));
}
