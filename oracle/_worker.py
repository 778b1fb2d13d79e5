"""Worker process: runs programs under one target at a time and reports what it observed.

Started by ``oracle._runner`` as ``python _worker.py`` with any interpreter that has torch (so it imports only
the standard library, torch and its siblings ``_observe``, ``_limits`` and ``_subjects``). It speaks
length-prefixed pickle frames on private copies of its stdin/stdout; the program's own prints go to /dev/null.
The parent kills it on timeout and replaces it when it dies, so nothing here guards against hangs or hard
crashes; but a worker must not outlive its parent, even one stuck in a hanging program (``die_with_parent``).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import itertools
import linecache
import os
import pickle
import re
import signal
import struct
import sys
import threading
import time
import traceback
import types
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

if TYPE_CHECKING:  # the same files, as the checker sees the package
    from oracle import _observe as obs
    from oracle._limits import StepLimit, Steps, cpu_seconds
    from oracle._subjects import RESUME_PREFIXES, subject
else:
    import _observe as obs
    from _limits import StepLimit, Steps, cpu_seconds
    from _subjects import RESUME_PREFIXES, subject

# One target payload built into (the callable, a context manager factory for each call, a stats function).
Built = tuple[
    Callable[..., Any], Callable[[], contextlib.AbstractContextManager[Any]], Callable[[], dict[str, Any]]
]

PROGRAM_FILE = "ngb_program.py"
# Files whose frames count as "the compiler" when a target crashes: the innermost one names the crash.
_COMPILER_PARTS = (
    "torch/_dynamo/",
    "torch/_inductor/",
    "torch/fx/",
    "torch/_functorch/",
    "torch/_subclasses/",
    "torch/_higher_order_ops/",
    "torch/_guards",
    "/engine/",
    "oracle/_faults",
)


def read_frame(stream: IO[bytes]) -> Any:
    header = stream.read(8)
    if len(header) < 8:
        return None
    (size,) = struct.unpack(">Q", header)
    return pickle.loads(stream.read(size))


def write_frame(stream: IO[bytes], message: object) -> None:
    data = pickle.dumps(message, protocol=4)
    stream.write(struct.pack(">Q", len(data)) + data)
    stream.flush()


def die_with_parent() -> None:
    """Make sure this worker ends when the process that started it does, however that one ends (SIGKILL too).

    Linux: the kernel sends SIGKILL on the parent's death (``PR_SET_PDEATHSIG``), which also ends a program
    stuck in a hang. Everywhere: a thread polls the parent PID (the one the runner passed, so a parent that
    died before this line is seen too) and ends the process when the worker is re-parented.
    """
    parent = int(os.environ.get("NGB_FUZZ_PARENT") or os.getppid())
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, daemon=True, name="ngb-fuzz-parent-watch").start()


def load_program(source: str) -> types.ModuleType:
    module = types.ModuleType("ngb_program")
    module.__file__ = PROGRAM_FILE
    linecache.cache[PROGRAM_FILE] = (len(source), None, source.splitlines(True), PROGRAM_FILE)
    try:
        exec(compile(source, PROGRAM_FILE, "exec", dont_inherit=True), module.__dict__)
    except SystemExit as exc:  # sys.exit()/exit() at import: the program does not load (the worker lives on)
        raise RuntimeError(f"the program exits at import (SystemExit: {exc.code!r})") from None
    if not hasattr(module, "entry"):
        raise AttributeError("program defines no 'entry' (see docs/program-format.md)")
    return module


def make_inputs(module: types.ModuleType, device: str, size: int = 0) -> tuple[Any, ...]:
    """The program's inputs for one call: ``make_inputs(device)``, or none when the program defines no
    ``make_inputs`` (an ``entry`` that takes no arguments); ``size`` 1: inputs of other sizes
    (``resizable``)."""
    maker = vars(module).get("make_inputs")
    if maker is None:
        return ()
    return tuple(maker(device, size=size) if size else maker(device))


def resizable(module: types.ModuleType) -> bool:
    """Whether the program gives inputs of other sizes: ``make_inputs(device, size=0)`` takes ``size``."""
    maker = vars(module).get("make_inputs")
    try:
        return maker is not None and "size" in inspect.signature(maker).parameters
    except (TypeError, ValueError):
        return False


def call_sizes(module: types.ModuleType, calls: int) -> list[int]:
    """The input size of each call: the first two on the usual inputs (the second through the caches), a third
    on other sizes (automatic dynamic shapes, recompiles) only for a program that has them."""
    return [size for size in (0, 0, 1)[:calls] if size == 0 or resizable(module)]


def effect_log(module: types.ModuleType) -> list[Any]:
    """The program's effect log; a program that records no effects (a reduced crash) may define none. Never
    put into the module: a program that writes the log without defining it must fail as it does on its own."""
    log: list[Any] = vars(module).get("EFFECTS", [])
    return log


_RUNS = itertools.count(1)  # jobs run by this process: the suffix that makes module names unique per run


def forget_program(module: types.ModuleType) -> None:
    """Let go of everything a finished program's module holds. Dynamo keeps the globals dict of every
    function it compiled past ``torch._dynamo.reset()`` (hooks that remove the names it installed there,
    waiting on code objects its caches keep), and with it every function, class and tensor of the program,
    and its own resume functions: a long-lived worker kept them all (some 2,000 program functions after 60
    programs). Every name stays, bound to None, so that those hooks still find what they delete."""
    namespace = module.__dict__
    for name in list(namespace):
        namespace[name] = None


def _source_caches() -> list[dict[Any, Any]]:
    """Caches of source text that compilers fill for every function they generate and never empty: linecache
    (FX graph code, Dynamo's resume functions and guards, the engine's residual code) and FX's own copy."""
    caches: list[dict[Any, Any]] = [linecache.cache]
    fx_loader: Any = getattr(getattr(torch.fx, "graph_module", None), "_loader", None)
    if isinstance(getattr(fx_loader, "eval_cache", None), dict):
        caches.append(fx_loader.eval_cache)
    return caches


