"""What recording one program in a campaign's state costs at 1k, 10k and 100k completed programs, and worker
memory over an engine campaign with recycling on.

    python benchmarks/state_cost.py cost                 # synthetic: no worker processes, seconds
    nice -n 10 python benchmarks/state_cost.py rss --programs 1000 --recycle-after 200

``cost`` fills a campaign directory with N programs from a scripted runner (a finding every few programs, so
buckets and repro files are part of it), then times recording the next 500 programs (journal line, counters,
the periodic snapshot amortized) and prints the time per program and the sizes on disk. Goal: flat in N.
``rss`` runs a real engine campaign and prints each worker's resident memory as it goes. Goal: bounded.
Figures, never assertions; a loaded machine makes them noisy.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.campaign.loop import Campaign, CampaignConfig  # noqa: E402
from oracle._verdict import ProgramReport, Verdict  # noqa: E402


@dataclasses.dataclass(frozen=True)
class _Program:
    source: str
    features: frozenset


def _generate(seed, index):
    return _Program(f"# program {index}\n", frozenset({f"call.f{index % 7}", f"ctx.c{index % 3}"}))


def _report(index: int) -> ProgramReport:
    verdict = Verdict("mismatch", "value", f"mismatch:value:v{index % 13}") if index % 11 == 0 else \
        Verdict("ok", "", "ok")
    return ProgramReport({"torch": verdict}, False, {"torch": {"graphs": 2, "breaks": 1,
                                                               "break_reasons": [f"r{index % 5}"]}})


class _Scripted:
    def check(self, source, targets):
        return _report(int(source.split("# program ")[1].split("\n")[0]))


def cost(sizes: list[int], sample: int) -> None:
    print(f"{'completed':>10} {'mean us':>8} {'median':>7} {'p95':>6} {'max us':>8} {'state.json':>11} "
          f"{'journal':>9}")
    for n in sizes:
        with tempfile.TemporaryDirectory() as out:
            config = CampaignConfig(("torch",), Path(out), programs=n, seed=0)
            Campaign(config, _Scripted(), generate=_generate).run()
            campaign = Campaign(CampaignConfig(("torch",), Path(out), programs=n + sample, seed=0), _Scripted(),
                                generate=_generate)
            times = []
            for index in range(n, n + sample):
                program, report = _generate(0, index), _report(index)
                start = time.perf_counter()
                campaign._record(index, program, report)
                times.append(time.perf_counter() - start)
            state = (Path(out) / "state.json").stat().st_size
            journal = (Path(out) / "journal.jsonl").stat().st_size
            campaign.finish()
        times.sort()
        print(f"{n:>10} {statistics.mean(times) * 1e6:>8.0f} {statistics.median(times) * 1e6:>7.0f} "
              f"{times[int(len(times) * .95)] * 1e6:>6.0f} {times[-1] * 1e6:>8.0f} {state:>10}B {journal:>8}B",
              flush=True)


def rss(programs: int, recycle_after: int, target: str, workers: int) -> None:
    import oracle

    with tempfile.TemporaryDirectory() as out, \
            oracle.Runner(workers=workers, timeout=60, recycle_after=recycle_after) as runner:
        config = CampaignConfig((target,), Path(out), programs=programs, seed=0, workers=workers)
        last = [0]

        def progress(campaign):
            if campaign.programs >= last[0] + max(1, programs // 20):
                last[0] = campaign.programs
                memory = runner.memory()
                print(f"{campaign.programs:>6} programs  workers MB {memory['rss_mb']}  peak "
                      f"{memory['peak_rss_mb']}  recycled {memory['recycled']}", flush=True)

        summary = Campaign(config, runner, on_progress=progress).run()
        print(f"done: {summary['programs']} programs in {summary['seconds']:.0f}s; workers {summary['workers']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("cost", "rss"))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--sample", type=int, default=500)
    parser.add_argument("--programs", type=int, default=1000)
    parser.add_argument("--recycle-after", type=int, default=200)
    parser.add_argument("--target", default="engine")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.what == "cost":
        cost([int(n) for n in args.sizes.split(",")], args.sample)
    else:
        rss(args.programs, args.recycle_after, args.target, args.workers)


if __name__ == "__main__":
    main()
