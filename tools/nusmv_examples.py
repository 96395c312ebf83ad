#!/usr/bin/env python3
"""Conformance and speed of xmv-rs against NuSMV 2.5.4 on a folder of .smv files.

For every `.smv` file below EXAMPLES (NuSMV's own `examples/` collection is the intended input;
it is not part of this repository) this runs

    NuSMV -dcx FILE                         (CTL, COMPUTE, LTL, PSL and invariant specs; no traces)
    xmv-rs check --no-trace FILE            (PSL is skipped with a warning)

as whole processes, each under a time limit, and prints one Markdown row per file: the specs,
NuSMV's exit code and seconds, xmv-rs's exit code and seconds, the ratio, and whether the verdict
lines (`-- specification …`, `-- invariant …`) are identical. `--traces` compares the whole
standard output with counterexamples instead (`NuSMV` vs `xmv-rs check`). A summary
follows: files with CTL or invariant specs that NuSMV finishes within the limit, how many xmv-rs
accepts, how many give NuSMV's verdict list, and the reasons for the rest (the first error line
of xmv-rs, or `timeout`).

NuSMV's outputs are cached in --cache (keyed by file, flags and NuSMV's size and mtime), because
some take a minute. Usage:

    tools/nusmv_examples.py --nusmv PATH/NuSMV --examples PATH/examples [--xmv target/release/xmv-rs]
                            [--timeout 60] [--xmv-args '...'] [--only SUBSTRING] [--traces]
                            [--engines auto,explicit,bdd]

`--engines` runs xmv-rs once per flat engine (`--engine E --stats`) and prints, per engine, its
exit code, wall seconds, CPU seconds (user+sys), peak MB, the ratio of CPU seconds to NuSMV's
(`NuSMV -dcx`), whether its verdicts are NuSMV's, and (for `auto`) which engine decided;
the summary counts identical verdict lists, files within 2x NuSMV's CPU seconds and files below
them, per engine. `--engines ,` runs NuSMV only (fills the cache). `--repeat N` (with `--engines`)
runs every command N times (not after a timeout), NuSMV included (its first run from the cache), and prints the median
CPU seconds, wall seconds and peak MB of the runs that finished (a timeout counts when most runs
timed out); the verdicts are those of the first run, and the summary also says whether every run
of a file gave the same verdicts and (for `auto`) the same engine.
"""

import argparse
import hashlib
import json
import os
import re
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

VERDICT = re.compile(r"^-- ((specification|invariant) .* is (true|false)|the result of .*is (\d+|infinity|undefined))$")
SPEC_KEYWORD = re.compile(r"^\s*(SPEC|CTLSPEC|INVARSPEC|LTLSPEC)\b", re.M)


def run(cmd, timeout):
    """Runs `cmd` under GNU time; returns (exit code or 'timeout', wall seconds, peak RSS in MB or None, stdout, stderr)."""
    code, wall, peak, _cpu, out, err = run_cpu(cmd, timeout)
    return code, wall, peak, out, err


