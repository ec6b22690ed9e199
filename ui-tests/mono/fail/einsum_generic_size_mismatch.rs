// In generic code the sizes are compared when the function is instantiated: `trace::<3, 4>`
// labels a [3, 4] matrix `ii`, so the build fails naming the letter and both sizes.
use shaped::prelude::*;

fn trace<const N: usize, const M: usize>(x: &Tensor<f64, Shape![N, M]>) -> f64 {
    einsum!("ii->", x).item()
}

fn main() {
    let a: Tensor<f64, Shape![3, 4]> = Tensor::zeros();
    let _ = trace(&a);
}
