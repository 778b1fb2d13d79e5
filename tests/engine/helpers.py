"""Assertions shared by the engine tests: every result is compared with eager, never with a closed form.

`check` / `run_both` also assert that the engine compiled something: a test that passes while the engine
runs the function eagerly proves nothing about the engine. By default a check wants at least one graph, no
call that ran the whole function eagerly, and no trace restarted with a callee made eager; tests that cover
a fallback on purpose say so (`graphs=0`, `eager=n`, `restarts=n`).
"""

from __future__ import annotations

import copy
import math

import torch

import engine

_DEVICES = ("cpu", "cuda")


def torch_state() -> dict:
    """The global torch state a call can leave behind; eager's and the engine's must be equal."""
    state = {
        "grad": torch.is_grad_enabled(),
        "inference": torch.is_inference_mode_enabled(),
        "default_dtype": torch.get_default_dtype(),
        "function_modes": torch._C._len_torch_function_stack(),
    }
    for dev in _DEVICES:
        state[f"autocast_{dev}"] = torch.is_autocast_enabled(dev)
        state[f"autocast_dtype_{dev}"] = torch.get_autocast_dtype(dev)
    return state


def set_torch_state(state: dict) -> None:
    """Put back what `torch_state` read (inference mode cannot be set from Python: it must not have leaked)."""
    torch._C._set_grad_enabled(state["grad"])
    torch.set_default_dtype(state["default_dtype"])
    for dev in _DEVICES:
        torch.set_autocast_enabled(dev, state[f"autocast_{dev}"])
        torch.set_autocast_dtype(dev, state[f"autocast_dtype_{dev}"])


