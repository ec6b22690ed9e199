// An output padding of 2 with stride 2 and dilation 1 would add rows no input reaches: PyTorch
// requires it below the stride or the dilation, and here it is a build error naming all three.
use shaped::prelude::*;
use shaped::ConvT;

fn main() {
    let x: Tensor<f32, Shape![1, 4, 5, 5]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4, 2, 3, 3]> = Tensor::zeros();
    let _ = x.conv_transpose2d(&w, NoBias, ConvT::<2, 1, 2>);
}
