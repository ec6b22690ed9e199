// A loss's target has the input's shape: a `[Seq, 4]` target against a `[Batch, 4]` input is
// refused even when the runtime sizes happen to be equal (an anonymous `[_, 4]` target is taken).
use shaped::autograd::nn::{mse_loss, Reduction};
use shaped::autograd::Var;
use shaped::prelude::*;

dims! { Batch, Seq }

fn main() {
    let x = Var::constant(Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[2, 4]));
    let t = Var::constant(Tensor::<f32, (Seq, Const<4>)>::zeros_sized(&[2, 4]));
    let _ = mse_loss(&x, &t, Reduction::Mean);
}
