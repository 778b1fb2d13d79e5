# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch
# found-by: generator (ctx.decorator + ctx.contextmanager_disabled), was tests/fuzz/test_torch_findings.py; reduced by ngb-fuzz reduce
import contextlib
import torch

EFFECTS = []


@contextlib.contextmanager
@torch._disable_dynamo()
def ctx():
    yield


@ctx()
def leaf():
    pass


def mid():
    with torch.enable_grad():
        return leaf()


def entry():
    with torch.no_grad():
        return mid()


def make_inputs(device):
    return ()


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
    # eager (see output); torch.compile raised AssertionError (in torch._dynamo.resume_execution.generate_based_on_original_code_object)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
