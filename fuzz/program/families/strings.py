"""Strings built around breaks: f-strings with conversions and (nested) format specs, PEP 701 f-strings (3.12), ``format()``,
``str.format``, ``%`` formatting, ``str`` methods, and a user class whose ``__format__``/``__repr__``/``__str__``
runs the hole. What is formatted is mostly ints, shapes, dtypes and bools; a tensor-derived float is printed to
one decimal at most, so a backend that reorders arithmetic within tolerance cannot change the text."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

_FSTRING = '''y{k} = {hole}(x)
s{k} = f"{tuple(y{k}.shape)!r:>14}|{y{k}.dtype}|{y{k}.numel():#06x}|{'ok'!s:^6}|{y{k}.dim()!a}|{y{k}.ndim:+d}"
_effect("{tag}", s{k})
_effect("{tag}.sum", f"{float(y{k}.abs().sum()) >= 0.0}:{y{k}.shape[-1]:03d}")
x = y{k} * (0.5 if s{k}.strip().startswith("(") else 0.25)'''

_FSTRING_FLOAT = '''y{k} = {hole}(x)
_effect("{tag}", f"{round(float(y{k}.abs().max()), 1):.1f}|{y{k}.numel() / 4:.2f}|{y{k}.numel():e}|{0.5:%}")
x = y{k} * 0.5 + x * 0.25'''

_NESTED = '''y{k} = {hole}(x)
w{k}, fill{k}, align{k} = 8 + {k} % 3, "*", "^<>"[{k} % 3]
s{k} = f"{y{k}.numel():{fill{k}}{align{k}}{w{k}}d}|{str(y{k}.dtype):>{w{k}}.{w{k} - 2}}|{len(y{k}.shape):{w{k}}b}"
_effect("{tag}", (s{k}, len(s{k})))
x = y{k} * (len(s{k}) % 3 + 1) * 0.25'''

_FORMAT = '''y{k} = {hole}(x)
a{k} = format(y{k}.numel(), "08b")
b{k} = "{0}-{1:>4}-{name}-{0!r}".format(y{k}.dim(), y{k}.shape[0], name=str(y{k}.dtype))
c{k} = "{shape[0]}/{n:_d}".format_map({"shape": list(y{k}.shape), "n": 12345 + {k}})
_effect("{tag}", (a{k}, b{k}, c{k}, format(True, ""), format(3, "x")))
x = y{k} * 0.5 + x * 0.25'''

_PERCENT = '''y{k} = {hole}(x)
s{k} = "%s:%5d:%-6s:%03i:%x" % (tuple(y{k}.shape), y{k}.numel(), y{k}.dtype, y{k}.dim(), 255 + {k})
t{k} = "%(n)04d|%(b)r|%%" % {"n": y{k}.numel(), "b": bool(y{k}.requires_grad)}
_effect("{tag}", (s{k}, t{k}))
x = y{k} * (0.5 if ":" in s{k} else 0.25)'''

_METHODS = '''def label{k}(i):
    y{k}.append({hole}(x * (0.5 + 0.25 * i)))
    return "-".join(str(d) for d in y{k}[-1].shape) + f"_{i}"
y{k} = []
s{k} = " | ".join(label{k}(i) for i in range(2))
head{k}, sep{k}, tail{k} = s{k}.partition(" | ")
_effect("{tag}", (s{k}.split(" | "), head{k}.replace("-", "x"), tail{k}.zfill(12), s{k}.startswith(head{k}),
                  s{k}.count("-"), s{k}.upper().lower() == s{k}, s{k}.rsplit("_", 1)[-1], "a,b,,c".split(",")))
x = y{k}[0] * 0.5 + y{k}[1] * 0.5'''

_MORE_METHODS = '''y{k} = {hole}(x)
name{k} = str(y{k}.dtype).removeprefix("torch.")
parts{k} = [name{k}.center(11, "."), name{k}.title(), name{k}.encode().hex(), "  pad ".strip(), name{k}[::-1]]
_effect("{tag}", (parts{k}, name{k}.isalnum(), name{k}.find("3"), "".join(sorted(name{k})), name{k}.casefold()))
x = y{k} * (0.5 if name{k}.endswith("32") else 0.25)'''

_FMT = '''
class _Fmt:
    def __init__(self, fn, value):
        self.fn = fn
        self.value = value
        self.out = value

    def __format__(self, spec):
        self.out = self.fn(self.value)
        return f"<{spec or 'none'}:{tuple(self.out.shape)}>"

    def __repr__(self):
        self.out = self.fn(self.out) * 0.5
        return f"_Fmt({self.out.dtype})"
'''

_USER_FORMAT = '''f{k} = _Fmt({hole}, x)
s{k} = f"{f{k}:wide}|{f{k}}"
t{k} = format(f{k}, "x") + "{0:y}".format(f{k})
_effect("{tag}", (s{k}, t{k}))
x = f{k}.out * 0.5 + x * 0.25'''

_USER_REPR = '''f{k} = _Fmt({hole}, x * 0.5)
s{k} = repr(f{k}) + str(f{k}) + f"{f{k}!r}" + "%r" % (f{k},)
_effect("{tag}", s{k})
x = f{k}.out + x * 0.25'''


# PEP 701 (Python 3.12): the same quotes nested in replacement fields, backslashes and a comment inside one, a
# field spread over lines; the hole runs inside the f-string's first field (a walrus keeps its result).
_FSTRING_PEP701 = '''s{k} = f"{(y{k} := {hole}(x)).dim()}|{"-".join(f"{d{k}:>3}" for d{k} in y{k}.shape)}|{
    str(y{k}.dtype).split(".")[-1]  # a comment inside a replacement field
}|{"\\t".join(["a", "b"])!r}|{f"{f"{y{k}.numel()}"}"}"
_effect("{tag}", s{k})
x = y{k} * (0.5 if s{k}.split("|")[2] == "float32" else 0.25)'''


def _h(kind: str, weight: float, description: str, template: str, calls: int = 1, bound=None,
       keep: tuple[str, ...] = (), defs: str = "", min_python: tuple[int, int] = (3, 10)) -> Construct:
    return Construct(
        f"strings.{kind}", weight, description, template, calls=calls, defs=defs.lstrip("\n"),
        bound=bound or (lambda b, h: max(b, h)), keep_names=frozenset(keep), min_python=min_python,
    )


FAMILY = Family(
    "strings",
    "f-strings, format(), str.format, % formatting and str methods on values from around a break",
    (
        _h("fstring", 0.4, "an f-string with !r/!s/!a conversions and format specs of the hole's shape/dtype",
           _FSTRING, keep=("tuple",)),
        _h("fstring_float", 0.2, "f-string float specs (.1f, e, %) of a rounded value from the hole",
           _FSTRING_FLOAT, bound=lambda b, h: 0.5 * h + 0.25 * b),
        _h("nested_spec", 0.3, "an f-string whose format spec is itself built from fields", _NESTED,
           bound=lambda b, h: 0.75 * h, keep=("len", "str")),
        _h("format", 0.3, "format(), str.format and str.format_map of values after the hole", _FORMAT,
           bound=lambda b, h: 0.5 * h + 0.25 * b, keep=("format", "str")),
        _h("percent", 0.3, "%-formatting with a tuple and with a mapping", _PERCENT, keep=("tuple", "bool")),
        _h("methods", 0.4, "str.join over a generator running the hole; split/partition/replace/zfill/...",
           _METHODS, calls=2, keep=("str", "range")),
        _h("pep701", 0.3, "a PEP 701 f-string: same quotes nested, a backslash and a comment in fields; hole inside",
           _FSTRING_PEP701, bound=lambda b, h: 0.5 * h, keep=("str",), min_python=(3, 12)),
        _h("more_methods", 0.2, "removeprefix/center/title/encode/find/casefold of a dtype name", _MORE_METHODS,
           keep=("str",)),
        _h("user_format", 0.3, "a user class whose __format__ runs the hole (f-string, format(), str.format)",
           _USER_FORMAT, calls=4, bound=lambda b, h: 0.5 * h + 0.25 * b, keep=("format",), defs=_FMT),
        _h("user_repr", 0.3, "a user class whose __repr__ runs the hole (repr, str, !r, %r)", _USER_REPR,
           calls=4, bound=lambda b, h: h + 0.25 * b, keep=("repr", "str"), defs=_FMT),
    ),
)
