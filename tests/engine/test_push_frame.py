"""Frames pushed above an instruction other than CALL (a with-block's `__enter__`, a property getter, a
user `__iter__`) enter their grad-mode decorator as a called function does (VM.push_frame)."""

import torch

import engine


class Block:
    def __init__(self, w):
        self.w = w

    @torch.no_grad()
    def __enter__(self):
        return self.w * 2

    def __exit__(self, *exc):
        return False


class Holder:
    def __init__(self, w):
        self.w = w

    @property
    @torch.no_grad()
    def scaled(self):
        return self.w * 3

    @torch.no_grad()
    def __iter__(self):
        return iter([self.w * 4])


def with_enter(w, x):
    with Block(w) as s:
        y = x + s
    return y, s.requires_grad


def property_get(w, x):
    s = Holder(w).scaled
    return x + s, s.requires_grad


def user_iter(w, x):
    out = []
    for s in Holder(w):
        out.append((x + s, s.requires_grad))
    return out[0]


def _check(fn):
    w, x = torch.ones(3, requires_grad=True), torch.ones(3)
    ref = fn(w, x)
    engine.reset()
    c = engine.compile(fn)
    out = c(w, x)
    assert out[1] == ref[1] is False
    assert out[0].requires_grad == ref[0].requires_grad and torch.equal(out[0], ref[0])
    assert torch.is_grad_enabled()


def test_decorated_enter_runs_in_its_grad_mode():
    _check(with_enter)


def test_decorated_property_getter_runs_in_its_grad_mode():
    _check(property_get)


def test_decorated_iter_runs_in_its_grad_mode():
    _check(user_iter)
