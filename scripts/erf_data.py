#!/usr/bin/env python3
"""Correctly rounded f64 values of erf, erfc, gelu and gelu_tanh (mpmath at 60 digits) for
tests/vmath.rs: writes tests/data/erf_data.rs. Run `python3 scripts/erf_data.py` (mpmath only;
CI never runs it). `--fit` prints the polynomials of the f32 kernels instead (numpy too).

gelu(x) = x/2 erfc(-x/sqrt 2); gelu_tanh(x) = x / (1 + e^(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3)
with the exact constants (0.044715 as a decimal), the formula of PyTorch's approximate='tanh'
without its cancellation. The points: random bit patterns with exponents from the subnormals to
2^6, uniform values across the ranges of the kernels (the tails of erfc and gelu down to
underflow), and the range boundaries with their neighbours. -inf, +inf and NaN are tested
in the test itself.
"""
import random
import struct
import sys

import mpmath as mp

mp.mp.dps = 60
random.seed(37)

TINY = mp.mpf(2) ** -1074
MIN_NORMAL = mp.mpf(2) ** -1022


def bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def from_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def round_f64(y, x_sign):
    """y rounded to the nearest f64 (ties to even), subnormals included; a zero takes `x_sign`."""
    if y == 0:
        return -0.0 if x_sign < 0 else 0.0
    if abs(y) < MIN_NORMAL:
        n = mp.nint(y / TINY)  # ties to even
        r = float(n) * float(TINY)
        if r == 0:
            return -0.0 if y < 0 else 0.0
        return r
    return mp.libmp.to_float(y._mpf_, rnd="n")


def values(x):
    xm = mp.mpf(x)
    s = -1 if str(x).startswith("-") else 1
    if abs(x) > 1e6:
        # Far beyond every underflow (mpmath's erfc fails on 1e300): the limits, rounded.
        return [x, float(s), 0.0 if s > 0 else 2.0, x if s > 0 else -0.0, x if s > 0 else -0.0]
    erf = round_f64(mp.erf(xm), s)
    erfc = round_f64(mp.erfc(xm), 1)
    gelu = round_f64(xm / 2 * mp.erfc(-xm / mp.sqrt(2)), s)
    u = mp.sqrt(2 / mp.pi) * (xm + mp.mpf("0.044715") * xm**3)
    gelu_tanh = round_f64(xm / (1 + mp.exp(-2 * u)), s)
    return [x, erf, erfc, gelu, gelu_tanh]


def fit(f, lo, hi, deg, n=400):
    """Coefficients (increasing degree) of the polynomial of degree `deg` closest to `f` on
    `[lo, hi]` in relative least squares over `n` Chebyshev nodes, and its largest relative
    error over 4000 points."""
    import numpy as np

    k = np.arange(n)
    ts = (np.cos(np.pi * (k + 0.5) / n) + 1) / 2 * (hi - lo) + lo
    ys = np.array([float(f(t)) for t in ts])
    v = np.vander(ts, deg + 1, increasing=True)
    coef, *_ = np.linalg.lstsq(v / ys[:, None], np.ones_like(ys), rcond=None)
    tt = np.linspace(lo, hi, 4000)
    yt = np.array([float(f(t)) for t in tt])
    return coef, np.max(np.abs(np.polyval(coef[::-1], tt) / yt - 1))


def fit_rounded(f, w, lo, hi, deg, n=600, lawson=30):
    """Coefficients (increasing degree, `f32` values) of a polynomial of degree `deg` close to `f`
    on `[lo, hi]` in the weighted max norm `max |(p - f) w|` (Lawson's iterations of weighted
    least squares on `n` Chebyshev nodes), rounded to `f32` one at a time from degree 0 with the
    higher ones refitted; and that error over 5000 points."""
    import numpy as np

    k = np.arange(n)
    xs = (np.cos(np.pi * (k + 0.5) / n) + 1) / 2 * (hi - lo) + lo
    ys = np.array([float(f(x)) for x in xs])
    ws = np.array([float(w(x)) for x in xs])
    v = np.vander(xs, deg + 1, increasing=True)
    fixed = []
    while len(fixed) <= deg:
        j = len(fixed)
        r = ys - v[:, :j] @ np.array(fixed) if j else ys
        lw = np.ones(n) / n
        for _ in range(lawson):
            sw = np.sqrt(lw) * ws
            coef, *_ = np.linalg.lstsq(v[:, j:] * sw[:, None], r * sw, rcond=None)
            e = np.abs((v[:, j:] @ coef - r) * ws)
            lw = lw * e / np.sum(lw * e)
        fixed.append(float(np.float32(coef[0])))
    tt = np.linspace(lo, hi, 5000)
    err = max(abs((np.polyval(fixed[::-1], t) - float(f(t))) * float(w(t))) for t in tt)
    return [np.float32(c) for c in fixed], err


