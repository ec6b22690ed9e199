// Generic over both operand shapes, `+` needs the broadcasting rule as a bound; the error names
// the bound to add (same-shape arithmetic needs none).
use shaped::prelude::*;

fn add<S1: Shape, S2: Shape>(a: &Tensor<f32, S1>, b: &Tensor<f32, S2>) {
    let _ = a + b;
}

fn main() {}
