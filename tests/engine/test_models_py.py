"""Models of everyday Python (engine/_vm/_models_py.py): each test fails without its model (the construct
then breaks, so the graph or break count differs)."""

from __future__ import annotations

import functools

import torch

from .helpers import check, t


class Affine:
    def __init__(self, a):
        self.a = a
        self.calls = 0

    def __call__(self, x, b=0):
        self.calls += 1
        return x * self.a + b


def test_calling_an_instance_with_a_python_call_is_traced():
    def f(x, aff):
        return aff(aff(x), b=1), aff.calls

    c = check(f, lambda: (t(3), Affine(2.0)), graphs=1, breaks=0)
    assert c.record.recompiles == 0  # decided by the instance's type, not its identity


def test_calling_an_instance_made_by_the_trace():
    def f(x):
        return Affine(3.0)(x)

    check(f, lambda: (t(3),), graphs=1, breaks=0)


@functools.singledispatch
def _norm(v):
    return v


@_norm.register
def _(v: torch.Tensor):
    return v / v.abs().sum()


@_norm.register
def _(v: list):
    return [_norm(x) for x in v]


def test_singledispatch_traces_the_implementation():
    def f(x):
        return _norm(x), _norm([x, x * 2]), _norm(3)

    check(f, lambda: (t(3),), graphs=1, breaks=0)


def test_singledispatch_sees_a_later_registration():
    @functools.singledispatch
    def g(v):
        return v + 1

    def f(x):
        return g(x)

    import engine

    c = engine.compile(f)
    assert torch.equal(c(t(3)), t(3) + 1)
    g.register(torch.Tensor, lambda v: v - 1)
    assert torch.equal(c(t(3)), t(3) - 1)


gb = torch._dynamo.graph_break


def _note(log, v):
    log.append(v)
    gb()


class _Heads(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.heads = torch.nn.ModuleList(torch.nn.Linear(3, 3) for _ in range(3))

    def forward(self, log, feats):
        out = []
        for head, f in zip(self.heads, feats):
            y = head(f)
            _note(log, len(out))
            out.append(y.relu())
        return out


def test_a_loops_zip_over_a_modulelist_stays_traced_after_a_break():
    m = _Heads()

    def f(log, x):
        return m(log, [x, x * 2, x + 1])

    # one break per step, each resumed in the loop: 4 graphs (the zip no longer becomes opaque: 6 breaks)
    check(f, lambda: ([], t(3)), graphs=4, breaks=3)


def test_a_loops_enumerate_and_zip_see_a_list_changed_in_the_body():
    def f(log, x, xs):
        acc = x
        for i, v in enumerate(xs):
            _note(log, i)
            if i == 0:
                xs.append(v * 10)  # the live list: eager's enumerate yields it too
            acc = acc + i * v
        for a, b in zip(xs, "ab"):
            _note(log, b)
            acc = acc - a
        return acc

    check(f, lambda: ([], t(3), [1.0, 2.0]), breaks=5)


def test_del_items_of_dicts_and_lists_are_traced():
    def f(x, d, lst):
        local = {"a": x, "b": x + 1}
        del local["a"]
        del d["k"]
        del lst[0]
        nums = [x, x * 2, x * 3]
        del nums[-1]
        return local, sum(nums), d, lst

    check(f, lambda: (t(3), {"k": 1, "j": 2}, [1, 2, 3]), graphs=1, breaks=0)


def test_del_errors_and_live_iterators_stay_eagers():
    def missing(x, d):
        del d["nope"]
        return x

    check(missing, lambda: (t(3), {"k": 1}), graphs=0)

    def out_of_range(x):
        lst = [x]
        del lst[3]
        return lst

    check(out_of_range, lambda: (t(3),), graphs=0)

    def while_iterating(x, d):
        out = x
        for k in d:
            out = out + d[k]
            if k == "a":
                del d["b"]  # eager's iterator then raises RuntimeError (dict changed size)
        return out

    check(while_iterating, lambda: (t(3), {"a": 1, "b": 2, "c": 3}))


def test_nn_init_functions_are_traced():
    def f(w, k, b):
        torch.nn.init.eye_(w)
        torch.nn.init.dirac_(k)
        torch.nn.init.constant_(b, 0.5)
        torch.nn.init.zeros_(w[0])
        return w.sum() + k.sum() + b.sum()

    check(f, lambda: (t(3, 3), t(2, 2, 3), t(3)), graphs=1, breaks=0)


def test_nn_init_random_initialisers_draw_as_eager_draws():
    import engine

    def f(w, b):
        torch.nn.init.kaiming_uniform_(w, a=5 ** 0.5)
        torch.nn.init.uniform_(b, -0.1, 0.1)
        torch.nn.init.xavier_normal_(w)
        return w.sum() + b.sum()

    c = engine.compile(f)
    for _ in range(2):
        a, b = (torch.empty(4, 3), torch.empty(4)), (torch.empty(4, 3), torch.empty(4))
        torch.manual_seed(1)
        ref = f(*a)
        after_eager = torch.rand(2)
        torch.manual_seed(1)
        got = c(*b)
        assert torch.equal(ref, got) and all(torch.equal(x, y) for x, y in zip(a, b))
        assert torch.equal(after_eager, torch.rand(2))  # the generator left where eager leaves it
    assert c.record.graphs == 1 and c.record.breaks == 0


def test_transformer_inference_fast_path_is_one_graph():
    torch.manual_seed(0)
    model = torch.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                                 dim_feedforward=16, dropout=0.0, batch_first=True).eval()

    def f(src, tgt):
        with torch.no_grad():
            return model(src, tgt) * 2

    # the fused kernels (_transformer_encoder_layer_fwd, _native_multi_head_attention) are graph ops and the
    # fast path's state queries (is_exporting, the dispatch-mode stack) are read and guarded: no break
    check(f, lambda: (t(2, 4, 8), t(2, 3, 8, seed=1)), graphs=1, breaks=0)


def _with_grad(grad: bool):
    x = t(3, requires_grad=True)
    if grad:
        x.grad = t(3, seed=2)
    return x


def test_reading_grad_of_an_input_leaf_is_traced():
    def f(a, b):
        out = a.detach() * 2
        if a.grad is not None:
            out = out + a.grad
        if b.grad is None:
            out = out - 1
        return out, a.grad

    check(f, lambda: (_with_grad(True), _with_grad(False)), graphs=1, breaks=0)
    # the second call's grads are the other way round: a guard miss, a second graph (still no break)
    check(f, lambda: (_with_grad(False), _with_grad(True)), graphs=1, breaks=0)
