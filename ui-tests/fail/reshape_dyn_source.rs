// A static reshape needs every size in the type: `[_, 3]` has a runtime dim, so its element count
// is unknown at compile time. Use `into_dyn()` and `reshape_dyn(&[..])`, checked at run time.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[2, 3]);
    let _ = x.reshape::<Shape![6]>();
}
