"""The conformance scenarios' record and runner, shared by tests/engine/test_conformance_*.py and
tools/conformance_table.py.

A scenario is one plain Python function `fn(log, *inputs)` that appends what it does to `log` (the effect
log), plus fresh inputs per call. It runs twice under eager and twice under a compiler (the second call may
get other inputs, e.g. a data-dependent branch that goes the other way); each call must give eager's result
or exception, effect log, arguments afterwards, module state (`observe`) and global torch state. The
engine's graph count after both calls is an exact figure the scenario states.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .helpers import same, set_torch_state, t, torch_state


def x1() -> tuple:
    """The inputs most scenarios take: one float tensor of 3 elements, seeded."""
    return (t(3),)


def xg() -> tuple:
    """... the same, requiring grad."""
    return (t(3, requires_grad=True),)


@dataclass(frozen=True)
class Scenario:
    fn: Callable[..., Any]
    inputs: Callable[[], tuple]
    graphs: int  # the engine's graphs after both calls
    inputs2: Callable[[], tuple] | None = None  # the second call's inputs (default: `inputs` again)
    restarts: int = 0  # traces the engine restarts with a callee made eager (a known fallback)
    eager: int = 0  # calls the engine runs eagerly as a whole (a known fallback)
    setup: Callable[[], None] | None = None  # puts module state back before every run
    observe: Callable[[], Any] | None = None  # module state to compare after every call
    raises: bool = False  # eager raises (on purpose): a scenario that raises by mistake tests nothing

    @property
    def name(self) -> str:
        return self.fn.__name__

    def args(self, k: int) -> tuple:
        make = self.inputs2 if (k == 1 and self.inputs2 is not None) else self.inputs
        return make()


@dataclass
class Observed:
    result: Any
    exc: BaseException | None
    log: list
    args: list
    module: Any
    state: dict


def observe_call(sc: Scenario, fn: Callable, args: tuple) -> Observed:
    before = torch_state()
    log: list = []
    try:
        result, exc = fn(log, *args), None
    except Exception as e:
        result, exc = None, e
    state = torch_state()
    set_torch_state(before)
    module = sc.observe() if sc.observe is not None else None
    return Observed(result, exc, log, list(args), module, state)


def run_pair(sc: Scenario, compiled: Callable, calls: int = 2) -> list[tuple[Observed, Observed]]:
    """Each call: eager on fresh inputs, then the compiled function on a deep copy of the same inputs."""
    out = []
    if sc.setup is not None:
        sc.setup()
    eager_obs = []
    inputs = []
    for k in range(calls):
        args = sc.args(k)
        inputs.append(copy.deepcopy(args))
        eager_obs.append(observe_call(sc, sc.fn, args))
    if sc.setup is not None:
        sc.setup()
    for k in range(calls):
        out.append((eager_obs[k], observe_call(sc, compiled, inputs[k])))
    return out


def difference(ref: Observed, got: Observed) -> str | None:
    """What differs between two observations (None: nothing)."""
    if (ref.exc is None) != (got.exc is None):
        return f"exception: eager {ref.exc!r}, compiled {got.exc!r}"
    if ref.exc is not None and (type(ref.exc) is not type(got.exc) or str(ref.exc) != str(got.exc)):
        return f"exception: eager {ref.exc!r}, compiled {got.exc!r}"
    for what in ("result", "log", "args", "module"):
        try:
            same(getattr(ref, what), getattr(got, what))
        except AssertionError as e:
            return f"{what}: {e}"
    if ref.state != got.state:
        return f"torch state: eager {ref.state}, compiled {got.state}"
    return None


def check_scenario(sc: Scenario, backend: str = "eager") -> None:
    """The test of one scenario under the engine."""
    __tracebackhide__ = True
    import engine

    from .helpers import assert_compiled

    c = engine.compile(sc.fn, backend=backend)
    for k, (ref, got) in enumerate(run_pair(sc, c)):
        assert (ref.exc is not None) == sc.raises, f"call {k + 1}: eager raised {ref.exc!r}"
        diff = difference(ref, got)
        assert diff is None, f"call {k + 1}: {diff}"
    assert_compiled(c, graphs=sc.graphs, eager=sc.eager, restarts=sc.restarts)
