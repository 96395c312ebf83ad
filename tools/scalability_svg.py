#!/usr/bin/env python3
"""Draws the scalability grid CSV of examples/rsm_scalability.rs as a hand-written SVG:
one log-scale heat map of check time over (instance i, formula j) per engine, like Fig. 3 of
Dubslaff et al. (timeouts black and crossed out, skipped cells grey), and prints a per-engine
summary.

usage: scalability_svg.py GRID.csv OUT.svg [CELLS.csv]

CELLS.csv (optional) gets one line per (i, j): the verdict the engines agree on (or "DISAGREE")
and per engine the time in seconds, "timeout" or "skipped".
"""
import csv
import math
import statistics
import sys
from collections import defaultdict

ENGINES = ["incremental", "global", "eager", "lazy", "summary"]


def colour(t, lo, hi):
    """Log-scale time → colour from pale yellow (fast) to dark red (slow)."""
    x = 0.0 if hi <= lo else (math.log10(t) - lo) / (hi - lo)
    x = min(max(x, 0.0), 1.0)
    stops = [(255, 255, 204), (254, 178, 76), (240, 59, 32), (128, 0, 38)]
    k = min(int(x * 3), 2)
    f = x * 3 - k
    a, b = stops[k], stops[k + 1]
    return "#%02x%02x%02x" % tuple(int(a[c] + (b[c] - a[c]) * f) for c in range(3))


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    cells = {(int(r["i"]), int(r["j"]), r["engine"]): r for r in rows}
    iis = sorted({int(r["i"]) for r in rows})
    jjs = sorted({int(r["j"]) for r in rows})
    times = [max(float(r["seconds"]), 1e-6) for r in rows if r["status"] == "ok"]
    lo, hi = math.log10(min(times)), math.log10(max(times))
    cs = max(6, min(40, 400 // max(len(iis), len(jjs))))
    mx, my, gap = 40, 40, 30
    pw, ph = cs * len(iis), cs * len(jjs)
    width = mx + len(ENGINES) * (pw + gap) + 60
    height = my + ph + 80
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="16" font-size="13">Check time per engine on random RSMs (instance i = x, formula j = y; log scale %.0e–%.0e s; black × = timeout, grey = skipped after a timeout)</text>' % (mx, 10 ** lo, 10 ** hi)]
    for e_idx, e in enumerate(ENGINES):
        ox = mx + e_idx * (pw + gap)
        out.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (ox, my - 6, e))
        # One path per colour (times binned to 48 log-scale steps) keeps the file small.
        paths = defaultdict(list)
        crosses = []
        for a, i in enumerate(iis):
            for b, j in enumerate(jjs):
                r = cells.get((i, j, e))
                if r is None:
                    continue
                x, y = ox + a * cs, my + ph - (b + 1) * cs
                square = "M%d %dh%dv%dh-%dz" % (x, y, cs, cs, cs)
                if r["status"] == "ok":
                    t = max(float(r["seconds"]), 1e-6)
                    k = 0 if hi <= lo else round((math.log10(t) - lo) / (hi - lo) * 47)
                    paths[colour(10 ** (lo + (hi - lo) * k / 47), lo, hi)].append(square)
                elif r["status"] == "timeout":
                    paths["#222"].append(square)
                    crosses.append("M%d %dl%d %dm0 -%dl-%d %d" % (x + 1, y + 1, cs - 2, cs - 2, cs - 2, cs - 2, cs - 2))
                else:
                    paths["#ccc"].append(square)
        for fill, squares in sorted(paths.items()):
            out.append('<path fill="%s" d="%s"/>' % (fill, "".join(squares)))
        if crosses:
            out.append('<path stroke="white" d="%s"/>' % "".join(crosses))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (ox, my, pw, ph))
        for a, i in enumerate(iis):
            if len(iis) <= 12 or i % 10 == 0:
                out.append('<text x="%d" y="%d" text-anchor="middle">%d</text>' % (ox + a * cs + cs // 2, my + ph + 14, i))
        for b, j in enumerate(jjs):
            if len(jjs) <= 12 or j % 10 == 0:
                out.append('<text x="%d" y="%d" text-anchor="end">%d</text>' % (ox - 3, my + ph - b * cs - cs // 2 + 4, j))
        out.append('<text x="%d" y="%d" text-anchor="middle">i</text>' % (ox + pw // 2, my + ph + 28))
    # colour legend
    ly = my + ph + 44
    for k in range(100):
        t = 10 ** (lo + (hi - lo) * k / 99)
        out.append('<rect x="%d" y="%d" width="3" height="12" fill="%s"/>' % (mx + 3 * k, ly, colour(t, lo, hi)))
    out.append('<text x="%d" y="%d">%.0e s</text>' % (mx, ly + 26, 10 ** lo))
    out.append('<text x="%d" y="%d" text-anchor="end">%.0e s</text>' % (mx + 300, ly + 26, 10 ** hi))
    out.append('</svg>')
    open(sys.argv[2], "w").write("\n".join(out) + "\n")

    # summary
    if len(sys.argv) > 3:
        write_cells(rows, sys.argv[3])
    geo = lambda xs: math.exp(statistics.mean(math.log(max(x, 1e-6)) for x in xs))
    print("| engine | cells run | finished | timeout | skipped | median s | geo-mean s | mean s | max s | total s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for e in ENGINES:
        rs = [r for r in rows if r["engine"] == e]
        ok = [float(r["seconds"]) for r in rs if r["status"] == "ok"]
        n = lambda s: sum(1 for r in rs if r["status"] == s)
        if ok:
            print("| %s | %d | %d | %d | %d | %.4f | %.4f | %.4f | %.3f | %.1f |" % (e, len(rs), len(ok), n("timeout"), n("skipped"), statistics.median(ok), geo(ok), statistics.mean(ok), max(ok), sum(ok)))
        else:
            print("| %s | %d | 0 | %d | %d | - | - | - | - | - |" % (e, len(rs), n("timeout"), n("skipped")))
    # agreement and lazy-vs-eager speedup on cells both finished
    by_cell = defaultdict(dict)
    for r in rows:
        by_cell[(r["i"], r["j"])][r["engine"]] = r
    agree = disagree = partial = 0
    ratios = []
    both = [0.0, 0.0]
    for cell, es in by_cell.items():
        v = [es[e]["holds"] for e in ENGINES if e in es and es[e]["status"] == "ok"]
        if len(set(v)) > 1:
            disagree += 1
        elif len(v) == len(ENGINES):
            agree += 1
        else:
            partial += 1
        if all(e in es and es[e]["status"] == "ok" for e in ("eager", "lazy")):
            te, tl = float(es["eager"]["seconds"]), float(es["lazy"]["seconds"])
            ratios.append(max(te, 1e-6) / max(tl, 1e-6))
            both[0] += te
            both[1] += tl
    print()
    print("cells: %d; all engines agree: %d; disagreements: %d; some engine without a verdict (the others agree): %d" % (len(by_cell), agree, disagree, partial))
    if ratios:
        print("eager/lazy time ratio on the %d cells both finished: geometric mean %.2f, median %.2f, arithmetic mean %.2f; total eager %.1f s / total lazy %.1f s = %.2f" % (len(ratios), geo(ratios), statistics.median(ratios), statistics.mean(ratios), both[0], both[1], both[0] / max(both[1], 1e-6)))
    print("lazy faster on %d cells, eager faster on %d" % (sum(r > 1 for r in ratios), sum(r < 1 for r in ratios)))
    iis = sorted({int(r["i"]) for r in rows})
    shown = [i for i in iis if i % 5 == 0] or iis
    print()
    print("median time per instance (s, finished cells):")
    print("| i | " + " | ".join(str(i) for i in shown) + " |")
    print("|---|" + "---|" * len(shown))
    for e in ENGINES:
        meds = []
        for i in shown:
            ok = [float(r["seconds"]) for r in rows if r["engine"] == e and int(r["i"]) == i and r["status"] == "ok"]
            meds.append("%.2g" % statistics.median(ok) if ok else "-")
        print("| %s | %s |" % (e, " | ".join(meds)))


def write_cells(rows, path):
    """One line per (i, j): agreed verdict and per-engine time or status."""
    by_cell = defaultdict(dict)
    for r in rows:
        by_cell[(int(r["i"]), int(r["j"]))][r["engine"]] = r
    with open(path, "w") as f:
        f.write("i,j,holds," + ",".join(ENGINES) + "\n")
        for (i, j) in sorted(by_cell):
            es = by_cell[(i, j)]
            verdicts = {es[e]["holds"] for e in ENGINES if e in es and es[e]["status"] == "ok"}
            holds = verdicts.pop() if len(verdicts) == 1 else ("DISAGREE" if verdicts else "")
            vals = []
            for e in ENGINES:
                r = es.get(e)
                vals.append("" if r is None else r["seconds"] if r["status"] == "ok" else r["status"])
            f.write("%d,%d,%s,%s\n" % (i, j, holds, ",".join(vals)))


if __name__ == "__main__":
    main()
