"""Small real objects the residual code builds when symbolic values must become real at a break.

They are the real-world counterparts of VM values that have no public constructor (an iterator positioned
mid-dict, the `__exit__` of a grad-mode block, an empty cell) and are recognised again when a continuation
wraps its inputs.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import torch

from ._vm._version import seq_iter_state


class _NullType:
    """The NULL that 3.11 pushes before a callable; it can sit on a stack live across a break."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NULL"


NULL = _NullType()


class _Miss:
    """The type of MISS, what a segment returns when one of its guards fails."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISS"


class Missing:
    """The type of MISSING: its own type, so that a guard can test "absent or one of these types" with one
    isinstance (see `_vm/_frame_readers._Pins`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISS = _Miss()  # a segment's guards failed
MISSING = Missing()  # a dict/global lookup found nothing
DISCARD = object()  # a frame whose return value is dropped (an inlined __setitem__/__setattr__)
EXHAUSTED = object()  # an eager `next()` ran out


# The iterators CPython makes over a list, tuple, range, str or bytes: each has `__reduce__` (its sequence and
# position) and `__setstate__` (a new position), so one made by traced code becomes eager's own object.
SEQ_ITER_TYPES: frozenset[type] = frozenset(type(iter(s)) for s in ([], (), range(0), range(2**64), "", "\xe9", b""))

POSITIONED_TYPES: frozenset[type] = SEQ_ITER_TYPES | {reversed}  # what `position` puts in place


def iter_at(seq: Sequence[Any], index: int, done: bool = False) -> Iterator[Any]:
    """Eager's own iterator over `seq` (list_iterator, tuple_iterator, range_iterator, str_ascii_iterator...)
    that has yielded `index` items; `done`: it has raised StopIteration (and so dropped its sequence)."""
    return position(iter(seq), index, done)


def reversed_at(seq: Sequence[Any], index: int, done: bool = False) -> Iterator[Any]:
    """`reversed(seq)` after it yielded `index` items (a `reversed` object, or a range_iterator for a range)."""
    return position(reversed(seq), index, done)


def position(it: Iterator[Any], index: int, done: bool) -> Iterator[Any]:
    """Puts a real sequence iterator (one of SEQ_ITER_TYPES, `reversed`, list_reverseiterator) where eager's
    is after yielding `index` items, or past its end (`done`)."""
    state = seq_iter_state(it)
    if len(state) < 3:  # exhausted already: it holds no sequence any more
        return it
    seq = state[1][0]
    backward = state[0] is reversed  # reversed / list_reverseiterator: the position counts down from len-1
    if done:
        it.__setstate__(-1 if backward else len(seq))
        next(it, None)
    elif backward:
        it.__setstate__(len(seq) - 1 - index)
    elif isinstance(seq, list) and index > len(seq):
        # The list shrank under the iterator: eager's position stays past the end (the list may grow back
        # before the next step), but __setstate__ clamps to the length, so lengthen it for that call.
        n = len(seq)
        list.extend(seq, [None] * (index - n))
        try:
            it.__setstate__(index)
        finally:
            list.__delitem__(seq, slice(n, None))
    else:
        it.__setstate__(index)
    return it


def iter_index(it: Iterator[Any]) -> int | None:
    """The position of a real sequence iterator (None once exhausted; a `reversed` one counts down)."""
    state = seq_iter_state(it)
    return state[2] if len(state) > 2 else None


def iter_seq(it: Iterator[Any]) -> Any:
    """The sequence a real sequence iterator reads (the object itself; a range's equal copy)."""
    return seq_iter_state(it)[1][0]


def drained(it: Iterator[Any]) -> Iterator[Any]:
    """`it` after it has raised StopIteration."""
    for _ in it:
        pass
    return it


_DICT_VIEWS: dict[str, Callable[[dict], Any]] = {"keys": dict.keys, "values": dict.values, "items": dict.items}


def dict_iter_at(d: dict, keys: tuple, kind: str, index: int) -> Iterator[Any]:
    """Eager's own iterator over `d`'s keys, values or items (dict_keyiterator, dict_valueiterator,
    dict_itemiterator), as made when `d` held `keys` (in that order) and after yielding `index` items (an
    index past the keys: it raised StopIteration, and so dropped its dict). See `_real_dict_iter`; where
    that cannot be made, the engine's DictIter stands in."""
    it = _real_dict_iter(d, keys, kind, index)
    return it if it is not None else DictIter(d, keys, kind, index)


def _real_dict_iter(d: dict, keys: tuple, kind: str, index: int) -> Iterator[Any] | None:
    """The real iterator of `dict_iter_at`. If `d`'s keys changed since it was made (the VM lets only keys
    be added then: removing one while an iterator is alive is an eager op), it is made over those keys
    (values do not matter to it) and `d` is put back as it is, so the change of size raises at its next
    step, as eagerly. None where that would hash again keys with a `__hash__` written in Python."""
    view = _DICT_VIEWS[kind]
    if index > len(keys):
        it = iter(view({}))
        next(it, None)
        return it
    if tuple(dict.keys(d)) == keys:
        it = iter(view(d))
        for _ in range(index):
            next(it)
        return it
    now = list(dict.items(d))
    if not all(_builtin_hash(k) for k in (*keys, *dict.keys(d))):
        return None
    dict.clear(d)
    dict.update(d, dict.fromkeys(keys))
    try:
        it = iter(view(d))
        for _ in range(index):
            next(it)
    finally:
        dict.clear(d)
        dict.update(d, now)
    return it


def _builtin_hash(k: object) -> bool:
    return not isinstance(type(k).__hash__, types.FunctionType)


class ZipIter:
    """A zip() or enumerate() over sequences made by traced code where only its for-loop holds it (issue #29:
    `for conv, f in zip(self.convs, feats)` with a break in the body): eager's own zip/enumerate inside
    (`_it`, over eager's iterators at `index`), which every step goes through, plus the sequences, `start`
    (enumerate's, None for zip) and `index` a later segment needs to trace the loop's steps. Setting `index`
    takes the steps a trace took; `done`: a step raised StopIteration."""

    __slots__ = ("seqs", "start", "_index", "_it", "done")

    def __init__(self, seqs: tuple, start: int | None, index: int) -> None:
        self.seqs, self.start, self._index, self.done = seqs, start, index, False
        if start is None:
            self._it = zip(*(iter_at(q, index) for q in seqs))
        else:
            self._it = enumerate(iter_at(seqs[0], index), start + index)

    @property
    def index(self) -> int:
        return self._index

    @index.setter
    def index(self, n: int) -> None:
        for _ in range(n - self._index):
            if next(self._it, MISS) is MISS:
                self.done = True
        self._index = n

    def __iter__(self) -> ZipIter:
        return self

    def __next__(self) -> Any:
        try:
            x = next(self._it)
        except StopIteration:
            self.done = True
            raise
        self._index += 1
        return x


class DictIter:
    """A dict iterator made by traced code where no program can see it (a for-loop's own, see
    `dict_iter_at`): eager's own iterator inside (`_it`), which every step goes through, plus what a later
    segment needs to trace its steps over the live dict -- the dict, the keys it was made over, the view
    kind and `index`, the items it yielded (past the keys: it raised StopIteration). Setting `index` takes
    the steps a trace took. `broken`: a step raised RuntimeError (the dict changed), and every later one
    will. Without an `_it` (keys hashed in Python) it reads the live dict itself."""

    __slots__ = ("dict", "keys", "kind", "_index", "_it", "broken")

    def __init__(self, d: dict, keys: tuple, kind: str, index: int) -> None:
        self.dict, self.keys, self.kind, self._index = d, keys, kind, index
        self._it = _real_dict_iter(d, keys, kind, index)
        self.broken = False

    @property
    def index(self) -> int:
        return self._index

    @index.setter
    def index(self, n: int) -> None:
        if self._it is not None:
            for _ in range(n - self._index):
                next(self._it, None)
        self._index = n

    def __iter__(self) -> DictIter:
        return self

    def __next__(self) -> Any:
        try:
            x = next(self._it) if self._it is not None else self._read()
        except StopIteration:
            self._index = len(self.keys) + 1
            raise
        except RuntimeError:
            self.broken = True
            raise
        self._index += 1
        return x

    def _read(self) -> Any:
        keys, k, d = self.keys, self._index, self.dict
        if k > len(keys):
            raise StopIteration
        if self.broken or len(d) != len(keys):
            raise RuntimeError("dictionary changed size during iteration")
        if k == len(keys):
            raise StopIteration
        key = keys[k]
        if key not in d:
            raise RuntimeError("dictionary keys changed during iteration")
        return key if self.kind == "keys" else d[key] if self.kind == "values" else (key, d[key])

    def __length_hint__(self) -> int:
        if self._it is not None:
            return self._it.__length_hint__()
        return max(len(self.keys) - self._index, 0)


class GradModeExit:
    """The `__exit__` of a grad-mode block entered by traced code: restores the saved mode."""

    __slots__ = ("prev",)

    def __init__(self, prev: bool) -> None:
        self.prev = prev

    def __call__(self, *exc: object) -> None:
        torch._C._set_grad_enabled(self.prev)
        return None


def grad_ctx(target: bool, prev: bool | None) -> object:
    """The torch object a grad-mode context value made by traced code stands for: torch.no_grad() /
    enable_grad(), or a torch.set_grad_enabled(target) made when the mode was `prev` (built without
    applying the mode again: it was applied when it was made)."""
    if prev is None:
        return torch.enable_grad() if target else torch.no_grad()
    obj = object.__new__(torch.set_grad_enabled)
    obj.prev, obj.mode = prev, target
    return obj


class GradCtx:
    """A grad-mode context manager created by traced code (no_grad / enable_grad / set_grad_enabled)."""

    __slots__ = ("target", "prev")

    def __init__(self, target: bool, prev: bool | None = None) -> None:
        self.target = target
        self.prev = prev

    def __enter__(self) -> None:
        if self.prev is None:
            self.prev = torch.is_grad_enabled()
        torch._C._set_grad_enabled(self.target)

    def __exit__(self, *exc: object) -> None:
        torch._C._set_grad_enabled(self.prev)
        return None

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        ctx = self
        if self.prev is not None:
            torch._C._set_grad_enabled(self.prev)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            prev = torch.is_grad_enabled()
            torch._C._set_grad_enabled(ctx.target)
            try:
                return fn(*args, **kwargs)
            finally:
                torch._C._set_grad_enabled(prev)

        return wrapper


def new_cell(*contents: object) -> types.CellType:
    return types.CellType(*contents)


def make_function(code: types.CodeType, fglobals: dict[str, Any], name: str, defaults: tuple | None,
                  kwdefaults: dict[str, Any] | None, closure: tuple | None, qualname: str) -> types.FunctionType:
    fn = types.FunctionType(code, fglobals, name, defaults, closure)
    if kwdefaults is not None:
        fn.__kwdefaults__ = kwdefaults
    fn.__qualname__ = qualname
    return fn


def set_grad(mode: bool) -> None:
    torch._C._set_grad_enabled(mode)
