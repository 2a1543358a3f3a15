#!/usr/bin/env python3
"""ABI checks of cudart-rs against NVIDIA's CUDA runtime (see scripts/test/abi-check.sh).

Every check is driven by what our generated header declares and what our library
exports; nothing here lists individual API items.

  layout     sizeof/_Alignof/offsetof/field types of every struct and union, sizeof and
             constants of every enum, value and type of every #define, identity of every
             typedef: a probe compiled against our header and against NVIDIA's, as C (gcc)
             and as C++ (nvcc for 13, g++ for 12), whose outputs are compared.
  signatures every prototype of our header, redeclared after NVIDIA's header in C++:
             a different parameter or return type is a conflicting extern "C" declaration.
  symbols    SONAME, version definitions, version node of every export, no export NVIDIA's
             library lacks (but those the export manifest says are ours only, `nvidia = false`:
             the three make_* functions, also called through ctypes), exports.txt == the
             library's exports; coverage report.
  nvcc-link  a CUDA program (kernel, __device__, __managed__, symbol copies) built with
             nvcc -cudart shared must link against our library alone.
  headers    the rest of the host header set: C++ default arguments of every function both
             cuda_runtime_api.h declare; every macro NVIDIA's crt/host_defines.h defines for a
             host compiler expands as ours; every header of ours compiled alone as C11 and
             C++17 with -Wall -Werror (gcc, g++, clang, clang++), each device-only one stopping
             with one #error that names it.

The layout and the signatures cover the whole set: our headers are read through the one that
includes them all (cuda_runtime.h: driver_types.h, vector_types.h, library_types.h, ...), and
the probes include cuda_runtime.h, ours or NVIDIA's.

Our interop headers (cuda_gl_interop.h, cuda_egl_interop.h, cuda_vdpau_interop.h), found next to
the header checked, are checked with it: their declarations join the main header's, and every
probe includes them, ours or NVIDIA's, after cuda_runtime_api.h.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "scripts", "dev"))
import manifest  # noqa: E402 (scripts/dev/manifest.py: the export manifest build.rs writes)
CACHE = os.environ.get("CUDART_RS_NVIDIA", os.path.join(ROOT, ".cache", "nvidia"))
NVCC = os.path.join(CACHE, "cu13/nvidia/cu13/bin/nvcc")


# NVIDIA's newer runtimes of an ABI (scripts/dev/fetch-nvidia.sh), whose exports are allowed as
# well as those of the reference runtime above: the export list is the union.
NEWER_LIBS = {"13": [os.path.join(CACHE, "cu135/nvidia/cu13/lib/libcudart.so.13")]}
# The newest header of an ABI, whose per-thread #defines name what ours must for the newer
# functions ours declares (CUDA 13.5's, which 13.0's header lacks).
NEWEST_INCLUDE = {"13": os.path.join(CACHE, "cu135/nvidia/cu13/include")}


def nvidia(abi):
    if abi == "13":
        # The 13 ABI's declarations are CUDA 13.5's (a superset of 13.0's: new members take
        # reserved space); its exports are 13.0.96's and 13.5.37's (NEWER_LIBS).
        inc = [NEWEST_INCLUDE["13"], os.path.join(CACHE, "cu13/nvidia/cu13/include")]
        lib = os.path.join(CACHE, "cu13/nvidia/cu13/lib/libcudart.so.13")
        cxx = [NVCC, "-x", "c++", "-cudart", "none", "-std=c++17", "-w"]
    else:
        inc = [os.path.join(CACHE, "cu12/nvidia/cuda_runtime/include"),
               os.path.join(CACHE, "cu12/nvidia/cuda_nvcc/include")]
        lib = os.path.join(CACHE, "cu12/nvidia/cuda_runtime/lib/libcudart.so.12")
        cxx = ["g++", "-std=c++17", "-w"]
    return inc, lib, cxx


def details(problems, limit=40):
    for p in problems[:limit]:
        print("    " + p)
    if len(problems) > limit:
        print("    ... and %d more" % (len(problems) - limit))


def rel(path):
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


# ----------------------------------------------------------------------------------------
# Parsing (our header, preprocessed for one ABI; NVIDIA's, preprocessed, for completeness)
# ----------------------------------------------------------------------------------------

def preprocess_ours(header, abi, work, only_self=False):
    """Our header through the preprocessor: the #if for the ABI resolved, comments gone,
    #defines kept; only the lines that come from our headers (the header and those of its
    folder it includes; with only_self, the header's own)."""
    fake = os.path.join(work, "fakeinc")
    for h in ("stddef.h", "stdint.h", "stdbool.h", "limits.h") + GRAPHICS_HEADERS:
        os.makedirs(os.path.dirname(os.path.join(fake, h)), exist_ok=True)
        open(os.path.join(fake, h), "w").close()
    cmd = ["gcc", "-E", "-dD", "-nostdinc", "-undef", "-I", fake, "-x", "c", header]
    if abi == "12":
        cmd.insert(2, "-DCUDART_RS_ABI12")
    r = sh(cmd)
    if r.returncode:
        raise SystemExit("preprocessing our header failed:\n" + r.stderr)
    keep, cur = [], None
    # The lines of our headers: the header itself and the others of its folder it includes.
    ours = os.path.dirname(os.path.realpath(header)) + os.sep
    real = os.path.realpath(header)
    for line in r.stdout.splitlines():
        m = re.match(r'#\s+\d+\s+"([^"]*)"', line)
        if m:
            cur = os.path.realpath(m.group(1)) if not m.group(1).startswith("<") else None
            continue
        if cur and (cur == real if only_self else cur.startswith(ours)):
            keep.append(line)
    return keep


def split_top(text, sep):
    """Splits at `sep` outside (), [], {}."""
    out, depth, cur = [], 0, []
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == sep and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def declarator_name(decl):
    """The declared identifier of a C declaration (`T *x[3]`, `R (*f)(A)`, `T x`)."""
    m = re.search(r"\(\s*\*\s*(?:const\s+)?(\w+)\s*\)\s*\(", decl)
    if m:
        return m.group(1)
    d = re.sub(r"(\s*\[[^\]]*\])+\s*$", "", decl.strip())
    m = re.search(r"(\w+)\s*$", d)
    return m.group(1) if m else None


def field_type(decl, name):
    """Type text of a field declaration without its name and array bounds, or None for
    a function pointer."""
    if re.search(r"\(\s*\*", decl):
        return None
    d = re.sub(r"(\s*\[[^\]]*\])+\s*$", "", decl.strip())
    return d[: d.rfind(name)].strip()


def anonymous_member(decl):
    """The body of an anonymous struct/union member (C11: its fields are the parent's), or None."""
    m = re.match(r"\s*(?:struct|union)\s*\{(.*)\}\s*$", decl, re.S)
    return m.group(1) if m else None


def member_decls(inner):
    """[(name, declaration)] of an aggregate body; anonymous members' fields are the parent's."""
    fields = []
    for f in split_top(inner, ";"):
        body = anonymous_member(f)
        if body is not None:
            fields += member_decls(body)
            continue
        parts = split_top(f, ",") if "(" not in f else [f]
        if len(parts) > 1:  # `unsigned int x, y, z`: each declarator with the type
            first = declarator_name(parts[0])
            base = parts[0][: parts[0].rfind(first)].rstrip("* ")
            for p in parts:
                n = declarator_name(p if p is parts[0] else base + " " + p)
                if n:
                    fields.append((n, p if p is parts[0] else base + " " + p))
            continue
        n = declarator_name(f)
        if n:
            fields.append((n, f))
    return fields


# Our headers besides cuda_runtime_api.h, as NVIDIA names its own: each declares one graphics
# API's interoperability and includes that API's system headers (GRAPHICS_HEADERS). Checked
# when they lie next to the header checked (the build generates them together).
INTEROP_HEADERS = ("cuda_gl_interop.h", "cuda_egl_interop.h", "cuda_vdpau_interop.h")
GRAPHICS_HEADERS = ("GL/gl.h", "EGL/egl.h", "EGL/eglext.h", "vdpau/vdpau.h")
# Stand-ins for GRAPHICS_HEADERS (the types only), for machines without the development
# packages (libgl-dev, libegl-dev, libvdpau-dev): see ctest/syshdr/README.md.
GRAPHICS_STANDINS = os.path.join(ROOT, "ctest", "syshdr")


