"""The short standalone check's preamble: only the imports and module registration the program needs."""

from __future__ import annotations

from oracle import FOOTER_MARKER, split_source, with_footer

HEADER = "# ngb-fuzz program\n# signature: crash:TypeError@torch._dynamo.x:y\n# target: torch:backend=eager\n"
PROGRAM = "import torch\nEFFECTS = []\n\n\ndef entry(x):\n    return x\n\n\ndef make_inputs(device):\n" \
          "    return (torch.ones(2).to(device),)\n"
GENERIC = f'{FOOTER_MARKER} (generated; do not edit below) ----\nmod = types.ModuleType("ngb_program")\n'


def _footer(source: str) -> str:
    return split_source(with_footer(source))[2]


def test_no_second_import_of_torch_and_no_module_registration_without_helpers():
    footer = _footer(HEADER + PROGRAM + "\n\n" + GENERIC)  # the old generic footer makes an ngb_ module itself
    assert "import torch" not in footer and "sys.modules" not in footer
    assert footer.splitlines()[1:3] == ['if __name__ == "__main__":', "    torch._dynamo.config.nested_graph_breaks = True"]


def test_imports_torch_when_the_program_does_not_and_registers_helper_modules():
    program = PROGRAM.replace("import torch\n", "import types\n") + '_h = types.ModuleType("ngb_h")\n'
    footer = _footer(HEADER + program)
    assert "    import torch  # the program may not import it at the top" in footer
    assert "sys.modules.update" in footer


def test_an_import_of_torch_inside_a_helper_module_string_does_not_count():
    program = PROGRAM.replace("import torch\n", "import types\n_h = types.ModuleType('n')\nexec('''\nimport torch\n''')\n")
    assert "    import torch  # the program may not import it at the top" in _footer(HEADER + program)
