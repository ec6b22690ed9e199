// `t!` on a tracked value keeps the tensors' literal checks: index 3 of a dim of size 3 is the
// same compile error, with the same first line, as for a tensor (`index_out_of_bounds`).
use shaped::autograd::{Param, Tape};
use shaped::prelude::*;

fn main() {
    let w = Param::new(Tensor::<f32, Shape![2, 3]>::zeros());
    let tape = Tape::new();
    let x = tape.watch(&w);
    let _ = t!(x[.., 3]);
}
