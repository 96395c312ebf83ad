#!/usr/bin/env python3
"""Re-runs one engine's cells of the scalability grid and redraws docs/scalability.{csv,svg}.

usage: scalability_rerun.py [--engine summary] [--timeout 2] [--shards 2] [--all]
                            [--out target/scalability-rerun.csv] [--exe BINARY]

Without --all it re-runs the cells of ENGINE that docs/scalability.csv records as above 1 s,
timed out or skipped, plus every 5th instance and formula (i and j multiples of 5); with --all
every cell. The other cells keep their values from docs/scalability.csv. Cells run through
`rsm_scalability row ENGINE I 1 LIMIT J...` (CPU-seconds timing, the CPU-time limit enforced by
the child, as the grid runner does), instances split round-robin over SHARDS parallel workers
under `nice`; when a cell times out, the cells of that instance's row with equal or greater
formula depth are recorded as skipped (the grid's skip rule) and the rest continue in a new
child. The merged grid goes through tools/scalability_svg.py into docs/scalability.csv and
docs/scalability.svg; re-run cells are also written to OUT (raw grid format) so that an
interrupted run keeps them: running the same command again only runs the missing cells.
"""
import argparse
import csv
import os
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = ["incremental", "global", "eager", "lazy", "summary"]
HEADER = "i,j,depth,engine,status,holds,seconds,rks_components,rks_nodes,rsm_nodes,rsm_boxes"


def doc_cells():
    """docs/scalability.csv as {(i, j, engine): (status, holds, seconds)}."""
    out = {}
    for r in csv.DictReader(open(os.path.join(ROOT, "docs/scalability.csv"))):
        i, j = int(r["i"]), int(r["j"])
        for e in ENGINES:
            v = r[e]
            if v in ("timeout", "skipped"):
                out[(i, j, e)] = (v, "", "")
            else:
                holds = "" if r["holds"] == "DISAGREE" else r["holds"]
                out[(i, j, e)] = ("ok", holds, v)
    return out


def selected(cells, engine, everything):
    pick = {}
    for (i, j, e), (status, _, secs) in cells.items():
        if e != engine:
            continue
        if everything or status != "ok" or float(secs) > 1.0 or (i % 5 == 0 and j % 5 == 0):
            pick.setdefault(i, []).append(j)
    return {i: sorted(js) for i, js in pick.items()}


def run_row(exe, engine, i, js, timeout):
    """[(j, status, holds, seconds)] for formulas js of instance i."""
    out = []
    todo = list(js)
    while todo:
        cmd = ["nice", "-n", "10", exe, "row", engine, str(i), "1", str(timeout)] + [str(j) for j in todo]
        p = subprocess.run(cmd, capture_output=True, text=True)
        done = 0
        for line in p.stdout.splitlines():
            w = line.split()
            if w == ["ready"]:
                continue
            if len(w) == 2 and w[1] == "timeout":
                out.append((todo[done], "timeout", "", ""))
                depth = todo[done] // 9
                done += 1
                while done < len(todo) and todo[done] // 9 >= depth:
                    out.append((todo[done], "skipped", "", ""))
                    done += 1
                break
            out.append((int(w[0]), "ok", w[1], w[2]))
            done += 1
        else:
            if done < len(todo):
                sys.exit("row %s %d stopped without a result for formula %d (exit %d): %s" % (engine, i, todo[done], p.returncode, p.stderr[-500:]))
        todo = todo[done:]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="summary", choices=ENGINES)
    ap.add_argument("--timeout", type=float, default=2.0)
    ap.add_argument("--shards", type=int, default=2)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--out", default=os.path.join(ROOT, "target/scalability-rerun.csv"))
    ap.add_argument("--exe", help="a built rsm_scalability (default: build it and use target/'s)")
    a = ap.parse_args()
    exe = a.exe
    if exe is None:
        subprocess.run(["cargo", "build", "--release", "--example", "rsm_scalability"], cwd=ROOT, check=True)
        exe = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release/examples/rsm_scalability")
    cells = doc_cells()
    have = set()
    if os.path.exists(a.out):
        for r in csv.DictReader(open(a.out)):
            have.add((int(r["i"]), int(r["j"])))
    else:
        with open(a.out, "w") as f:
            f.write(HEADER + "\n")
    plan = selected(cells, a.engine, a.all)
    todo = sorted(((i, [j for j in js if (i, j) not in have]) for i, js in plan.items()), key=lambda t: -t[0])
    todo = [(i, js) for i, js in todo if js]
    print("%d cells of %d instances to run (%d already in %s)" % (sum(len(js) for _, js in todo), len(todo), len(have), a.out), flush=True)
    lock = threading.Lock()

    def worker(shard):
        for i, js in todo[shard :: a.shards]:
            res = run_row(exe, a.engine, i, js, a.timeout)
            with lock:
                with open(a.out, "a") as f:
                    for j, status, holds, secs in res:
                        f.write("%d,%d,%d,%s,%s,%s,%s,,,,\n" % (i, j, j // 9, a.engine, status, holds, secs))
                print("instance %d: %d cells" % (i, len(res)), flush=True)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(a.shards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rerun = {}
    for r in csv.DictReader(open(a.out)):
        rerun[(int(r["i"]), int(r["j"]))] = (r["status"], r["holds"], r["seconds"])
    merged = os.path.join(os.path.dirname(a.out), "scalability-merged.csv")
    with open(merged, "w") as f:
        f.write(HEADER + "\n")
        for (i, j, e), v in sorted(cells.items()):
            if e == a.engine and (i, j) in rerun:
                v = rerun[(i, j)]
            f.write("%d,%d,%d,%s,%s,%s,%s,,,,\n" % (i, j, j // 9, e, v[0], v[1], v[2]))
    subprocess.run([sys.executable, os.path.join(ROOT, "tools/scalability_svg.py"), merged, os.path.join(ROOT, "docs/scalability.svg"),
                    os.path.join(ROOT, "docs/scalability.csv")], check=True)
    ok = [(k, float(v[2])) for k, v in rerun.items() if v[0] == "ok"]
    print("re-run %d cells: finished %d, timeout %d, skipped %d, above 1 s %d, max %.3f s" %
          (len(rerun), len(ok), sum(v[0] == "timeout" for v in rerun.values()), sum(v[0] == "skipped" for v in rerun.values()),
           sum(t > 1 for _, t in ok), max((t for _, t in ok), default=0)))


if __name__ == "__main__":
    main()
