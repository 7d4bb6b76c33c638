"""Every value a message states, word by word: the slot tagger.

The durable reader gives one slot to a sentence or a clause, and the name reader one to each
name; what they miss most is the second or third value said inside a clause read for another
("I'm a claims handler at Aviva and half my day is calls on Genesys", "we run payroll and
pensions on Sage", "retail. Superdrug. Norwich. beauty counter"). This reader tags each word of
a message with the slot whose value it is part of, or none (B-/I-/O tags), by a linear-chain
conditional random field (CRFsuite, through python-crfsuite): the word itself, its shape, its
neighbours up to three away, word pairs, the cluster of its meaning (the embeddings layer's
vector of the word, nearest of `CLUSTERS` centroids, so "Kraków" reads like "Leeds" and "genesys"
like "zendesk"), whether it is a known place, a known tool, an occupation or a nationality,
whether the user's "I"/"my" came before it in its clause, and whether its sentence asks. The
field reads a message's tags together, so a value spans its words ("type 2 diabetes", "keep
answers short") and a value's slot depends on the words around it ("I work in Leeds" vs "I live
in Leeds"). Beside the field, the sequence reader (`app.facts.sequence`, a bidirectional LSTM
over the whole message) adds its surest values where the field tagged none of their words with
`TAGGED_CONFIDENCE`.

It is trained by ops/models/build_tagger.py on the everyday tuning sets
(ops/bench/data/extraction_tuning*.jsonl: every message labelled with the values it states,
chatter with none), never on a held-out set. The extractor (`app.facts.embedded`) keeps a tagged
value only beside what the rest read in the same message (it never decides alone that a message
states something) and only where the rest read nothing of it: see `TAGGED_CONFIDENCE`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path

import numpy as np
import pycrfsuite
from pydantic import BaseModel

from app.embeddings.base import Embedder
from app.embeddings.loader import current_embedder
from app.facts.sequence import (
    LONGEST,
    SEQUENCE_CONFIDENCE,
    SEQUENCE_FILE,
    SequenceReader,
    sequence_inputs,
)
from app.facts.vocabulary import NATIONALITIES, OCCUPATIONS
from app.text.dictionary import in_the_dictionary
from app.text.places import known_places
from app.text.tools import tools_in
from app.text.words import fold

TAGGER_FILE = Path(__file__).parent / "tagger_model.crfsuite"
WORDS_FILE = Path(__file__).parent / "tagger_words.npz"
"""The word clusters' centroids and what the tagger was trained with (`TaggerAbout`)."""

CLUSTERS = 256
"""Clusters of word meaning: k-means over the vectors of the tuning sets' words."""
CONTEXT = 3
"""Words looked at on each side."""
TAGGED_CONFIDENCE = 0.6
"""A tagged value is kept when the field's marginal probability of each of its words' tags is at
least this. Chosen by training on three quarters of the 53 tuning sets and scoring the fourth
(ops/models/folds.py's way, 13,251 facts; the readers without the tagger found 9,841 at
precision 0.890): with the extractor's rules for what the tagger may add (`app.facts.embedded`),
at 0.5, 0.6, 0.7 and 0.8 it found 10,491, 10,428, 10,374 and 10,301 at precision 0.875, 0.879,
0.882 and 0.885, chatter messages kept 158 throughout: the added facts are right 69, 72, 75 and
78 times in 100, each step's own about half the time. 0.6 is the loosest whose added facts are
right seven times in ten, the bar the name reader's thresholds were chosen by. (With the checks a
review then asked for, whose a value is and that it is a whole word or name: 10,400 at 0.880;
with a name inside a phrase read for another slot left free: 10,425 at 0.879. Over 56 sets after
session 18's retraining, 0.6 finds 11,602 of 14,570 at 0.885; 0.5 would add 57 right of 122.)"""

