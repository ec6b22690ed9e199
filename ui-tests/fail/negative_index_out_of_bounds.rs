// A negative literal index counts from the end, and is checked at compile time: `-4` on a dim of
// size 3 is out of bounds (valid negative indices are -3..=-1). NumPy would raise at run time too.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3]> = Tensor::zeros();
    let _ = t!(x[-4]);
}
