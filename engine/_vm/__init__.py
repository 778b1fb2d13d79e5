"""The symbolic VM for CPython 3.11 bytecode (frames, values, opcode handlers by family)."""