# The header that includes every other of the set (and NVIDIA's that includes every other host
# header of its): the layout probes include it, ours and NVIDIA's.
MAIN_HEADER = "cuda_runtime.h"


def interop_headers(header):
    """Our interop headers next to `header`, by name."""
    d = os.path.dirname(os.path.abspath(header))
    return [n for n in INTEROP_HEADERS if os.path.exists(os.path.join(d, n))]


def graphics_includes(work):
    """Compiler flags that make GRAPHICS_HEADERS available: none when the system has them all,
    else the stand-ins (said once)."""
    src = os.path.join(work, "graphics_probe.c")
    with open(src, "w") as f:
        f.write("".join("#include <%s>\n" % h for h in GRAPHICS_HEADERS))
    if sh(["gcc", "-E", src, "-o", os.devnull]).returncode == 0:
        return [], "the system's GL/EGL/VDPAU headers"
    return ["-I", GRAPHICS_STANDINS], "ctest/syshdr's stand-ins for the GL/EGL/VDPAU headers (the system has none)"


def include_lines(extra, quoted):
    return "".join(('\n#include "%s"' if quoted else "\n#include <%s>") % n for n in extra)


class Header:
    def __init__(self):
        self.defines = []      # (name, value text)
        self.aggs = {}         # key -> dict(kind, tag, name, fields=[(name, decl)])
        self.agg_order = []
        self.enums = {}        # key -> dict(tag, name, consts=[names])
        self.enum_order = []
        self.tags = []         # (kind, tag) declared opaque / self-named
        self.typedefs = []     # (name, text)
        self.funcs = []        # (name, prototype text)
        self.by_name = {}      # type name/tag -> agg key
        self.unknown = []      # declarations none of the checks understands
        self.inlines = []      # static inline helpers (not exports)


def strip_inline_functions(text, h):
    """Takes `static inline` function definitions out of the text (NVIDIA defines the same
    ones static inline in driver_functions.h: nothing is exported), naming them in h.inlines."""
    out, pos = [], 0
    for m in re.finditer(r"static\s+(?:inline|__inline__)\b[^;{}]*?(\w+)\s*\([^;{}]*\)\s*\{", text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[pos:m.start()])
        h.inlines.append(m.group(1))
        pos = i
    out.append(text[pos:])
    return " ".join(out)


def parse_ours(lines, guard_hint="_H"):
    h = Header()
    code = []
    for line in lines:
        s = line.strip()
        if s.startswith("#"):
            m = re.match(r"#\s*define\s+(\w+)(\(?)\s*(.*)$", s)
            # Not our own helpers (CUDART_RS_*) nor CUDA C++'s qualifiers and attributes
            # (__forceinline__, ...: check_host_defines compares their expansions).
            if m and re.match(r"CUDART_RS_|__\w*__$", m.group(1)):
                continue
            if m and not m.group(2) and m.group(3).strip():
                h.defines.append((m.group(1), m.group(3).strip()))
            continue
        code.append(line)
    text = " ".join(code)
    text = re.sub(r'extern\s+"C"\s*\{', " ", text)
    # GCC attributes (the vector types' alignment and deprecation): the probes measure them.
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)", " ", text)
    text = strip_inline_functions(text, h)
    for decl in split_top(text, ";"):
        decl = re.sub(r"\s+", " ", decl).strip()
        td = decl.startswith("typedef ")
        body = decl[8:] if td else decl
        m = re.match(r"(struct|union|enum)\s*(\w+)?\s*\{(.*)\}\s*(\w+)?\s*$", body, re.S)
        if m:
            kind, tag, inner, name = m.group(1), m.group(2), m.group(3), m.group(4)
            if not td:
                name = None
            key = tag or name
            if kind == "enum":
                consts = [c.split("=")[0].strip() for c in split_top(inner, ",")]
                h.enums[key] = dict(tag=tag, name=name, consts=consts)
                h.enum_order.append(key)
            else:
                fields = member_decls(inner)
                h.aggs[key] = dict(kind=kind, tag=tag, name=name, fields=fields)
                h.agg_order.append(key)
                if tag:
                    h.by_name[tag] = key
                if name:
                    h.by_name[name] = key
            continue
        m = re.match(r"(struct|union|enum) (\w+)(?: (\w+))?$", body)
        if m and (not td and m.group(3) is None or td and m.group(3) == m.group(2)):
            h.tags.append((m.group(1), m.group(2)))
            continue
        if td:
            n = declarator_name(body)
            h.typedefs.append((n, decl))
            continue
        m = re.search(r"(\w+)\s*\(", decl)
        if m and decl.startswith("static "):
            h.inlines.append(m.group(1))  # a static inline helper's prototype: no export
            continue
        if m and not re.match(r"\(\s*\*", decl[m.end():]):  # not a function pointer variable
            h.funcs.append((m.group(1), decl))
        else:
            h.unknown.append(decl)
    for name, decl in h.typedefs:  # `typedef struct X Y;`: Y names the aggregate X too
        m = re.match(r"typedef (?:const )?(?:struct |union )?(\w+) (\w+)$", decl)
        if m and m.group(1) in h.by_name:
            h.by_name.setdefault(m.group(2), h.by_name[m.group(1)])
    return h


def nvidia_field_names(inner):
    """Top-level field names of one of NVIDIA's struct/union bodies; the fields of an anonymous
    member are the parent's."""
    names = []
    for f in split_top(inner, ";"):
        body = anonymous_member(f)
        if body is not None:
            names += nvidia_field_names(body)
            continue
        f = re.sub(r"\{.*\}", " ", f, flags=re.S)
        g = re.sub(r"\[[^\]]*\]", "[]", f)  # an array bound may hold sizeof(...)
        if re.search(r"\(\s*\*", g) or "(" in g:
            parts = [f] if re.search(r"\(\s*\*", g) else []  # skip member functions
        else:
            parts = split_top(f, ",")  # `unsigned int x, y, z`
        names += [n for n in map(declarator_name, parts) if n]
    return names


def parse_nvidia_bodies(inc, abi, work, extra=(), sysinc=()):
    """Constant names of every enum and top-level field names of every struct/union NVIDIA's
    headers define (C view), by tag."""
    src = os.path.join(work, "nv_pp.c")
    with open(src, "w") as f:
        f.write("#include <%s>" % MAIN_HEADER + include_lines(extra, False) + "\n")
    r = sh(["gcc", "-E", "-P"] + list(sysinc) + sum((["-I", i] for i in inc), []) + [src])
    text = r.stdout
    enums, aggs = {}, {}
    attr = r"(?:__attribute__\s*\(\(.*?\)\)\s*)*"
    for m in re.finditer(r"\b(enum|struct|union)\s+" + attr + r"(\w+)\s*" + attr + r"\{", text):
        kind, tag = m.group(1), m.group(2)
        i, depth = m.end(), 1
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        inner = text[m.end(): i - 1]
        if kind == "enum":
            enums[tag] = [c.split("=")[0].strip() for c in split_top(inner, ",")]
        else:
            aggs[tag] = nvidia_field_names(inner)
    return enums, aggs


# ----------------------------------------------------------------------------------------
# Probe compilation with per-item error attribution
# ----------------------------------------------------------------------------------------

class Probe:
    """A program made of items, each a block of lines; compile errors are mapped back to
    the items whose lines they point at, those items are dropped, and it is compiled again."""

    def __init__(self, prelude, items, epilogue=""):
        self.prelude, self.items, self.epilogue = prelude, items, epilogue

    def render(self, keep):
        out = [self.prelude]
        spans = []
        line = self.prelude.count("\n") + 2
        for key in keep:
            body = self.items[key]
            n = body.count("\n") + 1
            spans.append((line, line + n - 1, key))
            out.append(body)
            line += n
        out.append(self.epilogue)
        return "\n".join(out) + "\n", spans

    def build(self, path, compile_cmd, link=True, max_rounds=40):
        """Returns (errors {key: message}, kept keys, binary path or None)."""
        keep = list(self.items)
        errors = {}
        exe = path + ".bin"
        for _ in range(max_rounds):
            text, spans = self.render(keep)
            with open(path, "w") as f:
                f.write(text)
            cmd = compile_cmd + [path] + ["-o", exe if link else path + ".o"] + ([] if link else ["-c"])
            r = sh(cmd)
            if r.returncode == 0:
                return errors, keep, exe if link else None
            base = os.path.basename(path)
            bad = {}
            for em in re.finditer(re.escape(base) + r":(\d+):(?:\d+:)? (?:fatal )?error:? (.*)",
                                  r.stderr + r.stdout):
                ln = int(em.group(1))
                for a, b, key in spans:
                    if a <= ln <= b:
                        bad.setdefault(key, em.group(2).strip())
            if not bad:
                raise SystemExit("probe %s does not compile (%s):\n%s" %
                                 (path, " ".join(compile_cmd), (r.stderr + r.stdout)[-3000:]))
            errors.update(bad)
            keep = [k for k in keep if k not in bad]
        raise SystemExit("probe %s: too many rounds of errors" % path)


