"""Calls: inline user Python functions as new frames, map torch callables to graph nodes, model builtins,
and refuse (Unsupported -> eager call) everything else."""

from __future__ import annotations

import contextlib
import functools
import operator
import types
from typing import TYPE_CHECKING, Any

import torch

from .._errors import FrameBound, Unsupported
from .._faults import fault
from .._guards import AttrSrc, ConstSrc, ItemSrc
from .._policy import Decision, code_rule, rule_for
from . import _version as V
from ._code import code_info
from ._consts import key_var
from ._frame_readers import frame_reader, keeps_locals
from ._generators import cm_exit, drive, send_call
from ._iface import MODELS, Inline, implements, model_for
from ._iters import drain, iter_remaining, view_items
from ._library import apply_rule
from ._methods import call_method, dict_setitem, dict_view, list_items, set_item
from ._models_py import call_function_model, call_instance, delete_item
from ._modes import applied, cloned_ctx, exit_, make_ctx
from ._modules import call_module
from ._objects import (
    class_lookup,
    instance_type,
    is_data_descriptor,
    is_plain_class,
    is_plain_exception,
    new_namedtuple,
    new_object,
    object_setattr,
    zero_arg_super,
)
from ._ops_locals import cell_get, make_cell
from ._regions import graph_break_call
from ._sets import set_items
from ._torchops import COMPILING_MARKERS, GRAPH_BREAK_FNS, is_disabled, is_graph_op
from ._values import (
    EMPTY,
    BoundMethodVar,
    CellVar,
    CMExitVar,
    CMVar,
    ConstVar,
    DictVar,
    DictViewVar,
    ExcVar,
    FuncVar,
    GenVar,
    GradCtxVar,
    GradExitVar,
    GradWrappedVar,
    LazyVar,
    ListVar,
    MethodVar,
    ModeExitVar,
    NewObjVar,
    ObjVar,
    SetVar,
    TensorVar,
    TupleVar,
    Var,
)
from ._wrap import wrap, wrap_fixed

if TYPE_CHECKING:
    from ._code import CodeInfo
    from ._frame import Frame
    from ._interp import VM


@implements("call")
def call(vm: VM, fn: Var, args: list[Var], kwargs: dict[str, Var]) -> Var | Inline:
    """Returns a Var (the call was modeled) or an Inline (a frame to push)."""
    t = type(fn)
    if t is FuncVar:
        return _call_function(vm, fn, args, kwargs)
    if t is BoundMethodVar:
        return call(vm, fn.func, [fn.self_var, *args], kwargs)
    if t is MethodVar:
        if type(fn.self_var) is GenVar and fn.name == "send":
            return send_call(vm, fn.self_var, args, kwargs)
        return call_method(vm, fn.self_var, fn.name, args, kwargs)
    if t is ObjVar:
        return _call_object(vm, fn, args, kwargs)
    if t is GradExitVar:
        vm.set_grad(fn.prev)
        return ConstVar(None)
    if t is ModeExitVar:
        return exit_(vm, fn)
    if t is CMExitVar:
        if len(args) == 3 and not kwargs and all(type(a) is ConstVar and a.value is None for a in args):
            return Inline(cm_exit(vm, fn.gen, None, None))
        raise Unsupported("contextmanager-exit", "calling a @contextmanager block's exit with these arguments")
    if t is GradCtxVar:
        if len(args) == 1 and not kwargs and type(args[0]) in (FuncVar, BoundMethodVar):
            if fn.prev is not None:  # set_grad_enabled(b)(f): the call undoes the mode set by __init__
                vm.set_grad(fn.prev)
            return GradWrappedVar(fn.target, args[0])
        raise Unsupported("grad-ctx-call", "calling a grad-mode object with these arguments")
    if t is GradWrappedVar:
        res = call(vm, fn.fn, args, kwargs)
        if fault(vm.ctx, "drop-decorator-cm"):
            return res
        if isinstance(res, Inline):
            res.frame.exit_grad = vm.grad  # the mode before the outermost decorator
            if res.grad is None:  # stacked decorators: the innermost one decides the mode inside
                res.grad = fn.target
            return res
        raise Unsupported("grad-wrapped", "a grad-mode decorated callable that is not traced")
    if t is NewObjVar:
        res = call_instance(vm, fn, args, kwargs)
        if res is not NotImplemented:
            return res
    raise Unsupported("call", f"calling a {type(fn).__name__} is not modeled")


