#!/bin/bash
# CPU seconds and peak memory of NuSMV 2.5.4 and of xmv-rs's BDD engine on the same files, one
# Markdown row per file. CPU time (user + system, GNU time) rather than wall time, because the
# machines we measure on are shared and wall time there says more about the load than the tools.
#
#   NUSMV=/path/to/NuSMV tools/bdd_cpu_table.sh [-x XMV] [-n 'NuSMV flags'] [-a 'xmv-rs args'] [-t CPU_LIMIT] FILE...
#
# Defaults: XMV=target/release/xmv-rs, NuSMV flags `-dcx`, xmv-rs args `check --engine bdd
# --no-trace`, a CPU limit of 600 s per run (ulimit -t; a run killed by it shows `>LIMIT`).
# For pyboolnet's networks use NuSMV's flags `-dcx -dynamic -df -coi` and the drop-in shape for
# xmv-rs (`-a '-dcx -dynamic -df -coi'`). Files are the caller's (NuSMV's examples are not in
# this repository; pyboolnet's .smv files come from `pyboolnet.model_checking.primes2smv`).
set -u
xmv=target/release/xmv-rs
nflags="-dcx"
xargs_="check --engine bdd --no-trace"
limit=600
while getopts "x:n:a:t:" o; do
  case $o in
    x) xmv=$OPTARG ;;
    n) nflags=$OPTARG ;;
    a) xargs_=$OPTARG ;;
    t) limit=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Prints "CPU MB" of one run (CPU as >LIMIT when the limit killed it).
measure() {
  (ulimit -t "$limit"; /usr/bin/time -f "%U %S %M" -o "$tmp/t" "$@" > "$tmp/out" 2>&1)
  tail -1 "$tmp/t" | awk -v lim="$limit" '{ cpu = $1 + $2; if (cpu >= lim - 1) printf ">%d %d", lim, $3 / 1024; else printf "%.2f %d", cpu, $3 / 1024 }'
}
echo "| file | NuSMV CPU s | NuSMV MB | xmv-rs CPU s | xmv-rs MB | verdicts |"
echo "|---|---|---|---|---|---|"
for f in "$@"; do
  read -r ncpu nmb <<< "$(measure "${NUSMV:?set NUSMV}" $nflags "$f")"
  grep -E "^-- (specification|invariant) .* is (true|false)$" "$tmp/out" > "$tmp/n"
  read -r xcpu xmb <<< "$(measure "$xmv" $xargs_ "$f")"
  grep -E "^-- (specification|invariant) .* is (true|false)$" "$tmp/out" > "$tmp/x"
  if [ ! -s "$tmp/n" ] || [ ! -s "$tmp/x" ]; then same="-"; elif cmp -s "$tmp/n" "$tmp/x"; then same="same"; else same="DIFFER"; fi
  echo "| $f | $ncpu | $nmb | $xcpu | $xmb | $same |"
done