def run_probe(exe):
    r = sh([exe])
    if r.returncode:
        raise SystemExit("probe %s failed: %s" % (exe, r.stderr))
    out = {}
    for line in r.stdout.splitlines():
        k, _, v = line.partition("\t")
        out[k] = v
    return out


def demangle(t):
    r = sh(["c++filt", "-t", t])
    return "%s (%s)" % (r.stdout.strip(), t) if r.returncode == 0 and r.stdout.strip() else t


def type_expr(h, key):
    a = h.aggs.get(key)
    if a is not None:
        return "%s %s" % (a["kind"], a["tag"]) if a["tag"] else a["name"]
    e = h.enums[key]
    return "enum %s" % e["tag"] if e["tag"] else e["name"]


def agg_of_type(h, t):
    """The aggregate key a field type names (by value), if any."""
    if t is None or "*" in t:
        return None
    t = re.sub(r"\b(const|volatile|struct|union)\b", " ", t).strip()
    return h.by_name.get(t)


def layout_items(h, cxx):
    """{key: C/C++ source block}; each block prints `key\\tvalue` lines."""
    items = {}

    def P(label, fmt, expr):
        return 'printf("%%s\\t" %s "\\n", "%s", %s);' % (fmt, label, expr)

    def T(label, typ):  # C++ only: the type as typeid spells it
        return 'printf("%%s\\t%%s\\n", "%s", typeid(%s).name());' % (label, typ)

    # Names of the types our header declares: a #define whose value is one of them is a
    # second name for that type (NVIDIA: `#define cudaStreamAttrValue cudaLaunchAttributeValue`).
    type_names = set(h.by_name) | set(n for n, _ in h.typedefs if n)
    for e in h.enums.values():
        type_names |= set(n for n in (e["tag"], e["name"]) if n)

    funcs = set(n for n, _ in h.funcs)
    for name, val in h.defines:
        lines = []
        if val in funcs:
            # A function's other name (CUDA 12's cudaGetDeviceProperties): what it expands to.
            items["define " + name] = P("#%s expands to" % name, '"%s"', "ABI_STR(%s)" % name)
            continue
        if val in type_names:
            lines.append(P("#%s sizeof" % name, '"%zu"', "sizeof(%s)" % name))
            lines.append(P("#%s alignof" % name, '"%zu"', "ABI_ALIGNOF(%s)" % name))
            if cxx:
                lines.append(T("#%s type" % name, name))
            items["define " + name] = " ".join(lines)
            continue
        if re.match(r'^(u8|L|u|U)?"', val):
            lines.append(P("#%s value" % name, '"%s"', name))
        elif re.match(r"^\(?\s*-?[\d.]+([eE][-+]?\d+)?[fFlL]?\s*\)?$", val) and re.search(r"[.eE]", val):
            lines.append(P("#%s value" % name, '"%.17g"', "(double)(%s)" % name))
        else:
            lines.append(P("#%s value" % name, '"%llu"', "(unsigned long long)(uintptr_t)(%s)" % name))
        lines.append(P("#%s sizeof" % name, '"%zu"', "sizeof(%s)" % name))
        lines.append(T("#%s type" % name, "%s" % name) if cxx else
                     P("#%s ctype" % name, '"%s"', "ABI_TY(%s)" % name))
        items["define " + name] = " ".join(lines)

    for key in h.enum_order:
        e = h.enums[key]
        t = type_expr(h, key)
        lines = [P("%s sizeof" % t, '"%zu"', "sizeof(%s)" % t),
                 P("%s alignof" % t, '"%zu"', "ABI_ALIGNOF(%s)" % t)]
        items["enum " + key] = " ".join(lines)
        for c in e["consts"]:
            lines = [P("%s::%s value" % (key, c), '"%lld"', "(long long)(%s)" % c)]
            if cxx:
                lines.append(T("%s::%s type" % (key, c), c))
            items["enum %s::%s" % (key, c)] = " ".join(lines)

    for key in h.agg_order:
        a = h.aggs[key]
        t = type_expr(h, key)
        lines = [P("%s sizeof" % t, '"%zu"', "sizeof(%s)" % t),
                 P("%s alignof" % t, '"%zu"', "ABI_ALIGNOF(%s)" % t)]
        if cxx:
            lines.append(T("%s type" % t, t))
        items["struct " + key] = " ".join(lines)

        def fields(agg, path, depth):
            for fname, decl in agg["fields"]:
                p = path + [fname]
                d = ".".join(p)
                lines = [P("%s.%s offsetof" % (t, d), '"%zu"', "offsetof(%s, %s)" % (t, d)),
                         P("%s.%s sizeof" % (t, d), '"%zu"', "sizeof(((%s *)0)->%s)" % (t, d))]
                if cxx:
                    lines.append(T("%s.%s type" % (t, d), "((%s *)0)->%s" % (t, d)))
                items["field %s.%s" % (key, d)] = " ".join(lines)
                sub = agg_of_type(h, field_type(decl, fname))
                if sub and depth < 8 and not re.search(r"\]\s*$", decl):
                    fields(h.aggs[sub], p, depth + 1)

        fields(a, [], 0)

    for kind, tag in h.tags:
        if cxx:
            items["tag %s %s" % (kind, tag)] = T("%s %s tag type" % (kind, tag), "%s %s *" % (kind, tag))
        else:
            items["tag %s %s" % (kind, tag)] = "{ %s %s *abi_p = 0; (void)abi_p; }" % (kind, tag)

    for name, decl in h.typedefs:
        if not name:
            continue
        lines = []
        if cxx:
            lines.append(T("typedef %s type" % name, "%s *" % name))
        lines.append(P("typedef %s sizeof" % name, '"%zu"', "sizeof(%s)" % name))
        items["typedef " + name] = " ".join(lines)
    return items


C_PRELUDE = r"""#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include %s
#define ABI_STR2(x) #x
#define ABI_STR(x) ABI_STR2(x)
#ifdef __cplusplus
#include <typeinfo>
#define ABI_ALIGNOF(t) alignof(t)
#else
#define ABI_ALIGNOF(t) _Alignof(t)
#define ABI_TY(x) _Generic((x), char: "char", signed char: "schar", unsigned char: "uchar", \
    short: "short", unsigned short: "ushort", int: "int", unsigned int: "uint", long: "long", \
    unsigned long: "ulong", long long: "llong", unsigned long long: "ullong", float: "float", \
    double: "double", default: "other")
#endif
int main(void) {"""


