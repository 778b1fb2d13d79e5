"""The reducer's view of a program file: header comments, an editable AST, and the untouchable footer.

Helper modules (``exec(compile('''...''', "ngb_x", "exec"), _x.__dict__)``) carry their code in a string. The
reducer parses such strings too and hangs the parsed module on the string's ``Constant`` node (attribute
``ngb_module``), so every pass edits helper-module code exactly like top-level code; rendering writes the nested
module back as a triple-quoted string.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import io
import tokenize
import warnings
from collections.abc import Iterator

from oracle._programfile import OBSERVERS, ProgramFile  # the program-file format's one definition (no torch)

__all__ = [
    "bind_arguments",
    "OBSERVERS",
    "attach_helper_modules",
    "REQUIRED_NAMES",
    "Program",
    "code_lines",
    "helper_update",
    "iter_nodes",
    "replace_node",
    "scope_nodes",
    "simple_signature",
    "size",
    "stmt_lists",
    "takes_arguments",
    "top_level_names",
]

# Top-level names a program file must keep defining (when the original defined them). ``torch`` too, so a repro
# reads as the program it was (the standalone footer and the oracle would not miss it). ``EFFECTS`` is not one:
# a repro that records no effects (most crashes) reads better without an effect log nothing writes.
REQUIRED_NAMES = ("entry", "make_inputs", "torch")

# ``OBSERVERS`` (``oracle._programfile``), the helpers that only record into the effect log: never bypassed as
# definitions (that would blind the oracle to an effects finding in every cut), stripped on their own.

_PLACEHOLDER = "__ngb_nested_{}__"
_STMT_FIELDS = ("body", "orelse", "finalbody")


def code_lines(source: str) -> int:
    """Lines of code above the footer: not blank and not a comment (the reducer's size measure)."""
    code = ProgramFile.parse(source).code
    return sum(1 for line in code.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def size(tree: ast.AST) -> int:
    """A program's size as a reader counts it: its nodes, with a dotted name of the torch API
    (``torch._dynamo.graph_break``) one node, however many attributes it has, a marker statement
    (``torch._dynamo.graph_break()``) one node in all, as is a tensor made from constants and thrown away
    (``torch.ones(1)``: what makes the compiler take a frame), and no load/store contexts. So a statement that only
    breaks the graph (``x.item()`` thrown away, ``class C1: pass``) does not weigh less than the marker, and
    arithmetic thrown away (``x * 1.0``) weighs more than ``torch.ones(1)``. An
    operator is part of its expression, not a node of its own: ``if not c: body`` weighs what ``if c: pass`` /
    ``else: body`` does (and its source is shorter)."""
    dotted: set[int] = set()  # nodes counted with another one
    heads: set[int] = set()  # the outermost attribute of a dotted torch name
    for node in iter_nodes(tree):
        if isinstance(node, ast.Attribute) and id(node) not in dotted:
            inner, chain = node.value, []
            while isinstance(inner, ast.Attribute):
                chain.append(inner)
                inner = inner.value
            if isinstance(inner, ast.Name) and inner.id == "torch":
                dotted.update(id(n) for n in (*chain, inner))
                heads.add(id(node))
    for node in iter_nodes(tree):  # a marker statement (``torch._dynamo.graph_break()``): one node in all
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and not node.value.args
                and not node.value.keywords and id(node.value.func) in heads):
            dotted.update((id(node.value), id(node.value.func)))
        elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and not node.value.keywords
              and id(node.value.func) in heads and isinstance(node.value.func.value, ast.Name)
              and all(isinstance(a, ast.Constant) for a in node.value.args)):  # ``torch.ones(1)`` thrown away
            dotted.update((id(node.value), id(node.value.func), *(id(a) for a in node.value.args)))
    return sum(1 for n in iter_nodes(tree) if id(n) not in dotted and not isinstance(n, _NOT_COUNTED))


_NOT_COUNTED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _is_nested_source(node: ast.AST, parent: ast.AST | None) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and isinstance(parent, ast.Call)
        and isinstance(parent.func, ast.Name)
        and parent.func.id in ("compile", "exec")
        and bool(parent.args)
        and parent.args[0] is node
    )


