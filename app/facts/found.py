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


def listed_items(value: str) -> list[str]:
    """ "Jira and Confluence", "German and a bit of Japanese", "vim + tmux" → their items."""
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+or\s+|\s*&\s*|\s+\+\s+", value)
    cleaned = [
        clean(re.sub(r"^(?:a\s+(?:little\s+)?bit\s+of|some|fluent|basic)\s+", "", p.strip()))
        for p in parts
    ]
    return [c for c in cleaned if c]
