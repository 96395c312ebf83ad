#!/usr/bin/env python3
"""Before/after performance table for a change that must not cost speed (issue 16's "no
performance loss"): runs two `xmv-rs` binaries side by side on

  * the Java data-flow models (tools/java_bench.py's models): the single def/use spec under each
    procedure engine (`-j 1`) and all def/use specs with the default engine (`-j 2`), each model
    imported once with NEW_BIN under both readings (`--entry-exit stuck`, RSMCheck's, whose cones
    are tiny, and `return`, the pushdown reading); the `.pdmu` imports are left out (minutes
    per run under incremental/global);
  * avroraCFG, all 7,951 specs (`-j 2`), if its imported `.smv` exists (tools/usedef_table.py's
    model; the README's recipe writes /tmp/cfg/avroraCFG.smv; `--cfg FILE`);
  * the flat benchmark's end-to-end models (tools/bench_flat.sh: tools/cfg_model.rs models with
    4,500 specs, `check --no-trace -j 2`), generated once with the `gen_cfg_model` example;
  * a sample of the scalability grid (tools/scalability.sh): every `--grid-step`th instance and
    formula (default 10: 5 × 5 cells per engine), CPU-time limit `--grid-timeout` per cell. The
    grid times the library in-process, so it needs the `rsm_scalability` example built from the
    same revision as each binary: `--old-grid`/`--new-grid`, by default
    `<dir of BIN>/examples/rsm_scalability` when it exists (a cargo target directory); the grid
    rows are left out, saying so, when it does not.

Every figure is CPU seconds (user + sys of the child, all threads; `os.wait4`), so that the table
means something on a loaded machine; the two binaries are run alternately, `--repeat` times each
(median). Grid cells are run once per binary (the example runs each cell in CPU time with its own
limit); the grid rows sum the cells that both revisions finished, and count timeouts. Exit codes
of the two binaries are compared on every run (a difference is printed: the change altered a
verdict). Prints one markdown table: row, old s, new s, new/old; the last line is the geometric
mean of the ratios of the rows that take at least 0.1 s.

Usage: tools/before_after.py OLD_BIN NEW_BIN [--repeat 3] [--only java,cfg,flat,grid] [--java-models dataflow,...]
       [--flat-sizes 1000,10000,100000] [--grid-step 10] [--grid-timeout 3]
       [--old-grid EXAMPLE] [--new-grid EXAMPLE] [--work /tmp/xmv-before-after]
Building the old revision's grid example (its binary alone is not enough for the grid):
  git archive REV | tar -x -C /tmp/old && (cd /tmp/old && cargo build --release --bin xmv-rs --example rsm_scalability)
About 10-15 minutes on an idle 2-core machine with the defaults.
"""

import argparse
import csv
import math
import os
import statistics
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(ROOT, "..", "shared", "bench", "java")
if not os.path.isdir(JAVA):
    JAVA = "/work/shared/bench/java"
JAVA_MODELS = ["dataflow", "avroraReg", "avroraMedTest", "avroraELF"]
PROCEDURE_ENGINES = ["summary", "incremental", "global", "eager", "lazy"]
# Rows faster than this (in either binary) are printed but left out of the geometric mean: their
# ratio is the noise of process start-up and of the CPU-time clock's resolution.
MIN_SECONDS = 0.1


