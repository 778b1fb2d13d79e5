"""Self-test of the whole pipeline: how many generated programs until a fault-injection target is caught."""

from __future__ import annotations

__all__ = ["programs_to_detection"]


def programs_to_detection(runner, target: str, seed: int, limit: int = 100, baseline: str = "torch",
                          generate=None):
    """(programs generated until ``target`` gave a finding, that verdict), or (None, None) past ``limit``.

    A fault target is torch.compile plus one injected fault, so a program on which ``baseline`` (the same
    compiler without the fault) already differs from eager says nothing about the fault: it is generated and
    counted, but cannot count as a detection.
    """
    if generate is None:
        from fuzz.program.generate import generate_program as generate
    for index in range(limit):
        report = runner.check(generate(seed, index).source, [baseline, target])
        if report.verdicts[baseline].kind != "ok":
            continue
        verdict = report.verdicts[target]
        if verdict.is_finding:
            return index + 1, verdict
    return None, None
