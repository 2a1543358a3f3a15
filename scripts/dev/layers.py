#!/usr/bin/env python3
"""Checks that src/ is layered in one direction and that no crate has an import circle.

The layers of src/, lowest first (src/lib.rs says what each holds):
    types -> driver -> runtime -> engine -> api -> observe
A file may name items of its own layer and of the layers below it, never of one above.
In every crate checked (src/ and the stand-in driver, standin/src, unless CRATE_DIRs are
given), no files may name each other in a circle.

    python3 scripts/dev/layers.py [--graph] [--layered] [--strict] [--known FILE] [CRATE_DIR...]

What counts as naming: `use` declarations (groups, nested groups, `self`, `as`, globs) and
paths in code, starting with `crate::`, `super::` (any number), `self::`, a child module or a
name a `use` bound. A path is followed module by module (`mod x;` in a file is x.rs or
x/mod.rs beside it or in its folder, `#[path]` honoured; inline `mod x { ... }`, test modules
included, are modules of their file) to the item it names; where a module only hands a name
on (`pub use`, also through a glob), the arrow goes to the file that defines it. A module's
`pub use` of its own children is its face and no arrow of its own; everything else a parent
names of its children is. Comments, strings and macro bodies' text count as code, except
comments and strings.

Prints each violation and each circle (with the names that tie each pair of files); exit
status 1 if there is any. --graph prints every arrow between files, with those names.
--layered applies the layer rule to the CRATE_DIRs given (src/ always has it). --known FILE
names circles being broken elsewhere (a line each: its files, repository paths, separated by
", "; `#` comments): each is listed as known and fails nothing while it stands, and a known
circle that is gone fails, so that the file is emptied as they go.
"""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAYERS = ["types", "driver", "runtime", "engine", "api", "observe"]
DEFAULT_CRATES = ["src", "standin/src"]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
KEYWORDS = {"crate", "super", "self", "Self"}


