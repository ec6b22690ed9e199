// A product dim with a name in it never meets a static size: `[Batch×Seq, 4]` (tokens flattened
// over batch and sequence) added to a `[6, 4]` tensor is refused, whatever the runtime sizes.
use shaped::prelude::*;

dims! { Batch, Seq }

fn main() {
    let x = Tensor::<f32, (Batch, Seq, Const<4>)>::zeros_sized(&[2, 3, 4]);
    let f = x.flatten_range(Ax::<0>, Ax::<1>);
    let _ = &f + &Tensor::<f32, Shape![6, 4]>::zeros();
}
