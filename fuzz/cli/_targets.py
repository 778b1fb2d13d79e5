"""``ngb-fuzz targets``: the target kinds, their options, and what can run here."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("targets", help="list target kinds and which are available here")
    p.set_defaults(handler=targets)


def _availability(name: str) -> str:
    import oracle

    kind = oracle.target_kinds()[name]
    try:  # this interpreter's version (and nothing else: CUDA is the device's business, shown above)
        oracle.check_available(oracle.Target(name, tuple(sorted(kind.defaults.items()))))
    except oracle.TargetError as exc:
        return f"not available: {exc}"
    if name.startswith("engine"):
        try:
            import engine

            return "available" if hasattr(engine, "compile") else "not built yet"
        except ImportError as exc:
            return f"unavailable ({exc})"
    return "available"


def targets(args: argparse.Namespace) -> int:
    import torch

    import oracle
    from oracle._configs import CONFIGS
    from oracle._targets import option_choices

    print(f"torch {torch.__version__}; CUDA {'available' if torch.cuda.is_available() else 'not available'} here")
    print("spec: KIND[:KEY=VALUE,...]; every kind also takes device=cpu|cuda and python=/path/to/python\n")
    for name, kind in oracle.target_kinds().items():
        print(f"{name:15} {kind.description}  [{_availability(name)}]")
        for key, values in kind.options.items():
            default = kind.defaults.get(key)
            values = option_choices(values)
            choices = "|".join(values) if values else "NAME[+NAME...]" if key == "config" else "TEXT"
            bare = " (bare word allowed)" if key == kind.positional else ""
            print(f"{'':15}   {key}={choices}" + (f"  default {default}" if default else "") + bare)
    print("\nconfig=NAME[+NAME...]: sets of Dynamo/Inductor flags, set around the compile and every call "
          "(docs/oracle.md)")
    for name, config in CONFIGS.items():
        flags = ", ".join(f"{module}.{flag}={value!r}" for module, flag, value in config.flags)
        print(f"  {name:33} {config.description}  [{flags}]")
    print("\nexamples: torch   torch:ngb=off   torch:backend=inductor,device=cuda   torch:dynamic=true,config="
          "capture_scalar_outputs   fault:perturb   engine")
    return 0
