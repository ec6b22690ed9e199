// An index may contain at most one `...` (it stands for all the dims the other items leave).
// Remove one of them.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = t!(x[..., 0, ...]);
}
