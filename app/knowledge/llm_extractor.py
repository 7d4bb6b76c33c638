"""The LLM extractor: the chat endpoint's model reads a thread's turns and answers with items
in a JSON schema. Same interface as the embedded extractor, same reconciliation after it.

The model is told the same rules the embedded patterns follow. Its answer is checked item by
item: an item of an unknown kind or without text is dropped, and a day that is not a calendar
date (YYYY-MM-DD) is dropped with it rather than guessed; an `end` without a day ends on the
day its turn was written.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import date
from typing import Any

from app.errors import UpstreamFailed
from app.knowledge.extraction import Extracted, Turn
from app.knowledge.upstream import ChatClient, content_of

log = logging.getLogger(__name__)

PROMPT = """You extract long-term memory about the end-user from their chat messages.
Keep two kinds of items:
- "fact": what is still true about them a year from now: who they are, what they prefer,
  what they are responsible for, who and what they work with, standing instructions about
  how to answer them. Give a "slot" (name, age, role, employer, team, office, home, origin,
  email, phone, manager, works_with, partner, child, pet, uses, responsibility, likes,
  dislikes, allergy, diet, language, instruction, habit, status, or favourite:<category>)
  and its "value".
- "event": something that happened to them (a trip, a purchase, a visit, an amount spent, a
  duration), with "on" = the day it happened when the message names a day.
- "end": a fact that stopped or stops being true ("I left Northwind on 1 August"), with its
  slot, value and "on" = the day it ends.
Never keep what they want in the moment, questions, requests to you, or names inside those.
Spans: "valid_from" / "valid_until" only when the message names a day that resolves to a
calendar date against the day it was written ("until 1 October", "from 1 November",
"tomorrow", "next Monday"). Leave every day null when it is vague ("soon", "next week", "once
the merger closes"). Never guess a day. Write "text" as a short statement without "I"
("Works at Northwind"). "turn" is the number of the message the item comes from."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["fact", "event", "end"]},
                    "text": {"type": "string"},
                    "slot": {"type": ["string", "null"]},
                    "value": {"type": ["string", "null"]},
                    "valid_from": {"type": ["string", "null"]},
                    "valid_until": {"type": ["string", "null"]},
                    "on": {"type": ["string", "null"]},
                    "turn": {"type": "integer"},
                },
                "required": [
                    "kind",
                    "text",
                    "slot",
                    "value",
                    "valid_from",
                    "valid_until",
                    "on",
                    "turn",
                ],
                "additionalProperties": False,
            },
        }
    },
    "required": ["items"],
    "additionalProperties": False,
}


class LlmExtractor:
    def __init__(self, client: ChatClient, model: str | None = None) -> None:
        self._client = client
        self._model = model or "default"
        self.name = f"llm-1:{self._model}"

    def extract(self, turns: Sequence[Turn]) -> list[Extracted]:
        if not turns:
            return []
        numbered = "\n".join(
            f"[{n}] (written {turn.said_on.isoformat()}, {turn.said_on:%A}) {turn.text}"
            for n, turn in enumerate(turns)
        )
        data = self._client.complete(
            {
                "model": self._model,
                "messages": [
                    {"role": "system", "content": PROMPT},
                    {"role": "user", "content": numbered},
                ],
                "temperature": 0,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "memory_items", "strict": True, "schema": SCHEMA},
                },
            }
        )
        try:
            items = json.loads(content_of(data))["items"]
        except (ValueError, KeyError, TypeError) as exc:
            raise UpstreamFailed("the extraction model did not answer in the schema") from exc
        if not isinstance(items, list):
            raise UpstreamFailed("the extraction model did not answer in the schema")
        return [item for raw in items if (item := _item(raw, turns)) is not None]


def _item(raw: Any, turns: Sequence[Turn]) -> Extracted | None:
    if not isinstance(raw, dict) or raw.get("kind") not in ("fact", "event", "end"):
        return None
    text = raw.get("text")
    if not isinstance(text, str) or not text.strip():
        return None
    given = raw.get("turn")
    turn = min(max(given, 0), len(turns) - 1) if isinstance(given, int) else 0
    said_on = turns[turn].said_on
    slot = raw.get("slot")
    value = raw.get("value")
    day = _day(raw.get("on"))
    if raw["kind"] == "end" and day is None:
        day = said_on
    return Extracted(
        kind=raw["kind"],
        text=text.strip(),
        said_on=said_on,
        slot=slot.strip().lower() if isinstance(slot, str) and slot.strip() else None,
        value=value.strip() if isinstance(value, str) and value.strip() else None,
        valid_from=_day(raw.get("valid_from")) if raw["kind"] == "fact" else None,
        valid_until=_day(raw.get("valid_until")) if raw["kind"] == "fact" else None,
        on=day if raw["kind"] != "fact" else None,
        turn=turn,
    )


def _day(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None
