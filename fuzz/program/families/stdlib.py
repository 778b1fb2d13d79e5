"""The standard library around breaks: ``collections`` (deque, OrderedDict, defaultdict, Counter, namedtuple),
``itertools`` (chain, islice, accumulate, groupby, product, starmap, zip_longest, pairwise), ``functools``
(partial, reduce, lru_cache, singledispatch, wraps), ``operator`` getters and callers, ``heapq``/``bisect`` with
keys, a seeded ``random.Random`` and ``math``. The hole runs where the library calls user code: a factory, a key,
a reduce function, a dispatch target, a wrapped function. Keys that decide an order are ints computed next to
the hole, never tensor-derived floats (a reordering backend must not flip a near tie)."""

from __future__ import annotations

from fuzz.program.families._registry import Family, library_constructs

_DEQUE = '''d{k} = collections.deque([x * 0.5], maxlen=3)
d{k}.append({hole}(x))
d{k}.appendleft(x * 0.25)
d{k}.rotate(1)
d{k}.extend([x * 0.125])
_effect("{tag}", d{k})
_effect("{tag}.len", (len(d{k}), d{k}.maxlen))
x = d{k}[0] * 0.5 + d{k}[1] * 0.5'''

_ORDERED = '''od{k} = collections.OrderedDict()
od{k}["a"] = x * 0.5
od{k}["b"] = {hole}(x)
od{k}["c"] = x * 0.25
od{k}.move_to_end("a")
od{k}.move_to_end("c", last=False)
last{k} = od{k}.popitem()
first{k} = od{k}.popitem(last=False)
_effect("{tag}", (last{k}[0], first{k}[0], list(od{k})))
_effect("{tag}.od", od{k})
x = last{k}[1] * 0.5 + od{k}["b"] * 0.5'''

_DEFAULTDICT = '''made{k} = []
def make{k}():
    made{k}.append(len(made{k}))
    return {hole}(x * 0.5)
dd{k} = collections.defaultdict(make{k})
y{k} = dd{k}["a"] + dd{k}["a"] * 0.5
dd{k}["b"] = y{k} * 0.25
_effect("{tag}", (made{k}, list(dd{k}), "c" in dd{k}, dd{k}.default_factory is make{k}))
_effect("{tag}.dd", dd{k})
x = y{k} * 0.5'''

_COUNTER = '''ys{k} = []
def tally{k}(i):
    ys{k}.append({hole}(x * (0.75 - 0.25 * i)))
    return i % 2
c{k} = collections.Counter(tally{k}(i) for i in range(3))
s{k} = collections.Counter(list(x.shape) + [len(ys{k})])
c{k}.update([1, 2, 2])
_effect("{tag}", (c{k}.most_common(2), c{k} + s{k}, c{k} - s{k}, c{k} & s{k}, c{k} | s{k}, c{k}[7]))
_effect("{tag}.total", sum(c{k}.values()))
x = ys{k}[0] * 0.5 + ys{k}[-1] * 0.5'''

_NT_DEFS = '''
_NPoint = collections.namedtuple("_NPoint", ["a", "b", "n"], defaults=[0])
'''

_NAMEDTUPLE = '''p{k} = _NPoint({hole}(x), x * 0.5)
q{k} = p{k}._replace(n=p{k}.n + 2)
_effect("{tag}", (q{k}.n, list(q{k}._asdict()), q{k}._fields, p{k}._field_defaults))
_effect("{tag}.nt", q{k})
a{k}, b{k}, n{k} = q{k}
x = a{k} * 0.5 + b{k} * (0.25 * n{k})'''

_CHAIN = '''parts{k} = list(itertools.islice(itertools.chain(map({hole}, [x * 0.5]), [x * 0.25], [x]), 2))
pairs{k} = list(itertools.zip_longest(range(3), parts{k}))
_effect("{tag}", (len(parts{k}), [i for i, p in pairs{k} if p is None]))
x = parts{k}[0] + parts{k}[1]'''

_ACCUMULATE = '''def step{k}(a, b):
    return {hole}(a) * 0.5 + b
acc{k} = list(itertools.accumulate([x * 0.5, x * 0.25, x * 0.125], step{k}))
_effect("{tag}", len(acc{k}))
x = acc{k}[-1]'''

_GROUPBY = '''seen{k} = []
def key{k}(i):
    seen{k}.append({hole}(x * (0.5 + 0.25 * i)))
    return i // 2
groups{k} = [(g, len(list(items))) for g, items in itertools.groupby(range(3), key=key{k})]
_effect("{tag}", groups{k})
x = seen{k}[0] * 0.5 + seen{k}[-1] * 0.5'''

