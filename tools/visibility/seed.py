#!/usr/bin/env python3
"""First pass of the visibility sweep, before any compilation: every path `xmv_rs::a::b::C`
that the binary, tests, examples, benches, tools and fuzz targets name (in `use` trees or
inline) is made public again: each module on the way and the final item or re-export.

Usage: seed.py FILE...   (run in the repository root; edits files under src/)
This only saves compiler iterations: what it misses (methods, fields, types reached through
signatures) the compile loop (republish.py) finds; what it republishes is named outside the
crate, so the result is the same fixpoint as without it.
"""
import re
import sys

import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import republish as rp  # noqa: E402


def main():
    paths = set()
    globs = set()  # `use xmv_rs::a::b::*;`: everything module-level in a::b is named
    for f in sys.argv[1:]:
        text = open(f).read()
        text = re.sub(r"//[^\n]*", "", text)
        for m in re.finditer(r"\buse\s+(?:::)?xmv_rs\s*::\s*([^;]*);", text, re.S):
            for p in rp.expand(m.group(1), []):
                paths.add(tuple(p))
        for m in re.finditer(r"\buse\s+(?:::)?xmv_rs\s*::\s*([\w:]*?)::\s*\*\s*;", text):
            globs.add(tuple(s for s in m.group(1).split("::") if s))
        for m in re.finditer(r"(?<![\w:])xmv_rs((?:::\w+)+)", text):
            paths.add(tuple(s for s in m.group(1).split("::") if s))
    for p in sorted(paths):
        for k in range(1, len(p) + 1):
            rp.resolve_path("crate::" + "::".join(p[:k]), [])
    for g in sorted(globs):
        f = rp.module_file(list(g))
        if f is None:
            continue
        for i, line in enumerate(rp.lines_of(f)):
            if line.startswith("pub(crate) "):
                rp.mark(f, i)
                if re.match(r"pub\(crate\) use\b", line):
                    for p in rp.expand(line[len("pub(crate) use") :].rstrip(";"), []):
                        rp.follow_use(f, i, p[-1]) if p else None
    n = 0
    for f in sorted(rp.fixes):
        L = rp.lines_of(f)
        for i in sorted(rp.fixes[f]):
            if "pub(crate)" in L[i]:
                L[i] = L[i].replace("pub(crate)", "pub", 1)
                n += 1
        open(f, "w").write("\n".join(L))
    print(f"seeded {n} from {len(paths)} paths")


main()
