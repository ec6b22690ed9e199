// The input has 3 channels, the weights expect 2 (with groups 1): a compile error at `cargo check`
// naming both shapes (a trait bound, issue 47). Dyn channels are checked at run time.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 3, 8, 8]> = Tensor::zeros();
    let w: Tensor<f32, Shape![4, 2, 3, 3]> = Tensor::zeros();
    let _ = x.conv2d(&w, NoBias, Conv::<1, 1>);
}
