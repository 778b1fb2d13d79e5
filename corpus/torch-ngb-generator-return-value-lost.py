# ngb-fuzz program
# signature: crash:TypeError@torch._dynamo.eval_frame:compile_wrapper
# target: torch
# found-by: generator (flow.generator), was tests/fuzz/test_torch_findings.py; reduced by ngb-fuzz reduce
import torch

EFFECTS = []


def f(x):

    def gen(x):
        x = torch.tanh(x)
        yield x
        return x
    g = gen(x)
    first = next(g)
    try:
        next(g)
    except StopIteration as stop:
        x = first + stop.value


def entry(x):
    y = x * 1.0
    return f(x)


def make_inputs(device):
    return (torch.randn(0),)


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn(*make_inputs("cpu"))
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="eager"))
    # eager (see output); torch.compile raised TypeError (in torch._dynamo.eval_frame.compile_wrapper)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
