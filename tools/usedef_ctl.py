#!/usr/bin/env python3
"""The def/use specs of a Java data-flow model as a CTL file for `xmv-rs import --ctl`.

One spec per variable v that has a `def__v` atom, in order of first occurrence in the model:

    A G ( ( def__v | usedef__v ) --> E F ( use__v | usedef__v ) )

(the shape of RSMCheck's `*_usedef.ctl`). The input is any text model whose atoms are written as
words (`.pds` `ATOMS` lines, `.rsm` JSON, `.pdmu`); atoms are found as `def__<name>` words not
preceded by a letter, digit or `_` (so `usedef__v` does not count as `def__v`).

Usage: tools/usedef_ctl.py model.pds > model.ctl
"""

import re
import sys

WORD = re.compile(r"(?<![A-Za-z0-9_])def__([A-Za-z0-9_$.]+)")


def variables(text):
    seen = {}
    for m in WORD.finditer(text):
        seen.setdefault(m.group(1), None)
    return list(seen)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        names = variables(f.read())
    out = ["# def/use formulas, one per variable with a def__ atom (tools/usedef_ctl.py)", ""]
    for v in names:
        out.append(f"A G ( ( def__{v} | usedef__{v} ) --> E F ( use__{v} | usedef__{v} ) )")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
