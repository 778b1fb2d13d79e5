"""Corpus entries that show only on some torch or Python versions (``requires``)."""

import json

import pytest

from fuzz.corpus.manifest import REQUIRES_UNMET, Corpus, ManifestError
from fuzz.corpus.requires import RequiresError, parse_requires, unmet

_PROGRAM = "# ngb-fuzz program\nimport torch\n\ndef entry(x):\n    return x + {n}\n\ndef make_inputs(device):\n" \
           "    return (torch.ones(2),)\n"


def test_clauses_are_torch_and_python_version_specifiers():
    assert unmet("", "2.13.0", "3.11") == ""
    assert unmet("torch>=2.15", "2.15.0+cu132", "3.11") == ""
    assert unmet("torch>=2.15", "2.13.0", "3.11") == "needs torch>=2.15, this is torch 2.13.0"
    assert unmet("torch>=2.14,<2.16, python>=3.12", "2.15.1", "3.12") == ""
    assert "python>=3.12" in unmet("torch>=2.14,<2.16, python>=3.12", "2.15.1", "3.11")
    assert "torch" in unmet("torch<2.15", "2.15.0", "3.11")
    assert set(parse_requires("python==3.12, torch>2.10")) == {"torch", "python"}
    for bad in ("torch", "cuda>=12", "torch>=2.15 python>=3.12", "torch>=two"):
        with pytest.raises(RequiresError):
            parse_requires(bad)


def _corpus(tmp_path, requires: str) -> Corpus:
    store = Corpus(tmp_path)
    store.add(_PROGRAM.format(n=1), "torch", "mismatch:value:values", name="newer.py", requires=requires)
    store.add(_PROGRAM.format(n=2).replace("x + 2", "-x"), "torch", "mismatch:value:values", name="every.py")
    store.save()
    return Corpus(tmp_path)


def test_check_does_not_run_an_entry_the_targets_versions_do_not_meet(tmp_path):
    store = _corpus(tmp_path, "torch>=2.15")
    ran = []

    def check(source, target):
        ran.append(source)
        return "mismatch:value:values", ""

    old = {e.file: e.status for e in store.entries.values()}
    outcomes = {o.file: o for o in store.check(check, versions=lambda spec: ("2.13.0", "3.11"))}
    assert outcomes["newer.py"].signature == REQUIRES_UNMET and "needs torch>=2.15" in outcomes["newer.py"].detail
    assert outcomes["newer.py"].new_status == old["newer.py"] == "NEW"
    assert outcomes["every.py"].new_status == "KNOWN" and len(ran) == 1
    # on an interpreter that meets it, the entry runs and moves like any other
    outcomes = {o.file: o for o in store.check(check, versions=lambda spec: ("2.15.0", "3.11"))}
    assert outcomes["newer.py"].new_status == "KNOWN" and len(ran) == 3
    assert store.entries["newer.py"].last_torch == "2.15.0"


def test_the_manifest_keeps_requires_and_refuses_a_bad_one(tmp_path):
    _corpus(tmp_path, "torch>=2.15")
    files = {f["file"]: f for f in json.loads((tmp_path / "manifest.json").read_text())["files"]}
    assert files["newer.py"]["requires"] == "torch>=2.15" and "requires" not in files["every.py"]
    files["every.py"]["requires"] = "cuda>=12"
    (tmp_path / "manifest.json").write_text(json.dumps({"version": 1, "files": list(files.values())}))
    with pytest.raises(ManifestError, match="every.py"):
        Corpus(tmp_path)


def test_corpus_add_with_a_bad_requires_is_a_usage_error(tmp_path, capsys):
    from fuzz.cli import main

    program = tmp_path / "p.py"
    program.write_text(_PROGRAM.format(n=1))
    assert main(["corpus", "add", str(program), "--target", "torch", "--dir", str(tmp_path / "c"),
                 "--requires", "torch=>2.15"]) == 2
    assert "requires" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_corpus_add_through_another_interpreter_keeps_the_compiler_and_its_torch(tmp_path, monkeypatch, capsys):
    # a bug found through torch:python=/venv/bin/python: the corpus names the compiler (the path is this machine's)
    # and the torch version of that interpreter, not the one ngb-fuzz runs in
    import sys

    import fuzz.corpus.requires as requires
    from fuzz.cli import main
    from fuzz.corpus.manifest import Corpus

    spec = f"eager:python={sys.executable}"
    monkeypatch.setattr(requires, "target_versions", lambda s: ("2.99.0+cpu", "3.11") if s == spec else ("2.13.0", "3.11"))
    program = tmp_path / "p.py"
    program.write_text(_PROGRAM.format(n=1))
    assert main(["corpus", "add", str(program), "--target", spec, "--dir", str(tmp_path / "c")]) == 0
    entry = Corpus(tmp_path / "c").entries["p.py"]
    assert (entry.target, entry.torch) == ("eager", "2.99.0")
    assert "# target: eager\n" in (tmp_path / "c" / "p.py").read_text()
    assert f"found through {spec}" in capsys.readouterr().out


def test_a_finding_is_not_known_as_a_bug_that_does_not_show_on_its_torch():
    from fuzz.triage.known import KnownBug, KnownBugs

    sig = "crash:SpeculationLogDivergence@torch._dynamo.symbolic_convert:next"
    from fuzz.triage.rootcause import root_cause

    newer = KnownBug("newer.py", "NEW", root_cause(sig), 8, "torch>=2.15")
    known = KnownBugs([newer])
    on = {"torch": ("2.13.0", "3.11"), "torch:python=/v215/bin/python": ("2.15.0", "3.11")}
    assert known.match(sig, target="torch", versions=on.get) is None
    assert known.match(sig, target="torch:python=/v215/bin/python", versions=on.get) is newer
    assert known.match(sig) is newer  # no target: by root cause alone
    # another entry with that root cause and no requires is the 2.13 finding's bug
    every = KnownBug("every.py", "KNOWN", root_cause(sig), 13)
    assert KnownBugs([newer, every]).match(sig, target="torch", versions=on.get) is every
