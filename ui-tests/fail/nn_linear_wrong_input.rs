// A layer's sizes are in its type: a `Linear<4, 8>` fed `[2, 5]` is a compile error naming the
// input's shape and the layer's (the rule of `matmul`, which the layer runs).
use shaped::autograd::{Tape, Var};
use shaped::nn::{Forward, Linear};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

fn main() {
    let mut layer = Linear::<Const<4>, Const<8>>::new(&mut StdRng::seed_from_u64(0));
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f32, Shape![2, 5]>::zeros());
    let _ = layer.forward(&tape, &x);
}
