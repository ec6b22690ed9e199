#!/usr/bin/env python3
"""The layering check of shaped-core: every `crate::` path resolved to the module it names, and the
module graph checked against the layers that ARCHITECTURE.md declares.

Usage:
    python3 scripts/layers.py            # check: exit 1 on an import from a higher layer or a circle,
                                         # or when ARCHITECTURE.md's map misses a file (see below)
    python3 scripts/layers.py --graph    # print the graph of top-level modules and its circles

The layers are the fenced block tagged `layers` in ARCHITECTURE.md, bottom layer first, one layer a
line: `name: unit unit ...`. A unit is a module path below `tensor-core/src` (`kernels`,
`index::spec`); a file belongs to the unit with the longest matching path. A file may use what
its own layer and the layers below declare. A line whose name ends in `(knot)` is a layer whose
units may also refer to each other round a circle (the type layer: dims, shapes and storage
kinds); anywhere else a circle between units is an error, even inside one layer. The same holds for
files: two files that use each other (directly or round a longer circle) are an error unless every
file of the circle belongs to a (knot) layer's units.

What counts as a use: every path that starts with `crate::`, `super::` or `self::` in code (use
trees expanded, paths in bodies, bounds and types), comments, doc comments and string literals
left out. A path is resolved through the `pub use` re-exports of the module it names (lib.rs's
`pub use error::ShapeError` makes `crate::ShapeError` a use of `error`), so a re-export at an old
place does not hide a dependency, and a re-export is not itself a use of the layer it names.

The map check (not with --graph): ARCHITECTURE.md must name every source file, and every path it
names must exist. A path in the document is a run of `[A-Za-z0-9_.*-]` characters and slashes
that ends in `.rs`, `.py`, `.md`, `.sh`, `.toml` or `.stderr`, or in a slash (a folder), or that
has a slash and starts with a top-level entry of the repository (`.ci/run`). It is read by one
rule:
  - from the repository root when its first component is a top-level entry of the repository
    (`tensor-macros/src/lib.rs`, `src/lib.rs`, `tests/suite/`, `.ci/run`, `Cargo.toml`);
  - from tensor-core/src otherwise (`ops/scan.rs`, `lib.rs`, `layout/`): shaped-core's files are
    written from their crate's src folder, every other file from the root.
A `*` or a placeholder (`tests/suite/<topic>.rs`) makes a glob, which must match something and
names no file. A folder (ending in a slash) is checked only when its first component is a folder
of the root or of tensor-core/src, so that prose such as `conv1d/conv2d/` is no path. What must
be named: every `.rs` file under tensor-core/src, tensor-macros/src and src, every `.rs` file at
the top of examples/, and every folder directly under tests/ (by its own path or a path inside
it). Each error names the file that is missing, or the line of the document whose path names
nothing.
"""
import glob
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SRC = os.path.join(ROOT, "tensor-core", "src")
ARCH = os.path.join(ROOT, "ARCHITECTURE.md")

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_code(text):
    """The text with comments, doc comments, string and char literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        m = re.match(r'r(#*)"', text[i:i + 10]) if c == "r" and (i == 0 or not re.match(r"\w", text[i - 1])) else None
        if m:
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append("\n" * text.count("\n", i, j))
            i = j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append("\n" * text.count("\n", i, j + 1))
            i = j + 1
            continue
        if c == "'":
            # A char literal ('a', '\n', '\u{..}'), not a lifetime ('a without a closing quote).
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:i + 12])
            if m:
                i += len(m.group(0))
                continue
        out.append(c)
        i += 1
    return "".join(out)


def files():
    """(module path, file path) for every .rs file below src: `kernels::gemm`, `` for lib.rs."""
    for dirpath, _, names in os.walk(SRC):
        for name in sorted(names):
            if not name.endswith(".rs"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, SRC)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib"):
                rel = rel[:-1]
            yield "::".join(rel), path


def expand_use_tree(tree):
    """`a::{b, c::{d, e as f}, self}` -> ['a::b', 'a::c::d', 'a::c::e', 'a']."""
    tree = re.sub(r"\s+as\s+" + IDENT, "", tree)
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        return parts

    def go(prefix, s):
        i = s.find("{")
        if i < 0:
            full = (prefix + "::" + s) if prefix and s else (prefix or s)
            return [re.sub(r"::self$", "", full)]
        head = s[:i].rstrip(":")
        inner = s[i + 1:s.rfind("}")]
        base = (prefix + "::" + head) if prefix and head else (prefix or head)
        res = []
        for part in split_top(inner):
            res += go(base, part) if part != "self" else [base]
        return res

    return go("", tree)


def use_paths(code):
    """(line, path, is_pub_use) for each path of each `use` statement in stripped code."""
    for m in re.finditer(r"(\bpub(?:\([^)]*\))?\s+)?\buse\s+([^;]+);", code):
        line = code.count("\n", 0, m.start()) + 1
        for p in expand_use_tree(m.group(2)):
            yield line, p.lstrip(":"), bool(m.group(1))


def body_paths(code):
    """(line, path) for every `crate::`/`super::`/`self::` path outside `use` statements."""
    masked = re.sub(r"\buse\s+[^;]+;", lambda m: "\n" * m.group(0).count("\n"), code)
    for m in re.finditer(r"\b((?:crate|super|self)(?:\s*::\s*(?:super|" + IDENT + r"))+)", masked):
        yield code.count("\n", 0, m.start()) + 1, re.sub(r"\s+", "", m.group(1))


class Crate:
    def __init__(self):
        self.modules = {}  # module path -> file
        self.code = {}
        for mod, path in files():
            self.modules[mod] = path
            with open(path, encoding="utf-8") as f:
                self.code[mod] = strip_code(f.read())
        # Modules declared inline (`mod sealed { ... }`) count as part of their file's module.
        self.reexports = defaultdict(dict)  # module -> name -> absolute path
        self.globs = defaultdict(list)  # module -> modules it re-exports with `pub use m::*`
        self.defines = {}  # module -> names of the items it defines
        for mod, code in self.code.items():
            self.defines[mod] = set(
                re.findall(r"\b(?:struct|enum|trait|fn|type|static|union|mod)\s+(" + IDENT + ")", code)
                + re.findall(r"\bconst\s+(?!fn\b|unsafe\b)(" + IDENT + ")", code)
            )
            for _, p, is_pub in use_paths(code):
                if not is_pub:
                    continue
                if p.endswith("::*"):
                    absolute = self.absolute(mod, p[:-3])
                    if absolute is not None:
                        self.globs[mod].append(absolute)
                    continue
                absolute = self.absolute(mod, p)
                if absolute is None:
                    continue
                name = absolute.split("::")[-1]
                self.reexports[mod][name] = absolute

    def absolute(self, mod, path):
        """`path` as written in module `mod`, from the crate root (None for an external path)."""
        parts = path.split("::")
        if parts[0] == "crate":
            return "::".join(parts[1:])
        base = mod.split("::") if mod else []
        if parts[0] == "self":
            return "::".join(base + parts[1:])
        if parts[0] == "super":
            while parts and parts[0] == "super":
                base = base[:-1]
                parts = parts[1:]
            return "::".join(base + parts)
        # A relative path in a `use`: a child module of `mod` (2018 paths) or an external crate.
        first = ((mod + "::") if mod else "") + parts[0]
        if first in self.modules:
            return "::".join(base + parts)
        return None

    def resolve(self, path, depth=0):
        """The module that defines what `path` (from the root) names, following re-exports."""
        parts = [p for p in path.split("::") if p]
        k = len(parts)
        while k > 0 and "::".join(parts[:k]) not in self.modules:
            k -= 1
        mod = "::".join(parts[:k])
        if k < len(parts) and depth < 8 and parts[k] not in self.defines.get(mod, ()):
            target = self.reexports.get(mod, {}).get(parts[k])
            if target and target != path:
                return self.resolve("::".join([target] + parts[k + 1:]), depth + 1)
            for g in self.globs.get(mod, ()):
                if g in self.modules and (parts[k] in self.defines.get(g, ()) or parts[k] in self.reexports.get(g, {})):
                    return self.resolve("::".join([g] + parts[k:]), depth + 1)
        return mod


def read_layers():
    with open(ARCH, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"```layers\n(.*?)```", text, re.S)
    if not m:
        sys.exit("ARCHITECTURE.md has no ```layers block")
    layers = []
    for line in m.group(1).splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        name, _, units = line.partition(":")
        layers.append((name.strip(), units.split(), name.strip().endswith("(knot)")))
    return layers


def unit_of(mod, units):
    best = None
    for u in units:
        if mod == u or mod.startswith(u + "::") or u == "":
            if best is None or len(u) > len(best):
                best = u
    return best


def edges(crate, granularity):
    """(from unit, to unit) -> [(file, line, path)] for every use across units."""
    out = defaultdict(list)
    for mod, code in crate.code.items():
        src = granularity(mod)
        seen = []
        for line, p, is_pub in use_paths(code):
            a = crate.absolute(mod, p)
            # A `pub use` (a re-export, such as a path kept at an old place for users) is an
            # alias, not a use by its module: the code that uses the name is resolved through it
            # to the module that defines it.
            if a is not None and not is_pub:
                seen.append((line, p, a))
        for line, p in body_paths(code):
            a = crate.absolute(mod, p)
            if a is not None:
                seen.append((line, p, a))
        for line, p, a in seen:
            dst = granularity(crate.resolve(a))
            if dst is None or src is None or dst == src or dst == "":
                continue
            out[(src, dst)].append((os.path.relpath(crate.modules[mod], ROOT), line, p))
    return out


def circle_message(head, comp, adj, sites):
    """The error for circle `comp`: `head`, then one edge of the circle a line, with its first use."""
    lines = [head]
    for a in comp:
        for b in sorted(adj[a]):
            if b in comp:
                f, line, p = sites[(a, b)][0]
                lines.append(f"    {a} -> {b}: {f}:{line}: `{p}`")
    return "\n".join(lines)


def sccs(nodes, adj):
    """Tarjan's strongly connected components."""
    index, low, stack, on, res, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            res.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return res