@contextlib.contextmanager
def forgetting_generated_sources() -> Iterator[None]:
    """Drop the generated sources one job added to those caches when it ends: a worker that keeps them grows
    by about a megabyte per program (some thirty entries each), which nothing reads after the job. Entries for
    files on disk stay (they are shared and reloadable)."""
    caches = _source_caches()
    before = [set(cache) for cache in caches]
    try:
        yield
    finally:
        for cache, keys in zip(caches, before):
            for key in [k for k in list(cache) if k not in keys]:
                if not (isinstance(key, str) and os.path.isfile(key)):
                    cache.pop(key, None)


def program_modules(module: types.ModuleType) -> list[types.ModuleType]:
    """The program's module and the helper modules it made (named ``ngb_*``, as the standalone footer sees
    them)."""
    return [module] + [m for m in vars(module).values()
                       if isinstance(m, types.ModuleType) and m.__name__.startswith("ngb_")]


def _retag(module: types.ModuleType, old: str, new: str) -> None:
    """Rename ``module`` to ``new``, with the ``__module__`` of the functions and classes it defined so
    far."""
    module.__name__ = new  # also the __name__ its functions' globals hold: what Dynamo imports
    for value in list(vars(module).values()):
        for obj in (value, *vars(value).values()) if isinstance(value, type) else (value,):
            while obj is not None:
                if isinstance(obj, types.FunctionType | type) and getattr(obj, "__module__", None) == old:
                    obj.__module__ = new
                obj = getattr(obj, "__wrapped__", None) if isinstance(obj, types.FunctionType) else None


@contextlib.contextmanager
def registered(module: types.ModuleType) -> Iterator[dict[str, str]]:
    """The program and its helper modules in ``sys.modules`` for one job, under names no other job uses.

    Dynamo imports the module of a function it inlines by its ``__name__``; one missing from ``sys.modules``
    is a known torch crash (corpus/torch-import-module-crash.py) that would otherwise eat a third of all
    programs. The names are unique per job (``ngb_program__run7``): with one fixed name, Dynamo resolved
    globals of an earlier program's module of the same name in the same worker. Yields {unique name: program's
    name}, which ``unalias`` maps back in what is observed, so eager and target jobs observe the same names.
    """
    run = next(_RUNS)
    aliases: dict[str, str] = {}
    for m in program_modules(module):
        old, new = m.__name__, f"{m.__name__}__run{run}"
        _retag(m, old, new)
        aliases[new] = old
        sys.modules[new] = m
    try:
        yield aliases
    finally:
        for new in aliases:
            sys.modules.pop(new, None)


