#!/usr/bin/env python3
"""One step of the visibility sweep: read `cargo check --message-format=json` output and turn
back into `pub` every `pub(crate)` that the binary, the tests, the examples, the benches or the
crate's own `pub use` re-exports need.

Usage: republish.py CHECK.json    (run in the repository root; edits files under src/)

Handled diagnostics (each names the definition that must be public again):
  E0603 (private item, module or re-export), E0624 (private method or associated item): the
      definition spans rustc attaches ("... is defined here");
  E0616 / E0451 (private field): the field `f` of every struct named `S` in src/;
  E0364 / E0365 (re-export of a crate-private item): the path in the `use` is resolved from the
      module of the `use` to the declaration or the next `use` of the chain;
  private_interfaces / private_bounds warnings: the type named in the secondary span.
Prints `republished N` and one `UNRESOLVED ...` line per diagnostic it could not map; exits 0.
"""
import json
import os
import re
import sys

ITEM_KINDS = r"(?:struct|enum|union|fn|type|trait|const|static|mod|macro)"
fixes = {}  # path -> set of 0-based line numbers holding the `pub(crate)` to widen
unresolved = []


def lines_of(path, cache={}):
    if path not in cache:
        cache[path] = open(path).read().split("\n")
    return cache[path]


def mark(path, idx):
    fixes.setdefault(path, set()).add(idx)


def is_lib_file(f):
    return f.startswith("src/") and f != "src/main.rs" and os.path.exists(f)


def use_statement_start(L, idx):
    """The line where the `use` statement containing line idx starts, or None."""
    for k in range(idx, max(-1, idx - 60), -1):
        if re.search(r"\buse\b", L[k]) and re.match(r"\s*(pub(\([^)]*\))?\s+)?use\b", L[k]):
            return k
        if k != idx and L[k].rstrip().endswith((";", "}")) and not L[k].strip().startswith("//"):
            return None
    return None


def from_span(sp, label):
    """Marks the `pub(crate)` of the item or `use` a definition span points at."""
    f = sp["file_name"]
    if not is_lib_file(f):
        return False
    L = lines_of(f)
    i = sp["line_start"] - 1
    if "pub(crate)" in L[i]:
        mark(f, i)
        return True
    k = use_statement_start(L, i)
    if k is not None and "pub(crate)" in L[k]:
        mark(f, k)
        return True
    # attributes or doc comments between the span start and the visibility (rare)
    for j in range(i, min(len(L), sp["line_end"])):
        if re.match(r"\s*pub\(crate\)", L[j]):
            mark(f, j)
            return True
    return False


def module_file(segments):
    base = os.path.join("src", *segments) if segments else "src/lib"
    for cand in (base + ".rs", os.path.join(base, "mod.rs")):
        if os.path.exists(cand):
            return cand
    return None


def module_of_file(f):
    rel = os.path.relpath(f, "src")[: -len(".rs")]
    parts = rel.split(os.sep)
    if parts[-1] == "mod" or rel in ("lib", "main"):
        parts = parts[:-1] if parts[-1] == "mod" else []
    return parts


def resolve_path(path, current, depth=0):
    """Marks the definition named by a `use` path, relative to module `current` (a list)."""
    segs = [s for s in path.replace(" ", "").split("::") if s]
    if not segs:
        return False
    name = segs[-1]
    mod = list(current)
    head = segs[:-1]
    if head and head[0] == "crate":
        mod, head = [], head[1:]
    while head and head[0] in ("self", "super"):
        if head[0] == "super":
            mod = mod[:-1]
        head = head[1:]
    mod = mod + head
    f = module_file(mod)
    if f is None:
        return False
    L = lines_of(f)
    decl = re.compile(r"\s*pub(\(crate\))?\s+(?:unsafe\s+|async\s+|const\s+)*" + ITEM_KINDS + r"\s+" + re.escape(name) + r"\b")
    for i, line in enumerate(L):
        m = decl.match(line)
        if m:
            if m.group(1):
                mark(f, i)
            return True
    word = re.compile(r"\b" + re.escape(name) + r"\b(?!\s*::)")
    for i, line in enumerate(L):
        if word.search(line):
            k = use_statement_start(L, i)
            if k is not None and re.match(r"\s*pub(\(crate\))?\s+use\b", L[k]):
                if "pub(crate)" in L[k]:
                    mark(f, k)
                    follow_use(f, k, name, depth)
                return True
    return False


def full_use_path(sp, name):
    """The whole path of `name` inside a `use` tree (`a::{b::{name}}` -> `a::b::name`)."""
    L = lines_of(sp["file_name"])
    i = sp["line_start"] - 1
    k = use_statement_start(L, i)
    if k is None:
        return None
    stmt = "\n".join(L[k : i + 1])
    pos = sum(len(x) + 1 for x in L[k:i]) + sp["column_start"] - 1
    prefix = ""
    depth = 0
    j = pos - 1
    while j >= 0:
        c = stmt[j]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                m = re.search(r"([\w:]*)::\s*$", stmt[:j])
                if m is None:
                    return None
                prefix = m.group(1) + "::" + prefix
                j = m.start()
                continue
            depth -= 1
        j -= 1
    return prefix + name


