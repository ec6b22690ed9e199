// PyTorch's avg_pool2d has no dilation: a dilation other than 1 is a build error.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 1, 8, 8]> = Tensor::zeros();
    let _ = x.avg_pool2d(Pool::<2, 2, 0, 2>, true);
}
