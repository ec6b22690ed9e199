// A stride of 0 is a build error (PyTorch: "non-positive stride is not supported").
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 2, 8, 8]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4, 2, 3, 3]> = Tensor::zeros();
    let _ = x.conv2d(&w, NoBias, Conv::<0, 1>);
}
