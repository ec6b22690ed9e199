// `LayerNorm<16>` normalises a last dim of 16: an input whose last dim is 8 is a compile error.
use shaped::autograd::{Tape, Var};
use shaped::nn::{Forward, LayerNorm};
use shaped::prelude::*;

fn main() {
    let mut norm = LayerNorm::<Const<16>>::new();
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f32, Shape![2, 8]>::zeros());
    let _ = norm.forward(&tape, &x);
}
