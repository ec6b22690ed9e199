//! all-MiniLM-L6-v2 (`shaped::nn::bert`, issue 48) on 32 sentences (`benches/data/minilm_sentences.txt`):
//! the untracked forward with mean pooling and normalisation of the 32 tokenised sentences in one
//! padded batch, of one sentence alone, the tokenisation alone (`tokenize_batch32`), and the same batch
//! with its tokenisation (sentence-transformers' `encode`); one fine-tuning step on 16 pairs (sentences `2i` and `2i + 1`, label 0.5: the cosine-similarity
//! loss of `tests/bert_minilm.rs`, each side one padded batch of 16, its backward and an AdamW step,
//! `train_step_batch16`). PyTorch's times for the same work come from `scripts/minilm_timing.py`.
//!
//! Needs the model (`scripts/fetch_minilm.sh`, or `SHAPED_MINILM_DIR`); without it the bench prints a
//! line and measures nothing. Run on one thread as
//! `RAYON_NUM_THREADS=1 cargo bench --features safetensors --bench bert`.
use criterion::{criterion_group, criterion_main, Criterion};
use shaped::autograd::optim::{AdamW, AdamWConfig};
use shaped::autograd::{Tape, Var};
use shaped::nn::bert::MiniLm;
use shaped::nn::Module;
use shaped::{Ax, Dyn, Tensor};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

const SENTENCES: &str = include_str!("data/minilm_sentences.txt");

type Ids = Tensor<u32, (Dyn, Dyn)>;

/// Ids and attention mask of `sentences`, padded to the longest.
fn tokenize(tok: &Tokenizer, sentences: &[&str]) -> (Ids, Ids) {
    let enc = tok.encode_batch(sentences.to_vec(), true).expect("tokenizes");
    let l = enc[0].get_ids().len();
    let ids = enc.iter().flat_map(|e| e.get_ids().to_vec()).collect();
    let mask = enc.iter().flat_map(|e| e.get_attention_mask().to_vec()).collect();
    (Tensor::from_vec(&[sentences.len(), l], ids), Tensor::from_vec(&[sentences.len(), l], mask))
}

fn benches(c: &mut Criterion) {
    let dir = std::env::var_os("SHAPED_MINILM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/models/all-MiniLM-L6-v2"));
    if !dir.join("model.safetensors").is_file() {
        println!("bert bench skipped: all-MiniLM-L6-v2 is not in {} (scripts/fetch_minilm.sh)", dir.display());
        return;
    }
    let mut model: MiniLm = MiniLm::from_safetensors(dir.join("model.safetensors")).expect("the model loads");
    let mut tok = Tokenizer::from_file(dir.join("tokenizer.json")).expect("tokenizer.json loads");
    tok.with_truncation(Some(TruncationParams { max_length: 256, ..Default::default() })).expect("truncation");
    tok.with_padding(Some(PaddingParams { strategy: PaddingStrategy::BatchLongest, ..Default::default() }));
    let sentences: Vec<&str> = SENTENCES.lines().collect();
    assert_eq!(sentences.len(), 32);
    let (ids, mask) = tokenize(&tok, &sentences);
    let (ids1, mask1) = tokenize(&tok, &sentences[..1]);

    let mut g = c.benchmark_group("minilm");
    g.sample_size(20).measurement_time(Duration::from_secs(8)).warm_up_time(Duration::from_secs(2));
    g.bench_function("forward_batch32", |b| b.iter(|| model.try_embed(black_box(&ids), black_box(&mask)).unwrap()));
    g.bench_function("forward_one", |b| b.iter(|| model.try_embed(black_box(&ids1), black_box(&mask1)).unwrap()));
    g.bench_function("tokenize_batch32", |b| b.iter(|| tokenize(&tok, black_box(&sentences))));
    g.bench_function("encode_batch32", |b| {
        b.iter(|| {
            let (i, m) = tokenize(&tok, black_box(&sentences));
            model.try_embed(&i, &m).unwrap()
        })
    });
    let even: Vec<&str> = sentences.iter().step_by(2).copied().collect();
    let odd: Vec<&str> = sentences.iter().skip(1).step_by(2).copied().collect();
    let ((ia, ma), (ib, mb)) = (tokenize(&tok, &even), tokenize(&tok, &odd));
    let labels = Var::constant(Tensor::<f32, (Dyn,)>::full_sized(&[16], 0.5));
    let mut opt = AdamW::new(AdamWConfig { lr: 1e-5, ..Default::default() });
    g.bench_function("train_step_batch16", |b| {
        b.iter(|| {
            let tape = Tape::new();
            let u = model.try_sentence_embeddings(&tape, &ia, &ma).unwrap();
            let v = model.try_sentence_embeddings(&tape, &ib, &mb).unwrap();
            let dot = (&u * &v).sum_axis(Ax::<1>);
            let norms = (&u * &u).sum_axis(Ax::<1>).sqrt() * (&v * &v).sum_axis(Ax::<1>).sqrt();
            let d = &(&dot / &norms) - &labels;
            let loss = (&d * &d).mean();
            let grads = loss.backward();
            opt.step(&mut model.parameters(), &grads);
            loss.value().item()
        })
    });
    g.finish();
}

criterion_group!(bert, benches);
criterion_main!(bert);