def strip(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            m = re.match(r'b?r(#*)"', text[i:i + 260]) if c in "br" and (i == 0 or not re.match(r"\w", text[i - 1])) else None
            if m:
                end = text.find('"' + m.group(1), i + m.end())
                end = n if end < 0 else end + 1 + len(m.group(1))
                out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
                i = end
            elif c == '"':
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                out.append('"' + re.sub(r"[^\n]", " ", text[i + 1:j]) + '"')
                i = j + 1
            elif c == "'":
                # A character literal ('x', '\n', '\u{..}'), else a lifetime or label.
                m = re.match(r"'(\\u\{[0-9a-fA-F]*\}|\\.|[^\\'])'", text[i:i + 12])
                if m:
                    out.append("' '")
                    i += m.end()
                else:
                    out.append(c)
                    i += 1
            else:
                out.append(c)
                i += 1
    return "".join(out)


class Module:
    def __init__(self, path, file, parent):
        self.path = path  # ("api", "capture") ; () for the crate root
        self.file = file  # the file it is written in
        self.parent = parent
        self.children = {}  # name -> Module
        self.defs = set()  # names of items defined here
        self.binds = {}  # name -> list of segments (as written) that a `use` binds it to
        self.globs = []  # segment lists of `use ...::*`


def split_use_tree(s):
    """`a::{b, c::d as e, f::*}` -> [(['a','b'], 'b'), (['a','c','d'], 'e'), (['a','f','*'], None)]."""
    toks = re.findall(r"::|[{},*]|\$?%s" % IDENT, s)
    out = []
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def tree(prefix):
        segs = list(prefix)
        if peek() == "::":
            take()
            if not segs:
                segs = ["::"]
        while True:
            t = peek()
            if t is None:
                break
            if t == "{":
                take()
                while peek() not in (None, "}"):
                    tree(segs)
                    if peek() == ",":
                        take()
                if peek() == "}":
                    take()
                return
            if t == "*":
                take()
                out.append((segs + ["*"], None))
                return
            if t in (",", "}"):
                break
            segs.append(take())
            if peek() == "::":
                take()
                continue
            break
        alias = None
        if peek() == "as":
            take()
            alias = take() if peek() not in (None, ",", "}") else None
        if segs and segs[-1] == "self":
            segs = segs[:-1]
        if not segs or segs == ["::"]:
            return
        out.append((segs, alias if alias is not None else segs[-1]))

    while peek() is not None:
        tree([])
        if peek() == ",":
            take()
        elif peek() is not None and peek() != ",":
            take()
    return out


class Crate:
    def __init__(self, root_dir):
        self.dir = os.path.abspath(root_dir)
        root_file = None
        for name in ("lib.rs", "main.rs"):
            if os.path.isfile(os.path.join(self.dir, name)):
                root_file = os.path.join(self.dir, name)
                break
        if root_file is None:
            raise SystemExit("layers: no lib.rs or main.rs in %s" % root_dir)
        self.modules = {}  # path tuple -> Module
        self.files = {}  # file -> (stripped text, raw text)
        self.spans = {}  # file -> [(start, end, Module)] of the modules written in it
        self.edges = {}  # (from file, to file) -> set of names
        self.lines = {}  # (from file, to file) -> first line
        self.root = self.load(root_file, (), None, os.path.dirname(root_file))

    # ---- the module tree

    def load(self, file, path, parent, subdir):
        """Reads FILE as module PATH; SUBDIR is where its `mod x;` files are."""
        with open(file) as f:
            raw = f.read()
        code = strip(raw)
        self.files[file] = (code, raw)
        top = Module(path, file, parent)
        self.modules[path] = top
        spans = [(0, len(code), top)]
        self.spans[file] = spans
        # `#[path = "..."]` on a `mod` declaration, read from the raw text.
        path_attr = {}
        for m in re.finditer(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(%s)' % IDENT, raw):
            path_attr[m.group(2)] = m.group(1)
        # Walk the braces: inline modules open and close; `mod x;` loads a file.
        stack = [(top, subdir, -1)]
        depth = 0
        token = re.compile(r"[{}]|\bmod\s+(%s)\s*([;{])" % IDENT)
        pos = 0
        while True:
            m = token.search(code, pos)
            if not m:
                break
            pos = m.end()
            cur, cur_dir, _ = stack[-1]
            if m.group(0) == "{":
                depth += 1
            elif m.group(0) == "}":
                depth -= 1
                if len(stack) > 1 and depth == stack[-1][2]:
                    mod = stack.pop()[0]
                    for k, s in enumerate(spans):
                        if s[2] is mod:
                            spans[k] = (s[0], m.end(), mod)
            elif m.group(2) == "{":
                name = m.group(1)
                child = Module(cur.path + (name,), file, cur)
                self.modules[child.path] = child
                cur.children[name] = child
                spans.append((m.start(), len(code), child))
                stack.append((child, os.path.join(cur_dir, name), depth))
                depth += 1
            else:
                name = m.group(1)
                if name in path_attr:
                    f = os.path.normpath(os.path.join(os.path.dirname(file), path_attr[name]))
                    sub = os.path.join(os.path.dirname(f), name)
                else:
                    f = os.path.join(cur_dir, name + ".rs")
                    sub = os.path.join(cur_dir, name)
                    if not os.path.isfile(f):
                        f = os.path.join(cur_dir, name, "mod.rs")
                if not os.path.isfile(f):
                    continue  # generated or absent: nothing to read
                if f.endswith("mod.rs") and name not in path_attr:
                    sub = os.path.dirname(f)
                cur.children[name] = self.load(f, cur.path + (name,), cur, sub)
        # Items, `use` declarations, per module.
        for m in re.finditer(r"\b(?:fn|struct|enum|const|static|type|trait|union)\s+(?:mut\s+)?(%s)|\bmacro_rules!\s*(%s)" % (IDENT, IDENT), code):
            self.module_at(file, m.start()).defs.add(m.group(1) or m.group(2))
        for m in re.finditer(r"\b(pub\s*(?:\([^)]*\))?\s*)?use\s+([^;]*);", code):
            mod = self.module_at(file, m.start())
            for segs, alias in split_use_tree(m.group(2)):
                if segs[-1] == "*":
                    mod.globs.append(segs[:-1])
                elif alias and alias != "_":
                    mod.binds[alias] = segs
        return top

    def module_at(self, file, offset):
        best = None
        for start, end, mod in self.spans[file]:
            if start <= offset < end and (best is None or len(mod.path) > len(best.path)):
                best = mod
        return best

    # ---- resolving a path

    def resolve(self, mod, segs, seen=None):
        """The (file, name) a path written in MOD names, or None (another crate's, or a local)."""
        seen = set() if seen is None else seen
        key = (mod.path, tuple(segs))
        if key in seen or len(seen) > 60:
            return None
        seen.add(key)
        first = segs[0]
        if first == "::":
            return None
        if first == "crate" or first == "$crate":
            return self.walk(self.root, segs[1:], seen)
        if first in ("super", "self"):
            cur, i = mod, 0
            while i < len(segs) and segs[i] in ("super", "self"):
                if segs[i] == "super":
                    cur = cur.parent
                    if cur is None:
                        return None
                i += 1
            return self.walk(cur, segs[i:], seen)
        # A name in scope: a child module, or one a `use` bound (here or in an enclosing
        # inline module of the same file? No: Rust does not look outward; only this module).
        if first in mod.children:
            return self.walk(mod, segs, seen)
        if first in mod.binds:
            return self.resolve(mod, mod.binds[first] + segs[1:], seen)
        return None

    def walk(self, cur, rest, seen):
        for k, s in enumerate(rest):
            if s in cur.children:
                cur = cur.children[s]
                continue
            if s == "*":
                return (cur.file, "*")
            if s in cur.binds:
                r = self.resolve(cur, cur.binds[s] + rest[k + 1:], seen)
                return r if r else (cur.file, s)
            if s in cur.defs:
                return (cur.file, s)
            for g in cur.globs:
                r = self.resolve(cur, g + [s], seen)
                if r and (r[1] == s) and self.defines(r[0], s):
                    return r
            return (cur.file, s)
        return (cur.file, None)  # a module itself

    def top(self, file):
        """The module path of the module a file is."""
        return self.spans[file][0][2].path

    def below(self, a, b):
        """File A is a module inside file B's module (a descendant)."""
        pa, pb = self.top(a), self.top(b)
        return len(pa) > len(pb) and pa[: len(pb)] == pb

    def defines(self, file, name):
        return any(name in mod.defs or name in mod.children for _, _, mod in self.spans[file])

    # ---- the arrows

    def scan(self):
        for file, (code, _) in self.files.items():
            uses = []
            for m in re.finditer(r"\b(pub\s*(?:\([^)]*\))?\s*)?use\s+([^;]*);", code):
                uses.append((m.start(), m.end()))
                mod = self.module_at(file, m.start())
                public = bool(m.group(1))
                for segs, alias in split_use_tree(m.group(2)):
                    r = self.resolve(mod, segs)
                    if r is None:
                        continue
                    # A module handing on its own descendants' names is its face, no arrow.
                    if public and self.below(r[0], file):
                        continue
                    if r[1] is None:
                        continue  # a module's name bound: its uses in code make the arrows
                    if segs[-1] == "*":
                        # The names the file uses of a glob's module.
                        words = set(re.findall(IDENT, code)) - set(re.findall(IDENT, m.group(0)))
                        target = self.modules.get(self.top(r[0]))
                        names = sorted(words & target.defs)[:8] if target else []
                        for n in names or ["*"]:
                            self.arrow(file, r[0], n, code, m.start())
                    else:
                        self.arrow(file, r[0], segs[-1], code, m.start())
            # Paths in code (outside `use` declarations and visibility paths).
            blank = list(code)
            for a, b in uses:
                blank[a:b] = re.sub(r"[^\n]", " ", code[a:b])
            body = re.sub(r"\bpub\s*\(\s*in\s+[^)]*\)", lambda m: " " * len(m.group(0)), "".join(blank))
            for m in re.finditer(r"(?<![A-Za-z0-9_:$])(\$?%s(?:\s*::\s*%s)+)" % (IDENT, IDENT), body):
                segs = [s.strip() for s in m.group(1).split("::")]
                mod = self.module_at(file, m.start())
                if segs[0] not in ("crate", "$crate", "super", "self") and segs[0] not in mod.children and segs[0] not in mod.binds:
                    continue
                r = self.resolve(mod, segs)
                if r is None:
                    continue
                self.arrow(file, r[0], r[1] or segs[-1], code, m.start())

    def arrow(self, a, b, name, code, offset):
        if a == b:
            return
        self.edges.setdefault((a, b), set()).add(name)
        line = code[:offset].count("\n") + 1
        if (a, b) not in self.lines or line < self.lines[(a, b)]:
            self.lines[(a, b)] = line


def circles(edges):
    """The strongly connected sets of more than one file (Tarjan)."""
    succ = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(100000)

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
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
                out.append(sorted(comp))

    for v in sorted(succ):
        if v not in index:
            strong(v)
    return out


def main(argv):
    graph = "--graph" in argv
    layered_all = "--layered" in argv
    strict = "--strict" in argv
    known = set()
    if "--known" in argv:
        k = argv.index("--known")
        with open(argv[k + 1]) as f:
            known = {tuple(sorted(x.strip() for x in line.split(","))) for line in f if line.strip() and not line.startswith("#")}
        argv = argv[:k] + argv[k + 2:]
    dirs = [a for a in argv if not a.startswith("--")] or [os.path.join(REPO, d) for d in DEFAULT_CRATES]
    rel = lambda f: os.path.relpath(f, REPO) if f.startswith(REPO + os.sep) else f
    bad, found, hubs, nfiles, narrows, known_seen = [], [], [], 0, 0, set()
    for d in dirs:
        crate = Crate(d)
        crate.scan()
        nfiles += len(crate.files)
        narrows += len(crate.edges)
        layered = layered_all or os.path.abspath(d) == os.path.join(REPO, "src")
        if graph:
            for (a, b), names in sorted(crate.edges.items()):
                print("%s -> %s: %s" % (rel(a), rel(b), ", ".join(sorted(names))))
        if layered:
            def layer(f):
                parts = os.path.relpath(f, crate.dir).split(os.sep)
                return parts[0].removesuffix(".rs") if len(parts) >= 1 and parts[0].removesuffix(".rs") in LAYERS else None

            for (a, b), names in sorted(crate.edges.items()):
                la, lb = layer(a), layer(b)
                if la and lb and LAYERS.index(lb) > LAYERS.index(la):
                    bad.append("%s:%d: names %s of %s (%s, a layer above %s)" % (rel(a), crate.lines[(a, b)], ", ".join(sorted(names)), rel(b), lb, la))
        # A module and the modules inside it (a folder's mod.rs and its files, the crate root
        # and every file) are one unit: the arrows between them close no circle, unless
        # --strict.
        inner = {e: n for e, n in crate.edges.items() if not (crate.below(*e) or crate.below(e[1], e[0]))}
        for strict_only, arrows in ((False, crate.edges if strict else inner), (True, crate.edges)):
            if strict_only and strict:
                break
            for comp in circles(arrows):
                if strict_only:
                    if sorted(comp) not in [sorted(c) for c in circles(inner)]:
                        hubs.append(comp)
                    continue
                ties = ["  %s -> %s: %s" % (rel(a), rel(b), ", ".join(sorted(n)))
                        for (a, b), n in sorted(arrows.items()) if a in comp and b in comp]
                key = tuple(sorted(rel(f) for f in comp))
                if key in known:
                    known_seen.add(key)
                    print("KNOWN CIRCLE of %d files (being broken; --known): %s" % (len(comp), ", ".join(key)))
                    continue
                found.append("CIRCLE of %d files: %s\n%s" % (len(comp), ", ".join(rel(f) for f in comp), "\n".join(ties)))
    for b in bad:
        print("LAYER " + b)
    for c in found:
        print(c)
    for k in sorted(known - known_seen):
        found.append(k)
        print("GONE: the known circle %s is no more: take it out of the --known file" % ", ".join(k))
    more = ""
    if hubs:
        more = " (and %d through a module and its own parent: --strict shows them)" % len(hubs)
    if known_seen:
        more = " (%d known, being broken)%s" % (len(known_seen), more)
    print("layers: %d files in %s, %d arrows between files, %d naming a layer above, %d circles%s"
          % (nfiles, " and ".join(rel(d) for d in dirs), narrows, len(bad), len(found), more))
    return 1 if bad or found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
