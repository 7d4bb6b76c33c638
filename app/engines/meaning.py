"""The embedded engine's reading of meaning: options and texts as vectors, compared by cosine.

Words alone miss a state that says what an option says in other words ("my laptop won't join the
Wi-Fi since the update" against "faults, setup and software on PCs running Windows"). Here each
option is split into parts: its whole text, and each clause of it (a criterion listing "a
question, a one-off request; a problem happening now" holds separate ideas, and a text close to
one of them should not be averaged away by the rest). Every part is embedded with the embeddings
layer (`app.embeddings`), and a text's similarity to an option is its best part's cosine.

Similarities are centred across a question's options: what decides is which option a text leans
to, not that every option of a support question is somewhat like every support ticket. A noul
whose "no" has no text is compared with what an unrelated text scores (`UNRELATED_COSINE`).

Two things would drown the signal, and are kept out:
- pieces of a state that carry little meaning (an id, a date): a sentence counts in proportion
  to its content words, fully from `FULL_SENTENCE_WORDS` on;
- the subject's name, which every memory line repeats ("Priya Raman does all her work on a
  MacBook"): capitalised words that every memory line shares are left out of every text before
  it is embedded, so a name never pulls toward the option its letters happen to resemble.

Pure given the vectors; `TextVectors` is the one place that calls the embedder, and it keeps the
vectors of texts seen lately, so a subject's memory lines and explain's variants of one state are
embedded once (and what is read of a text's words is cached the same way).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from app.embeddings.base import Embedder, Matrix
from app.text.stopwords import OPTION_STOP_WORDS
from app.text.words import split_words

UNRELATED_COSINE = 0.1
"""About what a text scores against a question it has nothing to do with (the median cosine of
unrelated sentence pairs is 0.07 with the default model); a one-sided noul's "no"."""

FULL_SENTENCE_WORDS = 4
"""A sentence with this many content words counts fully; "VPN client" (two) counts half,
"C-1042" or "2026-09-15" (none) not at all."""

BEST_SENTENCE_SHARE = 0.5
"""An option's evidence from the state: this share from its best sentence, the rest from the
mean over sentences, so one clear sentence counts and so does a state that keeps coming back."""

CACHED_TEXTS = 4096
"""Texts whose vectors are kept (about 1 KB each at 256 dimensions)."""

_CLAUSE = re.compile(r"[:;()\n]|(?<=[.!?])\s+")


def criterion_parts(text: str) -> list[str]:
    """The whole text and each of its clauses (split at colons, semicolons, brackets and
    sentence ends), each once, leaving out clauses without a content word ("Yes", "No")."""
    whole = " ".join(text.split())
    if not whole:
        return []
    parts = [whole]
    for clause in _CLAUSE.split(text):
        clause = " ".join(clause.split()).strip(" ,.")
        if clause and clause not in parts and content_words(clause):
            parts.append(clause)
    return parts


@lru_cache(maxsize=8192)
def content_words(text: str) -> int:
    """Words of three letters or more that are not stop words."""
    return sum(
        1
        for word in split_words(text)
        if len(word.text) >= 3
        and word.text.isalpha()
        and word.text.lower() not in OPTION_STOP_WORDS
    )


@lru_cache(maxsize=1024)
def shared_names(lines: tuple[str, ...]) -> frozenset[str]:
    """Capitalised words every memory line has (two lines at least): the subject's name."""
    if len(lines) < 2:
        return frozenset()
    per_line = [
        {_bare(word.text) for word in split_words(line) if word.text[:1].isupper()}
        for line in lines
    ]
    return frozenset(set.intersection(*per_line))


@lru_cache(maxsize=8192)
def without_names(text: str, names: frozenset[str]) -> str:
    if not names:
        return text
    kept = text
    for word in reversed(split_words(text)):
        if _bare(word.text) in names:
            kept = kept[: word.start] + kept[word.end :]
    return " ".join(kept.split())


def _bare(word: str) -> str:
    """ "Raman's" → Raman."""
    return re.sub(r"['\u2019]s$", "", word)


class TextVectors:
    """An embedder with the vectors of recent texts kept (thread-safe, least recently used out)."""

    def __init__(self, embedder: Embedder, capacity: int = CACHED_TEXTS) -> None:
        self.embedder = embedder
        self._capacity = capacity
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> Matrix:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for text in texts:
                vector = self._kept.get(text)
                if vector is not None:
                    self._kept.move_to_end(text)
                    found[text] = vector
        missing = [text for text in dict.fromkeys(texts) if text not in found]
        if missing:
            fresh = self.embedder.encode(missing)
            with self._lock:
                for text, vector in zip(missing, fresh, strict=True):
                    found[text] = vector
                    self._kept[text] = vector
                while len(self._kept) > self._capacity:
                    self._kept.popitem(last=False)
        if not texts:
            return np.zeros((0, self.embedder.dims), dtype=np.float32)
        return np.stack([found[text] for text in texts])


@dataclass(frozen=True)
class MeaningSpace:
    """The parts of a question's options as vectors, each option's parts in consecutive rows
    from `starts[k]` (options without parts are listed in `blank`)."""

    size: int
    vectors: Matrix
    starts: np.ndarray
    scored: np.ndarray
    """The options that have parts, in order; the others score `UNRELATED_COSINE`."""

    @classmethod
    def build(cls, options: Sequence[str], embed: TextVectors) -> MeaningSpace:
        """`options`: each option's text; an empty text is an option with nothing to compare
        (a one-sided noul's "no"), scored as an unrelated text would be."""
        parts = [criterion_parts(text) for text in options]
        counts = np.array([len(own) for own in parts], dtype=np.int64)
        scored = np.flatnonzero(counts)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))[scored]
        return cls(len(options), embed([p for own in parts for p in own]), starts, scored)

    def similarities(self, texts: Matrix) -> Matrix:
        """Rows: texts; columns: options; each the best part's cosine, centred across options."""
        raw = np.full((texts.shape[0], self.size), UNRELATED_COSINE, dtype=np.float32)
        if texts.shape[0] and self.scored.size:
            raw[:, self.scored] = np.maximum.reduceat(texts @ self.vectors.T, self.starts, axis=1)
        centred: Matrix = raw - raw.mean(axis=1, keepdims=True)
        return centred


def state_evidence(sentences: Sequence[str], similarities: Matrix) -> Matrix:
    """Each option's evidence from the state's sentences (see `BEST_SENTENCE_SHARE`), each
    sentence weighed by its content words; zeros when no sentence has any. `similarities`:
    the sentences' rows of `MeaningSpace.similarities`."""
    weights = np.array(
        [min(1.0, content_words(s) / FULL_SENTENCE_WORDS) for s in sentences], dtype=np.float32
    )
    total = float(weights.sum())
    if total == 0:
        return np.zeros(similarities.shape[1], dtype=np.float32)
    weighed = (weights[:, None] * similarities)[weights > 0]
    evidence: Matrix = BEST_SENTENCE_SHARE * weighed.max(axis=0) + (1 - BEST_SENTENCE_SHARE) * (
        weighed.sum(axis=0) / total
    )
    return evidence


def memory_evidence(similarities: Matrix) -> Matrix:
    """Each option's best similarity over the memory lines' rows; zeros without lines."""
    if similarities.shape[0] == 0:
        return np.zeros(similarities.shape[1], dtype=np.float32)
    evidence: Matrix = similarities.max(axis=0)
    return evidence
