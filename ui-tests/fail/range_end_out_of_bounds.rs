// A literal range end past the dim is a compile error, never clamped (NumPy would clamp `0..5` to
// `0..4`; this crate does not, on purpose). Use `0..4` or `..` for the whole dim.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = t!(x[0..5]);
}