def attach_helper_modules(tree: ast.AST) -> None:
    """Parse every helper-module source under ``tree`` (recursively) and hang it on its string's ``Constant``
    node as ``ngb_module`` (see the module docstring); a source that does not parse gets none."""
    for parent in ast.walk(tree):
        if not isinstance(parent, ast.Call) or not parent.args:
            continue
        node = parent.args[0]
        if _is_nested_source(node, parent):
            try:
                node.ngb_module = ast.parse(node.value)
            except SyntaxError:
                continue
            attach_helper_modules(node.ngb_module)


def helper_update(node: ast.AST) -> str | None:
    """The module variable ``X`` of a call ``X.__dict__.update(...)``, a program's link into a helper module
    (``X.__dict__.update({"C": C})``); None for any other node."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update"):
        return None
    namespace = node.func.value
    if isinstance(namespace, ast.Attribute) and namespace.attr == "__dict__" and isinstance(namespace.value, ast.Name):
        return namespace.value.id
    return None


def iter_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node in a fixed pre-order, descending into helper-module sources."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        nested = getattr(node, "ngb_module", None)
        children = list(ast.iter_child_nodes(node))
        if nested is not None:
            children.append(nested)
        stack.extend(reversed(children))


def replace_node(root: ast.AST, old: ast.AST, new: ast.AST) -> bool:
    """Put ``new`` where ``old`` (found by identity) is under ``root``; False when it is not there."""
    for parent in iter_nodes(root):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return True
            if isinstance(value, list):
                for k, item in enumerate(value):
                    if item is old:
                        value[k] = new
                        return True
    return False


def bind_arguments(call: ast.Call, params: list[str]) -> dict[str, ast.expr] | None:
    """The argument each parameter of ``params`` gets from ``call`` (positional, then keywords); None when the
    call does not bind plainly (a starred argument, ``**kw``, an unknown or repeated keyword, too many)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or len(call.args) > len(params):
        return None
    given = dict(zip(params, call.args))
    for kw in call.keywords:
        if kw.arg is None or kw.arg not in params or kw.arg in given:
            return None
        given[kw.arg] = kw.value
    return given


def scope_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a function's own scope in source order (pre-order, fields in order), each nested function,
    lambda or class as its one node."""
    own: list[ast.AST] = []

    def visit(node: ast.AST) -> None:
        own.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            for child in ast.iter_child_nodes(node):
                visit(child)

    for child in ast.iter_child_nodes(scope):
        visit(child)
    return own


def stmt_lists(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """(owner, field) of every non-empty statement list, in ``iter_nodes`` order."""
    found = []
    for node in iter_nodes(tree):
        for field in _STMT_FIELDS:
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                found.append((node, field))
    return found


def _literal(text: str) -> str:
    if "'''" in text or "\\" in text:
        return repr(text)
    return "'''\n" + text + "\n'''"


def unparse(tree: ast.Module) -> str:
    """Source for a tree, helper-module strings rendered from their parsed modules as triple-quoted strings."""
    nested = []
    for node in ast.walk(tree):
        module = getattr(node, "ngb_module", None)
        if module is not None:
            nested.append((node, node.value, unparse(module)))
    for i, (node, _, _) in enumerate(nested):
        node.value = _PLACEHOLDER.format(i)
    try:
        text = _unparse_spaced(tree) if isinstance(tree, ast.Module) else ast.unparse(tree)
    finally:
        for node, value, _ in nested:
            node.value = value
    for i, (_, _, inner) in enumerate(nested):
        text = text.replace(repr(_PLACEHOLDER.format(i)), _literal(inner), 1)
    return text


def _unparse_spaced(module: ast.Module) -> str:
    """``ast.unparse`` with two blank lines around module-level functions and classes and one after the
    imports (PEP 8)."""
    out: list[str] = []
    prev_def = False
    prev_import = False
    for stmt in module.body:
        is_def = isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        is_import = isinstance(stmt, ast.Import | ast.ImportFrom)
        if out:
            out.append("\n\n\n" if is_def or prev_def else "\n\n" if prev_import and not is_import else "\n")
        out.append(ast.unparse(stmt))
        prev_def, prev_import = is_def, is_import
    return _tight_blocks("".join(out))


def _tight_blocks(text: str) -> str:
    """``text`` without the blank line ``ast.unparse`` writes before a nested ``def`` or ``class`` (or its
    decorators) that opens a block: ``def f1(x):`` then ``def f2():`` on the next line, as a reader writes it.
    Blank lines are found as tokens, so a string's own lines are never touched."""
    if ":\n\n" not in text:
        return text
    blank: set[int] = set()
    opened = False  # after the NEWLINE of a line that ends with ``:``, before the block's first token
    last = ""
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NEWLINE:
            opened = last == ":"
        elif tok.type == tokenize.NL:
            if opened and not tok.line.strip():
                blank.add(tok.start[0])
        elif tok.type not in (tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT):
            opened, last = False, tok.string if tok.type == tokenize.OP else ""
    if not blank:
        return text
    lines = text.splitlines(keepends=True)
    return "".join(line for k, line in enumerate(lines, start=1) if k not in blank)


