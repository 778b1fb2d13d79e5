"""A nested-graph-break compiler for Python 3.11, 3.12 and 3.13 bytecode (see engine/README.md).

    engine.compile(fn, backend="eager", nested=True, fullgraph=False)  -> callable with .stats()
    engine.explain(fn)(*args)                                           -> graphs, breaks, residual code
    engine.reset()                                                      -> clear caches
"""

from ._api import compile, explain, reset
from ._errors import EngineError, Unsupported

__all__ = ["compile", "explain", "reset", "EngineError", "Unsupported"]
