"""pytest plugin (entry point ``pytest11``): corpus files as tests, the ``ngb_check`` fixture, fuzz smoke runs.

Thin by design: it registers options and imports the oracle only when one of them is used.
"""

from __future__ import annotations


def pytest_addoption(parser):
    group = parser.getgroup("ngb-fuzz", "ngb-fuzz differential checks")
    group.addoption("--ngb-corpus", action="append", default=[], metavar="DIR",
                    help="collect every repro file under DIR as a test")
    group.addoption("--ngb-target", action="append", default=[], metavar="SPEC",
                    help="target spec to check corpus files against (repeatable; default: torch)")
    group.addoption("--ngb-fuzz", type=int, default=0, metavar="N",
                    help="run a fuzz smoke test of N generated programs")
