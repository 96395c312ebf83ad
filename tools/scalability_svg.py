#!/usr/bin/env python3
"""Draws the scalability grid CSV of examples/rsm_scalability.rs as a hand-written SVG:
one log-scale heat map of check time over (instance i, formula j) per engine, like Fig. 3 of
Dubslaff et al. (timeouts and skipped cells crossed out), and prints a per-engine summary.

usage: scalability_svg.py GRID.csv OUT.svg
"""
import csv
import math
import statistics
import sys
from collections import defaultdict

ENGINES = ["incremental", "global", "eager", "lazy"]


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
    width = mx + 4 * (pw + gap) + 60
    height = my + ph + 80
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="16" font-size="13">Check time per engine on random RSMs (instance i = x, formula j = y; log scale %.0e–%.0e s; × = timeout/skipped)</text>' % (mx, 10 ** lo, 10 ** hi)]
    for e_idx, e in enumerate(ENGINES):
        ox = mx + e_idx * (pw + gap)
        out.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (ox, my - 6, e))
        for a, i in enumerate(iis):
            for b, j in enumerate(jjs):
                r = cells.get((i, j, e))
                x, y = ox + a * cs, my + ph - (b + 1) * cs
                if r is None:
                    continue
                if r["status"] == "ok":
                    t = max(float(r["seconds"]), 1e-6)
                    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>i=%d j=%d %s %.4f s</title></rect>' % (x, y, cs, cs, colour(t, lo, hi), i, j, e, t))
                else:
                    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#444"><title>i=%d j=%d %s %s</title></rect>' % (x, y, cs, cs, i, j, e, r["status"]))
                    out.append('<path d="M%d %dL%d %dM%d %dL%d %d" stroke="white"/>' % (x + 1, y + 1, x + cs - 1, y + cs - 1, x + cs - 1, y + 1, x + 1, y + cs - 1))
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
    print("| engine | cells run | finished | timeout | skipped | median s | mean s | max s | total s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for e in ENGINES:
        rs = [r for r in rows if r["engine"] == e]
        ok = [float(r["seconds"]) for r in rs if r["status"] == "ok"]
        n = lambda s: sum(1 for r in rs if r["status"] == s)
        if ok:
            print("| %s | %d | %d | %d | %d | %.4f | %.4f | %.3f | %.2f |" % (e, len(rs), len(ok), n("timeout"), n("skipped"), statistics.median(ok), statistics.mean(ok), max(ok), sum(ok)))
        else:
            print("| %s | %d | 0 | %d | %d | - | - | - | - |" % (e, len(rs), n("timeout"), n("skipped")))
    # agreement and lazy-vs-eager speedup on cells both finished
    by_cell = defaultdict(dict)
    for r in rows:
        by_cell[(r["i"], r["j"])][r["engine"]] = r
    agree = disagree = partial = 0
    ratios = []
    for cell, es in by_cell.items():
        v = [es[e]["holds"] for e in ENGINES if e in es and es[e]["status"] == "ok"]
        if len(set(v)) > 1:
            disagree += 1
        elif len(v) == len(ENGINES):
            agree += 1
        else:
            partial += 1
        if all(e in es and es[e]["status"] == "ok" for e in ("eager", "lazy")):
            ratios.append(max(float(es["eager"]["seconds"]), 1e-6) / max(float(es["lazy"]["seconds"]), 1e-6))
    print()
    print("cells: %d; all engines agree: %d; disagreements: %d; some engine without a verdict (the others agree): %d" % (len(by_cell), agree, disagree, partial))
    if ratios:
        print("eager/lazy time ratio on cells both finished: geometric mean %.2f, median %.2f" % (math.exp(statistics.mean(math.log(x) for x in ratios)), statistics.median(ratios)))


if __name__ == "__main__":
    main()
