// A 4x4 window over a static 3-wide input has no output: a build error naming the sizes.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 1, 8, 3]> = Tensor::zeros();
    let _ = x.max_pool2d(Pool::<4, 4>);
}
