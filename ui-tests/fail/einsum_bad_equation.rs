// `einsum!` parses its equation when it expands: a character other than letters, `,`, `->` and
// `...` is an error on the string literal.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = einsum!("i1,1k->ik", a, a);
}
