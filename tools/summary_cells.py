#!/usr/bin/env python3
"""Check CPU seconds of single scalability-grid cells under several runner binaries, side by side.

usage: tools/summary_cells.py [--engine summary] [--repeat 3] CELL... -- RUNNER...

CELL is I/J (instance I, formula J of the grid, seed 1); RUNNER is a built
`examples/rsm_scalability` (e.g. one per revision: `cargo build --release --example
rsm_scalability` in each worktree). Each cell runs `RUNNER stats ENGINE I 1 J` (the instance is
built first and not timed), the runners alternating, REPEAT times; the table gives the verdict
and the median of the check's CPU seconds per runner. Used for session 22's before/after figures
of the summary engine (README, Scalability).
"""
import argparse
import statistics
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit(__doc__)
    k = args.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="summary")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("cells", nargs="+")
    a = ap.parse_args(args[:k])
    runners = args[k + 1 :]
    print("| cell | verdict | " + " | ".join(runners) + " |")
    print("|---|---|" + "---:|" * len(runners))
    for cell in a.cells:
        i, j = cell.split("/")
        times = {r: [] for r in runners}
        verdicts = set()
        for _ in range(a.repeat):
            for r in runners:
                out = subprocess.run([r, "stats", a.engine, i, "1", j], capture_output=True, text=True).stdout
                for line in out.splitlines():
                    w = line.split()
                    if w and w[0] == "holds":
                        verdicts.add(w[1])
                        times[r].append(float(w[w.index("cpu") + 1]))
        cols = ["%.3f" % statistics.median(times[r]) if times[r] else "-" for r in runners]
        print("| %s | %s | %s |" % (cell, "/".join(sorted(verdicts)) or "-", " | ".join(cols)), flush=True)


if __name__ == "__main__":
    main()