def cpu_run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL):
    """(exit code, CPU seconds user + sys) of one child process."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=stdout, stderr=err)
        try:
            _, status, ru = os.wait4(p.pid, 0)
        except KeyboardInterrupt:
            p.kill()
            raise
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode not in (0, 1):
            err.seek(0)
            print(f"warning: {' '.join(cmd)} exited {p.returncode}: {err.read()[-500:].decode(errors='replace')}", file=sys.stderr)
        return p.returncode, ru.ru_utime + ru.ru_stime


class Table:
    def __init__(self):
        self.rows = []
        self.mismatches = []

    def pair(self, label, old_cmd, new_cmd, repeat):
        """Runs both commands alternately `repeat` times; records the medians."""
        olds, news = [], []
        for _ in range(repeat):
            oc, ot = cpu_run(old_cmd)
            nc, nt = cpu_run(new_cmd)
            olds.append(ot)
            news.append(nt)
            if oc != nc:
                self.mismatches.append(f"{label}: exit {oc} before, {nc} after")
        self.add(label, statistics.median(olds), statistics.median(news), f"median of {repeat}")
        print(f"  {label}: {self.rows[-1][1]:.2f} s -> {self.rows[-1][2]:.2f} s", file=sys.stderr)

    def add(self, label, old, new, note):
        self.rows.append((label, old, new, note))

    def print(self):
        print("| benchmark | before (CPU s) | after (CPU s) | after/before | runs |")
        print("|---|---:|---:|---:|---|")
        logs = []
        for label, old, new, note in self.rows:
            ratio = new / old if old > 0 else float("nan")
            if min(old, new) >= MIN_SECONDS:
                logs.append(math.log(ratio))
            else:
                note += f"; under {MIN_SECONDS} s, not in the mean"
            print(f"| {label} | {old:.2f} | {new:.2f} | {ratio:.3f} | {note} |")
        if logs:
            print(f"| **geometric mean of the ratios** ({len(logs)} rows of {MIN_SECONDS} s or more) | | | **{math.exp(sum(logs) / len(logs)):.3f}** | |")
        for m in self.mismatches:
            print(f"\nEXIT CODES DIFFER: {m}")


def java(table, old, new, work, repeat, models):
    for m in models:
        d = os.path.join(work, "java", m)
        if not os.path.isdir(d):
            with zipfile.ZipFile(os.path.join(JAVA, m + ".zip")) as z:
                z.extractall(d)
        for reading in ("stuck", "return"):
            models = {}
            for kind, ctl in (("single", m + "_single_usedef.ctl"), ("all", m + "_usedef.ctl")):
                smv = os.path.join(d, f"{m}.{reading}.{kind}.smv")
                if not os.path.exists(smv):
                    cmd = [new, "import", "rsm-json", os.path.join(d, m + ".rsm"), "--ctl", os.path.join(d, ctl), "-o", smv, "--entry-exit", reading]
                    if subprocess.run(cmd, capture_output=True).returncode != 0:
                        sys.exit(f"import failed: {' '.join(cmd)}")
                models[kind] = smv
            for e in PROCEDURE_ENGINES:
                base = ["check", "--no-trace", "-j", "1", "--engine", e, models["single"]]
                table.pair(f"java {m} ({reading}) single spec, {e}", [old, *base], [new, *base], repeat)
            base = ["check", "--no-trace", "-j", "2", models["all"]]
            table.pair(f"java {m} ({reading}) all specs, -j 2", [old, *base], [new, *base], repeat)


def cfg(table, old, new, smv, repeat):
    if not os.path.exists(smv):
        print(f"(avroraCFG left out: {smv} does not exist; see the README's avroraCFG recipe)", file=sys.stderr)
        return
    base = ["check", "--no-trace", "-j", "2", smv]
    table.pair("avroraCFG all 7,951 specs, -j 2", [old, *base], [new, *base], repeat)


def flat(table, old, new, work, sizes, repeat):
    gen = os.path.join(os.path.dirname(new), "examples", "gen_cfg_model")
    if not os.path.exists(gen):
        subprocess.run(["cargo", "build", "--quiet", "--release", "--example", "gen_cfg_model"], cwd=ROOT, check=True)
        gen = os.path.join(ROOT, "target", "release", "examples", "gen_cfg_model")
    for n in sizes:
        smv = os.path.join(work, f"flat-{n}.smv")
        if not os.path.exists(smv):
            with open(smv, "wb") as f:
                subprocess.run([gen, "--states", str(n), "--specs", "4500", "--seed", "1"], stdout=f, check=True)
        base = ["check", "--no-trace", "-j", "2", smv]
        table.pair(f"flat cfg model {n:,} states, 4,500 specs, -j 2", [old, *base], [new, *base], repeat)


def grid_cells(example, work, tag, step, timeout):
    """{(engine, i, j): (status, secs)} of one revision's grid sample."""
    out = os.path.join(work, f"grid-{tag}-step{step}-t{timeout}.csv")
    if os.path.exists(out):
        os.remove(out)  # never resume: both revisions are run now, under the same load
    cmd = [example, "grid", "--imax", "50", "--jmax", "50", "--step", str(step), "--seed", "1", "--timeout", str(timeout), "--out", out]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
    cells = {}
    with open(out) as f:
        for r in csv.reader(f):
            if not r or not r[0].isdigit():
                continue
            cells[(r[3], int(r[0]), int(r[1]))] = (r[4], float(r[6]) if r[6] else None)
    return cells


