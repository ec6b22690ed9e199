// Literal slices and indices on static dims outside the compile-time size range compile and keep
// static result dims where the length needs no arithmetic.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<u8, Shape![50000, 32, 32, 3]> = Tensor::zeros();
    let batch: TensorView<u8, Shape![48, 32, 32, 3]> = t!(x[0..48]);
    let last: TensorView<u8, Shape![32, 32, 3]> = t!(x[-1]);
    let tail: TensorView<u8, Shape![_, 32, 32, 3]> = t!(x[49990..]);
    let n: TensorView<u8, Shape![2, 32, 32, 3]> = x.narrow_const::<0, 49998, 2>();
    assert_eq!((batch.sizes()[0], last.sizes()[0], tail.sizes()[0], n.sizes()[0]), (48, 32, 10, 2));
}
