"""The program IR: small frozen dataclasses that :mod:`fuzz.program.strategies` draws and :mod:`fuzz.program.render` prints.

A :class:`Program` is a flat tuple of :class:`Function` records; ``functions[0]`` is ``entry``. Calls refer to
callees by index (always a larger index, so the call graph is a DAG and drawing can go top-down). Statements are
*construct-level* records rather than a Python AST: each one is a feature of the fuzzer (a break, a call in an
operand-stack context, a ``with`` block, a closure ...), rendered by one template. Every statement transforms the
function's working tensor ``x`` and keeps its shape (:attr:`Inputs.shape`); that single-variable discipline keeps
all programs well-typed by construction.

The records hold only ints, floats, strings and tuples, so they compare, hash and print deterministically.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Arith",
    "Break",
    "CallSite",
    "Closure",
    "Construct",
    "DataIf",
    "Effect",
    "Filler",
    "Function",
    "Generator",
    "HelperModule",
    "Inputs",
    "Loop",
    "Probe",
    "Program",
    "Raise",
    "Recurse",
    "Return",
    "Stmt",
    "TensorLoop",
    "Try",
    "With",
    "walk",
]


# ---- statements -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arith:
    """``x = <op>(x)``: tensor arithmetic from the tame-op table in :mod:`fuzz.program.render` (``op`` names a row)."""

    op: str
    const: float = 0.0


@dataclass(frozen=True, slots=True)
class Effect:
    """``_effect("<function>.<n>", <what>)``: append to the effect log (``what``: ``x`` or ``x.sum()``)."""

    what: str = "x"


@dataclass(frozen=True, slots=True)
class Probe:
    """Log a piece of global torch state (``grad``, ``autocast``, ``inference``) into the effect log."""

    kind: str


@dataclass(frozen=True, slots=True)
class Break:
    """A graph break of one kind (``graph_break``, ``step_unsupported``, ``print``, ``disable``, ``item`` ...)."""

    kind: str


@dataclass(frozen=True, slots=True)
class CallSite:
    """Call function ``callee`` with the call placed in operand-stack context ``context`` (``plain``, ``tuple``...).

    ``cm``: a context-manager kind: the object passed to a ``cm_param`` callee, or the decorator applied by the
    ``decorator`` context (``torch.no_grad()(f)(x)``).
    """

    callee: int
    context: str
    cm: str = ""


@dataclass(frozen=True, slots=True)
class With:
    """A ``with`` block of context-manager kind ``kind`` (``no_grad``, ``user_class``, ``param`` ...)."""

    kind: str
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Closure:
    """Define a nested function with a ``nonlocal`` cell, run ``body`` inside it, read the cell afterwards."""

    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class DataIf:
    """A branch. ``cond="tensor"``: ``if x.sum() > 0:`` (data-dependent: a break for tracing compilers);
    ``cond="counter"``: on the parity of a global call counter, so the second call of ``entry`` takes the other
    branch (guards fail, resumed frames recompile)."""

    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]
    cond: str = "tensor"


@dataclass(frozen=True, slots=True)
class Loop:
    """A loop (``kind``: ``range``, ``list`` or ``while`` -- ``while True`` with a ``break``) running ``body``
    ``count`` times."""

    count: int
    body: tuple[Stmt, ...]
    kind: str = "range"


@dataclass(frozen=True, slots=True)
class TensorLoop:
    """A loop over the leading dimension of ``x``'s data (``kind``: ``iter`` -- ``for r in x:`` -- or ``unbind``
    -- ``for r in x.unbind(0):``), each slice accumulated into a tensor of ``x``'s shape that is mixed back into
    ``x`` after the loop. ``body`` runs once per slice on the whole ``x`` (the slice never becomes ``x``, so code
    after and inside the loop keeps ``x``'s rank). ``exit``: ``""`` (every slice), ``index`` (``break`` after the
    first slice), ``data`` (``break`` when the slice sums to more than 0: data-dependent, a graph break)."""

    kind: str
    body: tuple[Stmt, ...]
    exit: str = ""


@dataclass(frozen=True, slots=True)
class Try:
    """``try`` block; ``kind``: ``except`` (a deliberate raise at the end of body is caught), ``finally``."""

    kind: str
    body: tuple[Stmt, ...]
    handler: tuple[Stmt, ...] = ()


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise a ``ValueError`` on purpose (caught by an enclosing ``Try`` or propagated out of ``entry``)."""

    tag: str = "ngb"


