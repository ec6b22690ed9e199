// Windows of 5 elements along a static dim of 4 are a build error naming the window size, the dim
// and its size: `unfold(axis, Const::<SIZE>, Const::<STEP>)` needs `SIZE <= n`. A `Dyn` dim is
// checked at run time (`try_unfold`, `try_unfold_dyn`).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let _ = x.unfold(Ax::<1>, Const::<5>, Const::<1>);
}
