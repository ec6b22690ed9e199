// 3 output channels cannot be split into 2 groups: a build error naming both numbers.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 4, 8, 8]> = Tensor::zeros();
    let w: Tensor<f32, Shape![3, 2, 3, 3]> = Tensor::zeros();
    let _ = x.conv2d(&w, NoBias, Conv::<1, 1, 1, 2>);
}
