// A slice step of zero is rejected by `t!` itself: a step must be positive, or negative to walk
// the range backwards (`..;-1` reverses a dim).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = t!(x[0..4;0]);
}
