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
recorded as well). The all-specs Java models are run with `-j 2` under the procedure engines
(`--all-engines`, default all five). Each run's stdout, stderr and exit code go into one file
`OUT/<model>.<engine>.<format>`. Outputs carry no timings (no `--stats`) except the JSON `time_ms`
fields, whose values the comparison ignores; everything else is compared byte for byte.

Usage: tools/identical_outputs.py --bin target/release/xmv-rs --out /tmp/before [--no-java]
       [--compare /tmp/before] [--jobs 2] [--skip REGEX]
(e.g. --skip 'pdmu\.(incremental|global)' leaves out the slowest runs, minutes each.)
"""

import argparse
import concurrent.futures
import filecmp
import glob
import os
import re
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
TIMEOUT = 300


def run(cmd, cwd):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, cwd=cwd)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


TIMING = re.compile(rb'"time_ms": [0-9.eE+-]+')


def same(a, b):
    """Byte-identical outputs, except the values of JSON `time_ms` fields (wall-clock times)."""
    if filecmp.cmp(a, b, shallow=False):
        return True
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return TIMING.sub(b'"time_ms": -', fa.read()) == TIMING.sub(b'"time_ms": -', fb.read())


def record(path, code, out, err):
    with open(path, "wb") as f:
        f.write(f"exit: {code}\n--- stdout\n".encode())
        f.write(out)
        f.write(b"\n--- stderr\n")
        f.write(err)


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
    ap.add_argument("--compare", help="a directory written by an earlier run: report files that differ")
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
        for e in ENGINES:
            for fmt in ("text", "json"):
                jobs.append((f"{name}.{e}.{fmt}", [binary, "check", "--engine", e, "-j", "1", *(["--format", "json"] if fmt == "json" else []), f]))
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

    if args.compare:
        b = set(os.listdir(args.out))
        a = set(n for n in os.listdir(args.compare) if not (args.skip and re.search(args.skip, n)))
        if args.no_java:
            a = set(n for n in a if not n.startswith("java-"))
        differ = sorted(n for n in a & b if not same(os.path.join(args.compare, n), os.path.join(args.out, n)))
        only = sorted(a ^ b)
        for n in differ:
            print("differs:", n)
        for n in only:
            print("only in one:", n)
        print(f"{len(a & b) - len(differ)} identical, {len(differ)} differ, {len(only)} in one directory only")
        sys.exit(1 if differ or only else 0)


if __name__ == "__main__":
    main()