def _call_function(vm: VM, fv: FuncVar, args: list[Var], kwargs: dict[str, Var], for_cm: bool = False) -> Var | Inline:
    real = fv.real
    if real is _INFERENCE_CLONE and len(args) == 1 and not kwargs:
        ctx = cloned_ctx(vm, vm.resolve(args[0]))
        if ctx is not None:
            return ctx
    if real is not None and real.__code__ is _CM_HELPER_CODE:
        return _contextmanager_call(vm, fv, args, kwargs)
    if real is not None and real.__code__ is _GRAD_DECORATED_CODE:
        wrapped = _grad_decorated(vm, fv)
        if wrapped is not None:
            return call(vm, wrapped, args, kwargs)
    if real is not None:
        if real in COMPILING_MARKERS:
            return ConstVar(True)
        if V.reads_calling_frame(real, len(args)):
            raise FrameBound("frame-introspection", f"{fv.qualname}() reads its frame",
                             "the frame that calls it runs eagerly")
        if real in GRAPH_BREAK_FNS:
            return graph_break_call(vm, real)
        if is_disabled(real):
            raise Unsupported("disabled", f"{fv.qualname} is marked torch._dynamo.disable")
        rule = rule_for(real)
        if rule is not None:
            res = apply_rule(vm, rule, fv, args, kwargs)
            if res is not None:
                return res
        registered = MODELS.get(real)
        if registered is not None:
            res = registered(vm, args, kwargs)
            if res is not NotImplemented:
                return res
        if is_graph_op(real):
            return vm.op("call_function", real, args, kwargs, vm.grad, real.__name__)
        res = call_function_model(vm, fv, args, kwargs)
        if res is not NotImplemented:
            return res
    info = code_info(fv.code)
    if info.unsupported:
        raise Unsupported("frame-unsupported", f"{fv.qualname}: {info.unsupported}")
    decision, why = code_rule(fv.code)
    if decision is not Decision.TRACE:
        raise Unsupported("library-call", f"{fv.qualname} runs eagerly: {why} ({fv.code.co_filename})")
    localsplus = bind(vm, fv, info, args, kwargs)
    if frame_reader(vm, fv, _defaults(vm, fv)[2], localsplus):
        raise Unsupported("frame-reader", f"{fv.qualname} may read its own frame (a frame reader under "
                          "another name)", "the call runs eagerly, in a frame of its own")
    vm.call_no += 1
    how = vm.forced.get(vm.call_no)
    if how is not None:
        u = Unsupported("forced-call", f"{fv.qualname} runs as its own compiled call ({how})")
        u.forced = True
        u.classic = how == "classic" and not info.generator
        raise u
    fglobals = fv.fglobals
    if fault(vm.ctx, "closure-root-globals") and "<locals>" in fv.qualname and vm.frames:
        fglobals = vm.frames[0].fglobals
    frame = vm.new_frame(info, fglobals, localsplus, fv.qualname)
    if info.generator:
        # The prologue before RETURN_GENERATOR runs at the call, as CPython runs it: MAKE_CELL turns the cell
        # variables (parameters a nested function closes over) into cells before the generator exists.
        for ins in info.instrs[:info.gen_start]:
            if ins.opname == "MAKE_CELL":
                make_cell(vm, frame, ins.arg)
        frame.ip = info.gen_start
        gen = frame.gen = GenVar(frame, vm.call_no)
        if info.gen_handlers and not for_cm:  # see _generators.check_abandoned
            vm.closing_gens.append(gen)
        return gen
    return Inline(frame)


_CM_HELPER_CODE = contextlib.contextmanager(lambda: (yield)).__code__
_GRAD_DECORATED_CODE = torch.no_grad()(lambda: None).__code__
_GRAD_TARGETS = {torch.no_grad: lambda ctx: False, torch.enable_grad: lambda ctx: True,
                 torch.set_grad_enabled: lambda ctx: ctx.mode}


