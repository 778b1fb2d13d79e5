"""The symbolic VM for CPython 3.11 and 3.12 bytecode (frames, values, opcode handlers by family)."""
