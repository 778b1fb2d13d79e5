"""What a slow compile ends in: its run let finish once, for the wrong value or crash the slow verdict hid.

The oracle stops a run with nested graph breaks on once it has cost ``SLOW_RATIO`` times its twin's (``oracle._slow``)
and calls it ``slow:compile``: a run that never ends and one that would have returned a wrong value a minute later
look the same there. The second kind is common where a bug leaks state the rest of the program keeps growing:
seen on torch 2.15, a tensor subclass that ``as_subclass(torch.Tensor)`` should have left stayed one after a
nested break (a corpus bug), so every later op ran its ``__torch_function__``, which logged the op to a list that
each graph break then replayed and guarded, item by item: 53 CPU seconds against 3.5 with the breaks off, and a
result of the wrong type at the end. Reduced as a slow compile, each check waits out a limit of seconds, and a
campaign's rounds took that 451-line program to 239 lines in half an hour without deciding it; reduced as the
wrong value it ends in, each check takes a second.

So a slow compile's reduction first runs the original on its target once more, given ``FINISH_FACTOR`` times the
slow limit: when it finishes and shows a wrong value or a crash, that is the finding (as it is for a run that
ends within the oracle's time), and the reduction keeps that signature instead (``reduce_program``). A run that
still does not finish, or finishes as eager does, leaves the slow compile to be reduced as one.
"""

from __future__ import annotations

import oracle
from oracle._slow import LOAD_ALLOWANCE, limits, spent, twin, waits_out

__all__ = ["FINISH_FACTOR", "ends_in"]

# Times the slow limit (``SLOW_RATIO`` times the twin's cost, ``SLOW_FLOOR_S`` at least) the run is given: the
# torch 2.15 program above finished at 1.5 times it on a quiet machine, and the CPU seconds it is measured in
# do not grow with the load.
FINISH_FACTOR = 4.0


def ends_in(runner, source: str, target: str, calls: int, wait_s: float | None = None) -> str | None:
    """The signature of the finding ``source`` shows on ``target`` when its run is let finish (a wrong value, or
    a crash: not a hang or another slow compile), within ``FINISH_FACTOR`` times the slow limit of its twin's cost
    and ``wait_s`` seconds (a campaign's waiting for slow compiles); None when it does not finish, finishes as eager
    does, or the runner cannot run one target at a time (a runner of one's own that only judges programs)."""
    from oracle._verdict import judge

    if not callable(getattr(runner, "run", None)) or not hasattr(runner, "slow_limit"):
        return None
    parsed = oracle.parse_target(target)
    pair = twin(parsed)
    if pair is None:
        return None
    other = runner.run(source, pair, calls)
    if "calls" not in other:  # the twin did not finish either: nothing sets the run's time
        return None
    by_cpu = "cpu" in other
    allowed = FINISH_FACTOR * runner.slow_limit(spent(other))
    if wait_s is not None:
        allowed = min(allowed, wait_s / (LOAD_ALLOWANCE if by_cpu else 1.0))
    timeout, cpu = limits(allowed, by_cpu)  # CPU seconds where the twin's were measured, the load's room on the clock
    mine = runner.run(source, parsed, calls, timeout=timeout, **({"cpu": cpu} if cpu is not None else {}))
    if "calls" not in mine:  # stopped at its limit, or died (a blow-up of memory, maybe): no ending seen
        return None
    eager = runner.run(source, parsed.eager, calls)
    if "calls" not in eager:
        return None
    verdict = judge(parsed, eager, mine)
    if not verdict.is_finding or waits_out(verdict.signature):
        return None
    return verdict.signature
