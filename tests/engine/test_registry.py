"""The model registry (engine/_vm/_iface.py): a registered model is what the VM calls for its target."""

import collections

import torch

import engine
from engine._vm import _handlers  # noqa: F401  (binds the operations, registers the models)
from engine._vm._iface import MODELS, OPERATIONS, VMOps, model, model_for


def _registered(target, fn):
    assert target not in MODELS
    model(target)(fn)


def test_every_operation_is_bound():
    assert {"call", "call_method", "load_attr", "get_iter", "binary", "wrap"} <= OPERATIONS
    assert not [n for n in OPERATIONS if getattr(VMOps.__dict__[n], "_unbound", False)]


def test_builtin_models_are_registered():
    assert model_for(len) is not None and model_for(isinstance) is not None


def test_a_method_model_is_asked_with_its_receiver():
    seen = []

    def append_model(vm, args, kwargs):
        seen.append((type(args[0]).__name__, len(args)))
        return NotImplemented  # declines: the call runs eagerly, as without a model

    def f(d, x):
        d.append(x + 1)
        return x * 2

    _registered(collections.deque.append, append_model)
    try:
        engine.reset()
        d, x = collections.deque(), torch.ones(2)
        out = engine.compile(f)(d, x)
    finally:
        del MODELS[collections.deque.append]
        engine.reset()
    assert torch.equal(out, x * 2) and len(d) == 1 and torch.equal(d[0], x + 1)
    assert seen and seen[0][1] == 2


def _helper(x):
    return x + 1


def test_a_python_function_model_is_asked_before_tracing():
    seen = []

    def helper_model(vm, args, kwargs):
        seen.append(len(args))
        return NotImplemented  # declines: the function is traced, as without a model

    def f(x):
        return _helper(x) * 2

    _registered(_helper, helper_model)
    try:
        engine.reset()
        x = torch.ones(2)
        c = engine.compile(f)
        out = c(x)
    finally:
        del MODELS[_helper]
        engine.reset()
    assert torch.equal(out, (x + 1) * 2) and seen == [1]
    assert c.record.eager_calls == 0


class _Counter:
    """A stand-in library type the test models symbolically (eager: a plain class)."""

    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1
        return self.n


def test_a_symbolic_value_of_a_model_family_gets_its_methods_from_the_registry():
    from engine._vm._values import ConstVar, Var

    class CountVar(Var):  # a model family's own symbolic value, never made real here
        __slots__ = ("n",)

        def __init__(self):
            self.n = 0

    def new_counter(vm, args, kwargs):
        return CountVar() if not args and not kwargs else NotImplemented

    def bump(vm, args, kwargs):
        args[0].n += 1
        return ConstVar(args[0].n)

    def f(x):
        c = _Counter()
        c.bump()
        return x * c.bump()

    _registered(_Counter, new_counter)
    _registered((CountVar, "bump"), bump)
    try:
        engine.reset()
        x = torch.ones(2)
        c = engine.compile(f)
        out = c(x)
    finally:
        del MODELS[_Counter], MODELS[(CountVar, "bump")]
        engine.reset()
    assert torch.equal(out, x * 2)
    assert c.record.eager_calls == 0 and c.record.breaks == 0
