"""The embedded default engine: a zero-shot scorer of words and meaning, offline and deterministic.

It exists so that Dossier works with no engine to call, and so that what memory does can be seen
and tested: good enough that a memory line changes an answer the way it should, not a substitute
for a model that reasons. It learns nothing.

How it answers. Every option of a question (a choice's option: its name and description; a
score's level; a noul's yes and no) is compared with each sentence of the state and each memory
line in two ways: by the terms they share (`app.engines.lexical`) and by meaning, the cosine of
their vectors from the embeddings layer (`app.engines.meaning`). An option's evidence is what the
state's sentences say for it plus half of what the memory lines say (memory counts, but less than
the request itself), each the sum of the lexical similarity and `MEANING_WEIGHT` times the
centred cosine. A softmax with a fixed temperature turns evidence into probabilities. With words
alone, when nothing matches, every option is equally likely, the first is chosen and confidence is
0; with meaning there is always some lean, and the confidence says how much.

Two models: `dossier-hybrid-1` (words and meaning, the default when meaning is on) and
`dossier-lexical-1` (words alone: what the engine did before meaning, and what it does with
`DOSSIER_EMBEDDINGS=off`). A request naming the lexical model gets it; any other name gets the
default, so a client built for a hosted engine works unchanged.

Memory lines are the lines under "dossier_memory" (a key of an object state, or the only key of
an array's first element). In a string state Dossier's lines are just more text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.embeddings.base import Embedder
from app.engines.base import count_word_tokens, question_window, token_spans
from app.engines.lexical import option_space
from app.engines.meaning import (
    MeaningSpace,
    TextVectors,
    memory_evidence,
    shared_names,
    state_evidence,
    without_names,
)
from app.engines.wire import (
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
from app.errors import Invalid
from app.text.content import content_text, content_values

HYBRID_MODEL = "dossier-hybrid-1"
LEXICAL_MODEL = "dossier-lexical-1"
MEMORY_KEY = "dossier_memory"

READ_WINDOW_TOKENS = 4096
MEMORY_WEIGHT = 0.5
MEANING_WEIGHT = 4.0
"""A centred cosine spans about a quarter of what a term cosine does between options that differ
(0.1 against 0.4); chosen on the tuning sets of ops/bench/decisions.py, with the temperature."""
LEXICAL_TEMPERATURE = 0.05
"""Evidence is about a cosine; at 0.05 a lead of 0.1 makes an option about 7 times likelier."""
HYBRID_TEMPERATURE = 0.1
"""Evidence adds meaning's (scaled) share to the words', so it spans about twice as much."""
HYBRID_NOUL_TEMPERATURE = 0.25
"""A noul's yes and no are long texts whose evidence differs by up to 1: at 0.1 most answers
would be 0.00 or 1.00; at 0.25 a probability still says how far the state leans."""


class EmbeddedEngine:
    """Answers choice, noul and score questions from the words and meaning of the state and its
    memory; `embedder` None is words alone."""

    name = "embedded"
    read_window_tokens = READ_WINDOW_TOKENS

    def __init__(self, embedder: Embedder | None) -> None:
        self._vectors = TextVectors(embedder) if embedder is not None else None
        self._spaces: dict[tuple[str, ...], MeaningSpace] = {}

    def count_tokens(self, text: str) -> int:
        """Words (in pieces of 8 characters), CJK characters and punctuation marks."""
        return count_word_tokens(text)

    def models(self) -> list[str]:
        """The default first: hybrid when meaning is on."""
        return [HYBRID_MODEL, LEXICAL_MODEL] if self._vectors else [LEXICAL_MODEL]

    def answer(
        self, model: str, states: Sequence[State], questions: Mapping[str, Question]
    ) -> list[dict[str, Answer]]:
        """Answer every question about every state.

        `model` is accepted whatever it names: `dossier-lexical-1` answers with words alone,
        any other name with the default, so a client built for a hosted engine (which sends
        its own model name) still works.
        """
        for name, question in questions.items():
            if isinstance(question, BoxQuestion):
                raise Invalid(
                    "the embedded engine reads text only and cannot answer box questions",
                    field=f"questions.{name}.type",
                )
        scorer = Scorer(self._meaning if model != LEXICAL_MODEL else None)
        return [self._answer_state(scorer, state, questions) for state in states]

    def _answer_state(
        self, scorer: Scorer, state: State, questions: Mapping[str, Question]
    ) -> dict[str, Answer]:
        readings: dict[int, Reading] = {}
        answers: dict[str, Answer] = {}
        for name, question in questions.items():
            window = question_window(self.read_window_tokens, question)
            if window not in readings:
                readings[window] = read_state(state, window)
            answers[name] = _answer_question(scorer, question, readings[window])
        return answers

    @property
    def _meaning(self) -> Meaning | None:
        return Meaning(self._vectors, self._spaces) if self._vectors is not None else None


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


# --- scoring -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Meaning:
    """The engine's vectors and its cache of option spaces (one per distinct set of options)."""

    vectors: TextVectors
    spaces: dict[tuple[str, ...], MeaningSpace]

    def space(self, options: tuple[str, ...]) -> MeaningSpace:
        space = self.spaces.get(options)
        if space is None:
            if len(self.spaces) >= CACHED_QUESTIONS:
                self.spaces.clear()
            space = self.spaces[options] = MeaningSpace.build(options, self.vectors)
        return space


