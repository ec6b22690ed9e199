#!/usr/bin/env python3
"""Writes tests/data/minilm_data.rs, the fixture of tests/bert_minilm.rs (issue 48):
sentence-transformers' all-MiniLM-L6-v2 (a 6-layer BERT, hidden 384) on a committed list of
sentences, and one fine-tuning reference.

- SENTENCES: short and long ones, one longer than the model's 256 tokens (truncated), punctuation,
  accents and other non-ASCII text (combining marks, CJK, Greek, Cyrillic, an emoji), an empty
  string.
- TOKEN_IDS: each sentence's ids from the model's own tokenizer (tokenizer.json through
  `model.tokenizer`, truncated at `model.max_seq_length` = 256, [CLS] .. [SEP]).
- EMBEDDINGS: `model.encode(SENTENCES)`: the last hidden state mean-pooled over the attention
  mask and L2-normalised, [len(SENTENCES), 384] in f32.
- The fine-tuning reference, in f32 with dropout off (`model.eval()`: the modules' dropouts are
  identities, the gradients flow as in training): sentence-transformers' CosineSimilarityLoss over
  PAIRS (mean of (cos(u, v) - label)^2, u and v the normalised embeddings of the two sentences of
  a pair); LOSS, the gradients' L2 norm of every parameter that gets one (GRAD_NORMS; the
  `pooler` is unused, so it gets none), GRAD_SAMPLES (for a few parameters, the 6 elements of
  largest magnitude and 4 fixed flat indices), and ADAMW_LOSSES: the loss before each of five
  `torch.optim.AdamW(model.parameters(), lr=1e-4)` steps (betas (0.9, 0.999), eps 1e-8,
  weight_decay 0.01) and after the fifth.

Run from the repository root with the model directory as argument (scripts/fetch_minilm.sh puts
it in target/models/all-MiniLM-L6-v2):

    python3 scripts/minilm_data.py target/models/all-MiniLM-L6-v2

With `--f64` it writes tests/data/minilm_f64_data.rs instead: the same loss and gradients with
the model widened to float64 (`model.double()`, the f32 weights exact in f64): LOSS_F64,
GRAD_NORMS_F64 and GRAD_SAMPLES_F64 (the parameters and indices of the f32 file's samples: the
6 elements of largest magnitude in f64 and the fixed indices), for the 1e-10 check.

Needs torch, sentence-transformers (and transformers); CI reads the committed file and never
needs PyTorch.
"""
import subprocess
import sys

import numpy as np
import sentence_transformers
import torch
from sentence_transformers import SentenceTransformer

torch.set_num_threads(1)
torch.manual_seed(0)

LONG = (
    "The history of numerical computing is a history of trade-offs between speed, accuracy and "
    "the effort a programmer must spend. Early machines offered a few kilobytes of memory, and "
    "every algorithm was written by hand in assembly, its loops unrolled and its registers "
    "allocated with care. Fortran brought formulas closer to mathematics, and libraries such as "
    "LINPACK and later LAPACK collected decades of expertise in solving linear systems, finding "
    "eigenvalues and computing least-squares fits. Vector processors rewarded long, regular loops; "
    "caches rewarded blocking; multicore chips rewarded parallel work that did not share much "
    "state. Each generation of hardware changed which code was fast. Array languages such as APL, "
    "MATLAB and later NumPy let scientists write whole-array expressions and leave the loops to a "
    "library, at the price of temporary arrays and of shapes that were checked only when the "
    "program ran. Deep learning frameworks added automatic differentiation, so that a model's "
    "gradient came for free from its forward pass, and graphics processors made dense matrix "
    "products cheap enough to train networks with billions of parameters. Yet a shape error still "
    "surfaces hours into a training run, when a tensor of the wrong size reaches a layer that "
    "cannot take it. Typed tensors move some of those checks to the compiler: a matrix product of "
    "mismatched sizes, a broadcast that cannot happen, or a reshape that changes the number of "
    "elements becomes an error before the program ever runs. The cost is in the type signatures, "
    "which must say what the sizes are, and in the compile times, which grow with every "
    "instantiation of generic code. Whether that trade is worth it depends on the program: a "
    "research notebook changes its shapes every hour, while a deployed model keeps them fixed for "
    "years and benefits from every check that the compiler can make on its behalf."
)

SENTENCES = [
    "Hello world",
    "The quick brown fox jumps over the lazy dog.",
    "A man is playing a guitar on the stage while the audience sings along.",
    "Sentence embeddings map text to dense vectors, so that similar meanings end up close "
    "together and a nearest-neighbour search finds paraphrases, translations and answers.",
    LONG,
    "Wait... what?! (Really) -- yes: 100%; [ok] {fine} <tag> @user #hash $5.00 & more... \"quoted\" 'single'",
    "Caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u2014 Z\u00fcrich, S\u00e3o Paulo, \u00c5ngstr\u00f6m, cre\u0300me bru\u0302le\u0301e",
    "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3068\u4e2d\u6587\u53e5\u5b50, \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac, "
    "\u0440\u0443\u0441\u0441\u043a\u0438\u0439 \u0442\u0435\u043a\u0441\u0442, emoji \U0001f642\U0001f680 and tabs\tand  spaces",
    "",
]

