#!/usr/bin/env python3
"""Table 1 of Dubslaff et al. 2024 for the Java data-flow benchmarks, with xmv-rs.

Unzips ../shared/bench/java/{dataflow,avroraReg,avroraMedTest,avroraELF}.zip into a temporary
directory (the big files are never written into the repository), imports each model with
`xmv-rs import` and times `xmv-rs check`:

  * the `*_single_usedef.ctl` spec with every RKS engine (verdict, contexts, best wall time),
    under RSMCheck's reading of the JSON RSM (`--entry-exit stuck`, the default) and under the
    pushdown system's reading (`--entry-exit return`; see the imported file's header);
  * all specs of `*_usedef.ctl` in one run with -j 1 and -j 2 (total, mean per spec, speedup).

The model sizes (components, nodes, boxes of the JSON RSM; k = procedures reachable from the
initial node in the translation) come from the `-- Size:` header line of the imported file.
The paper's columns are the published numbers (Table 1, journal version), for comparison.

Usage: tools/java_bench.py [--bin target/release/xmv-rs] [--repeat 3] [--timeout 300]
       [--engines summary,incremental,global,eager,lazy] [--models dataflow,avroraReg,...] [--all-engine E]
Build first: cargo build --release
"""

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(ROOT, "..", "shared", "bench", "java")
MODELS = ["dataflow", "avroraReg", "avroraMedTest", "avroraELF"]
ENGINES = ["summary", "incremental", "global", "eager", "lazy"]
EXPECTED = {"dataflow": False, "avroraReg": True, "avroraMedTest": True, "avroraELF": True}
# Journal Table 1: result, PDSolver s, PuMoC s, k, eager #ctx, eager s, ternary #ctx, ternary s, lazy #ctx, lazy s
PAPER = {
    "dataflow": ("ff", "<0.01", "0.02", 3, 6, "<0.01", 1, "<0.01", 1, "<0.01"),
    "avroraReg": ("tt", "8.73", "16.12", 173, 477, "1.77", 27, "0.56", 2, "0.32"),
    "avroraMedTest": ("tt", "12.48", "37.09", 238, 264, "1.32", 28, "0.69", 4, "0.43"),
    "avroraELF": ("tt", "26.68", "71.28", 248, 614, "4.79", 1, "0.29", 1, "0.29"),
}
MEMORY_LIMIT = 4 << 30  # the paper's 4 GB


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(cmd, timeout):
    """(exit code or 'timeout'/'memout', stdout, stderr, seconds)."""
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return "timeout", "", "", timeout
    elapsed = time.perf_counter() - start
    code = p.returncode
    if code < 0 or "memory allocation" in p.stderr:
        code = "memout"
    return code, p.stdout, p.stderr, elapsed


def size_line(smv_path):
    with open(smv_path) as f:
        for line in f:
            if line.startswith("-- Size:"):
                m = re.search(r"source (\d+) components, (\d+) nodes, (\d+) boxes; output (\d+) modules, (\d+) locations \((\d+) virtual\), (\d+) call states", line)
                return tuple(int(x) for x in m.groups())
    raise RuntimeError("no size line in " + smv_path)


def import_model(binary, fmt, model, ctl, out, extra=()):
    cmd = [binary, "import", fmt, model, "-o", out, *extra]
    if ctl:
        cmd += ["--ctl", ctl]
    code, _, err, secs = run(cmd, 600)
    if code != 0:
        sys.exit(f"import failed ({code}): {' '.join(cmd)}\n{err[:2000]}")
    return secs


def check(binary, smv, engine, jobs, timeout, repeat):
    """Best of `repeat` runs: (verdicts or error string, contexts, seconds)."""
    best = None
    for _ in range(repeat):
        code, out, err, secs = run([binary, "check", "--no-trace", "--stats", "--engine", engine, "-j", str(jobs), smv], timeout)
        if code not in (0, 1):
            return (str(code) if code in ("timeout", "memout") else f"error {code}: {err.strip().splitlines()[:1]}", None, secs)
        verdicts = [line.rstrip().endswith("is true") for line in out.splitlines() if line.startswith("-- specification")]
        ctx = None
        for line in out.splitlines() + err.splitlines():
            m = re.search(r"rks (?:context pairs|contexts) created: (\d+)", line)
            if m:
                ctx = int(m.group(1))
        if best is None or secs < best[2]:
            best = (verdicts, ctx, secs)
    return best


