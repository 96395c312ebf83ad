#!/usr/bin/env bash
# The `pub(crate)` sweep (issue 16, docs/architecture.md "Checks that keep the structure"):
# every item of the library that nothing outside the crate uses becomes `pub(crate)`; what the
# binary (src/main.rs), the tests, examples, benches, tools/*.rs and the fuzz targets use, and
# what the documented API (src/api.rs, re-exported at the crate root) reaches, stays `pub`.
#
#   tools/visibility/sweep.sh          rewrite this tree in place
#   tools/visibility/sweep.sh --check  sweep a scratch copy of this tree (tracked and untracked,
#                                      not ignored files) and fail, showing the diff, if the
#                                      result differs from the tree: the tree is not swept
#
# Steps: (1) src/lib.rs's modules other than `api` are made private for a moment and `cargo fix
# --lib` applies rustc's `unreachable_pub` suggestions (only those: other lints are allowed
# during that build), turning every `pub` the API does not reach into `pub(crate)`; (2) the
# modules are public again and seed.py republishes every `xmv_rs::...` path the outside files
# name; (3) `cargo check --all-targets` is repeated and republish.py widens what its privacy
# errors (E0603, E0624, E0616, E0451, E0364, E0365, private_interfaces) name, until it compiles;
# (4) `cargo fmt`; (5) `cargo clippy --release --all-targets --locked -- -D warnings`. If clippy
# reports anything (dead code the narrower visibility exposes, lints that skip exported items),
# the script lists it and exits 1 without deleting code: fix those items, then run it again.
# The result depends only on the tree (idempotent: a swept tree is left unchanged).
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1
root="$(cd "$(dirname "$0")/../.." && pwd)"
tools="$root/tools/visibility"
cd "$root"
t0=$(date +%s)
say() { echo "sweep ($(( $(date +%s) - t0 ))s): $*" >&2; }

if [[ "${1:-}" == "--check" ]]; then
    # A fixed place inside the target directory, so that repeated checks do not leave one copy
    # of the crate's build artifacts per run.
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
    scratch="$CARGO_TARGET_DIR/visibility-check"
    rm -rf "$scratch"
    mkdir -p "$scratch"
    git ls-files -co --exclude-standard -z | while IFS= read -r -d '' f; do
        [[ -e "$f" && "$f" != target/* ]] && printf '%s\0' "$f"
    done | xargs -0 cp --parents -t "$scratch"
    # The scratch copy reuses this tree's compiled dependencies (its own crate is rebuilt).
    (cd "$scratch" && git init -q && bash tools/visibility/sweep.sh)
    if diff -ru --exclude=.git src "$scratch/src"; then
        say "OK: the tree is swept (every pub item is used outside the crate or by the API)"
        exit 0
    fi
    say "FAILED: the items above are pub but nothing outside the crate uses them (or the reverse);"
    say "run tools/visibility/sweep.sh to apply the diff"
    exit 1
fi

shims=()
cleanup() {
    if grep -q 'visibility-sweep: temporary' src/lib.rs; then python3 "$tools/libmods.py" show; fi
    for s in "${shims[@]}"; do rm -f "$s"; done
}
trap cleanup EXIT

# Fuzz targets (a separate cargo project) are compiled as temporary examples, with a stand-in
# for libfuzzer's `fuzz_target!`, so that what they use counts as used.
for f in fuzz/fuzz_targets/*.rs; do
    [[ -e "$f" ]] || continue
    s="examples/zz_visibility_fuzz_$(basename "$f")"
    shims+=("$s")
    {
        echo '#![allow(unused)]'
        echo 'macro_rules! fuzz_target { (|$d:ident: $t:ty| $body:block) => { fn main() { let $d: $t = Default::default(); $body } }; }'
        grep -v -e '^#!\[no_main\]' -e 'use libfuzzer_sys::fuzz_target;' -e '^//!' "$f"
    } >"$s"
done

say "1. cargo fix --lib with unreachable_pub (modules private for this build)"
python3 "$tools/libmods.py" hide
nice cargo fix --lib --release --allow-dirty --allow-staged --broken-code -q 2>/dev/null || true
python3 "$tools/libmods.py" show

say "2. republish what outside files name"
mapfile -t outside < <(ls src/main.rs tests/*.rs tests/*/*.rs examples/*.rs examples/*/*.rs benches/*.rs benches/*/*.rs tools/*.rs "${shims[@]}" 2>/dev/null | sort)
python3 "$tools/seed.py" "${outside[@]}" >&2

json="$(mktemp)"
for i in $(seq 1 60); do
    # The library first (its errors block every other target, and it checks in a fraction of
    # the time), then every target, without stopping at the first failing one.
    for j in $(seq 1 20); do
        nice cargo check --release --lib --locked --message-format=json 2>/dev/null >"$json" || true
        out="$(python3 "$tools/republish.py" "$json")"
        grep -q '^republished 0$' <<<"$out" && break
        say "3.$i.$j library: $out"
    done
    nice cargo check --release --all-targets --locked --keep-going --message-format=json 2>/dev/null >"$json" || true
    out="$(python3 "$tools/republish.py" "$json")"
    say "3.$i compile loop: $out"
    if grep -q '^republished 0$' <<<"$out"; then
        break
    fi
done
if grep -q '"level":"error"' "$json"; then
    python3 -c 'import json,sys
for l in open(sys.argv[1]):
    m = json.loads(l)
    if m.get("reason") == "compiler-message" and m["message"]["level"] == "error": print(m["message"]["rendered"])' "$json" | head -100 >&2
    say "FAILED: errors the compile loop cannot map to a definition (above)"
    rm -f "$json"
    exit 1
fi
rm -f "$json"
for s in "${shims[@]}"; do rm -f "$s"; done
shims=()

say "4. cargo fmt"
cargo fmt

say "5. cargo clippy --release --all-targets --locked -- -D warnings"
if ! nice cargo clippy --release --all-targets --locked -q -- -D warnings 2>/dev/null; then
    # Every finding of any target (src/, tests/, examples/, ...); the raw output if none parses.
    report="$(nice cargo clippy --release --all-targets --locked --message-format=short 2>&1 || true)"
    grep -E '^[^ ]+\.rs:[0-9]+:[0-9]+: (warning|error)' <<<"$report" | sort -u >&2 || tail -40 <<<"$report" >&2
    say "STOPPED: clippy reports the items above after the sweep (dead code the narrower"
    say "visibility exposes, or lints that skip exported items). Fix them (delete dead code, move"
    say "test-only items under #[cfg(test)]), then run the sweep again."
    exit 1
fi
say "done in $(( $(date +%s) - t0 )) s: $(grep -rE '^\s*pub(\(crate\))? ' src --include=*.rs | grep -c 'pub(crate)') pub(crate), $(grep -rE '^\s*pub ' src --include=*.rs | wc -l) pub (lines)"
