#!/usr/bin/env python3
"""LTL on procedure modules (check::ltl::rks) on the Java def/use models, as a table.

Unzips ../shared/bench/java/{dataflow,avroraReg,avroraMedTest,avroraELF}.zip into a temporary
directory, imports each JSON RSM under the pushdown system's reading (`--entry-exit return`, the
real workload; see tools/java_bench.py) with its `*_usedef.ctl` specs, and turns every def/use
spec `AG ((def__v | usedef__v) -> EF (use__v | usedef__v))` into the LTL spec
`G ((def__v | usedef__v) -> F (use__v | usedef__v))` (every run, not some continuation: a
stronger property). Then:

  * all LTL specs of the model in one `xmv-rs check --no-trace --stats -j 1` process (median of
    --repeat runs): verdicts, LTL checking time (the `rks checking` stage), mean per spec, sums of
    the product sizes `--stats` prints (automaton states, product vertices, path edges, summary
    edges, augmented-graph vertices), peak memory;
  * --sample specs evenly spread over the file, one process each (`--shard i/N` with N the number
    of specs): the median and maximum time per spec and product vertices per spec;
  * for comparison, the CTL def/use specs of the same file with the default engine (summary,
    lane-batched), time of the `rks checking` stage.

Usage: tools/ltl_rks_bench.py [--bin target/release/xmv-rs] [--repeat 3] [--sample 15]
       [--models dataflow,avroraReg,avroraMedTest,avroraELF]
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
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(ROOT, "..", "shared", "bench", "java")
MODELS = ["dataflow", "avroraReg", "avroraMedTest", "avroraELF"]
STAT = re.compile(r"^-- stats: (.*): ([0-9.]+)( ms)?$")


def run(cmd):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.perf_counter() - start
    if p.returncode not in (0, 1):
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p.stdout, p.stderr, secs


def stats(stderr):
    out = {}
    for line in stderr.splitlines():
        m = STAT.match(line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def check(binary, smv, extra=()):
    """(stdout, stats, wall seconds, peak KB) of one `xmv-rs check` process."""
    cmd = ["/usr/bin/time", "-f", "%M", binary, "check", "--no-trace", "--stats", "-j", "1", *extra, smv]
    out, err, secs = run(cmd)
    peak = int(err.strip().splitlines()[-1])
    return out, stats(err), secs, peak


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "xmv-rs"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sample", type=int, default=15)
    ap.add_argument("--models", default=",".join(MODELS))
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for m in args.models.split(","):
            with zipfile.ZipFile(os.path.join(JAVA, m + ".zip")) as z:
                z.extract(f"{m}.rsm", d)
                z.extract(f"{m}_usedef.ctl", d)
            ctl_smv, ltl_smv = os.path.join(d, f"{m}.ctl.smv"), os.path.join(d, f"{m}.ltl.smv")
            run([args.bin, "import", "rsm-json", os.path.join(d, f"{m}.rsm"), "--ctl", os.path.join(d, f"{m}_usedef.ctl"), "--entry-exit", "return", "-o", ctl_smv])
            with open(ctl_smv) as f:
                text = f.read()
            ltl = re.sub(r"^SPEC AG ", "LTLSPEC G ", text, flags=re.M).replace("(EF (", "(F (")
            with open(ltl_smv, "w") as f:
                f.write(ltl)
            specs = ltl.count("\nLTLSPEC ")
            runs = [check(args.bin, ltl_smv) for _ in range(args.repeat)]
            out, st, _, _ = runs[0]
            true = out.count(" is true")
            checking = statistics.median(r[1]["rks checking"] for r in runs) / 1000
            wall = statistics.median(r[2] for r in runs)
            peak = max(r[3] for r in runs)
            picks = sorted({round(i * (specs - 1) / max(1, args.sample - 1)) + 1 for i in range(min(args.sample, specs))})
            one = [check(args.bin, ltl_smv, ["--shard", f"{i}/{specs}"])[1] for i in picks]
            per_ms = [s["rks checking"] for s in one]
            per_v = [s["rks LTL product vertices"] for s in one]
            ctl = statistics.median(check(args.bin, ctl_smv)[1]["rks checking"] for _ in range(args.repeat)) / 1000
            rows.append((m, specs, f"{true}/{specs}", checking, 1000 * checking / specs, statistics.median(per_ms), max(per_ms),
                         int(st["rks LTL automaton states"]), int(st["rks LTL product vertices"]), int(st["rks LTL path edges"]),
                         int(st["rks LTL summary edges"]), int(st["rks LTL augmented graph vertices"]),
                         int(statistics.median(per_v)), int(max(per_v)), wall, peak // 1024, ctl))
            print(f"{m}: done", file=sys.stderr)
    print("| model | LTL specs | true | LTL check s (all) | mean ms/spec | one spec alone: check ms median / max "
          "| automaton states (sum) | product vertices (sum) | path edges (sum) | summary edges (sum) | augmented-graph vertices (sum) "
          "| product vertices/spec median / max | process wall s | peak MB | CTL AG/EF check s (all, summary engine) |")
    print("|---|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.3f} | {r[4]:.2f} | {r[5]:.2f} / {r[6]:.2f} | {r[7]:,} | {r[8]:,} | {r[9]:,} | {r[10]:,} | {r[11]:,} "
              f"| {r[12]:,} / {r[13]:,} | {r[14]:.2f} | {r[15]} | {r[16]:.3f} |")
    print(f"\nMedian of {args.repeat} runs, one thread (-j 1); one spec alone: {args.sample} specs spread over the file, each in its own process (--shard). "
          "Sizes are sums over all specs of the file.")


if __name__ == "__main__":
    main()
