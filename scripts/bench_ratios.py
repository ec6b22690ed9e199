#!/usr/bin/env python3
"""Reads criterion's estimates (target/criterion/<group>/<bench>/new/estimates.json) and prints,
per group, each backend's median and its ratio to a baseline. For the tables of src/guide/speed.md:

    cargo bench --bench small && python3 scripts/bench_ratios.py --base nalgebra matmul_4x4 ...

`--runs DIR...` merges several saved copies of target/criterion (one per run) and reports the
median of the medians with the min-max spread.

`--stat min` uses each benchmark's fastest sample (time per iteration of the quickest of criterion's
samples, from sample.json) instead of the median: on a shared machine, other load only ever adds
time, so the fastest sample is the steadier estimate of what the code costs.

Benchmarks named `paired...` (benches/kernels.rs, `paired`) already hold ratios: criterion's time
per iteration is the median ratio of back-to-back calls, 1 ms per unit; they are printed as ratios
(`--stat min` then gives the lowest sample's ratio, so use the median there)."""
import argparse
import json
import os
import statistics


def estimate(bench_dir, stat):
    if stat == "min":
        f = os.path.join(bench_dir, "new", "sample.json")
        if not os.path.exists(f):
            return None
        s = json.load(open(f))
        return min(t / i for t, i in zip(s["times"], s["iters"]))
    f = os.path.join(bench_dir, "new", "estimates.json")
    if not os.path.exists(f):
        return None
    return json.load(open(f))["median"]["point_estimate"]


def medians(root, group, stat="median"):
    d = os.path.join(root, group)
    out = {}
    if not os.path.isdir(d):
        return out
    for b in sorted(os.listdir(d)):
        v = estimate(os.path.join(d, b), stat)
        if v is not None:
            out[b] = v
    return out


def fmt(ns):
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.1f} ns"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("groups", nargs="+")
    ap.add_argument("--base", default="nalgebra")
    ap.add_argument("--subject", default="inline")
    ap.add_argument("--runs", nargs="*", default=["target/criterion"])
    ap.add_argument("--stat", choices=["median", "min"], default="median")
    a = ap.parse_args()
    for g in a.groups:
        runs = [medians(r, g, a.stat) for r in a.runs]
        names = sorted({b for r in runs for b in r})
        cells = []
        for b in names:
            vals = [r[b] for r in runs if b in r]
            if b.startswith("paired"):
                vals = [v / 1e6 for v in vals]
                cells.append(f"{b} {statistics.median(vals):.3f}x [{min(vals):.3f}-{max(vals):.3f}]")
                continue
            cells.append(f"{b} {fmt(statistics.median(vals))} [{fmt(min(vals))}-{fmt(max(vals))}]")
        ratio = [r[a.subject] / r[a.base] for r in runs if a.subject in r and a.base in r]
        dyn = [r["dynamic"] / r[a.subject] for r in runs if a.subject in r and "dynamic" in r]
        line = f"{g}: " + "; ".join(cells)
        if ratio:
            line += f" | {a.subject}/{a.base} {statistics.median(ratio):.2f}x [{min(ratio):.2f}-{max(ratio):.2f}]"
        if dyn:
            line += f" | dynamic/{a.subject} {statistics.median(dyn):.0f}x"
        print(line)


if __name__ == "__main__":
    main()
