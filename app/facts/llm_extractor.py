"""The LLM extractor: the chat endpoint's model reads a thread's turns and answers with items
in a JSON schema. Same interface as the embedded extractor, same reconciliation after it.

The model is told the same rules the embedded patterns follow. An answer that is not the
schema's JSON (malformed, cut off at the length limit, another shape) gets one repair attempt:
the model is shown what it answered and why it could not be read, and asked again. If that
fails too, `UnreadableAnswer` is raised: the task retries with backoff, and a batch that still
fails ends failed with its turns kept for re-extraction (counted in
`dossier_extraction_answers{outcome}` and `dossier_extraction_turns_failed`), never dropped in
silence.

A readable answer is checked item by item: an item of an unknown kind or without text is left
out (counted in `dossier_extraction_items_dropped`), and a day that is not a calendar date
(YYYY-MM-DD) is dropped with it rather than guessed; an `end` without a day ends on the day its
turn was written.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import date
from typing import Any

from app.chat.upstream import ChatClient, content_of
from app.errors import UpstreamFailed
from app.facts.extraction import Extracted, Turn
from app.observability.metrics import count_dropped_items, count_extraction_answer

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


class UnreadableAnswer(UpstreamFailed):
    """The model's answer was not the schema's JSON, even after one repair attempt."""


REPAIR = (
    "Your answer could not be read: {problem}. Answer again with only the JSON object the "
    "schema asks for, complete, and nothing else."
)
ECHOED = 4000
"""How much of an unreadable answer is shown back to the model when asking for a repair."""


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
        messages: list[dict[str, str]] = [
            {"role": "system", "content": PROMPT},
            {"role": "user", "content": numbered},
        ]
        answer = self._ask(messages)
        try:
            raw_items = read_items(answer)
            count_extraction_answer("read")
        except ValueError as problem:
            log.warning("extraction answer unreadable (%s); asking once for a repair", problem)
            messages += [
                {"role": "assistant", "content": _said(answer)[:ECHOED]},
                {"role": "user", "content": REPAIR.format(problem=problem)},
            ]
            try:
                raw_items = read_items(self._ask(messages))
            except ValueError as again:
                count_extraction_answer("unreadable")
                raise UnreadableAnswer(
                    f"the extraction model's answer could not be read, even repaired: {again}"
                ) from again
            count_extraction_answer("repaired")
        items = [item for raw in raw_items if (item := _item(raw, turns)) is not None]
        count_dropped_items(len(raw_items) - len(items))
        return items

    def _ask(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        return self._client.complete(
            {
                "model": self._model,
                "messages": messages,
                "temperature": 0,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "memory_items", "strict": True, "schema": SCHEMA},
                },
            }
        )


def _said(answer: dict[str, Any]) -> str:
    """What the model answered, as text, whatever its shape."""
    try:
        return content_of(answer)
    except UpstreamFailed:
        return json.dumps(answer["choices"][0])


def read_items(answer: dict[str, Any]) -> list[Any]:
    """The items of a chat answer in the schema.

    Raises:
        ValueError: naming what is wrong (cut off at the length limit, not JSON, another shape).
    """
    choice = answer["choices"][0]
    if isinstance(choice, dict) and choice.get("finish_reason") == "length":
        raise ValueError("it was cut off at the length limit")
    try:
        text = content_of(answer)
    except UpstreamFailed as exc:
        raise ValueError(exc.message) from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"it is not JSON ({exc})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise ValueError('it is JSON but not an object with an "items" list')
    items: list[Any] = data["items"]
    return items


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
