// A forgotten transpose of attention scores: `scores` is `[Batch, Seq, SeqK]`, so multiplying by
// values `[Batch, Seq, 8]` puts `SeqK` against `Seq` in the inner dims.
use shaped::prelude::*;

dims! { Batch, Seq, SeqK }

fn main() {
    let scores = Tensor::<f32, (Batch, Seq, SeqK)>::zeros_sized(&[2, 5, 5]);
    let v = Tensor::<f32, (Batch, Seq, Const<8>)>::zeros_sized(&[2, 5, 8]);
    let _ = scores.matmul(&v);
}
