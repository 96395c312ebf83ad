#!/usr/bin/env bash
# Word models on the BDD and explicit engines, against NuSMV 2.5.4 when NUSMV is set: writes the
# models the CHANGELOG's session 39-41 figures were measured on (two words with an adder and an
# EF spec, widths 8/10/12, unsigned and signed; two 12-bit counters) into a scratch folder and
# prints one row per model and tool: wall seconds and peak MB (GNU time), and the verdict lines'
# checksum (equal checksums: equal verdicts). Usage: tools/word_bench.sh [XMV] [WIDTHS...]
set -euo pipefail
xmv="${1:-target/release/xmv-rs}"
shift || true
widths=("${@:-8 10}")
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
for w in ${widths[*]}; do
  for s in u s; do
    ty=$([ "$s" = u ] && echo "unsigned word[$w]" || echo "signed word[$w]")
    c() { echo "0${s}d${w}_$1"; }
    cat > "$dir/adder-$w$s.smv" <<SMV
MODULE main
VAR
  a : $ty;
  b : $ty;
  go : boolean;
ASSIGN
  init(a) := $(c 3);
  init(b) := $(c 5);
  next(a) := go ? a + b : a - $(c 1);
  next(b) := case a < b : b * $(c 3); TRUE : (b xor a) >> 1; esac;
SPEC AG (a + b != $(c 7) | (a & b) = (b & a))
SPEC EF (a - b = $(c 2) & b mod $(c 5) = $(c 1))
INVARSPEC (a :: b) != (b :: a) | a = b
SMV
  done
done
cat > "$dir/counters-12.smv" <<'SMV'
MODULE main
VAR
  c : unsigned word[12];
  d : unsigned word[12];
  up : boolean;
ASSIGN
  init(c) := 0ud12_0;
  init(d) := 0ud12_0;
  next(c) := up ? c + 0ud12_1 : c;
  next(d) := up ? d : d + 0ud12_3;
SPEC AG (c != 0ud12_4095 | d != 0ud12_7)
SPEC EF (c = d & c > 0ud12_100)
SMV
row() {
  local name="$1" tool="$2"; shift 2
  local out="$dir/out" t="$dir/time"
  /usr/bin/time -f "%e %M" -o "$t" "$@" > "$out" 2>/dev/null || true
  local sum
  sum=$(grep -E '^-- (specification|invariant)' "$out" | md5sum | cut -c1-8)
  read -r secs kb < <(tail -n 1 "$t")
  printf '| %s | %s | %s | %d | %s |\n' "$name" "$tool" "$secs" $((kb / 1024)) "$sum"
}
echo "| model | tool | wall s | peak MB | verdicts |"
echo "|---|---|---:|---:|---|"
for f in "$dir"/*.smv; do
  name="$(basename "$f" .smv)"
  row "$name" "xmv-rs bdd" "$xmv" check -dcx --engine bdd "$f"
  row "$name" "xmv-rs explicit" "$xmv" check -dcx --engine explicit "$f"
  if [ -n "${NUSMV:-}" ]; then row "$name" "NuSMV" "$NUSMV" -dcx "$f"; fi
done
