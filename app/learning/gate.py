"""The gate of learned memory: what in a request is a lasting fact worth keeping. Pure.

The gate reads the request's own sentences, one state each, never the engine's answer: an answer
that relied on an earlier memory would otherwise be learned again as if it were new, and a
generic answer can outweigh a real fact (the cookbook's gotchas). A request's probability is its
best sentence's; the sentences at or above the tenant's threshold become the learned lines.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.recall.placement import MEMORY_KEY
from app.text.content import content_values
from app.text.stopwords import GATE_STOP_WORDS
from app.text.words import index_terms

DEFAULT_INSTRUCTIONS = (
    "Does `request` state a fact about the subject that stays true and should change how "
    "future, unrelated requests about this subject are handled? Count only what the request "
    "states."
)
DEFAULT_TRUE = (
    "Yes: it states something about the subject that stays true after this request: who they "
    "are, their role, job or team, where they live or are based, their family, their health, "
    "diet, allergies or needs; the product, edition or operating system they run or use, what "
    "they own, their plan, contract, subscription or account; or how they always want things "
    "done, a standing preference or instruction; true for good, for years, every time, from now "
    "on."
)
DEFAULT_FALSE = (
    "No: it only holds for this one request or moment: a question or a one-off request (could "
    "you send, resend, book, move or check something; how do I; which would; who is), a problem "
    "happening right now (slow, failing, an error), today's, this week's or next week's plans, "
    "a trip, an absence or a holiday, a temporary arrangement, a mood, thanks or small talk, or "
    "the phone or device they happen to be typing on; true only today, for now, just this once."
)
DEFAULT_THRESHOLD = 0.5

SUPERSEDE_QUESTION: dict[str, Any] = {
    "type": "noul",
    "instructions": (
        "Does `newer` replace `older`: the same fact about the subject, now with another value?"
    ),
    "criteria": {
        "true": (
            "Yes: `newer` says the subject changed, moved, switched, upgraded or migrated, now "
            "uses or no longer uses something, instead of what `older` says."
        ),
        "false": "No: `newer` is about something else, or adds to `older` without changing it.",
    },
}

MIN_WORDS = 4
MAX_SENTENCES = 20
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


@dataclass(frozen=True)
class GateWording:
    instructions: str = DEFAULT_INSTRUCTIONS
    true: str = DEFAULT_TRUE
    false: str = DEFAULT_FALSE

    def question(self) -> dict[str, Any]:
        return {
            "type": "noul",
            "instructions": self.instructions,
            "criteria": {"true": self.true, "false": self.false},
        }


def candidate_sentences(state: Any) -> list[str]:
    """The request's sentences the gate reads: text values of the state (placed memory lines
    left out), split into sentences of at least MIN_WORDS words, each once, at most
    MAX_SENTENCES."""
    if isinstance(state, dict):
        state = {key: value for key, value in state.items() if key != MEMORY_KEY}
    found: list[str] = []
    for value in content_values(state):
        for sentence in _SENTENCE_END.split(value.strip()):
            sentence = sentence.strip()
            if len(sentence.split()) >= MIN_WORDS and sentence not in found:
                found.append(sentence)
    return found[:MAX_SENTENCES]


def gate_states(sentences: Sequence[str]) -> list[dict[str, str]]:
    return [{"request": sentence} for sentence in sentences]


def lasting_lines(
    sentences: Sequence[str], probabilities: Sequence[float], threshold: float
) -> list[str]:
    return [s for s, p in zip(sentences, probabilities, strict=True) if passes(p, threshold)]


def passes(probability: float, threshold: float) -> bool:
    """P at or above the threshold. Exactly one half is no answer (an engine that saw nothing
    either way, as the embedded one says when no word of the sentence bears on the question),
    and nothing is learned from no answer, whatever the threshold."""
    return probability >= threshold and probability != UNDECIDED


UNDECIDED = 0.5


SURE = 1e-6
"""How close to 0 or 1 an engine's answer is taken to be at most (its logit stays finite)."""


def combined(engine_probability: float, lasting_logit: float) -> float:
    """The engine's answer to the wording and the lasting probe's, as one probability: their
    logits added (two independent opinions on the same odds). The engine's undecided 0.5 adds
    nothing, so the probe alone speaks then."""
    p = min(max(engine_probability, SURE), 1 - SURE)
    return 1 / (1 + math.exp(-(math.log(p / (1 - p)) + lasting_logit)))


def request_probability(probabilities: Sequence[float]) -> float:
    """P(the request states a lasting fact): its most lasting sentence's, among the sentences
    the engine decided on (UNDECIDED when it decided on none)."""
    return max((p for p in probabilities if p != UNDECIDED), default=UNDECIDED)


def may_replace(newer: str, older: str, *, min_shared: int = 2) -> bool:
    """Whether two learned lines share enough words to be about the same thing, so that the
    supersession question is worth asking (and asked only of those)."""
    shared = set(_content(newer)) & set(_content(older))
    return len(shared) >= min_shared


def supersede_state(newer: str, older: str) -> dict[str, str]:
    return {"older": older, "newer": newer}


def _content(text: str) -> list[str]:
    return [term for term in index_terms(text) if term not in GATE_STOP_WORDS]


# Calibration --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    threshold: float
    fit_size: int
    held_out_size: int
    precision: float | None
    recall: float | None


def split(count: int, held_out_share: float, seed: int) -> tuple[list[int], list[int]]:
    """A reproducible split of example indices into (fit, held out); both keep one example."""
    order = list(range(count))
    random.Random(seed).shuffle(order)
    held = max(1, min(count - 1, round(count * held_out_share)))
    return sorted(order[held:]), sorted(order[:held])


def best_threshold(scored: Sequence[tuple[float, bool]]) -> float:
    """The threshold that best separates the labelled scores: highest F1, then accuracy, then
    the higher threshold (fewer facts kept when it makes no difference)."""
    candidates = sorted({round(p, 6) for p, _ in scored} | {DEFAULT_THRESHOLD})

    def quality(threshold: float) -> tuple[float, float, float]:
        precision, recall = precision_recall(scored, threshold)
        f1 = 0.0
        if precision and recall:
            f1 = 2 * precision * recall / (precision + recall)
        accuracy = sum(passes(p, threshold) == label for p, label in scored) / len(scored)
        return f1, accuracy, threshold

    return max(candidates, key=quality)


def precision_recall(
    scored: Sequence[tuple[float, bool]], threshold: float
) -> tuple[float | None, float | None]:
    kept = [label for p, label in scored if passes(p, threshold)]
    positives = sum(label for _, label in scored)
    precision = sum(kept) / len(kept) if kept else None
    recall = sum(kept) / positives if positives else None
    return precision, recall
