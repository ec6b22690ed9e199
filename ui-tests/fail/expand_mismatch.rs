// Expanding `[2, 3]` to `[4, 3]` is a compile error: only size-1 dims can be expanded, and dim 0
// has size 2. Start from a `[1, 3]` tensor (for example `x.unsqueeze(Ax::<0>)` of a `[3]` one).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.expand::<Shape![4, 3]>();
}