_STARMAP = '''def scaled{k}(w, n):
    return {hole}(x * w) * (0.5 / n)
outs{k} = list(itertools.starmap(scaled{k}, itertools.product([0.5], [1, 2])))
_effect("{tag}", len(outs{k}))
x = outs{k}[0] + outs{k}[1]'''

_PAIRWISE = '''ps{k} = list(itertools.pairwise(map({hole}, [x, x * 0.5, x * 0.25])))
_effect("{tag}", len(ps{k}))
x = ps{k}[0][1] * 0.5 + ps{k}[-1][1] * 0.5'''

_PARTIAL = '''def lin{k}(v, a, b=0.0):
    return {hole}(v) * a + b
p{k} = functools.partial(lin{k}, a=0.5)
q{k} = functools.partial(p{k}, b=0.125)
_effect("{tag}", (p{k}.args, sorted(q{k}.keywords.items()), q{k}.func is lin{k}))
x = q{k}(x)'''

_REDUCE = '''def fold{k}(a, b):
    return {hole}(a) * 0.5 + b * 0.5
x = functools.reduce(fold{k}, [x * 0.5, x * 0.25], x)'''

_REDUCE_OP = '''y{k} = {hole}(x)
x = functools.reduce(operator.add, [y{k} * 0.25, x * 0.25, y{k} * 0.25])
_effect("{tag}", functools.reduce(operator.mul, x.shape, 1))'''

_LRU_DEFS = '''
@functools.lru_cache(maxsize=4)
def _shared_scale(n):
    return 0.5 + 0.125 * n
'''

_LRU = '''@functools.lru_cache(maxsize=2)
def cached{k}(n):
    _effect("{tag}.miss", n)
    return {hole}(x * (0.5 + 0.25 * n))
y{k} = cached{k}(0) * 0.5 + cached{k}(1) * 0.25 + cached{k}(0) * 0.25
info{k} = cached{k}.cache_info()
_effect("{tag}", (info{k}.hits, info{k}.misses, info{k}.currsize))
cached{k}.cache_clear()
_effect("{tag}.shared", (_shared_scale(1), _shared_scale.cache_info().hits))
x = y{k} * _shared_scale(0)'''

_DISPATCH = '''@functools.singledispatch
def disp{k}(v):
    return v
@disp{k}.register(torch.Tensor)
def _disp_t{k}(v):
    return {hole}(v) * 0.5
@disp{k}.register(int)
def _disp_i{k}(v):
    return v + 1
_effect("{tag}", (disp{k}(2), disp{k}("s"), disp{k}.dispatch(bool) is _disp_i{k}))
x = disp{k}(x) + 0.25'''

_WRAPS = '''def deco{k}(fn):
    @functools.wraps(fn)
    def wrapper(v):
        _effect("{tag}.call", fn.__name__)
        return fn(v) * 0.5 + 0.25
    return wrapper
@deco{k}
def inner{k}(v):
    """doc"""
    return {hole}(v)
_effect("{tag}", (inner{k}.__name__, inner{k}.__doc__, inner{k}.__wrapped__.__name__))
x = inner{k}(x)'''

_HOLDER = '''
class _Holder:
    def __init__(self, fn, value):
        self.fn = fn
        self.value = value

    def run(self, scale):
        return self.fn(self.value) * scale
'''

_OPERATOR = '''h{k} = _Holder({hole}, x)
y{k} = operator.methodcaller("run", 0.5)(h{k})
shape{k} = operator.attrgetter("value.shape")(h{k})
a{k}, b{k} = operator.itemgetter(1, 0)([y{k}, x * 0.25])
_effect("{tag}", (tuple(shape{k}), operator.add(1, 2), operator.neg(3)))
x = operator.add(a{k}, b{k})'''

_HEAP = '''outs{k} = []
def key{k}(i):
    outs{k}.append({hole}(x * (0.25 + 0.25 * i)))
    return (2 - i) % 3
small{k} = heapq.nsmallest(2, range(3), key=key{k})
h{k} = [5, 1, 4]
heapq.heapify(h{k})
heapq.heappush(h{k}, 2)
_effect("{tag}", (small{k}, heapq.heappop(h{k}), h{k}[0]))
x = outs{k}[small{k}[0]] * 0.5 + outs{k}[small{k}[1]] * 0.5'''

_BISECT = '''vals{k} = []
def key{k}(i):
    if len(vals{k}) < 2:
        vals{k}.append({hole}(x * (0.5 + 0.25 * len(vals{k}))))
    return -i
keys{k} = [9, 6, 3, 1]
pos{k} = bisect.bisect_left(keys{k}, -4, key=key{k})
bisect.insort(keys{k}, 4, key=lambda v: -v)
_effect("{tag}", (pos{k}, keys{k}, bisect.bisect_right([1, 2, 2, 3], 2)))
x = vals{k}[0] * 0.5 + vals{k}[-1] * 0.5'''

