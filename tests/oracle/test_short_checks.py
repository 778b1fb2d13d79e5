"""The short standalone check's preamble: only the imports and module registration the program needs."""

from __future__ import annotations

from oracle import FOOTER_MARKER, split_source, with_footer

HEADER = "# ngb-fuzz program\n# signature: crash:TypeError@torch._dynamo.x:y\n# target: torch:backend=eager\n"
PROGRAM = "import torch\nEFFECTS = []\n\n\ndef entry(x):\n    return x\n\n\ndef make_inputs(device):\n" \
          "    return (torch.ones(2).to(device),)\n"
GENERIC = f'{FOOTER_MARKER} (generated; do not edit below) ----\nmod = types.ModuleType("ngb_program")\n'


def _footer(source: str) -> str:
    return split_source(with_footer(source))[2]


def test_no_second_import_of_torch_and_no_helper_module_registration_without_helpers():
    footer = _footer(HEADER + PROGRAM + "\n\n" + GENERIC)  # the old generic footer makes an ngb_ module itself
    assert "import torch" not in footer and "sys.modules.update" not in footer
    assert footer.splitlines()[1:3] == ['if __name__ == "__main__":', "    import sys"]
    assert "        sys.modules[mod.__name__] = mod  # importable, as a user's module is" in footer


def test_imports_torch_when_the_program_does_not_and_registers_helper_modules():
    program = PROGRAM.replace("import torch\n", "import types\n") + '_h = types.ModuleType("ngb_h")\n'
    footer = _footer(HEADER + program)
    assert "    import torch  # the program may not import it at the top" in footer
    assert "sys.modules.update" in footer


def test_an_import_of_torch_inside_a_helper_module_string_does_not_count():
    program = PROGRAM.replace("import torch\n", "import types\n_h = types.ModuleType('n')\nexec('''\nimport torch\n''')\n")
    assert "    import torch  # the program may not import it at the top" in _footer(HEADER + program)


ENGINE_FINDING = ("# ngb-fuzz program\n# signature: mismatch:effects:length\n# target: engine:fault=replay-effect-twice\n"
                  "# eager: returned\nimport torch\n\nEFFECTS = []\n\n\ndef entry():\n    EFFECTS.append(())\n")


def _run(tmp_path, source: str):
    import subprocess
    import sys

    path = tmp_path / "finding.py"
    path.write_text(with_footer(source))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300)


def test_an_engine_finding_gets_the_short_check_through_engine_compile(tmp_path):
    footer = _footer(ENGINE_FINDING)
    assert "    import engine  # ngb-fuzz's own compiler (pip install ngb-fuzz)" in footer
    assert "engine.compile(mod.entry, fault='replay-effect-twice')()" in footer
    assert "torch.compile" not in footer and "nested_graph_breaks" not in footer
    found = _run(tmp_path, ENGINE_FINDING)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "MISMATCH: eager vs engine.compile(fault=replay-effect-twice)" in found.stdout
    fixed = _run(tmp_path, ENGINE_FINDING.replace("engine:fault=replay-effect-twice", "engine"))
    assert fixed.returncode == 0 and "match: eager vs engine.compile()" in fixed.stdout, fixed.stdout + fixed.stderr


def test_engine_classic_and_backend_options_reach_the_call():
    footer = _footer(ENGINE_FINDING.replace("engine:fault=replay-effect-twice", "engine-classic:backend=aot_eager"))
    assert "engine.compile(mod.entry, nested=False, backend='aot_eager')()" in footer


def test_the_generic_footer_of_an_engine_finding_runs_the_engine(tmp_path):
    # a second call's globals have no short check: the generic footer must compile with the engine, not torch
    gated = ENGINE_FINDING.replace("mismatch:effects:length", "mismatch:second_call:globals").replace(
        "EFFECTS = []\n", "EFFECTS = []\nN = 0\n").replace(
        "    EFFECTS.append(())\n", "    global N\n    N = N + 1\n    if N % 2 == 0:\n        EFFECTS.append(())\n")
    assert "import engine" in _footer(gated) and "_ngb_check" in _footer(gated)
    found = _run(tmp_path, gated)
    assert found.returncode == 1 and "MISMATCH: eager vs engine.compile (engine:fault=" in found.stdout, found.stdout
    fixed = _run(tmp_path, gated.replace("engine:fault=replay-effect-twice", "engine"))
    assert fixed.returncode == 0 and "match: eager vs engine.compile (engine)" in fixed.stdout, fixed.stdout


GATED = ENGINE_FINDING.replace("mismatch:effects:length", "mismatch:second_call:effects").replace(
    "EFFECTS = []\n", "EFFECTS = []\nN = 0\n").replace(
    "    EFFECTS.append(())\n", "    global N\n    N = N + 1\n    if N % 2 == 0:\n        EFFECTS.append(())\n")


