"""What Dossier needs from a decision engine, and how much of a state each question reads.

An engine answers System One questions about states. Dossier places memory lines in the state
before asking, so it must know how much the engine reads (its window, in the engine's own tokens)
to report honestly which lines were read. Every engine therefore declares `read_window_tokens` and
counts tokens the way it reads them.

A choice of more than `MATCHED_CHOICE_OPTIONS` options is answered by the engine's matching model,
which reads at most `MATCHED_READ_TOKENS` tokens: with such a question in a request, fewer lines
are read, and `read_window_for` says how many tokens that leaves.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Protocol

from app.engines.wire import Answer, ChoiceQuestion, Question, State

MATCHED_CHOICE_OPTIONS = 20
"""A choice with more options than this is answered by the engine's matching model."""

MATCHED_READ_TOKENS = 512
"""How many tokens of the state the matching model reads."""


class Engine(Protocol):
    name: str
    read_window_tokens: int
    """How many tokens of the serialised state the engine reads (see `read_window_for`)."""

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` as this engine counts them against its window."""
        ...

    def models(self) -> list[str]:
        """The model names this engine answers with; the first is its default."""
        ...

    def answer(
        self, model: str, states: Sequence[State], questions: Mapping[str, Question]
    ) -> list[dict[str, Answer]]:
        """Answer every question about every state, one dict of answers per state, in order.

        Several states go in one call because the explain and placebo passes ask about variants
        of the same state together, and an engine can answer them more cheaply at once.

        Raises:
            Invalid: a question this engine cannot answer (a box question without images).
            UpstreamFailed, UpstreamTimeout: a remote engine failed or did not answer in time.
        """
        ...


def is_matched_choice(question: Question) -> bool:
    """Whether the engine's matching model (with its shorter read) answers this question."""
    return isinstance(question, ChoiceQuestion) and len(question.criteria) > MATCHED_CHOICE_OPTIONS


def question_window(read_window_tokens: int, question: Question) -> int:
    """Tokens of the state one question reads, on an engine that reads `read_window_tokens`."""
    if is_matched_choice(question):
        return min(read_window_tokens, MATCHED_READ_TOKENS)
    return read_window_tokens


def read_window_for(engine: Engine, questions: Mapping[str, Question]) -> int:
    """Tokens of the state that every question of the request reads.

    A line counts as read only when every question read it, so with a matched choice among the
    questions the window is the matching model's.
    """
    return min(
        (question_window(engine.read_window_tokens, q) for q in questions.values()),
        default=engine.read_window_tokens,
    )


# A token is a run of up to 8 letters or digits (a longer word counts once per 8 characters, as a
# subword tokenizer splits rare long words), one CJK, kana or hangul character, or one mark of
# punctuation. Whitespace is free.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]{{1,8}}|[^\w\s]|_")


def token_spans(text: str) -> list[tuple[int, int]]:
    """Start and end of every token in `text`, for cutting a text at a token boundary."""
    return [m.span() for m in _TOKEN.finditer(text)]


def count_word_tokens(text: str) -> int:
    """Dossier's deterministic token count: words (in pieces of 8 characters), CJK characters
    and punctuation marks, one token each. English prose comes out close to a BPE tokenizer."""
    return sum(1 for _ in _TOKEN.finditer(text))


def estimate_subword_tokens(text: str) -> int:
    """A cautious estimate of a remote engine's (unknown) subword tokenizer.

    Counting high only makes placement leave a line out that might have fitted, while counting
    low would report a line as read that the engine never saw.
    """
    return max(count_word_tokens(text), math.ceil(len(text.encode("utf-8")) / 4))
