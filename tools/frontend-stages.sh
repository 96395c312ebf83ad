#!/usr/bin/env bash
# Front-end time per stage (parse, check, lower, drop) and of `frontend::load` (what
# `xmv-rs check --stats` reports as "front end"), wall and CPU time, best of REPS runs (default 10),
# in a release build. Without arguments: generated control-flow-graph models; with arguments:
# those .smv files. Prints the machine and its load first: on a shared machine, compare CPU times.
#
# usage: tools/frontend-stages.sh [FILE.smv ...]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example frontend_bench
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
target/release/examples/frontend_bench --reps "${REPS:-10}" "$@"
