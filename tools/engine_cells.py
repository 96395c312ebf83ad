#!/usr/bin/env python3
"""Grid cells of the incremental, global, eager and lazy engines timed at several revisions.

usage: tools/engine_cells.py [--engines global,eager,lazy] [--repeat 3] [--seed 1]
                             [--instances 30,40,50] [--formulas 10,20,30,40,50]
                             [--skip ENGINE/I/J,...] REV...

Each REV (anything `git rev-parse` takes; `WORKTREE` means the working tree) is checked out in
`target/engine_cells/REV`, `examples/engine_cells.rs` of the working tree is copied into it and
built there (a target directory per revision), so every revision is timed by the same harness,
allocator and allocator options (`MIMALLOC_PURGE_DELAY=-1`, as the `xmv-rs` binary sets).
Per instance the revisions run one after the other (their order rotating), each process building
the instance once (not timed) and checking every formula under every engine REPEAT times. The
table gives the median CPU seconds of the check per revision, the ratio to the first revision,
and the geometric mean of the ratios per engine over the cells above 0.01 s. Verdicts must agree.
Issue 16's "no performance loss" table (session 23) came from this script.
"""
import argparse
import hashlib
import math
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, "target", "engine_cells")


def build(rev):
    """Builds the harness at `rev`; returns the binary's path.

    Each revision has its own target directory. With one shared directory (sessions 23 and 24
    until this was found) cargo took a revision's build for fresh when its checkout's files were
    older than another revision's outputs, and the copied binary was then the other revision's:
    a rerun compared one binary with itself. `main` also refuses two revisions whose binaries
    are byte-identical."""
    if rev == "WORKTREE":
        src, name = ROOT, "WORKTREE"
    else:
        # The checkout is named by the commit, not by `rev`: `HEAD` or a branch moves.
        name = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", rev + "^{commit}"], check=True, capture_output=True, text=True).stdout.strip()
        src = os.path.join(WORK, name)
        if not os.path.isdir(src):
            subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", src, rev], check=True, capture_output=True)
        shutil.copy(os.path.join(ROOT, "examples", "engine_cells.rs"), os.path.join(src, "examples", "engine_cells.rs"))
    target = os.path.join(WORK, "target-" + name)
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "engine_cells"], cwd=src, env=env, check=True)
    out = os.path.join(WORK, "bin", name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    shutil.copy(os.path.join(target, "release", "examples", "engine_cells"), out)
    return out


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--engines", default="global,eager,lazy")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--instances", default="30,40,50")
    ap.add_argument("--formulas", default="10,20,30,40,50")
    ap.add_argument("--skip", default="", help="cells not to run (past the grid's limit), ENGINE/I/J")
    ap.add_argument("revs", nargs="+")
    a = ap.parse_args()
    bins = {rev: build(rev) for rev in a.revs}
    seen = {}
    for rev, path in bins.items():
        with open(path, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        if digest in seen:
            sys.exit(f"engine_cells: the harnesses of {seen[digest]} and {rev} are the same binary")
        seen[digest] = rev
    skip = set(filter(None, a.skip.split(",")))
    env = dict(os.environ, MIMALLOC_PURGE_DELAY="-1")
    cells = {}  # (engine, i, j) -> {rev: (holds, cpu)}
    engines = a.engines.split(",")
    for n, i in enumerate(a.instances.split(",")):
        order = a.revs[n % len(a.revs):] + a.revs[: n % len(a.revs)]
        for rev in order:
            for engine in engines:
                js = [j for j in a.formulas.split(",") if f"{engine}/{i}/{j}" not in skip]
                if not js:
                    continue
                out = subprocess.run([bins[rev], engine, i, a.seed, str(a.repeat), *js], env=env, capture_output=True, text=True, check=True).stdout
                for line in out.splitlines():
                    e, ii, j, holds, _wall, cpu = line.split()
                    cells.setdefault((e, int(ii), int(j)), {})[rev] = (holds, float(cpu))
    base = a.revs[0]
    print("| engine | cell | verdict | " + " | ".join(f"{r} CPU s" for r in a.revs) + " | " + " | ".join(f"{r} / {base}" for r in a.revs[1:]) + " |")
    print("|---|---|---|" + "---:|" * (2 * len(a.revs) - 1))
    logs = {}
    bad = 0
    for (e, i, j), by in sorted(cells.items()):
        verdicts = {h for h, _ in by.values()}
        bad += len(verdicts) > 1
        ratios = [by[r][1] / by[base][1] for r in a.revs[1:]]
        if by[base][1] > 0.01:
            for r, q in zip(a.revs[1:], ratios):
                logs.setdefault((e, r), []).append(math.log(q))
        print(f"| {e} | {i}/{j} | {'/'.join(sorted(verdicts))} | " + " | ".join(f"{by[r][1]:.3f}" for r in a.revs) + " | " + " | ".join(f"{q:.2f}" for q in ratios) + " |")
    print()
    for (e, r), ls in sorted(logs.items()):
        print(f"geometric mean {r} / {base}, {e}: {math.exp(sum(ls) / len(ls)):.3f} over {len(ls)} cells")
    if bad:
        print(f"{bad} cells with differing verdicts", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
