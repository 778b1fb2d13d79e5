"""What the worker observes: comparable data, deterministic, with nothing of one run (addresses, ids, paths)."""

import contextlib
import types

import torch

from oracle import _observe as obs


def test_exception_messages_lose_addresses_ids_and_paths_so_runs_compare_equal():
    def normalized(text):
        return obs.observe_exception(ValueError(text))

    assert normalized("<Foo object at 0x7f3a2b9c10d0>") == ("ValueError", "<Foo object at 0x?>")
    assert normalized("bad <Foo object at 0x7f3a2b9c10d0>") == normalized("bad <Foo object at 0x55d1e2f3a4b0>")
    assert normalized('File "/tmp/tmpk2j3x/ngb_x.py", line 3') == ("ValueError", 'File "<file>", line 3')
    assert normalized("/usr/lib/python3.11/site-packages/torch/_dynamo/x.py:12: oops") == \
        ("ValueError", "<file>:12: oops")
    assert normalized("no such file: '/tmp/pytest-of-root/pytest-3/test0/data.txt'") == \
        ("ValueError", "no such file: '<path>'")
    assert normalized("tensor with id 140234567891234 was freed") == ("ValueError", "tensor with id <id> was freed")
    # not addresses, ids or paths: kept, so a real difference in them still shows
    for kept in ("ratio 3/4 of a/b", "size 1000000 at index 7", "version 2.13.0", "/x", "0.5"):
        assert normalized(kept) == ("ValueError", kept)
    assert obs.observe_exception(KeyError("k")) == ("KeyError", "'k'")
    assert len(normalized("x" * 5000)[1]) == 2000


def test_scalars_containers_and_tensors_are_tagged():
    assert obs.observe(None) == ("NoneType", None)
    assert obs.observe(True) == ("bool", True)
    assert obs.observe(3) == ("int", 3)
    assert obs.observe("s") == ("str", "s")
    assert obs.observe([1, (2,)]) == ("list", [("int", 1), ("tuple", [("int", 2)])])
    assert obs.observe({"k": 1}) == ("dict", [(("str", "k"), ("int", 1))])
    assert obs.observe({2, 1}) == ("set", [("int", 1), ("int", 2)])
    assert obs.observe(torch.float32) == ("torch", "torch.float32")
    assert obs.observe(torch.Size([2, 3])) == ("size", (2, 3))
    tag, dtype, shape, device, requires_grad, data = obs.observe(torch.ones(2, 3, requires_grad=True))
    assert (tag, dtype, shape, device, requires_grad) == ("tensor", "torch.float32", (2, 3), "cpu", True)
    assert not data.requires_grad and torch.equal(data, torch.ones(2, 3))
    assert obs.observe(torch.ones(2).to_sparse())[-1] is None


def test_named_tuples_functions_types_modules_objects_and_cycles():
    values, indices = torch.tensor([3.0, 1.0]).max(0)
    assert obs.observe(torch.tensor([3.0, 1.0]).max(0))[0] == "max"
    assert obs.observe(obs.observe)[0] == "function" and obs.observe(int) == ("type", "int")
    assert obs.observe(types) == ("module", "types")

    class Thing:
        def __init__(self):
            self.a = 1

    thing = Thing()
    assert obs.observe(thing) == ("object", Thing.__qualname__, ("dict", [(("str", "a"), ("int", 1))]))
    loop = []
    loop.append(loop)
    assert obs.observe(loop) == ("list", [("cycle", "list")])
    deep = [[[[[[[[[[1]]]]]]]]]]
    assert "deep" in repr(obs.observe(deep))
    deep_tuple = 1
    for _ in range(10):
        deep_tuple = (deep_tuple,)
    assert "deep" in repr(obs.observe({deep_tuple}))  # sets count depth like every other container
    module = torch.nn.Linear(1, 1)
    assert obs.observe(module)[:2] == ("nn.Module", "Linear")
    assert obs.observe(object())[0] == "opaque"
    chain = None  # objects count depth too: a long linked chain is cut, not walked to its end
    for i in range(40):
        node = Thing()
        node.a, node.next = i, chain
        chain = node
    assert "deep" in repr(obs.observe(chain)) and "unobservable" not in repr(obs.observe(chain))


