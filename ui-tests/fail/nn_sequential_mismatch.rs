// In a tuple model (PyTorch's `nn.Sequential`) a size that does not fit between two layers is a
// compile error: `Linear<4, 8>` then `Linear<16, 3>`.
use shaped::autograd::{Tape, Var};
use shaped::nn::{Forward, Linear, Relu};
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

fn main() {
    let rng = &mut StdRng::seed_from_u64(0);
    let mut model = (Linear::<Const<4>, Const<8>>::new(rng), Relu, Linear::<Const<16>, Const<3>>::new(rng));
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f32, Shape![2, 4]>::zeros());
    let _ = model.forward(&tape, &x);
}
