// Negative axes count from the end, checked at compile time against the rank.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let rows: Tensor<f32, Shape![2]> = x.sum_axis(Ax::<-1>);
    let keep: Tensor<f32, Shape![1, 3]> = x.mean_keepdim(Ax::<-2>);
    let col: TensorView<f32, Shape![2, 3, 1]> = x.unsqueeze(Ax::<-1>);
    let sq: TensorView<f32, Shape![2, 3]> = col.squeeze(Ax::<-1>);
    let tr: TensorView<f32, Shape![3, 2]> = x.transpose(Ax::<-1>, Ax::<-2>);
    let last: TensorView<f32, Shape![2]> = x.select(Ax::<-1>, 2);
    assert_eq!(rows.to_vec(), [6., 15.]);
    assert_eq!(keep.to_vec(), [2.5, 3.5, 4.5]);
    assert_eq!((sq.sizes(), tr.at([2, 1]), last.to_vec()), (&[2, 3][..], 6., vec![3., 6.]));
}
