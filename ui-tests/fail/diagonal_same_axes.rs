// `diagonal::<D1, D2>()` takes the diagonal of two different axes; the same axis twice is a
// compile error for tuple shapes (PyTorch raises at run time).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 3]> = Tensor::zeros();
    let _ = x.diagonal(0, Ax::<1>, Ax::<1>);
}
