// A static dim outside the compile-time size range (0..=1024, 2^k, 2^k - 1, 10^k) takes literal
// indices and ranges (an index drops the dim, `a..b` gives `Const<{b - a}>`), and one that is out
// of bounds is still rejected before the program runs: when it is built (a post-monomorphisation
// check; `cargo check` does not see it, `cargo build` does).
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![50000, 3]> = Tensor::zeros();
    let ok: TensorView<f32, Shape![48, 3]> = t!(a[0..48]);
    assert_eq!(ok.sizes(), [48, 3]);
    let _ = t!(a[49990..50010]);
}
