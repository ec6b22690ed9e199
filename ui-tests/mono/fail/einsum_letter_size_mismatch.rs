// The letter `j` labels a dim of 3 in the first operand and of 4 in the second: `einsum!` fails
// the build naming the letter and both sizes. (A post-monomorphisation check, so `cargo build`
// reports it and `cargo check` does not; `Dyn` sizes are compared at run time instead.)
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4, 5]> = Tensor::zeros();
    let _ = einsum!("ij,jk->ik", a, b);
}
