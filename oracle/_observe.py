"""What a run of a program leaves behind, turned into plain comparable data.

This module imports only the standard library and torch: the worker uses it under any interpreter that has
torch, including another Python/torch install that does not have ngb-fuzz.

Observed values are tuples whose first item (a str tag) says what they are; the children of containers are
held in Python *lists*, so a comparer can tell a sequence of observed values from a plain tuple such as a
shape. Tensors keep a detached CPU copy so that the parent can compare them with a tolerance. Everything here
must be deterministic: no ids, no addresses.
"""

from __future__ import annotations

import builtins
import collections
import enum
import inspect
import re
import types
from typing import Any

import torch

MAX_DEPTH = 8
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# Absolute paths of two or more parts (sources, temp files and directories), not a ratio such as "3/4".
_PATH = re.compile(r"(?<![\w.~-])(?:/[\w.+~@-]+){2,}/?")
# Object ids (id(obj) is an address: 12+ digits on 64-bit builds), as some messages print them in decimal.
_OBJECT_ID = re.compile(r"(?<![\w.])\d{12,}(?![\w.])")
_SCALARS: tuple[type[Any], ...] = (type(None), bool, int, float, complex, str, bytes)
# An observed value: a tagged tuple, its children in lists (see above); nested arbitrarily, so typed loosely.
Observed = Any
DispatchState = tuple[str, str, int]  # included keys, excluded keys, dispatch mode stack depth
_GROUP = getattr(builtins, "BaseExceptionGroup", None)  # Python 3.11+


def observe(value: object, depth: int = 0, _seen: frozenset[int] = frozenset()) -> Observed:
    """Encode ``value`` as comparable data (see the module docstring); never raises.

    A value that cannot even be read (a compiler leaked an internal tensor into a global, say) is observed as
    ``("unobservable", type, error)``: a difference from eager, reported as such, never a harness failure.
    """
    try:
        return _observe(value, depth, _seen)
    except Exception as exc:  # noqa: BLE001 - see the docstring
        return ("unobservable", type(value).__qualname__, type(exc).__qualname__)


