"""The root of every error ngb-fuzz raises on purpose: ``except fuzz.FuzzError`` catches them all.

The CLI turns one into a one-line message and exit status 2. It lives in a leaf module so that any part of
``fuzz`` can subclass it without importing anything else.
"""

from __future__ import annotations

__all__ = ["FuzzError"]


class FuzzError(Exception):
    """Something ngb-fuzz cannot do with the input it was given (bad program, corpus, campaign, arguments)."""
