"""The program-file format, in one place (docs/program-format.md): header, code, footer marker, and the writer
of a Python function into a program file.

A program file is a leading header (``# ngb-fuzz program`` then ``# key: value`` lines), the program (it
defines ``entry`` and ``make_inputs``), and below ``FOOTER_MARKER`` a generated standalone check. It lives in
``oracle`` because this is the lowest layer that reads program files: ``fuzz`` (generator, reducer, corpus,
campaign, the pytest plugin) imports ``oracle``, never the reverse, so every reader and writer can share it
without a cycle. Nothing here imports torch at module level.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import math
import re
import textwrap
import types
from collections.abc import Iterator, Sequence
from os import PathLike
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

__all__ = [
    "EFFECT_LOG",
    "FOOTER_BANNER",
    "FOOTER_MARKER",
    "FIELD_ORDER",
    "FoundBy",
    "HEADER_FIRST_LINE",
    "OBSERVERS",
    "ProgramFile",
    "ProgramWriteError",
    "header_fields",
    "module_imports_torch",
    "program_for",
    "read_program_text",
    "set_header",
    "slug",
    "writes_effect_log",
    "split_source",
    "takes_size",
    "top_level_names",
]

# The effect log: what a program records as it runs, for the oracle and the standalone footer to compare. It
# is the module-level list ``EFFECTS``, appended to directly or through the program-format helpers
# ``OBSERVERS`` (``_effect(tag, value)``). The reducer strips what writes it; root causes are read without it.
EFFECT_LOG = "EFFECTS"
OBSERVERS = frozenset({"_effect"})


def writes_effect_log(stmt: ast.stmt) -> bool:
    """``_effect(...)`` or ``EFFECTS.<method>(...)`` as a statement: one that only records what happened."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    if isinstance(func, ast.Name):
        return func.id in OBSERVERS
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == EFFECT_LOG)


FOOTER_MARKER = "# ---- ngb-fuzz standalone check"
FOOTER_BANNER = FOOTER_MARKER + " (generated; do not edit below) ----"  # the footer's first line
HEADER_FIRST_LINE = "# ngb-fuzz program"
_FIELD = re.compile(r"^# ([a-z][a-z-]*): ?(.*)$")
# Header fields written first, in this order (then the others in theirs).
FIELD_ORDER = ("signature", "target", "eager", "compare", "found-by", "features")


@dataclasses.dataclass(frozen=True)
class FoundBy:
    """The ``# found-by:`` field: what made the program. A generated one names its seed and index, and a
    reduced one how far it was reduced; anything else (``ngb_check(test_name)``, a hand-written note) is
    kept as ``text``. ``str()`` writes the field, ``parse`` reads it: its one reader and writer."""

    seed: int | None = None  # generated: ``generate_program(seed, program)`` made it
    program: int | None = None
    bias: bool = False  # generated under ``--bias``: it cannot be regenerated from (seed, program) alone
    weights: tuple[tuple[str, float], ...] = ()  # the campaign's ``--weight NAME=W`` options
    reduced: str = ""  # e.g. "12 -> 5 lines" (with a note when cut short); "" when not reduced
    text: str = ""  # not a generated program: the field as written

    _GENERATED = re.compile(
        r"^ngb-fuzz run --seed (\d+)( --bias)?((?: --weight [^\s=]+=\S+)*) \(program (\d+)\)"
        r"(?:, reduced (.*))?$")

    @classmethod
    def parse(cls, text: str) -> FoundBy:
        m = cls._GENERATED.match(text.strip())
        if m is None:
            return cls(text=text.strip())
        parts = (part.partition("=") for part in m.group(3).split(" --weight ")[1:])
        weights = tuple((name, float(w)) for name, _, w in parts)
        return cls(int(m.group(1)), int(m.group(4)), bool(m.group(2)), weights, m.group(5) or "")

    @classmethod
    def generated(cls, seed: int, program: int, bias: bool = False,
                  weights: tuple[tuple[str, float], ...] = ()) -> FoundBy:
        return cls(seed, program, bias, tuple(weights))

    def with_reduction(self, reduced: str) -> FoundBy:
        return dataclasses.replace(self, reduced=reduced)

    @property
    def regenerable(self) -> bool:
        """Made by the generator with its default weights and not changed since: ``generate_program(seed,
        program)`` gives it again."""
        return (self.seed is not None and self.program is not None and not self.bias and not self.weights
                and not self.reduced)

    def __str__(self) -> str:
        if self.seed is None or self.program is None:
            return self.text
        weights = "".join(f" --weight {name}={w:g}" for name, w in self.weights)
        bias = " --bias" if self.bias else ""
        text = f"ngb-fuzz run --seed {self.seed}{bias}{weights} (program {self.program})"
        return text + (f", reduced {self.reduced}" if self.reduced else "")


