// Broadcasting at the type level: static with static, static with runtime (`_`) dims, and size-1
// dims on both sides. The annotations prove the result types.
use shaped::prelude::*;

pub fn main() {
    // `[_, 3]` + `[3]`: the rank and the 3 are static; the first size is checked at run time.
    let a: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[2, 3]);
    let b: Tensor<f32, Shape![3]> = Tensor::from([1., 2., 3.]);
    let c: Tensor<f32, Shape![_, 3]> = &a + &b;
    assert_eq!(c.sizes(), [2, 3]);
    assert_eq!(c.to_vec(), [1., 2., 3., 1., 2., 3.]);

    // `[1, 3]` + `[2, 1]` gives `[2, 3]`: each side broadcasts along its size-1 dim.
    let row: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let col: Tensor<f32, Shape![2, 1]> = Tensor::from([[10.], [20.]]);
    let s: Tensor<f32, Shape![2, 3]> = &row + &col;
    assert_eq!(s.to_vec(), [11., 12., 13., 21., 22., 23.]);

    // Missing leading dims count as 1; by value and with views works the same.
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let y: Tensor<f32, Shape![2, 3]> = x.clone() * b.as_view();
    assert_eq!(y.to_vec(), [1., 4., 9., 4., 10., 18.]);

    // Equal static sizes of any size (no typenum table needed for equality of non-1 sizes).
    let p: Tensor<f32, Shape![2, 3]> = &x - &y;
    assert_eq!(p.to_vec(), [0., -2., -6., 0., -5., -12.]);

    // Scalars keep the shape.
    let q: Tensor<f32, Shape![2, 3]> = &x * 2.0;
    assert_eq!(q.at([1, 2]), 12.);
}
