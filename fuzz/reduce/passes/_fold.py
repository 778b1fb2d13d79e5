"""fold-constants: a pure expression of literals replaced by its value.

Generated programs compute constants at run time (``zlib.crc32(b"f6.24") % 7 * 0.01``, ``len("ab") + 1``,
``math.sqrt(4.0)``) so that a compiler has something to trace; once the bug is found, a reader wants the number,
and the import it needed goes with it (the orphan clean-up takes an import nothing reads).

Only what is pure is folded, evaluated here by a small interpreter, never by ``eval``: literals, tuples of them,
arithmetic, comparisons and boolean logic on them, the builtins and stdlib functions in ``_PURE`` (nothing
random, timed, hashed by address or reading state), the public methods of ``str``/``bytes``/``int``/``float``
constants (immutable: every one of them is pure), and ``math``'s constants. A name counts as the builtin or the
stdlib module only when the program never binds it otherwise (no parameter, local, def or other import of that
name). Sizes are capped (no ``2 ** 10 ** 9``, no ``"a" * 10 ** 9``), and only values a literal can spell
exactly come back (finite numbers, strings, bytes, booleans, ``None`` and tuples of them).
"""

from __future__ import annotations

import ast
import builtins
import math
import operator
import zlib
from collections.abc import Callable, Iterator

from fuzz.reduce._tree import Program, iter_nodes, replace_node
from fuzz.reduce.passes._edits import Edit, _edit_at, _indexed, reduction_pass

__all__ = ["fold_constants", "folded"]

# Callables that depend on their arguments only (no randomness, time, ids, I/O, global state), by dotted name.
_PURE: dict[str, Callable] = {
    **{name: getattr(builtins, name) for name in (
        "abs", "all", "any", "bin", "bool", "chr", "divmod", "float", "hex", "int", "len", "max", "min", "oct",
        "ord", "pow", "repr", "round", "sorted", "str", "sum", "tuple", "bytes")},
    **{f"math.{name}": getattr(math, name) for name in (
        "ceil", "floor", "trunc", "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "fabs", "fmod",
        "gcd", "isqrt", "factorial", "copysign", "hypot", "isfinite", "isinf", "isnan", "prod")},
    "math.pi": math.pi, "math.e": math.e,
    "zlib.crc32": zlib.crc32, "zlib.adler32": zlib.adler32,
}
_MODULES = {"math", "zlib"}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
            ast.NotIn: lambda a, b: a not in b}
_SCALARS = (int, float, str, bytes, bool, type(None))
_MAX_LEN = 200  # longest str/bytes/tuple a fold may make or work on


class _NotPure(Exception):
    pass


