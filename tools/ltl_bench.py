#!/usr/bin/env python3
"""The flat LTL engine against NuSMV 2.5.4, side by side, on LTLSPECs.

Inputs: every `.smv` file with an LTLSPEC below --examples (NuSMV's own `examples/` collection
is the intended input; it is not part of this repository), plus generated token-ring models
(`ring N`: N processes idle/wait/crit passing a token, FAIRNESS per process, LTL specs
`G !(crit_i & crit_j)`, `G (wait_i -> F crit_i)`, `G F token = i`, `F G idle_0` and a past spec
`G (crit_i -> O wait_i)`), written to a temporary directory.

Per file it runs, as whole processes under a time limit,

    NuSMV -dcx -is -ii -ic -ips FILE        (LTL specs only; no traces)
    xmv-rs check --no-trace --stats FILE    (all specs; the stats give the LTL work)

and prints one Markdown row: reachable states, LTL specs, automaton states and product states
(summed over the specs, from `--stats`), the two tools' wall seconds (median of --repeat runs),
and whether the LTL verdict lines are identical. The machine may be shared: quote medians.

Usage: tools/ltl_bench.py --nusmv PATH/NuSMV [--examples PATH/examples] [--xmv target/release/xmv-rs]
                          [--rings 3,4,5,6] [--repeat 3] [--timeout 120]
Build first: cargo build --release
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LTL_LINE = re.compile(r"^-- specification .* is (true|false)$")


def ring(n):
    """A token ring of n processes as a flat SMV model with LTL specs."""
    lines = ["MODULE main", "VAR", f"  token : 0..{n - 1};", "  turn : 0..%d;" % (n - 1)]
    lines += [f"  st{i} : {{idle, wait, crit}};" for i in range(n)]
    lines += ["ASSIGN", "  init(token) := 0;"]
    for i in range(n):
        lines += [
            f"  init(st{i}) := idle;",
            f"  next(st{i}) := case",
            f"    turn != {i} : st{i};",
            f"    st{i} = idle : {{idle, wait}};",
            f"    st{i} = wait & token = {i} : crit;",
            f"    st{i} = crit : idle;",
            f"    TRUE : st{i};",
            "  esac;",
        ]
    lines += [
        "  next(token) := case",
        *[f"    token = {i} & turn = {i} & st{i} != crit & next(st{i}) = idle : {(i + 1) % n};" for i in range(n)],
        "    TRUE : token;",
        "  esac;",
    ]
    lines += [f"FAIRNESS turn = {i}" for i in range(n)]
    lines += [f"LTLSPEC G !(st0 = crit & st{j} = crit)" for j in range(1, n)]
    lines += [f"LTLSPEC G (st{i} = wait -> F st{i} = crit)" for i in range(n)]
    lines += [f"LTLSPEC G F token = {i}" for i in range(n)]
    lines += ["LTLSPEC F G st0 = idle", f"LTLSPEC G (st{n - 1} = crit -> O st{n - 1} = wait)"]
    return "\n".join(lines) + "\n"


def run(cmd, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "", timeout
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def stat(stderr, name):
    m = re.search(rf"-- stats: flat {name}: (\d+)", stderr)
    return int(m.group(1)) if m else None


def show(value):
    return "-" if value is None else str(value)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nusmv", required=True)
    ap.add_argument("--examples")
    ap.add_argument("--xmv", default=str(ROOT / "target" / "release" / "xmv-rs"))
    ap.add_argument("--rings", default="3,4,5,6")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()

    files = []
    if args.examples:
        for p in sorted(Path(args.examples).rglob("*.smv")):
            if re.search(r"^\s*LTLSPEC\b", p.read_text(errors="replace"), re.M):
                files.append((str(p.relative_to(args.examples)), p))
    tmp = Path(tempfile.mkdtemp(prefix="ltl-bench-"))
    for n in [int(x) for x in args.rings.split(",") if x]:
        f = tmp / f"ring{n}.smv"
        f.write_text(ring(n))
        files.append((f"ring {n}", f))

    print("| model | states | LTL specs | automaton states | product states | NuSMV -dcx (s) | xmv-rs (s) | verdicts agree |")
    print("|---|---|---|---|---|---|---|---|")
    agree_files = agree_specs = compared = 0
    for name, path in files:
        nusmv_times, xmv_times = [], []
        theirs = ours = None
        stderr = ""
        for _ in range(args.repeat):
            code, out, _, t = run([args.nusmv, "-dcx", "-is", "-ii", "-ic", "-ips", str(path)], args.timeout)
            nusmv_times.append(t)
            theirs = [l for l in out.splitlines() if LTL_LINE.match(l)] if code is not None else None
            code, out, stderr, t = run([args.xmv, "check", "--no-trace", "--stats", "-r", str(path)], args.timeout)
            xmv_times.append(t)
            ours = out.splitlines() if code is not None else None
        reach = re.search(r"reachable states: (\S+)", "\n".join(ours or []))
        states = stat(stderr, "states") or (reach.group(1) if reach else "?")
        ours_ltl = [l for l in (ours or []) if theirs is not None and l in theirs]
        same = theirs is not None and ours is not None and len(theirs) > 0 and ours_ltl == theirs
        nspecs = len(theirs or [])
        if same:
            agree_files += 1
            agree_specs += nspecs
        if not theirs:
            print(f"| {name} | - | - | - | - | NuSMV rejects it | | |")
            continue
        compared += 1
        fmt = lambda ts: "timeout" if max(ts) >= args.timeout else f"{statistics.median(ts):.3f}"
        print(
            f"| {name} | {states} | {nspecs} | {show(stat(stderr, 'LTL automaton states'))} | {show(stat(stderr, 'LTL product states'))} "
            f"| {fmt(nusmv_times)} | {fmt(xmv_times)} | {'yes' if same else 'NO'} |"
        )
    print(f"\n{agree_files}/{compared} files NuSMV accepts, {agree_specs} LTL verdict lines identical to NuSMV 2.5.4.")


if __name__ == "__main__":
    sys.exit(main())
