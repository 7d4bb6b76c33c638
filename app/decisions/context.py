"""Which memory lines a decision sends, in what order: pure, no I/O.

Pinned rules go first at every decision, whatever the state says; then the lines recall finds
for this state and question. (Computed facts and fired conditional rules join in front of
these with the rules issue.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from app.decisions.wire import MemoryOptions, Question
from app.recall.engine import RecallIndex, RecallOptions, recall, subject_name_words
from app.text.content import content_text

LineKind = Literal["pinned", "rule", "recalled", "computed"]


@dataclass(frozen=True, slots=True)
class ContextLine:
    text: str
    kind: LineKind
    score: float | None = None


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
) -> list[ContextLine]:
    hits = recall(
        index,
        state=state_text,
        question=question_text(questions),
        names=[*subject_name_words(subject), *aliases],
        options=recall_options(options),
    )
    return [ContextLine(lines[hit.index], "recalled", round(hit.score, 4)) for hit in hits]


def pinned_lines(rules: Sequence[tuple[str, bool]]) -> list[ContextLine]:
    return [ContextLine(text, "pinned") for text, pin in rules if pin]
