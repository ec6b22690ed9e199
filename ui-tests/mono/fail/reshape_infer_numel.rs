// PyTorch's `-1` is a `_` dim in the target: `[6, 16, 2, 2]` (384 elements) into `[_, 7]` has no
// whole size for the `_`, so the program does not build, naming 384 and 7. (With a run-time dim in
// the source the counts are compared at run time instead, and `try_reshape` returns the error.)
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![6, 16, 2, 2]> = Tensor::zeros();
    let _ = x.reshape::<Shape![_, 7]>();
}
