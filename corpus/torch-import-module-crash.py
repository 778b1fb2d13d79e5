# ngb-fuzz program
# signature: crash:InternalTorchDynamoError@torch._dynamo.symbolic_convert:_import_module
# target: torch
# found-by: seed #176906 written as a helper module (types.ModuleType, not in sys.modules)
import types
EFFECTS = []
_b = types.ModuleType('n')
exec('''
import torch


def c(x):
    return torch.tensor([])
''', _b.__dict__)


def entry(x):
    y = _b.c(x)


def make_inputs(e):
    return (0,)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    import torch  # the program may not import it at the top

    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="eager"))
    # eager (see output); torch.compile raised InternalTorchDynamoError (in torch._dynamo.symbolic_convert._import_module)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
