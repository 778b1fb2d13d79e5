"""What ``--bias`` changes: the same campaign budget with and without it, per seed.

    python benchmarks/bias.py [--target engine] [--programs 300] [--seeds 3]

For each seed, two campaigns of ``--programs`` programs run on the target (reduction off): one with the catalog's
weights, one with ``--bias``. Printed per run: buckets (findings), distinct break reasons met, programs that
counted as interesting (biased runs), and the share of programs in the rarest feature family.
The default target is our engine (fast, and it reports break reasons); ``--target torch`` measures against
torch.compile in the same way.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import oracle
from fuzz.campaign.loop import Campaign, CampaignConfig


def run(target: str, seed: int, programs: int, bias: bool, runner) -> dict:
    with tempfile.TemporaryDirectory() as out:
        config = CampaignConfig((target,), Path(out), programs=programs, seed=seed, bias=bias)
        campaign = Campaign(config, runner)
        campaign.run()
        state = json.loads((Path(out) / "state.json").read_text())
    families = state["families"]
    rare_family = min(families.values()) / max(campaign.programs, 1) if families else 0.0
    return {
        "buckets": len(campaign.buckets),
        "reasons": sum(1 for key in campaign.break_reasons if key.startswith(f"{target}: ")),
        "interesting": sum(v for k, v in campaign.stats.items() if k.startswith("bias.")),
        "rare_family": rare_family,
        "seconds": campaign.seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="engine")
    parser.add_argument("--programs", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(f"target {args.target}, {args.programs} programs per campaign")
    print(f"{'seed':>4} {'weights':8} {'buckets':>7} {'break reasons':>13} {'interesting':>11} "
          f"{'rarest family':>13} {'seconds':>8}")
    totals = {False: [0, 0], True: [0, 0]}
    with oracle.Runner(workers=args.workers, timeout=30.0) as runner:
        for seed in range(args.seeds):
            for bias in (False, True):
                r = run(args.target, seed, args.programs, bias, runner)
                totals[bias][0] += r["buckets"]
                totals[bias][1] += r["reasons"]
                print(f"{seed:4} {'bias' if bias else 'catalog':8} {r['buckets']:7} {r['reasons']:13} "
                      f"{r['interesting'] if bias else '-':>11} {r['rare_family']:13.1%} {r['seconds']:8.1f}")
    for bias in (False, True):
        print(f"total {'bias' if bias else 'catalog':8} buckets={totals[bias][0]} break reasons={totals[bias][1]}")


if __name__ == "__main__":
    main()
