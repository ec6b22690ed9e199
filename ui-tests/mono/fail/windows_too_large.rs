// A window of [2, 5] over a static [3, 4] is a build error naming both shapes: each window size
// must be from 1 to its dim (ndarray's `windows` panics at run time).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let _ = x.windows::<Shape![2, 5]>();
}