def _bound_names(tree: ast.AST) -> set[str]:
    """Every name the program (all its modules) binds other than by ``import m`` of a module in ``_MODULES``:
    such a name is not the builtin or the stdlib module it spells."""
    bound: set[str] = set()
    for node in iter_nodes(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            bound.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update(a.asname or a.name.split(".")[0] for a in node.names
                         if isinstance(node, ast.ImportFrom) or a.asname or a.name not in _MODULES)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
    return bound


def _imported(module: ast.Module) -> set[str]:
    """The modules of ``_MODULES`` that ``module`` itself imports (a helper module's imports are its own)."""
    return {a.name for node in ast.walk(module) if isinstance(node, ast.Import) for a in node.names
            if a.asname is None and a.name in _MODULES}


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


class _Evaluator:
    def __init__(self, tree: ast.Module, module: ast.Module):
        shadowed = _bound_names(tree)
        modules = _imported(module) - shadowed
        self.pure = {name: fn for name, fn in _PURE.items()
                     if name.split(".")[0] not in shadowed and ("." not in name or name.split(".")[0] in modules)}

    def value(self, node: ast.AST):
        """The value of ``node`` when it is pure; raises _NotPure otherwise."""
        if isinstance(node, ast.Constant) and isinstance(node.value, _SCALARS):
            return node.value
        if isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return self._checked(_UNARY[type(node.op)](self.value(node.operand)))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self.value(node.left), self.value(node.right)
            self._guard(node.op, left, right)
            return self._checked(_BINARY[type(node.op)](left, right))
        if isinstance(node, ast.BoolOp):
            result = None
            for item in node.values:
                result = self.value(item)
                if bool(result) == isinstance(node.op, ast.Or):
                    break
            return result
        if isinstance(node, ast.Compare):
            if not all(type(op) in _COMPARE for op in node.ops):
                raise _NotPure  # ``is``: identity of constants is the interpreter's business
            left = self.value(node.left)
            for op, comparator in zip(node.ops, node.comparators):
                right = self.value(comparator)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self.value(node.body) if self.value(node.test) else self.value(node.orelse)
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            return self._checked(self.value(node.value)[self.value(node.slice)])
        if isinstance(node, ast.Attribute) and _dotted(node) in self.pure and not callable(self.pure[_dotted(node)]):
            return self.pure[_dotted(node)]  # math.pi
        if isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            return self._checked(self._function(node.func)(*(self.value(a) for a in node.args)))
        raise _NotPure

    def _function(self, func: ast.AST) -> Callable:
        name = _dotted(func)
        if name in self.pure and callable(self.pure[name]):
            return self.pure[name]
        if isinstance(func, ast.Attribute) and not func.attr.startswith("_"):
            owner = self.value(func.value)
            method = getattr(owner, func.attr, None)  # ``0.25.mix()``: a candidate may call what is not there
            if type(owner) in (str, bytes, int, float) and callable(method):  # immutable: public methods are pure
                return self._sized(owner, method)
        raise _NotPure

    @staticmethod
    def _sized(owner, method: Callable) -> Callable:
        """``method`` of ``owner``, refusing the calls that would build something huge (``"a".ljust(10**9)``)."""
        if not isinstance(owner, str | bytes):
            return method

        def call(*args):
            if any(type(a) is int and abs(a) > _MAX_LEN for a in args):
                raise _NotPure
            return method(*args)

        return call

    @staticmethod
    def _guard(op: ast.operator, left, right) -> None:
        """No fold that computes something huge: big powers and shifts, long repeated sequences."""
        numbers = all(type(v) in (int, float, bool) for v in (left, right))
        if isinstance(op, ast.Pow) and numbers and (abs(right) > 64 or abs(left) > 2 ** 32):
            raise _NotPure
        if isinstance(op, ast.LShift) and numbers and right > 64:
            raise _NotPure
        if isinstance(op, ast.Mult) and not numbers and any(type(v) is int and v > _MAX_LEN for v in (left, right)):
            raise _NotPure

    @staticmethod
    def _checked(value):
        if isinstance(value, str | bytes | tuple) and len(value) > _MAX_LEN:
            raise _NotPure
        if isinstance(value, tuple):
            for item in value:
                _Evaluator._checked(item)
        elif not isinstance(value, _SCALARS) or isinstance(value, int) and abs(value) > 2 ** 64:
            raise _NotPure
        return value


def _literal(value) -> ast.expr | None:
    """The expression spelling ``value`` exactly; None when none does (NaN, infinities)."""
    if isinstance(value, tuple):
        items = [_literal(v) for v in value]
        return None if any(i is None for i in items) else ast.Tuple(items, ast.Load())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and (value < 0 or str(value).startswith("-")):
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))  # ``-3`` as the parser reads it, also ``(-3).real``
    return ast.Constant(value)


def _literal_of(evaluator: _Evaluator, node: ast.expr) -> ast.expr | None:
    if _is_literal(node):
        return None
    try:
        return _literal(evaluator.value(node))
    except (_NotPure, ArithmeticError, ValueError, TypeError, LookupError, AttributeError):
        return None


def folded(tree: ast.Module) -> list[tuple[ast.expr, ast.expr]]:
    """(expression, its literal) for every outermost pure expression of ``tree`` that is not a literal already."""
    found: list[tuple[ast.expr, ast.expr]] = []
    todo: list[tuple[ast.AST, _Evaluator]] = [(tree, _Evaluator(tree, tree))]
    while todo:
        node, evaluator = todo.pop()
        if isinstance(node, ast.expr):
            literal = _literal_of(evaluator, node)
            if literal is not None:
                found.append((node, literal))
                continue
        nested = getattr(node, "ngb_module", None)
        if nested is not None:
            todo.append((nested, _Evaluator(tree, nested)))
        todo.extend((child, evaluator) for child in reversed(list(ast.iter_child_nodes(node))))
    return found


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return type(node.operand.value) in (int, float)
    if isinstance(node, ast.Tuple):
        return all(_is_literal(e) for e in node.elts)
    return False


def _fold_all(prog: Program) -> Program | None:
    new = prog.copy()
    spots = folded(new.tree)
    for node, literal in spots:
        replace_node(new.tree, node, literal)
    return new if spots else None


@reduction_pass("fold-constants")
def fold_constants(prog: Program) -> Iterator[Edit]:
    """Replace pure expressions of literals by their values: all at once, then one at a time."""
    spots = {id(node) for node, _ in folded(prog.tree)}
    if not spots:
        return
    yield lambda: _fold_all(prog)
    if len(spots) > 1:
        for i, node in _indexed(prog.tree):
            if id(node) in spots:
                yield _edit_at(prog, i, _fold_one)


def _fold_one(tree: ast.Module, node: ast.AST) -> bool | None:
    literal = next((lit for spot, lit in folded(tree) if spot is node), None)
    if literal is None:
        return False
    return None if replace_node(tree, node, literal) else False
