// Padding 2 around a 3x3 window would give windows of padding only: PyTorch refuses padding above
// half the kernel, and here it is a build error naming both.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 1, 8, 8]> = Tensor::zeros();
    let _ = x.max_pool2d(Pool::<3, 1, 2>);
}
