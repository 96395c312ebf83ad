#!/usr/bin/env python3
"""State-space construction speed of xmv-rs builds against NuSMV 2.5.4, side by side.

For each FILE (paths relative to --examples) this runs

    NuSMV -dcx -ils -ips -ic FILE                       (when --nusmv is given)
    XMV check --engine E --no-trace -r --stats -j J FILE  (for every --xmv binary, e.g. before/after;
                                                          E is --engine, `explicit` by default)

and prints one Markdown row per file: reachable states, NuSMV's CPU seconds, each build's CPU
seconds for the whole process and wall milliseconds of its state-space stage (`--stats`), and
states per CPU second of the whole process (a lower bound for the builder alone). CPU seconds
(user + system of the child, from `wait4`) are the figure to compare on a shared machine; wall
times there are inflated by other jobs. Each measurement is the median of --repeat runs.

Usage:
    tools/builder_speed.py --examples PATH/examples --nusmv PATH/NuSMV \\
        --xmv before=/tmp/xmv-base --xmv after=target/release/xmv-rs -j 1 \\
        abp/abp4.smv deadlock/gas-nq7.smv
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def run(cmd, timeout):
    """(cpu seconds, wall seconds, stdout, stderr) of one process, or None on timeout."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    wall = time.monotonic() - start
    return wall, out.decode(errors="replace"), err.decode(errors="replace")


def cpu_of(cmd, timeout):
    """(cpu seconds, wall, stdout, stderr): the CPU time is the growth of the reaped children's
    totals across the run (one child at a time)."""
    before = os.times()
    r = run(cmd, timeout)
    after = os.times()
    if r is None:
        return None
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return (cpu,) + r


def median_run(cmd, timeout, repeat):
    runs = []
    for _ in range(repeat):
        r = cpu_of(cmd, timeout)
        if r is None:
            return None
        runs.append(r)
    runs.sort(key=lambda r: r[0])
    return runs[len(runs) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", default=os.environ.get("NUSMV_EXAMPLES"), help="folder the files are relative to")
    ap.add_argument("--nusmv", default=os.environ.get("NUSMV"))
    ap.add_argument("--xmv", action="append", default=[], help="NAME=PATH of an xmv-rs binary (repeatable)")
    ap.add_argument("-j", default="1", help="xmv-rs worker threads")
    ap.add_argument("--engine", default="explicit", help="xmv-rs flat engine (auto picks BDDs for some files)")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    builds = [x.split("=", 1) for x in args.xmv] or [["xmv-rs", "target/release/xmv-rs"]]

    head = ["file", "states"]
    if args.nusmv:
        head.append("NuSMV CPU s")
    for name, _ in builds:
        head += [f"{name} CPU s", f"{name} build ms (wall)", f"{name} states/CPU s"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for f in args.files:
        path = os.path.join(args.examples or ".", f)
        row = [f, "?"]
        if args.nusmv:
            r = median_run([args.nusmv, "-dcx", "-ils", "-ips", "-ic", path], args.timeout, args.repeat)
            row.append("timeout" if r is None else f"{r[0]:.2f}")
        for _, binary in builds:
            r = median_run([binary, "check", "--engine", args.engine, "--no-trace", "-q", "-r", "--stats", "-j", args.j, path], args.timeout, args.repeat)
            if r is None:
                row += ["timeout", "-", "-"]
                continue
            cpu, _, out, err = r
            states = re.search(r"reachable states: (\d+)", out)
            build = re.search(r"state space: ([\d.]+) ms", err)
            n = int(states.group(1)) if states else None
            if n is not None:
                row[1] = f"{n:,}"
            row += [f"{cpu:.2f}", f"{float(build.group(1)):.0f}" if build else "-", f"{n / cpu:,.0f}" if n and cpu > 0 else "-"]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
