#!/usr/bin/env python3
"""Record the output of `xmv-rs check` on every bundled model under every engine, to compare two builds.

For a refactoring that must not change behaviour: run this once with the binary built before the
change and once after, into two directories, then `diff -r` them (or pass `--compare DIR`).

Models:
  * every `.smv` file under `specs/` and `tests/` (flat models, procedure modules, and the
    diagnostics fixtures, whose output is the diagnostics);
  * the Java data-flow models of ../shared/bench/java (as tools/java_bench.py uses them):
    each `.rsm` imported with `xmv-rs import rsm-json` under both readings (`--entry-exit stuck`
    and `return`) with its single def/use spec and with all def/use specs, and the `.pdmu`
    import. The imported `.smv` files are recorded too. They are unzipped into a fixed
    directory (`--java-dir`, default /tmp/xmv-identical-java) so that paths in the outputs do
    not differ between runs.

Runs, per model: `xmv-rs check --engine E -j 1 FILE` in text and with `--format json` (traces
on, the default), for every `--engine` value (auto explicit bdd summary incremental global eager
lazy; a procedure value on a flat model selects the default flat engine and vice versa, which is
recorded as well). A model whose first line is `-- xmv-rs: FLAGS` (tests/build's convention) is
run with those flags except `--engine`/`--format`: the max-states*/max-memory* models exceed
their `--max-states`/`--max-memory` limit by design and grow to gigabytes without it. The
tests/spec_timeout models get `--spec-timeout 0`, and its 30-bit counter only `--engine bdd`
(see EXTRA_FLAGS and ONLY_ENGINES for why). The
all-specs Java models are run with `-j 2` under the procedure engines (`--all-engines`, default
all five). Each run's stdout, stderr and exit code go into one file `OUT/<model>.<engine>.<format>`,
and `OUT/MANIFEST.sha256` lists a SHA-256 of every file. Outputs carry no timings (no `--stats`)
except the JSON `time_ms` fields, whose values the digests blank, as they blank the size of the
default memory budget (a share of the memory available at the time); everything else is compared
byte for byte.

Usage: tools/identical_outputs.py --bin target/release/xmv-rs --out /tmp/before [--no-java]
       [--compare /tmp/before | --compare /tmp/before/MANIFEST.sha256] [--jobs 2] [--skip REGEX]
(e.g. --skip 'pdmu\.(incremental|global)' leaves out the slowest runs, minutes each.)

A baseline kept for later: run the old binary once with `--out BASE`; then any later build is
compared with `--out NEW --compare BASE` (or only `BASE/MANIFEST.sha256`, a few hundred KB),
without the old binary. Use the same `--java-dir` (the imported paths appear in the outputs).
"""

import argparse
import concurrent.futures
import glob
import hashlib
import os
import re
import resource
import signal
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(ROOT, "..", "shared", "bench", "java")
if not os.path.isdir(JAVA):
    JAVA = "/work/shared/bench/java"
JAVA_MODELS = ["dataflow", "avroraReg", "avroraMedTest", "avroraELF"]
ENGINES = ["auto", "explicit", "bdd", "summary", "incremental", "global", "eager", "lazy"]
PROCEDURE_ENGINES = ["summary", "incremental", "global", "eager", "lazy"]
# The limit of one run, in CPU seconds (RLIMIT_CPU), so that a loaded machine does not turn a
# slow run into a timeout in one recording and not in the other; the wall-clock limit only
# catches a run that hangs without using CPU.
CPU_LIMIT = 300
WALL_LIMIT = 3600


def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT))


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=WALL_LIMIT, cwd=cwd, preexec_fn=limit_cpu)
        if p.returncode == -signal.SIGXCPU or p.returncode == -signal.SIGKILL:
            return "timeout", b"", b""
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


TIMING = re.compile(rb'"time_ms": [0-9.eE+-]+')


MANIFEST = "MANIFEST.sha256"


# The default memory budget is a share of the memory available at the time of the run, printed in
# E0505's and E0508's note and in E0508's headline ("does not fit in the memory budget of SIZE"): it
# differs between two runs of the same binary.
BUDGET = re.compile(rb"memory budget: [0-9.]+ [KMGT]?i?B \(--max-memory\)")
BUDGET_HEADLINE = re.compile(rb"the memory budget of [0-9.]+ [KMGT]?i?B")