# (sentence a, sentence b, label) for the cosine-similarity loss.
PAIRS = [
    ("A cat sits on the mat.", "A kitten is resting on a rug.", 0.9),
    ("The stock market fell sharply today.", "A cat sits on the mat.", 0.1),
    ("How do I bake bread at home?", "What is a simple recipe for homemade bread?", 0.8),
    ("The train was late again.", "Quantum computers use qubits.", 0.0),
]

# Parameters whose gradients are sampled (HF keys).
SAMPLED = [
    "embeddings.word_embeddings.weight",
    "embeddings.position_embeddings.weight",
    "embeddings.LayerNorm.weight",
    "encoder.layer.0.attention.self.query.weight",
    "encoder.layer.0.attention.self.value.bias",
    "encoder.layer.2.attention.output.dense.weight",
    "encoder.layer.3.intermediate.dense.weight",
    "encoder.layer.5.output.dense.bias",
    "encoder.layer.5.output.LayerNorm.weight",
]
FIXED_INDICES = [0, 17, 383, 1000]


def lit(v):
    # The shortest decimal that reads back as the same f32.
    r = str(np.float32(v))
    return r if ("e" in r or "." in r or "n" in r) else r + ".0"


def rust_str(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\t":
            out.append("\\t")
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        else:
            out.append("\\u{%x}" % o)
    return '"' + "".join(out) + '"'


def floats(values, per_line=6):
    vals = [lit(v) for v in values]
    lines = [", ".join(vals[i : i + per_line]) + "," for i in range(0, len(vals), per_line)]
    return "&[\n" + "\n".join("    " + line for line in lines) + "\n]"


def cos_loss(model, pairs):
    """sentence-transformers' CosineSimilarityLoss: MSE of the cosine of the two embeddings."""
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    labels = torch.tensor([p[2] for p in pairs], dtype=torch.float32)
    feats_a = model.tokenize(a)
    feats_b = model.tokenize(b)
    u = model(feats_a)["sentence_embedding"]
    v = model(feats_b)["sentence_embedding"]
    cos = torch.cosine_similarity(u, v)
    return torch.mean((cos - labels) ** 2)


def gradient_summary(params):
    """The L2 norm of each parameter's gradient (those that have one), and for each SAMPLED
    parameter (key, flat indices, gradient elements there, max |gradient|): the 6 elements of
    largest magnitude and the FIXED_INDICES."""
    norms = [(k, p.grad.norm().item()) for k, p in params.items() if p.grad is not None]
    samples = []
    for k in SAMPLED:
        g = params[k].grad.reshape(-1)
        top = torch.argsort(g.abs(), descending=True)[:6].tolist()
        idx = top + [i for i in FIXED_INDICES if i < g.numel() and i not in top]
        samples.append((k, idx, [g[i].item() for i in idx], g.abs().max().item()))
    return norms, samples


def f64_main(model_dir, out_path):
    """The fine-tuning reference in float64 (see the module docs)."""
    model = SentenceTransformer(model_dir, device="cpu")
    model.eval()
    model.double()
    params = dict(model[0].auto_model.named_parameters())
    assert all(p.dtype == torch.float64 for p in params.values())
    model.zero_grad()
    loss = cos_loss(model, PAIRS)
    assert loss.dtype == torch.float64
    loss.backward()
    norms, samples = gradient_summary(params)
    r = repr
    w = [
        f"// @generated by scripts/minilm_data.py --f64 from PyTorch {torch.__version__}, "
        f"sentence-transformers {sentence_transformers.__version__}: do not edit.",
        "#![allow(clippy::approx_constant, clippy::excessive_precision, clippy::unreadable_literal)]",
        "/// The loss of minilm_data.rs's PAIRS with the model in float64 (eval mode).",
        f"pub const LOSS_F64: f64 = {r(loss.item())};",
        "/// The L2 norm of each parameter's gradient in float64 (the pooler gets none).",
        "pub static GRAD_NORMS_F64: &[(&str, f64)] = &[",
    ]
    w += [f"    ({rust_str(k)}, {r(n)})," for k, n in norms]
    w.append("];")
    w.append("/// (key, flat indices, gradient elements there, max |gradient| of the parameter), float64.")
    w.append("pub static GRAD_SAMPLES_F64: &[(&str, &[usize], &[f64], f64)] = &[")
    for k, idx, vals, mx in samples:
        w.append(f"    ({rust_str(k)}, &[{', '.join(str(i) for i in idx)}], &[{', '.join(r(v) for v in vals)}], {r(mx)}),")
    w.append("];")
    with open(out_path, "w") as f:
        f.write("\n".join(w) + "\n")
    subprocess.run(["rustfmt", "--edition", "2021", out_path], check=True)
    print(f"wrote {out_path}: loss {loss.item()!r}")


def main():
    args = [a for a in sys.argv[1:] if a != "--f64"]
    model_dir = args[0] if args else "target/models/all-MiniLM-L6-v2"
    if "--f64" in sys.argv[1:]:
        return f64_main(model_dir, args[1] if len(args) > 1 else "tests/data/minilm_f64_data.rs")
    out_path = args[1] if len(args) > 1 else "tests/data/minilm_data.rs"
    model = SentenceTransformer(model_dir, device="cpu")
    model.eval()
    assert model.max_seq_length == 256
    tok = model.tokenizer
    ids = [tok(s, truncation=True, max_length=model.max_seq_length)["input_ids"] for s in SENTENCES]
    assert len(ids[4]) == 256 and len(tok(LONG)["input_ids"]) > 300, len(ids[4])
    emb = model.encode(SENTENCES, batch_size=32, convert_to_numpy=True)
    assert emb.shape == (len(SENTENCES), 384) and emb.dtype == np.float32
    pair_sentences = sorted({s for p in PAIRS for s in p[:2]})
    pair_ids = [tok(s, truncation=True, max_length=256)["input_ids"] for s in pair_sentences]

    # Fine-tuning reference: dropout off (eval mode), f32, the gradients of one loss.
    params = dict(model[0].auto_model.named_parameters())
    model.zero_grad()
    loss = cos_loss(model, PAIRS)
    loss.backward()
    no_grad = [k for k, p in params.items() if p.grad is None]
    assert no_grad == ["pooler.dense.weight", "pooler.dense.bias"], no_grad
    norms, samples = gradient_summary(params)

    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        l = cos_loss(model, PAIRS)
        losses.append(l.item())
        l.backward()
        opt.step()
    with torch.no_grad():
        losses.append(cos_loss(model, PAIRS).item())

    w = []
    w.append(
        f"// @generated by scripts/minilm_data.py from PyTorch {torch.__version__}, "
        f"sentence-transformers {sentence_transformers.__version__}: do not edit."
    )
    w.append("#![allow(clippy::approx_constant, clippy::excessive_precision, clippy::unreadable_literal)]")
    w.append("/// The sentences, in order.")
    w.append("pub static SENTENCES: &[&str] = &[")
    for s in SENTENCES:
        w.append(f"    {rust_str(s)},")
    w.append("];")
    w.append("/// Each sentence's token ids from the model's tokenizer (truncated at 256).")
    w.append("pub static TOKEN_IDS: &[&[u32]] = &[")
    for row in ids:
        w.append("    &[" + ", ".join(str(i) for i in row) + "],")
    w.append("];")
    w.append(f"/// `model.encode(SENTENCES)`: `[{len(SENTENCES)}, 384]`, normalised, row-major.")
    w.append(f"pub static EMBEDDINGS: &[f32] = {floats(emb.reshape(-1))};")
    w.append("/// The sentences of the pairs, sorted (PAIRS index into it).")
    w.append("pub static PAIR_SENTENCES: &[&str] = &[")
    for s in pair_sentences:
        w.append(f"    {rust_str(s)},")
    w.append("];")
    w.append("/// The token ids of PAIR_SENTENCES.")
    w.append("pub static PAIR_TOKEN_IDS: &[&[u32]] = &[")
    for row in pair_ids:
        w.append("    &[" + ", ".join(str(i) for i in row) + "],")
    w.append("];")
    w.append("/// (index of sentence a, index of sentence b, label) for the cosine-similarity loss.")
    w.append("pub static PAIRS: &[(usize, usize, f32)] = &[")
    for a, b, label in PAIRS:
        w.append(f"    ({pair_sentences.index(a)}, {pair_sentences.index(b)}, {lit(label)}),")
    w.append("];")
    w.append("/// The loss: mean over the pairs of (cos(u, v) - label)^2, in eval mode (no dropout).")
    w.append(f"pub const LOSS: f32 = {lit(loss.item())};")
    w.append("/// The L2 norm of each parameter's gradient (the pooler gets none).")
    w.append("pub static GRAD_NORMS: &[(&str, f32)] = &[")
    for k, n in norms:
        w.append(f"    ({rust_str(k)}, {lit(n)}),")
    w.append("];")
    w.append("/// (key, flat indices, gradient elements there, max |gradient| of the parameter).")
    w.append("pub static GRAD_SAMPLES: &[(&str, &[usize], &[f32], f32)] = &[")
    for k, idx, vals, mx in samples:
        w.append(
            f"    ({rust_str(k)}, &[{', '.join(str(i) for i in idx)}], &[{', '.join(lit(v) for v in vals)}], {lit(mx)}),"
        )
    w.append("];")
    w.append("/// The loss before each of five AdamW steps (lr 1e-4, PyTorch's defaults otherwise), and after the fifth.")
    w.append(f"pub static ADAMW_LOSSES: &[f32] = &[{', '.join(lit(v) for v in losses)}];")
    with open(out_path, "w") as f:
        f.write("\n".join(w) + "\n")
    # As `cargo fmt` leaves it (the repository's rustfmt.toml), so that the check stays clean.
    subprocess.run(["rustfmt", "--edition", "2021", out_path], check=True)
    print(f"wrote {out_path}: loss {loss.item():.6g}, AdamW losses {losses}")


if __name__ == "__main__":
    main()
