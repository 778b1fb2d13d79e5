"""Control flow around a break: ``match`` statements (literal, capture, class, sequence, mapping patterns, guards,
or-patterns), ``except*`` over exception groups, PEP 695 generics and ``type`` aliases (3.12), exceptions chained across frames (``raise ... from``, implicit
``__context__``), ``for``/``while ... else``, the walrus operator, nested comprehensions, ``try``/``else``/
``finally``, and a ``with`` whose ``__exit__`` suppresses an exception. The hole runs in a case body or a guard,
in a deeper frame that raises, in a loop whose ``break`` its result decides, in a comprehension, in ``else``."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

_PT = '''
class _Pt:
    __match_args__ = ("a", "n")

    def __init__(self, a, n):
        self.a = a
        self.n = n
'''.lstrip("\n")

# Exceptions only the constructs raise: one the hole raises (a break's body may raise anything) passes them by.
_RAISES = '''
class _Deep(Exception):
    pass


class _Mid(Exception):
    pass
'''.lstrip("\n")

_SUPPRESS = '''
class _Suppress:
    def __init__(self, tag):
        self.tag = tag

    def __enter__(self):
        _effect(self.tag + ".enter", True)
        return self

    def __exit__(self, typ, val, tb):
        _effect(self.tag + ".exit", (None if typ is None else typ.__name__, None if val is None else str(val)))
        return typ is not None and issubclass(typ, LookupError)
'''.lstrip("\n")

_MATCH_LITERAL = '''match x.dim():
    case 1 | 2:
        x = {hole}(x * 0.5)
        _effect("{tag}", "low")
    case 3:
        x = {hole}(x) * 0.5
        _effect("{tag}", "three")
    case n{k}:
        _effect("{tag}", n{k})'''

_MATCH_CLASS = '''match _Pt(x, x.shape[-1]):
    case _Pt(t{k}, 0):
        x = t{k}
    case _Pt(a=t{k}, n=n{k}) if n{k} > 3:
        _effect("{tag}", ("wide", n{k}))
        x = {hole}(t{k} * 0.5)
    case _Pt(t{k}, n{k}):
        _effect("{tag}", ("narrow", n{k}))
        x = {hole}(t{k}) * 0.5'''

_MATCH_GUARD = '''match [x, x * 0.5]:
    case [a{k}, b{k}] if float((y{k} := {hole}(a{k})).mean()) > 0.0:
        _effect("{tag}", "pos")
        x = y{k} * 0.5 + b{k} * 0.25
    case [a{k}, *rest{k}]:
        _effect("{tag}", ("neg", len(rest{k})))
        x = y{k} * 0.25 + a{k} * 0.5'''

_MATCH_SEQUENCE = '''match (x * 0.5, x * 0.25, x):
    case (first{k},):
        x = first{k}
    case (first{k}, *mid{k}, last{k}) if len(mid{k}) == 1:
        _effect("{tag}", len(mid{k}))
        x = {hole}(first{k}) * 0.5 + mid{k}[0] * 0.5
    case _:
        x = x * 0.5'''

_MATCH_MAPPING = '''match {"kind": "scale", "rank": x.dim(), "t": x}:
    case {"kind": "shift", "t": t{k}}:
        x = t{k} + 0.5
    case {"kind": "scale" | "mul", "rank": 1 | 2 as r{k}, "t": t{k}, **rest{k}}:
        _effect("{tag}", (r{k}, sorted(rest{k})))
        x = {hole}(t{k} * 0.5)
    case {"t": t{k}, **rest{k}}:
        _effect("{tag}", ("other", sorted(rest{k})))
        x = {hole}(t{k}) * 0.5'''

_EXCEPT_STAR = '''try:
    y{k} = {hole}(x)
    raise ExceptionGroup("eg{k}", [_Deep("d{k}"), _Mid("m{k}"), ExceptionGroup("in{k}", [_Deep("e{k}")])])
except* _Deep as g{k}:
    _effect("{tag}.deep", (str(g{k}), len(g{k}.exceptions), [type(e).__name__ for e in g{k}.exceptions]))
    x = y{k} * 0.5
except* _Mid as g{k}:
    _effect("{tag}.mid", [str(e) for e in g{k}.exceptions])
    x = x + y{k} * 0.25'''

_RAISE_FROM = '''box{k} = []
def deep{k}(t):
    box{k}.append({hole}(t))
    raise _Deep("deep{k}")
def mid{k}(t):
    try:
        deep{k}(t)
    except _Deep as e:
        raise _Mid("mid{k}") from e
try:
    mid{k}(x * 0.5)
except _Mid as e{k}:
    c{k} = e{k}.__cause__
    _effect("{tag}", (type(c{k}).__name__, str(c{k}), e{k}.__suppress_context__, e{k}.__context__ is c{k}))
x = box{k}[0] + x * 0.25'''

_CONTEXT = '''box{k} = []
def deep{k}(t):
    box{k}.append({hole}(t))
    raise _Deep("missing{k}")
def mid{k}(t):
    try:
        deep{k}(t)
    except _Deep:
        raise _Mid("mid{k}")
try:
    mid{k}(x)
except _Mid as e{k}:
    c{k} = e{k}.__context__
    _effect("{tag}", (type(c{k}).__name__, str(c{k}), e{k}.__cause__ is None, e{k}.__suppress_context__))
x = box{k}[0] * 0.5'''

_FOR_ELSE = '''for i{k} in range(3):
    x = torch.tanh({hole}(x) * 0.5)
    if float(x.mean()) > 0.25:
        _effect("{tag}.break", i{k})
        break
else:
    _effect("{tag}.else", i{k})
    x = x * 0.5'''

_WHILE_ELSE = '''n{k} = 0
while n{k} < 2:
    n{k} += 1
    y{k} = {hole}(x)
    if float(y{k}.abs().max()) > 1.5:
        _effect("{tag}.break", n{k})
        x = torch.tanh(y{k})
        break
    x = y{k} * 0.75
else:
    _effect("{tag}.else", n{k})'''

_WALRUS_IF = '''if (y{k} := {hole}(x)).mean() > 0:
    x = y{k} * 0.5
elif (n{k} := y{k}.numel()) > 4:
    _effect("{tag}", n{k})
    x = y{k} * 0.25
else:
    x = y{k}'''

_WALRUS_COMP = '''vals{k} = [z{k} * c{k} for c{k} in (0.5, 0.25) if (z{k} := {hole}(x * c{k})).numel() > 0]
_effect("{tag}", len(vals{k}))
x = vals{k}[0] + z{k} * 0.5'''

_NESTED_COMP = '''grid{k} = [[{hole}(x * (0.25 * (i{k} + j{k} + 1))) for j{k} in range(2) if j{k} <= i{k}] for i{k} in range(2)]
_effect("{tag}", [len(r) for r in grid{k}])
x = grid{k}[1][1] * 0.5 + grid{k}[0][0] * 0.25'''

_DICT_COMP = '''d{k} = {name{k}: {hole}(x * w{k}) for name{k}, w{k} in (("a", 0.5), ("b", 0.25))}
s{k} = {int(v.dim()) + len(n) for n, v in d{k}.items()}
_effect("{tag}", (list(d{k}), sorted(s{k})))
x = d{k}["a"] * 0.5 + d{k}["b"] * 0.5'''

_GEN_EXPR = '''g{k} = ({hole}(x * c{k}) for c{k} in (0.5, 0.25))
_effect("{tag}.before", inspect.getgeneratorstate(g{k}))
first{k} = next(g{k})
_effect("{tag}.mid", inspect.getgeneratorstate(g{k}))
rest{k} = list(g{k})
_effect("{tag}.after", (inspect.getgeneratorstate(g{k}), len(rest{k})))
x = first{k} * 0.5 + rest{k}[0] * 0.5'''

_TRY_ELSE = '''try:
    y{k} = x * 0.5
    if y{k}.dim() == 0:
        raise ValueError("scalar")
except ValueError as e{k}:
    _effect("{tag}.except", str(e{k}))
    y{k} = x
else:
    y{k} = {hole}(y{k})
    _effect("{tag}.else", y{k}.dim())
finally:
    _effect("{tag}.finally", True)
x = y{k}'''

_TRY_FINALLY_RAISE = '''try:
    try:
        y{k} = {hole}(x)
        raise _Deep("i{k}")
    finally:
        _effect("{tag}.finally", True)
        x = x * 0.5
except _Deep as e{k}:
    _effect("{tag}.caught", str(e{k}))
    x = y{k} * 0.5 + x * 0.5'''

_WITH_SUPPRESS = '''with _Suppress("{tag}"):
    x = {hole}(x)
    if x.dim() > 0:
        raise KeyError("k{k}")
    x = x * 4.0
_effect("{tag}.after", x.dim())'''


# PEP 695 (Python 3.12): a generic function, a generic class, `type` aliases. The hole runs inside the generic
# function's frame, in the generic class's __init__, and in the lazily evaluated value of a type alias. Everything
# 3.12-only lives in the template (defs are parsed by the harness, which may be older).
_GENERIC_FUNC = '''def ident{k}[T](v: T) -> T:
    return v
def apply{k}[T: torch.Tensor, *Ts, **P](fn, v: T) -> T:
    return fn(v)
y{k} = apply{k}({hole}, ident{k}(x))
p{k} = apply{k}.__type_params__
_effect("{tag}", ([type(q{k}).__name__ for q{k} in p{k}], [q{k}.__name__ for q{k} in p{k}],
                  p{k}[0].__bound__ is torch.Tensor, ident{k}.__annotations__["v"].__name__))
x = ident{k}(y{k}) * 0.5 + x * 0.25'''

_GENERIC_CLASS = '''class Box{k}[T]:
    def __init__(self, v: T, fn):
        self.v = fn(v)

    def get(self) -> T:
        return self.v

    def map[S](self, fn) -> "Box{k}[S]":
        return Box{k}(self.v, fn)
b{k} = Box{k}(x, {hole})
c{k} = b{k}.map(lambda v: v * 0.5)
_effect("{tag}", (Box{k}.__type_params__[0].__name__, Box{k}[int].__args__[0].__name__,
                  Box{k}.map.__type_params__[0].__name__, Box{k}.__mro__[-2].__name__))
x = c{k}.get() * 0.5 + x * 0.25'''

_TYPE_ALIAS = '''type Pair{k}[T] = tuple[T, T]
type Num{k} = int | float
type Lazy{k} = {hole}(x)
y{k} = Lazy{k}.__value__
_effect("{tag}", (Pair{k}.__name__, [t{k}.__name__ for t{k} in Pair{k}.__type_params__],
                  Pair{k}[int].__args__[0].__name__, str(Num{k}.__value__), type(Lazy{k}).__name__))
x = y{k} * 0.5 + x * 0.25'''


def _c(kind: str, weight: float, description: str, template: str, calls: int = 1, bound=None,
       keep: tuple[str, ...] = (), defs: str = "", imports: tuple[str, ...] = (),
       min_python: tuple[int, int] = (3, 10)) -> Construct:
    return Construct(
        f"control.{kind}", weight, description, template, calls=calls, defs=defs, imports=imports,
        bound=bound or (lambda b, h: max(b, h)), keep_names=frozenset(keep), min_python=min_python,
    )


FAMILY = Family(
    "control",
    "control flow around the break: match, except*, chained exceptions, loop else, walrus, comprehensions",
    (
        _c("match_literal", 0.4, "match on x.dim() with literal and or-patterns, the hole in a case body",
           _MATCH_LITERAL),
        _c("match_class", 0.4, "match a class pattern (__match_args__, keywords, guard), the hole in a case",
           _MATCH_CLASS, defs=_PT),
        _c("match_guard", 0.4, "a case guard that runs the hole (walrus) and tests its result", _MATCH_GUARD,
           bound=lambda b, h: 0.5 * h + 0.5 * b),
        _c("match_sequence", 0.3, "a sequence pattern with a star capture and a guard", _MATCH_SEQUENCE,
           bound=lambda b, h: max(b, 0.5 * h + 0.25 * b)),
        _c("match_mapping", 0.3, "mapping patterns with or-patterns, 'as' and **rest", _MATCH_MAPPING),
        _c("except_star", 0.4, "except* over a nested ExceptionGroup raised after the hole", _EXCEPT_STAR,
           bound=lambda b, h: b + 0.5 * h, defs=_RAISES, min_python=(3, 11)),
        _c("raise_from", 0.4, "raise ... from e across frames, the hole two frames down; __cause__ logged",
           _RAISE_FROM, bound=lambda b, h: h + 0.25 * b, defs=_RAISES),
        _c("raise_context", 0.3, "an implicit __context__ chain across frames, the hole two frames down",
           _CONTEXT, bound=lambda b, h: 0.5 * h, defs=_RAISES),
        _c("for_else", 0.4, "for ... else whose break the hole's result decides", _FOR_ELSE, 3,
           lambda b, h: 1.0, keep=("range", "float")),
        _c("while_else", 0.3, "while ... else whose break the hole's result decides", _WHILE_ELSE, 2,
           lambda b, h: max(h, 1.0), keep=("float",)),
        _c("walrus_if", 0.4, "if/elif conditions binding the hole's result with :=", _WALRUS_IF),
        _c("walrus_comp", 0.3, "a list comprehension whose condition binds the hole's result with :=",
           _WALRUS_COMP, 2, lambda b, h: h),
        _c("nested_comp", 0.3, "a nested list comprehension calling the hole", _NESTED_COMP, 3,
           lambda b, h: 0.75 * h, keep=("range",)),
        _c("dict_comp", 0.3, "a dict comprehension calling the hole, and a set comprehension of ints",
           _DICT_COMP, 2, lambda b, h: h),
        _c("gen_expr", 0.3, "a generator expression calling the hole, stepped by next()/list()",
           _GEN_EXPR, 2, lambda b, h: h, keep=("next", "list"), imports=("inspect",)),
        _c("try_else", 0.4, "try/except/else/finally with the hole in else", _TRY_ELSE,
           bound=lambda b, h: max(b, h)),
        _c("try_finally_raise", 0.3, "an exception raised after the hole passes a finally to an outer except",
           _TRY_FINALLY_RAISE, bound=lambda b, h: 0.5 * h + 0.25 * b, defs=_RAISES),
        _c("with_suppress", 0.4, "a user context manager whose __exit__ suppresses a KeyError raised after the hole",
           _WITH_SUPPRESS, defs=_SUPPRESS),
        _c("generic_func", 0.3, "PEP 695 generic functions (bound, TypeVarTuple, ParamSpec); the hole runs in one",
           _GENERIC_FUNC, bound=lambda b, h: 0.5 * h + 0.25 * b, min_python=(3, 12)),
        _c("generic_class", 0.3, "a PEP 695 generic class and generic method; the hole runs in __init__",
           _GENERIC_CLASS, bound=lambda b, h: 0.25 * h + 0.25 * b, min_python=(3, 12)),
        _c("type_alias", 0.3, "type alias statements; the hole runs in a lazily evaluated alias value",
           _TYPE_ALIAS, bound=lambda b, h: 0.5 * h + 0.25 * b, keep=("tuple", "int", "float"),
           min_python=(3, 12)),
    ),
)
