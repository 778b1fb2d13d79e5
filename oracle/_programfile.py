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
    "FOOTER_MARKER",
    "HEADER_FIRST_LINE",
    "ProgramWriteError",
    "header_fields",
    "program_for",
    "read_program_text",
    "set_header",
    "slug",
    "split_source",
    "top_level_names",
    "with_footer",
]

FOOTER_MARKER = "# ---- ngb-fuzz standalone check"
HEADER_FIRST_LINE = "# ngb-fuzz program"
_FIELD = re.compile(r"^# ([a-z][a-z-]*): ?(.*)$")


def _split(source: str) -> tuple[list[str], list[str]]:
    """(header lines, body lines); header lines are the leading comment block."""
    lines = source.splitlines()
    end = 0
    while end < len(lines) and lines[end].startswith("#"):
        end += 1
    return lines[:end], lines[end:]


def read_program_text(path: str | PathLike[str]) -> str:
    """A program file's text as its author meant it: a UTF-8 BOM dropped (``utf-8-sig``, as editors on Windows
    save) and CRLF or CR line ends read as ``\\n``. Every reader of program files goes through here; the
    standalone footer reads its own file the same way. Raises OSError and UnicodeDecodeError as ``open``
    does."""
    with open(path, encoding="utf-8-sig", newline=None) as f:
        return f.read()


def header_fields(source: str) -> dict[str, str]:
    head, _ = _split(source)
    return {m.group(1): m.group(2).strip() for line in head if (m := _FIELD.match(line))}


def set_header(source: str, *, drop: tuple[str, ...] = (), **fields: str | None) -> str:
    """Return ``source`` with header fields set (``found_by`` writes ``found-by``; None leaves a field as it
    is) and the fields named in ``drop`` removed. Known fields come first in a fixed order (signature, target,
    eager, compare, found-by, features), then other fields and comment lines as they were."""
    head, body = _split(source)
    wanted = {k.replace("_", "-"): str(v) for k, v in fields.items() if v is not None}
    present = {m.group(1): m.group(2).strip() for line in head if (m := _FIELD.match(line))}
    merged = {k: v for k, v in {**present, **wanted}.items() if k not in drop}
    others = [line for line in head if line != HEADER_FIRST_LINE and not _FIELD.match(line)]
    order = ("signature", "target", "eager", "compare", "found-by", "features")
    known = [f"# {k}: {merged[k]}" for k in order if k in merged]
    rest = [f"# {k}: {v}" for k, v in merged.items() if k not in order]
    return "\n".join([HEADER_FIRST_LINE, *known, *rest, *others, *body]) + "\n"


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe rendering of a signature or target spec."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:limit] or "x"


def split_source(source: str) -> tuple[str, str, str]:
    """Split a program file into (leading comment block, code, footer). The footer starts at the marker
    line."""
    lines = source.splitlines(keepends=True)
    cut = next((i for i, line in enumerate(lines) if line.startswith(FOOTER_MARKER)), len(lines))
    head, footer = lines[:cut], "".join(lines[cut:])
    n = 0
    while n < len(head) and (head[n].startswith("#") or not head[n].strip()):
        n += 1
    comments = "".join(line for line in head[:n] if line.startswith("#"))
    return comments, "".join(head[n:]), footer


def _imports_torch(code: str) -> bool:
    """The module itself (not a helper module's source string) runs ``import torch``."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return False
    return any(
        isinstance(s, ast.Import) and any(a.name == "torch" and not a.asname for a in s.names) for s in body
    )


def top_level_names(module: ast.Module) -> set[str]:
    """The functions a program module defines and the names it assigns at top level (``entry``,
    ``make_inputs``...)."""
    names = {s.name for s in module.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
    return names | {
        t.id for s in module.body if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)
    }


def _defines(code: str, name: str) -> bool:
    """The module defines ``name`` at top level (a syntax error: assume it does)."""
    try:
        return name in top_level_names(ast.parse(code))
    except SyntaxError:
        return True


def takes_size(code: str) -> bool:
    """The program's ``make_inputs`` takes ``size`` (it gives inputs of other sizes for a third call)."""
    try:
        module = ast.parse(code)
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.FunctionDef)
        and node.name == "make_inputs"
        and "size" in [a.arg for a in (*node.args.args, *node.args.kwonlyargs)]
        for node in module.body
    )


def with_footer(source: str) -> str:
    """``source`` with its standalone check (if any) replaced by the current one, two blank lines above it:
    the short check for its header's ``# signature:`` on its ``# target:`` when that class has one (comparing
    as printed under ``# compare: plain``), else the generic footer."""
    from oracle._checks import check_for
    from oracle._footer import standalone_footer

    fields = header_fields(source)
    code = split_source(source)[1]  # not the old footer: the generic one makes an ngb_ module of its own
    helpers = "types.ModuleType(\"ngb_" in code or "ModuleType('ngb_" in code
    imports_torch = _imports_torch(code)
    check = check_for(
        fields.get("signature"),
        fields.get("target"),
        fields.get("eager"),
        helpers=helpers,
        imports_torch=imports_torch,
        inputs=_defines(code, "make_inputs"),
        compare=fields.get("compare"),
    ) or standalone_footer(fields.get("target"), takes_size(code))
    return source.split(FOOTER_MARKER)[0].rstrip("\n") + "\n\n\n" + check


# ---- the writer of a Python function into a program file (the ngb_check fixture's)
# ---------------------------------


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
    lines = [HEADER_FIRST_LINE, f"# found-by: ngb_check({fn.__qualname__})"]
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
