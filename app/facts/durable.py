"""Sentences no pattern knows: does it state something lasting about the user, and about what?

The patterns (`app.facts.patterns`) are exact where they fire: a name, a date, a span, a
one-value slot. But people say "I've just relocated to Gdansk for good" or "we migrated our whole
backend to Elixir", and no pattern was written for those verbs. For a sentence that no pattern
read a fact from (and that is not a question, a request or a passing want), two readers over the
embeddings layer decide:

- whether it lasts: the gate's lasting probe (`app.learning.lasting`), a logit at least
  `LASTING_LOGIT`;
- which slot it fills: a linear classifier over the sentence's vector and its words (hashed,
  so a cue such as "allergic", "colleague" or an email's "@" counts beside the meaning; one
  score per slot, trained by ops/models/build_slots.py on sentences written for each slot), its
  best slot when that score is at least `SLOT_SCORE`.

The fact's text is the sentence as said (no value is invented); its value is the name, place or
organisation it mentions when the slot takes one ("Gdansk" for home, "Oskar Lind" for manager),
or else the sentence itself, so a newer statement of a one-value slot still replaces the older.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from app.embeddings.base import Embedder
from app.embeddings.loader import current_embedder
from app.engines.lexical import terms
from app.learning.lasting import LastingProbe, current_probe

SLOTS_FILE = Path(__file__).parent / "slots_model.npz"

LASTING_LOGIT = 0.0
"""The probe's even odds; chosen on ops/bench/data/extraction_tuning.jsonl (0, 1 and 1.6 tried:
recall 0.60, 0.56, 0.53 with chatter kept out 57, 57, 59 of 60)."""
SLOT_SCORE = -0.5
"""A slot's score (targets ±1 over 27 slots, so a right slot often scores below 0) at least
this; below it the sentence is about no slot we keep. Chosen on the same tuning set."""
MIN_WORDS = 4
"""Shorter sentences ("Ugh, Mondays.", "nah, never mind") are left to the patterns."""
WORD_BUCKETS = 2048
WORD_WEIGHT = 0.5
"""Each word present adds this in its hashed bucket (the vector has length 1)."""

NAMED_SLOTS = frozenset(
    {
        "home",
        "origin",
        "office",
        "employer",
        "manager",
        "works_with",
        "partner",
        "child",
        "pet",
        "name",
        "preferred_name",
        "team",
    }
)
"""Slots whose value is a proper name the sentence mentions."""

_PROPER = re.compile(
    r"(?<![.!?]\s)(?<!^)\b(?:(?:St|Mt|Dr|Mr|Mrs|Ms)\.\s+)?[A-Z][\w'’-]*"
    r"(?:\s+(?:of\s+|de\s+|van\s+)?[A-Z][\w'’-]*){0,3}"
)


class SlotsAbout(BaseModel):
    """What the trained classifier's file says about it (ops/models/build_slots.py writes it):
    the embedder's model it was trained with, its slots in column order, and how it was made."""

    model: str
    slots: tuple[str, ...]
    ridge: float
    trained_on: str
    cross_validated_accuracy: float


@dataclass(frozen=True)
class SlotClassifier:
    embedder: Embedder
    slots: tuple[str, ...]
    weights: np.ndarray
    """One column per slot; the last row is the bias."""

    @classmethod
    def for_embedder(
        cls, embedder: Embedder | None, path: Path = SLOTS_FILE
    ) -> SlotClassifier | None:
        """The classifier, if it was trained with this embedder's model; None otherwise."""
        if embedder is None:
            return None
        with np.load(path) as trained:
            about = SlotsAbout.model_validate_json(str(trained["about"]))
            if about.model != embedder.name:
                return None
            return cls(embedder, about.slots, trained["weights"].astype(np.float32))

    def best(self, sentences: list[str]) -> list[tuple[str, float]]:
        """Each sentence's likeliest slot and its score."""
        features = slot_features(self.embedder, sentences)
        scores = features @ self.weights[:-1] + self.weights[-1]
        return [(self.slots[int(row.argmax())], float(row.max())) for row in scores]


def slot_features(embedder: Embedder, sentences: Sequence[str]) -> np.ndarray:
    """Each sentence's vector, then its words hashed into `WORD_BUCKETS` (the lexical scorer's
    terms: folded, stemmed, stop words out) and a bucket for an email's "@"."""
    words = np.zeros((len(sentences), WORD_BUCKETS), dtype=np.float32)
    for row, sentence in enumerate(sentences):
        for term in terms(sentence):
            if " " not in term:
                words[row, zlib.crc32(term.encode()) % WORD_BUCKETS] = WORD_WEIGHT
        if "@" in sentence:
            words[row, 0] = WORD_WEIGHT
    return np.hstack([embedder.encode(sentences), words])


@dataclass(frozen=True)
class DurableReader:
    probe: LastingProbe
    slots: SlotClassifier

    def read(self, sentences: list[str]) -> list[tuple[str, str, str] | None]:
        """For each sentence: (slot, value, text) when it states something lasting about a
        slot, else None."""
        if not sentences:
            return []
        lasting = self.probe.logits(sentences)
        slots = self.slots.best(sentences)
        found: list[tuple[str, str, str] | None] = []
        for sentence, logit, (slot, score) in zip(sentences, lasting, slots, strict=True):
            if len(sentence.split()) < MIN_WORDS or logit < LASTING_LOGIT or score < SLOT_SCORE:
                found.append(None)
                continue
            text = as_said(sentence)
            found.append((slot, value_of(slot, text), text))
        return found


def as_said(sentence: str) -> str:
    """The sentence as a fact's text: trimmed, its first letter upper-case, no end mark."""
    text = sentence.strip().rstrip(".!")
    return text[:1].upper() + text[1:]


def value_of(slot: str, text: str) -> str:
    """The proper name a named slot's sentence mentions (not its first word), else the text."""
    if slot in NAMED_SLOTS:
        for match in _PROPER.finditer(text):
            name = match.group().strip()
            if name not in ("I", "I'm", "I've", "I'd", "I'll") and match.start() > 0:
                return name
    return text


@lru_cache
def current_reader() -> DurableReader | None:
    """The reader for this process's embedder; None without meaning (patterns alone)."""
    embedder = current_embedder()
    probe = current_probe()
    slots = SlotClassifier.for_embedder(embedder)
    if probe is None or slots is None:
        return None
    return DurableReader(probe, slots)
