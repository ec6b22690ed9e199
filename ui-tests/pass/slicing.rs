// `t!` results and their types: ranges give static lengths, literal indices drop dims, `None`
// adds a size-1 dim, `...` keeps the remaining dims, runtime bounds give `Dyn` dims.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);

    let v: TensorView<f32, Shape![2, 2]> = t!(x[.., 0..2]);
    assert_eq!(v.to_vec(), [1., 2., 4., 5.]);

    let col: TensorView<f32, Shape![2]> = t!(x[.., 1]);
    assert_eq!(col.to_vec(), [2., 5.]);

    let last: TensorView<f32, Shape![1, 2]> = t!(x[None, ..., -1]);
    assert_eq!(last.to_vec(), [3., 6.]);

    let tail: TensorView<f32, Shape![2, 2]> = t!(x[.., 1..]);
    assert_eq!(tail.to_vec(), [2., 3., 5., 6.]);

    let stepped: TensorView<f32, Shape![2, 2]> = t!(x[.., 0..3;2]);
    assert_eq!(stepped.to_vec(), [1., 3., 4., 6.]);

    let rev: TensorView<f32, Shape![3]> = t!(x[0, ..;-1]);
    assert_eq!(rev.to_vec(), [3., 2., 1.]);

    let neg: TensorView<f32, Shape![2, 2]> = t!(x[.., -2..]);
    assert_eq!(neg.to_vec(), [2., 3., 5., 6.]);

    // Runtime index: drops the dim, checked at run time.
    let i = 1;
    let row: TensorView<f32, Shape![3]> = t!(x[i]);
    assert_eq!(row.to_vec(), [4., 5., 6.]);

    // Runtime range bound: the length is known only at run time, so the dim is `Dyn`.
    let n = 2;
    let part: TensorView<f32, Shape![2, _]> = t!(x[.., 0..n]);
    assert_eq!(part.sizes(), [2, 2]);
    assert_eq!(part.to_vec(), [1., 2., 4., 5.]);

    // Slicing a view keeps the view's lifetime.
    let inner: TensorView<f32, Shape![2]> = t!(v[1, ..]);
    assert_eq!(inner.to_vec(), [4., 5.]);

    // Assignment through the view.
    let mut z: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    t!(z[.., 0] = 1.0);
    assert_eq!(z.sum(), 3.);
}
