"""Builtins that call back into user code, and the iteration protocols: ``sorted``/``min``/``max`` with
``key=``, ``map``/``filter``, ``sum``/``any``/``all`` over generator expressions, ``iter(callable, sentinel)``,
user classes with ``__iter__``/``__next__``/``__len__``/``__contains__``/``__getitem__``, and ``zip``/
``enumerate``/``reversed`` over them. The hole runs inside the callback or the protocol method, one frame below
the builtin that called it."""

from __future__ import annotations

from fuzz.program.families._registry import Construct, Family

# A sequence whose items are computed by a function when read, iterated through a separate iterator class.
_SEQ = '''
class _Seq:
    def __init__(self, fn, items):
        self.fn = fn
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        if i >= len(self.items):
            raise IndexError(i)
        return self.fn(self.items[i])

    def __contains__(self, i):
        return 0 <= i < len(self.items)

    def __iter__(self):
        return _SeqIter(self)


class _SeqIter:
    def __init__(self, seq):
        self.seq = seq
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= len(self.seq):
            raise StopIteration
        self.i += 1
        return self.seq[self.i - 1]
'''.lstrip("\n")

_SORTED = '''r{k} = {}
def key{k}(i):
    r{k}[i] = {hole}(x * (0.5 + 0.25 * i))
    return float(r{k}[i].sum())
o{k} = sorted(range(3), key=key{k})
_effect("{tag}", o{k})
x = r{k}[o{k}[0]] * 0.5 + r{k}[o{k}[-1]] * 0.5'''

_MAX = '''m{k} = max([x * 0.5, x * 0.25 - 0.5], key=lambda t: {hole}(t).mean().item())
_effect("{tag}", m{k}.sum())
x = m{k} + x * 0.25'''

_MIN_PLAIN = '''y{k} = {hole}(x)
lo{k} = min(y{k}.sum(), x.sum())
_effect("{tag}", lo{k})
x = y{k} * 0.5 + x * 0.25'''

_MAP = '''x = sum(map({hole}, [x * 0.5, x * 0.25]), torch.zeros_like(x)) * 0.5'''

_FILTER = '''outs{k} = list(map({hole}, (x, x * 0.5)))
kept{k} = list(filter(lambda t: t.mean() > 0, outs{k}))
_effect("{tag}", len(kept{k}))
x = outs{k}[0] * 0.5 + sum(kept{k}, torch.zeros_like(x)) * 0.25'''

_SUM_GEN = '''x = sum(({hole}(x * c{k}) for c{k} in (0.25, 0.5)), torch.zeros_like(x)) * 0.5'''

_ALL_GEN = '''ys{k} = []
ok{k} = all(ys{k}.append({hole}(x * c{k})) is None and bool(ys{k}[-1].sum() > -100.0) for c{k} in (0.5, 1.0))
_effect("{tag}", ok{k})
x = ys{k}[-1] * (0.5 if ok{k} else 0.25)'''

_ANY_GEN = '''y{k} = {hole}(x)
hit{k} = any(v > 0.5 for v in y{k}.flatten().tolist())
_effect("{tag}", hit{k})
x = y{k} * (0.5 if hit{k} else 0.75)'''

_ITER_SENTINEL = '''n{k} = [0]
def step{k}():
    n{k}[0] += 1
    return n{k}[0]
for i{k} in iter(step{k}, 3):
    x = torch.tanh({hole}(x) * 0.5 + 0.1 * i{k})'''

_USER_FOR = '''acc{k} = torch.zeros_like(x)
for t{k} in _Seq({hole}, [x * 0.5, x * 0.25]):
    acc{k} = acc{k} + t{k}
x = acc{k} * 0.5'''

_USER_PROTOCOL = '''s{k} = _Seq({hole}, [x, x * 0.5])
_effect("{tag}", (len(s{k}), 1 in s{k}, 5 in s{k}))
x = s{k}[1] * 0.5 + s{k}[0] * 0.5'''

_ZIP_ENUM = '''for i{k}, (a{k}, w{k}) in enumerate(zip(_Seq({hole}, [x, x * 0.5]), reversed([0.5, 0.25]))):
    _effect("{tag}", (i{k}, w{k}))
    x = a{k} * w{k} + x * 0.25'''