def fmt_verdict(v):
    if isinstance(v, str):
        return v
    if len(v) == 1:
        return "tt" if v[0] else "ff"
    return f"{sum(v)}/{len(v)} tt"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "xmv-rs"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--all-engine", default="summary", help="engine for the all-specs runs")
    args = ap.parse_args()
    engines = args.engines.split(",")
    models = args.models.split(",")
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} not found: run `cargo build --release` first")
    tmp = tempfile.mkdtemp(prefix="xmv-java-bench-")
    try:
        rows = []
        for m in models:
            d = os.path.join(tmp, m)
            with zipfile.ZipFile(os.path.join(JAVA, m + ".zip")) as z:
                z.extractall(d)
            rsm = os.path.join(d, m + ".rsm")
            single = os.path.join(d, m + "_single_usedef.ctl")
            every = os.path.join(d, m + "_usedef.ctl")
            n_all = sum(1 for line in open(every) if line.strip() and not line.lstrip().startswith("#"))
            r = {"model": m, "specs": n_all, "checks": {}, "all": {}}
            for reading in ("stuck", "return"):
                s_smv = os.path.join(d, f"{m}.{reading}.single.smv")
                a_smv = os.path.join(d, f"{m}.{reading}.all.smv")
                r["import_s"] = import_model(args.bin, "rsm-json", rsm, single, s_smv, ["--entry-exit", reading])
                import_model(args.bin, "rsm-json", rsm, every, a_smv, ["--entry-exit", reading])
                r["size_" + reading] = size_line(s_smv)
                for e in engines:
                    r["checks"][(reading, e)] = check(args.bin, s_smv, e, 1, args.timeout, args.repeat)
                for j in (1, 2):
                    r["all"][(reading, j)] = check(args.bin, a_smv, args.all_engine, j, args.timeout, 1)
            pdmu = os.path.join(d, m + ".pdmu")
            p_smv = os.path.join(d, f"{m}.pdmu.smv")
            import_model(args.bin, "pdmu", pdmu, None, p_smv)
            r["size_pdmu"] = size_line(p_smv)
            rows.append(r)
            print(f"{m} done", file=sys.stderr)
        report(rows, engines, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(rows, engines, args):
    print("### Models\n")
    print("| Java program | components | nodes | boxes | k (paper) | k, RSMCheck reading | k, PDS reading | k from .pdmu | locations (virtual), PDS reading |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        c, n, b, k_s = r["size_stuck"][:4]
        k_r, locs, virt = r["size_return"][3:6]
        print(f"| {r['model']} | {c} | {n} | {b} | {PAPER[r['model']][3]} | {k_s} | {k_r} | {r['size_pdmu'][3]} | {locs} ({virt}) |")
    for reading, title in (("stuck", "RSMCheck's reading (`--entry-exit stuck`, default)"), ("return", "the pushdown system's reading (`--entry-exit return`)")):
        print(f"\n### Single def/use spec, {title}\n")
        head = "| Java program | expected (paper) | PDSolver s | PuMoC s | RSMCheck eager #ctx / s | RSMCheck lazy #ctx / s |"
        sep = "|---|---|---|---|---|---|"
        for e in engines:
            head += f" xmv-rs {e}: verdict, ctx, ms |"
            sep += "---|"
        print(head)
        print(sep)
        for r in rows:
            p = PAPER[r["model"]]
            line = f"| {r['model']} | {p[0]} | {p[1]} | {p[2]} | {p[4]} / {p[5]} | {p[8]} / {p[9]} |"
            for e in engines:
                v, ctx, secs = r["checks"][(reading, e)]
                line += f" {fmt_verdict(v)}, {ctx if ctx is not None else '-'}, {secs * 1000:.1f} |"
            print(line)
    print(f"\n### All def/use specs in one run (engine {args.all_engine})\n")
    print("| Java program | reading | specs | verdicts | -j 1 total s | mean ms/spec | -j 2 total s | speedup |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        for reading in ("stuck", "return"):
            v1, _, t1 = r["all"][(reading, 1)]
            v2, _, t2 = r["all"][(reading, 2)]
            mean = t1 / r["specs"] * 1000 if r["specs"] else 0
            speed = f"{t1 / t2:.2f}" if isinstance(v2, list) and t2 > 0 else "-"
            print(f"| {r['model']} | {reading} | {r['specs']} | {fmt_verdict(v1)} | {t1:.2f} | {mean:.2f} | {t2:.2f} | {speed} |")
    print("\nTimes are wall-clock seconds of the whole `xmv-rs check` process (reading the .smv included),"
          f" best of {args.repeat} for the single spec; limits {args.timeout:.0f} s and 4 GB per run."
          " Paper: PyPy 7.3.3 on an i9-10900K; PDSolver and PuMoC check the μ-calculus/CTL property of the PDS.")


if __name__ == "__main__":
    main()
