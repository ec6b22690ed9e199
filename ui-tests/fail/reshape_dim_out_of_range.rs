// A static reshape multiplies the sizes with typenum, so every dim must be in its range
// (0..=1024, powers of two and ten, 2^k - 1); 3000 is not. `into_dyn()` and `reshape_dyn`
// reshape any size at run time.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![3000]> = Tensor::zeros();
    let _ = a.reshape::<Shape![1000, 3]>();
}