PATH_RE = re.compile(r"(?<![\w./*<>-])((?:[\w.*<>-]+/)*[\w*<>][\w.*<>-]*/?)")
FILE_EXT = (".rs", ".py", ".md", ".sh", ".toml", ".stderr")


def top_entries():
    """The names at the top of the repository (a build's target/ and .git are not its entries)."""
    return {n for n in os.listdir(ROOT) if n not in ("target", ".git")}


def doc_paths(text, top):
    """(line, path as written, path from the root, kind) for every path in the document, kind being
    'file', 'dir', 'glob' or 'any' (a path from the root whose kind the document does not say)."""
    core_dirs = {n for n in os.listdir(SRC) if os.path.isdir(os.path.join(SRC, n))}
    for m in PATH_RE.finditer(text):
        tok = m.group(1).rstrip(".")
        if tok.count("<") != tok.count(">"):
            continue  # a generic type (`Dual<T, N>`), not a path
        tok = re.sub(r"<\w+>", "*", tok)  # a placeholder (`tests/suite/<topic>.rs`) is a glob
        first = tok.split("/")[0]
        is_dir = tok.endswith("/")
        if is_dir:
            if first not in top and first not in core_dirs:
                continue
        elif not tok.endswith(FILE_EXT):
            if "/" not in tok or first not in top:
                continue
        rel = tok if first in top else "tensor-core/src/" + tok
        kind = "glob" if "*" in tok else "dir" if is_dir else "file" if tok.endswith(FILE_EXT) else "any"
        yield text.count("\n", 0, m.start()) + 1, tok, rel.rstrip("/"), kind


