// Traced code keeps the tensors' shape checks: `[2, 3] + [4, 3]` of two tracked values is the
// same compile error, with the same first line, as for two tensors.
use shaped::autograd::{Param, Tape};
use shaped::prelude::*;

fn main() {
    let a = Param::new(Tensor::<f32, Shape![2, 3]>::zeros());
    let b = Param::new(Tensor::<f32, Shape![4, 3]>::zeros());
    let tape = Tape::new();
    let _ = &tape.watch(&a) + &tape.watch(&b);
}