def expand(tree, prefix):
    """Expands a `use` tree (without `use` and `;`) into full paths (lists of segments)."""
    out = []
    depth = 0
    parts, cur = [], ""
    for c in tree:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    for p in parts:
        p = p.strip()
        if not p:
            continue
        m = re.match(r"^(.*?)::\s*\{(.*)\}$", p, re.S)
        if m:
            out += expand(m.group(2), prefix + [s.strip() for s in m.group(1).split("::") if s.strip()])
            continue
        p = re.sub(r"\s+as\s+\w+$", "", p)
        segs = [s.strip() for s in p.split("::") if s.strip()]
        if segs == ["self"]:
            out.append(prefix)
        elif segs and segs[-1] != "*":
            out.append(prefix + segs)
        elif segs:
            out.append(prefix + segs[:-1])
    return out


def follow_use(f, k, name, depth=0):
    """After widening the `use` at line k of f, widens what it re-exports as `name` (the
    next link of a re-export chain), so that the chain opens in one compile iteration."""
    if depth > 8:
        return
    L = lines_of(f)
    stmt = ""
    for j in range(k, min(len(L), k + 60)):
        stmt += L[j] + "\n"
        if ";" in L[j]:
            break
    m = re.match(r"\s*pub(?:\([^)]*\))?\s+use\s+(.*?);", stmt, re.S)
    if not m:
        return
    for p in expand(re.sub(r"//[^\n]*", "", m.group(1)), []):
        if p and p[-1] == name:
            resolve_path("::".join(p), module_of_file(f), depth + 1)


def field(struct, fname):
    done = False
    head = re.compile(r"\s*pub(\(crate\))?\s+struct\s+" + re.escape(struct) + r"\b")
    fld = re.compile(r"(\s*)pub\(crate\)(\s+" + re.escape(fname) + r"\s*:)")
    for root, _, files in os.walk("src"):
        for n in files:
            f = os.path.join(root, n)
            if not f.endswith(".rs") or not is_lib_file(f):
                continue
            L = lines_of(f)
            for i, line in enumerate(L):
                if head.match(line):
                    for j in range(i + 1, len(L)):
                        if fld.match(L[j]):
                            mark(f, j)
                            done = True
                            break
                        if L[j].startswith(line[: len(line) - len(line.lstrip())] + "}"):
                            break
    return done


def by_name_in_message(message):
    """Fallback for items whose spans point into a macro (`index_type!`): the type the message
    names (`type `xmv_rs::a::B` is private`, `type `B` is more private than ...`) is looked up by
    its path, or by its name when exactly one library file declares it."""
    m = re.search(r"type `([A-Za-z0-9_:]+)`", message)
    if not m:
        return False
    path = m.group(1)
    if "::" in path:
        return resolve_path(re.sub(r"^xmv_rs::", "crate::", path), [])
    decl = re.compile(r"\s*pub(\(crate\))?\s+" + ITEM_KINDS + r"\s+" + re.escape(path) + r"\b")
    hits = []
    for dirpath, _, files in os.walk("src"):
        for fn in files:
            if fn.endswith(".rs"):
                f = os.path.join(dirpath, fn)
                hits += [(f, i) for i, line in enumerate(lines_of(f)) if decl.match(line)]
    if len(hits) != 1:
        return False
    f, i = hits[0]
    if "pub(crate)" in lines_of(f)[i]:
        mark(f, i)
    return True


codes = {}


def handle(msg):
    code = (msg.get("code") or {}).get("code")
    if msg["level"] == "error" and code:
        codes[code] = codes.get(code, 0) + 1
    lint = code in ("private_interfaces", "private_bounds")
    if msg["level"] != "error" and not lint:
        return
    if msg["level"] == "error" and code is None:
        return  # "aborting due to ..." and similar
    done = False
    if code in ("E0616", "E0451"):
        m = re.search(r"field `([^`]+)` of (?:struct|union) `([^`]+)` is private", msg["message"])
        if m:
            done = field(m.group(2).split("::")[-1].split("<")[0], m.group(1))
    elif code in ("E0364", "E0365"):
        for sp in msg["spans"]:
            if sp["is_primary"] and is_lib_file(sp["file_name"]):
                text = "".join(t["text"][t["highlight_start"] - 1 : t["highlight_end"] - 1] for t in sp["text"])
                text = re.sub(r"\s+as\s+\w+$", "", text)
                if "::" not in text:
                    text = full_use_path(sp, text) or text
                done = resolve_path(text, module_of_file(sp["file_name"])) or done
    else:
        spans = [sp for sp in msg["spans"] if not sp["is_primary"]]
        spans += [sp for ch in msg.get("children", []) for sp in ch["spans"]]
        for sp in spans:
            done = from_span(sp, msg["message"]) or done
    if not done:
        done = by_name_in_message(msg["message"])
    if not done:
        where = [(s["file_name"], s["line_start"]) for s in msg["spans"] if s["is_primary"]]
        unresolved.append(f"{code}: {msg['message']} at {where}")


def main():
    for line in open(sys.argv[1]):
        try:
            m = json.loads(line)
        except ValueError:
            continue
        if m.get("reason") == "compiler-message":
            handle(m["message"])
    n = 0
    for f in sorted(fixes):
        L = lines_of(f)
        for i in sorted(fixes[f]):
            if "pub(crate)" in L[i]:
                L[i] = L[i].replace("pub(crate)", "pub", 1)
                n += 1
        open(f, "w").write("\n".join(L))
    print(f"republished {n}")
    if codes:
        print("errors:", " ".join(f"{c}x{k}" for k, c in sorted(codes.items())))
    for u in sorted(set(unresolved)):
        print("UNRESOLVED", u)


if __name__ == "__main__":
    main()