def required_paths():
    """Every source file and folder that the document must name, from the root."""
    out = []
    for base in ("tensor-core/src", "tensor-macros/src", "src"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, base)):
            out += [os.path.relpath(os.path.join(dirpath, n), ROOT) for n in names if n.endswith(".rs")]
    out += ["examples/" + n for n in os.listdir(os.path.join(ROOT, "examples")) if n.endswith(".rs")]
    tests = os.path.join(ROOT, "tests")
    out += ["tests/" + n for n in os.listdir(tests) if os.path.isdir(os.path.join(tests, n))]
    return sorted(p.replace(os.sep, "/") for p in out)


def check_map():
    """ARCHITECTURE.md against the tree: (problems, files named, files to name)."""
    with open(ARCH, encoding="utf-8") as f:
        text = f.read()
    errors, named = [], set()
    for line, tok, rel, kind in doc_paths(text, top_entries()):
        full = os.path.join(ROOT, rel)
        if kind == "glob":
            ok = bool(glob.glob(full))
        elif kind == "dir":
            ok = os.path.isdir(full)
        elif kind == "file":
            ok = os.path.isfile(full)
        else:
            ok = os.path.exists(full)
        if not ok:
            errors.append(f"ARCHITECTURE.md:{line}: `{tok}` names no {'folder' if kind == 'dir' else 'file'} (read as {rel})")
        elif kind != "glob":
            named.add(rel)
    # A folder is named by its own path or by the path of anything in it.
    named |= {"/".join(p.split("/")[:k]) for p in named for k in range(1, p.count("/") + 1)}
    required = required_paths()
    for p in required:
        if p not in named:
            short = p[len("tensor-core/src/"):] if p.startswith("tensor-core/src/") else p
            what = "folder" if os.path.isdir(os.path.join(ROOT, p)) else "file"
            errors.append(f"{p}: a {what} that ARCHITECTURE.md does not name (as `{short}{'/' if what == 'folder' else ''}`)")
    return errors, sum(p in named for p in required), len(required)