def check_layout(abi, h, nv_inc, cxx_cmd, header, work, fails, extra=(), sysinc=()):
    ours_inc = list(sysinc) + ["-I", os.path.dirname(header)]
    nv_incs = list(sysinc) + sum((["-I", i] for i in nv_inc), [])
    defs = ["-DCUDART_RS_ABI12"] if abi == "12" else []
    hname = os.path.basename(header)
    results = []
    nv_bodies = parse_nvidia_bodies(nv_inc, abi, work, extra, sysinc)
    # Our named types used only as field types, which NVIDIA's header does not name (its
    # field has an anonymous struct/union type): reported, compared through the parent.
    used = set()
    for key in h.agg_order:
        for fname, decl in h.aggs[key]["fields"]:
            sub = agg_of_type(h, field_type(decl, fname))
            if sub:
                used.add(sub)
    standins = set(k for k in used if (h.aggs[k]["tag"] or h.aggs[k]["name"]) not in nv_bodies[1])
    # What the reference header lacks is compared with the ABI's newest header (CUDA 13.5's
    # types for its new calls); C only, as 13.0's nvcc cannot parse 13.5's C++.
    newest = NEWEST_INCLUDE.get(abi)
    newer_checked = set()
    for lang, cmd, ext in (("C", ["gcc", "-std=gnu11", "-w", "-fmax-errors=0"], "c"),
                           ("C++", cxx_cmd, "cpp")):
        cxx = lang == "C++"
        items = layout_items(h, cxx)
        ours_p = Probe(C_PRELUDE % ('"%s"' % MAIN_HEADER + include_lines(extra, True)), items, "return 0; }")
        nv_p = Probe(C_PRELUDE % ("<%s>" % MAIN_HEADER + include_lines(extra, False)), items, "return 0; }")
        oerr, okeep, oexe = ours_p.build(os.path.join(work, "layout_ours.%s" % ext),
                                         cmd + defs + ours_inc)
        nerr, nkeep, nexe = nv_p.build(os.path.join(work, "layout_nv.%s" % ext), cmd + nv_incs)
        o, n = run_probe(oexe), run_probe(nexe)
        problems = []
        for k, msg in oerr.items():
            problems.append("%s: does not compile against our header: %s" % (k, msg))
        absent = {}
        for k, msg in nerr.items():
            if k in oerr:
                continue
            m = re.match(r"(?:struct|field) (\w+)", k)
            if m and m.group(1) in standins:
                continue  # a named stand-in for one of NVIDIA's anonymous nested types
            absent[k] = msg
        if absent and not cxx and newest and os.path.isdir(newest):
            nw_p = Probe(C_PRELUDE % ("<%s>" % MAIN_HEADER + include_lines(extra, False)),
                         {k: items[k] for k in absent}, "return 0; }")
            werr, _, wexe = nw_p.build(os.path.join(work, "layout_newest.%s" % ext),
                                       cmd + ["-I", newest] + nv_incs)
            w = run_probe(wexe) if wexe else {}
            for k in list(absent):
                if k not in werr:
                    del absent[k]
                    newer_checked.add(k)
            for lab, v in w.items():
                if lab in o and o[lab] != v:
                    problems.append("%s: ours %s, NVIDIA's newest header %s" % (lab, o[lab], v))
        for k, msg in absent.items():
            if cxx and k in newer_checked:
                continue  # compared with the newest header in C
            problems.append("%s: not in NVIDIA's header (%s)" % (k, msg))
        newest_text = None
        for k in o:
            if k in n and o[k] != n[k]:
                if cxx and k.endswith(" tag type") and "Z4mainE" in n[k] and newest:
                    # A tag NVIDIA's reference header does not declare (the probe declared it
                    # locally): fine if the newest header declares it.
                    if newest_text is None:
                        newest_text = "".join(open(os.path.join(newest, f)).read()
                                              for f in ("cuda_runtime_api.h", "driver_types.h")
                                              if os.path.exists(os.path.join(newest, f)))
                    if re.search(r"struct\s+%s\b" % re.escape(k.split()[1]), newest_text):
                        continue
                if k.endswith(" type") and re.search(r"Ut\d*_", n[k]):
                    continue  # NVIDIA's field has an unnamed type; its fields are compared
                if k.endswith(" type"):
                    problems.append("%s: ours %s, NVIDIA %s" % (k, demangle(o[k]), demangle(n[k])))
                else:
                    problems.append("%s: ours %s, NVIDIA %s" % (k, o[k], n[k]))
        results.append((lang, len(o), problems))
    # Completeness against NVIDIA's definitions of the same tags.
    nv_enums, nv_aggs = nv_bodies
    missing = []
    defined = set(n for n, _ in h.defines)
    for key in h.enum_order:
        e = h.enums[key]
        tag = e["tag"] or e["name"]
        if tag in nv_enums:
            # A constant Rust cannot hold in the enum (a second name for a value) may be a
            # #define of ours; its value and type are compared with the defines.
            lack = [c for c in nv_enums[tag] if c not in e["consts"] and c not in defined]
            if lack:
                missing.append("enum %s lacks %d constant(s) NVIDIA declares: %s" %
                               (tag, len(lack), " ".join(lack[:20]) + (" ..." if len(lack) > 20 else "")))
    for key in h.agg_order:
        a = h.aggs[key]
        tag = a["tag"] or a["name"]
        if tag in nv_aggs:
            ours_f = [f for f, _ in a["fields"]]
            if ours_f != nv_aggs[tag]:
                lack = [f for f in nv_aggs[tag] if f not in ours_f]
                extra = [f for f in ours_f if f not in nv_aggs[tag]]
                missing.append("%s %s fields differ from NVIDIA's: missing [%s] extra [%s]%s" %
                               (a["kind"], tag, " ".join(lack), " ".join(extra),
                                " order differs" if not lack and not extra else ""))
    nitems = len(h.defines) + sum(1 + len(h.enums[k]["consts"]) for k in h.enum_order) + \
        len(h.agg_order) + len(h.tags) + len([t for t in h.typedefs if t[0]])
    ok = True
    if newer_checked:
        print("INFO layout [%s]: %d items not in the reference header compared with NVIDIA's newest "
              "(%s): %s" % (abi, len(newer_checked), newest,
                            " ".join(sorted(set(k.split(" ")[-1].split(".")[0].split("::")[0]
                                                for k in newer_checked)))))
    if standins:
        print("INFO layout [%s]: named stand-ins for NVIDIA's anonymous nested types (checked "
              "through their parents): %s" % (abi, " ".join(sorted(standins))))
    for lang, nvals, problems in results:
        pr = problems + (missing if lang == "C" else [])
        status = "PASS" if not pr else "FAIL"
        ok &= not pr
        print("%s layout-%s [%s]: %d items (%d defines, %d enums, %d structs/unions, %d typedefs, "
              "%d tags), %d values compared%s" %
              (status, lang, abi, nitems, len(h.defines), len(h.enum_order), len(h.agg_order),
               len([t for t in h.typedefs if t[0]]), len(h.tags), nvals,
               "" if not pr else ", %d difference(s)" % len(pr)))
        details(pr)
    if not ok:
        fails.append("layout")


# ----------------------------------------------------------------------------------------
# Signatures
# ----------------------------------------------------------------------------------------

SIG_MODES = [
    ("api", "#include <cuda_runtime_api.h>", []),
    ("ptds", "#include <cuda_runtime_api.h>", ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]),
    ("host_runtime", "#include <cuda_runtime_api.h>\n#include <crt/host_runtime.h>", []),
]


def check_signatures(abi, h, nv_inc, cxx_cmd, work, fails, allow, extra=(), sysinc=()):
    nv_incs = list(sysinc) + sum((["-I", i] for i in nv_inc), [])
    # Per function: presence (decltype of ::name) then our prototype as an extern "C"
    # redeclaration. Both errors land on the function's own lines.
    items = {}
    for name, proto in h.funcs:
        items[name] = "#undef %s\ntypedef decltype(&::%s) abi_probe_%s;\nextern \"C\" %s;" % (
            name, name, name, proto)
    status = {n: {} for n, _ in h.funcs}
    # The interop headers' functions last, in a mode of their own: NVIDIA's
    # cuda_egl_interop.h includes cuda_runtime.h, whose C++ overloads of cudaMalloc and others
    # would make those names ambiguous for decltype.
    modes = SIG_MODES + ([("interop", "#include <cuda_runtime_api.h>" + include_lines(extra, False), [])]
                         if extra else [])
    for mode, inc, flags in modes:
        # A later mode only looks for what the earlier ones did not find.
        todo = {n: b for n, b in items.items()
                if not any(s == "ok" or s.startswith("conflict") for s in status[n].values())}
        if not todo:
            break
        p = Probe(inc + "\n", todo)
        errs, keep, _ = p.build(os.path.join(work, "sig_%s.cpp" % mode),
                                cxx_cmd + flags + nv_incs,
                                link=False)
        for n in todo:
            if n in keep:
                status[n][mode] = "ok"
            else:
                msg = errs.get(n, "")
                absent = "has not been declared" in msg or "was not declared" in msg
                status[n][mode] = "absent" if absent else "conflict: " + msg
    problems, undeclared, allowed = [], [], []
    for n, st in status.items():
        conflicts = [(m, s) for m, s in st.items() if s.startswith("conflict")]
        if conflicts:
            problems.append("%s: differs from NVIDIA's declaration (%s): %s" %
                            (n, conflicts[0][0], conflicts[0][1][10:]))
        elif not any(s == "ok" for s in st.values()):
            (allowed if n in allow else undeclared).append(n)
    for n in undeclared:
        problems.append("%s: not declared by NVIDIA's headers (add to scripts/test/abi/extra-exports.txt "
                        "if intended)" % n)
    st = "PASS" if not problems else "FAIL"
    print("%s signatures [%s]: %d functions, %d match NVIDIA's declarations, %d allow-listed%s" %
          (st, abi, len(status), len(status) - len(undeclared) - len(allowed) - len(
              [p for p in problems if "differs" in p]), len(allowed),
           "" if not problems else ", %d problem(s)" % len(problems)))
    details(problems)
    if problems:
        fails.append("signatures")