CACHED_QUESTIONS = 256
"""Distinct option sets whose vectors are kept; the same questions are asked again and again."""


@dataclass(frozen=True)
class Options:
    """One question's options as both readings see them: (name, text) pairs for the words, and
    the text each option's meaning is taken from."""

    named: tuple[tuple[str, str], ...]
    meant: tuple[str, ...]


@dataclass(frozen=True)
class Scorer:
    """Evidence for options from a reading: words alone (`meaning` None) or words and meaning."""

    meaning: Meaning | None

    def probabilities(
        self, options: Options, reading: Reading, *, noul: bool = False
    ) -> list[float]:
        words = option_space(options.named)
        state = words.state_evidence(reading.sentences)
        memory = words.memory_evidence(reading.memory_lines)
        if self.meaning is None:
            evidence = [s + MEMORY_WEIGHT * m for s, m in zip(state, memory, strict=True)]
            return softmax(evidence, LEXICAL_TEMPERATURE)
        space = self.meaning.space(options.meant)
        names = shared_names(reading.memory_lines)
        sentences = [without_names(text, names) for text in reading.sentences]
        lines = [without_names(text, names) for text in reading.memory_lines]
        similarities = space.similarities(self.meaning.vectors([*sentences, *lines]))
        meant_state = state_evidence(sentences, similarities[: len(sentences)])
        meant_memory = memory_evidence(similarities[len(sentences) :])
        evidence = [
            s + MEANING_WEIGHT * float(ms) + MEMORY_WEIGHT * (m + MEANING_WEIGHT * float(mm))
            for s, m, ms, mm in zip(state, memory, meant_state, meant_memory, strict=True)
        ]
        return softmax(evidence, HYBRID_NOUL_TEMPERATURE if noul else HYBRID_TEMPERATURE)


def softmax(evidence: Sequence[float], temperature: float) -> list[float]:
    top = max(evidence)
    exps = [math.exp((e - top) / temperature) for e in evidence]
    total = sum(exps)
    return [x / total for x in exps]


def confidence(probabilities: Sequence[float]) -> float:
    """How far the likeliest option stands above chance: 0 when all are equal, 1 when certain."""
    count = len(probabilities)
    if count < 2:
        return 1.0
    return max(0.0, (max(probabilities) - 1 / count) / (1 - 1 / count))


def _answer_question(scorer: Scorer, question: Question, reading: Reading) -> Answer:
    if isinstance(question, ChoiceQuestion):
        return _answer_choice(scorer, question, reading)
    if isinstance(question, NoulQuestion):
        return _answer_noul(scorer, question, reading)
    if isinstance(question, ScoreQuestion):
        return _answer_score(scorer, question, reading)
    raise Invalid("the embedded engine cannot answer this question type")


def _answer_choice(scorer: Scorer, question: ChoiceQuestion, reading: Reading) -> ChoiceAnswer:
    labels = list(question.criteria)
    named = tuple((label, content_text(question.criteria[label])) for label in labels)
    meant = tuple(_spaced(label) + ": " + text for label, text in named)
    probabilities = scorer.probabilities(Options(named, meant), reading)
    best = max(range(len(labels)), key=lambda i: probabilities[i])
    return ChoiceAnswer(
        choice=labels[best],
        confidence=_round(confidence(probabilities)),
        probabilities={label: _round(p) for label, p in zip(labels, probabilities, strict=True)},
    )


def _answer_noul(scorer: Scorer, question: NoulQuestion, reading: Reading) -> NoulAnswer:
    """Yes is the instructions and the true outcome (for meaning, the true outcome alone when
    there is one: instructions ask, they do not describe); no is the false outcome, or nothing."""
    criteria = question.criteria
    instructions = content_text(question.instructions)
    true = content_text(criteria.true if criteria else None)
    no = content_text(criteria.false if criteria else None)
    named = (("", "\n".join((instructions, true))), ("", no))
    meant = (true or instructions, no)
    p_yes, _ = scorer.probabilities(Options(named, meant), reading, noul=True)
    return NoulAnswer(noul=_round(p_yes))


def _answer_score(scorer: Scorer, question: ScoreQuestion, reading: Reading) -> ScoreAnswer:
    levels = tuple(("", content_text(level)) for level in question.criteria)
    probabilities = scorer.probabilities(Options(levels, tuple(t for _, t in levels)), reading)
    return ScoreAnswer(
        score=_round(sum(i * p for i, p in enumerate(probabilities))),
        confidence=_round(confidence(probabilities)),
        legend={str(i): level for i, level in enumerate(question.criteria)},
        probabilities={str(i): _round(p) for i, p in enumerate(probabilities)},
    )


def _spaced(label: str) -> str:
    """An option's name as words: `selfhosted_windows`, `selfHostedWindows` → selfhosted windows."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-.]+", " ", label).strip().lower()


def _round(value: float) -> float:
    return round(value, 4)