def _observe(value: object, depth: int, _seen: frozenset[int]) -> Observed:
    if type(value) in _SCALARS:
        return (type(value).__name__, value)
    if isinstance(value, enum.Enum):  # by class and name (IntEnum/IntFlag members are ints too), and value
        return ("enum", type(value).__qualname__, value.name, observe(value.value, depth + 1, _seen))
    if isinstance(value, _SCALARS):  # a subclass of a scalar type: its value as the plain type (picklable)
        base = next(t for t in _SCALARS if isinstance(value, t))
        return (type(value).__qualname__, base(value))
    if depth > MAX_DEPTH:
        return ("deep", type(value).__qualname__)
    if isinstance(value, torch.Tensor):
        return observe_tensor(value)
    key = id(value)
    if key in _seen:
        return ("cycle", type(value).__qualname__)
    seen = _seen | {key}
    if isinstance(value, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
        return ("torch", str(value))
    if isinstance(value, torch.Size):
        return ("size", tuple(value))
    if isinstance(value, (list, tuple)):
        kind = "list" if isinstance(value, list) else "tuple"
        if isinstance(value, tuple) and type(value) is not tuple:
            kind = type(value).__qualname__  # namedtuples and return types keep their name
        return (kind, [observe(v, depth + 1, seen) for v in value])
    if isinstance(value, dict):
        items = (
            "dict",
            [(observe(k, depth + 1, seen), observe(v, depth + 1, seen)) for k, v in value.items()],
        )
        if type(value) is dict:
            return items
        # Counter, OrderedDict, defaultdict, user subclasses: the type's name, then the items in their order
        return ("mapping", type(value).__qualname__, items)
    if isinstance(value, collections.deque):
        return ("deque", [observe(v, depth + 1, seen) for v in value], observe(value.maxlen))
    if isinstance(value, (set, frozenset)):
        members = [observe(v, depth + 1, seen) for v in value]
        return (type(value).__name__, sorted(members, key=repr))
    if isinstance(value, types.FunctionType):
        return ("function", value.__qualname__)
    if isinstance(value, type):
        return ("type", value.__qualname__)
    if isinstance(value, types.ModuleType):
        return ("module", value.__name__)
    if isinstance(value, types.GeneratorType):
        return ("generator", value.__qualname__, inspect.getgeneratorstate(value))
    if isinstance(value, torch.nn.Module):
        state = {k: v for k, v in value.state_dict(keep_vars=True).items()}
        return ("nn.Module", type(value).__qualname__, observe(state, depth + 1, seen))
    attrs = getattr(value, "__dict__", None)
    slots = _slot_values(value)
    if slots or isinstance(attrs, dict):
        fields = {**slots, **(attrs if isinstance(attrs, dict) else {})}
        return ("object", type(value).__qualname__, observe(fields, depth + 1, seen))
    return ("opaque", type(value).__qualname__)


def _slot_values(value: object) -> dict[str, object]:
    """The set ``__slots__`` of ``value`` (a ``slots=True`` dataclass, a class with ``__slots__``), base
    classes' first, by their (mangled) attribute names; read through the slot descriptors, so no user hook
    runs."""
    out = {}
    for cls in reversed(type(value).__mro__):
        names = cls.__dict__.get("__slots__", ())
        for name in ((names,) if isinstance(names, str) else names):
            if name in ("__dict__", "__weakref__"):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{cls.__name__.lstrip('_')}{name}"
            slot = cls.__dict__.get(name)
            if slot is None or not hasattr(slot, "__get__"):
                continue
            try:
                out[name] = slot.__get__(value, cls)
            except AttributeError:  # an unset slot is absent, as ``vars`` would not show it
                pass
    return out


def observe_tensor(t: torch.Tensor) -> Observed:
    """``("tensor", dtype, shape, device, requires_grad, data)``, and the class's name last for a subclass (a
    ``torch.Tensor`` subclass of the program's, ``as_subclass``): a compiled function that gives a plain
    Tensor where eager gives the subclass differs (seen: ``nonstrict_trace`` drops it). A ``Parameter`` is a
    Tensor here, as compiled code may give a parameter's value either way."""
    meta = (str(t.dtype), tuple(t.shape), t.device.type, bool(t.requires_grad))
    cls = () if type(t) in (torch.Tensor, torch.nn.Parameter) else (type(t).__qualname__,)
    if t.layout != torch.strided or t.is_quantized:
        return ("tensor", *meta, None, *cls)
    data = t.detach().to("cpu", copy=True)
    # a subclass of the program's own (``__torch_function__``) would not unpickle in the parent: its data as a
    # Tensor
    return ("tensor", *meta, data if type(data) is torch.Tensor else data.as_subclass(torch.Tensor), *cls)


def observe_exception(exc: BaseException, depth: int = 0) -> Observed:
    """(type name, normalized message): no addresses, object ids or absolute paths, which differ between runs
    (temp directories, site-packages of another install) and would make eager and target messages differ.

    An exception group, or an exception with a cause or context, gets a third item listing what it links to,
    each observed the same way (recursively, up to ``MAX_DEPTH``): ``("group", [members])``, ``("cause",
    exc)`` (an explicit ``raise ... from``) and ``("context", exc)`` (the exception being handled when it was
    raised, unless suppressed). A context raised inside torch or ngb-fuzz's engine is left out: a compiler
    that runs the program's code while handling one of its own errors changes only that, which the program
    cannot have meant."""
    message = _OBJECT_ID.sub("<id>", _PATH.sub(_path_kind, _ADDRESS.sub("0x?", str(exc))))
    head = (type(exc).__qualname__, message[:2000])
    if depth >= MAX_DEPTH:
        return head
    links: list[tuple[str, Observed]] = []
    if _GROUP is not None and isinstance(exc, _GROUP):
        links.append(("group", [observe_exception(e, depth + 1) for e in exc.exceptions[:16]]))
    if exc.__cause__ is not None:
        links.append(("cause", observe_exception(exc.__cause__, depth + 1)))
    context = exc.__context__
    if context is not None and not exc.__suppress_context__ and context is not exc.__cause__ and \
            not _internal(context):
        links.append(("context", observe_exception(context, depth + 1)))
    return (*head, links) if links else head


def _internal(exc: BaseException) -> bool:
    """Whether ``exc`` is a compiler's own: of a torch or engine type, or raised by a torch or engine
    frame."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = "" if tb is None else str(tb.tb_frame.f_globals.get("__name__", ""))
    return any(name.split(".")[0] in ("torch", "engine") for name in (type(exc).__module__, where))


def _path_kind(match: re.Match[str]) -> str:
    return "<file>" if match.group(0).endswith(".py") else "<path>"


def is_data(value: object, depth: int = 0) -> bool:
    """Whether a global holds data worth observing (not a function, class or module)."""
    if isinstance(value, (*_SCALARS, torch.Tensor)):
        return True
    if depth > 3:
        return False
    if isinstance(value, (list, tuple, set, frozenset, collections.deque)):
        return all(is_data(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(is_data(k, depth + 1) and is_data(v, depth + 1) for k, v in value.items())
    module = getattr(type(value), "__module__", "")
    # instances of program classes (enum members, objects with a __dict__ or __slots__)
    return module.startswith("ngb_") and (hasattr(value, "__dict__") or bool(_slot_values(value)))


def observe_globals(module: types.ModuleType) -> Observed:
    """Observable globals of a program module and of its ``ngb_*`` helper modules."""
    out, modules = [], {id(module): ("", module)}
    for v in vars(module).values():  # a helper bound to several names (or in sys.modules) is observed once
        if isinstance(v, types.ModuleType) and v.__name__.startswith("ngb_"):
            modules.setdefault(id(v), (f"{v.__name__}.", v))
    for prefix, mod in modules.values():
        for name, value in vars(mod).items():
            if name.startswith("_") or name == "EFFECTS" or not is_data(value):
                continue
            out.append((("str", prefix + name), observe(value)))
    return ("dict", sorted(out, key=lambda kv: kv[0][1]))


def torch_state() -> dict[str, object]:
    """Global torch state that a compiler could leak past the end of a call."""
    state: dict[str, object] = {
        "grad_enabled": torch.is_grad_enabled(),
        "inference_mode": torch.is_inference_mode_enabled(),
        "default_dtype": str(torch.get_default_dtype()),
    }
    for device in ("cpu", "cuda"):
        try:
            state[f"autocast_{device}"] = torch.is_autocast_enabled(device)
        except (RuntimeError, TypeError):
            pass
    try:
        state["function_mode_stack"] = torch._C._len_torch_function_stack()
    except AttributeError:
        pass
    return state


# filled by the worker at start-up, before any program runs
DEFAULT_TORCH_STATE: dict[str, object] | None = None


def dispatch_state() -> DispatchState | None:
    """Thread-local dispatcher state that no program may leave changed (a leak poisons every later run)."""
    try:
        return (
            str(torch._C._dispatch_tls_local_include_set()),
            str(torch._C._dispatch_tls_local_exclude_set()),
            torch._C._len_torch_dispatch_stack(),
        )
    except AttributeError:
        return None


def healthy(default_dispatch: DispatchState | None) -> bool:
    """Whether plain tensor work still behaves after a job; a worker that fails this is replaced."""
    try:
        t = torch.ones(3) * 2 + 1
        return bool((t.to("cpu", copy=True) == 3).all()) and dispatch_state() == default_dispatch
    except Exception:  # noqa: BLE001 - any failure here means the process is poisoned
        return False


def _keys(key_set: str) -> set[str]:
    """The key names in a printed DispatchKeySet, e.g. ``DispatchKeySet(BackendSelect, Python)``."""
    return set(re.findall(r"\w+", key_set.partition("(")[2]))


def repair_dispatch(default: DispatchState | None) -> bool:
    """Put the thread's dispatch key sets back to ``default`` (from ``dispatch_state``); True if the process
    is then healthy and still compiles and differentiates correctly.

    A compiler that raises from inside its own dispatch guards can leave keys such as ``Python`` or
    ``PythonDispatcher`` included, after which every torch op fails
    (``tests/oracle/test_poisoned_process.py``). Undoing that here lets the worker go on instead of being
    replaced, which a reduction of such a crash would otherwise pay for every candidate. Mode stacks, or any
    other damage, are not repaired: False."""
    now = dispatch_state()
    if now is None or default is None or now[2:] != default[2:]:
        return False
    try:
        for (leaked, wanted), setter in zip(zip(now[:2], default[:2]),
                                            (torch._C._dispatch_tls_set_dispatch_key_included,
                                             torch._C._dispatch_tls_set_dispatch_key_excluded)):
            for name, on in [(k, False) for k in _keys(leaked) - _keys(wanted)] + \
                            [(k, True) for k in _keys(wanted) - _keys(leaked)]:
                setter(getattr(torch._C.DispatchKey, name), on)
        return healthy(default) and _compiles_correctly() and healthy(default)
    except Exception:  # noqa: BLE001 - a repair that fails leaves the worker to be replaced
        return False


def _compiles_correctly() -> bool:
    """A small aot_eager compile with an in-place op and a backward agrees with eager (gradients included)."""
    def fn(x: torch.Tensor) -> torch.Tensor:
        y = x.sin()
        y.mul_(2)
        return (y + x).sum()

    grads: list[torch.Tensor] = []
    for compiler in (lambda f: f, lambda f: torch.compile(f, backend="aot_eager", fullgraph=True)):
        x = torch.linspace(-1, 1, 5, requires_grad=True)
        compiler(fn)(x).backward()
        if x.grad is None:  # backward gave no gradient: not correct
            return False
        grads.append(x.grad)
    torch._dynamo.reset()
    return bool(torch.allclose(grads[0], grads[1]))


def restore_torch_state(default: dict[str, Any]) -> bool:
    """Put back the global state a program (or a buggy compiler) left behind; False if that failed."""
    # First a torch function mode left on the stack (every torch call below would go through it): a program
    # that entered one and never left it, or a compiler crash inside one (torch 2.10's guard AssertionError
    # leaves the program's mode pushed). Popped, the stack is as it was; before, the worker was replaced after
    # each such job, so a reduction of that crash paid a worker start (3-4 s, more on loaded cores) for every
    # candidate.
    depth = default.get("function_mode_stack")
    if isinstance(depth, int):
        try:
            while torch._C._len_torch_function_stack() > depth:
                torch._C._pop_torch_function_stack()
        except (AttributeError, RuntimeError):
            return False
    torch.set_grad_enabled(default["grad_enabled"])
    torch.set_default_dtype(getattr(torch, default["default_dtype"].split(".")[-1]))
    for device in ("cpu", "cuda"):
        key = f"autocast_{device}"
        if key in default and torch_state().get(key) != default[key]:
            torch.set_autocast_enabled(device, default[key])
    return torch_state() == default