def grid(table, old_ex, new_ex, work, step, timeout):
    if not (old_ex and new_ex and os.path.exists(old_ex) and os.path.exists(new_ex)):
        print(f"(grid left out: the rsm_scalability example of each revision is needed: --old-grid {old_ex}, --new-grid {new_ex})", file=sys.stderr)
        return
    print("  grid sample (before)...", file=sys.stderr)
    before = grid_cells(old_ex, work, "before", step, timeout)
    print("  grid sample (after)...", file=sys.stderr)
    after = grid_cells(new_ex, work, "after", step, timeout)
    for e in PROCEDURE_ENGINES:
        keys = [k for k in before if k[0] == e]
        both = [k for k in keys if before[k][0] == "ok" and after.get(k, ("", None))[0] == "ok"]
        tb = sum(1 for k in keys if before[k][0] == "timeout")
        ta = sum(1 for k in keys if after.get(k, ("",))[0] == "timeout")
        old_s = sum(before[k][1] for k in both)
        new_s = sum(after[k][1] for k in both)
        table.add(f"grid sample {e} (step {step}, {timeout} s limit)", old_s, new_s, f"{len(both)} cells done by both, once; timeouts {tb} -> {ta}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="java,cfg,flat,grid")
    ap.add_argument("--java-models", default=",".join(JAVA_MODELS))
    ap.add_argument("--cfg", default="/tmp/cfg/avroraCFG.smv")
    ap.add_argument("--flat-sizes", default="1000,10000,100000")
    ap.add_argument("--grid-step", type=int, default=10)
    ap.add_argument("--grid-timeout", type=float, default=3)
    ap.add_argument("--old-grid")
    ap.add_argument("--new-grid")
    ap.add_argument("--work", default="/tmp/xmv-before-after")
    args = ap.parse_args()
    old, new = os.path.abspath(args.old), os.path.abspath(args.new)
    os.makedirs(args.work, exist_ok=True)
    default_ex = lambda b: os.path.join(os.path.dirname(b), "examples", "rsm_scalability")  # noqa: E731
    only = set(args.only.split(","))
    table = Table()
    load = open("/proc/loadavg").read().split()[:3]
    if "java" in only:
        java(table, old, new, args.work, args.repeat, args.java_models.split(","))
    if "cfg" in only:
        cfg(table, old, new, args.cfg, args.repeat)
    if "flat" in only:
        flat(table, old, new, args.work, [int(s) for s in args.flat_sizes.split(",")], args.repeat)
    if "grid" in only:
        grid(table, args.old_grid or default_ex(old), args.new_grid or default_ex(new), args.work, args.grid_step, args.grid_timeout)
    print(f"before: {old}\nafter: {new}\nload average at the start: {' '.join(load)}, at the end: {' '.join(open('/proc/loadavg').read().split()[:3])}\n")
    table.print()
    sys.exit(1 if table.mismatches else 0)


if __name__ == "__main__":
    main()
