// The term `ijk` names three axes, but the operand has rank 2: a `cargo check` error.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = einsum!("ijk->k", a);
}
