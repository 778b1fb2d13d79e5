"""A nested-graph-break compiler for Python 3.11 bytecode (see DESIGN.md, "The engine")."""
