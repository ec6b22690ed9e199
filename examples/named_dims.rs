//! Named runtime dims (`guide::named_dims`): the digits CNN and a self-attention step with a
//! `Batch` and two sequence names, `Seq` for the queries and `SeqK` for the keys. Each size that
//! varies at run time has a name, so that these do not compile (trybuild cases in
//! `ui-tests/fail/named_*.rs` and `ui-tests/mono/fail/reshape_drops_name.rs`):
//! - `&h + &other` with `other: [Seq, Batch, ..]`: dimension `Batch` vs `Seq`;
//! - `scores.matmul(&q)`, the attention scores multiplied without the transpose: inner
//!   dimensions `SeqK` and `Seq` differ;
//! - `logits.reshape::<Shape![_, 20]>()`, a `_` that would regroup the batch: the named dim
//!   `Batch` is not in the target;
//! - a flattened `[Batch, 16, 4, 4]` (`[Batch, 16×4×4]`) multiplied by a `[250, 10]` weight: a
//!   product dim of static size 256 meets the static size 250
//!   (`ui-tests/mono/fail/flatten_product_mismatch.rs`).
//!
//! Run with `cargo run --example named_dims`.
#[path = "digits/model.rs"]
mod model;
use model::DigitsCnn;
use shaped::autograd::nn::{cross_entropy, Reduction, Unreduced};
use shaped::autograd::{Tape, Var};
use shaped::nn::Forward;
use shaped::prelude::*;
use shaped::rand::{rngs::StdRng, SeedableRng};

dims! {
    /// Images or sentences in a batch.
    Batch,
    /// Query positions.
    Seq,
    /// Key positions (equal to `Seq` at run time in self-attention, a different dim in the types).
    SeqK,
}

/// One head of scaled dot-product attention: `softmax(q kᵀ / √16) v`, `[Batch, Seq, 16]`.
fn attention<'t>(
    q: &Var<'t, f32, (Batch, Seq, Const<16>)>,
    k: &Var<'t, f32, (Batch, SeqK, Const<16>)>,
    v: &Var<'t, f32, (Batch, SeqK, Const<16>)>,
) -> Var<'t, f32, (Batch, Seq, Const<16>)> {
    let scores: Var<'_, f32, (Batch, Seq, SeqK)> = q.matmul(&k.transpose(Ax::<1>, Ax::<2>)).mul_scalar(0.25);
    scores.softmax(Ax::<2>).matmul(v)
}

fn main() -> Result<(), ShapeError> {
    let rng = &mut StdRng::seed_from_u64(0);

    // The digits CNN's forward is generic over its batch dim, so a named batch goes through it.
    let mut model = DigitsCnn::new(0);
    let images = Tensor::<f32, (Batch, One, Const<8>, Const<8>)>::rand_sized(&[5, 1, 8, 8], rng);
    // Labels from a loader carry no name: an anonymous `_` dim meets `Batch`.
    let labels = Tensor::<i64, Shape![_]>::from_vec(&[5], vec![3, 1, 4, 1, 5]);
    let tape = Tape::new();
    let logits: Var<'_, f32, (Batch, Const<10>)> = model.try_forward(&tape, &Var::constant(images))?;
    let loss = cross_entropy(&logits, &labels, Reduction::Mean, 0.0);
    let grads = loss.backward();
    println!("digits CNN: logits {:?}, loss {:.4}", logits.value().sizes(), loss.item());
    println!("  conv1 weight gradient {:?}", grads.param(&model.conv1.weight).map(|g| g.sizes().to_vec()));

    // Self-attention over 7 positions: `Seq` and `SeqK` name the same length.
    let x = Tensor::<f32, (Batch, Seq, Const<16>)>::randn_sized(&[2, 7, 16], rng);
    let keys: Tensor<f32, (Batch, SeqK, Const<16>)> = x.clone().into_dyn().try_into_static()?;
    let (q, k) = (Var::constant(x), Var::constant(keys));
    let out = attention(&q, &k, &k);
    println!("attention: {:?} -> {:?}", q.value().sizes(), out.value().sizes());

    // A class per token: `flatten_range` merges batch and sequence into one product dim,
    // `[Batch×Seq, 16]`; targets flattened the same way meet it at the loss, and the per-token
    // losses split back into `[Batch, Seq]` (`unflatten_prod`, given the batch size).
    let head = Var::constant(Tensor::<f32, Shape![16, 5]>::randn(rng));
    let token_logits = out.flatten_range(Ax::<0>, Ax::<1>).matmul(&head);
    let tags = Tensor::<i64, (Batch, Seq)>::from_vec(&[2, 7], (0..14).map(|i| i % 5).collect());
    let per_token = cross_entropy(&token_logits, &tags.flatten(), Unreduced, 0.0);
    let per_token: Var<'_, f32, (Batch, Seq)> = per_token.unflatten_prod::<0>(2);
    println!("per-token losses {:?} ({})", per_token.value().sizes(), <(Batch, Seq)>::describe());

    // One name with two runtime sizes is an error at the operation that meets them.
    let short = Tensor::<f32, (Batch, Seq, Const<16>)>::zeros_sized(&[2, 5, 16]);
    let err = out.value().try_add(&short).unwrap_err();
    println!("{err}");
    Ok(())
}