def _grad_decorated(vm: VM, fv: FuncVar) -> GradWrappedVar | None:
    """A function decorated with @torch.no_grad() / enable_grad() / set_grad_enabled(b): the grad mode
    applies around the traced call, as for `torch.no_grad()(fn)(...)`."""
    _, _, closure = _defaults(vm, fv)
    names = fv.code.co_freevars
    factory = cell_get(vm, closure[names.index("ctx_factory")])
    func = cell_get(vm, closure[names.index("func")])
    if type(factory) is BoundMethodVar and type(factory.self_var) is GradCtxVar:  # read (guarded) as such
        if type(func) not in (FuncVar, BoundMethodVar):
            return None
        return GradWrappedVar(factory.self_var.target, func)
    if type(factory) is not BoundMethodVar or type(factory.self_var) is not ObjVar:
        return None
    ctx = factory.self_var.obj
    target = _GRAD_TARGETS.get(type(ctx))
    if target is None or type(func) not in (FuncVar, BoundMethodVar):
        return None
    mode = target(ctx)
    vm.guards.add(f"type({factory.self_var.src.expr(vm.ns)}) is {vm.ns.const(type(ctx), 'T')}")
    if type(ctx) is torch.set_grad_enabled:
        vm.guards.add(f"{factory.self_var.src.expr(vm.ns)}.mode is {mode!r}")
    return GradWrappedVar(mode, func)


def _contextmanager_call(vm: VM, fv: FuncVar, args: list[Var], kwargs: dict[str, Var]) -> CMVar:
    """cm(*args) for a @contextmanager function: the generator is traced as a frame that entering, leaving
    and an exception leaving the block resume (see _generators.py)."""
    _, _, closure = _defaults(vm, fv)
    wrapped = cell_get(vm, closure[0]) if closure else None
    if type(wrapped) is not FuncVar or (wrapped.real is not None and is_disabled(wrapped.real)):
        raise Unsupported("contextmanager", "a contextmanager over a disabled or unknown function")
    gen = _call_function(vm, wrapped, args, kwargs, for_cm=True)
    if type(gen) is not GenVar:
        raise Unsupported("contextmanager", "contextmanager function is not a generator")
    gen.cm = True
    return CMVar(gen)


def _defaults(vm: VM, fv: FuncVar) -> tuple[Var | None, Var | None, list[Var] | None]:
    if fv.real is None:
        return fv.defaults, fv.kwdefaults, fv.closure

    real = fv.real
    d = kd = None
    if real.__defaults__ is not None:
        d = wrap(vm, real.__defaults__, AttrSrc(fv.src, "__defaults__"))
    if real.__kwdefaults__ is not None:
        kd = wrap(vm, real.__kwdefaults__, AttrSrc(fv.src, "__kwdefaults__"))
    cl = None
    if real.__closure__ is not None:
        base = AttrSrc(fv.src, "__closure__")
        cl = [wrap(vm, c, ItemSrc(base, k)) for k, c in enumerate(real.__closure__)]
    return d, kd, cl


