# ngb-fuzz program
# signature: crash:AssertionError@torch._dynamo.resume_execution:generate_based_on_original_code_object
# target: torch
# found-by: ngb-fuzz run --seed 15 against torch 2.15 (program 81), reduced by ngb-fuzz reduce, names by hand
import contextlib
import torch


@contextlib.contextmanager
@torch._disable_dynamo()
def ctx():
    yield


@ctx()
def leaf():
    torch._dynamo.graph_break()


def entry():
    with torch.no_grad(), torch.inference_mode():
        leaf()


# ---- ngb-fuzz standalone check (generated; do not edit below) ----
if __name__ == "__main__":
    torch._dynamo.config.nested_graph_breaks = True
    def outcome(fn):  # 'returned', or the type and message of what the call raised
        try:
            fn()
        except Exception as e:
            return f"{type(e).__name__}: {str(e)[:200]}"
        return "returned"

    expected, actual = outcome(entry), outcome(torch.compile(entry, backend="eager"))
    # eager (see output); torch.compile raised AssertionError (in torch._dynamo.resume_execution.generate_based_on_original_code_object)
    print(f"eager:         {expected}\ntorch.compile: {actual}")
    same = actual.split(":")[0] == expected.split(":")[0]
    print(f"{'match' if same else 'MISMATCH'}: eager vs torch.compile(backend='eager'), torch {torch.__version__}")
    raise SystemExit(0 if same else 1)
