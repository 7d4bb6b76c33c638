"""What a pattern reads in a sentence: a fact or an end, its slot and value, the text it keeps,
and where in the sentence it starts (facts and events are ordered by it)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Found:
    kind: str
    slot: str | None
    value: str
    text: str
    start: int


Reader = Callable[[str], Iterator[Found]]
"""Reads one sentence: every fact, or end, it states."""


def clean(value: str) -> str:
    value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value.strip(), flags=re.IGNORECASE)
    return value.strip(" \t'\"’“”").rstrip(".")