def bind(vm: VM, fv: FuncVar, info: CodeInfo, args: list[Var], kwargs: dict[str, Var]) -> list[Var | None]:
    """CPython's argument binding on VM values; any mismatch is Unsupported (the eager call raises)."""
    code = fv.code
    nargs, nposonly, nkwonly = code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount
    names = code.co_varnames
    flags = code.co_flags
    loc = [None] * info.nlocalsplus
    npos = min(len(args), nargs)
    loc[:npos] = args[:npos]
    idx = nargs + nkwonly
    if flags & V.CO_VARARGS:
        loc[idx] = TupleVar(args[nargs:])
        idx += 1
    elif len(args) > nargs:
        raise Unsupported("bind", f"{fv.qualname}() takes {nargs} positional arguments")
    extra = {}
    for name, v in kwargs.items():
        try:
            j = names.index(name, nposonly, nargs + nkwonly)
        except ValueError:
            j = -1
        if j >= 0:
            if loc[j] is not None:
                raise Unsupported("bind", f"{fv.qualname}() got multiple values for '{name}'")
            loc[j] = v
        elif flags & V.CO_VARKEYWORDS:
            extra[name] = v
        else:
            raise Unsupported("bind", f"{fv.qualname}() got an unexpected keyword '{name}'")
    if flags & V.CO_VARKEYWORDS:
        loc[idx] = DictVar(extra)
    defaults, kwdefaults, closure = _defaults(vm, fv)
    if any(loc[j] is None for j in range(nargs + nkwonly)):
        ditems = seq_items(vm, defaults) if defaults is not None else []
        first_default = nargs - len(ditems)
        for j in range(nargs):
            if loc[j] is None:
                if j < first_default:
                    raise Unsupported("bind", f"{fv.qualname}() missing argument '{names[j]}'")
                loc[j] = ditems[j - first_default]
        for j in range(nargs, nargs + nkwonly):
            if loc[j] is None:
                kd = dict_items(vm, kwdefaults) if kwdefaults is not None else {}
                if names[j] not in kd:
                    raise Unsupported("bind", f"{fv.qualname}() missing keyword '{names[j]}'")
                loc[j] = kd[names[j]]
    nfree = len(code.co_freevars)
    if nfree:
        if closure is None or len(closure) != nfree:
            raise Unsupported("bind", "closure does not match the code's free variables")
        loc[len(loc) - nfree:] = closure
    return loc


@implements("seq_items")
def seq_items(vm: VM, v: Var) -> list[Var]:
    """The element values of a sequence-like VM value (reading a real list guards its contents)."""
    v = vm.resolve(v) if type(v) is LazyVar else v
    t = type(v)
    if t is TupleVar:
        return list(v.items)
    if t is ListVar:
        return list(list_items(vm, v))
    if t is ConstVar and isinstance(v.value, (tuple, list, range, str, bytes)):
        return [ConstVar(x) for x in v.value]
    if t is DictVar:
        return [key_var(k) for k in dict_items(vm, v)]
    if t is DictViewVar:
        return view_items(vm, v)
    if t is SetVar:
        return set_items(v)
    if t is TensorVar:
        fake = v.fake
        if fake.dim() == 0:
            raise Unsupported("iter-0d", "iteration over a 0-d tensor")
        n = fake.shape[0]
        out = vm.op("call_method", "unbind", [v, ConstVar(0)], {}, vm.grad, "unbind")
        assert len(out.items) == n
        return list(out.items)

    if t is GenVar:
        return drain(drive, vm, v)
    family = MODELS.get((t, "__items__"))  # a model family's own container value: its items, in order
    if family is not None:
        return list(family(vm, [v], {}))
    return iter_remaining(vm, v)


def dict_items(vm: VM, v: DictVar) -> dict[object, Var]:
    return dict_view(vm, v)


