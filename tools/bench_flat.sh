#!/usr/bin/env bash
# Flat-checker benchmark: prints the machine, a Markdown table of check times on random
# control-flow-style models (tools/cfg_model.rs) from 1,000 to 100,000 states with 4,500 specs,
# and peak memory per size (/usr/bin/time -v). With NUSMV=/path/to/NuSMV set, also runs NuSMV
# 2.5.4 -dcx on the 1,000- and 5,000-state models (about 100 s each) and prints the ratio.
#   tools/bench_flat.sh [sizes] [specs]      e.g. tools/bench_flat.sh 1000,5000,100000 4500
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-1000,2000,5000,10000,20000,50000,100000}"
specs="${2:-4500}"
cargo build --quiet --release --example bench_flat
bin=target/release/examples/bench_flat
echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$bin" --states "$sizes" --specs "$specs" --threads 1,2
echo
echo "| states | peak RSS (MB), checker alone -j2 |"
echo "|---|---|"
for n in ${sizes//,/ }; do
  rss=$( { /usr/bin/time -v "$bin" --states "$n" --specs "$specs" --threads 2 >/dev/null; } 2>&1 |
        sed -n 's/.*Maximum resident set size (kbytes): //p')
  echo "| $n | $((rss / 1024)) |"
done

# End to end: `xmv-rs check --stats --no-trace -j2` on the generated .smv file.
cargo build --quiet --release --bin xmv-rs --example gen_cfg_model
tmp=$(mktemp -d)
echo
echo "End to end (xmv-rs check --no-trace -j2; stage times in ms from --stats):"
echo
echo "| states | .smv size (KB) | front end | state space | checking | report | total wall | CPU user+sys (s) | peak RSS (MB) |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in ${sizes//,/ }; do
  target/release/examples/gen_cfg_model --states "$n" --specs "$specs" --seed 1 > "$tmp/m.smv"
  /usr/bin/time -f "XMV_TIME %U %S %M" target/release/xmv-rs check --stats --no-trace -j 2 "$tmp/m.smv" > /dev/null 2> "$tmp/err" || true
  stage() { sed -n "s/^-- stats: $1: \([0-9.]*\) ms/\1/p" "$tmp/err" | head -1; }
  read -r user sys rss < <(sed -n 's/^XMV_TIME //p' "$tmp/err")
  echo "| $n | $(( $(wc -c < "$tmp/m.smv") / 1024 )) | $(stage 'front end') | $(stage 'state space') | $(stage 'flat checking') | $(stage 'report') | $(stage 'total') | $(awk "BEGIN{print $user + $sys}") | $((rss / 1024)) |"
done
rm -rf "$tmp"
if [[ -n "${NUSMV:-}" && -x "${NUSMV}" ]]; then
  echo
  "$bin" --states 1000,5000 --specs "$specs" --threads 1,2 --nusmv
else
  echo
  echo "(NuSMV comparison skipped: set NUSMV=/path/to/NuSMV)"
fi
