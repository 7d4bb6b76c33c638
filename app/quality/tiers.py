"""Quality: which engine answers each question, and at what temperature. Pure, no I/O.

A tenant chooses `fast` (the engine answers everything), `balanced` (a question whose top
probability, after the rules, is under the second-tier threshold is asked again of the second-tier
engine) or `best` (the second tier answers every question it can: all but box questions). The
tenant temperature is applied to what the engine answers, not to a second-tier answer nor to the
engine's own answer shown beside it (`first`), as the seed says.

The answer says which tier answered each question. The compare, explain and placebo passes stay
with the first engine, so a move is never a mix of two models; where the second tier answered,
they are measured on the first engine's answer (`measured_on_first`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from app.engines.distribution import temper, top_probability
from app.engines.wire import Answer
from app.rules.exclusions import ExclusionPlan, apply_exclusions

QualityLevel = Literal["fast", "balanced", "best"]
Tier = Literal["first", "second"]


@dataclass(frozen=True, slots=True)
class QualitySetting:
    level: QualityLevel = "fast"
    temperature: float = 1.0


def second_tier_questions(
    level: QualityLevel, first: Mapping[str, Answer], threshold: float
) -> list[str]:
    """The questions to ask the second tier, given the first engine's answers after the rules."""
    if level == "fast":
        return []
    asked = []
    for name, answer in first.items():
        top = top_probability(answer)
        if top is not None and (level == "best" or top < threshold):
            asked.append(name)
    return asked


@dataclass(frozen=True)
class TieredAnswer:
    """The answer shown, which tier gave each question, and the first engine's own answer for
    the questions the second tier gave."""

    shown: dict[str, Answer]
    tiers: dict[str, Tier]
    first: dict[str, Answer]


def shown_answers(
    raw_first: Mapping[str, Answer],
    raw_second: Mapping[str, Answer],
    exclusions: ExclusionPlan,
    temperature: float,
) -> TieredAnswer:
    """The answer shown: the first engine's, tempered, where the second tier was not asked; the
    second tier's, untempered, where it was. Rules apply to both."""
    tempered = {name: temper(answer, temperature) for name, answer in raw_first.items()}
    shown = apply_exclusions(tempered, exclusions)
    tiers: dict[str, Tier] = {name: "first" for name in raw_first}
    first: dict[str, Answer] = {}
    if raw_second:
        untempered = apply_exclusions(raw_first, exclusions)
        second = apply_exclusions(raw_second, exclusions)
        for name in raw_second:
            shown[name] = second[name]
            tiers[name] = "second"
            first[name] = untempered[name]
    return TieredAnswer(shown, tiers, first)


def quality_block(setting: QualitySetting, answer: TieredAnswer) -> dict[str, object]:
    return {
        "level": setting.level,
        "temperature": setting.temperature,
        "tiers": answer.tiers,
        "first": {name: a.model_dump() for name, a in answer.first.items()},
    }