# ----------------------------------------------------------------------------------------
# Symbols
# ----------------------------------------------------------------------------------------

def dyn_syms(lib):
    """{name: (type, version or '', default?)} of the defined dynamic symbols."""
    r = sh(["readelf", "--dyn-syms", "-W", lib])
    syms = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0][:-1].isdigit() or f[6] == "UND" or f[4] == "LOCAL":
            continue
        if f[3] in ("SECTION", "FILE"):
            continue
        name = f[7]
        if f[6] == "ABS" and f[3] == "OBJECT" and int(f[1], 16) == 0 and "." in name:
            continue  # the symbol ld makes for a version node
        m = re.match(r"([^@]+)(@@?)(.*)$", name)
        if m:
            syms[m.group(1)] = (f[3], m.group(3), m.group(2) == "@@")
        else:
            syms[name] = (f[3], "", False)
    return syms


def soname(lib):
    m = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", sh(["readelf", "-d", lib]).stdout)
    return m.group(1) if m else None


def verdefs(lib):
    out = sh(["readelf", "-V", "-W", lib]).stdout
    sec = out.split("Version definition section")
    if len(sec) < 2:
        return []
    body = sec[1].split("Version needs section")[0]
    return [(m.group(1), m.group(2)) for m in re.finditer(r"Flags: (\S+)\s+Index: \d+\s+Cnt: \d+\s+Name: (\S+)", body)]


# Exports NVIDIA's library lacks, allowed by their declaration (`nvidia = false`, the export
# manifest's `nvidia` column: set_not_nvidias) and nothing else: make_cudaPitchedPtr,
# make_cudaPos and make_cudaExtent, which NVIDIA defines static inline in driver_functions.h
# (so C and C++ programs never link to them). Our header defines them static inline too, and
# our library also exports them, so that programs that bind it without a C compiler (ctypes,
# cffi, dlsym) can call every function of the memory management section. Each must stay out
# of the header's prototypes (one static inline definition there, `cbindgen:ignore` on the
# export) and must compute what NVIDIA's inline definition computes: check_not_nvidias()
# calls the exports through ctypes (NOT_NVIDIAS_STRUCTS: the struct each returns) and builds a
# C program against the header and library.
NOT_NVIDIAS = set()
NOT_NVIDIAS_STRUCTS = {
    "make_cudaPitchedPtr": ("cudaPitchedPtr", ["ptr", "pitch", "xsize", "ysize"]),
    "make_cudaPos": ("cudaPos", ["x", "y", "z"]),
    "make_cudaExtent": ("cudaExtent", ["width", "height", "depth"]),
}


def set_not_nvidias(abi, path):
    """NOT_NVIDIAS from the export manifest at `path`: the ABI's exports NVIDIA's library lacks."""
    NOT_NVIDIAS.update(e.name for e in manifest.read(path) if abi in e.abis and not e.nvidia)


def check_symbols(abi, lib, exports, nv_lib, h, dist, fails):
    node = "libcudart.so.%s" % abi
    problems = []
    so, nso = soname(lib), soname(nv_lib)
    if so != nso:
        problems.append("SONAME %s, NVIDIA's %s" % (so, nso))
    vd, nvd = verdefs(lib), verdefs(nv_lib)
    if vd != nvd:
        problems.append("version definitions %s, NVIDIA's %s" % (vd, nvd))
    ours, nv = dyn_syms(lib), dyn_syms(nv_lib)
    # The 13 ABI follows NVIDIA's newest 13.x runtime too: what either exports may be exported.
    for newer in NEWER_LIBS.get(abi, []):
        if os.path.exists(newer):
            nv = dict(dyn_syms(newer), **nv)
    for n in sorted(NOT_NVIDIAS):
        if n not in ours:
            problems.append("%s: not exported (allowed in NOT_NVIDIAS, the library must export it)" % n)
        if n in set(f for f, _ in h.funcs):
            problems.append("%s: declared by our header (it must be static inline there only)" % n)
        if n not in h.inlines:
            problems.append("%s: not defined static inline by our header" % n)
    for n, (typ, ver, dflt) in sorted(ours.items()):
        if n in NOT_NVIDIAS:
            if typ != "FUNC":
                problems.append("%s: symbol type %s, want FUNC" % (n, typ))
            if n in nv:
                problems.append("%s: NVIDIA's %s exports it now: drop it from NOT_NVIDIAS" %
                                (n, os.path.basename(nv_lib)))
        elif not n.startswith(("cuda", "__cuda")) or n.startswith(("_ZN", "_R", "rust_", "__rust")):
            problems.append("%s: internal symbol exported (%s)" % (n, typ))
        elif n not in nv:
            problems.append("%s: exported, but NVIDIA's %s does not export it" % (n, os.path.basename(nv_lib)))
        if ver != node or not dflt:
            problems.append("%s: version %r, want %s@@%s" % (n, ver or "(none)", n, node))
        elif n in nv and (nv[n][0] != typ):
            problems.append("%s: symbol type %s, NVIDIA's %s" % (n, typ, nv[n][0]))
    if exports is not None:
        listed = set(l.strip() for l in open(exports) if l.strip())
        for n in sorted(listed - set(ours)):
            problems.append("%s: in %s but not exported" % (n, rel(exports)))
        for n in sorted(set(ours) - listed):
            problems.append("%s: exported but not in %s" % (n, rel(exports)))
    # The committed list of what each ABI exports, the Debian symbols file (the one snapshot of
    # the ABI: dpkg-gensymbols and scripts/package/deb.sh check it too): an export that
    # disappears (or appears without the list being updated) is a change of the library's ABI.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    baseline = os.path.join(root, "packaging", "debian", "libcudart-rs%s.symbols" % abi)
    if os.path.exists(baseline):
        base = set(l.split()[0].split("@")[0] for l in open(baseline) if l.startswith(" ") and l.strip())
        for n in sorted(base - set(ours)):
            problems.append("%s: in %s, no longer exported" % (n, rel(baseline)))
        for n in sorted(set(ours) - base):
            problems.append("%s: exported, not yet in %s (scripts/package/deb.sh --symbols adds it)" % (n, rel(baseline)))
    else:
        problems.append("no export baseline %s" % rel(baseline))
    declared = set(n for n, _ in h.funcs)
    for n in sorted(declared):
        if n not in ours:
            problems.append("%s: declared by our header but not exported" % n)
    undeclared = sorted(n for n in ours if n not in declared and not n.startswith("__cuda")
                        and not re.search(r"_pt(ds|sz)$", n) and n not in NOT_NVIDIAS)
    st = "PASS" if not problems else "FAIL"
    print("%s symbols [%s]: %s, SONAME %s, %d exports all at %s, all exported by NVIDIA's too "
          "but the %d allowed (NOT_NVIDIAS)%s%s" %
          (st, abi, rel(lib), so, len(ours), node, len([n for n in ours if n in NOT_NVIDIAS]),
           ", no exports.txt to compare" if exports is None else ", == %s" % rel(exports),
           "" if not problems else " -- %d problem(s)" % len(problems)))
    details(problems)
    if problems:
        fails.append("symbols")
    if undeclared:
        print("INFO symbols [%s]: %d export(s) our header does not declare: %s" %
              (abi, len(undeclared), " ".join(undeclared[:30]) + (" ..." if len(undeclared) > 30 else "")))
    nv_funcs = sorted(n for n, v in nv.items() if v[0] == "FUNC")
    lack = [n for n in nv_funcs if n not in ours]
    have = len(nv_funcs) - len(lack)
    pct = 100.0 * have / len(nv_funcs) if nv_funcs else 0.0
    os.makedirs(dist, exist_ok=True)
    path = os.path.join(dist, "coverage-%s.txt" % abi)
    with open(path, "w") as f:
        f.write("# %s: %d of NVIDIA's %d exported functions (%.1f%%); %d missing:\n" %
                (node, have, len(nv_funcs), pct, len(lack)))
        f.write("".join(n + "\n" for n in lack))
    print("INFO coverage [%s]: %d/%d of NVIDIA's exported functions (%.1f%%), %d missing -> %s" %
          (abi, have, len(nv_funcs), pct, len(lack), rel(path)))


