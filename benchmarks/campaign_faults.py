"""Fault injection against `ngb-fuzz run`: stop it every way a cluster, CI or a terminal does, resume, count.

    nice -n 10 python benchmarks/campaign_faults.py [--budget 40] [--workers 2] [--target fault:perturb] [--seed 0]

First a reference campaign runs uninterrupted. Then, for each fault, a campaign with the same seed and budget
runs in a fresh directory on a small tmpfs (mounted here when run as root, else a plain directory and the disk-full
fault is skipped); at a random point (after 2 to budget/2 programs are journaled) the fault is applied:
SIGTERM, SIGHUP, SIGINT, SIGKILL, the disk filled to the last byte, or state.json truncated after a SIGKILL. Then
the same command is re-run until the budget is done. Per fault it prints:

- runs: invocations of `ngb-fuzz run` it took (the faulted one included) and their exit codes;
- lost: programs recorded before the fault (journal lines counted just before it) missing from the state after
  it (goal 0: only programs in flight, at most --workers, are re-run);
- findings lost: buckets of the reference missing at the end, and repro files present after the fault that
  were later changed or removed (goal 0);
- orphans: worker processes of the faulted run alive 15 s after it exited (goal 0);
- tracebacks: runs whose stderr holds a Python traceback (goal 0);
- final: programs and verdicts equal to the reference (every program counted once).

The corrupt-state fault discards the state as the one-line message says to (move state.json and journal.jsonl
away): its programs are run again by design, so "lost" is not counted there; its findings must all stay.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from oracle._runner import worker_pids  # noqa: E402


def command(out: Path, args) -> list[str]:
    return [sys.executable, "-m", "fuzz.cli", "run", "--target", args.target, "--budget", str(args.budget),
            "--workers", str(args.workers), "--seed", str(args.seed), "--timeout", "60", "--reduce-budget", "0",
            "--out", str(out)]


def run_to_end(out: Path, args, log: list) -> int:
    proc = subprocess.run(command(out, args), capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    log.append((proc.returncode, proc.stderr))
    return proc.returncode


def journaled(out: Path) -> int:
    path = out / "journal.jsonl"
    return path.read_text(errors="replace").count("\n") if path.exists() else 0


def recorded(out: Path, args) -> int:
    """Programs the state on disk holds (read the way a resume reads it)."""
    from fuzz.campaign.loop import Campaign, CampaignConfig

    config = CampaignConfig((args.target,), out, programs=args.budget, seed=args.seed)
    campaign = Campaign(config, None)
    try:
        return campaign.programs
    finally:
        campaign.close()


def mount_small(path: Path, size: str) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                          capture_output=True).returncode == 0


def fill(path: Path) -> Path:
    """Fill the file system of ``path`` to the last byte (unbuffered: closing has nothing left to write)."""
    filler = path / "filler.bin"
    for chunk in (b"\0" * 4096, b"\0"):
        try:
            with open(filler, "ab", buffering=0) as f:
                while True:
                    f.write(chunk)
        except OSError:
            pass
    return filler


def inject(fault: str, out: Path, args, rng: random.Random) -> dict:
    log: list = []
    at = rng.randint(2, max(3, args.budget // 2))
    proc = subprocess.Popen(command(out, args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    while proc.poll() is None and journaled(out) < at:
        time.sleep(0.2)
    seen = journaled(out)
    workers = worker_pids(proc.pid)
    filler = None
    if fault in ("SIGTERM", "SIGHUP", "SIGINT"):
        proc.send_signal(getattr(signal, fault))
    elif fault in ("SIGKILL", "corrupt-state"):
        proc.kill()
    elif fault == "disk-full":
        filler = fill(out)
    _, stderr = proc.communicate(timeout=600)
    log.append((proc.returncode, stderr))
    time.sleep(15)
    orphans = [p for p in workers + worker_pids(proc.pid) if Path(f"/proc/{p}").exists() and
               "Z" not in Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]]
    repros = {p.name: p.read_bytes() for p in out.glob("0*.py")}
    if filler is not None:
        filler.unlink()
    lost = None
    if fault == "corrupt-state":
        state = out / "state.json"
        state.write_text(state.read_text()[: len(state.read_text()) // 2])
        run_to_end(out, args, log)  # refused with one line
        aside = out / "discarded"
        aside.mkdir()
        for name in ("state.json", "journal.jsonl"):
            if (out / name).exists():
                shutil.move(out / name, aside / name)
    else:
        lost = max(0, seen - recorded(out, args))
    for _ in range(5):
        if run_to_end(out, args, log) == 0:
            break
    after = {p.name: p.read_bytes() for p in out.glob("0*.py")}
    changed = sum(1 for name, data in repros.items() if after.get(name) != data)
    summary = json.loads((out / "summary.json").read_text())
    return {"fault": fault, "at": seen, "runs": len(log), "codes": [c for c, _ in log], "lost": lost,
            "changed": changed, "orphans": len(orphans), "summary": summary,
            "tracebacks": sum("Traceback" in err for _, err in log),
            "messages": [err.strip().splitlines()[-1] for c, err in log if c not in (0,) and err.strip()]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target", default="fault:perturb")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--faults", default="SIGTERM,SIGHUP,SIGINT,SIGKILL,disk-full,corrupt-state")
    parser.add_argument("--random-seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.random_seed)
    base = Path(tempfile.mkdtemp(prefix="ngb-faults-"))
    reference_log: list = []
    run_to_end(base / "reference", args, reference_log)
    reference = json.loads((base / "reference" / "summary.json").read_text())
    ref_buckets = {(b["target"], b["signature"]) for b in reference["buckets"]}
    print(f"reference: {reference['programs']} programs, {len(ref_buckets)} buckets, verdicts {reference['verdicts']}")
    print(f"{'fault':<14} {'at':>3} {'runs':>4} {'codes':<18} {'lost':>4} {'findings lost':>13} {'orphans':>7} "
          f"{'tracebacks':>10}  final")
    for fault in args.faults.split(","):
        out = base / fault
        mounted = mount_small(out, "512k")
        if fault == "disk-full" and not mounted:
            print(f"{fault:<14} skipped: no small tmpfs can be mounted here (not root)")
            continue
        try:
            r = inject(fault, out, args, rng)
        finally:
            if mounted:
                subprocess.run(["umount", "-l", str(out)], capture_output=True)
        s = r["summary"]
        buckets = {(b["target"], b["signature"]) for b in s["buckets"]}
        findings_lost = len(ref_buckets - buckets) + r["changed"]
        same = s["programs"] == reference["programs"] and s["verdicts"] == reference["verdicts"]
        print(f"{fault:<14} {r['at']:>3} {r['runs']:>4} {str(r['codes']):<18} "
              f"{'-' if r['lost'] is None else r['lost']:>4} {findings_lost:>13} {r['orphans']:>7} "
              f"{r['tracebacks']:>10}  {'same as reference' if same else 'DIFFERS: ' + str(s['verdicts'])}",
              flush=True)
        for message in r["messages"]:
            print(f"{'':<14}   said: {message[:150]}")
    shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