UNAGREED_CONFIDENCE = 0.9
"""In a turn where none of the tagged values is one the rest read, a tagged value is kept only
at this confidence: the rest's reading of the turn and the tagger's disagree, so the tagger must
be surer. Chosen on the tuning sets a quarter at a time (13,251 facts): none kept, 10,461 at
precision 0.882; at 0.95, 0.9, 0.8, 0.7 and 0.6 10,479, 10,484, 10,491, 10,496 and 10,499
(0.882, 0.882, 0.882, 0.881, 0.881), the added facts right about 8 times in 10 down to 0.8, 3
of the next 10 at 0.6. 0.9, not 0.8: "Chinese in Leeds — where's good for dim sum?" (a test of
hard chatter) tags "Chinese" a nationality at 0.805 while the rest read the town for another
slot."""

CORRECTING_CONFIDENCE = 0.97
"""When the tagger is this sure of a value's slot and the rest read the same value into another
slot, the tagger's slot wins (`app.facts.embedded._read_for_another_slot`). Chosen as
`TAGGED_CONFIDENCE` was, on the tuning sets a quarter at a time (13,251 facts): without it
10,425 at precision 0.879; at 0.9 10,439 at 0.880, at 0.97 10,443 at 0.881 (by value alone
10,237 -> 10,264)."""

_TOKEN = re.compile(r"\w[\w'’]*(?:[.+\-/@]\w[\w'’]*)*|[^\w\s]")
_SHAPE_RUNS = re.compile(r"(.)\1+")
_CLAUSE_BREAK = re.compile(r"^(?:[,;:.!?()]|and|but|so|because|cos|though)$")
_FIRST_PERSON = frozenset("i i'm im my me we our i've ive i'd us mine we're".split())
_SOMEONE = frozenset(
    "sister brother mum mom mother dad father friend neighbour neighbor cousin aunt uncle wife "
    "husband partner boyfriend girlfriend son daughter kid kids boss manager colleague coworker "
    "he she they his her their".split()
)
_RECENTLY_SOMEONE = 6
"""Words after someone else ("my sister", "he") within which a word is near them."""
_OCCUPATION = re.compile(rf"(?:{OCCUPATIONS})s?", re.IGNORECASE)
_NATIONALITY = re.compile(rf"(?:{NATIONALITIES})s?", re.IGNORECASE)


class TaggerAbout(BaseModel):
    """What ops/models/build_tagger.py says of the trained tagger: the embedder's model whose
    word vectors the clusters are of, and how it was trained."""

    model: str
    trained_on: str
    c1: float
    c2: float


@dataclass(frozen=True, slots=True)
class Token:
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Tagged:
    """A value the tagger found: its slot, where it is in the text, and as written."""

    slot: str
    start: int
    end: int
    value: str
    confidence: float
    """The lowest marginal probability of its words' tags."""


