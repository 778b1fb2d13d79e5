"""Zero-argument super() at every position relative to a break, and other instructions that read their own
frame: each must give eager's result (or eager's exception) whether it is traced, broken on or resumed after."""

from __future__ import annotations

import torch

import engine

from .helpers import check, t

gb = torch._dynamo.graph_break


def x1():
    return (t(3),)


class SetattrBreakThenSuper:
    def __setattr__(self, name, value):
        gb()
        super().__setattr__(name, value)


class SetattrSuperThenBreak:
    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        gb()


def setattr_after_break(x):
    a = SetattrBreakThenSuper()
    a.w = x + 1
    b = SetattrSuperThenBreak()
    b.w = x * 2
    return a.w * 2 + b.w


def test_setattr_super_after_break():
    c = check(setattr_after_break, x1)
    assert c.record.breaks >= 2


class DoublingDict(dict):
    def __setitem__(self, k, v):
        gb()
        super().__setitem__(k, v * 2)

    def __getitem__(self, k):
        v = super().__getitem__(k)
        gb()
        return v + 1


def dict_subclass(x):
    d = DoublingDict()
    d["a"] = x
    d["b"] = x - 1
    return d["a"] + d["b"], sorted(d)


def test_dict_subclass_setitem_super_after_break():
    check(dict_subclass, x1)


class LoggingList(list):
    def append(self, v):
        gb()
        super().append(v)
        gb()
        super().append(len(self))


def list_subclass(x):
    lst = LoggingList()
    lst.append(x)
    lst.append(x + 1)
    return lst[0] + lst[2], len(lst), lst[1], lst[3]


def test_list_subclass_super_between_breaks():
    check(list_subclass, x1)


class Base:
    def __init__(self, x):
        self.x = x

    def f(self, y):
        return self.x * y

    @property
    def p(self):
        return self.x + 1


class Child(Base):
    def __init__(self, x):
        gb()
        super().__init__(x * 3)
        self.k = 2

    def f(self, y):
        gb()
        return super().f(y) + self.k

    @property
    def p(self):
        v = self.x
        gb()
        return v + super().p


def hierarchy(x):
    c = Child(x)
    return c.f(2), c.p, c.k


def test_init_method_property_super_after_break():
    check(hierarchy, x1)


class SelfInCell(Base):
    def f(self, y):
        g = lambda: self.x  # noqa: E731 -- `self` becomes a cell: super() reads through it
        gb()
        return super().f(y) + g()


def self_in_cell(x):
    return SelfInCell(x).f(3)


def test_super_with_self_in_a_cell():
    check(self_in_cell, x1)


class Deeper(Child):
    def f(self, y):
        r = [y, super().f(y)]
        gb()
        return r[1] + super().f(y + 1)


def deeper_chain(x):
    o = Deeper(x)
    return 1 + o.f(2) * 2, [o.p, o.f(1)]


def test_super_chain_two_levels_with_caller_stack():
    check(deeper_chain, x1)


class Early:
    def m(self):
        return super().m()


def super_attr_error(x):
    gb()
    try:
        Early().m()
    except AttributeError as e:
        return x + 1, str(e)
    return x


def test_super_attribute_error_after_break():
    check(super_attr_error, x1)


class NoSelf:
    def m(*args):  # noqa: N805 -- no first argument: super() fails in CPython, and must fail the same way
        gb()
        return super().m()


def super_no_arguments(x):
    try:
        NoSelf.m()
    except RuntimeError as e:
        return x * 2, str(e)
    return x + 1


def test_super_runtime_error_matches_eager():
    check(super_no_arguments, x1)


class DeletedSelf:
    def m(self):
        del self
        gb()
        return super().m()


def super_arg0_deleted(x):
    try:
        DeletedSelf().m()
    except (RuntimeError, UnboundLocalError) as e:  # 3.11's super() fails; 3.12 loads `self` first, and that fails
        return x * 2, str(e)
    return x + 1


def test_super_deleted_first_argument_matches_eager():
    check(super_arg0_deleted, x1)


# -- other instructions that read their own frame, reached through names the bytecode scan cannot see ----

_my_locals = locals
_my_globals = globals


def reads_locals_alias(x):
    a = x + 1
    d = _my_locals()
    gb()
    return a + 1, sorted(d)


def caller_of_locals(x):
    y = x * 2
    gb()
    return reads_locals_alias(y)


def test_locals_alias_in_callee_runs_in_its_frame():
    check(caller_of_locals, x1)


def reads_globals_alias(x):
    gb()
    return x + 1, "_my_locals" in _my_globals()


def caller_of_globals(x):
    return reads_globals_alias(x * 2)


def test_globals_alias_in_callee():
    check(caller_of_globals, x1)


def test_locals_after_a_break_in_its_own_frame_is_modeled_not_an_eager_op():
    out = engine.explain(caller_of_locals)(t(3))
    # locals() cannot be re-run outside its frame: it is built from the VM's frame (an eager call of it
    # would see the engine's frame)
    assert not [b for b in out.breaks if b.gb_id in ("frame-introspection", "internal")]
    assert out.result[1] == ["a", "x"]


class Stamped:
    """A `__setattr__` that logs, then stores through `super()` (object.__setattr__): traced, no break."""

    def __init__(self, log):
        object.__setattr__(self, "log", log)

    def __setattr__(self, name, value):
        self.log.append(name)
        super().__setattr__(name, value)


class StampedDict(dict):
    """A `__setitem__` that stores through `super()` (dict.__setitem__) twice: traced, no break."""

    def __setitem__(self, k, v):
        super().__setitem__(k, v)
        super().__setitem__(k + "_seen", True)


def stores_through_base_slots(x, rec, tab):
    rec.value = x + 1
    tab["k"] = x * 2
    dict.__setitem__(tab, "j", 3)
    object.__setattr__(rec, "other", 4)
    fresh = Stamped([])
    fresh.w = x - 1
    y = rec.value * 2 + fresh.w
    gb()
    return y, tab["k"], len(tab), sorted(tab), "k_seen" in tab, rec.other, fresh.log


def base_slot_args():
    return t(3), Stamped([]), StampedDict()  # empty: deepcopy would store its items through __setitem__


def test_stores_through_base_slots_are_replayed_not_broken_on():
    """`super().__setattr__`, `super().__setitem__`, `object.__setattr__` and `dict.__setitem__` on user
    subclasses (made here or passed in) are traced: the stores are replayed as side effects, bypassing the
    subclass's own hook as eager does; the graph before the break holds every op up to it."""
    c = check(stores_through_base_slots, base_slot_args, graphs=1, breaks=3)
    # the only break before the graph_break() would be a store; after it, the reads of the real dict subclass
    # (its len() and tab["k"] are modeled, guarded; sorted() is traced down to iterating it)
    assert [b.gb_id for b in c.record.break_records] == ["graph_break", "iter", "contains"]


class WithDescriptor:
    """object.__setattr__ runs a data descriptor's __set__: it is not a plain store."""

    class Doubling:
        def __set_name__(self, owner, name):
            self.name = "_" + name

        def __get__(self, obj, tp=None):
            return getattr(obj, self.name)

        def __set__(self, obj, value):
            obj.__dict__[self.name] = value * 2

    v = Doubling()


def setattr_through_descriptor(x):
    w = WithDescriptor()
    object.__setattr__(w, "v", x)
    return w.v + 1


def test_object_setattr_over_a_data_descriptor_is_not_a_plain_store():
    check(setattr_through_descriptor, x1)
