// A linear layer's weight is `[out, in]` (PyTorch's `nn.Linear`): `x.matmul(&w.t())`. After a
// typed reshape with `_` (PyTorch's `-1`) the 64 features stay static, so forgetting the `.t()`
// is a compile error naming both shapes.
use shaped::prelude::*;

fn main() {
    let h: Tensor<f32, Shape![_, 16, 2, 2]> = Tensor::zeros_sized(&[6, 16, 2, 2]);
    let fc1: Tensor<f32, Shape![32, 64]> = Tensor::zeros();
    let _ = h.reshape::<Shape![_, 64]>().matmul(&fc1);
}
