#!/usr/bin/env python3
"""Toggles src/lib.rs between its normal form and the form the sweep's `cargo fix` step needs.

`hide`: every `pub mod X;` except `pub mod api;` becomes `mod X;`, and `#![allow(unused, private_interfaces, private_bounds)]`
`#![warn(unreachable_pub)]` are added, so that rustc's `unreachable_pub` lint names exactly the
`pub` items that the documented API (src/api.rs, re-exported at the crate root) does not reach
and no other lint's fix (unused imports, ...) is applied. `show` undoes exactly these edits
(each carries the MARK comment), so running the pair leaves any other change cargo fix made.
"""
import re
import sys

MARK = "// visibility-sweep: temporary"
path = "src/lib.rs"
text = open(path).read()
lines = text.split("\n")
out = []
if sys.argv[1] == "hide":
    if MARK in text:
        sys.exit("src/lib.rs already holds the sweep's temporary edits; run `libmods.py show` first")
    for line in lines:
        m = re.fullmatch(r"pub mod (\w+);", line)
        if m and m.group(1) != "api":
            out.append(f"mod {m.group(1)}; {MARK}")
            continue
        out.append(line)
    # inner attributes go after the last existing inner attribute (or the crate doc)
    last = max(i for i, l in enumerate(out) if l.startswith("#![") or l.startswith("//!"))
    out[last + 1 : last + 1] = [f"#![allow(unused, private_interfaces, private_bounds)] {MARK}", f"#![warn(unreachable_pub)] {MARK}"]
elif sys.argv[1] == "show":
    for line in lines:
        if line.endswith(MARK):
            m = re.fullmatch(r"mod (\w+); " + re.escape(MARK), line)
            if m:
                out.append(f"pub mod {m.group(1)};")
            continue
        out.append(line)
else:
    sys.exit("usage: libmods.py hide|show")
open(path, "w").write("\n".join(out))
