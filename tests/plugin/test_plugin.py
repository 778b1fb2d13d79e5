"""The pytest plugin, driven through pytester (inline where possible: each subprocess pays a torch import)."""

from __future__ import annotations

import ast
import json
import sys
import textwrap
import types
from pathlib import Path

import pytest

# torch is imported before any in-process pytester run: that run's sys.modules restore would otherwise drop
# torch, and a second import of torch in one process fails.
import torch

import fuzz.pytest_plugin as plugin
import oracle

pytest_plugins = ["pytester"]

_PROGRAM = '''# ngb-fuzz program
import torch

EFFECTS = []


def entry(x):
    {body}


def make_inputs(device):
    return (torch.ones(3).to(device),)
'''
# Under fault:perturb a compiled graph's outputs are perturbed: a graph that returns a tensor mismatches.
_FAILS = _PROGRAM.format(body="return x + 1")
_PASSES = _PROGRAM.format(body="return 7")
_SIG = "mismatch:value:values"


def _entry(file: str, signature: str, status: str, target: str = "fault:perturb") -> dict:
    return {"file": file, "signature": signature, "target": target, "torch": "2.13.0", "first_seen": "2026-11-21",
            "status": status}


@pytest.fixture
def corpus(pytester):
    root = pytester.mkdir("corpus")
    files = {
        "regression_ok.py": (_PASSES, _entry("regression_ok.py", "ok", "FIXED")),
        "known_bug.py": (_FAILS, _entry("known_bug.py", _SIG, "KNOWN")),
        "fails_differently.py": (_FAILS, _entry("fails_differently.py", "mismatch:effects:length", "KNOWN")),
        "fixed_upstream.py": (_PASSES, _entry("fixed_upstream.py", _SIG, "NEW")),
        "unlisted.py": (_PASSES, None),
    }
    for name, (source, _) in files.items():
        (root / name).write_text(source)
    manifest = {"version": 1, "files": [e for _, e in files.values() if e]}
    (root / "manifest.json").write_text(json.dumps(manifest))
    pytester.makepyfile(test_nothing="def test_nothing():\n    pass\n")
    return root


def _assert_corpus_outcomes(result):
    # unlisted.py passes its own check but is not in the manifest: one more failure (the corpus cannot shrink)
    result.assert_outcomes(passed=3, xfailed=1, failed=3)
    # One pattern at a time: under xdist the summary lines come in completion order.
    for pattern in ("*XFAIL corpus/known_bug.py::fault:perturb*known bug (KNOWN in the manifest)*",
                    "*FAILED corpus/fails_differently.py::fault:perturb*",
                    "*FAILED corpus/fixed_upstream.py::fault:perturb*"):
        result.stdout.fnmatch_lines([pattern])


def test_corpus_files_become_tests_with_strict_xfail_for_open_bugs(pytester, corpus):
    result = pytester.runpytest("--ngb-corpus", "corpus", "--ngb-target", "fault:perturb", "-rxXf")
    _assert_corpus_outcomes(result)
    # a fixed bug is an XPASS(strict) failure; a mismatch names the signature and how to replay it
    result.stdout.fnmatch_lines(["*fixed_upstream.py*XPASS(strict)*"])
    result.stdout.fnmatch_lines(["*mismatch on fault:perturb: mismatch:value:values*",
                                 "*replay: ngb-fuzz repro *fails_differently.py --target fault:perturb*"])


def test_an_open_bug_is_expected_on_another_device_of_its_target_only():
    from fuzz.corpus.manifest import Entry

    entry = Entry(**_entry("known_bug.py", _SIG, "KNOWN", target="torch:ngb=off"))
    assert plugin._expected_on(entry, "torch:ngb=off")
    assert plugin._expected_on(entry, "torch:device=cuda,ngb=off")  # the same compiler on another device
    assert plugin._expected_on(entry, f"torch:ngb=off,python={sys.executable}")  # ... or another torch
    for other in ("torch", "torch:backend=aot_eager,ngb=off", "engine", "fault:perturb"):
        assert not plugin._expected_on(entry, other), other
    fixed = Entry(**_entry("fixed.py", "ok", "FIXED", target="torch"))
    assert not plugin._expected_on(fixed, "torch") and not plugin._expected_on(None, "torch")


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")
def test_corpus_recorded_on_cpu_runs_on_cuda(pytester, corpus):
    # the manifest's targets are fault:perturb (on the CPU): on CUDA the open bug xfails, not strictly
    result = pytester.runpytest("--ngb-corpus", "corpus", "--ngb-target", "fault:perturb,device=cuda", "-rxXf")
    result.assert_outcomes(passed=3, xfailed=1, xpassed=1, failed=2)
    for pattern in ("*XFAIL corpus/known_bug.py::fault:perturb,device=cuda*recorded on fault:perturb*",
                    "*XPASS corpus/fixed_upstream.py::fault:perturb,device=cuda*",
                    "*FAILED corpus/fails_differently.py::fault:perturb,device=cuda*"):
        result.stdout.fnmatch_lines([pattern])