@dataclasses.dataclass(frozen=True)
class ProgramFile:
    """A program file (docs/program-format.md): the header (``# ngb-fuzz program``, then ``# key: value``
    fields, then other comment lines), the code, and the footer (from ``FOOTER_MARKER`` on, or "").

    ``parse`` is the one reader of that format and ``text`` its one writer: ``parse(pf.text) == pf`` for
    every parsed ``pf``, and a file written by ngb-fuzz reads back to the same text. The header is the leading
    block of lines that start with ``#`` (a blank line ends it); a UTF-8 BOM is dropped and CRLF or CR line
    ends read as ``\\n``. Field values are stripped; field names are lower-case words joined by ``-``."""

    fields: dict[str, str] = dataclasses.field(default_factory=dict)  # in the header's order
    notes: tuple[str, ...] = ()  # the header's other comment lines, as they were
    code: str = ""  # everything between the header and the footer, blank lines and comments included
    footer: str = ""
    titled: bool = True  # the header starts with HEADER_FIRST_LINE

    @classmethod
    def parse(cls, text: str) -> ProgramFile:
        text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        lines = text.splitlines(keepends=True)
        end = 0
        while end < len(lines) and lines[end].startswith("#") and not lines[end].startswith(FOOTER_MARKER):
            end += 1
        head = [line.rstrip("\n") for line in lines[:end]]
        titled = bool(head) and head[0] == HEADER_FIRST_LINE
        fields: dict[str, str] = {}
        notes: list[str] = []
        for line in head[1:] if titled else head:
            m = _FIELD.match(line)
            if m is not None:
                fields[m.group(1)] = m.group(2).strip()
            else:
                notes.append(line)
        rest = lines[end:]
        cut = next((i for i, line in enumerate(rest) if line.startswith(FOOTER_MARKER)), len(rest))
        return cls(fields, tuple(notes), "".join(rest[:cut]), "".join(rest[cut:]), titled)

    @classmethod
    def read(cls, path: str | PathLike[str]) -> ProgramFile:
        return cls.parse(read_program_text(path))

    @property
    def header(self) -> str:
        lines = [HEADER_FIRST_LINE] if self.titled else []
        lines += [f"# {k}: {v}" for k, v in self.fields.items()]
        return "".join(line + "\n" for line in (*lines, *self.notes))

    @property
    def text(self) -> str:
        return self.header + self.code + self.footer

    def get(self, name: str) -> str | None:
        return self.fields.get(name)

    @property
    def found_by(self) -> FoundBy | None:
        text = self.fields.get("found-by")
        return None if text is None else FoundBy.parse(text)

    def with_fields(self, *, drop: tuple[str, ...] = (), **fields: object) -> ProgramFile:
        """Fields set (a keyword's ``_`` is the name's ``-``; None leaves a field as it is) and those named in
        ``drop`` removed; the fields of ``FIELD_ORDER`` come first in that order, then the others in theirs.
        The code ends with a line end."""
        wanted = {k.replace("_", "-"): str(v) for k, v in fields.items() if v is not None}
        merged = {k: v for k, v in {**self.fields, **wanted}.items() if k not in drop}
        ordered = {k: merged[k] for k in FIELD_ORDER if k in merged}
        ordered.update((k, v) for k, v in merged.items() if k not in FIELD_ORDER)
        code, footer = self.code, self.footer
        if footer and not footer.endswith("\n"):
            footer += "\n"
        elif not footer and code and not code.endswith("\n"):
            code += "\n"
        return dataclasses.replace(self, fields=ordered, code=code, footer=footer, titled=True)

    def with_footer(self, footer: str) -> ProgramFile:
        """``footer`` in place of the old one, two blank lines below the code."""
        head = self.header
        body = (head + self.code).rstrip("\n") + "\n\n\n"
        return dataclasses.replace(self, code=body[len(head):], footer=footer)


