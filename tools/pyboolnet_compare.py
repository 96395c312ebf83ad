#!/usr/bin/env python3
"""pyboolnet's own model checking against NuSMV 2.5.4 and against xmv-rs in NuSMV drop-in mode.

Creates a virtual environment (default: target/pyboolnet-venv), pip-installs pyboolnet 3.0.16 into
it, then, inside it, runs `pyboolnet.model_checking.model_checking` on every network of pyboolnet's
repository (`pyboolnet.repository.get_all_names()`), with synchronous and asynchronous updates and
the queries below, once per tool:

  - xmv-rs: a symlink named `NuSMV` to the xmv-rs binary (drop-in mode is chosen by the name);
  - NuSMV 2.5.4: the binary `$NUSMV` (skipped when NUSMV is not set).

pyboolnet runs the command in `pyboolnet.model_checking.CMD_NUSMV` (read from its
`binaries/<os>/settings.cfg`, where a value starting with `:` is a command on the PATH); this script
sets that module variable to a wrapper that runs the tool under `timeout SECS`. A query that runs
out of time (or that pyboolnet cannot read) is reported as `timeout`/`error`.

Queries (initial states: every gene off, or with --init all every state, pyboolnet's "INIT TRUE"):
  Q1  CTLSPEC EF(STEADYSTATE)          pyboolnet's default flags (-dcx -dynamic -df -coi)
  Q2  CTLSPEC AG(!STEADYSTATE)         with counterexamples (-dynamic -df): a path to a steady state
  Q3  CTLSPEC AG(EF(STEADYSTATE))      with counterexamples: a path to a state that reaches none
                                       (every counterexample pyboolnet parses is checked to be a
                                       path of the network from an initial state)
  Q4  LTLSPEC F(G(STEADYSTATE))        only with --ltl; pyboolnet's default flags
  Q5  LTLSPEC F(G(STEADYSTATE))        only with --ltl; with counterexamples: a lasso that never
                                       settles (its states, the loop's closing step included,
                                       checked to be a path of the network from an initial state)

Prints one row per query (answers, identical?, times) and a summary with medians.

    tools/pyboolnet_compare.py [--xmv target/release/xmv-rs] [--timeout 10] [--only NAME,...] [--ltl]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PYBOOLNET = "pyboolnet==3.0.16"


def ensure_venv(venv):
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    probe = subprocess.run([python, "-c", "import pyboolnet"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "-q", PYBOOLNET], check=True)
    return python


def wrapper(directory, name, command, timeout):
    """A script that runs `command` under `timeout`, keeping argv[0] as `command`'s name."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(f'#!/bin/sh\nexec timeout {timeout} "{command}" "$@"\n')
    os.chmod(path, 0o755)
    return path


def valid_path(primes, update, path, initial):
    """Whether `path` (a tuple of {gene: 0/1}) starts in `initial` and follows the network's steps."""
    from pyboolnet.state_transition_graphs import successor_synchronous, successors_asynchronous

    if not path:
        return False
    if any(set(s) != set(primes) for s in path):
        return False
    if not initial(path[0]):
        return False
    for a, b in zip(path, path[1:]):
        if update == "synchronous":
            ok = successor_synchronous(primes, a) == b
        else:
            succ = successors_asynchronous(primes, a)
            steady = successor_synchronous(primes, a) == a
            ok = b in succ or (steady and a == b)
        if not ok:
            return False
    return True


def inner(args):
    import logging

    import pyboolnet.model_checking as mc
    from pyboolnet.repository import get_all_names, get_primes

    logging.getLogger("pyboolnet").setLevel(logging.CRITICAL)
    logging.disable(logging.CRITICAL)
    tools = [("xmv-rs", args.xmv_cmd)] + ([("NuSMV", args.nusmv_cmd)] if args.nusmv_cmd else [])
    queries = [("Q1", "CTLSPEC EF(STEADYSTATE)", False), ("Q2", "CTLSPEC AG(!STEADYSTATE)", True), ("Q3", "CTLSPEC AG(EF(STEADYSTATE))", True)]
    if args.ltl:
        queries += [("Q4", "LTLSPEC F(G(STEADYSTATE))", False), ("Q5", "LTLSPEC F(G(STEADYSTATE))", True)]
    names = get_all_names()
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    rows = []
    for name in names:
        primes = get_primes(name)
        genes = sorted(primes)
        if args.init == "all":
            init = "INIT TRUE"
            initial = lambda s: True  # noqa: E731
        else:
            init = "INIT " + " & ".join(f"!{g}" for g in genes)
            initial = lambda s: all(v == 0 for v in s.values())  # noqa: E731
        for update in ["synchronous", "asynchronous"]:
            for qname, spec, cex in queries:
                row = {"network": name, "genes": len(genes), "update": update[:5], "query": qname}
                for tool, cmd in tools:
                    mc.CMD_NUSMV = cmd
                    t0 = time.perf_counter()
                    try:
                        result = mc.model_checking(primes, update, init, spec, enable_counterexample=cex)
                        status = "ok"
                    except Exception:
                        result, status = None, "error"
                    dt = time.perf_counter() - t0
                    if status == "error" and dt >= args.timeout - 0.5:
                        status = "timeout"
                    answer, path = (result[0], result[1]) if cex and result is not None else (result, None)
                    row[tool] = {"answer": answer, "status": status, "time": dt}
                    if path is not None:
                        row[tool]["cex_valid"] = valid_path(primes, update, path, initial)
                        row[tool]["cex_len"] = len(path)
                rows.append(row)
                print_row(row, tools, flush=True)
    summary(rows, tools)


