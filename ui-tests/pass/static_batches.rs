// Static batches: `batches::<B>()` and `axis_chunks_exact::<A, B>()` yield views whose batch dim
// is `Const<B>` in the type, so the rest of a training step is checked at compile time; the
// shorter last piece is `remainder()`, with a runtime dim. The types are written out: that is what
// this case checks.
use shaped::prelude::*;

/// One step on a batch of 32 rows: the batch size is in the argument's type.
fn step(batch: TensorView<'_, f32, Shape![32, 64]>, w: &Tensor<f32, Shape![64, 10]>) -> Tensor<f32, Shape![32, 10]> {
    batch.matmul(w)
}

pub fn main() {
    let x = Tensor::<f32, Shape![1500, 64]>::from_fn(|[i, j]| (i + j) as f32);
    let w = Tensor::<f32, Shape![64, 10]>::ones();
    let mut batches = x.batches::<32>();
    assert_eq!(batches.len(), 46);
    let tail: TensorView<f32, Shape![_, 64]> = batches.remainder();
    assert_eq!(tail.sizes(), [28, 64]);
    let first: TensorView<f32, Shape![32, 64]> = batches.next().unwrap();
    let out: Tensor<f32, Shape![32, 10]> = step(first, &w);
    assert_eq!(out.at([0, 0]), (0..64).sum::<usize>() as f32);
    let total: f32 = batches.map(|b| step(b, &w).sum()).sum();
    assert!(total > 0.);

    // Along another axis: columns in chunks of 16 of a [64, 1500] view.
    let t = x.t();
    let cols: Vec<TensorView<f32, Shape![64, 16]>> = t.axis_chunks_exact(Ax::<1>, Const::<16>).collect();
    assert_eq!(cols.len(), 93);
    let rest: TensorView<f32, Shape![64, _]> = t.axis_chunks_exact(Ax::<1>, Const::<16>).remainder();
    assert_eq!(rest.sizes(), [64, 12]);
}
