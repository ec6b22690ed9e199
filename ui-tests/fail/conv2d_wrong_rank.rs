// conv2d takes [N, C, H, W] inputs: a 3-D input (an unbatched image, which PyTorch accepts) is
// refused when checked, the first line naming both shapes and the rule `Conv2dInput` (an input of
// rank 4 against its weights) below. Add the batch dim with `unsqueeze(0)`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 8, 8]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4, 3, 3, 3]> = Tensor::zeros();
    let _ = x.conv2d(&w, NoBias, Conv::<1, 1>);
}
