// A Conv2d layer of 3 input channels on an input of 4 channels, in traced code: a compile error
// at `cargo check` (a trait bound, not a build-time check) naming both shapes (issue 47).
use shaped::autograd::{Tape, Var};
use shaped::nn::{Conv2d, Forward};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

fn main() {
    let mut conv = Conv2d::<Const<3>, Const<8>, Const<3>, f32, 1, 1>::new(&mut StdRng::seed_from_u64(0));
    let tape = Tape::<f32>::new();
    let x = tape.var(Tensor::<f32, Shape![_, 4, 16, 16]>::zeros_sized(&[2, 4, 16, 16]));
    let _ = conv.forward(&tape, &x);
    let _ = Var::<f32, Shape![2, 3]>::constant(Tensor::zeros());
}