def read_program_text(path: str | PathLike[str]) -> str:
    """A program file's text as its author meant it: a UTF-8 BOM dropped (``utf-8-sig``, as editors on Windows
    save) and CRLF or CR line ends read as ``\\n``. Every reader of program files goes through here; the
    standalone footer reads its own file the same way. Raises OSError and UnicodeDecodeError as ``open``
    does."""
    with open(path, encoding="utf-8-sig", newline=None) as f:
        return f.read()


def header_fields(source: str) -> dict[str, str]:
    """The header's fields (``ProgramFile.parse(source).fields``)."""
    return ProgramFile.parse(source).fields


def set_header(source: str, *, drop: tuple[str, ...] = (), **fields: str | None) -> str:
    """``source`` with header fields set and removed (``ProgramFile.with_fields``)."""
    return ProgramFile.parse(source).with_fields(drop=drop, **fields).text


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe rendering of a signature or target spec."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:limit] or "x"


def split_source(source: str) -> tuple[str, str, str]:
    """(header, code, footer) of a program file (``ProgramFile.parse``)."""
    pf = ProgramFile.parse(source)
    return pf.header, pf.code, pf.footer


def imports_torch(code: str) -> bool:
    """The module itself (not a helper module's source string) runs ``import torch``."""
    try:
        module = ast.parse(code)
    except SyntaxError:  # e.g. written for a newer Python than this one: read the lines
        return any(line.rstrip() == "import torch" for line in code.splitlines())
    return module_imports_torch(module)


def module_imports_torch(module: ast.Module) -> bool:
    """``module``'s own statements hold ``import torch`` (bound as ``torch``)."""
    return any(isinstance(s, ast.Import) and any(a.name == "torch" and not a.asname for a in s.names)
               for s in module.body)


def top_level_names(module: ast.Module) -> set[str]:
    """The functions a program module defines and the names it assigns at top level (``entry``,
    ``make_inputs``...)."""
    names = {s.name for s in module.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
    return names | {
        t.id for s in module.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)
    }


def defines(code: str, name: str) -> bool:
    """The module defines ``name`` at top level (a syntax error: assume it does)."""
    try:
        return name in top_level_names(ast.parse(code))
    except SyntaxError:
        return True


def takes_size(code: str) -> bool:
    """The program's ``make_inputs`` takes ``size`` (it gives inputs of other sizes for a third call)."""
    try:
        module = ast.parse(code)
    except SyntaxError:  # e.g. written for a newer Python than this one: read the line
        head = re.search(r"^def make_inputs\(([^)]*)\)", code, re.MULTILINE)
        return head is not None and re.search(r"\bsize\b", head.group(1)) is not None
    return any(
        isinstance(node, ast.FunctionDef)
        and node.name == "make_inputs"
        and "size" in [a.arg for a in (*node.args.args, *node.args.kwonlyargs)]
        for node in module.body
    )


# ---- the writer of a Python function into a program file (the ngb_check fixture's) ------------------------


class ProgramWriteError(Exception):
    """The function (or an input) cannot be written into a self-contained program file."""


_MAX_ELEMENTS = 1 << 16


