// `sum_axis::<2>()` on a rank-2 tensor is a compile error: there is no axis 2. Use an axis in
// `0..rank`, or `sum()` for the sum of all elements.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.sum_axis(Ax::<2>);
}
