#!/usr/bin/env python3
"""Random asynchronous Boolean networks in the SMV shape PyBoolNet 3 emits (primes2smv with
update="asynchronous"): per gene `g_IMAGE` (its update function), `g_STEADY`, `SUCCESSORS`,
`STEADYSTATE`, `next(g) := {g, g_IMAGE};` and
`TRANS STEADYSTATE | count((next(g1)!=g1), ...)=1;`.

Usage: gen_async_network.py GENES [SEED] > net.smv
Each gene gets 1-3 regulators and a random function of them in disjunctive form; seeded, so the
same arguments always give the same file. INIT TRUE: the reachable states are all 2^GENES.
"""
import random
import sys


def literal(rng, name):
    return name if rng.random() < 0.6 else "!" + name


def function(rng, names, gene):
    regs = rng.sample(names, k=min(len(names), rng.randint(1, 3)))
    terms = []
    for _ in range(rng.randint(1, 2)):
        lits = [literal(rng, r) for r in rng.sample(regs, k=rng.randint(1, len(regs)))]
        terms.append("(" + " & ".join(lits) + ")" if len(lits) > 1 else lits[0])
    return " | ".join(terms)


def main():
    genes = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed * 1000003 + genes)
    names = ["g%02d" % i for i in range(genes)]
    out = ["-- random asynchronous Boolean network, %d genes, seed %d (PyBoolNet primes2smv shape)" % (genes, seed), "", "MODULE main", "", "VAR"]
    out += ["\t%s: boolean;" % n for n in names]
    out += ["", "DEFINE"]
    out += ["\t%s_IMAGE := %s;" % (n, function(rng, names, n)) for n in names]
    out += [""]
    out += ["\t{n}_STEADY := ({n}_IMAGE = {n});".format(n=n) for n in names]
    out += [""]
    out += ["\tSUCCESSORS := count(%s);" % ", ".join("(!%s_STEADY)" % n for n in names)]
    out += ["\tSTEADYSTATE := (SUCCESSORS = 0);", "", "ASSIGN"]
    out += ["\tnext({n}) := {{{n}, {n}_IMAGE}};".format(n=n) for n in names]
    out += ["", "TRANS STEADYSTATE | count(" + ", ".join("(next(%s)!=%s)" % (n, n) for n in names) + ")=1;", "", ""]
    out += ["INIT TRUE", "", "CTLSPEC EF(STEADYSTATE)", ""]
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
