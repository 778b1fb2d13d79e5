"""The symbolic VM for CPython 3.11, 3.12 and 3.13 bytecode (frames, values, opcode handlers by family)."""
