#!/usr/bin/env bash
# Reproduces the ternary columns of Dubslaff et al. 2024, Table 1, on the Java benchmarks in
# ../shared/bench/java (unpacked into a temporary directory). Usage: tools/ternary-table1.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dirs=()
for z in "$root"/../shared/bench/java/*.zip; do
  name="$(basename "$z" .zip)"
  unzip -q -o "$z" -d "$tmp/$name"
  dirs+=("$tmp/$name")
done
cargo run --release --quiet --manifest-path "$root/Cargo.toml" --example ternary_table1 -- "${dirs[@]}"