class Program:
    """A program file being reduced: ``tree`` is edited by passes; ``comments`` and ``footer`` are kept verbatim."""

    __slots__ = ("comments", "tree", "footer", "required", "tensor_inputs", "_source")

    def __init__(self, comments: str, tree: ast.Module, footer: str, required: tuple[str, ...],
                 tensor_inputs: bool = False):
        self.comments = comments
        self.tree = tree
        self.footer = footer
        self.required = required
        self.tensor_inputs = tensor_inputs  # the original's inputs are tensors: every candidate's must stay so
        self._source: str | None = None

    @classmethod
    def parse(cls, source: str) -> Program:
        pf = ProgramFile.parse(source)
        comments, footer = pf.header, pf.footer
        tree = ast.parse(pf.code)
        attach_helper_modules(tree)
        defined = top_level_names(tree)
        return cls(comments, tree, footer, tuple(n for n in REQUIRED_NAMES if n in defined), _tensor_inputs(tree))

    def copy(self) -> Program:
        return Program(self.comments, copy.deepcopy(self.tree), self.footer, self.required, self.tensor_inputs)

    def with_tree(self, tree: ast.Module) -> Program:
        return Program(self.comments, tree, self.footer, self.required, self.tensor_inputs)

    @property
    def source(self) -> str:
        if self._source is None:
            code = unparse(self.tree)
            parts = [self.comments, code, "\n"]
            if self.footer:
                parts.append("\n\n" + self.footer)
            self._source = "".join(parts)
        return self._source

    @property
    def key(self) -> str:
        """Hash of the normalized source (``ast.unparse`` output): the cache key of tried candidates."""
        return hashlib.sha1(unparse(self.tree).encode()).hexdigest()

    def is_valid(self) -> bool:
        """Cheap local check before spending an oracle call: it compiles and still defines what it must."""
        # SyntaxWarning ("'int' object is not callable") means invalid. Recorded, not raised: the filters are
        # global, and while candidates are built the driver's threads run checks, whose own warnings an "error"
        # filter would turn into exceptions (a check failing for nothing).
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", SyntaxWarning)
                compile(self.source, "<candidate>", "exec")
                for node in iter_nodes(self.tree):
                    module = getattr(node, "ngb_module", None)
                    if module is not None:
                        compile(unparse(module), "<helper>", "exec")
        except (SyntaxError, ValueError):
            return False
        if any(issubclass(w.category, SyntaxWarning) for w in caught):
            return False
        defined = top_level_names(self.tree)
        required = [n for n in self.required if n != "make_inputs" or _entry_takes_arguments(self.tree)]
        return (all(name in defined for name in required) and (not self.tensor_inputs or _tensor_inputs(self.tree))
                and not any(isinstance(n, ast.While) and _endless(n) for n in iter_nodes(self.tree)))


def takes_arguments(args: ast.arguments) -> bool:
    """A function with these parameters can be called with arguments (it has any parameter at all)."""
    return bool(args.posonlyargs or args.args or args.vararg or args.kwonlyargs or args.kwarg)


