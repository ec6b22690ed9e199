// `narrow_const` on a static dim outside the compile-time size range is checked when the program
// is built (a post-monomorphisation check: `cargo build` rejects it, `cargo check` does not).
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3000]> = Tensor::zeros();
    let ok: TensorView<f32, Shape![2]> = x.narrow_const::<0, 2998, 2>();
    assert_eq!(ok.sizes(), [2]);
    let _ = x.narrow_const::<0, 2999, 2>();
}
