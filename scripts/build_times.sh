#!/usr/bin/env bash
# Clean debug build time of `shaped` for each feature set, with an empty target directory and the
# dependencies already downloaded. Usage: scripts/build_times.sh [out.tsv]
# Each line: features, seconds of `cargo build -p shaped --lib`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/dev/stdout}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo fetch --quiet
sets=(
  "lean|--no-default-features --features std"
  "no_std+alloc|--no-default-features"
  "default|"
  "std+rayon|--no-default-features --features std,rayon"
  "std+rand|--no-default-features --features std,rand"
  "std+linalg|--no-default-features --features std,linalg"
  "std+serde|--no-default-features --features std,serde"
  "std+npy|--no-default-features --features std,npy"
  "std+approx|--no-default-features --features std,approx"
  "std+ndarray|--no-default-features --features std,ndarray"
  "std+nalgebra|--no-default-features --features std,nalgebra"
  "std+faer|--no-default-features --features std,faer"
  "all|--all-features"
)
for s in "${sets[@]}"; do
  name=${s%%|*}; flags=${s#*|}
  rm -rf "$tmp/target"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  CARGO_TARGET_DIR="$tmp/target" cargo build --quiet -p shaped --lib $flags
  end=$(date +%s.%N)
  printf '%s\t%.1f\n' "$name" "$(echo "$end - $start" | bc)" | tee -a "$out"
done