_UNPACK = '''a{k}, b{k} = _Seq({hole}, [x, x * 0.25])
x = a{k} * 0.5 + b{k} * 0.5'''

_REVERSED = '''r{k} = list(reversed(_Seq({hole}, [x * 0.5, x])))
_effect("{tag}", len(r{k}))
x = r{k}[0] * 0.5 + r{k}[1] * 0.5'''

_ITER_NEXT = '''it{k} = iter(_Seq({hole}, [x, x * 0.5, x * 0.25]))
first{k} = next(it{k})
rest{k} = list(it{k})
_effect("{tag}", len(rest{k}))
x = first{k} * 0.5 + rest{k}[-1] * 0.5'''


def _h(kind: str, weight: float, description: str, template: str, calls: int = 1, bound=None,
       keep: tuple[str, ...] = (), defs: str = "") -> Construct:
    return Construct(
        f"iter.{kind}", weight, description, template, calls=calls, defs=defs,
        bound=bound or (lambda b, h: max(h, 0.5 * b + 0.5 * h)), keep_names=frozenset(keep),
    )


FAMILY = Family(
    "iter",
    "builtins that call user code, and iteration protocols, with the break inside the callback",
    (
        _h("sorted_key", 0.5, "sorted(range(n), key=f) whose key runs the hole", _SORTED, 3, keep=("sorted", "float")),
        _h("max_key", 0.5, "max(items, key=lambda t: hole(t).mean().item())", _MAX, 2,
           lambda b, h: 0.25 * b + 0.5 * b + 0.5, keep=("max",)),
        _h("min_values", 0.3, "min() of two tensor sums after the hole", _MIN_PLAIN, 1,
           lambda b, h: 0.5 * h + 0.25 * b, keep=("min",)),
        _h("map", 0.5, "sum(map(hole, [...]))", _MAP, 2, lambda b, h: h, keep=("map", "sum")),
        _h("filter", 0.4, "filter() with a data-dependent predicate over results of the hole", _FILTER, 2,
           lambda b, h: h, keep=("filter", "map", "list", "sum")),
        _h("sum_genexpr", 0.5, "sum() over a generator expression calling the hole", _SUM_GEN, 2,
           lambda b, h: h, keep=("sum",)),
        _h("all_genexpr", 0.4, "all() over a generator expression calling the hole", _ALL_GEN, 2,
           lambda b, h: h, keep=("all", "bool")),
        _h("any_tolist", 0.3, "any() over a tolist() of the hole's result", _ANY_GEN, 1,
           lambda b, h: 0.75 * h, keep=("any",)),
        _h("iter_sentinel", 0.4, "for i in iter(callable, sentinel) around the hole", _ITER_SENTINEL, 2,
           lambda b, h: 1.0, keep=("iter",)),
        _h("user_for", 0.5, "for over a user class with __iter__/__next__ whose items run the hole",
           _USER_FOR, 2, lambda b, h: h, defs=_SEQ),
        _h("user_protocol", 0.4, "__len__/__contains__/__getitem__ of a user class running the hole",
           _USER_PROTOCOL, 2, lambda b, h: h, keep=("len",), defs=_SEQ),
        _h("zip_enumerate", 0.4, "enumerate(zip(user iterable, reversed(list)))", _ZIP_ENUM, 2,
           lambda b, h: 0.5 * h + 0.25 * (0.5 * h + 0.25 * b), keep=("enumerate", "zip", "reversed"), defs=_SEQ),
        _h("unpack", 0.3, "a, b = user iterable (unpacking through __iter__)", _UNPACK, 2, lambda b, h: h, defs=_SEQ),
        _h("reversed_user", 0.3, "reversed() of a user class with __len__/__getitem__", _REVERSED, 2,
           lambda b, h: h, keep=("reversed", "list"), defs=_SEQ),
        _h("iter_next", 0.3, "iter()/next() by hand, then list() of the rest", _ITER_NEXT, 3,
           lambda b, h: h, keep=("iter", "next", "list"), defs=_SEQ),
    ),
)
