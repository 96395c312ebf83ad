#!/usr/bin/env bash
# Regenerates the scalability grid (random RSMs, Dubslaff et al. Fig. 3 setup) and its plot:
#   tools/scalability.sh [STEP] [TIMEOUT_SECS] [IMAX] [JMAX]
# STEP 1 is the paper's full 50x50 grid; STEP 5 (default) runs every 5th instance and formula.
# Writes tools/scalability-stepSTEP.csv and docs/scalability.svg and prints the summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
STEP=${1:-5}
TIMEOUT=${2:-3}
IMAX=${3:-50}
JMAX=${4:-50}
CSV=tools/scalability-step${STEP}.csv
cargo build --release --example rsm_scalability
./target/release/examples/rsm_scalability grid --imax "$IMAX" --jmax "$JMAX" --step "$STEP" --seed 1 --timeout "$TIMEOUT" --out "$CSV"
mkdir -p docs
python3 tools/scalability_svg.py "$CSV" docs/scalability.svg
