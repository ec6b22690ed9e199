#!/usr/bin/env python3
"""NumPy's time for the work of `benches/workloads.rs`, on this machine, for the tables of src/guide/speed.md.

Each row is the median of 7 repeats of `timeit` loops of about 0.2 s, in microseconds per call.
NumPy runs single-threaded for these (no BLAS call). Run it right after `cargo bench --bench
workloads` on a quiet machine: `python3 scripts/numpy_peers.py`.
"""
import timeit

import numpy as np


def per_call_us(stmt, glb):
    t = timeit.Timer(stmt, globals=glb)
    n, _ = t.autorange()
    n = max(1, n)
    runs = sorted(t.repeat(repeat=7, number=n))
    return runs[len(runs) // 2] / n * 1e6


def main():
    rng = np.random.default_rng(7)
    x = (np.arange(1500 * 64, dtype=np.float32)).reshape(1500, 64)
    rows = rng.permutation(1500)
    cols = rng.permutation(64)
    glb = {"x": x, "rows": rows, "cols": cols, "np": np}
    table = [
        ("row_gather x[idx] [1500, 64] f32", "x[rows]"),
        ("row_gather np.take(x, idx, axis=0)", "np.take(x, rows, axis=0)"),
        ("column_gather x[:, idx] [1500, 64] f32", "x[:, cols]"),
    ]
    for dt in ("float32", "float64"):
        for n in (1600, 1_000_000):
            t = getattr(np, dt)
            v = f"{dt}_{n}"
            glb[v] = np.arange(n, dtype=t) / t(n) * t(8) - t(4)
            table += [
                (f"exp {dt} [{n}]", f"np.exp({v})"),
                (f"tanh {dt} [{n}]", f"np.tanh({v})"),
                (f"sigmoid 1/(1+exp(-x)) {dt} [{n}]", f"1 / (1 + np.exp(-{v}))"),
                (f"log {dt} [{n}] (x + 4.5)", f"np.log({v}p)"),
                (f"sin {dt} [{n}]", f"np.sin({v})"),
            ]
            glb[v + "p"] = glb[v] + t(4.5)
    print(f"numpy {np.__version__}")
    for name, stmt in table:
        print(f"{name:45s} {per_call_us(stmt, glb):9.2f} us")


if __name__ == "__main__":
    main()
