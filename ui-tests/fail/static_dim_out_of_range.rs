// Literal slice bounds are compared with a static dim through typenum, which covers sizes
// 0..=1024 plus powers of two, powers of ten and 2^k - 1. A dim of 3000 is outside that range, so
// a literal range on it is a compile error that suggests `Dyn` (`_`), checked at run time.
// (Broadcasting, matmul, expand, squeeze and `..` need no such range: they work for every size.)
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![3000]> = Tensor::zeros();
    let _ = t!(a[0..10]);
}
