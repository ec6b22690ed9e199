#!/usr/bin/env python3
"""Rewrites calls of the const-axis forms (`x.sum_axis::<1>()`) into the axis-argument forms
(`x.sum_axis(Ax::<1>)`) of issue 50's one axis grammar, in the files given (or every `.rs` and
`.md` file of the repository). For users upgrading too: `python3 scripts/axis_migrate.py src/`.

Only the methods listed in `METHODS` (those converted so far) are rewritten; each converted method
keeps its name and takes the axis as its first argument. The deprecated runtime-axis `_dyn` forms
become the same methods with an `isize` axis (`DYN`). A generic const (`::<A>`) becomes
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

# The axis iterators and shuffle_axis (the axis first).
for m in "axis_iter axis_iter_mut for_each_axis_mut shuffle_axis".split():
    METHODS.add(m)
    METHODS.add("try_" + m)

# The views of one axis, taken first (each with `try_`, `_mut` and `try_..._mut`).
for m in "squeeze unsqueeze narrow select flip".split():
    for f in (m, "try_" + m, m + "_mut", "try_" + m + "_mut"):
        METHODS.add(f)

# The order statistics, sort, roll, diff and trapezoid (the axis first, or after the first argument
# as in PyTorch: `kthvalue(k, dim)`, `quantile(q, dim)`, `roll(shifts, dims)`, `topk(k, dim)`; the
# order statistics' `_keepdim` forms take it after their parameter, before PyTorch's `keepdim`).
for m in "argsort sort median_axis nanmedian_axis diff".split():
    METHODS.add(m)
    METHODS.add("try_" + m)
SECOND = set()
# `cat`, `stack`, `cat_all`, `stack_all` (method or path calls): the axis after the operands, as
# `torch.cat(xs, dim)`: `x.cat::<0>(&y)` -> `x.cat(&y, Ax::<0>)`, `Tensor::stack::<1>(xs)` ->
# `Tensor::stack(xs, Ax::<1>)`; `chunk(n, dim)`, `split(size, dim)`, `split_sizes(&sizes, dim)`.
for m in "kthvalue quantile nanquantile roll topk_axis trapezoid trapezoid_x kthvalue_keepdim quantile_keepdim nanquantile_keepdim median_keepdim nanmedian_keepdim cat stack cat_all stack_all chunk split split_sizes".split():
    SECOND.add(m)
    SECOND.add("try_" + m)

# The index families (the axis first, as PyTorch's `index_select(dim, index)`, `gather(dim,
# index)`, `scatter_(dim, index, src)`); the index type's generic (`::<0, _>`) is dropped.
FIRST = set()
for m in "index_select gather scatter scatter_ scatter_value scatter_value_ scatter_add scatter_add_ scatter_reduce scatter_reduce_ index_add index_add_ index_copy index_copy_ index_fill index_fill_".split():
    FIRST.add(m)
    FIRST.add("try_" + m)

# The views of two axes: `.transpose::<A, B>()` -> `.transpose(Ax::<A>, Ax::<B>)`, and diagonal,
# whose offset comes first as in PyTorch: `.diagonal::<A, B>(off)` -> `.diagonal(off, Ax::<A>, Ax::<B>)`.
TWO = set()
for m in "transpose movedim diagonal".split():
    for f in (m, "try_" + m, m + "_mut", "try_" + m + "_mut"):
        TWO.add(f)

CALL = re.compile(r"\.(" + "|".join(sorted(METHODS, key=len, reverse=True)) + r")::<\s*([^<>]+?)\s*>\(\s*(\)?)")
CALL2 = re.compile(r"\.(" + "|".join(sorted(TWO, key=len, reverse=True)) + r")::<\s*([^<>,]+?)\s*,\s*([^<>,]+?)\s*>\(")


CALL_SECOND = re.compile(r"(?:\.|::)(" + "|".join(sorted(SECOND, key=len, reverse=True)) + r")::<\s*([^<>,]+?)\s*(?:,\s*([^<>]+?)\s*)?>\(")
CALL_FIRST = re.compile(r"(?:\.|::)(" + "|".join(sorted(FIRST, key=len, reverse=True)) + r")::<\s*([^<>,]+?)\s*(?:,\s*([^<>]+?)\s*)?>\(")
CALL_TOPK = re.compile(r"\.(topk|try_topk)::<\s*([^<>,]+?)\s*,\s*([^<>,]+?)\s*>\(")


# The static sizes of pad, repeat, repeat_interleave become `Const` values before the axis:
# `.pad::<A, L, R>(mode, value)` -> `.pad((Const::<L>, Const::<R>), Ax::<A>, mode, value)`,
# `.repeat::<A, K>()` -> `.repeat(Const::<K>, Ax::<A>)` (and `repeat_interleave`); unfold takes
# the axis first, as PyTorch's `unfold(dim, size, step)`: `.unfold(Ax::<A>, Const::<SIZE>, Const::<STEP>)`.
SIZED = re.compile(r"(?:\.|::)((?:try_)?(?:pad|repeat_interleave|repeat|unfold_mut|unfold))::<\s*([^<>,]+?)\s*,\s*([^<>,]+?)\s*(?:,\s*([^<>,]+?)\s*)?>\(")


def sized(text):
    out, pos = [], 0
    for m in SIZED.finditer(text):
        name, a, b, c = m.group(1), m.group(2), m.group(3), m.group(4)
        if a == "X" or a == "L" and name.endswith("pad") and c == "X":
            continue
        args, end = call_args(text, m.end())
        if "unfold" in name:
            if c is None:
                continue
            args[:0] = [f"Ax::<{a}>", f"Const::<{b}>", f"Const::<{c}>"]
        elif name.endswith("pad"):
            if c is None:
                continue
            args[:0] = [f"(Const::<{b}>, Const::<{c}>)", f"Ax::<{a}>"]
        else:
            if c is not None:
                continue
            args[:0] = [f"Const::<{b}>", f"Ax::<{a}>"]
        sep = "::" if text[m.start()] == ":" else "."
        out.append(text[pos : m.start()] + f"{sep}{name}(" + ", ".join(args) + ")")
        pos = end
    out.append(text[pos:])
    return "".join(out)


# Several axes or a target shape: `.permute::<Axes![2, 0, 1]>()` -> `.permute((Ax::<2>, Ax::<0>,
# Ax::<1>))` (and `sum_axes`, `mean_axes` and their `_keepdim` forms); `.flatten_range::<S, E>()` -> `.flatten_range(Ax::<S>, Ax::<E>)`;
# `.unflatten::<A, Shape![3, _]>()` -> `.unflatten(Ax::<A>, (Const::<3>, Dyn))`;
# `.axis_chunks_exact::<A, B>()` -> `.axis_chunks_exact(Ax::<A>, Const::<B>)`.
PERMUTE = re.compile(r"(?:\.|::)((?:try_)?(?:permute(?:_mut)?|sum_axes(?:_keepdim)?|mean_axes(?:_keepdim)?))::<\s*Axes!\[([^\]]*)\]\s*>\(\s*\)")
PAIR = re.compile(r"(?:\.|::)((?:try_)?(?:flatten_range|axis_chunks_exact))::<\s*([^<>,]+?)\s*,\s*([^<>,]+?)\s*>\(\s*\)")
UNFLATTEN = re.compile(r"(?:\.|::)((?:try_)?unflatten)::<\s*([^<>,]+?)\s*,\s*Shape!\[([^\]]*)\]\s*>\(\s*\)")


def dim_value(d):
    d = d.strip()
    if d == "_":
        return "Dyn"
    if d == "1":
        return "One"
    if d.startswith("dyn "):
        return d[4:].strip()
    return f"Const::<{d}>"


def several(text):
    def perm(m):
        sep = "::" if m.group(0).startswith(":") else "."
        axes = [f"Ax::<{a.strip()}>" for a in m.group(2).split(",") if a.strip()]
        tup = "(" + ", ".join(axes) + ("," if len(axes) == 1 else "") + ")"
        return f"{sep}{m.group(1)}({tup})"

    def pair(m):
        sep = "::" if m.group(0).startswith(":") else "."
        second = f"Ax::<{m.group(3)}>" if "flatten" in m.group(1) else f"Const::<{m.group(3)}>"
        return f"{sep}{m.group(1)}(Ax::<{m.group(2)}>, {second})"

    def unflat(m):
        sep = "::" if m.group(0).startswith(":") else "."
        dims = [dim_value(d) for d in m.group(3).split(",") if d.strip()]
        tup = "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"
        return f"{sep}{m.group(1)}(Ax::<{m.group(2)}>, {tup})"

    text = PERMUTE.sub(perm, text)
    text = PAIR.sub(pair, text)
    return UNFLATTEN.sub(unflat, text)


# The deprecated runtime-axis `_dyn` forms: `x.sum_axis_dyn(1)` -> `x.sum_axis(1)` (the same
# result for a `DynShape` receiver; for a static one the dims are `Dyn` in a tuple shape, so a
# binding annotated `DynShape` needs `.into_dyn()`), `Tensor::cat_dyn` -> `Tensor::cat_all`,
# `flatten_dyn` -> `flatten_range`; the index families (`gather_dyn` -> `gather`, the new forms
# take a `DynShape` index too) and `trapezoid_x_dyn`; the convolutions and poolings with run-time
# hyper-parameters (`conv2d_dyn(&w, b, args)` -> `conv2d(&w, b, args)`; `max_pool2d_dyn(args, _)`
# returned a pair and is left to the reader). The forms whose runtime values are sizes stay.
DYN_BASE = """sum_axis nansum_axis nanmean_axis mean_axis prod_axis max_axis min_axis var_axis std_axis norm_axis
logsumexp_axis argmax_axis argmin_axis count_nonzero_axis all_axis any_axis
sum_keepdim nansum_keepdim nanmean_keepdim mean_keepdim prod_keepdim max_keepdim min_keepdim var_keepdim
std_keepdim norm_keepdim logsumexp_keepdim argmax_keepdim argmin_keepdim count_nonzero_keepdim all_keepdim any_keepdim
cumsum cumprod softmax logcumsumexp log_softmax cummax cummin
kthvalue_keepdim median_keepdim nanmedian_keepdim quantile_keepdim nanquantile_keepdim
chunk split split_sizes transpose squeeze unsqueeze narrow select movedim diagonal
trapezoid argsort sort kthvalue median_axis nanmedian_axis quantile nanquantile
roll diff axis_iter shuffle_axis index_select gather trapezoid_x
conv2d conv1d conv_transpose2d avg_pool2d""".split()
DYN = {}
for b in DYN_BASE:
    for pre in ("", "try_"):
        DYN[f"{pre}{b}_dyn"] = f"{pre}{b}"
        if b in ("transpose", "squeeze", "unsqueeze", "narrow", "select", "movedim", "diagonal", "axis_iter"):
            DYN[f"{pre}{b}_dyn_mut"] = f"{pre}{b}_mut"
for pre in ("", "try_"):
    DYN[f"{pre}for_each_axis_dyn_mut"] = f"{pre}for_each_axis_mut"
    DYN[f"{pre}flatten_dyn"] = f"{pre}flatten_range"
    DYN[f"{pre}cat_dyn"] = f"{pre}cat_all"
    DYN[f"{pre}stack_dyn"] = f"{pre}stack_all"
    for b in ("scatter", "scatter_value", "scatter_add", "scatter_reduce", "index_add", "index_copy", "index_fill"):
        DYN[f"{pre}{b}_dyn_"] = f"{pre}{b}_"
        DYN[f"{pre}{b}_dyn"] = f"{pre}{b}"
DYN_CALL = re.compile(r"(?<=[.:])(" + "|".join(sorted(DYN, key=len, reverse=True)) + r")(?=\s*[(<])")


def undyn(text):
    return DYN_CALL.sub(lambda m: DYN[m.group(1)], text)


def call_args(text, start):
    """The arguments of the call whose `(` ends at `start`, split at top-level commas, and the
    position after its `)`."""
    depth, i, cur, args = 1, start, "", []
    while True:
        c = text[i]
        if c in "([{<" and not (c == "<" and text[i - 1] in " =!"):
            depth += 1
        elif c in ")]}>" and not (c == ">" and text[i - 1] in "=-"):
            depth -= 1
            if depth == 0:
                break
        if c == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        args.append(cur.strip())
    return args, i + 1


def rewrite(text):
    def sub(m):
        name, axis, close = m.group(1), m.group(2), m.group(3)
        return f".{name}(Ax::<{axis}>" + (")" if close else ", ")

    text = CALL.sub(sub, text)
    text = sized(text)
    text = several(text)
    text = undyn(text)
    for pat, at in ((CALL_FIRST, 0), (CALL_SECOND, 1), (CALL_TOPK, None)):
        out, pos = [], 0
        for m in pat.finditer(text):
            if m.group(2) == "X":
                continue  # already an axis argument's forwarding (`::<X, M, Y>(.., axis)`)
            args, end = call_args(text, m.end())
            if at is not None:
                name, axis = m.group(1), m.group(2)
                turbo = ""  # the other generics (an index type) are inferred
                args.insert(at, f"Ax::<{axis}>")
            else:
                name, k, axis = m.group(1), m.group(2), m.group(3)
                turbo = ""
                args[:0] = [f"Const::<{k}>", f"Ax::<{axis}>"]
            sep = "::" if text[m.start()] == ":" else "."
            out.append(text[pos : m.start()] + f"{sep}{name}{turbo}(" + ", ".join(args) + ")")
            pos = end
        out.append(text[pos:])
        text = "".join(out)
    out, pos = [], 0
    for m in CALL2.finditer(text):
        name, a, b = m.group(1), m.group(2), m.group(3)
        axes = f"Ax::<{a}>, Ax::<{b}>"
        if name.startswith(("diagonal", "try_diagonal")):
            # Find the call's closing parenthesis: the offset argument goes first.
            depth, i = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            args = text[m.end() : i - 1].strip()
            out.append(text[pos : m.start()] + f".{name}({args}, {axes})")
            pos = i
        else:
            rest = text[m.end() :]
            close = rest.lstrip().startswith(")")
            out.append(text[pos : m.start()] + f".{name}({axes}" + ("" if close else ", "))
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


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
