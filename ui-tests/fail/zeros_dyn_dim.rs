// `zeros()` takes its sizes from the type, so a shape with a runtime (`_`) dim is a compile
// error. Give the sizes at run time with `Tensor::zeros_sized(&[n, 3])`.
use shaped::prelude::*;

fn main() {
    let _: Tensor<f32, Shape![_, 3]> = Tensor::zeros();
}
