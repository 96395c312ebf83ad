#!/usr/bin/env python3
"""Counterexample cost on the Java data-flow benchmarks (pushdown reading, single def/use spec).

Unzips ../shared/bench/java/<model>.zip into a temporary directory, imports the model with
`xmv-rs import rsm-json --entry-exit return --ctl <model>_single_usedef.ctl`, and times
`xmv-rs check -j 1` with and without the counterexample (best of --repeat runs, user+system CPU
of the process, so a busy machine disturbs it less than wall time). Prints one row per model:
.smv size, verdict, trace length (states) and deepest call stack, the two times and their
difference (the trace: the E[U] search over the engine's labels; incremental and global relabel globally first).

Usage: tools/trace_bench.py [--bin target/release/xmv-rs] [--repeat 3] [--models avroraReg,...]
Build first: cargo build --release
"""

import argparse
import os
import resource
import subprocess
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(ROOT, "..", "shared", "bench", "java")
MODELS = ["dataflow", "avroraReg", "avroraMedTest", "avroraELF"]


def cpu_run(cmd):
    """(stdout, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "xmv-rs"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--models", default=",".join(MODELS))
    args = ap.parse_args()
    print(f"| model | .smv KB | verdict | trace states | max stack | check s | --no-trace s | trace s |")
    print(f"|---|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            d = os.path.join(tmp, model)
            with zipfile.ZipFile(os.path.join(JAVA, model + ".zip")) as z:
                z.extractall(d)
            smv = os.path.join(d, model + ".smv")
            subprocess.run([args.bin, "import", "rsm-json", os.path.join(d, model + ".rsm"), "--entry-exit", "return",
                            "--ctl", os.path.join(d, model + "_single_usedef.ctl"), "-o", smv], check=True, capture_output=True)
            with_trace, without = [], []
            out = ""
            for _ in range(args.repeat):
                out, t = cpu_run([args.bin, "check", "-j", "1", smv])
                with_trace.append(t)
                _, t = cpu_run([args.bin, "check", "-j", "1", "--no-trace", smv])
                without.append(t)
            verdict = "false" if "is false" in out.splitlines()[0] else "true"
            states = [l for l in out.splitlines() if l.startswith("-> State")]
            depth = max((l.count(" > ") for l in states), default=0)
            a, b = min(with_trace), min(without)
            print(f"| {model} | {os.path.getsize(smv) // 1024} | {verdict} | {len(states) or '-'} | {depth if states else '-'} | {a:.2f} | {b:.2f} | {a - b:.2f} |")


if __name__ == "__main__":
    main()
