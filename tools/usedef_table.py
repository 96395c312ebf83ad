#!/usr/bin/env python3
"""The done-when table of issue 15 for all def/use specs of imported models: per model, specs,
verdicts, wall seconds, CPU seconds (user + sys), peak memory, frames (summary-engine context
pairs created) and the speed-up over the issue's baseline for avroraCFG (62 s wall, 87 s CPU,
0.97 GB with `-j 2`, 50.6 M frames, one spec at a time).

Each model is an imported `.smv` with its specs (see the README's avroraCFG recipe;
tools/java_bench.py imports the Table 1 models). Runs `xmv-rs check --no-trace --stats -j J` under
/usr/bin/time -v, median of --repeat runs by wall time. On a shared machine wall times are
inflated by the load; CPU seconds are the figure to compare.

usage: tools/usedef_table.py [--bin target/release/xmv-rs] [-j 2] [--repeat 3] NAME=FILE.smv ...
"""

import argparse
import re
import statistics
import subprocess
import sys

BASELINE = {"avroraCFG": (62.0, 87.0, 0.97 * 1024, 50.6e6)}


def run(binary, smv, jobs):
    """(wall s, cpu s, peak MB, frames, true, false) of one check."""
    cmd = ["/usr/bin/time", "-v", binary, "check", "--no-trace", "--stats", "-j", str(jobs), smv]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    err = p.stderr

    def field(name):
        m = re.search(re.escape(name) + r":\s*([0-9.:]+)", err)
        return m.group(1) if m else "0"

    wall_txt = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    wall = 0.0
    for part in wall_txt.split(":"):
        wall = wall * 60 + float(part)
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    peak = int(field("Maximum resident set size (kbytes)")) / 1024
    frames = sum(int(m) for m in re.findall(r"rks context pairs created: (\d+)", err))
    true = len(re.findall(r"^-- specification .* is true", p.stdout, re.M))
    false = len(re.findall(r"^-- specification .* is false", p.stdout, re.M))
    return wall, cpu, peak, frames, true, false


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/xmv-rs")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("models", nargs="+", help="NAME=FILE.smv")
    args = ap.parse_args()
    print(f"| model | specs (tt / ff) | wall s | CPU s | peak MB | frames | speed-up wall / CPU / memory over the issue's baseline |")
    print("|---|---|---:|---:|---:|---:|---|")
    for spec in args.models:
        name, smv = spec.split("=", 1)
        runs = sorted((run(args.bin, smv, args.j) for _ in range(args.repeat)), key=lambda r: r[0])
        wall, cpu, peak, frames, t, f = runs[len(runs) // 2]
        cpu = statistics.median(r[1] for r in runs)
        peak = max(r[2] for r in runs)
        base = BASELINE.get(name)
        speed = f"{base[0] / wall:.1f}× / {base[1] / cpu:.1f}× / {base[2] / peak:.1f}×" if base else "-"
        print(f"| {name} | {t + f:,} ({t:,} / {f:,}) | {wall:.2f} | {cpu:.2f} | {peak:.0f} | {frames:,} | {speed} |")
    print(f"\n`-j {args.j}`, median of {args.repeat} runs (wall: the median run; CPU: median; peak: max).")


if __name__ == "__main__":
    main()
