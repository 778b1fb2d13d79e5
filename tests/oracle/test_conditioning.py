"""A backend compared with tolerances (inductor, aot_eager) may round otherwise than eager; a program whose result
hangs on rounding (a branch on a sum that is only rounding noise) then differs without any compiler bug. The oracle
tells such a program by eager runs on inputs nudged by a few units in the last place, and calls it flaky, never a
finding. ``fault:reround`` is a correct backend that rounds one output otherwise (by one unit in the last place)."""

from __future__ import annotations

import oracle

# entry's branch reads the sum of a mean-centered tensor: 0 up to rounding (-6e-8 here), its sign a coin toss
ILL = """import torch


def entry(x):
    y = x - x.mean()
    torch._dynamo.graph_break()
    if y.sum() > 0:
        return y * 2
    return y * 3


def make_inputs(device):
    g = torch.Generator().manual_seed(710)
    return (torch.tanh(torch.randn(2, 2, generator=g) * 0.75 - 0.25).to(device),)
"""
WELL = ILL.replace("if y.sum() > 0:", "if y.sum() > -1.0:")  # far from the tie: rounding cannot move it


def test_a_branch_on_rounding_noise_under_a_rounding_backend_is_flaky_not_a_finding(runner):
    report = runner.check(ILL, ["fault:reround"])
    assert report.verdicts["fault:reround"].kind == "flaky", report.verdicts["fault:reround"]
    assert report.verdicts["fault:reround"].what == "ill-conditioned" and report.flaky


def test_the_same_rounding_difference_is_ok_where_nothing_hangs_on_it(runner):
    report = runner.check(WELL, ["fault:reround"])
    assert report.verdicts["fault:reround"].signature == "ok" and not report.flaky


def test_without_the_nudged_runs_the_rounding_difference_would_be_reported(runner, monkeypatch):
    import oracle._runner as runner_module

    monkeypatch.setattr(runner_module, "CONDITIONING_SEEDS", ())
    assert runner.check(ILL, ["fault:reround"]).verdicts["fault:reround"].signature == "mismatch:value:values"


def test_a_well_conditioned_program_is_not_calledill_conditioned(runner):
    eager = runner.run(WELL, "eager", 2)
    target = oracle.parse_target("torch:backend=inductor")
    assert not runner.ill_conditioned(WELL, target, eager, 2)
    assert runner.ill_conditioned(ILL, target, runner.run(ILL, "eager", 2), 2)


def test_exact_targets_are_never_excused():
    # a backend that must run eager's very kernels gets no tolerance and no conditioning check
    assert oracle.parse_target("fault:perturb").exact and oracle.parse_target("torch").exact
    assert not oracle.parse_target("fault:reround").exact


def test_the_reducer_never_keeps_a_candidate_whose_mismatch_is_rounding(runner, monkeypatch):
    import oracle._runner as runner_module
    from fuzz.reduce._oracle import oracle_predicate

    predicate = oracle_predicate(runner, "fault:reround", "mismatch:value:values", "returned")
    assert not predicate(ILL)
    monkeypatch.setattr(runner_module, "CONDITIONING_SEEDS", ())
    assert predicate(ILL)  # what a candidate drifting into a tie would have been taken for


def test_inference_tensor_inputs_are_nudged_too():
    import torch

    from oracle._worker import perturb

    with torch.inference_mode():
        inference = torch.ones(4)
    plain, leaf = torch.ones(4), torch.ones(4, requires_grad=True)
    perturb((inference, [plain], {"w": leaf}, torch.arange(3)), seed=1)
    for t in (inference, plain, leaf):
        assert not torch.equal(t, torch.ones(4)) and torch.allclose(t, torch.ones(4), rtol=2 ** -19, atol=0)
    assert leaf.requires_grad and leaf.is_leaf