def main():
    crate = Crate()
    if "--graph" in sys.argv:
        top = lambda m: m.split("::")[0]  # noqa: E731
        e = edges(crate, top)
        adj = defaultdict(set)
        for (a, b) in e:
            adj[a].add(b)
        nodes = sorted({top(m) for m in crate.modules if m})
        for a in nodes:
            print(f"{a:10} -> {', '.join(sorted(adj[a]))}")
        for comp in sccs(nodes, adj):
            if len(comp) > 1:
                pairs = sum(1 for a in comp for b in adj[a] if b in comp)
                print(f"circle of {len(comp)} modules ({pairs} import pairs): {', '.join(comp)}")
        return 0
    layers = read_layers()
    rank, knot, units = {}, {}, []
    for i, (name, us, is_knot) in enumerate(layers):
        for u in us:
            rank[u], knot[u] = i, is_knot
            units.append(u)
    missing = sorted(m for m in crate.modules if m and unit_of(m, units) is None)
    errors = [f"module {m} ({os.path.relpath(crate.modules[m], ROOT)}) is in no layer" for m in missing]
    e = edges(crate, lambda m: unit_of(m, units) if m else None)
    for (a, b), sites in sorted(e.items()):
        if rank[b] > rank[a]:
            for f, line, p in sites:
                errors.append(
                    f"{f}:{line}: `{p}` ({b}, layer '{layers[rank[b]][0]}') is above {a} (layer '{layers[rank[a]][0]}')"
                )
    adj = defaultdict(set)
    for (a, b) in e:
        if rank[a] == rank[b]:
            adj[a].add(b)
    for comp in sccs(units, adj):
        if len(comp) > 1 and not all(knot[u] for u in comp):
            errors.append(circle_message(f"circle between {', '.join(comp)} (only a (knot) layer may have one):", comp, adj, e))
    # The same at the level of files (each file is a module): two files that use each other are
    # one room, whatever their layer; only the files of a (knot) layer's units may close a circle.
    fe = edges(crate, lambda m: m if m else None)
    fadj = defaultdict(set)
    for (a, b) in fe:
        fadj[a].add(b)
    file_knots = []
    for comp in sccs(sorted(m for m in crate.modules if m), fadj):
        if len(comp) < 2:
            continue
        if all(knot.get(unit_of(m, units), False) for m in comp):
            file_knots.append(comp)
            continue
        head = f"circle between the files of {', '.join(comp)} (only a (knot) layer's files may have one):"
        errors.append(circle_message(head, comp, fadj, fe))
    for err in errors:
        print(err)
    print(f"layers: {len(layers)} layers, {len(units)} units, {len(crate.modules)} files; {len(errors)} problems")
    print("files: no circle between files outside the (knot) layer's" + "".join(
        f"; the knot's circle: {', '.join(c)}" for c in file_knots))
    map_errors, named, required = check_map()
    for err in map_errors:
        print(err)
    print(f"map: ARCHITECTURE.md names {named} of {required} source files and folders; {len(map_errors)} problems")
    return 1 if errors or map_errors else 0


if __name__ == "__main__":
    sys.exit(main())
