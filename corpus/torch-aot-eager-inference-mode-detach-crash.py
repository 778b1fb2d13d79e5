# ngb-fuzz program
# signature: crash:BackendCompilerFailed@torch.fx.interpreter:run_node
# target: torch:backend=aot_eager
# found-by: ngb-fuzz run --seed 1 (programs 148, 316; buckets 011, 015 of the 25-minute campaign), reduced by ngb-fuzz reduce and by hand
import torch

EFFECTS = []


def entry(x):
    with torch.inference_mode():
        x.detach()
    return x + 1


def make_inputs(device):
    return (torch.ones(2).to(device),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="aot_eager"))
    # eager (see output); torch.compile raised BackendCompilerFailed (in torch.fx.interpreter.run_node)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='aot_eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
