// `view` follows the same element-count rule as `reshape`: `[2, 3]` cannot be viewed as `[4, 2]`.
// Pick a target with 6 elements.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.view::<Shape![4, 2]>();
}
