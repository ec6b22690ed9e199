// Asking for the 5 largest of 4 elements along a static dim is a build error naming k, the dim
// and its size: `topk::<K, A>` returns `K` elements along `A`, which a dim of 4 cannot give. A
// `Dyn` dim is checked at run time (`try_topk`), and `topk_axis::<A>(k)` takes a runtime `k`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let _ = x.topk(Const::<5>, Ax::<1>, true);
}
