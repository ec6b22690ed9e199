// A 5x5 kernel over a static 3x3 input without padding has no output: a build error naming the
// kernel, the dilation, the input size and the padding. With `Conv::<1, 1>` (padding 1) it fits.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 2, 3, 3]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4, 2, 5, 5]> = Tensor::zeros();
    let _ = x.conv2d(&w, NoBias, Conv::<1, 0>);
}