def test_a_tensor_observed_by_metadata_only_is_still_a_tensor():
    sparse = torch.eye(2).to_sparse()
    tag, dtype, shape, device, requires_grad, data = obs.observe(sparse)
    assert (tag, dtype, shape, device, requires_grad, data) == ("tensor", "torch.float32", (2, 2), "cpu", False, None)


def test_globals_of_the_program_and_its_helper_modules_but_not_functions_or_private_names():
    helper = types.ModuleType("ngb_helper")
    helper.SCALE = 2.0
    program = types.ModuleType("ngb_program")
    program.COUNTER, program._private, program.EFFECTS = 3, 1, [1]
    program.f, program.helper, program.alias = (lambda: 0), helper, helper
    program.table = {"a": [1, 2]}
    program.unobservable_mix = [1, len]
    other = types.ModuleType("not_a_helper")  # e.g. an imported library module: its globals are not the program's
    other.X = 1
    program.other = other
    assert obs.observe_globals(program) == ("dict", [
        (("str", "COUNTER"), ("int", 3)),
        (("str", "ngb_helper.SCALE"), ("float", 2.0)),
        (("str", "table"), ("dict", [(("str", "a"), ("list", [("int", 1), ("int", 2)]))])),
    ])


def test_is_data():
    assert obs.is_data(1) and obs.is_data(torch.ones(1)) and obs.is_data([1, {"a": (2,)}])
    assert not obs.is_data(len) and not obs.is_data([1, len]) and not obs.is_data({"a": len})
    assert not obs.is_data([[[[[1]]]]])  # deeper than is worth observing


def test_torch_state_is_observed_and_restored():
    default = obs.torch_state()
    assert default["grad_enabled"] and not default["inference_mode"] and default["default_dtype"] == "torch.float32"
    try:
        torch.set_grad_enabled(False)
        torch.set_default_dtype(torch.float64)
        torch.set_autocast_enabled("cpu", True)
        leaked = obs.torch_state()
        assert (leaked["grad_enabled"], leaked["default_dtype"], leaked["autocast_cpu"]) == \
            (False, "torch.float64", True)
        assert obs.restore_torch_state(default)
        assert obs.torch_state() == default
    finally:
        torch.set_grad_enabled(True)
        torch.set_default_dtype(torch.float32)
        torch.set_autocast_enabled("cpu", False)


