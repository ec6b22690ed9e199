// A wrong flatten in a model: the feature map `[N, 16, 4, 4]` has 256 values per sample and the
// `Flatten` layer promises 250, so the program does not build, naming both counts.
use shaped::autograd::Tape;
use shaped::nn::{Flatten, Forward};
use shaped::prelude::*;

dims! { Batch }

fn main() {
    let tape = Tape::<f32>::new();
    let x = tape.var(Tensor::<f32, (Batch, Const<16>, Const<4>, Const<4>)>::zeros_sized(&[2, 16, 4, 4]));
    let _ = Flatten::<Const<250>>::new().forward(&tape, &x);
}
