"""What an extractor takes and gives, and which one runs.

An extractor reads one thread's user turns together and gives durable facts (`fact`, with a
`slot` naming what it is about and a span when the turn states one), events (`event`, with the
day they happened when it resolves to one) and ends of known facts (`end`: "I left Northwind
on 1 August" ends the `employer` fact whose value is Northwind on that day). Reconciliation
against what is already known (`app.facts.reconcile`) is the same for every extractor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Literal, Protocol

Kind = Literal["fact", "event", "end"]

MULTI_VALUED = frozenset(
    {
        "likes",
        "dislikes",
        "allergy",
        "responsibility",
        "uses",
        "works_with",
        "child",
        "pet",
        "language",
        "nationality",
        "instruction",
        "habit",
    }
)
"""Slots a user holds several values of at once: a new value adds, it does not replace."""

OPPOSITES = {"likes": "dislikes", "dislikes": "likes"}
"""Slots whose same value contradicts: liking cilantro retires disliking it."""

GAVE_UP = re.compile(r"(?:No longer [a-z]+s|Quit|Stopped|Gave up)(?: \S+){1,6}")
"""What a `habit` fact that the user gave something up says, as the extractor writes it ("No
longer drinks coffee", "Quit smoking"): said with an end, it is what holds once the end has
retired the old habit, so a later end of the same thing leaves it be, and taking the thing up
again retires it."""
RESUMES = frozenset({"habit", "diet", "uses", "likes"})
"""Slots in which a new fact takes up again what a `GAVE_UP` habit of the same value gave up."""


class _Said(Protocol):
    @property
    def slot(self) -> str | None: ...

    @property
    def text(self) -> str: ...


def gave_up(fact: _Said) -> bool:
    """Whether a fact is a habit given up, as the extractor writes one (a habit said as "Quit my
    job and went freelance last spring" is not: too long to be one)."""
    return fact.slot == "habit" and GAVE_UP.fullmatch(fact.text) is not None


@dataclass(frozen=True)
class Turn:
    """One message of the end-user, with the day it was written (spans resolve against it)."""

    text: str
    said_on: date


@dataclass(frozen=True)
class Extracted:
    kind: Kind
    text: str
    said_on: date
    slot: str | None = None
    value: str | None = None
    valid_from: date | None = None
    valid_until: date | None = None
    on: date | None = None
    """The day an event happened, or the day an `end` takes effect."""
    turn: int = 0
    entities: tuple[str, ...] = field(default=())


class Extractor(Protocol):
    name: str
    """Stable name with a version; re-extraction re-runs batches extracted under another."""

    def extract(self, turns: Sequence[Turn]) -> list[Extracted]:
        """Facts, events and ends from the turns of one thread, in order."""
        ...
