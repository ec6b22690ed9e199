// A literal index past a static dim outside the compile-time size range is refused when the
// program is built, and the first line names the index, the dim and its size.
use shaped::prelude::*;

fn main() {
    let y: Tensor<f32, Shape![3000, 2]> = Tensor::zeros();
    let _ = t!(y[-1, 1]);
    let _ = t!(y[3001]);
}
