#!/usr/bin/env python3
"""Rewrites calls of the const-axis forms (`x.sum_axis::<1>()`) into the axis-argument forms
(`x.sum_axis(Ax::<1>)`) of issue 50's one axis grammar, in the files given (or every `.rs` and
`.md` file of the repository). For users upgrading too: `python3 scripts/axis_migrate.py src/`.

Only the methods listed in `METHODS` (those converted so far) are rewritten; each converted method
keeps its name and takes the axis as its first argument. A generic const (`::<A>`) becomes
`Ax::<A>`; the rewrite is textual, so review the diff.
"""
import pathlib
import re
import sys

# The reductions (each with its `try_` form).
REDUCTIONS = """sum nansum nanmean mean prod max min var std norm logsumexp argmax argmin count_nonzero all any""".split()
METHODS = set()
for r in REDUCTIONS:
    for suffix in ("_axis", "_keepdim"):
        METHODS.add(r + suffix)
        METHODS.add("try_" + r + suffix)

# The scans and softmax (same shape).
for m in "cumsum cumprod softmax logcumsumexp log_softmax cummax cummin".split():
    METHODS.add(m)
    METHODS.add("try_" + m)

CALL = re.compile(r"\.(" + "|".join(sorted(METHODS, key=len, reverse=True)) + r")::<\s*([^<>]+?)\s*>\(\s*(\)?)")


def rewrite(text):
    def sub(m):
        name, axis, close = m.group(1), m.group(2), m.group(3)
        return f".{name}(Ax::<{axis}>" + (")" if close else ", ")

    return CALL.sub(sub, text)


def main():
    roots = [pathlib.Path(a) for a in sys.argv[1:]] or [pathlib.Path(__file__).resolve().parent.parent]
    changed = 0
    for root in roots:
        files = [root] if root.is_file() else [p for p in root.rglob("*") if p.suffix in (".rs", ".md")]
        for p in files:
            if "target" in p.parts or ".git" in p.parts:
                continue
            text = p.read_text()
            new = rewrite(text)
            if new != text:
                p.write_text(new)
                changed += 1
                print(p)
    print(f"axis_migrate: {changed} files rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
