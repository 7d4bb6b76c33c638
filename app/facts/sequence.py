"""A second slot tagger that reads a message as one sequence: a bidirectional LSTM, in numpy.

The slot tagger's field (`app.facts.tagger`) is a conditional random field over sparse features:
a word, its neighbours up to three away, its cluster of meaning. It misses most where a value is
a phrase whose slot is said far from it or in words it has not seen together (a quarter of the
tuning sets unseen, it found 45% of duties and habits). A recurrent network reads the whole
message left to right and right to left over the words' vectors (the packaged static model's),
so what decides a word's slot may be anywhere in the message. Alone it is less precise than the
field, so it only adds: its values at `SEQUENCE_CONFIDENCE` where the field tagged none of their
words with the confidence it keeps a value at (see the constant).

Trained at build time with torch by ops/models/build_sequence.py on the everyday tuning sets
(never a held-out set); run here with numpy alone (no torch at run time): one matrix product for
every word's input, then a step per word in each direction.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from app.embeddings.base import Embedder

SEQUENCE_FILE = Path(__file__).parent / "sequence_model.npz"

SEQUENCE_CONFIDENCE = 0.75
"""A value the sequence reader tags is added where the field tagged none of its words when the
network's probability of each of its words' tags is at least this. Chosen on the tuning sets'
first quarter (14 sets, 4,092 facts), the network and the field trained on the other three
quarters, through the whole extractor: the field alone found 3,216 of 4,092 (precision 0.889);
with the network's values at 0.9, 0.75 and 0.6 3,230, 3,256 and 3,273 (precision 0.888, 0.887
and 0.883), chatter messages kept 36 throughout: the added values right 14 of 18, 40 of 54 and
57 of 86, the last step's own 17 of 32. 0.75 is the loosest whose added values are right seven
times in ten, the bar of the field's `TAGGED_CONFIDENCE`. Over all four quarters at 0.75: 11,602
-> 11,710 of 14,570 facts (recall 0.796 -> 0.804), precision 0.885 -> 0.883, the added values
right 108 of 145, chatter messages kept 164 either way. On the held-out sets, which it never
learned from, they are right about half the time (21 of 40): see the README.

Since session 20 a field value below `TAGGED_CONFIDENCE`, which is never kept, no longer stands
in the way of the network's value over the same words ("im a java dev at Allegro": the field's
"java dev" as a tool at 0.41, the network's as a role at 0.92). Over the four quarters (the
readers, field and network retrained per quarter, 56 sets): 11,707 -> 11,760 of 14,570 facts
at precision 0.883 either way, 53 more right of 59 more kept, chatter messages kept 164 either
way; on the held-out sets, measured once after: see the README. 0.6 and 0.7 with it on the first
quarter: the step from 0.75 to 0.7 right 6 of 13, to 0.6 27 of 47, so 0.75 stays."""

LONGEST = 200
"""Words the network reads at most: a longer message is left to the field. It learned from
messages of at most 117 words, and its steps are Python's (a pasted 20,000-character message of
5,000 words would take a third of a second)."""

FLAGS = (
    "cap",
    "first",
    "place",
    "rare",
    "first_person_before",
    "clause_first_person",
    "someone_near",
    "asks",
    "occupation",
    "nationality",
    "tool",
    "-1cap=True",
    "1cap=True",
)
"""The field's yes/no features (`app.facts.tagger.word_features`) the network reads beside each
word's vector."""


class SequenceAbout(BaseModel):
    """What ops/models/build_sequence.py says of the trained network."""

    model: str
    """The embedder whose word vectors it reads."""
    trained_on: str
    hidden: int
    epochs: int


def sequence_inputs(
    vectors: np.ndarray, words: Sequence[str], features: Sequence[Sequence[str]]
) -> np.ndarray:
    """Each word's input: its vector, the field's flags, and whether it is a mark, holds a
    digit, is all capitals or holds an apostrophe."""
    flags = np.zeros((len(words), len(FLAGS) + 4), dtype=np.float32)
    for n, (word, row) in enumerate(zip(words, features, strict=True)):
        held = set(row)
        flags[n, : len(FLAGS)] = [flag in held for flag in FLAGS]
        flags[n, len(FLAGS) :] = [
            not word[:1].isalnum(),
            any(ch.isdigit() for ch in word),
            word.isupper() and len(word) > 1,
            "'" in word or "’" in word,
        ]
    return np.concatenate([vectors.astype(np.float32), flags], axis=1)


