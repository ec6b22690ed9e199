// A wrong flatten: a feature map `[Batch, 16, 4, 4]` flattened from dim 1 is a product dim of
// 256, and the next layer's weight expects 250 inputs. The product meets a static size only when
// the two are equal, so the program does not build, naming both sizes.
use shaped::prelude::*;

dims! { Batch }

fn main() {
    let x = Tensor::<f32, (Batch, Const<16>, Const<4>, Const<4>)>::zeros_sized(&[2, 16, 4, 4]);
    let w = Tensor::<f32, Shape![250, 10]>::zeros();
    let _ = x.flatten_range(Ax::<1>, Ax::<3>).matmul(&w);
}
