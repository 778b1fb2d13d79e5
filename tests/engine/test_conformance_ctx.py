"""Conformance: context managers active in upper frames across a break in a deeper frame."""

from __future__ import annotations

import contextlib

import pytest
import torch

from .conformance import Scenario, check_scenario, x1, xg
from .helpers import t

gb = torch._dynamo.graph_break


def _leaf(log, x):
    log.append(("leaf", torch.is_grad_enabled()))
    gb()
    return x * 2


def _mid(log, x):
    y = _leaf(log, x + 1)
    log.append(("mid", torch.is_grad_enabled()))
    return y - 1


def no_grad_upper_frame(log, x):
    with torch.no_grad():
        y = _mid(log, x)
    return y, y.requires_grad, torch.is_grad_enabled()


def enable_grad_inside_no_grad(log, x):
    with torch.no_grad():
        a = x * 3
        with torch.enable_grad():
            b = _mid(log, x)
        c = _leaf(log, x)
    return a.requires_grad, b.requires_grad, c.requires_grad, a + b + c


def set_grad_enabled_false(log, x):
    with torch.set_grad_enabled(False):
        y = _mid(log, x)
    log.append(torch.is_grad_enabled())
    return y


def set_grad_enabled_call_form(log, x):
    torch.set_grad_enabled(False)
    y = _mid(log, x)
    torch.set_grad_enabled(True)
    return y, y.requires_grad


def inference_mode_upper_frame(log, x):
    with torch.inference_mode():
        y = _mid(log, x)
        log.append(torch.is_inference_mode_enabled())
    return y * 1, torch.is_inference_mode_enabled()


