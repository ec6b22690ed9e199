// `BatchNorm2d<4>` has 4 channels: an input with 3 channels (dim 1) is a compile error.
use shaped::autograd::{Tape, Var};
use shaped::nn::{BatchNorm2d, Forward};
use shaped::prelude::*;

fn main() {
    let mut bn = BatchNorm2d::<Const<4>>::new();
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f32, Shape![2, 3, 8, 8]>::zeros());
    let _ = bn.forward(&tape, &x);
}
