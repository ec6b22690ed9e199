#!/usr/bin/env python3
"""Every doc example a user of `shaped` reads compiles against `shaped` alone.

The facade `shaped` re-exports shaped-core's items, so its rustdoc pages show shaped-core's doc
examples. Those examples are doctests of shaped-core, which cannot depend on `shaped`: they are
written with `use shaped::...` and a hidden first line `# extern crate shaped_core as shaped;`
that makes them compile there. This script proves that they also compile (and pass) as a user
would paste them:

1. lint: no visible line of a doc example in tensor-core/src, src/ or README.md names
   `shaped_core`, and every tensor-core example that names `shaped` starts with the alias line;
2. it copies every Rust doc example of tensor-core/src (without the alias line), src/ (the
   facade's docs and guide pages) and README.md into the doc comments of a generated crate,
   target/doc-examples, that depends on `shaped` (by path; the default features and those of the
   feature-gated modules that hold examples, or every one with --all-features) and on nothing else,
   with edition 2024 so that rustdoc merges its doctests into one binary (one compilation instead
   of one per example);
3. it runs `cargo test --doc` there.

No crate runs these examples as its own doctests (`doctest = false`): there shaped-core and the
dev-dependencies would be in reach and unify their features with shaped's (rand's `StdRng`
existed there and not for a user); here they are not.

Usage: python3 scripts/doc_examples.py [--lint-only] [--list] [--all-features] [--package DIR]
A failing example is reported by rustdoc under the name of its generated item, which names its
origin: `tensor_core_src_ops_conv_rs_L440` is the example whose fence is at line 440 of
tensor-core/src/ops/conv.rs, `src_guide_linalg_md_L12` the one at line 12 of src/guide/linalg.md.
Uses $CARGO_TARGET_DIR when set, else the repository's target/.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
ALIAS = "# extern crate shaped_core as shaped;"
DOC = re.compile(r"^\s*(?:///|//!) ?(.*)$")
FENCE = re.compile(r"^\s*(```+|~~~+)\s*(.*)$")
# Files of feature-gated modules: their examples need the feature.
FEATURE_FILES = {
    "tensor-core/src/interop/ndarray.rs": "ndarray",
    "tensor-core/src/interop/nalgebra.rs": "nalgebra",
    "tensor-core/src/interop/faer.rs": "faer",
    "tensor-core/src/interop/approx.rs": "approx",
    "tensor-core/src/io/serde.rs": "serde",
    "tensor-core/src/io/npy.rs": "npy",
    "tensor-core/src/nn/progress.rs": "progress",
    "src/guide/pretrained.md": "safetensors",
}
RUST_ATTRS = {"rust", "should_panic", "no_run", "ignore", "compile_fail", "edition2018", "edition2021", "edition2024", "test_harness"}


def is_rust(info: str) -> bool:
    toks = [t for t in re.split(r"[,\s]+", info.strip()) if t]
    return all(t in RUST_ATTRS or re.fullmatch(r"E\d{4}", t) for t in toks)


def blocks_in_text(lines):
    """Yields (line index of the opening fence, info string, [code lines]) of the fenced code
    blocks of a list of doc lines (markdown), Rust or not."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2)
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            j += 1
        yield i, info, lines[i + 1 : j]
        i = j + 1


def doc_blocks(path: pathlib.Path):
    """Yields (1-based line of the opening fence, info, code lines) of every code block in the
    `///` and `//!` comments of a Rust file (each run of consecutive doc lines is one text)."""
    lines = path.read_text().split("\n")
    run, nums = [], []
    for n, ln in enumerate(lines + [""], start=1):
        m = DOC.match(ln)
        if m:
            run.append(m.group(1))
            nums.append(n)
            continue
        if run:
            for i, info, code in blocks_in_text(run):
                yield nums[i], info, code
            run, nums = [], []


def visible(code_line: str) -> bool:
    s = code_line.strip()
    return not (s == "#" or s.startswith("# "))


