// cast_shape only relabels dims of the same size.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _: Tensor<f32, Shape![3, 2]> = x.cast_shape();
}