def tensors_equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise-style equality: NaN only matches NaN at the same place, and -0.0 only matches -0.0."""
    a, b = a.detach(), b.detach()
    if a.dtype != b.dtype or a.shape != b.shape or a.device != b.device:
        return False
    if not (a.is_floating_point() or a.is_complex()):
        return torch.equal(a, b)
    na, nb = torch.isnan(a), torch.isnan(b)
    if not torch.equal(na, nb):
        return False
    a, b = a.masked_fill(na, 0), b.masked_fill(nb, 0)
    if not torch.equal(a, b):
        return False
    if a.is_complex():
        a, b = torch.view_as_real(a), torch.view_as_real(b)
    return torch.equal(torch.signbit(a), torch.signbit(b))


def same(a, b):
    """Exact equality of nested results (tensors: dtype, shape, device, values incl. NaN and the sign of
    zero, requires_grad; floats: NaN only equals NaN)."""
    __tracebackhide__ = True
    if isinstance(a, torch.Tensor):
        assert isinstance(b, torch.Tensor), f"{type(b)} is not a tensor"
        assert a.dtype == b.dtype and a.shape == b.shape, f"{a.dtype}{tuple(a.shape)} != {b.dtype}{tuple(b.shape)}"
        assert a.requires_grad == b.requires_grad, "requires_grad differs"
        assert tensors_equal(a, b), f"values differ:\n{a}\n{b}"
        return
    assert type(a) is type(b), f"{type(a).__name__} != {type(b).__name__}"
    if isinstance(a, BaseException):
        same(exception_state(a), exception_state(b))
        return
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b), f"lengths {len(a)} != {len(b)}"
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, dict):
        assert list(a) == list(b), f"keys {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k])
    elif type(a).__module__ == "builtins" and hasattr(type(a), "__next__") and hasattr(type(a), "__setstate__"):
        same(a.__reduce__(), b.__reduce__())  # a sequence iterator (list_iterator, reversed...): its position
    elif type(a).__name__ in ("dict_keyiterator", "dict_valueiterator", "dict_itemiterator"):
        same(_reduced(a), _reduced(b))  # what is left to yield (or the RuntimeError once the dict changed)
    elif type(a).__eq__ is object.__eq__ and hasattr(a, "__dict__") and not isinstance(a, type):
        same(vars(a), vars(b))  # a user object: its attributes are what a call could have changed
    elif isinstance(a, float):
        assert (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b)), \
            f"{a!r} != {b!r}"
    else:
        assert a == b, f"{a!r} != {b!r}"


def _reduced(it):
    try:
        return it.__reduce__()
    except RuntimeError as e:
        return repr(e)


def exception_state(e: BaseException | None, depth: int = 3):
    """What can be observed of an exception, as data: type, args, attributes, the traceback's (function,
    line) pairs, and the same for its context and cause (`depth` links deep)."""
    if e is None or depth == 0:
        return None
    tb, frames = e.__traceback__, []
    while tb is not None:
        frames.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    return (type(e), e.args, vars(e), frames, exception_state(e.__context__, depth - 1),
            exception_state(e.__cause__, depth - 1), e.__suppress_context__)


def assert_compiled(c, graphs=None, breaks=None, eager=0, restarts=0):
    """What the engine did: `graphs` None means at least one, an int exactly that many; `breaks` likewise
    exact when given; `eager` is the exact number of calls that ran the whole function eagerly; `restarts`
    the exact number of traces restarted with a callee made eager (None: any)."""
    __tracebackhide__ = True
    rec = c.record
    assert rec.eager_calls == eager, f"{rec.eager_calls} call(s) ran the whole function eagerly, expected {eager}"
    if not eager:
        assert rec.frames_traced >= 1, "nothing was traced"
    if graphs is None:
        assert rec.graphs >= 1, "no graph was compiled"
    else:
        assert rec.graphs == graphs, f"{rec.graphs} graphs, expected {graphs} ({rec.break_records})"
    if breaks is not None:
        assert rec.breaks == breaks, f"{rec.breaks} breaks, expected {breaks}: {rec.break_records}"
    if restarts is not None:
        assert rec.restarts == restarts, f"{rec.restarts} restarts, expected {restarts}"
    for gm in rec.graph_modules:
        gm.graph.lint()


def _call(fn, args):
    try:
        return fn(*args), None
    except Exception as e:
        return None, e


def run_both(fn, make_args, nested=True, backend="eager", calls=2, graphs=None, breaks=None, eager=0,
             restarts=0):
    """Run fn eagerly and compiled (`calls` times each, fresh args each time); compare results, exceptions,
    the arguments afterwards (effect logs passed in included) and the global torch state left behind; then
    assert what was compiled (see `assert_compiled`)."""
    __tracebackhide__ = True
    c = engine.compile(fn, backend=backend, nested=nested)
    for _ in range(calls):
        before = torch_state()
        eager_args = make_args()
        comp_args = copy.deepcopy(eager_args)
        ref, ref_exc = _call(fn, eager_args)
        eager_state = torch_state()
        set_torch_state(before)
        out, exc = _call(c, comp_args)
        comp_state = torch_state()
        set_torch_state(before)
        assert comp_state == eager_state, f"torch state after the call: eager {eager_state}, engine {comp_state}"
        if ref_exc is not None or exc is not None:
            assert type(exc) is type(ref_exc), f"eager raised {ref_exc!r}, engine {exc!r}"
            assert str(exc) == str(ref_exc)
        else:
            same(ref, out)
        same(list(eager_args), list(comp_args))
    assert_compiled(c, graphs, breaks, eager, restarts)
    return c


def check(fn, make_args, graphs=None, breaks=None, eager=0, restarts=0, **kw):
    """Both modes agree with eager; returns the NGB compiled function (for stats). `graphs`/`breaks` are
    checked on the NGB run; classic mode must compile too (at least one graph unless graphs=0)."""
    __tracebackhide__ = True
    c = run_both(fn, make_args, nested=True, graphs=graphs, breaks=breaks, eager=eager, restarts=restarts, **kw)
    run_both(fn, make_args, nested=False, graphs=0 if graphs == 0 else None, eager=eager, restarts=None, **kw)
    return c


def t(*shape, seed=0, requires_grad=False):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).requires_grad_(requires_grad)
