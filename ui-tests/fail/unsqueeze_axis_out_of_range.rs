// `unsqueeze::<3>()` on a rank-2 tensor is a compile error: the new axis may go at positions
// 0..=rank (0, 1 or 2 here). Use an axis in that range.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.unsqueeze(Ax::<3>);
}