@dataclass(frozen=True, slots=True)
class Return:
    """Early return: ``if <const flag>: return x`` (``taken``: whether the flag is true)."""

    taken: bool


@dataclass(frozen=True, slots=True)
class Construct:
    """A construct of the registry (:mod:`fuzz.program.families`), named by its feature tag (``side.list``,
    ``iter.sorted_key``); ``body`` runs in its hole (empty for constructs without one)."""

    name: str
    body: tuple[Stmt, ...] = ()


@dataclass(frozen=True, slots=True)
class Generator:
    """Run ``body`` inside a generator function, consumed in mode ``mode`` (``exhaust``, ``suspend``, ``return``)."""

    mode: str
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Recurse:
    """In a recursive function: ``if n > 0: x = <self>(x, n - 1)``."""


@dataclass(frozen=True, slots=True)
class Filler:
    """An arbitrary statement block (hypothesmith, screened to run under eager), run inside a nested function."""

    source: str


Stmt = (
    Arith | Effect | Probe | Break | CallSite | With | Closure | DataIf | Loop | TensorLoop | Try | Raise
    | Return | Construct | Generator | Recurse | Filler
)


# ---- functions, modules, programs -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Function:
    """One generated function.

    ``module``: ``""`` for the program module, else the name of a :class:`HelperModule`. ``signature``: ``plain``
    ``(x)``, ``cm_param`` ``(x, cm)`` (a context manager created by the caller), ``recursive`` ``(x, n)``,
    ``varargs`` ``(*args)``, ``kwargs`` ``(**kw)``, ``method`` (a method of a generated class), ``lambda``.
    ``decorators``: outermost first (``no_grad``, ``enable_grad``, ``contextmanager`` ...).
    """

    index: int
    module: str
    signature: str
    decorators: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class HelperModule:
    """An in-memory module ``ngb_<name>`` with its own globals ``G_SCALE``, ``G_BIAS`` and ``T_<NAME>``."""

    name: str
    scale: float
    bias: float


@dataclass(frozen=True, slots=True)
class Inputs:
    """What ``make_inputs`` builds: the working tensor ``x`` plus extra inputs.

    ``x`` has ``rank`` 1, 2 or 3 and shape :attr:`shape` -- ``(cols,)``, ``(rows, cols)`` or
    ``(batch, rows, cols)`` -- and dtype ``dtype`` (``float32``, ``float64``, ``bfloat16``); every statement keeps
    that shape, so the leading dimension is known statically. ``layout``: ``contiguous`` or ``transposed``
    (non-contiguous: the last two dimensions swapped, or every other element for rank 1). ``extras``: kinds of
    extra inputs (``scalar`` 0-d, ``empty``, ``int``, ``double``), each mixed into ``x`` through a tame
    reduction by ``entry``. ``other_sizes``: ``make_inputs(device, size=1)`` gives every dimension another size
    (the oracle's third call).
    """

    seed: int
    rows: int
    cols: int
    layout: str = "contiguous"
    requires_grad: bool = False
    extras: tuple[str, ...] = ()
    dtype: str = "float32"
    rank: int = 2
    batch: int = 2
    mark_dynamic: bool = False  # x's leading dimension marked dynamic in make_inputs (maybe_mark_dynamic)
    other_sizes: bool = False  # make_inputs(device, size=0) takes size: the oracle's third call (see render)

    @property
    def shape(self) -> tuple[int, ...]:
        return ((self.cols,), (self.rows, self.cols), (self.batch, self.rows, self.cols))[self.rank - 1]


@dataclass(frozen=True, slots=True)
class Program:
    functions: tuple[Function, ...]
    modules: tuple[HelperModule, ...]
    inputs: Inputs
    wants_grad: bool = False
    returns: str = "x"  # "x", "tuple" (x and a value derived from it), "dict"

    @property
    def entry(self) -> Function:
        return self.functions[0]


def walk(body: tuple[Stmt, ...]):
    """Yield ``(stmt, enclosing)`` for every statement under ``body``; ``enclosing`` lists the compound ancestors."""
    stack = [(body, ())]
    while stack:
        stmts, enclosing = stack.pop()
        for stmt in stmts:
            yield stmt, enclosing
            inner = enclosing + (stmt,)
            if isinstance(stmt, DataIf):
                stack.append((stmt.orelse, inner))
                stack.append((stmt.then, inner))
            elif isinstance(stmt, Try):
                stack.append((stmt.handler, inner))
                stack.append((stmt.body, inner))
            elif isinstance(stmt, With | Closure | Loop | TensorLoop | Generator | Construct):
                stack.append((stmt.body, inner))
