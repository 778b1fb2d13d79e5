"""Programs and their helper modules are importable while they run, under names unique to each job.

Dynamo imports the module of a function it inlines by name; a module missing from ``sys.modules`` is a known torch
crash (corpus/torch-import-module-crash.py) that the harness must not cause itself. With one fixed name per
module, Dynamo resolved an earlier program's module of the same name in the same worker.
"""

import subprocess
import sys

import oracle

HELPER = '''
import types
import torch

EFFECTS = []
ngb_h = types.ModuleType("ngb_h")
exec("""
import torch
SCALE = {scale}
def scaled(x):
    return x * SCALE
""", ngb_h.__dict__)


class C:
    pass


def entry(x):
    EFFECTS.append(("names", ngb_h.scaled.__module__, C.__module__, __name__))
    torch._dynamo.graph_break()
    return ngb_h.scaled(x) + 1


def make_inputs(device):
    return (torch.ones(3, device=device),)
'''


def test_helper_module_globals_compile_without_the_import_crash(runner):
    report = runner.check(HELPER.format(scale=2.0), ["torch", "torch:ngb=off"])
    assert {k: v.signature for k, v in report.verdicts.items()} == {"torch": "ok", "torch:ngb=off": "ok"}


def test_programs_with_the_same_module_names_do_not_see_each_other(runner):
    # Same module names, different globals, one worker: each result must be its own program's (x * SCALE + 1).
    for scale in (2.0, 3.0, 2.0):
        source = HELPER.format(scale=scale)
        assert runner.check(source, ["torch"]).verdicts["torch"].signature == "ok"
        value = runner.run(source, "torch")["calls"][0]["value"]
        assert value[-1].tolist() == [scale + 1] * 3


def test_the_unique_names_are_never_observed(runner):
    effects = runner.run(HELPER.format(scale=2.0), "torch")["calls"][0]["effects"]
    assert effects == ("list", [("tuple", [("str", "names"), ("str", "ngb_h"), ("str", "ngb_program"),
                                           ("str", "ngb_program")])])
    assert not [m for m in sys.modules if m.startswith("ngb_")]  # nothing registered in this process either


def test_the_standalone_check_registers_them_too(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(oracle.with_footer(HELPER.format(scale=2.0)))
    alone = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0, alone.stdout + alone.stderr
