"""Which memory lines a decision sends, in what order: pure, no I/O.

The context is computed facts first, then the rules that act (pinned rules, then conditional
rules that fired), then the lines recall finds for this state and question; placement keeps the
first 64. Each line belongs to a memory item: a recalled line is its own item, and an active rule
is one item with its fact line, its text line and its exclusion, so explain can leave out a rule
as a whole (what it says and what it removes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.engines.wire import MemoryOptions, Question
from app.recall.hybrid import Fused, Meaning, hybrid_recall
from app.recall.index import RecallIndex
from app.recall.scoring import RecallOptions, recall
from app.recall.terms import subject_name_words
from app.rules.evaluate import ActiveRule, RulesOutcome
from app.text.content import content_text

LineKind = Literal["pinned", "rule", "recalled", "computed"]
ItemKind = Literal["pinned", "rule", "recalled"]


@dataclass(frozen=True, slots=True)
class ContextLine:
    text: str
    kind: LineKind
    score: float | None = None
    owner: int = 0
    """Index of the memory item the line belongs to (`MemoryContext.items`)."""
    why: Fused | None = None
    """For a recalled line found by hybrid recall: its lexical and semantic parts."""

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "kind": self.kind, "score": self.score, "owner": self.owner}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ContextLine:
        return cls(data["text"], data["kind"], data.get("score"), int(data["owner"]))


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """What explain leaves out in one pass: a recalled line, or an active rule."""

    kind: ItemKind
    text: str
    rule: ActiveRule | None = None
    score: float | None = None


@dataclass(frozen=True, slots=True)
class MemoryContext:
    items: tuple[MemoryItem, ...]
    lines: tuple[ContextLine, ...]
    """In the order they are placed: computed facts, rule texts, recalled lines."""

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines]


def memory_context(rules: RulesOutcome, recalled: Sequence[ContextLine]) -> MemoryContext:
    """The items and the ordered lines of a decision's memory."""
    items = [MemoryItem(rule.kind, rule.text, rule=rule) for rule in rules.active]
    facts = [
        ContextLine(rule.fact, "computed", owner=i)
        for i, rule in enumerate(rules.active)
        if rule.fact is not None
    ]
    texts = [
        ContextLine(rule.text, rule.kind, owner=i)
        for i, rule in enumerate(rules.active)
        if rule.placed
    ]
    found: list[ContextLine] = []
    for line in recalled:
        found.append(ContextLine(line.text, "recalled", line.score, owner=len(items), why=line.why))
        items.append(MemoryItem("recalled", line.text, score=line.score))
    return MemoryContext(tuple(items), tuple(facts + texts + found))


def question_text(questions: Mapping[str, Question]) -> str:
    """The questions' instructions and criteria, searched too ("Which language…" finds the
    line about the reply language)."""
    parts: list[str] = []
    for question in questions.values():
        parts.append(content_text(question.instructions))
        criteria = getattr(question, "criteria", None)
        if isinstance(criteria, Mapping):
            for option, description in criteria.items():
                parts.append(option.replace("_", " "))
                parts.append(content_text(description))
        elif criteria is not None:
            parts.append(content_text(criteria))
    return "\n".join(p for p in parts if p)


def recall_options(options: MemoryOptions) -> RecallOptions:
    return RecallOptions(
        top_k=options.top_k,
        min_share=options.min_share,
        use_names=options.names,
        use_question_words=options.question_words,
        focus=options.focus,
    )


def recalled_lines(
    index: RecallIndex,
    lines: Sequence[str],
    *,
    subject: str,
    aliases: Sequence[str],
    state_text: str,
    questions: Mapping[str, Question],
    options: MemoryOptions,
    meaning: Meaning | None,
) -> list[ContextLine]:
    """The recalled lines: by words and meaning when `meaning` is given, else by words."""
    names = [*subject_name_words(subject), *aliases]
    question = question_text(questions)
    if meaning is None:
        hits = recall(
            index, state=state_text, question=question, names=names, options=recall_options(options)
        )
        return [ContextLine(lines[hit.index], "recalled", round(hit.score, 4)) for hit in hits]
    hits = hybrid_recall(
        index,
        meaning,
        state=state_text,
        question=question,
        names=names,
        options=recall_options(options),
    )
    return [
        ContextLine(
            lines[hit.index],
            "recalled",
            round(hit.score, 4),
            why=Fused(round(hit.lexical or 0.0, 4), round(hit.semantic, 4)),
        )
        for hit in hits
    ]