def run_cpu(cmd, timeout):
    """`run` that also returns the user+sys CPU seconds (None on a timeout or without GNU time), before stdout."""
    measure = Path("/usr/bin/time").exists()
    rss_file = Path(os.environ.get("TMPDIR", "/tmp")) / f"nusmv_examples_rss_{os.getpid()}"
    full = ["/usr/bin/time", "-f", "%M", "-o", str(rss_file), *cmd] if measure else cmd
    # CPU seconds from the children's rusage (microseconds; GNU time's %U/%S have 10 ms steps). The
    # runs are sequential within this process, so the difference is this command's alone.
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    # A session of its own, so that a timeout kills the measured process and not only GNU time.
    p = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        code = "timeout"
    out, err = out.decode(errors="replace"), err.decode(errors="replace")
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = None if code == "timeout" else (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = None
    if measure and code != "timeout":
        try:
            peak = int(rss_file.read_text().split()[-1]) / 1024
        except (OSError, ValueError, IndexError):
            peak = None
    return code, wall, peak, cpu, out, err


def median_runs(cmd, timeout, repeat, first=None):
    """`run_cpu` `repeat` times (`first`: an earlier run's result to count as the first); returns the
    first run's (code, out, err) and the medians (wall, peak, cpu) of the runs that finished, or the
    first timeout when most runs timed out, plus every run's stdout (to compare verdicts)."""
    runs = [first] if first is not None else []
    # A command whose first run timed out is not repeated (a timeout costs the whole limit).
    while len(runs) < repeat and not (runs and runs[0][0] == "timeout"):
        runs.append(run_cpu(cmd, timeout))
    done = [r for r in runs if r[0] != "timeout"]
    if len(done) * 2 < len(runs):
        done = []
    pick = lambda i: statistics.median(r[i] for r in done if r[i] is not None) if any(r[i] is not None for r in done) else None
    code, out, err = (done[0][0], done[0][4], done[0][5]) if done else (runs[0][0], runs[0][4], runs[0][5])
    wall = pick(1) if done else runs[0][1]
    return code, wall, pick(2), pick(3), out, err, [r[4] for r in runs], [r[5] for r in runs]


def strip_comments(text):
    text = re.sub(r"/--.*?--/", " ", text, flags=re.S)
    return re.sub(r"--[^\n]*", "", text)


def verdicts(stdout):
    return [line.rstrip() for line in stdout.splitlines() if VERDICT.match(line.rstrip())]


def nusmv_output(args, path, flags, cache):
    st = os.stat(args.nusmv)
    # `cpu`: entries written since the cache records CPU seconds (older ones lack them).
    key = hashlib.sha256(f"{path}|{flags}|{st.st_size}|{st.st_mtime}|{args.timeout}|cpu".encode()).hexdigest()[:24]
    entry = cache / f"{key}.json"
    if entry.exists():
        return json.loads(entry.read_text())
    code, wall, peak, cpu, out, err = run_cpu([args.nusmv, *flags, str(path)], args.timeout)
    result = {"code": code, "wall": wall, "peak": peak, "cpu": cpu, "out": out, "err": err}
    entry.write_text(json.dumps(result))
    return result


def first_error(stderr):
    for line in stderr.splitlines():
        if line.startswith("error"):
            return line[:110]
    return stderr.strip().splitlines()[0][:110] if stderr.strip() else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nusmv", default=os.environ.get("NUSMV"), help="NuSMV 2.5.4 binary (default: $NUSMV)")
    ap.add_argument("--examples", default=os.environ.get("NUSMV_EXAMPLES"), help="folder of .smv files (default: $NUSMV_EXAMPLES)")
    ap.add_argument("--xmv", default="target/release/xmv-rs")
    ap.add_argument("--xmv-args", default="", help="extra arguments for `xmv-rs check`")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per process (default 60)")
    ap.add_argument("--only", default=None, help="only files whose path contains this")
    ap.add_argument("--traces", action="store_true", help="compare whole outputs with traces")
    ap.add_argument("--shard", default="0/1", help="I/N: only every N-th file starting at the I-th (run N shards side by side)")
    ap.add_argument("--cache", default="target/nusmv-examples-cache")
    ap.add_argument(
        "--skip-nusmv-timeouts", action="store_true", help="--engines: do not run xmv-rs on files where NuSMV's (cached) run timed out"
    )
    ap.add_argument("--engines", default=None, help="comma-separated flat engines to run side by side (auto,explicit,bdd)")
    ap.add_argument("--repeat", type=int, default=1, help="--engines: runs per command; medians are printed")
    args = ap.parse_args()
    if args.engines:
        return per_engine(args)
    if not args.nusmv or not args.examples:
        sys.exit("need --nusmv (or NUSMV) and --examples (or NUSMV_EXAMPLES)")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    root = Path(args.examples)
    files = sorted(p for p in root.rglob("*.smv") if args.only is None or args.only in str(p))
    shard, shards = (int(x) for x in args.shard.split("/"))
    files = files[shard::shards]
    nusmv_flags = [] if args.traces else ["-dcx"]
    xmv_flags = ["check"] + ([] if args.traces else ["--no-trace"]) + shlex.split(args.xmv_args)

    print("| file | specs | NuSMV exit | NuSMV s | NuSMV MB | xmv-rs exit | xmv-rs s | xmv-rs MB | ratio | verdicts | note |")
    print("|---|---:|---|---:|---:|---|---:|---:|---:|---|---|")
    summary = {"files": 0, "with_specs": 0, "nusmv_ok": 0, "accepted": 0, "same_verdicts": 0, "same_output": 0}
    reasons = []
    for path in files:
        rel = path.relative_to(root)
        summary["files"] += 1
        nspecs = len(SPEC_KEYWORD.findall(strip_comments(path.read_text(errors="replace"))))
        if nspecs == 0:
            continue
        summary["with_specs"] += 1
        ref = nusmv_output(args, path, nusmv_flags, cache)
        ref_verdicts = verdicts(ref["out"])
        nusmv_ok = ref["code"] == 0 and bool(ref_verdicts)
        code, wall, peak, out, err = run([args.xmv, *xmv_flags, str(path)], args.timeout)
        got = verdicts(out)
        same = nusmv_ok and got == ref_verdicts
        if nusmv_ok:
            summary["nusmv_ok"] += 1
            summary["accepted"] += code in (0, 1)
            summary["same_verdicts"] += same
            ref_text = ref["out"]
            if args.traces:
                # NuSMV's banner (lines starting `*** `) and blank lines before the first result are not ours.
                ref_text = "\n".join(l for l in ref_text.splitlines() if not l.startswith("*** ")).lstrip("\n")
                summary["same_output"] += same and ref_text.strip() == out.strip()
            else:
                summary["same_output"] += same and ref_verdicts == got
        if same:
            verdict, note = "identical", ""
        elif not nusmv_ok:
            verdict, note = "-", f"NuSMV: {ref['code']} {first_error(ref['err'])}"
        elif code == "timeout":
            verdict, note = "timeout", ""
            reasons.append((str(rel), "timeout"))
        elif code not in (0, 1):
            verdict, note = "rejected", first_error(err)
            reasons.append((str(rel), note))
        else:
            diff = sum(a != b for a, b in zip(got, ref_verdicts)) + abs(len(got) - len(ref_verdicts))
            verdict, note = f"DIFFER ({diff})", f"{len(got)} vs {len(ref_verdicts)} lines"
            reasons.append((str(rel), verdict))
        ratio = f"{wall / ref['wall']:.2f}" if nusmv_ok and code in (0, 1) and ref["wall"] > 0 else "-"
        mb = lambda x: f"{x:.0f}" if x else "-"
        print(
            f"| {rel} | {nspecs} | {ref['code']} | {ref['wall']:.2f} | {mb(ref['peak'])} | {code} | {wall:.2f} | {mb(peak)} | {ratio} | {verdict} | {note} |",
            flush=True,
        )
    print()
    print(
        f"files: {summary['files']}; with CTL/invariant specs: {summary['with_specs']}; "
        f"NuSMV finishes within {args.timeout:.0f} s: {summary['nusmv_ok']}; xmv-rs accepts: {summary['accepted']}; "
        f"identical verdict lists: {summary['same_verdicts']}"
        + (f"; identical whole output: {summary['same_output']}" if args.traces else "")
    )
    for rel, why in reasons:
        print(f"  {rel}: {why}")


DECIDED = re.compile(r"flat engine: (\w+)")
# The reachable states as the deciding engine counted them (`--stats`).
STATES = re.compile(r"flat engine: \w+, states: ([0-9.e+]+)")


def per_engine(args):
    """One row per file with one group of columns per engine (see --engines)."""
    engines = [e for e in args.engines.split(",") if e]
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    root = Path(args.examples)
    files = sorted(p for p in root.rglob("*.smv") if args.only is None or args.only in str(p))
    shard, shards = (int(x) for x in args.shard.split("/"))
    files = files[shard::shards]
    # The flags of the default mode: `-dcx`; COMPUTE, LTL and PSL specs are checked by both.
    nusmv_flags = ["-dcx"]
    head = "| file | specs | states | NuSMV s | NuSMV CPU s | NuSMV MB |" + "".join(
        f" {e} exit | {e} s | {e} CPU s | {e} MB | {e} CPU ratio | {e} verdicts |" for e in engines
    )
    print(head)
    print("|---|---:|---:|---:|---:|---:|" + "---|---:|---:|---:|---:|---|" * len(engines))
    same = {e: 0 for e in engines}
    within = {e: 0 for e in engines}
    faster = {e: 0 for e in engines}
    nusmv_ok_files = 0
    unstable = []
    num = lambda x, fmt="{:.2f}": fmt.format(x) if x is not None else "-"
    for path in files:
        nspecs = len(SPEC_KEYWORD.findall(strip_comments(path.read_text(errors="replace"))))
        if nspecs == 0:
            continue
        ref = nusmv_output(args, path, nusmv_flags, cache)
        if args.repeat > 1 and not (args.skip_nusmv_timeouts and ref["code"] == "timeout"):
            cached = (ref["code"], ref["wall"], ref["peak"], ref.get("cpu"), ref["out"], ref["err"])
            code, wall, peak, cpu, out, err, _, _ = median_runs([args.nusmv, *nusmv_flags, str(path)], args.timeout, args.repeat, cached)
            ref = {"code": code, "wall": wall, "peak": peak, "cpu": cpu, "out": out, "err": err}
        ref_verdicts = verdicts(ref["out"])
        nusmv_ok = ref["code"] == 0 and bool(ref_verdicts)
        nusmv_ok_files += bool(nusmv_ok)
        ref_cpu = ref.get("cpu")
        cells = ""
        states = None
        if args.skip_nusmv_timeouts and ref["code"] == "timeout":
            print(f"| {path.relative_to(root)} | {nspecs} | - | {ref['wall']:.2f} | - | - |" + " skipped | - | - | - | - | - |" * len(engines), flush=True)
            continue
        for e in engines:
            cmd = [args.xmv, "check", "--no-trace", "-q", "--stats", "--engine", e, *shlex.split(args.xmv_args), str(path)]
            code, wall, peak, cpu, out, err, outs, errs = median_runs(cmd, args.timeout, args.repeat)
            if len({tuple(verdicts(o)) for o in outs}) > 1 or len({str(DECIDED.findall(x)) for x in errs}) > 1:
                unstable.append(f"{path.relative_to(root)} ({e})")
            ok = nusmv_ok and verdicts(out) == ref_verdicts
            same[e] += ok
            decided = DECIDED.search(err)
            states = states or STATES.search(err)
            verdict = "identical" if ok else ("timeout" if code == "timeout" else ("-" if not nusmv_ok else f"differ ({first_error(err)})"))
            if e == "auto" and decided:
                verdict += f" ({decided.group(1)})"
            # The ratio of CPU seconds (user+sys): wall seconds on a shared machine are noisier.
            ratio = cpu / ref_cpu if nusmv_ok and code in (0, 1) and cpu is not None and ref_cpu else None
            if ratio is not None:
                within[e] += ratio <= 2.0
                faster[e] += ratio < 1.0
            cells += f" {code} | {wall:.2f} | {num(cpu)} | {num(peak, '{:.0f}')} | {num(ratio)} | {verdict} |"
        count = f"{float(states.group(1)):.3g}" if states else "-"
        print(f"| {path.relative_to(root)} | {nspecs} | {count} | {ref['wall']:.2f} | {num(ref_cpu)} | {num(ref['peak'], '{:.0f}')} |" + cells, flush=True)
    print()
    print(f"NuSMV finishes: {nusmv_ok_files}; identical verdict lists: " + ", ".join(f"{e} {n}" for e, n in same.items()))
    print("CPU seconds within 2x NuSMV's: " + ", ".join(f"{e} {n}" for e, n in within.items()))
    print("CPU seconds below NuSMV's: " + ", ".join(f"{e} {n}" for e, n in faster.items()))
    if args.repeat > 1:
        print(f"runs per command: {args.repeat} (medians); verdicts or engine differing between runs: " + (", ".join(unstable) or "none"))


if __name__ == "__main__":
    main()
