#!/usr/bin/env bash
# Measures front-end throughput (MB/s) on the bundled specs and on a generated large model
# (5000 states, 4500 specs), in a release build. Prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
big=target/large-5000-4500.smv
mkdir -p target
[ -f "$big" ] || python3 tools/gen-large-model.py --states 5000 --specs 4500 > "$big"
cargo build --release --quiet --example frontend_throughput
target/release/examples/frontend_throughput --min-seconds "${MIN_SECONDS:-2}" "$big" specs/*.smv
