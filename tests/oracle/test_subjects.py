"""A crash through the wrapper that runs compiled code is named with its subject where the exception is evidence
of what the compiler got wrong (oracle._subjects): a resumed frame that looks its globals up in another module."""

import types
from pathlib import Path

from fuzz.corpus.manifest import Corpus
from fuzz.triage.known import KnownBugs
from fuzz.triage.rootcause import pins_bug, root_cause
from oracle._subjects import OTHER_MODULE_GLOBALS
from oracle._worker import compiler_frame
from tests.conftest import raised_in_torch_frame

ROOT = Path(__file__).resolve().parents[2]
WRAPPER = "torch._dynamo.eval_frame:compile_wrapper"

# A helper module's function, and the code Dynamo would generate to resume it after a break in it: its name says
# which function it resumes; it reads the module's global ``helper``.
HELPER = "def f2(x):\n    return helper(x)\n\n\ndef helper(x):\n    return x\n"
RESUME = "def torch_dynamo_resume_in_f2_at_1(x):\n    return helper(x)\n"


def _module(monkeypatch, name: str, source: str, filename: str = "<string>") -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, filename, "exec"), vars(module))
    monkeypatch.setitem(__import__("sys").modules, name, module)
    return module


def _raised_through_wrapper(fn) -> BaseException:
    """What ``fn()`` raised, called from a frame of torch/_dynamo/eval_frame.py named compile_wrapper."""
    return raised_in_torch_frame("_dynamo/eval_frame.py", "def compile_wrapper(fn):\n    return fn()\n", fn)


def _resumed_in(globals_of: types.ModuleType, source: str = RESUME, filename: str = "<string>"):
    """The resume function, defined (so run) with ``globals_of``'s globals."""
    exec(compile(source, filename, "exec"), vars(globals_of))
    name = source.split("(")[0].removeprefix("def ")
    return lambda: vars(globals_of)[name](1)


def test_a_resumed_frame_run_with_another_module_s_globals_is_named_so(monkeypatch):
    _module(monkeypatch, "ngb_h2", HELPER)
    main = _module(monkeypatch, "ngb_program", "x = 0\n")
    exc = _raised_through_wrapper(_resumed_in(main))
    assert type(exc) is NameError and exc.name == "helper"
    signature = f"crash:NameError@{compiler_frame(exc)}"
    assert signature == f"crash:NameError@{WRAPPER}[{OTHER_MODULE_GLOBALS}]"
    assert pins_bug(signature) and pins_bug(signature.replace("crash:", "crash:second_call:"))
    assert root_cause(signature) == root_cause(signature.replace("crash:", "crash:third_call:"))
    assert not pins_bug(f"crash:NameError@{WRAPPER}")  # the frame alone: the program's error, by shape


def test_a_nested_function_s_code_is_found_in_its_module(monkeypatch):
    # the resumed function may be a closure: its code is a constant of the function that makes it
    _module(monkeypatch, "ngb_h2", "def outer():\n    def f2(x):\n        return helper(x)\n    return f2\n\n\n"
                                   "helper = abs\n")
    main = _module(monkeypatch, "ngb_program", "x = 0\n")
    assert compiler_frame(_raised_through_wrapper(_resumed_in(main))) == f"{WRAPPER}[{OTHER_MODULE_GLOBALS}]"


def test_methods_count_and_no_object_of_the_program_is_asked_for_attributes(monkeypatch):
    # the resumed function a method; beside it an object whose __getattr__ raises (the search reads no attribute)
    _module(monkeypatch, "ngb_h2", "class Weird:\n    def __getattr__(self, name):\n        raise RuntimeError(name)\n\n\n"
                                   "class C:\n    odd = Weird()\n\n    @staticmethod\n    def f2(x):\n"
                                   "        return helper(x)\n\n\nhelper = abs\n")
    main = _module(monkeypatch, "ngb_program", "x = 0\n")
    assert compiler_frame(_raised_through_wrapper(_resumed_in(main))) == f"{WRAPPER}[{OTHER_MODULE_GLOBALS}]"


def test_no_subject_without_the_evidence(monkeypatch):
    main = _module(monkeypatch, "ngb_program", "x = 0\n")
    # a name no module defines: the program's own NameError (or a store the compiler lost), not another's globals
    assert compiler_frame(_raised_through_wrapper(_resumed_in(main))) == WRAPPER
    # the module that defines the name holds no function of the resumed name ...
    _module(monkeypatch, "ngb_h2", "helper = abs\n\n\ndef f3(x):\n    return helper(x)\n")
    assert compiler_frame(_raised_through_wrapper(_resumed_in(main))) == WRAPPER
    # ... or holds one from another file
    _module(monkeypatch, "ngb_h3", HELPER, filename="/elsewhere/h3.py")
    assert compiler_frame(_raised_through_wrapper(_resumed_in(main))) == WRAPPER
    # the name missing from a frame Dynamo did not generate: a function of the program's, run as written
    _module(monkeypatch, "ngb_h4", HELPER)
    plain = _resumed_in(main, RESUME.replace("torch_dynamo_resume_in_f2_at_1", "f2"))
    assert compiler_frame(_raised_through_wrapper(plain)) == WRAPPER
    # a local read before it is bound is no global lookup
    unbound = "def torch_dynamo_resume_in_f2_at_1(x):\n    if x > 5:\n        helper = 1\n    return helper\n"
    exc = _raised_through_wrapper(_resumed_in(main, unbound))
    assert isinstance(exc, UnboundLocalError) and compiler_frame(exc) == WRAPPER


def test_a_new_form_of_the_wrong_module_globals_bug_is_known_at_sight_on_the_torch_it_shows_on():
    # nine torch 2.10 forms in the corpus, as unlike as an exec-built helper module, heapq and a subclass's
    # __torch_function__; a 2.10 campaign called two more NEW (17 and 25 lines) before they carried the subject
    corpus = Corpus(ROOT / "corpus")
    forms = [e for name, e in corpus.entries.items() if name.startswith("seed-176906-closure-module-globals--")]
    assert sum(OTHER_MODULE_GLOBALS in e.signature for e in forms) == 8
    known = KnownBugs.from_corpus(ROOT / "corpus")
    signature = f"crash:NameError@{WRAPPER}[{OTHER_MODULE_GLOBALS}]"
    on_210 = known.match(signature, None, "torch:python=t210", versions=lambda spec: ("2.10.0", "3.11"))
    assert on_210 is not None and on_210.file == "seed-176906-closure-module-globals.py"
    assert known.match(signature, None, "torch", versions=lambda spec: ("2.13.0", "3.11")) is None  # fixed there
    assert known.match(f"crash:NameError@{WRAPPER}", None, "torch:python=t210",
                       versions=lambda spec: ("2.10.0", "3.11")) is None  # the bare frame: by shape only