def _call_object(vm: VM, fv: ObjVar, args: list[Var], kwargs: dict[str, Var]) -> Var | Inline:
    obj = fv.obj
    if isinstance(obj, torch.nn.Module):  # decided by its type (guarded when read) and hooks, not identity
        res = call_module(vm, fv, args, kwargs)
        if res is not NotImplemented:
            return res
    if not isinstance(obj, type):  # an instance with a Python __call__: decided by its (guarded) type
        res = call_instance(vm, fv, args, kwargs)
        if res is not NotImplemented:
            return res
    if fv.src is not None and not isinstance(fv.src, ConstSrc):
        _guard_callee(vm, fv.src, obj)
    if obj is AUTOCAST or obj is torch.inference_mode:
        ctx = make_ctx(vm, obj, args, kwargs)
        if ctx is not None:
            return ctx
    rule = rule_for(obj)
    if rule is not None:
        res = apply_rule(vm, rule, fv, args, kwargs)
        if res is not None:
            return res
    registered = model_for(obj) if isinstance(obj, _MODELED_KINDS) else None
    if registered is not None:
        res = _run_model(vm, fv, registered, args, kwargs)
        if res is not NotImplemented:
            return res
    if is_graph_op(obj):
        return vm.op("call_function", obj, args, kwargs, vm.grad, getattr(obj, "__name__", "op"))
    if obj in COMPILING_MARKERS:
        return ConstVar(True)
    if V.reads_calling_frame(obj, len(args)):
        modeled = _frame_namespace(vm, obj, args, kwargs)
        if modeled is not None:
            return modeled
        raise FrameBound("frame-introspection", f"{getattr(obj, '__qualname__', obj)}() reads its frame")
    if obj in GRAPH_BREAK_FNS:
        return graph_break_call(vm, obj)
    if is_disabled(obj):
        raise Unsupported("disabled", "a torch._dynamo.disable'd function")
    if obj is torch.no_grad and not args and not kwargs:
        return GradCtxVar(False)
    if obj is torch.enable_grad and not args and not kwargs:
        return GradCtxVar(True)
    if obj is torch.set_grad_enabled and len(args) == 1 and not kwargs and type(args[0]) is ConstVar \
            and type(args[0].value) is bool:
        prev = vm.grad
        vm.set_grad(args[0].value)
        return GradCtxVar(args[0].value, prev)
    if obj is torch.is_grad_enabled and not args and not kwargs:
        return ConstVar(vm.grad)
    if obj is torch._C._set_grad_enabled and len(args) == 1 and type(args[0]) is ConstVar:
        vm.set_grad(bool(args[0].value))
        return ConstVar(None)
    if obj is object.__setattr__ and len(args) == 3 and not kwargs and type(args[1]) is ConstVar \
            and type(args[1].value) is str:
        tp = instance_type(args[0])
        if tp is not None and "__slots__" not in tp.__dict__ and not is_data_descriptor(
                class_lookup(tp, args[1].value)):  # a descriptor's __set__ would run: not a plain store
            object_setattr(vm, args[0], args[1].value, args[2])
            return ConstVar(None)
    if obj is dict.__setitem__ and len(args) == 3 and not kwargs:
        if dict_setitem(vm, *args):
            return ConstVar(None)
    if obj is super and not args and not kwargs:
        return zero_arg_super(vm)
    if obj is object.__init__ and len(args) == 1 and not kwargs:
        return ConstVar(None)
    if obj in _STATE_QUERIES and all(type(a) is ConstVar for a in args) and not kwargs:
        try:  # the state they read is part of every segment's guards (see torch_state), and the traced modes
            with applied(vm):
                return ConstVar(obj(*[a.value for a in args]))
        except Exception:
            raise Unsupported("state-query", "torch state query raised") from None
    if isinstance(obj, type):
        if is_plain_class(obj):
            return new_object(vm, obj, args, kwargs)
        made = new_namedtuple(vm, obj, args, kwargs)
        if made is not None:
            return made
        if is_plain_exception(obj) and not kwargs and all(
                type(a) is ConstVar and type(a.value) in (int, float, str, bool, type(None)) for a in args):
            return ExcVar(obj, tuple(a.value for a in args))
    raise Unsupported("call-object", f"calling {getattr(obj, '__qualname__', type(obj).__name__)} "
                      "is not modeled")


# C callables with no model or rule: calling one is an eager op whichever instance it is.
_EAGER_BY_TYPE = frozenset({operator.itemgetter, operator.attrgetter, operator.methodcaller})


def _guard_callee(vm: VM, src: Any, obj: object) -> None:
    """What the call does is decided by which object it is: guarded by identity, except for objects made
    anew at each read or by each call (a later call then meets an equal object, never the same one), whose
    decision follows from what is guarded instead: a C classmethod (`chain.from_iterable`) by equality; a
    C method bound to an instance (`d.append` of a deque an eager op made) by its type, its receiver's type
    and its name (what `_iface.model_for` and the policy table decide by); a `functools.partial` by its
    type (its model reads and guards its parts)."""
    e = src.expr(vm.ns)
    t = type(obj)
    if t is types.BuiltinMethodType and isinstance(obj.__self__, type):
        vm.guards.add(f"{e} == {vm.ns.const(obj, 'k')}")
    elif t is types.BuiltinMethodType and obj.__self__ is not None and \
            not isinstance(obj.__self__, types.ModuleType) and "pybind11" not in type(obj.__self__).__name__ \
            and rule_for(obj) is None:
        vm.guards.add(f"type({e}) is {vm.ns.const(t, 'T')} and type({e}.__self__) is "
                      f"{vm.ns.const(type(obj.__self__), 'T')} and {e}.__name__ == {obj.__name__!r}")
    elif t is functools.partial or (t in _EAGER_BY_TYPE and rule_for(obj) is None):
        vm.guards.type_is(src, t)
    else:
        vm.guards.identity(src, obj)


