// `[N, 1] - [N]` is valid broadcasting (it computes over `[N, N]`): the classic silent bug of a
// regression loss. The strict form rejects it at compile time.
use shaped::prelude::*;

fn mse<const N: usize>(yhat: &Tensor<f32, Shape![N, 1]>, y: &Tensor<f32, Shape![N]>) -> f32 {
    let d = yhat.sub_same(y);
    d.mul_same(&d).mean()
}

fn main() {}
