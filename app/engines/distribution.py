"""Every answer seen as a probability over named options: pure, no I/O.

Rules, temperature and the compare / explain / placebo passes all work on "how likely is each
option", whatever the question type, so they share one view of an answer:

- choice: its options are the criteria's names, as the engine gave their probabilities;
- noul: two options, "true" (the probability of yes, `noul`) and "false" (1 - noul);
- score: its levels by index, "0", "1", … as in `probabilities`;
- box: no options (a box is a place, not a probability), so nothing here changes it.

`with_probabilities` turns a changed distribution back into the same answer type, so what
leaves Dossier is still a System One answer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from app.engines.wire import Answer, BoxAnswer, ChoiceAnswer, NoulAnswer, ScoreAnswer

NOUL_YES = "true"
NOUL_NO = "false"

PRECISION = 6
"""Decimals kept when Dossier recomputes a probability (renormalised or tempered)."""


def option_probabilities(answer: Answer) -> dict[str, float] | None:
    """The answer's probability per option, in the engine's order; None for a box."""
    if isinstance(answer, ChoiceAnswer | ScoreAnswer):
        return dict(answer.probabilities)
    if isinstance(answer, NoulAnswer):
        return {NOUL_YES: answer.noul, NOUL_NO: 1.0 - answer.noul}
    return None


def chosen_option(answer: Answer) -> str | None:
    """The option the answer stands for: a choice's choice, yes ("true") when a noul is at least
    0.5, a score's likeliest level; None for a box."""
    if isinstance(answer, ChoiceAnswer):
        return answer.choice
    if isinstance(answer, NoulAnswer):
        return NOUL_YES if answer.noul >= 0.5 else NOUL_NO
    if isinstance(answer, ScoreAnswer):
        return _likeliest(answer.probabilities)
    return None


def top_probability(answer: Answer) -> float | None:
    """How sure the answer is of its own option; None for a box."""
    probabilities = option_probabilities(answer)
    return max(probabilities.values()) if probabilities else None


def with_probabilities(answer: Answer, probabilities: Mapping[str, float], possible: int) -> Answer:
    """`answer` with new option probabilities, its choice, score and confidence recomputed.

    `possible` is how many options may still be chosen (all, less those a rule removed): the
    confidence is how far the likeliest stands above chance among them, as the embedded engine
    defines it, since a changed distribution no longer carries the engine's own figure.
    """
    rounded = {option: round(p, PRECISION) for option, p in probabilities.items()}
    if isinstance(answer, ChoiceAnswer):
        return ChoiceAnswer(
            choice=_likeliest(rounded),
            confidence=_above_chance(rounded, possible),
            probabilities=rounded,
        )
    if isinstance(answer, NoulAnswer):
        return NoulAnswer(noul=rounded[NOUL_YES])
    if isinstance(answer, ScoreAnswer):
        return ScoreAnswer(
            score=round(math.fsum(int(level) * p for level, p in rounded.items()), PRECISION),
            confidence=_above_chance(rounded, possible),
            legend=answer.legend,
            probabilities=rounded,
        )
    return answer


def temper(answer: Answer, temperature: float) -> Answer:
    """The answer at a tenant temperature: each probability raised to 1/temperature, then
    renormalised. 1 leaves the answer as the engine gave it; below 1 sharpens, above flattens.

    Dossier applies it after the engine, so it works alike for every engine and every pass, and
    it commutes with an exclusion rule (a removed option stays at 0, the rest keep their ratios).
    """
    probabilities = option_probabilities(answer)
    if temperature == 1.0 or probabilities is None or isinstance(answer, BoxAnswer):
        return answer
    logs = {o: math.log(p) / temperature for o, p in probabilities.items() if p > 0}
    if not logs:
        return answer
    top = max(logs.values())
    powered = {o: math.exp(logs[o] - top) if o in logs else 0.0 for o in probabilities}
    total = math.fsum(powered.values())
    tempered = {o: p / total for o, p in powered.items()}
    return with_probabilities(answer, tempered, possible=len(probabilities))


def _likeliest(probabilities: Mapping[str, float]) -> str:
    """The likeliest option; on a tie the first, as the engine orders them."""
    best = max(probabilities.values())
    return next(option for option, p in probabilities.items() if p == best)


def _above_chance(probabilities: Mapping[str, float], possible: int) -> float:
    if possible < 2:
        return 1.0
    chance = 1 / possible
    return round(max(0.0, (max(probabilities.values()) - chance) / (1 - chance)), PRECISION)
