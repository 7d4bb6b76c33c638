"""The embedded default engine: a zero-shot lexical scorer, offline, stdlib only, deterministic.

It exists so that Dossier works with no engine to call, and so that what memory does can be seen
and tested: it is good enough that a memory line changes an answer the way it should, not a
substitute for a real model. It has no weights and learns nothing.

How it answers. Every option of a question (a choice's option: its name's words and its
description; a score's level; a noul's yes and no) becomes a bag of terms: the words folded as
recall folds them (`app.text.words`), stop words dropped, a two-part hyphenated word kept as one
("self-hosted" → selfhosted, so it shares nothing with "self-serve"), light suffix stripping and a
cut to six letters ("upgrades", "upgrading" → upgrad), plus each pair of neighbouring words, so a
phrase ("cloud edition") counts for more than its words apart. A term weighs more the fewer
options share it (log(1 + options / options with the term)), so words that tell options apart
count and words every option has do not; the terms of an option's name count double. The state
is read as text (JSON values, not keys) and split into sentences; each sentence and each memory
line is compared with each option by cosine similarity over the terms some option has (names,
dates and ids tell no option apart, so they neither count nor dilute). An option's evidence is
half its best and half its mean similarity over the sentences that share a term with some option,
plus half its best similarity over the memory lines: memory counts, but less than what the state
itself says. A softmax with a fixed temperature turns evidence into probabilities; when nothing
matches, every option is equally likely, the first one is chosen, and confidence is 0.

Memory lines are the lines under "dossier_memory" (a key of an object state, or the only key of
an array's first element). In a string state Dossier's lines are just more text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.decisions.wire import (
    Answer,
    BoxQuestion,
    ChoiceAnswer,
    ChoiceQuestion,
    NoulAnswer,
    NoulQuestion,
    Question,
    ScoreAnswer,
    ScoreQuestion,
    State,
)
from app.engines.base import count_word_tokens, question_window, token_spans
from app.errors import Invalid
from app.text.content import content_text, content_values
from app.text.words import index_terms, split_words

MODEL = "dossier-lexical-1"
MEMORY_KEY = "dossier_memory"

READ_WINDOW_TOKENS = 4096
STEM_LENGTH = 6
LABEL_WEIGHT = 2.0
"""An option's name says what it is for more surely than the words of its description."""
MEMORY_WEIGHT = 0.5
TEMPERATURE = 0.05
"""Evidence is about a cosine; at 0.05 a lead of 0.1 makes an option about 7 times likelier."""

STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing don down during each either few
    for from further get got had has have having he her here hers herself him himself his how hi
    hello i if in into is it its itself just let me more most my myself no nor not now of off on
    once only or other our ours ourselves out over own per please same she should so some such
    than thank thanks that the their theirs them themselves then there these they this those
    through to too under until up us very via was we were what when where which while who whom
    whose why will with would yes yet you your yours yourself yourselves""".split()
)


class EmbeddedEngine:
    """Answers choice, noul and score questions from the words of the state and its memory."""

    name = "embedded"
    read_window_tokens = READ_WINDOW_TOKENS

    def count_tokens(self, text: str) -> int:
        """Words (in pieces of 8 characters), CJK characters and punctuation marks."""
        return count_word_tokens(text)

    def models(self) -> list[str]:
        return [MODEL]

    def answer(
        self, model: str, states: Sequence[State], questions: Mapping[str, Question]
    ) -> list[dict[str, Answer]]:
        """Answer every question about every state.

        `model` is accepted whatever it names: the embedded engine has one model, and a client
        built for a hosted engine (which defaults to its own model name) should still work.
        """
        for name, question in questions.items():
            if isinstance(question, BoxQuestion):
                raise Invalid(
                    "the embedded engine reads text only and cannot answer box questions",
                    field=f"questions.{name}.type",
                )
        return [self._answer_state(state, questions) for state in states]

    def _answer_state(self, state: State, questions: Mapping[str, Question]) -> dict[str, Answer]:
        readings: dict[int, Reading] = {}
        answers: dict[str, Answer] = {}
        for name, question in questions.items():
            window = question_window(self.read_window_tokens, question)
            if window not in readings:
                readings[window] = read_state(state, window)
            answers[name] = _answer_question(question, readings[window])
        return answers


# --- reading the state ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    text: str
    memory: bool


@dataclass(frozen=True)
class Reading:
    """What the engine read of one state: memory lines and the state's own sentences."""

    memory_lines: tuple[str, ...]
    sentences: tuple[str, ...]


def read_state(state: State, window: int) -> Reading:
    """The memory lines and sentences within the first `window` tokens of a string or an object,
    or the last `window` tokens of an array (an array's newest elements come last).

    Only values are read and counted: keys and JSON punctuation are free, so a count over the
    serialised state is never lower than the engine's.
    """
    pieces, from_end = _pieces(state)
    pieces = _within(pieces, window, from_end)
    memory = tuple(p.text for p in pieces if p.memory)
    sentences = tuple(s for p in pieces if not p.memory for s in _sentences(p.text))
    return Reading(memory, sentences)


