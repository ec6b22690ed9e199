// Static sizes up to 65,536 (and beyond) broadcast, expand, squeeze, matmul, index with `..` and
// runtime indices, cat with `Dyn`, and transpose, with every result type checked. Sizes such as
// 3000 or 50,000 are outside typenum's table: none of these rules needs it.
use shaped::prelude::*;

pub fn main() {
    // Broadcasting: equal sizes, `One` against any size, and missing leading dims.
    let x = Tensor::<f32, Shape![65536, 1]>::ones();
    let b: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let y: Tensor<f32, Shape![65536, 3]> = &x + &b;
    assert_eq!(y.sum(), 65536. * 9.);
    let p = Tensor::<f32, Shape![3000]>::ones();
    let q: Tensor<f32, Shape![3000]> = &p + &p;
    let r: Tensor<f32, Shape![2, 3000]> = &Tensor::<f32, Shape![2, 1]>::ones() * &q;
    assert_eq!(r.sum(), 12000.);

    // expand and squeeze of the size-1 dim.
    let e: TensorView<f32, Shape![50000, 3]> = b.expand::<Shape![50000, 3]>();
    let s: TensorView<f32, Shape![3]> = b.squeeze(Ax::<0>);
    assert_eq!((e.sum(), s.sum()), (300000., 6.));

    // matmul with a large inner dim and a large batch-free outer dim.
    let a = Tensor::<f32, Shape![2, 40000]>::ones();
    let w = Tensor::<f32, Shape![40000, 3]>::ones();
    let m: Tensor<f32, Shape![2, 3]> = a.matmul(&w);
    assert_eq!(m.to_vec(), [40000.; 6]);

    // `..`, a runtime index and a runtime range on a large dim (the rest stays static).
    let v: TensorView<f32, Shape![65536]> = t!(y[.., 1]);
    let i = 7;
    let row: TensorView<f32, Shape![3]> = t!(y[i, ..]);
    let part: TensorView<f32, Shape![_, 3]> = t!(y[i..i + 10, ..]);
    assert_eq!((v.sum(), row.to_vec(), part.sizes()), (65536. * 3., vec![2., 3., 4.], &[10, 3][..]));

    // transpose, sum along a large axis, keepdim that broadcasts back.
    let t: TensorView<f32, Shape![3, 65536]> = y.t();
    let c: Tensor<f32, Shape![65536, 3]> = &y - &y.mean_keepdim(Ax::<0>);
    let s0: Tensor<f32, Shape![3]> = y.sum_axis(Ax::<0>);
    assert_eq!((t.sizes(), c.sum(), s0.to_vec()), (&[3, 65536][..], 0., vec![131072., 196608., 262144.]));

    // reshape and view between static shapes of any size, with the element counts compared when
    // the program is built: [1500, 64] -> [30, 50, 64] (a gather's rows into batches) and back.
    let rows = Tensor::<f32, Shape![1500, 64]>::from_fn(|[i, j]| (i * 64 + j) as f32);
    let batched: TensorCow<f32, Shape![30, 50, 64]> = rows.reshape::<Shape![30, 50, 64]>();
    assert_eq!((batched.sizes(), t!(batched[29, 49, 63]).item()), (&[30, 50, 64][..], 95999.));
    let flat: TensorView<f32, Shape![96000]> = rows.view::<Shape![96000]>();
    let back: TensorView<f32, Shape![3000, 32]> = flat.view::<Shape![3000, 32]>();
    assert_eq!(t!(back[2999, 31]).item(), 95999.);

    // Literal slices work on sizes in typenum's range, which includes every power of two.
    let head: TensorView<f32, Shape![4, 3]> = t!(y[0..4, ..]);
    assert_eq!(head.sum(), 36.);
}