def fit_f32():
    """The polynomials of the f32 kernels of tensor-core/src/vmath.rs: `Q` of `erfc_pos_f32` (in
    `f64` lanes), and `S`, `L` of `erf32` and `E` of `exp_neg32` (in `f32` lanes)."""
    mp.mp.dps = 30
    tmin = 2 / 12.5  # t = 2 / (2 + a), a in [0, 10.5]

    def q(t):
        a = 2 / mp.mpf(t) - 2
        return mp.erfc(a) * mp.exp(a * a) / mp.mpf(t)

    coef, err = fit(q, tmin, 1, 12)
    print(f"Q: relative error {err:.3g}")
    print("\n".join(f"    {float(c)!r}," for c in coef))

    split = 0.921875  # erf32's ERF_SPLIT
    # erf x = x + x S(x^2) below the split: S(z) = erf(sqrt z) / sqrt z - 1, absolute error.
    s = lambda z: mp.erf(mp.sqrt(z)) / mp.sqrt(z) - 1 if z > 0 else 2 / mp.sqrt(mp.pi) - 1
    # erf a = 1 - e^L(a) above: L = ln erfc, weighted by erfc / erf (the relative error in erf).
    ln_erfc = lambda a: mp.log(mp.erfc(a))
    # e^r - 1 = r + r^2 E(r) on |r| <= ln 2 / 2 and a little: E's error times r^2, relative to e^r.
    e = lambda r: (mp.exp(r) - 1 - r) / r**2 if r != 0 else mp.mpf(0.5)
    half = 0.3466 + 0.01
    for name, f, w, lo, hi, deg in [
        ("S", s, lambda z: 1, 0, split**2, 6),
        ("L", ln_erfc, lambda a: mp.erfc(a) / mp.erf(a), split, 4.0, 6),
        ("E", e, lambda r: r**2 / mp.exp(r), -half, half, 4),
    ]:
        coef, err = fit_rounded(f, w, lo, hi, deg)
        print(f"{name}: weighted error {err:.3g}")
        print("    [" + ", ".join(str(c) for c in coef) + "]")


def tail_pieces():
    """The 16 pieces of `[0, 15)` of the f32 tail kernels: `t + 1` in `[1, 16)` cut at every quarter
    of each binade (widths 1/4, 1/2, 1 and 2), as `(lo, hi, centre)`; the first centred at 0."""
    pieces = []
    for e in range(4):
        w = 2.0**e / 4
        for k in range(4):
            lo = 2.0**e - 1 + k * w
            pieces.append((lo, lo + w, 0.0 if lo == 0 else lo + w / 2))
    return pieces


def fit_piece(f, lo, hi, c, deg, c0=None, n=300, lawson=25):
    """Coefficients (increasing degree, `f32` values) of a polynomial in `z = x - c` of degree `deg`
    close to `f` on `[lo, hi]` in relative error (Lawson's iterations of weighted least squares on
    `n` Chebyshev nodes), rounded to `f32` one at a time from degree 1 with the higher ones refitted
    (the constant term kept in `f64`, to be split into two `f32`; `c0`, when given, fixed as the
    constant term); and that error over 2000 points."""
    import numpy as np

    k = np.arange(n)
    xs = (np.cos(np.pi * (k + 0.5) / n) + 1) / 2 * (hi - lo) + lo
    ys = np.array([float(f(x)) for x in xs])
    ws = 1 / np.abs(ys)
    zs = xs - c
    v = np.vander(zs, deg + 1, increasing=True)
    fixed = [] if c0 is None else [c0]
    while len(fixed) <= deg:
        j = len(fixed)
        r = ys - v[:, :j] @ np.array(fixed) if j else ys
        lw = np.ones(n) / n
        for _ in range(lawson):
            sw = np.sqrt(lw) * ws
            coef, *_ = np.linalg.lstsq(v[:, j:] * sw[:, None], r * sw, rcond=None)
            e = np.abs((v[:, j:] @ coef - r) * ws) + 1e-300
            lw = lw * e / np.sum(lw * e)
        # The constant term in two parts (hi + lo), each later one rounded to f32.
        fixed.append(float(coef[0]) if j == 0 else float(np.float32(coef[0])))
    tt = np.linspace(lo, hi, 2000)
    err = max(abs(np.polyval(fixed[::-1], t - c) / float(f(t)) - 1) for t in tt)
    return fixed, err


