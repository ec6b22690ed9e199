// An output letter may appear once: `ii` as an output has no meaning (NumPy refuses it too); a
// repeated letter in an operand's term takes its diagonal instead.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![3, 3]> = Tensor::zeros();
    let _ = einsum!("ij->ii", a);
}