def unalias(value: Any, aliases: dict[str, str]) -> Any:
    """``value`` (observed data) with every unique module name of this job replaced by the program's own."""
    if not aliases:
        return value
    if isinstance(value, str):
        if "__run" in value:
            for new, old in aliases.items():
                value = value.replace(new, old)
        return value
    if type(value) in (list, tuple):
        return type(value)(unalias(v, aliases) for v in value)
    if isinstance(value, dict):
        return {unalias(k, aliases): unalias(v, aliases) for k, v in value.items()}
    return value


def _root(exc: BaseException) -> BaseException:
    """The root of ``exc``'s chain of causes (``raise ... from``), ``exc`` itself when it has none."""
    root = exc
    while root.__cause__ is not None and root.__cause__ is not root:
        root = root.__cause__
    return root


def _compiler_module(filename: str) -> str | None:
    """The dotted compiler module a frame's file is, 'torch._dynamo.guards'; None for a file of the program's
    (or of any library outside ``_COMPILER_PARTS``)."""
    path = filename.replace("\\", "/")
    for part in _COMPILER_PARTS:
        at = path.find(part)
        if at >= 0:
            return path[at:].lstrip("/").removesuffix(".py").replace("/", ".")
    return None


def compiler_frame(exc: BaseException) -> str | None:
    """The innermost compiler frame of the root cause of ``exc``, as 'dotted.module:function'."""
    for candidate in (_root(exc), exc):
        for frame in reversed(traceback.extract_tb(candidate.__traceback__)):
            dotted = _compiler_module(frame.filename)
            if dotted is not None:
                where = f"{dotted}:{_DISPATCHERS.get(dotted) or _stable_frame_name(frame.name)}"
                return where + subject(where, candidate)
    return None


# Modules whose innermost frame only dispatches to the code that failed, by the spelling of the call: the FX
# interpreter runs a graph node through call_function, call_method or call_module (``torch.add(x)`` or
# ``x.add()``), and older releases fail in ``run`` itself. One name for all, so one bug is one signature.
_DISPATCHERS = {"torch.fx.interpreter": "run_node"}


def _stable_frame_name(name: str) -> str:
    """A frame's name as it goes into a signature. Dynamo names the resume functions it generates after the
    user function and the line of the break (``torch_dynamo_resume_in_inner_at_214``, ``__resume_at_30_1``
    before 2.4): one bug would be a new bucket at every line, and a reduction that moves the line would lose
    the signature."""
    return "torch_dynamo_resume" if name.startswith(RESUME_PREFIXES) else name


def raised_in_compiler(exc: BaseException) -> bool:
    """Whether ``exc`` (or the root of its causes) was raised by the compiler's own code: the innermost frame
    of its traceback is in one of the compiler's modules, not in the program (an AssertionError of Dynamo's
    own checks, not the program's error passing through a resumed function)."""
    for candidate in (_root(exc), exc):
        frames = traceback.extract_tb(candidate.__traceback__)
        if frames and _compiler_module(frames[-1].filename) is not None:
            return True
    return False


def root_cause_type(exc: BaseException) -> str:
    return type(_root(exc)).__qualname__


def break_reason(text: str) -> str:
    """A short, stable name for a break reason: its first line, without addresses or numbers of this run."""
    line = str(text).strip().splitlines()[0] if str(text).strip() else "?"
    line = re.sub(r"0x[0-9a-f]+", "0x?", line)
    line = re.sub(r"\d+", "N", line)
    return line[:100]


class Unsupported(Exception):
    """The target cannot run on this torch (a config flag it does not have): the job answers a clean skip."""


def _config_module(name: str) -> Any:
    """``torch._dynamo.config`` or ``torch._inductor.config`` (imported on first use: it costs a second)."""
    return importlib.import_module(f"torch._{name}.config")