def _run_model(vm: VM, fv: Var, registered: tuple, args: list[Var], kwargs: dict[str, Var]):
    """A registered model (_iface.MODELS) of calling fv; a bound method's receiver is its first argument."""
    fn, receiver = registered
    if receiver is not None:
        src = fv.src
        self_var = vm.wrap(receiver, AttrSrc(src, "__self__")) if src is not None else vm.wrap_fixed(receiver)
        args = [self_var, *args]
    return fn(vm, args, kwargs)


# what the registry is asked about: builtin functions, methods and types (hashing them runs no user code)
_MODELED_KINDS = (types.BuiltinFunctionType, types.MethodDescriptorType, types.WrapperDescriptorType,
                  types.MethodWrapperType, types.ClassMethodDescriptorType, type)
_STATE_QUERIES = {torch.is_inference_mode_enabled, torch.is_autocast_enabled, torch.get_autocast_dtype,
                  torch.is_autocast_cache_enabled, torch.get_default_dtype}
AUTOCAST = torch.amp.autocast_mode.autocast
_INFERENCE_CLONE = torch.inference_mode.clone




def _frame_namespace(vm: VM, obj: object, args: list[Var], kwargs: dict[str, Var]) -> Var | None:
    """locals(), vars(), dir() and globals() of the calling frame, built from the VM's own frame, as
    CPython 3.11 builds them (bound locals, cell contents and free variables, in localsplus order)."""
    frame = vm.frames[-1]
    if args or kwargs:
        return None
    if obj is globals:
        return wrap_fixed(vm, frame.fglobals)
    if obj not in (locals, vars, dir):
        return None
    if frame.call_no < 0 and not keeps_locals(vm, frame.info.code):  # it kept only its live locals
        return None
    items = {}
    for k, name in enumerate(frame.info.names):
        v = frame.locals[k]
        if v is None:
            continue
        v = vm.resolve(v)
        if k in frame.info.cells and type(v) is CellVar:
            v = cell_get(vm, v)
            if v is EMPTY:
                continue
        items[name] = v
    if V.LOCALS_DICT_PER_FRAME:
        d = _refreshed_namespace(vm, frame, items)
        if obj is dir:
            return ListVar([ConstVar(n) for n in sorted(dict_view(vm, d) if d.real is not None else d.items)])
        return d
    if obj is dir:
        return ListVar([ConstVar(n) for n in sorted(items)])
    return DictVar(items)


def _refreshed_namespace(vm: VM, frame: Frame, items: dict[str, Var]) -> DictVar:
    """The frame's one namespace dict, as CPython up to 3.12 keeps it (`f_locals`, refreshed at each
    locals()/vars()/dir()): made at the first call; at a later one every bound local is stored, every
    unbound one deleted, and any other key (one the program added) kept. The dict is part of the frame,
    so a snapshot carries it across a break (`Frame.namespace`)."""
    d = frame.namespace
    if d is None:
        d = frame.namespace = DictVar(items)
        return d
    d = frame.namespace = vm.resolve(d)
    if type(d) is not DictVar:
        raise Unsupported("frame-introspection", "the frame's locals() dict is not a plain dict value")
    for name in frame.info.names:
        if name in items:
            set_item(vm, d, ConstVar(name), items[name])
        elif name in (dict_view(vm, d) if d.real is not None else d.items):
            if not delete_item(vm, d, ConstVar(name)):
                raise Unsupported("frame-introspection", "refreshing the frame's locals() dict")
    return d
