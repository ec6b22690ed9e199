// The element counts of a static reshape are compared for every static size when the program is
// built, not only for sizes inside typenum's range: `[1500, 64]` (96000 elements) cannot become
// `[30, 50, 63]` (94500 elements), and the first line says so with both counts.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1500, 64]> = Tensor::zeros();
    let _ = x.reshape::<Shape![30, 50, 64]>();
    let _ = x.reshape::<Shape![30, 50, 63]>();
}
