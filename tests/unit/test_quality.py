"""Temperature and tiers: pure functions of the answers."""

from __future__ import annotations

import pytest

from app.engines.distribution import temper
from app.engines.wire import Answer, ChoiceAnswer, NoulAnswer, ScoreAnswer
from app.quality.tiers import second_tier_questions, shown_answers
from app.rules.exclusions import ExclusionPlan, Removal


def choice(**probabilities: float) -> ChoiceAnswer:
    best = max(probabilities, key=probabilities.__getitem__)
    return ChoiceAnswer(choice=best, confidence=0.5, probabilities=probabilities)


def test_temperature_one_leaves_the_engine_answer_as_it_is() -> None:
    answer = choice(a=0.7, b=0.3)
    assert temper(answer, 1.0) is answer


def test_a_low_temperature_sharpens_and_a_high_one_flattens() -> None:
    answer = choice(a=0.6, b=0.3, c=0.1)
    sharp, flat = temper(answer, 0.5), temper(answer, 2.0)
    assert isinstance(sharp, ChoiceAnswer) and isinstance(flat, ChoiceAnswer)
    assert sharp.probabilities["a"] == pytest.approx(0.36 / 0.46, abs=1e-6)
    assert flat.probabilities["a"] < 0.6 and flat.choice == "a"
    assert sum(sharp.probabilities.values()) == pytest.approx(1.0)


def test_temperature_on_a_noul_and_a_score() -> None:
    noul = temper(NoulAnswer(noul=0.75), 0.5)
    assert isinstance(noul, NoulAnswer) and noul.noul == pytest.approx(0.9)
    score = temper(
        ScoreAnswer(
            score=0.5,
            confidence=0.0,
            legend={"0": "a", "1": "b"},
            probabilities={"0": 0.5, "1": 0.5},
        ),
        0.3,
    )
    assert isinstance(score, ScoreAnswer) and score.probabilities == {"0": 0.5, "1": 0.5}


def test_fast_never_asks_the_second_tier() -> None:
    answers: dict[str, Answer] = {"q": choice(a=0.34, b=0.33, c=0.33)}
    assert second_tier_questions("fast", answers, 0.9) == []


def test_balanced_asks_again_under_the_threshold_and_best_asks_everything() -> None:
    answers: dict[str, Answer] = {
        "sure": choice(a=0.9, b=0.1),
        "unsure": choice(a=0.5, b=0.5),
        "yes": NoulAnswer(noul=0.55),
    }
    assert second_tier_questions("balanced", answers, 0.6) == ["unsure", "yes"]
    assert second_tier_questions("best", answers, 0.6) == ["sure", "unsure", "yes"]


def test_the_second_tier_answer_is_shown_untempered_with_the_first_beside_it() -> None:
    raw_first: dict[str, Answer] = {"q": choice(a=0.5, b=0.3, c=0.2), "r": choice(x=0.6, y=0.4)}
    raw_second: dict[str, Answer] = {"q": choice(a=0.2, b=0.7, c=0.1)}
    rule = ExclusionPlan({"q": (Removal("c", 1, "No c."),)})
    tiered = shown_answers(raw_first, raw_second, rule, temperature=0.5)
    assert tiered.tiers == {"q": "second", "r": "first"}
    q, first_q, r = tiered.shown["q"], tiered.first["q"], tiered.shown["r"]
    assert isinstance(q, ChoiceAnswer) and isinstance(first_q, ChoiceAnswer)
    assert q.probabilities == pytest.approx({"a": 0.2 / 0.9, "b": 0.7 / 0.9, "c": 0.0}, abs=1e-6)
    assert first_q.probabilities == pytest.approx({"a": 0.625, "b": 0.375, "c": 0.0})
    assert isinstance(r, ChoiceAnswer)
    assert r.probabilities["x"] == pytest.approx(0.36 / 0.52, abs=1e-6)  # tempered
