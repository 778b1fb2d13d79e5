"""The blame ladder: conclusions from synthetic tables, and one real torch repro end to end."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz.triage.ladder import Rung, Triage, conclude, format_matrix, format_table, triage

ROOT = Path(__file__).resolve().parents[2]
BUG = "crash:TypeError@torch._dynamo.eval_frame:compile_wrapper"


def ladder(fails, versions=("2.13.0",), backends=("eager",), signature=BUG):
    """A Triage whose rungs fail where ``fails(version, ngb, backend)`` says."""
    rungs = tuple(Rung(v, None, n, b, signature if fails(v, n, b) else "ok")
                  for v in versions for n in ("on", "off") for b in backends)
    return Triage(rungs, tuple(versions))


def test_ngb_only_bug_on_every_backend_in_one_version():
    text = conclude(ladder(lambda v, n, b: n == "on", backends=("eager", "aot_eager")))
    assert text == ("NGB-specific (fails only with NGB on); not backend-specific (fails with backend=eager); "
                    "torch 2.13.0")


def test_backend_specific_bug_on_and_off():
    text = conclude(ladder(lambda v, n, b: b == "aot_eager", backends=("eager", "aot_eager")))
    assert "not NGB-specific" in text
    assert "backend-specific: fails with aot_eager, not with eager" in text


def test_versions_say_regression_and_fixed_since():
    versions = ("2.10.0", "2.13.0", "2.15.0")
    assert conclude(ladder(lambda v, n, b: v != "2.10.0", versions)).endswith(
        "a regression: absent in 2.10.0, present in 2.13.0, 2.15.0")
    assert conclude(ladder(lambda v, n, b: v != "2.15.0", versions)).endswith(
        "fixed since 2.15.0: present in 2.10.0, 2.13.0")
    assert conclude(ladder(lambda v, n, b: True, versions)).endswith("in every version tried (2.10.0, 2.13.0, 2.15.0)")
    assert conclude(ladder(lambda v, n, b: False, versions)).startswith("fails nowhere")


def test_a_version_failing_another_way_is_pointed_out():
    result = Triage((Rung("2.10.0", None, "on", "eager", "mismatch:exception:message"),
                     Rung("2.13.0", None, "on", "eager", BUG)), ("2.10.0", "2.13.0"))
    assert conclude(result).endswith("in every version tried (2.10.0, 2.13.0); 2 different failures (see the table)")
    assert "2 different" not in conclude(ladder(lambda v, n, b: True, ("2.10.0", "2.13.0")))


def test_ngb_off_only_and_skipped_rungs():
    result = ladder(lambda v, n, b: n == "off")
    assert conclude(result).startswith("fails only with NGB off (NGB on is correct)")
    skipped = Triage((Rung("2.13.0", None, "on", "inductor", "skip:no C++ compiler"),), ("2.13.0",))
    assert conclude(skipped).startswith("no answer")
    assert "skipped: no C++ compiler" in format_table(skipped)


def test_table_and_matrix_name_each_signature_once():
    result = ladder(lambda v, n, b: n == "on", versions=("2.13.0", "2.15.0"), backends=("eager", "aot_eager"))
    table = format_table(result)
    assert table.count("FAIL [1]") == 4 and table.count(f"[1] {BUG}") == 1
    assert table.splitlines()[0].split() == ["torch", "ngb", "eager", "aot_eager"]
    matrix = format_matrix([("entry-a", result)]).splitlines()
    assert matrix[0].split() == ["entry", "backend", "2.13.0", "2.15.0"]
    assert matrix[1].split() == ["entry-a", "eager", "on:FAIL", "off:ok", "on:FAIL", "off:ok"]


def test_real_ngb_only_torch_bug(runner):
    source = (ROOT / "corpus" / "torch-ngb-generator-return-value-lost.py").read_text()
    result = triage(source, runner, [None], backends=("eager",))
    assert [(r.ngb, r.signature) for r in result.rungs] == [("on", BUG), ("off", "ok")]
    assert conclude(result).startswith("NGB-specific")


def test_cli_rejects_an_interpreter_without_torch(tmp_path):
    python = shutil.which("python3") or sys.executable
    if subprocess.run([python, "-c", "import torch"], capture_output=True).returncode == 0:
        pytest.skip("every interpreter here has torch")
    out = subprocess.run([sys.executable, "-m", "fuzz.cli", "triage", str(ROOT / "corpus" / "seed-ngb-doc-chain.py"),
                          "--python", python], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2 and "cannot import torch" in out.stderr


def test_corpus_matrix_is_kept_in_the_manifest(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(ROOT / "corpus" / "torch-ngb-generator-return-value-lost.py", corpus)
    manifest = json.loads((ROOT / "corpus" / "manifest.json").read_text())
    keep = [e for e in manifest["files"] if e["file"] == "torch-ngb-generator-return-value-lost.py"]
    (corpus / "manifest.json").write_text(json.dumps({"version": 1, "files": keep}))
    out = subprocess.run([sys.executable, "-m", "fuzz.cli", "corpus", "matrix", "--dir", str(corpus)],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "on:FAIL off:ok" in out.stdout
    entry = json.loads((corpus / "manifest.json").read_text())["files"][0]
    assert entry["matrix"]["rungs"] == {"2.13.0 ngb=on eager": BUG, "2.13.0 ngb=off eager": "ok"}
    assert entry["matrix"]["conclusion"].startswith("NGB-specific")


class _OneFlakyBackend:
    """A runner whose check calls the inductor rungs ill-conditioned (flaky) and finds a crash on the others."""

    def warm_up(self, python=None):
        return {"torch": "2.13.0+cpu"}

    def check(self, source, targets):
        from oracle import ProgramReport, Verdict

        verdicts = {t: Verdict("flaky", "ill-conditioned", "flaky") if "inductor" in t
                    else Verdict("crash", "", "crash:KeyError@torch._dynamo.x:step") for t in targets}
        return ProgramReport(verdicts, True, {}, 0.0, "returned")


def test_a_rung_that_hangs_on_rounding_leaves_the_exact_rungs_their_own_verdicts(monkeypatch):
    import fuzz.triage.ladder

    monkeypatch.setattr(fuzz.triage.ladder, "inductor_skip_reason", lambda: None)
    result = triage("x", _OneFlakyBackend(), [None], backends=("eager", "inductor"))
    by_backend = {(r.ngb, r.backend): r.signature for r in result.rungs}
    assert by_backend[("on", "eager")] == "crash:KeyError@torch._dynamo.x:step"
    assert by_backend[("on", "inductor")] == "flaky"
    assert conclude(result).startswith("not NGB-specific")
