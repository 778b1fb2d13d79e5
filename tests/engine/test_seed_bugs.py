"""The shapes of the NGB bugs from the May-2026 update, each checked against eager in both modes."""

from __future__ import annotations

import contextlib
import types

import torch

from .helpers import check, t

gb = torch._dynamo.graph_break


def x1():
    return (t(3, requires_grad=True),)


# 1. context managers of upper frames stay active across a nested break
def uf_inner(x):
    x = x + 1
    gb()
    assert not torch.is_grad_enabled()
    return x + 2


def upper_frame_ctx(x):
    with torch.no_grad():
        return uf_inner(x)


# 2. a closure defined in another module keeps that module's globals across the break
_mod_a = types.ModuleType("ngb_mod_a")
exec(compile('''
import torch
HELPER_CONSTANT = torch.tensor([100.0])
def closure_with_graph_break(x):
    captured = x + 1
    def inner():
        torch._dynamo.graph_break()
        return captured + HELPER_CONSTANT
    return inner()
''', "ngb_mod_a", "exec"), _mod_a.__dict__)


def other_module_closure(x):
    return _mod_a.closure_with_graph_break(x) + 2


# 3. a context manager applied as a decorator
def dec_fn(x):
    x = x + 1
    gb()
    assert not torch.is_grad_enabled()
    return x + 2


def decorator_ctx(x):
    x = torch.no_grad()(dec_fn)(x)
    assert torch.is_grad_enabled()
    return x


# 4. a step break under a non-empty parent operand stack
def step_inner(x):
    x = x + 1
    torch._dynamo.step_unsupported()
    return x + 1


def step_parent_stack(x):
    x = x + 1
    y = (x, step_inner(x))
    return x, y


# 5. contextlib.contextmanager whose generator is disabled
@contextlib.contextmanager
@torch._dynamo.disable(recursive=False)
def my_ctx():
    yield


def contextmanager_init(x):
    x = x + 1
    with my_ctx():
        x = x + 2
    return x + 3


def test_upper_frame_ctx():
    check(upper_frame_ctx, x1)


def test_other_module_closure():
    check(other_module_closure, x1)


def test_decorator_ctx():
    check(decorator_ctx, x1)


def test_step_parent_stack():
    c = check(step_parent_stack, x1)
    assert c.stats()["graphs"] == 2


def test_contextmanager_init():
    check(contextmanager_init, x1)


def test_disabled_call_is_a_break():
    @torch._dynamo.disable
    def eager_only(x):
        return x * 2

    def fn(x):
        return eager_only(x + 1) - 1

    c = check(fn, x1)
    assert c.stats()["breaks"] == 1


def sge_callee(x):
    x = x * 2
    gb()
    return x + torch.is_grad_enabled()


def set_grad_enabled_as_decorator(x):
    y = torch.set_grad_enabled(False)(sge_callee)(x)
    z = x * 3
    with torch.set_grad_enabled(False):
        w = sge_callee(x)
    torch.set_grad_enabled(False)
    v = x * 4
    torch.set_grad_enabled(True)
    return y, z, w, v, torch.is_grad_enabled()


def test_set_grad_enabled_forms():
    check(set_grad_enabled_as_decorator, x1)


@torch.no_grad()
def decorated_no_grad(x):
    y = x * 2
    gb()
    return y + torch.is_grad_enabled()


@torch.enable_grad()
def decorated_enable_grad(x):
    return x * 3, torch.is_grad_enabled()


def decorated_functions(x):
    a = decorated_no_grad(x)
    with torch.no_grad():
        b = decorated_enable_grad(x)
    return a, b, torch.is_grad_enabled()


def test_grad_mode_decorated_functions():
    c = check(decorated_functions, x1)
    assert c.stats()["breaks"] == 1


@torch.no_grad()
@torch.enable_grad()
def stacked(x):
    return x * 2, torch.is_grad_enabled()


def stacked_decorators(x):
    a = stacked(x)
    with torch.no_grad():
        b = torch.enable_grad()(torch.no_grad()(stacked))(x)
    return a, b, torch.is_grad_enabled()


def test_stacked_grad_decorators():
    check(stacked_decorators, x1)
