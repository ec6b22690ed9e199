// `cat` along axis 0 needs every other dim to match: `[2, 3]` and `[2, 4]` differ in dim 1, so
// the static shapes are rejected at compile time. (With a `Dyn` dim it compiles and `try_cat`
// returns `cat: [2, 3] and [2, 4] differ outside dimension 0`.)
use shaped::prelude::*;
use shaped::tensor::join::Cat;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let y: Tensor<f32, Shape![2, 4]> = Tensor::zeros();
    let _ = x.cat(&y, Ax::<0>);
}