def fit_tails():
    """The piecewise polynomials of the f32 `erfc` and `gelu` kernels (`tensor-core/src/vmath.rs`,
    module `tail32`): on each of `tail_pieces()`, degree 6 in `z = x - centre` (the constant term
    as two `f32`, hi and lo), `H(t) = t Q(t) e^(t^2/2)` (`gelu(-t) = -e^(-t^2/2) H(t)`, `Q` the
    normal upper tail) and `N(a) = erfc(a) e^(a^2)`. Prints the tables as Rust: by coefficient, then
    by slot, piece `p` in slot `(p + 12) mod 16` (the kernels index by the low four bits of
    `bits(x + 1) >> 21`, which are `(4 * 127 + p) mod 16`)."""
    import numpy as np

    mp.mp.dps = 30

    def h(t):
        t = mp.mpf(t)
        return t * mp.erfc(t / mp.sqrt(2)) / 2 * mp.exp(t * t / 2) if t > 0 else mp.mpf(0)

    def m0(t):
        # H(t) / t on the first piece (H = t M: its polynomial is M's shifted by one degree).
        t = mp.mpf(t)
        return mp.erfc(t / mp.sqrt(2)) / 2 * mp.exp(t * t / 2)

    def n(a):
        a = mp.mpf(a)
        return mp.erfc(a) * mp.exp(a * a)

    def slots(row):
        out = [0.0] * 16
        for p, v in enumerate(row):
            out[(p + 12) % 16] = v
        return out

    def f32s(vs):
        # Shortest decimal that reads back as the same f32, eight to a line.
        vs = [str(np.float32(v)) for v in vs]
        return ",\n            ".join(", ".join(vs[k : k + 8]) for k in range(0, len(vs), 8))

    def rust(name, rows):
        print("    #[rustfmt::skip]")
        print(f"    const {name}: [[f32; 16]; 8] = [")
        for row in rows:
            print("        [\n            " + f32s(slots(row)) + ",\n        ],")
        print("    ];")

    for name, f in [("GELU_H", h), ("ERFC_N", n)]:
        pieces, worst = [], 0
        for lo, hi, c in tail_pieces():
            if name == "GELU_H" and lo == 0:
                coef, err = fit_piece(m0, lo, hi, c, 5, c0=0.5)
                coef = [0.0] + coef
            else:
                coef, err = fit_piece(f, lo, hi, c, 6)
            pieces.append(coef)
            worst = max(worst, err)
        print(f"    // {name}: largest relative error {worst:.3g}")
        hi = [float(np.float32(r[0])) for r in pieces]
        rows = [hi, [float(np.float32(r[0] - v)) for r, v in zip(pieces, hi)]]
        rows += [[float(r[j]) for r in pieces] for j in range(1, 7)]
        rust(name, rows)
    print("    #[rustfmt::skip]")
    print("    const CENTRES: [f32; 16] = [\n        " + f32s(slots([c for _, _, c in tail_pieces()])).replace("    ", "", 1) + ",\n    ];")


def main():
    xs = set()
    # Random bit patterns, exponents from the subnormals up to 2^6.
    for _ in range(1200):
        e = random.randint(-1075, 6)
        m = random.random() + 1.0
        v = m * 2.0**e if e > -1075 else from_bits(random.randint(1, 2**52 - 1))
        xs.add(v if random.random() < 0.5 else -v)
    # Uniform across the ranges.
    for lo, hi, n in [(-6, 6, 1000), (-40, -20, 600), (-30, 30, 300), (-26, 10, 500), (-1.3, 1.3, 250)]:
        for _ in range(n):
            xs.add(random.uniform(lo, hi))
    # The boundaries of the kernels' ranges (and of gelu's, at sqrt(2) times them) and neighbours.
    for b in [0.25, 0.84375, 1.25, 1 / 0.35, 6.0, 26.5, 27.0, 28.0, 24.0, 21.5, 64.0]:
        for c in [b, b * 2**0.5]:
            for k in range(-2, 3):
                v = from_bits(bits(c) + k)
                xs.update([v, -v])
    xs.update([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072014e-308, 1e-300, 100.0,
               -100.0, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308])
    rows = [values(x) for x in sorted(xs, key=lambda v: (v, str(v)))]
    with open("tests/data/erf_data.rs", "w") as f:
        f.write("// @generated by scripts/erf_data.py (mpmath " + mp.__version__ + ", 60 digits): do not edit.\n")
        f.write("/// `[x, erf x, erfc x, gelu x, gelu_tanh x]` as `f64` bits, each correctly rounded.\n")
        f.write(f"pub static ERF_F64: [[u64; 5]; {len(rows)}] = [\n")
        for r in rows:
            f.write("    [" + ", ".join(f"{bits(v):#018x}" for v in r) + "],\n")
        f.write("];\n")
    print(len(rows), "points")


if __name__ == "__main__":
    if sys.argv[1:] == ["--fit"]:
        fit_f32()
    elif sys.argv[1:] == ["--fit-tails"]:
        fit_tails()
    else:
        main()
