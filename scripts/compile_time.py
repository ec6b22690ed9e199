#!/usr/bin/env python3
"""Compile-time benchmark for issue 4: generate a program of N static broadcasts and N static `t!`
slices (ranks up to 4, every result type annotated, so the type-level rules are checked against
this script's own shape arithmetic), then time `cargo check` of that program alone, with the
dependencies already built.

usage: scripts/compile_time.py [N] [RUNS] [--ndarray | --models] [--int-ranges] [--named]
       scripts/compile_time.py N --instructions [--gate FILE | --record FILE]
       (default 50 broadcasts + 50 slices, 5 runs)

With --instructions, the program's check is counted instead of timed: rustc's instructions
under `valgrind --tool=callgrind` (the one rustc run that checks the program, its dependencies
already checked), which are the same from run to run whatever else the machine is doing, where
seconds move by 30%. `--record FILE` writes the count to FILE (JSON, with the rustc version);
`--gate FILE` fails (exit 1) when the count is more than 20% above FILE's: CI's check-time
regression gate, on 200 operations (`100`), against scripts/check_instructions.json.

With --int-ranges, every slice spec is an integer index or a range (`2`, `-1`, `1..3`, `..`:
issue 37's second program), the specs whose rules project the most associated types, instead of
the mix that also has steps, `None` and `...`.

With --models, N small model functions (an MLP layer pair with static widths, eight operations
each: two matmuls of transposed weights, a bias, relu, log_softmax, mean) are written twice: over
`Var` on a tape (traced: watch, the ops, `backward` in the caller) in target/ctbench-traced/ and
over plain tensors in target/ctbench-untraced/, and both are timed: issue 36's compile-time
comparison, per operation.

With --named, the broadcasts whose operands have the result's rank take a named runtime dim,
`dyn Batch` (issue 50), as their first dim where it is not 1, and the model functions (--models)
take a `Batch` input instead of a `_` one: the same programs with names, in target/ctbench-named/
(target/ctbench-traced-named/, ...), to compare the check time of names with that of `Dyn` dims.

With --ndarray, the same program (the same shapes and indices) is written with ndarray's dynamic
shapes instead (`ArrayD<f32>` operands, `&a + &b`, `x.slice(s![..])`; `...` dropped, `None` as
`NewAxis`) in target/ctbench-ndarray/ and timed the same way: issue 28's comparison.

The program is written to target/ctbench/ as a crate of its own that depends on `shaped` by
path and shares the workspace's target dir (or $CARGO_TARGET_DIR when set), so `shaped` is not
rebuilt. Prints the median and the spread of the timed `cargo check` runs (CARGO_INCREMENTAL=0
so that each run really checks).
"""
import json, os, random, re, shlex, statistics, subprocess, sys, time

NDARRAY = "--ndarray" in sys.argv
MODELS = "--models" in sys.argv
INT_RANGES = "--int-ranges" in sys.argv
INSTRUCTIONS = "--instructions" in sys.argv
NAMED = "--named" in sys.argv
GATE = RECORD = None
for flag in ("--gate", "--record"):
    if flag in sys.argv:
        i = sys.argv.index(flag)
        if i + 1 == len(sys.argv):
            sys.exit(f"compile_time.py: {flag} needs a file")
        if flag == "--gate":
            GATE = sys.argv.pop(i + 1)
        else:
            RECORD = sys.argv.pop(i + 1)
ARGS = [a for a in sys.argv[1:] if a not in ("--ndarray", "--models", "--int-ranges", "--instructions", "--named", "--gate", "--record")]
N = int(ARGS[0]) if len(ARGS) > 0 else 50
RUNS = int(ARGS[1]) if len(ARGS) > 1 else 5
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "target", "ctbench-ndarray" if NDARRAY else "ctbench-int-ranges" if INT_RANGES else "ctbench")
if NAMED:
    OUT += "-named"
rng = random.Random(4)
DIMS = [2, 3, 4, 5, 7, 8, 16, 640, 3000, 65536]


