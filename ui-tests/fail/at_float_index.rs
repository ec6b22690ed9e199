// Element indices are integers of any type; anything else is refused with the index's type named.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.at([0.5, 1.0]);
}