# ----------------------------------------------------------------------------------------
# The exports NVIDIA lacks (NOT_NVIDIAS)
# ----------------------------------------------------------------------------------------

NOT_NVIDIAS_C = r"""#include <stdio.h>
#include <string.h>
#include "cuda_runtime_api.h"
/* Only the header: its static inline make_* functions, no declarations of ours. */
int main(void) {
    char buf[4];
    struct cudaPitchedPtr p = make_cudaPitchedPtr(buf, 11, 12, 13);
    struct cudaPos q = make_cudaPos(21, 22, 23);
    struct cudaExtent e = make_cudaExtent(31, 32, 33);
    int ok = p.ptr == buf && p.pitch == 11 && p.xsize == 12 && p.ysize == 13 && q.x == 21 &&
             q.y == 22 && q.z == 23 && e.width == 31 && e.height == 32 && e.depth == 33;
    int v = 0;
    printf("%s\n", ok && cudaRuntimeGetVersion(&v) == cudaSuccess && v > 0 ? "ok" : "wrong");
    return !ok;
}
"""


def check_not_nvidias(abi, lib, header, work, fails):
    """Calls the NOT_NVIDIAS exports through ctypes (as a program without a C compiler binds
    them), and builds, links and runs a C program that includes our header and defines nothing
    else: its make_* calls must bind to the header's static inline definitions, not the
    library's exports, and nothing may clash."""
    import ctypes
    problems = []
    sz = ctypes.c_size_t
    try:
        dl = ctypes.CDLL(os.path.abspath(lib), mode=os.RTLD_LOCAL | os.RTLD_NOW)
    except OSError as e:
        dl = None
        problems.append("ctypes cannot load %s: %s" % (rel(lib), e))
    if dl is not None:
        buf = ctypes.create_string_buffer(8)
        cases = {
            "make_cudaPitchedPtr": ([ctypes.c_void_p, sz, sz, sz], [ctypes.addressof(buf), 7, 1 << 40, 3],
                                    [ctypes.addressof(buf), 7, 1 << 40, 3]),
            "make_cudaPos": ([sz, sz, sz], [1, (1 << 64) - 1, 0], [1, (1 << 64) - 1, 0]),
            "make_cudaExtent": ([sz, sz, sz], [640, 480, 1 << 33], [640, 480, 1 << 33]),
        }
        for n in sorted(NOT_NVIDIAS):
            if n not in cases or n not in NOT_NVIDIAS_STRUCTS:
                problems.append("%s: no ctypes case for it (NOT_NVIDIAS_STRUCTS and the cases in "
                                "scripts/test/abi/check.py)" % n)
                continue
            tag, fields = NOT_NVIDIAS_STRUCTS[n]
            argtypes, args, want = cases[n]
            types = [ctypes.c_void_p] + [sz] * (len(fields) - 1) if tag == "cudaPitchedPtr" else [sz] * len(fields)
            S = type(tag, (ctypes.Structure,), {"_fields_": list(zip(fields, types))})
            try:
                fn = getattr(dl, n)
            except AttributeError:
                problems.append("%s: dlsym finds nothing" % n)
                continue
            fn.argtypes, fn.restype = argtypes, S
            r = fn(*args)
            got = [getattr(r, f) or 0 for f in fields]
            if got != want:
                problems.append("%s%s returned %s, want %s" % (n, tuple(args), got, want))
    src = os.path.join(work, "not_nvidias.c")
    exe = os.path.join(work, "not_nvidias")
    with open(src, "w") as f:
        f.write(NOT_NVIDIAS_C)
    libdir = os.path.join(work, "nnlib")
    os.makedirs(libdir, exist_ok=True)
    link = os.path.join(libdir, "libcudart.so.%s" % abi)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.path.abspath(lib), link)
    defs = ["-DCUDART_RS_ABI12"] if abi == "12" else []
    r = sh(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O0"] + defs +
           ["-I", os.path.dirname(os.path.abspath(header)), src, "-o", exe, link,
            "-Wl,--no-undefined", "-Wl,-rpath," + libdir])
    if r.returncode:
        problems.append("a C program that includes our header does not build:\n" + r.stderr[-1500:])
    else:
        und = [l.split()[-1] for l in sh(["nm", "-u", exe]).stdout.splitlines()]
        bound = sorted(n for n in und if n.split("@")[0] in NOT_NVIDIAS)
        if bound:
            problems.append("the C program binds to the library's %s instead of the header's "
                            "static inline definitions" % " ".join(bound))
        out = sh([exe])
        if out.returncode or out.stdout.strip() != "ok":
            problems.append("the C program printed %r (status %d), want 'ok'" %
                            (out.stdout.strip(), out.returncode))
    st = "PASS" if not problems else "FAIL"
    print("%s not-nvidias [%s]: %s called through ctypes; a C program with only our header "
          "builds, links and uses the static inline ones%s" %
          (st, abi, ", ".join(sorted(NOT_NVIDIAS)), "" if not problems else " -- %d problem(s)" % len(problems)))
    details(problems)
    if problems:
        fails.append("not-nvidias")


# ----------------------------------------------------------------------------------------
# nvcc link
# ----------------------------------------------------------------------------------------

def check_nvcc_link(lib, work, fails):
    src = os.path.join(HERE, "link_probe.cu")
    libdir = os.path.join(work, "linklib")
    os.makedirs(libdir, exist_ok=True)
    # Only our library and NVIDIA's static device runtime (nvcc links -lcudadevrt).
    links = {"libcudart.so": os.path.abspath(lib), "libcudart.so.13": os.path.abspath(lib),
             "libcudadevrt.a": os.path.join(CACHE, "cu13/nvidia/cu13/lib/libcudadevrt.a")}
    for n, target in links.items():
        p = os.path.join(libdir, n)
        if os.path.lexists(p):
            os.unlink(p)
        os.symlink(target, p)
    obj = os.path.join(work, "link_probe.o")
    exe = os.path.join(work, "link_probe")
    r = sh([NVCC, "-cudart", "shared", "-arch=sm_90", "-c", src, "-o", obj])
    if r.returncode:
        print("FAIL nvcc-link [13]: nvcc could not compile %s:\n%s" % (src, r.stderr[-2000:]))
        fails.append("nvcc-link")
        return
    need = sorted(set(l.split()[-1] for l in sh(["nm", "-u", obj]).stdout.splitlines()
                      if re.match(r"\s*U\s+_*cuda", l)))
    ours = dyn_syms(lib)
    lack = [n for n in need if n not in ours]
    r = sh([NVCC, "-cudart", "shared", "-arch=sm_90", obj, "-o", exe, "-L" + libdir,
            "-Xlinker", "--no-undefined", "-Xlinker", "-rpath-link=" + libdir])
    problems = []
    reg = [n for n in lack if n.startswith("__cuda")]
    api = [n for n in lack if not n.startswith("__cuda")]
    if reg:
        problems.append("lacks %d registration/launch symbol(s) nvcc-generated code calls: %s" %
                        (len(reg), " ".join(reg)))
    if api:
        problems.append("lacks %d runtime API function(s) the program calls: %s" %
                        (len(api), " ".join(api)))
    if r.returncode:
        undefined = sorted(set(re.findall(r"undefined reference to `([^']+)'", r.stderr)))
        problems.append("link failed%s" % (": undefined " + " ".join(undefined) if undefined
                                           else ":\n" + r.stderr[-1500:]))
    else:
        dyn = sh(["readelf", "--dyn-syms", "-W", exe]).stdout
        bound = re.findall(r"UND (_*cuda\w*)@(\S+)", dyn)
        wrong = ["%s@%s" % b for b in bound if b[1].split()[0] != "libcudart.so.13"]
        if wrong:
            problems.append("bound to the wrong version: " + " ".join(wrong))
    if problems:
        print("FAIL nvcc-link [13]: program with kernel/__device__/__managed__ linked against our "
              "libcudart.so.13")
        details(problems)
        fails.append("nvcc-link")
    else:
        print("PASS nvcc-link [13]: nvcc -cudart shared program links against our library alone; "
              "%d libcudart symbols, all at libcudart.so.13" % len(need))