def small_dims():
    return [rng.choice(DIMS[:7]) for _ in range(rng.randint(1, 4))]


def bcast_pair():
    out = small_dims() if len(small_dims()) > 1 else small_dims()
    if len(out) < 2:
        out = out + [rng.choice(DIMS)]
    # a large size sometimes, to show that broadcasting has no size table
    if rng.random() < 0.3:
        out[0] = rng.choice(DIMS[7:])
    a = [d if rng.random() > 0.3 else 1 for d in out]
    rb = rng.randint(1, len(out))
    b = [d if rng.random() > 0.3 else 1 for d in out[len(out) - rb:]]
    for i in range(len(out)):
        j = i - (len(out) - rb)
        if a[i] == 1 and (j < 0 or b[j] == 1):
            a[i] = out[i]
    return a, b


def bcast(a, b):
    r = max(len(a), len(b))
    a = [1] * (r - len(a)) + a
    b = [1] * (r - len(b)) + b
    return [x if y == 1 else y for x, y in zip(a, b)]


def rand_index(shape):
    items, out = [], []
    n = rng.randint(1, len(shape))
    for d in shape[:n]:
        k = rng.random()
        if INT_RANGES:
            k = [0.1, 0.3, 0.45, 0.6][rng.randrange(4)]  # `..`, an index, `-1`, a range
        if k < 0.2:
            items.append(".."); out.append(d)
        elif k < 0.4:
            items.append(str(rng.randrange(d)))
        elif k < 0.5:
            items.append("-1")
        elif k < 0.75:
            s = rng.randrange(d); e = rng.randint(s + 1, d)
            items.append(f"{s}..{e}"); out.append(e - s)
        elif k < 0.9:
            s = rng.randrange(d)
            items.append(f"{s}..;2"); out.append((d - s + 1) // 2)
        else:
            items += ["None", ".."]; out += [1, d]
    rest = shape[n:]
    if rest and not INT_RANGES and rng.random() < 0.3:
        items.append("...")
    return items, out + rest


def sh(s):
    return "Shape![" + ", ".join(map(str, s)) + "]"


def program():
    """`ops` takes every operand as a parameter and is never called: `cargo check` checks all the
    types, and no large tensor is ever made."""
    params, body = [], []
    for i in range(N):
        a, b = bcast_pair()
        c = bcast(a, b)
        if NAMED and len(a) == len(b) == len(c) >= 2:
            # The batch dim: named where it is not the size 1 that stretches.
            a, b, c = ([x[0] if x[0] == 1 else "dyn Batch"] + x[1:] for x in (a, b, c))
        params += [f"a{i}: &Tensor<f32, {sh(a)}>", f"b{i}: &Tensor<f32, {sh(b)}>"]
        body.append(f"    let _c{i}: Tensor<f32, {sh(c)}> = a{i} + b{i};")
    for i in range(N):
        x = small_dims()
        items, out = rand_index(x)
        params.append(f"x{i}: &Tensor<f32, {sh(x)}>")
        body.append(f"    let _v{i}: TensorView<f32, {sh(out)}> = t!(x{i}[{', '.join(items)}]);")
    if NDARRAY:
        body = [ndarray_line(line) for line in body]
        params = [p.split(":")[0] + ": &ArrayD<f32>" for p in params]
    return "\n".join(
        ["// Generated by scripts/compile_time.py: do not edit.",
         "use ndarray::prelude::*;" if NDARRAY else "use shaped::prelude::*;", "",
         *(["dims! { Batch }", ""] if NAMED else []),
         "#[allow(dead_code, clippy::too_many_arguments)]", "fn ops(", *[f"    {p}," for p in params], ") {",
         *body, "}", "", "fn main() {}", ""])


def models(traced):
    """N model functions of eight operations each, traced over `Var` or over plain tensors."""
    out = ["// Generated by scripts/compile_time.py --models: do not edit.", "use shaped::prelude::*;"]
    if traced:
        out.append("use shaped::autograd::{Param, Tape, Var};")
    out.append("")
    if NAMED:
        out += ["dims! { Batch }", ""]
    batch = "dyn Batch" if NAMED else "_"
    for i in range(N):
        a, b, c = (rng.choice(DIMS[:8]) for _ in range(3))
        if traced:
            out += [
                "#[allow(dead_code)]",
                f"fn model{i}(w1: &Param<f32, {sh([b, a])}>, b1: &Param<f32, {sh([b])}>, w2: &Param<f32, {sh([c, b])}>, x: Tensor<f32, Shape![{batch}, {a}]>) -> f32 {{",
                "    let tape = Tape::new();",
                "    let x = Var::constant(x);",
                "    let h = (&x.matmul(&tape.watch(w1).t()) + &tape.watch(b1)).relu();",
                f"    let y: Var<f32, Shape![{batch}, {c}]> = h.matmul(&tape.watch(w2).t()).log_softmax(Ax::<1>);",
                "    let loss = y.mean();",
                "    let grads = loss.backward();",
                f"    let g: &Tensor<f32, {sh([b, a])}> = grads.param(w1).unwrap();",
                "    g.sum() + loss.item()",
                "}",
            ]
        else:
            out += [
                "#[allow(dead_code)]",
                f"fn model{i}(w1: &Tensor<f32, {sh([b, a])}>, b1: &Tensor<f32, {sh([b])}>, w2: &Tensor<f32, {sh([c, b])}>, x: Tensor<f32, Shape![{batch}, {a}]>) -> f32 {{",
                "    let h = (x.matmul(&w1.t()) + b1).relu();",
                f"    let y: Tensor<f32, Shape![{batch}, {c}]> = h.matmul(&w2.t()).log_softmax(Ax::<1>);",
                "    y.mean()",
                "}",
            ]
    out += ["", "fn main() {}", ""]
    return "\n".join(out)


def ndarray_line(line):
    """One statement of the shaped program in ndarray: the broadcast unchanged but for its type,
    the slice through `s!` (no `...`: ndarray fills the trailing dims; `None` is `NewAxis`)."""
    name = line.split(":")[0].strip()
    if "t!(" in line:
        inner = line.split("t!(", 1)[1].rsplit(")", 1)[0]
        var, items = inner.split("[", 1)
        items = [i.strip() for i in items.rsplit("]", 1)[0].split(",")]
        items = ["NewAxis" if i == "None" else i for i in items if i != "..."]
        return f"    {name} = {var}.slice(s![{', '.join(items)}]);"
    return f"    {name}: ArrayD<f32> = {line.split('=', 1)[1].strip()}"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not os.path.exists(path) or open(path).read() != text:
        open(path, "w").write(text)


def main():
    if MODELS:
        state = rng.getstate()
        for traced in (False, True):
            rng.setstate(state)  # the same widths in both programs
            name = ("ctbench-traced" if traced else "ctbench-untraced") + ("-named" if NAMED else "")
            check(os.path.join(ROOT, "target", name), models(traced),
                  f"{N} {'traced' if traced else 'untraced'} model functions (8 ops each)")
        return
    check(OUT, program(), f"{N} broadcasts + {N} " + ("ndarray: s! slices" if NDARRAY else "t! slices"))


def check(out, text, what):
    shaped = ROOT.replace("\\", "/")
    dep = ('ndarray = { version = "0.17", default-features = false, features = ["std"] }' if NDARRAY
           # The counted check: `shaped` with no feature at all (no_std), whose shaped-core CI's
           # no_std step has just checked (`cargo check -p shaped-core --no-default-features`).
           else f'shaped = {{ path = "{shaped}", default-features = false }}' if INSTRUCTIONS
           else f'shaped = {{ path = "{shaped}", default-features = false, features = ["std"] }}')
    write(os.path.join(out, "Cargo.toml"), f"""[package]
name = "{os.path.basename(out)}"
version = "0.0.0"
edition = "2021"
publish = false

# Without the default features (faer, rayon, rand): the program uses none of them, and checking
# faer's tree first took 86 s of CI's 30 minutes.
[dependencies]
{dep}

# The repository's profile, so that its builds of the dependencies are reused.
[profile.dev.package."*"]
debug = false

[workspace]
""")
    # The workspace's lock file, so that the dependencies resolve to the versions already built.
    lock = os.path.join(ROOT, "Cargo.lock")
    if os.path.exists(lock):
        write(os.path.join(out, "Cargo.lock"), open(lock).read())
    src = os.path.join(out, "src", "main.rs")
    write(src, text)
    env = dict(os.environ, CARGO_INCREMENTAL="0")
    env.setdefault("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    cargo = ["cargo", "check", "-q", "--manifest-path", os.path.join(out, "Cargo.toml")]
    if INSTRUCTIONS:
        return count_instructions(out, cargo, env, src, what)
    t0 = time.time()
    subprocess.run(cargo, env=env, check=True)  # builds the dependencies once
    print(f"first check (dependencies included): {time.time() - t0:.2f} s")
    times = []
    for _ in range(RUNS):
        os.utime(src)
        t0 = time.time()
        subprocess.run(cargo, env=env, check=True)
        times.append(time.time() - t0)
    print(f"{what}: cargo check median {statistics.median(times):.2f} s "
          f"(runs: {', '.join(f'{t:.2f}' for t in times)})")


def count_instructions(out, cargo, env, src, what):
    """rustc's instructions checking the program under callgrind (see the module's docs); with
    --gate, exit 1 when they exceed the committed count by more than 20%."""
    program = f"scripts/compile_time.py {N}" + (" --named" if NAMED else "")
    base = json.load(open(GATE)) if GATE else None
    if base and base["program"] != program:
        sys.exit(f"compile_time.py: {GATE} counts `{base['program']}`, not `{program}`")
    # One `cargo check -v` (the program's file touched, so that it runs) checks the dependencies
    # and names the rustc command that checks the program; that command is run again alone under
    # valgrind (cargo itself, and the dependencies' fingerprints, are not counted).
    os.utime(src)
    t0 = time.time()
    verbose = [a for a in cargo if a != "-q"] + ["-v"]
    log = subprocess.run(verbose, env=env, check=True, capture_output=True, text=True).stderr
    print(f"first check (dependencies included): {time.time() - t0:.2f} s")
    name = os.path.basename(out).replace("-", "_")
    cmds = [m.group(1) for m in re.finditer(r"Running `(.*)`", log) if f"--crate-name {name} " in m.group(1)]
    if len(cmds) != 1:
        sys.exit(f"compile_time.py: no single rustc command for {name} in cargo's output:\n{log}")
    cmd = shlex.split(cmds[0])
    t0 = time.time()
    try:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                             cwd=out, env=env, capture_output=True, text=True)
    except FileNotFoundError:
        sys.exit("compile_time.py: --instructions needs valgrind (Debian's package valgrind)")
    counted = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or not counted:
        sys.exit(f"compile_time.py: rustc under callgrind failed:\n{run.stderr[-3000:]}")
    n = int(counted.group(1))
    rustc = subprocess.run([cmd[0], "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{what}: cargo check's rustc ran {n:,} instructions ({rustc}; "
          f"{time.time() - t0:.0f} s under callgrind)")
    if RECORD:
        with open(RECORD, "w") as f:
            json.dump({"program": program, "instructions": n, "rustc": rustc,
                       "date": time.strftime("%Y-%m-%d")}, f, indent=2)
            f.write("\n")
        print(f"recorded in {RECORD}")
    if base:
        ratio = n / base["instructions"]
        print(f"against {GATE} ({base['instructions']:,} on {base['date']}, {base['rustc']}): {ratio:.3f}x")
        if base["rustc"] != rustc:
            print(f"note: the committed count is of {base['rustc']}; record it again after a toolchain change")
        if ratio > 1.2:
            sys.exit(f"check time regressed: {ratio:.3f}x the committed count (the gate is 1.2x); "
                     f"if the growth is intended, record it: scripts/compile_time.py {N} --instructions --record {GATE}")


if __name__ == "__main__":
    main()