def tokens_of(text: str) -> list[Token]:
    """The text's words (with their inner apostrophes, dots and hyphens: "don't", "St.",
    "e-bike", "node.js") and its punctuation marks, one token each."""
    return [Token(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]


def _shape(word: str) -> str:
    shaped = re.sub(r"\d", "d", re.sub(r"[a-z]", "x", re.sub(r"[A-Z]", "X", word)))
    return _SHAPE_RUNS.sub(r"\1\1", shaped)


def lowered(tokens: Sequence[Token]) -> list[str]:
    """The tokens as the word vectors and features read them: lower case, one apostrophe."""
    return [token.text.lower().replace("’", "'") for token in tokens]


def word_vectors(embedder: Embedder, words: Sequence[str]) -> np.ndarray:
    """Each word's vector (rows in the words' order), every distinct word embedded once."""
    unique = sorted(set(words))
    if not unique:
        return np.zeros((0, embedder.dims), dtype=np.float32)
    row_of = {word: n for n, word in enumerate(unique)}
    return embedder.encode(unique)[[row_of[word] for word in words]]


def word_features(
    embedder: Embedder,
    centroids: np.ndarray,
    text: str,
    tokens: Sequence[Token],
    vectors: np.ndarray | None = None,
) -> list[list[str]]:
    """Each token's features, as CRFsuite's attribute names (every one weighs 1). `vectors`:
    the tokens' `word_vectors`, when the caller has them."""
    words = [token.text for token in tokens]
    lower = lowered(tokens)
    if vectors is None:
        vectors = word_vectors(embedder, lower)
    clusters = _clusters(vectors, centroids, lower)
    places = known_places()
    tools = tools_in(text)
    asks = _asking_sentences(text, tokens)
    rows: list[list[str]] = []
    first_person_before = in_clause = False
    someone_at = -_RECENTLY_SOMEONE - 1
    for n, (token, word) in enumerate(zip(tokens, lower, strict=True)):
        if _CLAUSE_BREAK.match(word):
            in_clause = False
        near = partial(_at, lower, n)
        row = [
            "bias",
            f"w={word}",
            f"s3={word[-3:]}",
            f"p3={word[:3]}",
            f"shape={_shape(token.text)}",
            f"c={clusters[n]}",
            f"-2,-1={near(-2)}|{near(-1)}",
            f"+1,+2={near(1)}|{near(2)}",
            f"-1,0={near(-1)}|{word}",
        ]
        row += [f"{d}w={near(d)}" for d in range(-CONTEXT, CONTEXT + 1) if d]
        row += [f"{d}c={_at(clusters, n, d)}" for d in (-2, -1, 1, 2)]
        row += [f"{d}cap={_at(words, n, d)[:1].isupper()}" for d in (-1, 1)]
        flags = {
            "cap": token.text[:1].isupper(),
            "first": n == 0 or words[n - 1] in (".", "!", "?"),
            "place": fold(token.text) in places,
            "rare": word.isalpha() and not in_the_dictionary(word),
            "first_person_before": first_person_before,
            "clause_first_person": in_clause,
            "someone_near": n - someone_at <= _RECENTLY_SOMEONE,
            "asks": asks[n],
            "occupation": _OCCUPATION.fullmatch(word) is not None,
            "nationality": _NATIONALITY.fullmatch(word) is not None,
            "tool": any(start <= token.start and token.end <= end for start, end in tools),
        }
        row += [flag for flag, holds in flags.items() if holds]
        rows.append(row)
        if word in _FIRST_PERSON:
            first_person_before = in_clause = True
        if word in _SOMEONE:
            someone_at = n
    return rows


def _at(words: Sequence[str], n: int, offset: int) -> str:
    """The word `offset` away from the `n`th, or "<>" past either end."""
    at = n + offset
    return words[at] if 0 <= at < len(words) else "<>"


def _clusters(vectors: np.ndarray, centroids: np.ndarray, lower: Sequence[str]) -> list[str]:
    """Each word's nearest centroid ("x" for a punctuation mark)."""
    if not len(lower):
        return []
    nearest = (vectors @ centroids.T).argmax(axis=1).tolist()
    return [str(c) if word[:1].isalnum() else "x" for word, c in zip(lower, nearest, strict=True)]


def _asking_sentences(text: str, tokens: Sequence[Token]) -> list[bool]:
    """For each token, whether the sentence it is in ends with a question mark."""
    asking, sentence_start = [False] * len(tokens), 0
    for n, token in enumerate(tokens):
        if token.text in (".", "!", "?") or n == len(tokens) - 1:
            if token.text == "?":
                asking[sentence_start : n + 1] = [True] * (n + 1 - sentence_start)
            sentence_start = n + 1
    return asking


def value_tags(text: str, tokens: Sequence[Token], values: Sequence[tuple[str, str]]) -> list[str]:
    """The B-/I-/O tags of the text's tokens for its labelled (slot, value) pairs: each value at
    its first place in the text not tagged yet (case-insensitive, apostrophes optional: a label
    "dont use emojis" is "don't use emojis" once chat's spelling is read back); a value not
    found leaves its words untagged."""
    tags = ["O"] * len(tokens)
    for slot, value in values:
        pattern = "".join(
            re.escape(ch) + ("['’]?" if ch.isalpha() else "") for ch in value.replace("’", "'")
        )
        for match in re.finditer(pattern, text, re.IGNORECASE):
            inside = [
                n
                for n, token in enumerate(tokens)
                if token.start >= match.start() and token.end <= match.end()
            ]
            if inside and all(tags[n] == "O" for n in inside):
                for k, n in enumerate(inside):
                    tags[n] = f"{'B' if k == 0 else 'I'}-{slot}"
                break
    return tags


class SlotTagger:
    """The trained field, the word clusters it reads with, and the sequence reader whose surest
    values it adds where the field tagged nothing it is sure of (`app.facts.sequence`)."""

    def __init__(
        self,
        embedder: Embedder,
        centroids: np.ndarray,
        model: Path,
        sequence: SequenceReader | None = None,
    ) -> None:
        self.embedder = embedder
        self.centroids = centroids
        self.sequence = sequence
        self._model = model
        self._local = threading.local()
        """CRFsuite's tagger holds the sequence it tags: one per thread."""

    @classmethod
    def for_embedder(
        cls,
        embedder: Embedder | None,
        model: Path = TAGGER_FILE,
        words: Path = WORDS_FILE,
        sequence: Path | None = SEQUENCE_FILE,
    ) -> SlotTagger | None:
        """The tagger, if its word clusters are of this embedder's model; None otherwise. With
        the sequence reader of `sequence` beside it when that reads the same model's vectors
        (`None`: the field alone)."""
        if embedder is None:
            return None
        with np.load(words) as trained:
            about = TaggerAbout.model_validate_json(str(trained["about"]))
            if about.model != embedder.name:
                return None
            centroids = trained["centroids"].astype(np.float32)
        reader = None if sequence is None else SequenceReader.for_embedder(embedder, sequence)
        return cls(embedder, centroids, model, reader)

    def _tagger(self) -> pycrfsuite.Tagger:
        tagger = getattr(self._local, "tagger", None)
        if tagger is None:
            tagger = self._local.tagger = pycrfsuite.Tagger()
            tagger.open(str(self._model))
        return tagger

    def tag(self, text: str) -> list[Tagged]:
        """The values the text states, in order, with the confidence in each: the field's, and
        the sequence reader's at `SEQUENCE_CONFIDENCE` where the field tagged none of their
        words at `TAGGED_CONFIDENCE` (in a text of at most `LONGEST` words): a value the field
        is unsure of is not kept, so it does not stand in the way of one the network is sure of."""
        tokens = tokens_of(text)
        if not tokens:
            return []
        vectors = word_vectors(self.embedder, lowered(tokens))
        features = word_features(self.embedder, self.centroids, text, tokens, vectors)
        found = self._field_values(text, tokens, features)
        if self.sequence is not None and len(tokens) <= LONGEST:
            inputs = sequence_inputs(vectors, [token.text for token in tokens], features)
            for slot, first, last, confidence in self.sequence.spans(inputs):
                start, end = tokens[first].start, tokens[last].end
                if confidence < SEQUENCE_CONFIDENCE or any(
                    value.start < end
                    and start < value.end
                    and value.confidence >= TAGGED_CONFIDENCE
                    for value in found
                ):
                    continue
                found.append(Tagged(slot, start, end, text[start:end], confidence))
        return sorted(found, key=lambda value: value.start)

    def _field_values(
        self, text: str, tokens: Sequence[Token], features: list[list[str]]
    ) -> list[Tagged]:
        tagger = self._tagger()
        tagger.set(features)
        labels = tagger.tag()
        found: list[Tagged] = []
        run: list[int] = []
        for n, label in enumerate([*labels, "O"]):
            continues = bool(run) and label.startswith("I-") and labels[run[0]][2:] == label[2:]
            if run and not continues:
                slot = labels[run[0]][2:]
                start, end = tokens[run[0]].start, tokens[run[-1]].end
                confidence = min(tagger.marginal(labels[k], k) for k in run)
                found.append(Tagged(slot, start, end, text[start:end], confidence))
                run = []
            if label != "O" and (not run or continues):
                run.append(n)
        return found


@lru_cache
def current_tagger() -> SlotTagger | None:
    """The tagger for this process's embedder; None without meaning (the patterns alone)."""
    return SlotTagger.for_embedder(current_embedder())