def test_a_corpus_that_would_shrink_fails_instead_of_skipping(pytester, corpus):
    (corpus / "known_bug.py").unlink()  # an entry without its file
    (corpus / "regression_ok.py").write_text("def entry(:\n")  # an entry that does not load
    result = pytester.runpytest("--ngb-corpus", "corpus", "--ngb-target", "fault:perturb", "-rf")
    result.assert_outcomes(passed=2, failed=5, skipped=0)
    result.stdout.fnmatch_lines(["*corpus/known_bug.py: listed in the manifest, but the file is missing*"])
    result.stdout.fnmatch_lines(["*corpus/unlisted.py: not in the manifest*"])
    result.stdout.fnmatch_lines(["*fault:perturb could not check the program: program does not load*"])


def test_corpus_under_xdist(pytester, corpus):
    result = pytester.runpytest_subprocess("-n", "2", "--ngb-corpus", "corpus", "--ngb-target", "fault:perturb",
                                           "-rxXf", "-p", "no:cacheprovider")
    _assert_corpus_outcomes(result)


def test_ngb_check_fixture_and_fuzz_smoke(pytester):
    pytester.makepyfile(test_user=textwrap.dedent('''
        import torch

        SCALE = 2.0

        def helper(t):
            torch._dynamo.graph_break()
            return t * SCALE

        def my_fn(x, n):
            return helper(x).sin() + n

        def test_my_fn_is_compiled_faithfully(ngb_check):
            report = ngb_check(my_fn, torch.tensor([1.0, float("nan"), -3.5]), 3, targets=("torch",))
            assert report.verdicts["torch"].kind == "ok"

        def test_perturbed_compiler_is_caught(ngb_check):
            ngb_check(my_fn, torch.ones(2, 2), 1, targets=("fault:perturb",))
    '''))
    result = pytester.runpytest("--ngb-fuzz", "1", "--ngb-target", "eager", "-rf")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines([
        "*ngb_check(my_fn): mismatch on fault:perturb: mismatch:value*",
        "*program: *ngb_check_my_fn_1.py*",
        "*FAILED test_user.py::test_perturbed_compiler_is_caught*",
    ])


def test_bad_target_is_a_usage_error(pytester, corpus):
    result = pytester.runpytest("--ngb-corpus", "corpus", "--ngb-target", "nonsense:x=1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--ngb-target nonsense:x=1*"])


def test_inert_when_unused(pytester):
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert plugin._RUNNER is None


def test_plugin_module_imports_nothing_heavy_at_top_level():
    tree = ast.parse(Path(plugin.__file__).read_text())
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    names = {a.name for n in top for a in n.names} | {n.module for n in top if isinstance(n, ast.ImportFrom)}
    assert names <= {"__future__", "annotations", "inspect", "math", "textwrap", "types", "typing", "TYPE_CHECKING",
                     "Any", "pytest"}


def test_program_for_writes_a_self_contained_program():
    offset = torch.tensor([0.5, -0.5])

    def scale(t):
        return t * 3

    def user_fn(x, flags):
        return scale(x) + offset, flags["k"], math_floor(2.5)

    source = oracle.program_for(user_fn, (torch.tensor([[1.0, float("inf")]]).requires_grad_(), {"k": (1, None)}))
    module = types.ModuleType("written")
    exec(compile(source, "written", "exec"), module.__dict__)
    x, flags = module.make_inputs("cpu")
    assert x.requires_grad and x.shape == (1, 2) and flags == {"k": (1, None)}
    out = module.entry(x, flags)
    assert torch.equal(out[0], torch.tensor([[3.5, float("inf")]])) and out[1] == (1, None) and out[2] == 2

    with pytest.raises(oracle.ProgramWriteError, match="not a function defined with def"):
        oracle.program_for(lambda x: x, ())
    with pytest.raises(oracle.ProgramWriteError, match="reads lock"):
        oracle.program_for(_reads_a_lock, ())


def math_floor(v):
    import math

    return math.floor(v)


lock = object()


def _reads_a_lock():
    return lock


def test_an_entry_for_other_torch_versions_is_skipped(pytester):
    root = pytester.mkdir("corpus")
    (root / "newer_torch.py").write_text(_PASSES)  # would XPASS (strict: a failure) if it ran
    entry = dict(_entry("newer_torch.py", _SIG, "KNOWN"), requires="torch>=99")
    (root / "manifest.json").write_text(json.dumps({"version": 1, "files": [entry]}))
    result = pytester.runpytest("--ngb-corpus", "corpus", "--ngb-target", "fault:perturb", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*newer_torch.py: KNOWN bug that needs torch>=99, this is torch *"])