@contextlib.contextmanager
def _leaked_dispatch_mode():
    """A torch dispatch mode left on the stack, as a compiler that failed half-way could leave one."""
    from torch.utils._python_dispatch import TorchDispatchMode, _pop_mode, _push_mode

    class Spy(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    _push_mode(Spy())
    try:
        yield
    finally:
        _pop_mode()


def test_health_check_sees_a_leaked_dispatch_mode():
    default = obs.dispatch_state()
    assert obs.healthy(default)
    with _leaked_dispatch_mode():
        assert not obs.healthy(default)
    assert obs.healthy(default)


def test_a_repair_that_cannot_be_made_is_refused():
    """A leaked dispatch *mode* is not a key set ``repair_dispatch`` may reset: the worker must be replaced."""
    default = obs.dispatch_state()
    with _leaked_dispatch_mode():
        assert not obs.repair_dispatch(default)
    assert obs.repair_dispatch(default)  # nothing to repair: healthy, and it still compiles correctly


_PROGRAM_TYPES = '''
import collections, dataclasses, enum


class Color(enum.Enum):
    RED = 1


class Level(enum.IntEnum):
    HIGH = 3


class Perm(enum.IntFlag):
    R = 1
    W = 2


class Name(str):
    pass


Point = collections.namedtuple("Point", ["a", "b"])


@dataclasses.dataclass(slots=True)
class Slotted:
    rank: int
    note: str = "s"


class Slots:
    __slots__ = ("a", "__hidden", "unset")

    def __init__(self):
        self.a = 1
        self.__hidden = 2


class SubSlots(Slots):
    def __init__(self):
        super().__init__()
        self.extra = 3
'''


def _program_types():
    """The classes a program defines, in a module that is not importable (as the worker loads programs)."""
    module = types.ModuleType("ngb_program")
    exec(compile(_PROGRAM_TYPES, "<program>", "exec", dont_inherit=True), module.__dict__)
    return module


def test_library_containers_keep_their_type_items_and_maxlen():
    import collections

    dq = collections.deque([1, torch.ones(2)], maxlen=3)
    tag, items, maxlen = obs.observe(dq)
    assert (tag, items[0], maxlen) == ("deque", ("int", 1), ("int", 3)) and items[1][0] == "tensor"
    assert obs.observe(collections.deque([1]))[2] == ("NoneType", None)
    assert obs.observe(collections.deque([1, 2])) != obs.observe(collections.deque([2, 1]))
    counter = collections.Counter("abb")
    assert obs.observe(counter) == ("mapping", "Counter", ("dict", [(("str", "a"), ("int", 1)),
                                                                    (("str", "b"), ("int", 2))]))
    assert obs.observe(collections.OrderedDict(a=1))[:2] == ("mapping", "OrderedDict")
    assert obs.observe(collections.defaultdict(list, a=[]))[:2] == ("mapping", "defaultdict")
    assert obs.observe(collections.OrderedDict(a=1))[2] == obs.observe({"a": 1})  # items as a dict's
    assert obs.observe({"a": 1}) == ("dict", [(("str", "a"), ("int", 1))])  # a plain dict is as before
    assert obs.is_data(collections.deque([1.0]))


def test_enum_members_scalar_subclasses_and_slots_are_observed_as_eager_shows_them():
    import pickle

    m = _program_types()
    assert obs.observe(m.Color.RED) == ("enum", "Color", "RED", ("int", 1))
    assert obs.observe(m.Level.HIGH) == ("enum", "Level", "HIGH", ("int", 3))
    assert obs.observe(m.Perm.R | m.Perm.W)[:2] == ("enum", "Perm")
    assert obs.observe(m.Perm.R | m.Perm.W)[3] == ("int", 3)
    assert obs.observe(m.Name("n")) == ("Name", "n")
    assert obs.observe(m.Point(1, 2)) == ("Point", [("int", 1), ("int", 2)])
    assert obs.observe(m.Slotted(2)) == ("object", "Slotted", obs.observe({"rank": 2, "note": "s"}))
    assert obs.observe(m.Slotted(2)) != obs.observe(m.Slotted(3))
    assert obs.observe(m.Slots()) == ("object", "Slots", obs.observe({"a": 1, "_Slots__hidden": 2}))
    assert obs.observe(m.SubSlots())[2] == obs.observe({"a": 1, "_Slots__hidden": 2, "extra": 3})
    for value in (m.Color.RED, m.Level.HIGH, m.Name("n"), m.Slotted(1), m.Slots(), m.Perm.R):
        pickle.dumps(obs.observe(value))  # the worker sends observations to a parent that cannot import them
        assert obs.is_data(value)


def test_a_tensor_subclass_is_observed_by_name_and_a_plain_tensor_in_its_place_differs():
    from oracle._compare import compare_calls

    class Sub(torch.Tensor):
        pass

    plain, sub = obs.observe(torch.ones(2)), obs.observe(torch.ones(2).as_subclass(Sub))
    assert len(plain) == 6 and sub[6] == Sub.__qualname__ and torch.equal(sub[5], plain[5])
    assert type(sub[5]) is torch.Tensor  # the data as a Tensor: it unpickles in the parent
    # a parameter is a Tensor here: compiled code may give a parameter's value as either
    assert len(obs.observe(torch.nn.Parameter(torch.ones(2)))) == 6

    def calls(value):
        return [{"value": value, "exception": None, "torch_state": {}}]

    found = compare_calls(calls(sub), calls(plain), None)
    assert [(d.aspect, d.cls) for d in found] == [("value", "subclass")]
    assert "Sub" in found[0].expected and "Sub" not in found[0].actual
    assert compare_calls(calls(sub), calls(obs.observe(torch.ones(2).as_subclass(Sub))), None) == []