def test_a_second_call_finding_gets_a_short_check_on_a_fresh_run_of_each_side(tmp_path):
    footer = _footer(GATED)
    assert "def second_call(compiled):" in footer and "_ngb_check" not in footer
    assert "fn = engine.compile(mod.entry, fault='replay-effect-twice') if compiled else mod.entry" in footer
    found = _run(tmp_path, GATED)  # the counter starts afresh on each side, so only the replayed effect differs
    assert found.returncode == 1, found.stdout + found.stderr
    assert "eager:         [()]\nengine.compile: [(), ()]" in found.stdout
    fixed = _run(tmp_path, GATED.replace("engine:fault=replay-effect-twice", "engine"))
    assert fixed.returncode == 0 and "match: eager vs engine.compile()" in fixed.stdout, fixed.stdout + fixed.stderr


def test_a_second_call_grad_mode_check_compares_the_state_without_equal(tmp_path):
    leak = ENGINE_FINDING.replace("mismatch:effects:length", "mismatch:second_call:torch_state").replace(
        "replay-effect-twice", "leave-grad-changed").replace(
        "    EFFECTS.append(())\n", "    with torch.no_grad():\n        torch._dynamo.graph_break()\n")
    footer = _footer(leak)
    assert "def equal" not in footer and "    same = actual == expected" in footer
    found = _run(tmp_path, leak)
    assert found.returncode == 1 and "engine.compile: (False, False)" in found.stdout, found.stdout + found.stderr
    fixed = _run(tmp_path, leak.replace("engine:fault=leave-grad-changed", "engine"))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_a_torch_second_call_check_makes_inputs_and_registers_helper_modules_of_the_fresh_run(tmp_path):
    program = ("# ngb-fuzz program\n# signature: mismatch:second_call:value\n# target: torch:backend=eager\n"
               "# eager: returned\nimport types\n\nimport torch\n\n"
               "ngb_h = types.ModuleType(\"ngb_h\")\nexec(\"def twice(x):\\n    return x * 2\\n\", vars(ngb_h))\n\n\n"
               "def entry(x):\n    return ngb_h.twice(x) + 1\n\n\ndef make_inputs(device):\n"
               "    return (torch.arange(3.0).to(device),)\n")
    footer = _footer(program)
    assert "torch.compile(mod.entry, backend=\"eager\") if compiled else mod.entry" in footer
    checked = _run(tmp_path, program)  # no bug here: both sides' second calls return the same
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "eager:         tensor([1., 3., 5.])" in checked.stdout


DEQUE_FINDING = ("# ngb-fuzz program\n# signature: mismatch:globals:values\n# target: engine:fault=replay-effect-twice\n"
                 "import collections\nimport torch\n\nEFFECTS = []\n_L = [0]\nD = collections.deque([_L], maxlen=4)\n\n\n"
                 "def entry():\n    _L.append(1)\n")


def test_the_generic_footer_compares_the_items_of_a_deque(tmp_path):
    # the append replayed twice shows only inside a global deque (not observed at all by the check before)
    found = _run(tmp_path, DEQUE_FINDING)
    assert found.returncode == 1 and "globals differs" in found.stdout, found.stdout + found.stderr
    assert "('deque', [('list', [('int', 0), ('int', 1), ('int', 1)])], 4)" in found.stdout, found.stdout
    fixed = _run(tmp_path, DEQUE_FINDING.replace("engine:fault=replay-effect-twice", "engine"))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_a_hang_gets_a_short_check_that_stops_waiting_and_exits_1(tmp_path, monkeypatch):
    import oracle._checks

    monkeypatch.setattr(oracle._checks, "HANG_CHECK_S", 3)
    # Dynamo reads is_compiling() as True while it traces, so it unrolls this loop for ever; eager skips it
    hang = ("# ngb-fuzz program\n# signature: hang\n# target: torch\n# eager: returned\nimport torch\n\n\n"
            "def entry():\n    while torch.compiler.is_compiling():\n        pass\n    return torch.ones(1)\n")
    assert "signal.alarm(3)" in _footer(hang)
    found = _run(tmp_path, hang)
    assert found.returncode == 1, found.stdout + found.stderr
    assert "torch.compile: no result after 3 s\nMISMATCH" in found.stdout
    fixed = _run(tmp_path, hang.replace("while torch.compiler.is_compiling():", "while False:"))
    assert fixed.returncode == 0 and "torch.compile: returned\nmatch" in fixed.stdout, fixed.stdout + fixed.stderr