# ----------------------------------------------------------------------------------------
# Names: what a call is compiled to (NVIDIA's header #defines some names to others)
# ----------------------------------------------------------------------------------------

def check_names(abi, header, nv_inc, h, work, fails):
    """Each function name of either header, written in a program, must become the same symbol
    with our header as with NVIDIA's: plainly and with CUDA_API_PER_THREAD_DEFAULT_STREAM
    (nvcc's --default-stream per-thread). Known exception: in the 12 ABI, NVIDIA's header
    declares no `_v2` name of its three renamed functions in per-thread mode; ours calls their
    `_ptsz` forms there."""
    names = sorted(n for n, _ in h.funcs if not n.startswith("__"))
    newest = NEWEST_INCLUDE.get(abi)
    if newest and os.path.isfile(os.path.join(newest, "cuda_runtime_api.h")):
        nv_inc = [newest] + list(nv_inc)
    nv_text = "\n".join(open(os.path.join(nv_inc[0], "cuda_runtime_api.h"), errors="replace").read().splitlines())
    names = sorted(set(names) | set(re.findall(r"#define\s+(cuda\w+)\s+__CUDART_API_PT", nv_text)))
    src = os.path.join(work, "names.c")
    allowed = {"cudaSignalExternalSemaphoresAsync_v2", "cudaWaitExternalSemaphoresAsync_v2",
               "cudaStreamGetCaptureInfo_v2"} if abi == "12" else set()
    ours = {n for n, _ in h.funcs}
    problems = []
    not_ours = set()
    for pt in ([], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]):
        got = []
        for inc, defs in ((["-I" + i for i in nv_inc], []),
                          (["-I" + os.path.dirname(os.path.abspath(header))],
                           ["-DCUDART_RS_ABI12"] if abi == "12" else [])):
            with open(src, "w") as f:
                f.write("#include <cuda_runtime_api.h>\n")
                for n in names:
                    f.write("NAME_%s: %s\n" % (n, n))
            r = sh(["gcc", "-E", "-P"] + pt + defs + inc + [src])
            if r.returncode:
                problems.append("preprocessing failed: " + r.stderr.strip()[:200])
                got.append({})
                continue
            got.append(dict(l[5:].split(": ", 1) for l in r.stdout.splitlines() if l.startswith("NAME_")))
        mode = "per-thread" if pt else "plain"
        for n in names:
            a, b = got[0].get(n), got[1].get(n)
            if n not in ours and b == n:
                not_ours.add(n)  # a function ours lacks (the symbol check's coverage counts it)
                continue
            if a != b and not (pt and n in allowed):
                problems.append("%s (%s): NVIDIA's header calls %s, ours %s" % (n, mode, a, b))
    if problems:
        print("FAIL names [%s]: %d name(s) compile to another symbol than with NVIDIA's header:" % (abi, len(problems)))
        details(problems)
        fails.append("names")
    else:
        print("PASS names [%s]: %d function names compile to NVIDIA's symbols, plain and with "
              "CUDA_API_PER_THREAD_DEFAULT_STREAM%s" % (abi, len(names) - len(not_ours),
              "; %d per-thread names of NVIDIA's newest header skipped: functions ours does not have yet" % len(not_ours) if not_ours else ""))


# ----------------------------------------------------------------------------------------
# The rest of the header set: C++ default arguments, host_defines.h's macros, each header alone
# ----------------------------------------------------------------------------------------

def cxx_defaults(text):
    """{function: {parameter index: default}} of the C++ declarations in preprocessed text."""
    out = {}
    def norm(v):
        v = re.sub(r"\s+", "", v)
        v = re.sub(r"^\(+|\)+$", "", v)
        if v in ("__null", "NULL", "nullptr", "(void*)0", "((void*)0)"):
            return "0"
        try:
            return str(int(v.rstrip("uUlL"), 0))
        except ValueError:
            return v
    text = re.sub(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)", " ", text)
    for m in re.finditer(r"(\w+)\s*\(([^;{}]*)\)\s*;", text):
        if "=" not in m.group(2):
            continue
        d = {}
        for i, p in enumerate(split_top(m.group(2), ",")):
            if "=" in p:
                d[i] = norm(p.split("=", 1)[1])
        out[m.group(1)] = d
    return out


def check_defaults(abi, header, nv_inc, work, fails):
    """C++'s default arguments of every function both headers declare: the same parameters
    get the same values (NVIDIA's __dv)."""
    defs = ["-DCUDART_RS_ABI12"] if abi == "12" else []
    src = os.path.join(work, "defaults.cpp")
    with open(src, "w") as f:
        f.write("#include <cuda_runtime_api.h>\n")
    got = []
    for inc in (["-I", os.path.dirname(os.path.abspath(header))] + defs, sum((["-I", i] for i in nv_inc), [])):
        r = sh(["g++", "-std=c++17", "-E", "-P", "-x", "c++"] + inc + [src])
        if r.returncode:
            print("FAIL defaults [%s]: preprocessing failed: %s" % (abi, r.stderr[-500:]))
            fails.append("defaults")
            return
        got.append(cxx_defaults(r.stdout))
    ours, nv = got
    problems = []
    for name in sorted(set(ours) | set(nv)):
        o, n = ours.get(name, {}), nv.get(name, {})
        if o != n and (name in ours or re.search(r"\b%s\s*\(" % re.escape(name), open(src).read()) is None):
            if name not in ours and not any(name == k for k in ours):
                # NVIDIA declares defaults for a function our header declares without any.
                problems.append("%s: NVIDIA's defaults %s, ours none" % (name, n))
            else:
                problems.append("%s: ours %s, NVIDIA's %s" % (name, o, n))
    # A function NVIDIA gives defaults that ours does not declare at all is the signature
    # check's business (it is not declared); only the ones both declare count.
    st = "PASS" if not problems else "FAIL"
    print("%s defaults [%s]: C++ default arguments of %d functions (ours) and %d (NVIDIA's) compared%s" %
          (st, abi, len(ours), len(nv), "" if not problems else ", %d difference(s)" % len(problems)))
    details(problems)
    if problems:
        fails.append("defaults")


def check_host_defines(abi, header, nv_inc, work, fails):
    """Every macro NVIDIA's crt/host_defines.h defines for a host compiler, ours defines too,
    and it expands to the same tokens (object-like: the name; function-like: applied to
    arguments)."""
    base = set(re.findall(r"#define (\w+)", sh(["g++", "-E", "-dM", "-x", "c++", os.devnull]).stdout))
    src = os.path.join(work, "hd.cpp")
    with open(src, "w") as f:
        f.write("#include <crt/host_defines.h>\n")
    nv_incs = sum((["-I", i] for i in nv_inc), [])
    r = sh(["g++", "-E", "-dM", "-x", "c++", "-D__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__"] + nv_incs + [src])
    macros = {}
    for m in re.finditer(r"#define (\w+)(\(([^)]*)\))?", r.stdout):
        if m.group(1) not in base and m.group(1) != "__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__":
            macros[m.group(1)] = m.group(3)
    uses = []
    for name, params in sorted(macros.items()):
        # The name quoted, so that it is not expanded itself.
        if params is None:
            uses.append('@"%s"@ %s' % (name, name))
        else:
            n = len([p for p in params.split(",") if p.strip()])
            uses.append('@"%s"@ %s(%s)' % (name, name, ", ".join("arg%d" % i for i in range(max(n, 1)))))
    with open(src, "w") as f:
        f.write("#include <crt/host_defines.h>\n" + "\n".join(uses) + "\n")
    defs = ["-DCUDART_RS_ABI12"] if abi == "12" else []
    out = []
    for inc in (["-I", os.path.dirname(os.path.abspath(header))] + defs,
                ["-D__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__"] + nv_incs):
        r = sh(["g++", "-E", "-P", "-x", "c++"] + inc + [src])
        out.append({l.split('"')[1]: re.sub(r"\s+", " ", l.split('"@', 1)[1]).strip()
                    for l in r.stdout.splitlines() if l.startswith('@"')})
    problems = ["%s: ours expands to '%s', NVIDIA's to '%s'" % (n, out[0].get(n), out[1].get(n))
                for n in sorted(macros) if out[0].get(n) != out[1].get(n)]
    st = "PASS" if not problems else "FAIL"
    print("%s host-defines [%s]: the %d macros NVIDIA's crt/host_defines.h defines for a host compiler "
          "expand as ours do%s" % (st, abi, len(macros), "" if not problems else ", %d difference(s)" % len(problems)))
    details(problems)
    if problems:
        fails.append("host-defines")


