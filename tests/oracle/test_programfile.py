"""The program-file format's one reader and writer (oracle.ProgramFile) and the found-by field (oracle.FoundBy)."""

from __future__ import annotations

import itertools

import pytest

from oracle import FOOTER_BANNER, FoundBy, ProgramFile, header_fields, set_header, split_source, with_footer

CODE = "import torch\n\n\ndef entry(x):\n    return x + 1  # a comment\n\n\ndef make_inputs(device):\n    return (torch.ones(2),)\n"
FOOTER = FOOTER_BANNER + "\nif __name__ == '__main__':\n    print('check')\n"

HEADERS = [
    "",
    "# ngb-fuzz program\n",
    "# ngb-fuzz program\n# signature: mismatch:value:values\n# target: torch:backend=aot_eager\n",
    "# ngb-fuzz program\n# found-by: ngb-fuzz run --seed 3 (program 17)\n# features: a.b c.d\n# weights: x=0.5\n",
    "# ngb-fuzz program\n# signature: crash:RuntimeError@torch._dynamo.x:f\n# a note that is no field\n"
    "# Capitalised: not a field either\n",
    "# signature: mismatch:effects:length\n# no first line, a note\n",  # hand-written: no `# ngb-fuzz program`
    "# ngb-fuzz program\n# empty:\n# spaced:   value with spaces   \n",
]
BODIES = [CODE, "\n" + CODE, "\n# a comment after a blank line: code, not header\n" + CODE, "", "\n"]
FOOTERS = ["", "\n\n" + FOOTER]


def _texts():
    for head, body, footer in itertools.product(HEADERS, BODIES, FOOTERS):
        yield head + body + (footer if body or head else footer.lstrip("\n"))


@pytest.mark.parametrize("text", list(_texts()))
def test_parse_of_the_written_text_is_the_same_program_file(text):
    pf = ProgramFile.parse(text)
    assert ProgramFile.parse(pf.text) == pf
    edited = pf.with_fields(signature="mismatch:value:dtype", found_by=FoundBy.generated(1, 2), drop=("features",))
    assert ProgramFile.parse(edited.text) == edited


@pytest.mark.parametrize("text", list(_texts()))
def test_a_bom_and_crlf_or_cr_line_ends_read_as_the_plain_text(text):
    pf = ProgramFile.parse(text)
    assert ProgramFile.parse("\ufeff" + text.replace("\n", "\r\n")) == pf
    assert ProgramFile.parse(text.replace("\n", "\r")) == pf


def test_a_file_ngb_fuzz_writes_reads_back_to_the_same_text():
    text = set_header(CODE, target="torch", signature="mismatch:value:values", found_by="ngb_check(test_x)")
    text = with_footer(text)
    assert ProgramFile.parse(text).text == text
    assert with_footer(text) == text  # the footer is a fixpoint too


def test_header_fields_code_and_footer_are_where_the_format_puts_them():
    text = HEADERS[4] + "\n" + CODE + "\n\n" + FOOTER
    pf = ProgramFile.parse(text)
    assert pf.fields == {"signature": "crash:RuntimeError@torch._dynamo.x:f"}
    assert pf.notes == ("# a note that is no field", "# Capitalised: not a field either")
    assert pf.code == "\n" + CODE + "\n\n" and pf.footer == FOOTER and pf.titled
    assert split_source(text) == (pf.header, pf.code, pf.footer)
    assert header_fields(text) == pf.fields
    assert ProgramFile.parse(HEADERS[6]).fields == {"empty": "", "spaced": "value with spaces"}


def test_with_fields_puts_the_known_fields_first_in_their_order():
    pf = ProgramFile.parse("# ngb-fuzz program\n# weights: w=2\n# features: f\n# target: torch\n\nx = 1\n")
    out = pf.with_fields(signature="s", found_by="by", compare=None, drop=("features",))
    assert list(out.fields) == ["signature", "target", "found-by", "weights"]
    assert out.text.startswith("# ngb-fuzz program\n# signature: s\n# target: torch\n# found-by: by\n# weights: w=2\n\n")


def test_with_footer_leaves_two_blank_lines_above_the_new_footer():
    pf = ProgramFile.parse("# ngb-fuzz program\n\nx = 1\n\n\n\n\n" + FOOTER)
    assert pf.with_footer("NEW\n").text == "# ngb-fuzz program\n\nx = 1\n\n\nNEW\n"
    assert ProgramFile.parse("# ngb-fuzz program\n").with_footer("NEW\n").text == "# ngb-fuzz program\n\n\nNEW\n"


@pytest.mark.parametrize("text", [
    "ngb-fuzz run --seed 3 (program 17)",
    "ngb-fuzz run --seed 3 --bias (program 17)",
    "ngb-fuzz run --seed 3 --weight iter=3 --weight flow.generator=0.5 (program 17)",
    "ngb-fuzz run --seed 0 (program 5), reduced 40 -> 7 lines",
    "ngb-fuzz run --seed 0 (program 5), reduced 40 -> 9 lines; cut short (budget) after 60s at 9 lines: smaller, not minimal",
    "ngb_check(TestX.test_y)",
    "by hand, from an issue",
])
def test_found_by_reads_back_what_it_writes(text):
    found = FoundBy.parse(text)
    assert str(found) == text
    assert FoundBy.parse(str(found)) == found


def test_found_by_says_which_programs_the_generator_makes_again():
    assert FoundBy.parse("ngb-fuzz run --seed 3 (program 17)") == FoundBy(3, 17)
    assert FoundBy.parse("ngb-fuzz run --seed 3 (program 17)").regenerable
    assert not FoundBy.parse("ngb-fuzz run --seed 3 --bias (program 17)").regenerable
    assert FoundBy.parse("ngb-fuzz run --seed 3 --weight iter=3 (program 1)").weights == (("iter", 3.0),)
    assert not FoundBy.parse("ngb-fuzz run --seed 3 --weight iter=3 (program 1)").regenerable
    assert not FoundBy.parse("ngb-fuzz run --seed 0 (program 5), reduced 40 -> 7 lines").regenerable
    assert not FoundBy.parse("ngb_check(t)").regenerable
    pf = ProgramFile.parse(set_header(CODE, found_by=str(FoundBy.generated(4, 9).with_reduction("9 -> 3 lines"))))
    assert pf.found_by == FoundBy(4, 9, reduced="9 -> 3 lines")


def test_no_module_reads_a_header_or_target_options_by_hand():
    """Headers, found-by and footers are read through ProgramFile, target options through parse_target. The
    generated standalone check (oracle/_footer.py's template) is the one exception: it runs with torch alone."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    by_hand = re.compile(r'startswith\("# [a-z-]+:|split\(FOOTER_MARKER|_FOUND_BY|partition\(":"\)\[2\]\.split\(","\)')
    found = []
    for package in ("fuzz", "oracle"):
        for path in sorted((root / package).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if by_hand.search(line) and path.name != "_footer.py":
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
