// Height and width apart: a 3x5 kernel over a static 4x4 input with padding (1, 0) fits the
// height but not the width, a build error naming the width's kernel, dilation, input size and
// padding. With `Conv::<1, 1>` (padding 1 on both sides of both dims) it fits.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 2, 4, 4]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4, 2, 3, 5]> = Tensor::zeros();
    let _ = x.conv2d(&w, NoBias, Conv::<1, 1, 1, 1, 1, 0>);
}