def normalized(data):
    """A recorded output with what differs between two runs of one binary blanked: the values of
    JSON `time_ms` fields (wall-clock times) and the budget's size in `memory budget: SIZE
    (--max-memory)` and in `the memory budget of SIZE`.

    >>> normalized(b'error[E0508]: the state space does not fit in the memory budget of 17.7 GiB')
    b'error[E0508]: the state space does not fit in the memory budget of -'
    >>> normalized(b'= note: memory budget: 18.4 GiB (--max-memory)')
    b'= note: memory budget: - (--max-memory)'
    >>> normalized(b'{"time_ms": 12.5, "states": 3}')
    b'{"time_ms": -, "states": 3}'
    """
    data = TIMING.sub(b'"time_ms": -', data)
    data = BUDGET_HEADLINE.sub(b"the memory budget of -", data)
    return BUDGET.sub(b"memory budget: - (--max-memory)", data)


def digest(path):
    """SHA-256 of a recorded output, normalized."""
    with open(path, "rb") as f:
        return hashlib.sha256(normalized(f.read())).hexdigest()


def write_manifest(out):
    """OUT/MANIFEST.sha256: one `digest  name` line per recorded file; enough to compare a later
    build against this one (`--compare OUT/MANIFEST.sha256`) without the outputs or the old binary."""
    names = sorted(n for n in os.listdir(out) if n != MANIFEST)
    with open(os.path.join(out, MANIFEST), "w") as f:
        for n in names:
            f.write(f"{digest(os.path.join(out, n))}  {n}\n")


def read_manifest(path):
    """{name: digest} of a directory's recorded files (digested now, so that a change of
    `normalized` applies to old recordings too) or of a manifest file."""
    if os.path.isdir(path):
        return {n: digest(os.path.join(path, n)) for n in os.listdir(path) if n != MANIFEST}
    entries = {}
    with open(path) as f:
        for line in f:
            h, _, n = line.rstrip("\n").partition("  ")
            entries[n] = h
    return entries


def record(path, code, out, err):
    with open(path, "wb") as f:
        f.write(f"exit: {code}\n--- stdout\n".encode())
        f.write(out)
        f.write(b"\n--- stderr\n")
        f.write(err)


def header_flags(path):
    """The options of a model's first line `-- xmv-rs: FLAGS` (the convention of tests/build, read
    by tests/build_golden.rs), without `--engine` and `--format`, which every run sets itself.

    The limit models need theirs: tests/build/max-states*.smv and max-memory*.smv are built to
    exceed `--max-states N` / `--max-memory SIZE` and grow to gigabytes (and time out) without
    them; `-r` and the other output flags are kept so that each model is run as its test runs it."""
    with open(os.path.join(ROOT, path), "rb") as f:
        first = f.readline().decode("utf-8", "replace")
    if not first.startswith("-- xmv-rs:"):
        return []
    words = first[len("-- xmv-rs:") :].split()
    flags = []
    i = 0
    while i < len(words):
        if words[i] in ("--engine", "--format"):
            i += 2
            continue
        flags.append(words[i])
        i += 1
    return flags


# Models that are run differently from the rest, as the tests that own them run them.
# tests/spec_timeout/*.smv are written to outlast any limit (tests/spec_timeout.rs,
# tests/output_schemas.rs): they get `--spec-timeout 0` (every spec unknown: the output paths of
# the deadline), and the 30-bit counter only the BDD engine: every other `--engine` value builds
# it explicitly first, enumerating its 2^30 initial states (minutes, then the 300 s timeout).
# tests/nusmv_dropin/reorder.smv (tests/nusmv_dropin.rs runs it in drop-in mode, on BDDs) has
# 2^26 initial states: `--engine explicit` grows past 5 GB and the 300 s timeout; the other
# values pick BDDs.
EXTRA_FLAGS = {"tests/spec_timeout/": ["--spec-timeout", "0"]}
ONLY_ENGINES = {"tests/spec_timeout/counter.smv": ["bdd"], "tests/nusmv_dropin/reorder.smv": ["auto", "bdd", "summary", "incremental", "global", "eager", "lazy"]}


def model_flags(path):
    return header_flags(path) + [f for prefix, flags in EXTRA_FLAGS.items() if path.startswith(prefix) for f in flags]


