// A kernel of 3 dilated by 4 spans 9 elements, more than a length of 4 padded by 2 on both sides:
// a build error naming the sizes.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f64, Shape![2, 1, 4]> = Tensor::zeros();
    let w: Tensor<f64, Shape![1, 1, 3]> = Tensor::zeros();
    let _ = x.conv1d(&w, NoBias, Conv::<1, 2, 4>);
}