def _pieces(state: State) -> tuple[list[Piece], bool]:
    if isinstance(state, str):
        return [Piece(state, memory=False)], False
    if isinstance(state, dict):
        rest = {k: v for k, v in state.items() if k != MEMORY_KEY}
        return [*_memory_pieces(state.get(MEMORY_KEY)), *_value_pieces(rest)], False
    if state and isinstance(state[0], dict) and set(state[0]) == {MEMORY_KEY}:
        return [*_memory_pieces(state[0][MEMORY_KEY]), *_value_pieces(state[1:])], True
    return list(_value_pieces(state)), True


def _memory_pieces(lines: Any) -> Iterator[Piece]:
    for text in content_values(lines):
        for line in text.splitlines():
            if line.strip():
                yield Piece(line.strip(), memory=True)


def _value_pieces(value: Any) -> Iterator[Piece]:
    for text in content_values(value):
        yield Piece(text, memory=False)


def _within(pieces: list[Piece], window: int, from_end: bool) -> list[Piece]:
    """The pieces, cut at a token boundary, that fit in `window` from the start (or the end)."""
    budget = window
    kept: list[Piece] = []
    for piece in reversed(pieces) if from_end else pieces:
        spans = token_spans(piece.text)
        if len(spans) <= budget:
            kept.append(piece)
            budget -= len(spans)
            continue
        if budget > 0:
            text = piece.text
            cut = text[spans[-budget][0] :] if from_end else text[: spans[budget - 1][1]]
            kept.append(Piece(cut, piece.memory))
        break
    return kept[::-1] if from_end else kept


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


# --- terms ---------------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def terms(text: str) -> tuple[str, ...]:
    """The distinct comparable terms of `text`: its words and pairs of neighbouring words."""
    words: list[str] = []
    for word in split_words(text):
        parts = [p for p in index_terms(word.text) if p not in STOP_WORDS]
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


# --- scoring -------------------------------------------------------------------------------------


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

    def evidence(self, reading: Reading) -> list[float]:
        """Each option's evidence: half the best and half the mean similarity over the state's
        sentences that share a term with some option, plus `MEMORY_WEIGHT` times the best
        similarity over the memory lines."""
        evidence = [0.0] * self.size
        per_sentence = [sims for sims in map(self.similarities, reading.sentences) if any(sims)]
        for i in range(self.size) if per_sentence else ():
            column = [sims[i] for sims in per_sentence]
            evidence[i] += 0.5 * max(column) + 0.5 * math.fsum(column) / len(column)
        per_line = [self.similarities(line) for line in reading.memory_lines]
        for i in range(self.size) if per_line else ():
            evidence[i] += MEMORY_WEIGHT * max(sims[i] for sims in per_line)
        return evidence


def softmax(evidence: Sequence[float]) -> list[float]:
    top = max(evidence)
    exps = [math.exp((e - top) / TEMPERATURE) for e in evidence]
    total = sum(exps)
    return [x / total for x in exps]


def confidence(probabilities: Sequence[float]) -> float:
    """How far the likeliest option stands above chance: 0 when all are equal, 1 when certain."""
    count = len(probabilities)
    if count < 2:
        return 1.0
    return max(0.0, (max(probabilities) - 1 / count) / (1 - 1 / count))


def _answer_question(question: Question, reading: Reading) -> Answer:
    if isinstance(question, ChoiceQuestion):
        return _answer_choice(question, reading)
    if isinstance(question, NoulQuestion):
        return _answer_noul(question, reading)
    if isinstance(question, ScoreQuestion):
        return _answer_score(question, reading)
    raise Invalid("the embedded engine cannot answer this question type")


def _answer_choice(question: ChoiceQuestion, reading: Reading) -> ChoiceAnswer:
    labels = list(question.criteria)
    space = _option_space(
        tuple((label, content_text(question.criteria[label])) for label in labels)
    )
    probabilities = softmax(space.evidence(reading))
    best = max(range(len(labels)), key=lambda i: probabilities[i])
    return ChoiceAnswer(
        choice=labels[best],
        confidence=_round(confidence(probabilities)),
        probabilities={label: _round(p) for label, p in zip(labels, probabilities, strict=True)},
    )


def _answer_noul(question: NoulQuestion, reading: Reading) -> NoulAnswer:
    """Yes is the instructions and the true outcome; no is the false outcome, or nothing."""
    criteria = question.criteria
    yes = "\n".join(
        (content_text(question.instructions), content_text(criteria.true if criteria else None))
    )
    no = content_text(criteria.false if criteria else None)
    space = _option_space((("", yes), ("", no)))
    p_yes, _ = softmax(space.evidence(reading))
    return NoulAnswer(noul=_round(p_yes))


def _answer_score(question: ScoreQuestion, reading: Reading) -> ScoreAnswer:
    levels = tuple(("", content_text(level)) for level in question.criteria)
    probabilities = softmax(_option_space(levels).evidence(reading))
    return ScoreAnswer(
        score=_round(sum(i * p for i, p in enumerate(probabilities))),
        confidence=_round(confidence(probabilities)),
        legend={str(i): level for i, level in enumerate(question.criteria)},
        probabilities={str(i): _round(p) for i, p in enumerate(probabilities)},
    )


@lru_cache(maxsize=256)
def _option_space(options: tuple[tuple[str, str], ...]) -> OptionSpace:
    """Options as (name, description) pairs; cached because the same question is asked often."""
    return OptionSpace([(label_terms(label), terms(text)) for label, text in options])


def _round(value: float) -> float:
    return round(value, 4)