def java_models(binary, java_dir):
    """Imports the Java models (once per java_dir); returns [(name, smv path, kind)]."""
    models = []
    for m in JAVA_MODELS:
        d = os.path.join(java_dir, m)
        if not os.path.isdir(d):
            with zipfile.ZipFile(os.path.join(JAVA, m + ".zip")) as z:
                z.extractall(d)
        rsm = os.path.join(d, m + ".rsm")
        for reading in ("stuck", "return"):
            for kind, ctl in (("single", m + "_single_usedef.ctl"), ("all", m + "_usedef.ctl")):
                smv = os.path.join(d, f"{m}.{reading}.{kind}.smv")
                code, _, err = run([binary, "import", "rsm-json", rsm, "--ctl", os.path.join(d, ctl), "-o", smv, "--entry-exit", reading], ROOT)
                if code != 0:
                    sys.exit(f"import of {m} failed: {err.decode()[:2000]}")
                models.append((f"java-{m}.{reading}.{kind}", smv, kind))
        smv = os.path.join(d, f"{m}.pdmu.smv")
        code, _, err = run([binary, "import", "pdmu", os.path.join(d, m + ".pdmu"), "-o", smv], ROOT)
        if code != 0:
            sys.exit(f"import of {m}.pdmu failed: {err.decode()[:2000]}")
        models.append((f"java-{m}.pdmu", smv, "single"))
    return models


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "xmv-rs"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--compare", help="a directory written by an earlier run, or its MANIFEST.sha256 alone: report outputs that differ")
    ap.add_argument("--no-java", action="store_true")
    ap.add_argument("--java-dir", default="/tmp/xmv-identical-java")
    ap.add_argument("--all-engines", default=",".join(PROCEDURE_ENGINES), help="engines for the all-specs Java models")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--skip", help="a regular expression: runs whose output name matches it are not made (nor compared)")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    os.makedirs(args.out, exist_ok=True)

    jobs = []
    files = sorted(glob.glob("specs/**/*.smv", root_dir=ROOT, recursive=True) + glob.glob("tests/**/*.smv", root_dir=ROOT, recursive=True))
    for f in files:
        name = f.replace("/", "__")
        for e in ONLY_ENGINES.get(f, ENGINES):
            for fmt in ("text", "json"):
                fmt_flags = ["--format", "json"] if fmt == "json" else []
                jobs.append((f"{name}.{e}.{fmt}", [binary, "check", "--engine", e, "-j", "1", *model_flags(f), *fmt_flags, f]))
    if not args.no_java:
        for name, smv, kind in java_models(binary, args.java_dir):
            with open(smv, "rb") as src, open(os.path.join(args.out, name + ".imported.smv"), "wb") as dst:
                dst.write(src.read())
            engines = PROCEDURE_ENGINES if kind == "single" else args.all_engines.split(",")
            for e in engines:
                if not e:
                    continue
                for fmt in ("text", "json"):
                    j = "1" if kind == "single" else "2"
                    jobs.append((f"{name}.{e}.{fmt}", [binary, "check", "--engine", e, "-j", j, *(["--format", "json"] if fmt == "json" else []), smv]))

    if args.skip:
        jobs = [j for j in jobs if not re.search(args.skip, j[0])]

    def one(job):
        name, cmd = job
        code, out, err = run(cmd, ROOT)
        record(os.path.join(args.out, name), code, out, err)
        return name, code

    timeouts = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, code in pool.map(one, jobs):
            if code == "timeout":
                timeouts.append(name)
    print(f"{len(jobs)} runs recorded in {args.out}" + (f"; timeouts: {', '.join(timeouts)}" if timeouts else ""))

    write_manifest(args.out)

    if args.compare:
        skipped = lambda n: (args.skip and re.search(args.skip, n)) or (args.no_java and n.startswith("java-"))  # noqa: E731
        before = {n: h for n, h in read_manifest(args.compare).items() if not skipped(n)}
        after = {n: h for n, h in read_manifest(args.out).items() if n != MANIFEST}
        differ = sorted(n for n in before.keys() & after.keys() if before[n] != after[n])
        only = sorted(before.keys() ^ after.keys())
        for n in differ:
            print("differs:", n)
            old = os.path.join(args.compare, n)
            if os.path.isfile(old):
                print(f"  diff {old} {os.path.join(args.out, n)}")
        for n in only:
            print("only in", "the baseline:" if n in before else "this run:", n)
        print(f"{len(before.keys() & after.keys()) - len(differ)} identical, {len(differ)} differ, {len(only)} in one only")
        sys.exit(1 if differ or only else 0)

if __name__ == "__main__":
    main()
