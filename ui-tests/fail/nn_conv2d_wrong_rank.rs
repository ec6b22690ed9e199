// `Conv2d` takes `[N, C, H, W]`: a 3-D input is a compile error naming the input's shape and the
// layer's weight shape.
use shaped::autograd::{Tape, Var};
use shaped::nn::{Conv2d, Forward};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

fn main() {
    let mut conv = Conv2d::<Const<1>, Const<4>, Const<3>>::new(&mut StdRng::seed_from_u64(0));
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f32, Shape![2, 8, 8]>::zeros());
    let _ = conv.forward(&tape, &x);
}