def autocast_upper_frame(log, x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = _mid(log, x @ x)
        z = torch.mm(y, y)
        log.append(torch.is_autocast_enabled("cpu"))
    return z, z.dtype, y.dtype


def _deep(log, x, n):
    if n == 0:
        log.append(("bottom", torch.is_grad_enabled()))
        gb()
        return x + 1
    return _deep(log, x * 2, n - 1) + n


def no_grad_depth_five(log, x):
    with torch.no_grad():
        y = _deep(log, x, 5)
    return y, y.requires_grad


def nested_ctx_in_two_frames(log, x):
    def inner(v):
        with torch.enable_grad():
            log.append(torch.is_grad_enabled())
            gb()
            return v * 2

    with torch.no_grad():
        y = inner(x)
        z = x * 2
    return y.requires_grad, z.requires_grad, y + z


class Tag:
    def __init__(self, log, name):
        self.log = log
        self.name = name

    def __enter__(self):
        self.log.append(("enter", self.name))
        return self.name

    def __exit__(self, *exc):
        self.log.append(("exit", self.name, exc[0] is not None))
        return False


class Swallow(Tag):
    def __exit__(self, *exc):
        self.log.append(("swallow", exc[0].__name__ if exc[0] else None))
        return True


def user_cm_upper_frame(log, x):
    with Tag(log, "a") as name:
        y = _mid(log, x)
    return y, name


def user_cm_exception_through_exit(log, x):
    try:
        with Tag(log, "e"):
            _leaf(log, x)
            raise KeyError("k")
    except KeyError as e:
        log.append(("caught", e.args))
    return x + 1


def user_cm_swallows_exception(log, x):
    with Swallow(log, "f"):
        y = _leaf(log, x)
        raise ValueError("gone")
    return y + 1


@contextlib.contextmanager
def tagged(log, tag):
    log.append(("cm-enter", tag))
    try:
        yield tag
    finally:
        log.append(("cm-exit", tag))


@contextlib.contextmanager
def plain_cm(log):
    log.append("plain-enter")
    yield 5
    log.append("plain-exit")


@contextlib.contextmanager
@torch._dynamo.disable(recursive=False)
def disabled_cm(log):
    log.append("d-enter")
    yield
    log.append("d-exit")


def contextmanager_no_break(log, x):
    with plain_cm(log) as v:
        y = x + v
    return y


def contextmanager_break_inside_block(log, x):
    with tagged(log, "t") as v:
        y = _mid(log, x)
    return y, v


def contextmanager_upper_frame_break_deeper(log, x):
    def inner(v):
        with plain_cm(log):
            return _leaf(log, v)

    with tagged(log, "outer"):
        return inner(x) + 1


def contextmanager_disabled(log, x):
    with disabled_cm(log):
        y = _leaf(log, x)
    return y


def contextmanager_exception_through(log, x):
    try:
        with tagged(log, "x"):
            gb()
            raise ValueError("v")
    except ValueError:
        log.append("caught")
    return x - 1


@torch.no_grad()
def _decorated_leaf(log, x):
    log.append(torch.is_grad_enabled())
    gb()
    return x * 2


@torch.enable_grad()
def _enable_decorated(log, x):
    return _decorated_leaf(log, x) + x


def no_grad_decorator_form(log, x):
    y = _decorated_leaf(log, x)
    return y, y.requires_grad, torch.is_grad_enabled()


def stacked_grad_decorators(log, x):
    with torch.no_grad():
        y = _enable_decorated(log, x)
    return y, y.requires_grad


def no_grad_call_form(log, x):
    y = torch.no_grad()(_leaf)(log, x)
    return y, y.requires_grad


def ctx_object_entered_after_break(log, x):
    ctx = torch.no_grad()
    gb()
    with ctx:
        y = x * 2
    return y, y.requires_grad


def exception_leaves_no_grad(log, x):
    try:
        with torch.no_grad():
            _leaf(log, x)
            raise RuntimeError("r")
    except RuntimeError:
        pass
    return torch.is_grad_enabled(), x * 2


class Inspect(Tag):
    """An `__exit__` that looks at the exception (type, args, whether there is a traceback) and swallows
    only KeyError."""

    def __exit__(self, exc_type, exc, tb):
        self.log.append(("inspect", exc_type.__name__ if exc_type else None, exc.args if exc else None,
                         tb is not None))
        return exc_type is KeyError


def user_cm_exit_inspects_exception(log, x):
    for err in (KeyError, ValueError):
        try:
            with Inspect(log, "i"):
                y = x * 2
                raise err("k", 1)
        except ValueError as e:
            log.append(("outside", e.args))
    return y + 1


def grad_mode_objects_are_torchs(log, x):
    a, b = torch.no_grad(), torch.enable_grad()
    log.append((type(a).__name__, isinstance(b, torch.enable_grad)))
    gb()
    c = torch.set_grad_enabled(False)
    log.append((type(a).__name__, isinstance(a, torch.no_grad), type(b).__name__))
    gb()
    with c:
        y = x * 2
    return y, type(c).__name__, c.prev, torch.is_grad_enabled()


SCENARIOS = [
    Scenario(no_grad_upper_frame, xg, 2),
    Scenario(enable_grad_inside_no_grad, xg, 3),
    Scenario(set_grad_enabled_false, xg, 2),
    Scenario(set_grad_enabled_call_form, xg, 2),
    Scenario(inference_mode_upper_frame, x1, 3),
    Scenario(autocast_upper_frame, lambda: (t(3, 3),), 2),
    Scenario(no_grad_depth_five, xg, 2),
    Scenario(nested_ctx_in_two_frames, xg, 1),
    Scenario(user_cm_upper_frame, x1, 2),
    Scenario(user_cm_exception_through_exit, x1, 1),
    Scenario(user_cm_swallows_exception, x1, 1),
    Scenario(user_cm_exit_inspects_exception, x1, 1),
    Scenario(grad_mode_objects_are_torchs, xg, 1),
    Scenario(contextmanager_no_break, x1, 1),
    Scenario(contextmanager_break_inside_block, x1, 2),
    Scenario(contextmanager_upper_frame_break_deeper, x1, 1),
    Scenario(contextmanager_disabled, x1, 1),
    Scenario(contextmanager_exception_through, x1, 1),
    Scenario(no_grad_decorator_form, xg, 1),
    Scenario(stacked_grad_decorators, xg, 1),
    Scenario(no_grad_call_form, xg, 1),
    Scenario(ctx_object_entered_after_break, xg, 1),
    Scenario(exception_leaves_no_grad, xg, 1),
]


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_context_managers(sc):
    check_scenario(sc)