def simple_signature(args: ast.arguments) -> bool:
    """Only plain positional parameters: no ``*args``/``**kw``, keyword-only or positional-only ones, no defaults."""
    return not (args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults)


def _entry_takes_arguments(tree: ast.Module) -> bool:
    """``entry`` has parameters, so the program needs ``make_inputs`` (one without takes no inputs)."""
    fn = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "entry"), None)
    return fn is None or takes_arguments(fn.args)


def _tensor_inputs(tree: ast.Module) -> bool:
    """``make_inputs`` returns a tuple (or list) whose every item is made by a ``torch`` call: a repro's inputs are
    tensors built where a reader looks for them, never a device string or a number standing in for one. A program
    whose ``entry`` takes no arguments may define no ``make_inputs``."""
    fn = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == "make_inputs"), None)
    if fn is None and not _entry_takes_arguments(tree):
        return True  # no inputs at all
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return)] if fn is not None else []
    if len(returns) != 1 or not isinstance(returns[0].value, ast.Tuple | ast.List):
        return False

    def from_torch(node: ast.AST) -> bool:
        for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
            root = call.func
            while isinstance(root, ast.Attribute | ast.Call):
                root = root.value if isinstance(root, ast.Attribute) else root.func
            if isinstance(root, ast.Name) and root.id == "torch":
                return True
        return False

    return all(from_torch(item) for item in returns[0].value.elts)


def top_level_names(tree: ast.Module) -> set[str]:
    """The names the main module binds at its top level: definitions, assignments' targets and imports."""
    names = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(stmt.name)
        elif isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return names


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _endless(loop: ast.While) -> bool:
    """A ``while`` that can never end: its test never changes (``while True``, or names the body never assigns)
    and every way out (``break``, ``return``, ``raise``) is under an ``if`` whose test never changes either.
    ``while True: i += 1 ... if i >= 2: break`` without its ``i += 1`` is one: checking such a candidate hangs
    the eager run until the worker's timeout, far past any reduction budget. (A loop it calls endless whose
    unchanging exit test is true at once ran one iteration: that candidate is lost, which costs a little
    reduction, never a wrong one.)"""
    stored = {n.id for s in loop.body for n in _walk_scope(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    def may_change(test: ast.expr) -> bool:
        return any(isinstance(n, ast.Call | ast.Attribute | ast.Subscript | ast.NamedExpr | ast.Await)
                   or isinstance(n, ast.Name) and n.id in stored for n in ast.walk(test))

    if not (isinstance(loop.test, ast.Constant) and loop.test.value) and may_change(loop.test):
        return False
    # a way out is live when it is reached unconditionally or under a test that may change
    return not any(not guards or any(may_change(test) for test in guards)
                   for guards in _exits(loop.body, [], own_loop=True))


def _walk_scope(node: ast.AST):
    """``ast.walk`` that does not enter nested functions, lambdas or classes."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        todo.extend(c for c in ast.iter_child_nodes(current) if not isinstance(c, _SCOPES))


def _exits(body: list[ast.stmt], guards: list[ast.expr], own_loop: bool):
    """For every way out of the loop in ``body``: the tests of the ``if`` statements it is under."""
    for stmt in body:
        if isinstance(stmt, ast.Break | ast.Continue):
            if own_loop and isinstance(stmt, ast.Break):
                yield guards
        elif isinstance(stmt, ast.Return | ast.Raise):
            yield guards
        elif isinstance(stmt, ast.If):
            yield from _exits(stmt.body, [*guards, stmt.test], own_loop)
            yield from _exits(stmt.orelse, [*guards, stmt.test], own_loop)
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):  # a break there leaves that loop only
            yield from _exits(stmt.body + stmt.orelse, guards, False)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            yield from _exits(stmt.body + stmt.orelse + stmt.finalbody, guards, own_loop)
            for handler in stmt.handlers:
                yield from _exits(handler.body, guards, own_loop)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            yield from _exits(stmt.body, guards, own_loop)