_RANDOM = '''rng{k} = random.Random({k})
order{k} = list(range(4))
rng{k}.shuffle(order{k})
w{k} = round(rng{k}.uniform(0.25, 0.75), 3)
_effect("{tag}", (order{k}, w{k}, rng{k}.randrange(10), rng{k}.choice("abc")))
_effect("{tag}.math", (math.gcd(12, 8 + {k}), math.prod(x.shape), math.isqrt(x.numel()), math.floor(2.5),
                       math.comb(5, 2), round(math.sqrt(2.0), 3)))
x = x * w{k} + math.sin(0.5) * 0.1'''


_h = library_constructs("stdlib")


FAMILY = Family(
    "stdlib",
    "collections, itertools, functools, operator, heapq/bisect, random and math, the break inside user callbacks",
    (
        _h("deque", 0.4, "collections.deque with maxlen, append/appendleft/rotate/extend around the hole",
           _DEQUE, ("collections",)),
        _h("ordered_dict", 0.3, "OrderedDict with move_to_end and popitem(last=...) holding the hole's result",
           _ORDERED, ("collections",)),
        _h("defaultdict", 0.4, "defaultdict whose factory runs the hole", _DEFAULTDICT, ("collections",),
           bound=lambda b, h: 0.75 * h + 0.1),
        _h("counter", 0.3, "Counter over a generator running the hole; most_common and Counter arithmetic",
           _COUNTER, ("collections",), calls=3),
        _h("namedtuple", 0.3, "collections.namedtuple with defaults, _replace/_asdict, unpacked",
           _NAMEDTUPLE, ("collections",), defs=_NT_DEFS),
        _h("chain_islice", 0.3, "islice(chain(map(hole, ...), ...)) and zip_longest", _CHAIN, ("itertools",),
           bound=lambda b, h: h + 0.25 * b, keep=("list", "map")),
        _h("accumulate", 0.3, "itertools.accumulate with a user function running the hole", _ACCUMULATE,
           ("itertools",), calls=2, bound=lambda b, h: max(b, h) * 1.5, keep=("list",)),
        _h("groupby", 0.3, "itertools.groupby whose key runs the hole", _GROUPBY, ("itertools",), calls=3,
           keep=("len", "list")),
        _h("starmap_product", 0.3, "starmap over product() calling the hole", _STARMAP, ("itertools",), calls=2,
           bound=lambda b, h: 0.75 * h, keep=("list",)),
        _h("pairwise", 0.2, "itertools.pairwise over map(hole, ...)", _PAIRWISE, ("itertools",), calls=3,
           keep=("map",)),
        _h("partial", 0.4, "functools.partial of a function running the hole, its args/keywords/func",
           _PARTIAL, ("functools",), bound=lambda b, h: 0.5 * h + 0.125),
        _h("reduce", 0.4, "functools.reduce with a user function running the hole", _REDUCE, ("functools",),
           calls=2),
        _h("reduce_operator", 0.3, "functools.reduce(operator.add/mul, ...) after the hole", _REDUCE_OP,
           ("functools", "operator"), bound=lambda b, h: 0.5 * h + 0.25 * b),
        _h("lru_cache", 0.4, "an lru_cache'd local function running the hole, cache_info/cache_clear, and a "
           "module-level cache shared by both calls of entry", _LRU, ("functools",), calls=2,
           bound=lambda b, h: 0.5 * max(b, h), defs=_LRU_DEFS),
        _h("singledispatch", 0.3, "functools.singledispatch whose Tensor overload runs the hole", _DISPATCH,
           ("functools",), bound=lambda b, h: 0.5 * h + 0.25),
        _h("wraps", 0.3, "a functools.wraps decorator around a function running the hole", _WRAPS,
           ("functools",), bound=lambda b, h: 0.5 * h + 0.25),
        _h("operator", 0.3, "operator.methodcaller/attrgetter/itemgetter, the method running the hole",
           _OPERATOR, ("operator",), bound=lambda b, h: 0.5 * h + 0.25 * b,
           defs=_HOLDER),
        _h("heapq", 0.3, "heapq.nsmallest with a key running the hole, heapify/heappush/heappop", _HEAP,
           ("heapq",), calls=3),
        _h("bisect", 0.2, "bisect.bisect_left/insort with key= functions, the key running the hole", _BISECT,
           ("bisect",), calls=2),
        _h("random_math", 0.3, "a seeded random.Random (shuffle/uniform/choice) and math functions",
           _RANDOM, ("random", "math"), bound=lambda b, h: 0.75 * b + 0.1, keep=("round",)),
    ),
)