class SequenceReader:
    """The trained network: a one-layer bidirectional LSTM and a linear layer to the tags, its
    weights in torch's layout (gates input, forget, cell, output)."""

    def __init__(self, embedder: Embedder, weights: dict[str, np.ndarray], tags: list[str]):
        self.embedder = embedder
        self.tags = tags
        self._forward = self._direction(weights, "")
        self._backward = self._direction(weights, "_reverse")
        self._out = weights["out.weight"].T.astype(np.float32)
        self._out_bias = weights["out.bias"].astype(np.float32)

    @staticmethod
    def _direction(
        weights: dict[str, np.ndarray], suffix: str
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One direction's input and hidden weights and bias, its cell gate's columns doubled
        so that one sigmoid opens every gate (tanh(x) = 2 sigmoid(2x) - 1)."""
        bias = weights[f"lstm.bias_ih_l0{suffix}"] + weights[f"lstm.bias_hh_l0{suffix}"]
        size = len(bias) // 4
        doubled = np.ones(4 * size, dtype=np.float32)
        doubled[2 * size : 3 * size] = 2.0
        inputs = weights[f"lstm.weight_ih_l0{suffix}"].T.astype(np.float32) * doubled
        hidden = weights[f"lstm.weight_hh_l0{suffix}"].T.astype(np.float32) * doubled
        return inputs, hidden, bias.astype(np.float32) * doubled

    @classmethod
    def for_embedder(cls, embedder: Embedder, path: Path = SEQUENCE_FILE) -> SequenceReader | None:
        """The network, if it reads this embedder's word vectors; None otherwise."""
        with np.load(path) as trained:
            about = SequenceAbout.model_validate_json(str(trained["about"]))
            if about.model != embedder.name:
                return None
            weights = {key: trained[key] for key in trained.files if key not in ("about", "tags")}
            return cls(embedder, weights, [str(tag) for tag in trained["tags"]])

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        """Each word's probability of each tag (rows: words; columns: `tags`)."""
        forward = self._run(inputs, self._forward)
        backward = self._run(inputs[::-1], self._backward)[::-1]
        logits = np.concatenate([forward, backward], axis=1) @ self._out + self._out_bias
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        result: np.ndarray = odds / odds.sum(axis=1, keepdims=True)
        return result

    @staticmethod
    def _run(
        inputs: np.ndarray, direction: tuple[np.ndarray, np.ndarray, np.ndarray]
    ) -> np.ndarray:
        """The hidden states of one direction over the words: a step per word (gates input,
        forget, cell, output, torch's order)."""
        weights_in, weights_hidden, bias = direction
        size = weights_hidden.shape[0]
        given = inputs.astype(np.float32) @ weights_in + bias
        hidden = np.zeros(size, dtype=np.float32)
        cell = np.zeros(size, dtype=np.float32)
        states = np.empty((len(inputs), size), dtype=np.float32)
        for step, gates in enumerate(given):
            opened = 1.0 / (1.0 + np.exp(-(gates + hidden @ weights_hidden)))
            cell = opened[size : 2 * size] * cell + opened[:size] * (
                2.0 * opened[2 * size : 3 * size] - 1.0
            )
            hidden = opened[3 * size :] * np.tanh(cell)
            states[step] = hidden
        return states

    def spans(self, inputs: np.ndarray) -> list[tuple[str, int, int, float]]:
        """The values the network tags: (slot, first word, last word, confidence), a value
        starting at a B- tag and running over the I- tags of its slot; its confidence the lowest
        probability of its words' tags."""
        probabilities = self.probabilities(inputs)
        best = probabilities.argmax(axis=1)
        labels = [self.tags[k] for k in best]
        found: list[tuple[str, int, int, float]] = []
        run: list[int] = []
        for n, label in enumerate([*labels, "O"]):
            continues = bool(run) and label == f"I-{labels[run[0]][2:]}"
            if run and not continues:
                confidence = float(min(probabilities[k, best[k]] for k in run))
                found.append((labels[run[0]][2:], run[0], run[-1], confidence))
                run = []
            if label.startswith("B-") or continues:
                run.append(n)
        return found
