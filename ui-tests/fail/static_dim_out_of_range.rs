// Broadcasting classifies each static dim through typenum, which covers sizes 0..=1024 plus powers
// of two, powers of ten and 2^k - 1. A static size such as 2000 is outside that range, so even
// adding two `[2000]` tensors is a compile error. Spell such a dim `_` (`Dyn`): it is then checked
// at run time.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2000]> = Tensor::zeros();
    let _ = &a + &a;
}
