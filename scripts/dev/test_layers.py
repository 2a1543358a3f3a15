#!/usr/bin/env python3
"""Tests of scripts/dev/layers.py: each way of naming another file makes an arrow, and a
circle or an import of a layer above makes it fail (a copy of src/ with a planted `super::`
circle, and small crates written here).

    python3 scripts/dev/test_layers.py [-v]
"""
import io
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layers  # noqa: E402

REPO = layers.REPO


def check(*args):
    """layers.py's exit status and output for ARGS."""
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = layers.main(list(args))
    return rc, buf.getvalue()


class Crate:
    """A crate of files written under a temporary folder."""

    def __init__(self, files):
        self.dir = tempfile.mkdtemp(prefix="layers-test.")
        for name, text in files.items():
            p = os.path.join(self.dir, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)

    def arrows(self):
        c = layers.Crate(self.dir)
        c.scan()
        rel = lambda f: os.path.relpath(f, self.dir)
        return {(rel(a), rel(b)): n for (a, b), n in c.edges.items()}

    def check(self, *args):
        return check(*args, self.dir)

    def close(self):
        shutil.rmtree(self.dir)


class PlantedCircle(unittest.TestCase):
    """The real src/ with two sibling files naming each other through `super::`."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="layers-test.")
        self.src = os.path.join(self.tmp, "src")
        shutil.copytree(os.path.join(REPO, "src"), self.src)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def plant(self, rel, text):
        with open(os.path.join(self.src, rel), "a") as f:
            f.write(text)

    def test_super_circle_fails(self):
        rc0, out0 = check(self.src)
        self.plant("api/ipc.rs", "\npub(crate) fn planted_a() {\n    super::event::planted_b();\n}\n")
        self.plant("api/event.rs", "\nuse super::ipc::planted_a;\npub(crate) fn planted_b() {\n    planted_a();\n}\n")
        rc, out = check(self.src)
        self.assertEqual(rc, 1, out)
        circle = [b for b in out.split("CIRCLE")[1:] if "api/event.rs" in b.split("\n")[0]]
        self.assertEqual(len(circle), 1, out)
        self.assertIn("api/event.rs -> " + self.src + "/api/ipc.rs: planted_a", circle[0])
        self.assertIn("api/ipc.rs -> " + self.src + "/api/event.rs: planted_b", circle[0])
        self.assertEqual(out.count("CIRCLE"), out0.count("CIRCLE") + 1, out)

    def test_layer_above_through_super_fails(self):
        self.plant("types/ipc.rs", "\n#[allow(dead_code)]\nfn planted() {\n    super::super::observe::on();\n}\n")
        rc, out = check("--layered", self.src)
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r"LAYER .*types/ipc\.rs:\d+: names on of .*observe/\w+\.rs \(observe, a layer above types\)")


class Arrows(unittest.TestCase):
    def crate(self, files):
        c = Crate(files)
        self.addCleanup(c.close)
        return c

    def test_super_self_groups_and_mod_rs(self):
        c = self.crate({
            "lib.rs": "mod a;\nmod b;\nmod d;\n",
            "a.rs": "use super::{b::Bee, d::{self, deep::Deep as Dp}};\nfn f() { self::g(); d::x(); }\nfn g() {}\n",
            "b.rs": "pub struct Bee;\npub fn h() { crate::d::deep::walk(); }\n",
            "d/mod.rs": "pub mod deep;\npub fn x() {}\n",
            "d/deep.rs": "pub struct Deep;\npub fn walk() { super::x(); }\n",
        })
        a = c.arrows()
        self.assertEqual(a[("a.rs", "b.rs")], {"Bee"})
        self.assertEqual(a[("a.rs", "d/deep.rs")], {"Deep"})
        self.assertEqual(a[("a.rs", "d/mod.rs")], {"x"})
        self.assertEqual(a[("b.rs", "d/deep.rs")], {"walk"})
        self.assertEqual(a[("d/deep.rs", "d/mod.rs")], {"x"})
        self.assertNotIn(("a.rs", "a.rs"), a)

    def test_tests_module_and_comments_and_strings(self):
        c = self.crate({
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "// crate::b::f()\nconst S: &str = \"crate::b::f\";\nfn g() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { g() }\n}\n",
            "b.rs": "pub fn f() {}\n",
        })
        self.assertEqual(c.arrows(), {})

    def test_reexport_followed_and_face_not_an_arrow(self):
        c = self.crate({
            "lib.rs": "mod t;\nmod u;\n",
            "t/mod.rs": "mod inner;\npub use inner::*;\npub use self::inner::Named;\n",
            "t/inner.rs": "pub struct Named;\npub fn by_glob() {}\n",
            "u.rs": "use crate::t::Named;\nfn f() { crate::t::by_glob(); }\n",
        })
        a = c.arrows()
        self.assertEqual(a[("u.rs", "t/inner.rs")], {"Named", "by_glob"})
        self.assertNotIn(("t/mod.rs", "t/inner.rs"), a)

    def test_sibling_circle_fails_parent_unit_passes(self):
        c = self.crate({
            "lib.rs": "mod a;\nmod b;\npub fn root() { a::f(); }\n",
            "a.rs": "pub fn f() { super::root(); }\n",
            "b.rs": "pub fn g() {}\n",
        })
        rc, out = c.check()
        self.assertEqual(rc, 0, out)
        rc, out = c.check("--strict")
        self.assertEqual(rc, 1, out)
        with open(os.path.join(c.dir, "b.rs"), "a") as f:
            f.write("pub fn back() { super::a::f(); }\n")
        with open(os.path.join(c.dir, "a.rs"), "a") as f:
            f.write("use super::b::g as gee;\npub fn k() { gee(); }\n")
        rc, out = c.check()
        self.assertEqual(rc, 1, out)
        self.assertIn("CIRCLE of 2 files", out)

    def test_known_circle_listed_then_gone(self):
        c = self.crate({
            "lib.rs": "mod a;\nmod b;\n",
            "a.rs": "pub fn f() { super::b::g(); }\n",
            "b.rs": "pub fn g() { super::a::f(); }\n",
        })
        known = os.path.join(c.dir, "known.txt")
        with open(known, "w") as f:
            f.write("# a comment\n%s, %s\n" % (os.path.join(c.dir, "a.rs"), os.path.join(c.dir, "b.rs")))
        rc, out = c.check("--known", known)
        self.assertEqual(rc, 0, out)
        self.assertIn("KNOWN CIRCLE of 2 files", out)
        with open(os.path.join(c.dir, "b.rs"), "w") as f:
            f.write("pub fn g() {}\n")
        rc, out = c.check("--known", known)
        self.assertEqual(rc, 1, out)
        self.assertIn("GONE: the known circle", out)


if __name__ == "__main__":
    unittest.main()