def build(target: dict[str, Any], module: types.ModuleType) -> Built:
    """Return (callable, context manager factory, stats function) for one target payload."""
    kind, options = target["kind"], target.get("options", {})
    entry = module.entry
    if kind == "eager":
        return entry, contextlib.nullcontext, dict
    if kind in ("torch", "fault"):
        from torch._dynamo.utils import counters

        torch._dynamo.reset()
        counters.clear()
        if kind == "fault":
            faults = importlib.import_module("oracle._faults")
            backend = faults.make_backend(options["fault"], module)
        else:
            backend = options.get("backend", "eager")
        ngb = options.get("ngb", "on") == "on"
        flags = target.get("config_flags", [])
        missing = [f"{m}.{f}" for m, f, _ in flags if not hasattr(_config_module(m), f)]
        if missing:
            raise Unsupported(f"torch {torch.__version__} has no config flag {', '.join(missing)}")

        def context() -> contextlib.ExitStack[bool | None]:
            stack = contextlib.ExitStack()
            stack.enter_context(torch._dynamo.config.patch(nested_graph_breaks=ngb))
            for name in ("dynamo", "inductor"):
                patch = {f: v for m, f, v in flags if m == name}
                if patch:
                    stack.enter_context(_config_module(name).patch(**patch))
            return stack

        def stats() -> dict[str, Any]:
            return {
                "graphs": counters["stats"]["unique_graphs"],
                "breaks": sum(counters["graph_break"].values()),
                "recompiles": sum(counters["recompiles"].values()) if "recompiles" in counters else 0,
                "frames_traced": counters["frames"]["total"],
                "break_reasons": sorted({break_reason(r) for r in counters["graph_break"]}),
            }

        dynamic = {"auto": None, "true": True, "false": False}[options.get("dynamic", "auto")]
        return torch.compile(entry, backend=backend, dynamic=dynamic), context, stats
    if kind in ("engine", "engine-classic"):
        engine = importlib.import_module("engine")
        engine.reset()
        compiled = engine.compile(entry, backend=options.get("backend", "eager"),
                                  nested=options.get("mode", "nested") == "nested",
                                  fault=None if options.get("fault", "none") == "none" else options["fault"])

        def engine_stats() -> dict[str, Any]:
            return {**compiled.stats(),
                    "break_reasons": sorted({str(b.gb_id) for b in compiled.record.break_records})}

        return compiled, contextlib.nullcontext, engine_stats
    raise ValueError(f"unknown target kind {kind!r}")


