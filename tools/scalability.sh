#!/usr/bin/env bash
# Runs (or continues) the scalability grid (random RSMs, Dubslaff et al. Fig. 3 setup) and
# draws its plot:
#   tools/scalability.sh [STEP] [TIMEOUT_SECS] [IMAX] [JMAX] [STOP_AFTER_SECS]
# STEP 1 is the paper's full 50x50 grid; STEP 5 (default) runs every 5th instance and formula.
# Cells are timed in CPU seconds of the checking process and TIMEOUT is a CPU-time limit, so the
# grid means the same on a loaded machine. ENGINES (environment, default all five) is a comma-
# separated subset of incremental,global,eager,lazy,summary.
# The raw per-engine cells go to $CARGO_TARGET_DIR/scalability-stepSTEP-tTIMEOUT-cpu.csv (default
# target/); running the same command again after an interruption continues the grid (complete
# rows are kept). No new row starts after STOP_AFTER_SECS (default: no limit). The grid runs
# under `nice`. Writes docs/scalability.svg and docs/scalability.csv (one line per cell, all
# engines) and prints the summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
STEP=${1:-5}
TIMEOUT=${2:-3}
IMAX=${3:-50}
JMAX=${4:-50}
STOP_AFTER=${5:-inf}
TARGET=${CARGO_TARGET_DIR:-target}
ENGINES=${ENGINES:-incremental,global,eager,lazy,summary}
CSV=$TARGET/scalability-step${STEP}-t${TIMEOUT}-cpu.csv
cargo build --release --example rsm_scalability
nice -n 10 "$TARGET/release/examples/rsm_scalability" grid --imax "$IMAX" --jmax "$JMAX" --step "$STEP" --seed 1 \
    --timeout "$TIMEOUT" --stop-after "$STOP_AFTER" --engines "$ENGINES" --out "$CSV"
mkdir -p docs
python3 tools/scalability_svg.py "$CSV" docs/scalability.svg docs/scalability.csv
