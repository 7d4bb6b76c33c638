"""The embedded engine's reading of words: options as weighted bags of terms, compared by cosine.

Every option of a question (a choice's option: its name's words and its description; a score's
level; a noul's yes and no) becomes a bag of terms: the words folded as recall folds them
(`app.text.words`), stop words dropped, a two-part hyphenated word kept as one ("self-hosted" →
selfhosted, so it shares nothing with "self-serve"), light suffix stripping and a cut to six
letters ("upgrades", "upgrading" → upgrad), plus each pair of neighbouring words, so a phrase
("cloud edition") counts for more than its words apart. A term weighs more the fewer options share
it (log(1 + options / options with the term)), so words that tell options apart count and words
every option has do not; the terms of an option's name count double. A text is compared with each
option by cosine similarity over the terms some option has (names, dates and ids tell no option
apart, so they neither count nor dilute).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

from app.text.stopwords import OPTION_STOP_WORDS
from app.text.words import index_terms, split_words

STEM_LENGTH = 6
LABEL_WEIGHT = 2.0
"""An option's name says what it is for more surely than the words of its description."""


@lru_cache(maxsize=8192)
def terms(text: str) -> tuple[str, ...]:
    """The distinct comparable terms of `text`: its words and pairs of neighbouring words."""
    words: list[str] = []
    for word in split_words(text):
        parts = [p for p in index_terms(word.text) if p not in OPTION_STOP_WORDS]
        # "self-hosted" and "self-serve" are one word each: split, both would share "self".
        words.extend([_stem("".join(parts))] if len(parts) == 2 else map(_stem, parts))
    found = set(words)
    found.update(f"{a} {b}" for a, b in zip(words, words[1:], strict=False) if a != b)
    found.discard("")
    return tuple(sorted(found))


def label_terms(label: str) -> tuple[str, ...]:
    """Terms of an option's name: `selfhosted_windows` and `selfHostedWindows` both give
    selfhosted, windows (stemmed)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+", " ", label)
    return terms(spaced)


def _stem(term: str) -> str:
    if not term.isalpha() or len(term) <= 3:
        return term
    if term.endswith("ies") and len(term) > 4:
        term = term[:-3] + "y"
    elif term.endswith("sses"):
        term = term[:-2]
    elif term.endswith("s") and not term.endswith(("ss", "us", "is")):
        term = term[:-1]
    for suffix in ("ing", "ed", "ly"):
        if term.endswith(suffix) and len(term) - len(suffix) >= 3:
            term = term[: -len(suffix)]
            if len(term) > 3 and term[-1] == term[-2] and term[-1] not in "aeiouls":
                term = term[:-1]
            break
    if term.endswith("e") and len(term) > 4:
        term = term[:-1]
    return term[:STEM_LENGTH]


class OptionSpace:
    """The options of one question as weighted term vectors, ready to compare texts with."""

    def __init__(self, options: Sequence[tuple[tuple[str, ...], tuple[str, ...]]]) -> None:
        """`options`: for each option, the terms of its name and of its description."""
        self.size = len(options)
        sharing: dict[str, int] = {}
        for label, description in options:
            for term in set(label) | set(description):
                sharing[term] = sharing.get(term, 0) + 1
        # A term every option has tells none apart; one only this option has tells the most.
        self._weight = {term: math.log(1 + self.size / n) for term, n in sharing.items()}
        self._postings: dict[str, list[tuple[int, float]]] = {}
        self._norms: list[float] = []
        for index, (label, description) in enumerate(options):
            vector = {term: self._weight[term] for term in description}
            vector.update({term: self._weight[term] * LABEL_WEIGHT for term in label})
            for term, weight in sorted(vector.items()):
                self._postings.setdefault(term, []).append((index, weight))
            self._norms.append(math.sqrt(math.fsum(w * w for w in vector.values())) or 1.0)

    def similarities(self, text: str) -> list[float]:
        """Cosine similarity of `text` with each option, in option order."""
        # Only terms some option has are weighed: the rest of a sentence (names, dates, ids)
        # tells no option apart, and counting it would make a long sentence say less.
        known = [(t, self._weight[t]) for t in terms(text) if t in self._weight]
        dots: list[list[float]] = [[] for _ in range(self.size)]
        for term, weight in known:
            for index, option_weight in self._postings[term]:
                dots[index].append(weight * option_weight)
        if not known:
            return [0.0] * self.size
        norm = math.sqrt(math.fsum(w * w for _, w in known))
        return [math.fsum(d) / (norm * n) for d, n in zip(dots, self._norms, strict=True)]

    def state_evidence(self, sentences: Sequence[str]) -> list[float]:
        """Each option's evidence from the state: half the best and half the mean similarity
        over the sentences that share a term with some option (0 when none does)."""
        per_sentence = [sims for sims in map(self.similarities, sentences) if any(sims)]
        if not per_sentence:
            return [0.0] * self.size
        columns = zip(*per_sentence, strict=True)
        return [0.5 * max(c) + 0.5 * math.fsum(c) / len(c) for c in columns]

    def memory_evidence(self, lines: Sequence[str]) -> list[float]:
        """Each option's best similarity over the memory lines (0 without lines)."""
        if not lines:
            return [0.0] * self.size
        return [max(column) for column in zip(*map(self.similarities, lines), strict=True)]


@lru_cache(maxsize=256)
def option_space(options: tuple[tuple[str, str], ...]) -> OptionSpace:
    """Options as (name, description) pairs; cached because the same question is asked often."""
    return OptionSpace([(label_terms(label), terms(text)) for label, text in options])
