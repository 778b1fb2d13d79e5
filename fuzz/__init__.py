"""Program generator, reducer, campaigns and the ``ngb-fuzz`` command line."""

from fuzz.errors import FuzzError

__all__ = ["FuzzError", "GeneratedProgram", "GenerationConfig", "generate_program", "render"]

# ---- generator re-exports (imported lazily: `import fuzz` stays cheap for the CLI) ----
_GENERATOR_EXPORTS = {
    "generate_program": "fuzz.program.generate",
    "GeneratedProgram": "fuzz.program.generate",
    "GenerationConfig": "fuzz.program.features",
    "render": "fuzz.program.render",
}


def __getattr__(name):
    module = _GENERATOR_EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'fuzz' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
