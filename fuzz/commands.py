"""Commands ngb-fuzz prints for a user to paste (``replay:``, ``reduce --campaign``, ...), in one place.

Every word is quoted for a POSIX shell (``shlex.quote``), so a campaign directory with spaces, ``$`` or non-ASCII
characters in its path gives commands that run as printed.
"""

from __future__ import annotations

import shlex
from pathlib import Path

__all__ = ["shell_command", "replay_command"]


def shell_command(*words: str | Path) -> str:
    """``words`` as one line a shell splits back into exactly those words."""
    return " ".join(shlex.quote(str(word)) for word in words)


def replay_command(path: str | Path, target: str) -> str:
    """The command that re-runs program file ``path`` on ``target`` and shows what differs."""
    return shell_command("ngb-fuzz", "repro", path, "--target", target)
