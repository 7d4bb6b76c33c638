"""The proof that a forget worked (seed: verified_forgotten). Pure: no I/O.

After removal, recall asked with the concept, with questions built from it and with the rest of
each removed line must return no line still holding the concept; no stored line or rule may hold
it; and nothing may have gone that the concept does not name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.forget.matcher import concept_queries, holds_concept
from app.recall.engine import RecallOptions, build_index, recall
from app.text.words import split_words

_WIDE = RecallOptions(top_k=20, min_share=0.05, use_names=False, use_question_words=False)


@dataclass(frozen=True)
class Verdict:
    verified: bool
    leaks: list[str]


def verify_forgotten(
    concept: str,
    *,
    removed: Sequence[str],
    kept_lines: Sequence[str],
    kept_rules: Sequence[str],
) -> Verdict:
    leaks = [text for text in (*kept_lines, *kept_rules) if holds_concept(concept, text)]
    index = build_index(kept_lines)
    for query in [*concept_queries(concept), *(_rest(line, concept) for line in removed)]:
        for hit in recall(index, state=query, question="", names=(), options=_WIDE):
            line = kept_lines[hit.index]
            if line not in leaks and holds_concept(concept, line):
                leaks.append(line)
    named_only = all(holds_concept(concept, text) for text in removed)
    symbols_only = not split_words(concept)
    verified = not leaks and named_only and (bool(removed) or not symbols_only)
    return Verdict(verified=verified, leaks=leaks)


def _rest(line: str, concept: str) -> str:
    """The removed line without the concept's words: what else it said, to ask recall with."""
    concept_words = {w.text.casefold() for w in split_words(concept)}
    return " ".join(w.text for w in split_words(line) if w.text.casefold() not in concept_words)
