"""The shapes a hand-written report does not have, and the edits that take them: an instance called where it is
made, constructor arguments nothing needs, ``entry`` that only calls one function, and the rendering of nested
definitions. In-process predicates (no oracle, no torch): the candidate a pass builds on a small program, and the
programs where it must build none."""

from __future__ import annotations

from fuzz.reduce._tree import Program

# ---- rendering --------------------------------------------------------------------------------------------------


def test_a_nested_definition_that_opens_a_block_follows_its_header_directly():
    source = '''import torch


class C1:
    """doc:

    def not_code"""

    def f(self):
        def g():
            pass
        return g


def entry(x):
    if x:
        @torch.no_grad()
        def k():
            pass
    x = 1

    def m():
        pass
    return x
'''
    out = Program.parse(source).source
    assert "    def f(self):\n        def g():\n" in out
    assert "    if x:\n        @torch.no_grad()\n        def k():\n" in out
    assert '"""doc:\n\n    def not_code"""' in out  # a string's own blank line stays
    assert "    x = 1\n\n    def m():\n" in out  # a definition after a statement keeps its blank line
    assert "        return g\n\n\ndef entry(x):\n" in out  # and module-level ones their two