def main() -> int:
    lint_only = "--lint-only" in sys.argv
    errors, examples = [], []

    for path in sorted((ROOT / "tensor-core/src").rglob("*.rs")):
        rel = path.relative_to(ROOT)
        for line, info, code in doc_blocks(path):
            if not is_rust(info):
                continue
            for k, c in enumerate(code):
                if "shaped_core" in c and c.strip() != ALIAS:
                    errors.append(f"{rel}:{line + 1 + k}: a doc example names `shaped_core` (write `shaped::`): {c.strip()}")
            names_shaped = any(re.search(r"\bshaped::", c) for c in code)
            if names_shaped and (not code or code[0].strip() != ALIAS):
                errors.append(f"{rel}:{line}: a doc example naming `shaped::` must start with `{ALIAS}`")
            body = [c for c in code if c.strip() != ALIAS]
            examples.append((rel, line, info, body))

    facade_texts = [(p.relative_to(ROOT), doc_blocks(p)) for p in sorted((ROOT / "src").rglob("*.rs"))]
    for md in [ROOT / "README.md", *sorted((ROOT / "src").rglob("*.md"))]:
        lines = md.read_text().split("\n")
        facade_texts.append((md.relative_to(ROOT), ((i + 1, info, code) for i, info, code in blocks_in_text(lines))))
    for rel, blocks in facade_texts:
        for line, info, code in blocks:
            if not is_rust(info):
                continue
            for k, c in enumerate(code):
                if "shaped_core" in c and visible(c):
                    errors.append(f"{rel}:{line + 1 + k}: a doc example names `shaped_core` (write `shaped::`): {c.strip()}")
            examples.append((rel, line, info, code))

    if "--list" in sys.argv:
        for rel, line, info, _ in examples:
            print(f"{rel}:{line} {info}")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        print(f"doc_examples: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print(f"doc_examples: {len(examples)} examples in tensor-core/src, src/ and README.md, lint clean")
    if lint_only:
        return 0

    # The default features, and those of the feature-gated modules that hold examples (an example
    # in interop/nalgebra.rs needs `nalgebra`): not every feature, so that the build stays short.
    features = ["std", "rayon", "linalg", "simd", "rand"]
    for rel, *_ in examples:
        for prefix, feature in FEATURE_FILES.items():
            if str(rel).startswith(prefix) and feature not in features:
                features.append(feature)
    if "--all-features" in sys.argv:
        features = ["std", "rayon", "linalg", "simd", "rand", "ndarray", "nalgebra", "faer", "approx", "serde", "npy", "safetensors", "progress"]

    # `--package DIR`: depend on the published form of the crates instead of the repository's,
    # the `.crate` files of `cargo package` unpacked side by side in DIR (CI's packages step), so
    # that one build both proves that the packages hold every file they need and runs the examples.
    package = None
    if "--package" in sys.argv:
        i = sys.argv.index("--package") + 1
        if i == len(sys.argv):
            print("doc_examples: --package needs a directory", file=sys.stderr)
            return 1
        package = pathlib.Path(sys.argv[i]).resolve()
        if not package.is_dir():
            print(f"doc_examples: --package {package}: not a directory", file=sys.stderr)
            return 1
        dirs = {}
        for name in ("shaped", "shaped-core", "shaped-macros"):
            found = [d for d in package.iterdir() if re.fullmatch(re.escape(name) + r"-\d+\.\d+\.\d+.*", d.name)]
            if len(found) != 1:
                print(f"doc_examples: {package} must hold exactly one unpacked {name} package, found {found}", file=sys.stderr)
                return 1
            dirs[name] = found[0]
    shaped = dirs["shaped"] if package else ROOT
    dependency = f'shaped = {{ path = "{shaped}", features = {json.dumps(features)} }}\n'
    # The tests' build (CI's step before this one, same target directory) compiles the
    # dependencies with the features that the workspace's dev-dependencies add: `default` of
    # rand, num-traits, either and matrixmultiply (and its `avx512`, `cgemm`), `serde` of
    # half and num-complex. A crate's features are part of its build's fingerprint, so with
    # shaped's features alone this build compiled rayon, faer, the gemm crates and rand again
    # (52 s of this step's 83 on 2026-11-30). The same features asked for here make it reuse them.
    # The crates are renamed (`unify_*`), so that a doc example cannot name them: it still reaches
    # only `shaped`, as a user's paste does. The extra features add items to those crates and
    # change nothing that shaped calls. A list gone stale costs time only:
    # `cargo tree -e features` of the two builds shows the difference.
    dependency += "# Features that the tests' build turns on (scripts/doc_examples.py says why).\n"
    for dep in (
        'unify_either = { package = "either", version = "1", features = ["std", "use_std"] }',
        'unify_num_traits = { package = "num-traits", version = "0.2" }',
        'unify_rand = { package = "rand", version = "0.10" }',
        'unify_matrixmultiply = { package = "matrixmultiply", version = "0.3", features = ["avx512", "cgemm"] }',
        'unify_half = { package = "half", version = "2", default-features = false, features = ["serde"] }',
        'unify_num_complex = { package = "num-complex", version = "0.4", default-features = false, features = ["serde"] }',
    ):
        dependency += dep + "\n"
    dependency += "\n"

    if package:
        dependency += "# The facade's dependencies on the other two, by version, resolve to their packages.\n"
        dependency += "[patch.crates-io]\n"
        dependency += f'shaped-core = {{ path = "{dirs["shaped-core"]}" }}\n'
        dependency += f'shaped-macros = {{ path = "{dirs["shaped-macros"]}" }}\n\n'

    out = ROOT / "target/doc-examples"
    if out.exists():
        shutil.rmtree(out / "src", ignore_errors=True)
    (out / "src").mkdir(parents=True, exist_ok=True)
    (out / "Cargo.toml").write_text(
        "# Generated by scripts/doc_examples.py: the doc examples as a user of `shaped` pastes them.\n"
        "[package]\n"
        'name = "shaped-doc-examples"\n'
        'version = "0.0.0"\n'
        'edition = "2024"\n'
        "publish = false\n\n"
        "[dependencies]\n"
        + dependency +
        "# The repository's profile, so that the dependencies built by its own tests are reused.\n"
        '[profile.dev.package."*"]\n'
        "debug = false\n\n"
        "[workspace]\n"
    )
    # The repository's lock file: the same dependency versions, so the same built artifacts.
    shutil.copyfile(ROOT / "Cargo.lock", out / "Cargo.lock")
    src = [
        "//! Generated by scripts/doc_examples.py; each item's doc holds one doc example of",
        "//! tensor-core/src, src/ or README.md, its name giving the file and line of the example's",
        "//! opening fence.",
        "#![allow(non_camel_case_types)]",
        "",
    ]
    for rel, line, info, body in examples:
        name = re.sub(r"\W", "_", str(rel)) + f"_L{line}"
        src.append(f"/// {rel}:{line}")
        src.append("///")
        src.append(f"/// ```{info}")
        src.extend(("/// " + c).rstrip() for c in body)
        src.append("/// ```")
        src.append(f"pub struct {name};")
        src.append("")
    (out / "src/lib.rs").write_text("\n".join(src))

    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
    t0 = time.monotonic()
    cmd = ["cargo", "test", "--doc", "--manifest-path", str(out / "Cargo.toml")]
    if package:
        cmd.append("--offline")
    rc = subprocess.call(cmd, env=env)
    print(f"doc_examples: cargo test --doc of {len(examples)} examples against `shaped` alone: "
          f"{'ok' if rc == 0 else 'FAILED'} in {time.monotonic() - t0:.0f} s")
    return rc


if __name__ == "__main__":
    sys.exit(main())
