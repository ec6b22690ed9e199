// Assigning a value whose shape does not broadcast to the indexed view.
use shaped::prelude::*;

fn main() {
    let mut x: Tensor<f32, Shape![3, 2]> = Tensor::zeros();
    t!(x[.., 0] = Tensor::from([1.0, 2.0]));
}
