// The gradient of a `Param<f32, Shape![32, 64]>` is a `Tensor<f32, Shape![32, 64]>`: asking for
// it as another shape (here the transpose) does not compile.
use shaped::autograd::{Param, Tape};
use shaped::prelude::*;

fn main() {
    let w = Param::new(Tensor::<f32, Shape![32, 64]>::zeros());
    let tape = Tape::new();
    let grads = tape.watch(&w).sum().backward();
    let _g: &Tensor<f32, Shape![64, 32]> = grads.param(&w).unwrap();
}
