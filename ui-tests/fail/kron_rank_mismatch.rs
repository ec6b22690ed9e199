// `kron` takes two tensors of the same rank (unlike `torch.kron`, which pads the shorter shape
// with leading 1s): add the dim with `unsqueeze::<0>()` first.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![2]> = Tensor::zeros();
    let _ = a.kron(&b);
}
