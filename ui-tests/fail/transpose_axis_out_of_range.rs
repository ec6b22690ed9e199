// `transpose::<0, 2>()` on a rank-2 tensor is a compile error: there is no axis 2. Axes are
// numbered from 0 to rank - 1; for a matrix use `transpose::<0, 1>()` or `t()`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.transpose(Ax::<0>, Ax::<2>);
}
