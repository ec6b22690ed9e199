// `backward()` needs a scalar loss: a `[2, 3]` value must be reduced first (`sum()`, `mean()`, a
// loss function) or seeded with `backward_with(&seed)`.
use shaped::autograd::{Param, Tape};
use shaped::prelude::*;

fn main() {
    let w = Param::new(Tensor::<f32, Shape![2, 3]>::zeros());
    let tape = Tape::new();
    let y = tape.watch(&w).exp();
    let _ = y.backward();
}
