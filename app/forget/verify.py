"""The proof that a forget worked (seed: verified_forgotten). Pure: no I/O.

After removal: no stored line or rule may still hold the concept (every one is read again with
the matcher); recall, asked with the concept, with questions built from it and with the rest of
each removed line, must return no line that holds it; and nothing may have gone that the concept
does not name.

Recall is asked over an index of the kept lines that hold the folded spelling of the concept's
words (the matcher's candidates): a line holding all the concept's content words is always among
them, and the index stays small, so the proof costs milliseconds on a 10,000-line subject
instead of a full index build.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.forget.matcher import (
    candidates,
    concept_queries,
    holds_concept,
    parse_concept,
    plan_forget,
)
from app.recall.index import build_index
from app.recall.scoring import RecallOptions, recall
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
    parsed = parse_concept(concept)
    found = [kept_lines[i] for i in candidates(parsed, kept_lines)]
    leaks = [line for line in found if holds_concept(concept, line)]
    leaks += [kept_rules[i] for i in plan_forget(concept, kept_rules).removed]
    if found:
        index = build_index(found)
        queries = [*concept_queries(concept), *(_rest(line, concept) for line in removed)]
        for query in queries:
            for hit in recall(index, state=query, question="", names=(), options=_WIDE):
                line = found[hit.index]
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