def fmt_answer(r):
    if r["status"] != "ok":
        return r["status"]
    s = "true" if r["answer"] else "false"
    if "cex_valid" in r:
        s += f" cex{r['cex_len']}:{'ok' if r['cex_valid'] else 'BAD'}"
    return s


def print_row(row, tools, flush=False):
    cells = [f"{row['network']:<24}", f"{row['genes']:>4}", f"{row['update']:<6}", f"{row['query']:<3}"]
    for tool, _ in tools:
        r = row[tool]
        cells.append(f"{tool}: {fmt_answer(r):<18} {r['time']:7.3f}s")
    if len(tools) == 2:
        a, b = row[tools[0][0]], row[tools[1][0]]
        same = "-" if "ok" not in (a["status"], b["status"]) or a["status"] != b["status"] else ("same" if a["answer"] == b["answer"] else "DIFFERENT")
        cells.append(same)
    print(" | ".join(cells), flush=flush)


def summary(rows, tools):
    print()
    print(f"queries: {len(rows)}")
    for tool, _ in tools:
        rs = [r[tool] for r in rows]
        ok = [r for r in rs if r["status"] == "ok"]
        cex = [r for r in ok if "cex_valid" in r and r["answer"] is False]
        bad = [r for r in cex if not r["cex_valid"]]
        times = [r["time"] for r in ok]
        med = statistics.median(times) if times else float("nan")
        print(
            f"{tool}: answered {len(ok)}, timeout {sum(r['status'] == 'timeout' for r in rs)}, error {sum(r['status'] == 'error' for r in rs)}; "
            f"median time of answered {med:.3f}s, total {sum(times):.1f}s; counterexamples checked {len(cex)}, invalid {len(bad)}"
        )
    if len(tools) == 2:
        both = [r for r in rows if r[tools[0][0]]["status"] == "ok" and r[tools[1][0]]["status"] == "ok"]
        diff = [r for r in both if r[tools[0][0]]["answer"] != r[tools[1][0]]["answer"]]
        n_only = [r for r in rows if r[tools[1][0]]["status"] == "ok" and r[tools[0][0]]["status"] != "ok"]
        print(f"answered by both: {len(both)}, identical: {len(both) - len(diff)}, different: {len(diff)}; answered by NuSMV only: {len(n_only)}")
        t0 = [r[tools[0][0]]["time"] for r in both]
        t1 = [r[tools[1][0]]["time"] for r in both]
        if both:
            print(f"on the queries both answered: median {tools[0][0]} {statistics.median(t0):.3f}s, {tools[1][0]} {statistics.median(t1):.3f}s")
        for q in sorted({r["query"] for r in rows}):
            qs = [r for r in rows if r["query"] == q]
            qb = [r for r in qs if r[tools[0][0]]["status"] == "ok" and r[tools[1][0]]["status"] == "ok"]
            same = sum(r[tools[0][0]]["answer"] == r[tools[1][0]]["answer"] for r in qb)
            answered = [sum(r[t]["status"] == "ok" for r in qs) for t, _ in tools]
            print(f"  {q}: answered {tools[0][0]} {answered[0]}, {tools[1][0]} {answered[1]}; both {len(qb)}, identical {same}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--xmv", default=os.path.join(repo, "target", "release", "xmv-rs"))
    p.add_argument("--venv", default=os.path.join(repo, "target", "pyboolnet-venv"))
    p.add_argument("--timeout", type=float, default=10.0)
    p.add_argument("--only", help="comma-separated network names")
    p.add_argument("--ltl", action="store_true", help="also the LTL queries Q4 and Q5")
    p.add_argument("--init", choices=["zero", "all"], default="zero", help="initial states: every gene off (default) or every state")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--xmv-cmd", help=argparse.SUPPRESS)
    p.add_argument("--nusmv-cmd", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.inner:
        inner(args)
        return
    python = ensure_venv(args.venv)
    with tempfile.TemporaryDirectory(prefix="pbn-cmp-") as d:
        link = os.path.join(d, "NuSMV")
        os.symlink(os.path.abspath(args.xmv), link)
        cmd = [python, os.path.abspath(__file__), "--inner", "--timeout", str(args.timeout), "--init", args.init]
        cmd += ["--xmv-cmd", wrapper(d, "xmv-rs-timeout", link, args.timeout)]
        nusmv = os.environ.get("NUSMV")
        if nusmv:
            cmd += ["--nusmv-cmd", wrapper(d, "nusmv-timeout", os.path.abspath(nusmv), args.timeout)]
        else:
            print("NUSMV is not set: xmv-rs only", file=sys.stderr)
        if args.only:
            cmd += ["--only", args.only]
        if args.ltl:
            cmd += ["--ltl"]
        sys.exit(subprocess.run(cmd).returncode)


if __name__ == "__main__":
    main()
