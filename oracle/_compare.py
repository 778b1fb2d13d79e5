"""Compare what a target observed with what eager observed.

The first difference decides the verdict; its *class* (what kind of difference, never where or by how much)
goes into the signature, so one bug seen in many programs lands in one bucket. Tolerances depend on the
target: backends that must run the very same kernels as eager are held to exact equality (NaN equals NaN),
backends that may reorder arithmetic get the per-dtype tolerances in ``TOLERANCES``.
"""

from __future__ import annotations

import dataclasses
import math

import torch

from ._observe import Observed

__all__ = ["Difference", "TOLERANCES", "compare_calls", "ASPECTS"]

Tolerance = dict[str, tuple[float, float]]  # (rtol, atol) per dtype name
# (class, path, eager part, target part) of a difference
Hit = tuple[str, str, Observed, Observed]

# Checked in this order; the first aspect that differs names the mismatch.
ASPECTS = ("exception", "value", "effects", "globals", "inputs", "torch_state", "gradients")

# (rtol, atol) per dtype for backends that may reorder arithmetic (aot_eager, inductor).
TOLERANCES: dict[str, Tolerance] = {
    # half precision: decomposed backward rounds at other points than eager (a bfloat16 gradient of -0.00537
    # came back as -0.00488 from a correct aot_eager), so aot_eager gets inductor's half-precision tolerances
    "aot_eager": {"torch.float64": (1e-7, 1e-7), "torch.float32": (1e-5, 1e-6),
                  "torch.float16": (1e-2, 1e-3), "torch.bfloat16": (2e-2, 1e-2)},
    "inductor": {"torch.float64": (1e-7, 1e-7), "torch.float32": (1e-4, 1e-5),
                 "torch.float16": (1e-2, 1e-3), "torch.bfloat16": (2e-2, 1e-2)},
}


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    call: int  # 0 = first call, 1 = second call (cache/guard path), 2 = third call (inputs of other sizes)
    aspect: str  # one of ASPECTS
    cls: str  # what kind of difference: values, dtype, shape, length, type, message, ...
    path: str  # where, for the report only (never in signatures)
    expected: str
    actual: str

    def describe(self) -> str:
        where = f" at {self.path}" if self.path else ""
        call = ("first call", "second call", "third call (other input sizes)")[self.call]
        return (f"{call}: {self.aspect} differs ({self.cls}){where}\n"
                f"    eager:  {self.expected}\n    target: {self.actual}")


def _short(value: Observed) -> str:
    if isinstance(value, tuple) and value and value[0] == "tensor":
        data = value[5]
        shown = "?" if data is None else str(data.flatten()[:8].tolist())
        cls = f"{value[6]}, " if len(value) > 6 else ""
        return (f"tensor({cls}dtype={value[1]}, shape={list(value[2])}, requires_grad={value[4]}, "
                f"values={shown})")
    text = repr(value)
    return text if len(text) <= 300 else text[:297] + "..."


class _Comparer:
    def __init__(self, tolerance: Tolerance | None) -> None:
        self.tolerance = tolerance  # None: exact

    def diff(self, a: Observed, b: Observed, path: str = "") -> Hit | None:
        """(class, path, eager part, target part) of the first difference between two observed values, or
        None."""
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return ("length", path, a, b)
            for i, (x, y) in enumerate(zip(a, b)):
                found = self.diff(x, y, f"{path}[{i}]")
                if found:
                    return found
            return None
        if not (_tagged(a) and _tagged(b)):
            return None if a == b else ("value", path, a, b)
        if a[0] != b[0]:
            return ("type", path, a, b)
        if a[0] == "tensor":
            return self._tensor(a, b, path)
        if a[0] == "float":
            return None if self._floats_close(a[1], b[1], "torch.float64") else ("values", path, a, b)
        if a[0] == "dict":
            if [k for k, _ in a[1]] != [k for k, _ in b[1]]:
                return ("keys", path, a, b)
            for (k, x), (_, y) in zip(a[1], b[1]):
                found = self.diff(x, y, f"{path}[{k[1]!r}]")
                if found:
                    return found
            return None
        if len(a) != len(b):
            return ("structure", path, a, b)
        for x, y in zip(a[1:], b[1:]):
            found = self.diff(x, y, path)
            if found:
                return found
        return None

    def _tensor(self, a: Observed, b: Observed, path: str) -> Hit | None:
        if a[6:] != b[6:]:  # a Tensor subclass's name (``observe_tensor``), or none
            return ("subclass", path, a, b)
        for i, cls in ((1, "dtype"), (2, "shape"), (3, "device"), (4, "requires_grad")):
            if a[i] != b[i]:
                return (cls, path, a, b)
        x, y = a[5], b[5]
        if x is None or y is None:
            return None if x is y else ("values", path, a, b)
        if x.is_floating_point() or x.is_complex():
            if self.tolerance is None:
                same = torch.equal(x, y) or bool(((x == y) | (x.isnan() & y.isnan())).all())
            else:
                rtol, atol = self.tolerance.get(a[1], (1e-5, 1e-6))
                same = torch.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
        else:
            same = torch.equal(x, y)
        return None if same else ("values", path, a, b)

    def _floats_close(self, x: float, y: float, dtype: str) -> bool:
        if math.isnan(x) and math.isnan(y):
            return True
        if self.tolerance is None:
            return x == y
        rtol, atol = self.tolerance.get(dtype, (1e-7, 1e-7))
        return math.isclose(x, y, rel_tol=rtol, abs_tol=atol)


def compare_calls(reference: list[dict[str, Observed]], actual: list[dict[str, Observed]],
                  tolerance: Tolerance | None) -> list[Difference]:
    """All aspects that differ, per call, in ``ASPECTS`` order (first call first)."""
    comparer = _Comparer(tolerance)
    found: list[Difference] = []
    for call, (ref, act) in enumerate(zip(reference, actual)):
        for aspect in ASPECTS:
            a, b = _aspect(ref, aspect), _aspect(act, aspect)
            if aspect == "exception":
                if a != b:
                    cls = "type" if (a or (None,))[0] != (b or (None,))[0] else \
                        "message" if a[:2] != b[:2] else "chain"  # a group's members or a cause differ
                    found.append(Difference(call, aspect, cls, "", repr(a), repr(b)))
                    break  # nothing else is comparable once control flow diverged
                continue
            if aspect == "torch_state":
                keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
                if keys:
                    found.append(Difference(call, aspect, keys[0], "", repr(a), repr(b)))
                continue
            hit = comparer.diff(a, b)
            if hit:
                cls, path, x, y = hit
                found.append(Difference(call, aspect, cls, path, _short(x), _short(y)))
    return found


def _tagged(value: Observed) -> bool:
    return isinstance(value, tuple) and bool(value) and isinstance(value[0], str)


def _aspect(record: dict[str, Observed], aspect: str) -> Observed:
    return record.get("grads" if aspect == "gradients" else aspect)  # the record names gradients "grads"
