"""Refuse fields that ask a changing route only to look.

A caller who sends `"dry_run": true` (or `"simulate"`, `"what_if"`, a misspelt `"preveiw"`, or an
object holding one) to a route that removes data must not have data removed while believing it
only looked. Such a field, at any depth and in any case or spelling, is a 422 naming it.
"""

from __future__ import annotations

import re
from typing import Any

from app.errors import Invalid

LOOK_ONLY_WORDS = (
    "preview",
    "dryrun",
    "simulate",
    "simulation",
    "whatif",
    "tryrun",
    "testrun",
    "testonly",
    "checkonly",
    "validateonly",
    "noop",
    "pretend",
    "rehearse",
    "rehearsal",
    "trial",
    "sandbox",
    "lookonly",
    "readonly",
    "planonly",
    "nochange",
    "nochanges",
    "nodelete",
    "noremove",
    "nocommit",
    "donotdelete",
    "estimate",
    "explainonly",
    "mock",
    "fake",
    "dry",
)
_NOT_LETTERS = re.compile(r"[^a-z]")


def looks_only(name: str) -> bool:
    key = _NOT_LETTERS.sub("", name.lower())
    if not key:
        return False
    if any(word in key for word in LOOK_ONLY_WORDS if len(word) >= 5):
        return True
    return any(_distance(key, word) <= _allowed(word) for word in LOOK_ONLY_WORDS)


def refuse_look_only_fields(
    body: Any, *, allowed: frozenset[str] = frozenset(), path: str = ""
) -> None:
    """Raise Invalid naming the first look-only field in `body` (allowed top-level names pass)."""
    if isinstance(body, dict):
        for key, value in body.items():
            here = f"{path}.{key}" if path else str(key)
            if not (path == "" and key in allowed) and looks_only(str(key)):
                raise Invalid(
                    f"'{here}' asks this route only to look, which it cannot do; nothing was "
                    "changed"
                    + (' (use "preview": true at the top level)' if "preview" in allowed else ""),
                    field=here,
                    code="look_only_field",
                )
            refuse_look_only_fields(value, path=here)
    elif isinstance(body, list):
        for position, item in enumerate(body):
            refuse_look_only_fields(item, path=f"{path}[{position}]")


def _allowed(word: str) -> int:
    return 0 if len(word) <= 4 else 1 if len(word) <= 6 else 2


def _distance(a: str, b: str) -> int:
    """Damerau-Levenshtein (optimal string alignment) distance."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, start=1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]
