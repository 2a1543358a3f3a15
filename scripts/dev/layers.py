#!/usr/bin/env python3
"""Checks that src/ is layered in one direction and has no import circle.

The layers, lowest first (src/lib.rs says what each holds):
    types -> driver -> runtime -> engine -> api -> observe
A file may name (through `crate::...` paths, in `use` lines or inline) items of its own
layer and of the layers below it, never of one above. Within the crate, the files (modules)
must not name each other in a circle. Test code (`#[cfg(test)] mod tests`) counts like any.

    python3 scripts/dev/layers.py [--graph]

Prints each violation and each circle; exit status 1 if there is any. --graph prints every
edge between modules.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")
LAYERS = ["types", "driver", "runtime", "engine", "api", "observe"]


def module_of(path):
    """src/api/copy.rs -> ('api', 'api::copy'); src/observe/mod.rs -> ('observe', 'observe')."""
    rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    if rel == ["lib"]:
        return None, "crate"
    return rel[0], "::".join(rel)


def target_of(parts):
    """The module a `crate::a::b::...` path names: the longest prefix that is a module file."""
    best = None
    for n in range(1, len(parts) + 1):
        p = os.path.join(ROOT, *parts[:n])
        if os.path.isfile(p + ".rs") or os.path.isfile(os.path.join(p, "mod.rs")):
            best = "::".join(parts[:n])
    return best


def main():
    graph = "--graph" in sys.argv
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(ROOT) for f in fs if f.endswith(".rs"))
    edges = {}
    bad = []
    for f in files:
        layer, me = module_of(f)
        text = open(f).read()
        # Comments do not import.
        code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
        for m in re.finditer(r"\bcrate((?:::[A-Za-z_][A-Za-z_0-9]*)+)", code):
            parts = m.group(1).split("::")[1:]
            tgt = target_of(parts)
            if tgt is None or tgt == me:
                continue
            edges.setdefault(me, set()).add(tgt)
            tl = tgt.split("::")[0]
            if layer in LAYERS and tl in LAYERS and LAYERS.index(tl) > LAYERS.index(layer):
                line = code[: m.start()].count("\n") + 1
                bad.append("%s:%d: %s (%s) names %s (%s, a layer above)" % (os.path.relpath(f, os.path.dirname(ROOT)), line, me, layer, tgt, tl))
    # Circles: a module and its parent count as one (a folder's mod.rs and its files).
    def node(m):
        return m
    nodes = sorted(set(edges) | {t for ts in edges.values() for t in ts})
    index, low, stack, on, circles = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            # A module naming its own submodule, or a submodule its parent, is one unit.
            if w.startswith(v + "::") or v.startswith(w + "::"):
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in nodes:
        if v not in index:
            strong(v)
    if graph:
        for v in sorted(edges):
            print("%s -> %s" % (v, ", ".join(sorted(edges[v]))))
    for b in bad:
        print("LAYER " + b)
    for c in circles:
        print("CIRCLE " + " <-> ".join(c))
    n = sum(len(v) for v in edges.values())
    print("layers: %d modules, %d imports between them, %d naming a layer above, %d circles" % (len(nodes), n, len(bad), len(circles)))
    return 1 if bad or circles else 0


if __name__ == "__main__":
    sys.exit(main())