def program_for(fn: object, inputs: Sequence[Any], *, wants_grad: bool = False) -> str:
    """A program file (without footer) whose ``entry`` calls ``fn`` on literal copies of ``inputs``."""
    if not isinstance(fn, types.FunctionType) or fn.__name__ == "<lambda>":
        raise ProgramWriteError(f"{fn!r} is not a function defined with def")
    imports: dict[str, str] = {"torch": "import torch"}
    defs: dict[str, str] = {}
    _add_function(fn, imports, defs)
    found_by = FoundBy(text=f"ngb_check({fn.__qualname__})")
    lines = [ProgramFile({"found-by": str(found_by)}).header.rstrip("\n")]
    lines += sorted(set(imports.values())) + ["", "EFFECTS = []", ""]
    if wants_grad:
        lines += ["WANTS_GRAD = True", ""]
    lines += [text + "\n" for text in defs.values()]
    if fn.__name__ != "entry":
        lines.append(f"def entry(*inputs):\n    return {fn.__name__}(*inputs)\n")
    values = ", ".join(_literal(v) for v in inputs)
    lines.append(f"def make_inputs(device):\n    return ({values}{',' if len(inputs) == 1 else ''})\n")
    return "\n".join(lines)


def _add_function(fn: types.FunctionType, imports: dict[str, str], defs: dict[str, str]) -> None:
    if fn.__name__ in defs:
        return
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError) as exc:
        raise ProgramWriteError(f"no source for {fn.__qualname__} ({exc})") from None
    defs[fn.__name__] = ""  # reserve the slot (recursion) before dependencies
    code = fn.__code__
    names = set(_code_names(code))
    free = dict(zip(code.co_freevars, fn.__closure__ or ()))
    for name in sorted(names | set(free)):
        if name in free:
            try:
                value = free[name].cell_contents
            except ValueError:
                continue
        elif name in fn.__globals__:
            value = fn.__globals__[name]
        else:
            continue  # a builtin or an attribute name
        _add_dependency(name, value, imports, defs)
    del defs[fn.__name__]
    defs[fn.__name__] = source.rstrip() + "\n"  # after its dependencies (cosmetic: all are module-level)


def _code_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_names(const)
            yield from const.co_freevars


def _add_dependency(name: str, value: object, imports: dict[str, str], defs: dict[str, str]) -> None:
    if isinstance(value, types.ModuleType):
        module = value.__name__
        imports[name] = f"import {module}" if module == name else f"import {module} as {name}"
    elif isinstance(value, types.FunctionType):
        if value.__name__ != name:
            raise ProgramWriteError(f"{name} is bound to a function named {value.__name__}")
        _add_function(value, imports, defs)
    elif _is_data(value):
        defs[name] = f"{name} = {_literal(value, device=False)}\n"
    else:
        raise ProgramWriteError(
            f"the function reads {name}, a {type(value).__name__}; only modules, functions "
            f"with source and plain data (numbers, strings, tensors, containers) can be written"
        )


def _is_data(value: object) -> bool:
    import torch

    if value is None or isinstance(value, bool | int | float | str | torch.Tensor | torch.dtype):
        return True
    if isinstance(value, list | tuple):
        return all(_is_data(v) for v in value)
    if isinstance(value, dict):
        return all(_is_data(k) and _is_data(v) for k, v in value.items())
    return False


def _literal(value: object, device: bool = True) -> str:
    import torch

    if isinstance(value, torch.Tensor):
        return _tensor_literal(value, device)
    if isinstance(value, torch.dtype):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f"float('{value}')"
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v, device) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(_literal(v, device) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{_literal(k, device)}: {_literal(v, device)}" for k, v in value.items()) + "}"
        )
    raise ProgramWriteError(f"cannot write an input of type {type(value).__name__} as a literal")


def _tensor_literal(t: torch.Tensor, device: bool) -> str:
    if t.numel() > _MAX_ELEMENTS:
        raise ProgramWriteError(
            f"a tensor input has {t.numel()} elements; at most {_MAX_ELEMENTS} can be written"
        )
    if t.is_complex() or t.is_quantized or t.is_sparse:
        raise ProgramWriteError(f"cannot write a {t.dtype} / {t.layout} tensor as a literal")
    flat = t.detach().cpu().reshape(-1).tolist()
    values = ", ".join(_literal(v) for v in flat)
    text = f"torch.tensor([{values}], dtype={t.dtype}).reshape({tuple(t.shape)})"
    if device:
        text += ".to(device)"
    if t.requires_grad:
        text += ".requires_grad_()"
    return text
