#!/usr/bin/env python3
"""PyTorch's times for the work of benches/bert.rs (issue 48): sentence-transformers'
all-MiniLM-L6-v2 on the 32 sentences of benches/data/minilm_sentences.txt, on one thread
(torch.set_num_threads(1)) unless --threads says otherwise.

- forward_batch32: the model (BERT, mean pooling, normalisation) on the 32 sentences tokenised and
  padded as one batch, under torch.inference_mode();
- forward_one: the same for the first sentence alone;
- encode_batch32: model.encode(sentences, batch_size=32), tokenisation included;
- train_step_batch16: one fine-tuning step on 16 pairs (sentences 2i and 2i + 1, label 0.5):
  sentence-transformers' CosineSimilarityLoss (the mean of (cos(u, v) - label)^2, each side one
  padded batch of 16, tokenised beforehand), backward, and a torch.optim.AdamW step (lr 1e-5),
  in evaluation mode (no dropout), as tests/bert_minilm.rs's fixture.

Each is timed `--rounds` times (median of `--iters` calls each, after a warm-up); the script prints
each round's median and the median of the rounds, in ms. Usage:

    python3 scripts/minilm_timing.py [MODEL_DIR] [--threads N] [--rounds R] [--iters K]

MODEL_DIR defaults to target/models/all-MiniLM-L6-v2 (scripts/fetch_minilm.sh).
"""
import argparse
import statistics
import time

import torch
from sentence_transformers import SentenceTransformer


def median_ms(f, iters):
    times = []
    for _ in range(iters):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model_dir", nargs="?", default="target/models/all-MiniLM-L6-v2")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=20)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    model = SentenceTransformer(a.model_dir, device="cpu")
    model.eval()
    with open("benches/data/minilm_sentences.txt") as f:
        sentences = [line.rstrip("\n") for line in f]
    assert len(sentences) == 32
    feats = model.tokenize(sentences)
    feats1 = model.tokenize(sentences[:1])

    def fwd(x):
        with torch.inference_mode():
            return model(dict(x))["sentence_embedding"]

    side_a = model.tokenize(sentences[0::2])
    side_b = model.tokenize(sentences[1::2])
    labels = torch.full((16,), 0.5)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)

    def train_step():
        opt.zero_grad()
        u = model(dict(side_a))["sentence_embedding"]
        v = model(dict(side_b))["sentence_embedding"]
        loss = torch.mean((torch.cosine_similarity(u, v) - labels) ** 2)
        loss.backward()
        opt.step()
        return loss

    work = {
        "forward_batch32": lambda: fwd(feats),
        "forward_one": lambda: fwd(feats1),
        "encode_batch32": lambda: model.encode(sentences, batch_size=32, convert_to_numpy=True),
        "train_step_batch16": train_step,
    }
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} thread(s), padded length {feats['input_ids'].shape[1]}")
    for name, f in work.items():
        for _ in range(3):
            f()
        rounds = [median_ms(f, a.iters) for _ in range(a.rounds)]
        print(f"{name}: median {statistics.median(rounds):.2f} ms (rounds: {', '.join(f'{r:.2f}' for r in rounds)})")


if __name__ == "__main__":
    main()