def flat_tensors(value: object, out: list[torch.Tensor]) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            flat_tensors(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            flat_tensors(v, out)
    return out


def observe_grads(value: object, inputs: tuple[Any, ...]) -> obs.Observed:
    outputs = [t for t in flat_tensors(value, []) if t.requires_grad and t.is_floating_point()]
    if not outputs:
        return ("no-grad-outputs",)
    try:
        total = torch.stack([o.sum() for o in outputs]).sum()
        total.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
    except Exception as exc:  # noqa: BLE001 - a failing backward is an observation
        return ("exception", obs.observe_exception(exc))
    return obs.observe([t.grad for t in flat_tensors(inputs, []) if t.requires_grad])


# Relative size of the nudge ``perturb`` gives each floating-point input element: a few units in the last
# place of float32, far below every tolerance of oracle._compare.TOLERANCES
PERTURBATION = 2.0 ** -20


def perturb(inputs: tuple[Any, ...], seed: int) -> None:
    """Nudge every floating-point input element in place by up to ``PERTURBATION`` of itself, seeded: an eager
    run on such inputs tells a program whose result hangs on rounding (a branch on a sum that is only rounding
    noise) from one a compiler got wrong (``Runner.check``)."""
    generator = torch.Generator().manual_seed(seed)
    for t in flat_tensors(inputs, []):
        if t.is_floating_point() and t.numel():
            factor = 1 + PERTURBATION * (
                torch.rand(t.shape, generator=generator, dtype=torch.float64) * 2 - 1
            )
            # an inference tensor takes an in-place update only in inference mode; one that takes none stays
            for mode in (torch.no_grad, torch.inference_mode):
                try:
                    with mode():
                        t.mul_(factor.to(t.device, t.dtype))
                    break
                except RuntimeError:
                    continue


def run_call(
    fn: Callable[..., Any],
    context: Callable[[], contextlib.AbstractContextManager[Any]],
    module: types.ModuleType,
    device: str,
    perturbed: int | None = None,
    size: int = 0,
) -> dict[str, Any]:
    first_effect = len(effect_log(module))
    record: dict[str, Any] = {"exception": None, "compiler_frame": None, "value": None}
    inputs: tuple[Any, ...] = ()
    try:
        # Inside the try: a compiler that poisoned the process on the first call makes even this fail.
        inputs = make_inputs(module, device, size)
        if perturbed is not None:
            perturb(inputs, perturbed)
        with context():
            value = fn(*inputs)
        record["value"] = obs.observe(value)
    except Exception as exc:  # noqa: BLE001 - the program's exception is an observation
        value = None
        record["exception"] = obs.observe_exception(exc)
        record["root_cause"] = root_cause_type(exc)
        record["exception_module"] = type(exc).__module__
        record["compiler_frame"] = compiler_frame(exc)
        record["raised_in_compiler"] = raised_in_compiler(exc)
    record["torch_state"] = obs.torch_state()
    record["effects"] = obs.observe(effect_log(module)[first_effect:])
    record["globals"] = obs.observe_globals(module)
    record["inputs"] = obs.observe(inputs)
    if getattr(module, "WANTS_GRAD", False) and record["exception"] is None:
        record["grads"] = observe_grads(value, inputs)
    return record


def run_job(job: dict[str, Any], default_state: dict[str, Any],
            default_dispatch: obs.DispatchState | None) -> dict[str, Any]:
    try:
        module = load_program(job["source"])
    except Exception as exc:  # noqa: BLE001 - an invalid program is reported, not fatal
        return {"load_error": obs.observe_exception(exc)}
    with registered(module) as aliases, forgetting_generated_sources():
        try:
            fn, context, stats = build(job["target"], module)
        except Unsupported as exc:
            result: dict[str, Any] = {"unsupported": str(exc)}
        else:
            calls = []
            cpu_limit, started = job.get("cpu"), cpu_seconds()
            with Steps.counting(job.get("steps"), cpu_limit) as counted:
                try:
                    for size in call_sizes(module, job.get("calls", 2)):
                        calls.append(
                            unalias(
                                run_call(fn, context, module, job.get("device", "cpu"), job.get("perturb"),
                                         size),
                                aliases,
                            )
                        )
                        # The next call starts from the state eager would leave, which the record holds.
                    result = {"calls": calls, "stats": unalias(stats(), aliases)}
                except StepLimit:  # the compile traced past the job's limits: no observation, only how far
                    result = {}
                spent = cpu_seconds() - started
                # a program's bare ``except:`` may have swallowed the stop: its count and CPU seconds tell
                if counted and 0 < job["steps"] < Steps.count:
                    result = {"steps_over": Steps.count}
                elif cpu_limit is not None and spent > cpu_limit:
                    result = {"cpu_over": spent}
                elif "calls" not in result:  # stopped, yet no limit shows it (never seen): as by count
                    result = {"steps_over": Steps.count}
                else:
                    result = {**result, "cpu": spent, **({"steps": Steps.count} if counted else {})}
    for m in program_modules(module):
        forget_program(m)
    result["clean"] = clean_up(default_state, default_dispatch)
    return result


def clean_up(default_state: dict[str, Any], default_dispatch: obs.DispatchState | None) -> bool:
    """Put back what a job left; False if the process cannot be trusted with another job."""
    if not obs.restore_torch_state(default_state):
        return False
    return obs.healthy(default_dispatch) or obs.repair_dispatch(default_dispatch)


def warm_up() -> None:
    """Pay Dynamo's one-time lazy imports at start-up rather than inside the first program's timeout."""
    torch.compile(lambda x: x + 1, backend="eager")(torch.ones(1))
    torch._dynamo.reset()


def main() -> None:
    die_with_parent()
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - program prints go nowhere
    default_state, default_dispatch = obs.torch_state(), obs.dispatch_state()
    warm_up()
    write_frame(proto_out, {"ready": True, "torch": torch.__version__, "python": sys.version.split()[0],
                            "cuda": torch.cuda.is_available()})
    while True:
        job = read_frame(proto_in)
        if job is None:
            return
        if job.get("op") == "paths":
            sys.path[:0] = [p for p in job["paths"] if p not in sys.path]
            continue
        try:
            result = run_job(job, default_state, default_dispatch)
        except Exception as exc:  # noqa: BLE001 - a failure of the harness itself, reported to the parent
            result = {"harness_error": "".join(traceback.format_exception(exc))[-4000:]}
        if "clean" not in result:  # the program did not load or the harness failed: still check the process
            result["clean"] = clean_up(default_state, default_dispatch)
        write_frame(proto_out, result)
        if not result["clean"]:
            return  # state we cannot undo (or a poisoned process): the parent starts a fresh worker


if __name__ == "__main__":
    main()