def header_set(hdir):
    """Our headers in hdir: (host headers, device-only ones) by path, from the build's list."""
    listed = os.path.join(hdir, "headers.txt")
    names = []
    if os.path.exists(listed):
        names = [l.split()[1] for l in open(listed) if l.strip()]
    else:
        for d, _, fs in os.walk(hdir):
            names += [os.path.relpath(os.path.join(d, f), hdir) for f in fs if f.endswith((".h", ".hpp"))]
    device = []
    for n in names:
        with open(os.path.join(hdir, n)) as f:
            if "is a header of device code" in f.read(1000):
                device.append(n)
    return sorted(n for n in names if n not in device), sorted(device)


def check_alone(abi, header, work, fails, sysinc=()):
    """Every header of ours compiled alone as C11 and as C++17 with -Wall -Werror, by gcc and
    g++ and (where installed) clang and clang++; each device-only header stops the compilation
    with one error, which names it."""
    import concurrent.futures
    hdir = os.path.dirname(os.path.abspath(header))
    host, device = header_set(hdir)
    defs = ["-DCUDART_RS_ABI12"] if abi == "12" else []
    compilers = [("gcc", ["-std=c11", "-x", "c"]), ("g++", ["-std=c++17", "-x", "c++"])]
    for cc, cxx in (("clang", "clang++"), ("clang-19", "clang++-19"), ("clang-14", "clang++-14")):
        if shutil.which(cc) and shutil.which(cxx):
            compilers += [(cc, ["-std=c11", "-x", "c"]), (cxx, ["-std=c++17", "-x", "c++"])]
            break
    jobs = []
    for n in host + device:
        for cc, flags in compilers:
            jobs.append((n, cc, flags))

    def run(job):
        n, cc, flags = job
        code = "#include <%s>\nint main(void) { return 0; }\n" % n
        r = subprocess.run([cc] + flags + ["-Wall", "-Werror", "-fsyntax-only"] + defs + list(sysinc) +
                           ["-I", hdir, "-"], input=code, capture_output=True, text=True)
        return job, r

    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for (n, cc, flags), r in ex.map(run, jobs):
            lang = "C" if "c" in flags[-1:] else "C++"
            if n in device:
                errors = [l for l in r.stderr.splitlines() if re.search(r":\d+:\d+: (fatal )?error:", l)]
                if r.returncode == 0 or len(errors) != 1 or n not in errors[0]:
                    problems.append("%s (%s %s): want one #error naming it, got: %s" %
                                    (n, cc, lang, " | ".join(errors)[:300] or "no error"))
            elif r.returncode:
                first = [l for l in r.stderr.splitlines() if "error" in l][:2]
                problems.append("%s (%s %s): %s" % (n, cc, lang, " | ".join(first)[:300]))
    st = "PASS" if not problems else "FAIL"
    print("%s alone [%s]: %d headers each compiled alone, C11 and C++17, -Wall -Werror, by %s; %d device-only "
          "headers each stop with one #error naming them%s" %
          (st, abi, len(host), ", ".join(c for c, _ in compilers), len(device),
           "" if not problems else ", %d problem(s)" % len(problems)))
    details(problems)
    if problems:
        fails.append("alone")


def main():
    sys.stdout.reconfigure(line_buffering=True)
    ap = argparse.ArgumentParser()
    ap.add_argument("--abi", required=True, choices=["12", "13"])
    ap.add_argument("--lib", default="")
    ap.add_argument("--exports")
    ap.add_argument("--manifest", help="the export manifest (default: exports.tsv beside --exports, "
                    "else dist/exports.tsv)")
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "cuda_runtime_api.h"))
    ap.add_argument("--dist", default=os.path.join(ROOT, "dist"))
    ap.add_argument("--no-nvcc-link", action="store_true")
    ap.add_argument("--only", default="layout,signatures,headers,symbols,nvcc-link")
    ap.add_argument("--keep", action="store_true", help="keep the probes' work folder")
    a = ap.parse_args()
    only = set(a.only.split(","))
    beside = a.exports and os.path.join(os.path.dirname(os.path.abspath(a.exports)), "exports.tsv")
    set_not_nvidias(a.abi, a.manifest or (beside if beside and os.path.exists(beside) else manifest.DEFAULT))
    inc, nv_lib, cxx = nvidia(a.abi)
    if a.lib and not os.path.isfile(a.lib):
        raise SystemExit("no library at %s" % a.lib)
    for p in inc + [nv_lib]:
        if not os.path.exists(p):
            raise SystemExit("missing %s (run scripts/dev/fetch-nvidia.sh)" % p)
    allow_path = os.path.join(HERE, "extra-exports.txt")
    allow = set()
    if os.path.exists(allow_path):
        allow = set(l.split("#")[0].strip() for l in open(allow_path)) - {""}
    work = tempfile.mkdtemp(prefix="abi%s-" % a.abi)
    fails = []
    try:
        extra = interop_headers(a.header)
        hdir = os.path.dirname(os.path.abspath(a.header))
        for name in [os.path.basename(a.header)] + extra:
            generated = os.path.join(hdir, name)
            committed = os.path.join(ROOT, "include", name)
            if os.path.realpath(generated) == os.path.realpath(committed):
                continue
            same = os.path.exists(committed) and open(committed).read() == open(generated).read()
            print("%s header [%s]: include/%s %s %s" %
                  ("PASS" if same else "FAIL", a.abi, name, "==" if same else "differs from",
                   rel(generated) + ("" if same else
                   " (stale: regenerate it, scripts/dev/gen-header.sh)")))
            if not same:
                fails.append("header")
        sysinc = []
        if extra:
            sysinc, which = graphics_includes(work)
            print("INFO interop [%s]: %s checked with the main header, against NVIDIA's, with %s" %
                  (a.abi, " ".join(extra), which))
        # Every header of the set, through the one that includes them all.
        main_header = os.path.join(hdir, MAIN_HEADER)
        if not os.path.exists(main_header):
            main_header = a.header  # a header of its own (the self-test's)
        lines = preprocess_ours(main_header, a.abi, work)
        for name in extra:
            lines += preprocess_ours(os.path.join(hdir, name), a.abi, work, only_self=True)
        h = parse_ours(lines)
        if h.unknown:
            print("FAIL parse [%s]: %d declaration(s) of our header no check understands "
                  "(extend scripts/test/abi/check.py):" % (a.abi, len(h.unknown)))
            details(h.unknown)
            fails.append("parse")
        if "layout" in only:
            check_layout(a.abi, h, inc, cxx, a.header, work, fails, extra, sysinc)
        if "signatures" in only:
            check_signatures(a.abi, h, inc, cxx, work, fails, allow, extra, sysinc)
            check_names(a.abi, a.header, inc, h, work, fails)
        if "headers" in only:
            check_defaults(a.abi, a.header, inc, work, fails)
            check_host_defines(a.abi, a.header, inc, work, fails)
            check_alone(a.abi, a.header, work, fails, sysinc)
        if not a.lib and only & {"symbols", "nvcc-link"}:
            print("FAIL symbols [%s]: no library to check" % a.abi)
            fails.append("symbols")
            only -= {"symbols", "nvcc-link"}
        if "symbols" in only:
            check_symbols(a.abi, a.lib, a.exports, nv_lib, h, a.dist, fails)
            check_not_nvidias(a.abi, a.lib, a.header, work, fails)
        if "nvcc-link" in only and a.abi == "13":
            if a.no_nvcc_link:
                print("SKIP nvcc-link [13]: skipped (--no-nvcc-link)")
            else:
                check_nvcc_link(a.lib, work, fails)
    finally:
        if a.keep:
            print("work folder: " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
