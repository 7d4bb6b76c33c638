"""Rules in code: conditions and their facts, which rules act, and exclusions on answers."""

from __future__ import annotations

from typing import Any

import pytest

from app.engines.wire import (
    ChoiceAnswer,
    NoulAnswer,
    ScoreAnswer,
    parse_request,
)
from app.memory.schemas import RuleOut
from app.rules.evaluate import (
    Broken,
    Exclusion,
    Fired,
    NotFired,
    check_condition,
    evaluate_rules,
    fact_line,
    format_number,
    path_problem,
)
from app.rules.exclusions import apply_exclusions, plan_exclusions, remove_options

ORDER = {"order": {"total": 620, "items": [{"price": 12.5}], "note": "rush", "paid": True}}


def when(path: str, op: str, value: float) -> dict[str, Any]:
    return {"path": path, "op": op, "value": value}


def rule(rule_id: int, text: str, **fields: Any) -> RuleOut:
    return RuleOut(id=rule_id, text=text, pin=fields.pop("pin", False), **fields)


def questions(**extra: Any) -> dict[str, Any]:
    body = {
        "model": "m",
        "state": "x",
        "questions": {
            "path": {
                "type": "choice",
                "criteria": {"coins": "gold coins", "stair": "plain stair", "door": "iron door"},
            },
            "risky": {"type": "noul", "instructions": "Is it risky?"},
            "danger": {"type": "score", "criteria": ["none", "some", "deadly"]},
            **extra,
        },
    }
    return dict(parse_request(body).questions)


# --- conditions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "value", "fires"),
    [
        (">", 500, True),
        (">", 620, False),
        (">=", 620, True),
        ("<", 700, True),
        ("<=", 619, False),
        ("==", 620, True),
        ("!=", 620, False),
        ("!=", 1, True),
    ],
)
def test_every_operator_is_computed(op: str, value: float, fires: bool) -> None:
    result = check_condition(when("order.total", op, value), ORDER)
    assert isinstance(result, Fired) is fires
    if not fires:
        assert isinstance(result, NotFired)


def test_a_fired_condition_writes_its_fact() -> None:
    assert fact_line("order.total", ">", 620, 500) == "order.total is 620, more than 500."
    assert fact_line("order.total", ">=", 620.5, 500) == "order.total is 620.5, 500 or more."
    assert fact_line("cart.items", "<", 2, 3) == "cart.items is 2, less than 3."
    assert fact_line("x", "<=", 1, 1) == "x is 1, 1 or less."
    assert fact_line("x", "==", 1, 1) == "x is 1, equal to 1."
    assert fact_line("x", "!=", 2, 1) == "x is 2, not 1."
    assert format_number(500.0) == "500" and format_number(0.25) == "0.25"


def test_a_digit_segment_indexes_an_array() -> None:
    assert check_condition(when("order.items.0.price", "<", 20), ORDER) == Fired(12.5)
    assert check_condition(when("order.items.3.price", "<", 20), ORDER) == NotFired()


@pytest.mark.parametrize(
    "state",
    [ORDER, {"cart": {}}, "order total 620", [{"order": {"total": 620}}], {}],
)
def test_an_absent_path_does_not_fire(state: Any) -> None:
    assert check_condition(when("order.missing", ">", 1), state) == NotFired()
    if state is not ORDER:
        assert check_condition(when("order.total", ">", 1), state) == NotFired()


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("order..total", "empty segment"),
        (".total", "empty segment"),
        ("order.", "empty segment"),
        ("order. total", "space"),
        ("", "empty"),
    ],
)
def test_a_malformed_path_is_broken(path: str, reason: str) -> None:
    result = check_condition(when(path, ">", 1), ORDER)
    assert isinstance(result, Broken) and reason in result.reason
    assert path_problem("order.total") is None


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("order.note", "the string 'rush', not a number"),
        ("order.paid", "the boolean true, not a number"),
        ("order.items", "an array, not a number"),
        ("order", "an object, not a number"),
        ("order.note.length", "the string 'rush', so it has no 'length'"),
    ],
)
def test_a_value_that_is_not_a_number_is_broken(path: str, said: str) -> None:
    result = check_condition(when(path, ">", 1), ORDER)
    assert isinstance(result, Broken) and said in result.reason, result


def test_null_and_numeric_strings_are_not_numbers() -> None:
    assert isinstance(check_condition(when("a", ">", 1), {"a": None}), Broken)
    assert isinstance(check_condition(when("a", ">", 1), {"a": "620"}), Broken)


# --- which rules act -----------------------------------------------------------------------------


def test_pinned_rules_go_first_whatever_the_state_says() -> None:
    rules = [
        rule(1, "Large orders need a manager.", when=when("order.total", ">", 500)),
        rule(2, "Premium support.", pin=True),
        rule(3, "Small orders ship free.", when=when("order.total", "<", 100)),
        rule(4, "VIP on big orders.", pin=True, when=when("order.total", ">", 1000)),
    ]
    outcome = evaluate_rules(rules, ORDER)
    assert [(r.id, r.kind, r.placed) for r in outcome.active] == [
        (2, "pinned", True),
        (4, "pinned", True),  # pinned: sent though its condition does not hold
        (1, "rule", True),
    ]
    assert outcome.facts == ["order.total is 620, more than 500."]
    assert outcome.broken == ()


def test_an_unconditional_exclusion_acts_in_code_and_is_not_sent() -> None:
    coins = {"question": "path", "options": ["coins"]}
    outcome = evaluate_rules([rule(7, "Never take the coins.", exclude=coins)], "any state")
    (active,) = outcome.active
    assert active.placed is False and active.fact is None
    assert outcome.exclusions == [Exclusion(7, "Never take the coins.", "path", ("coins",))]


def test_a_conditional_exclusion_applies_only_when_it_fires() -> None:
    coins = {"question": None, "options": ["coins"]}
    fired = rule(1, "Big order: no coins.", when=when("order.total", ">", 500), exclude=coins)
    quiet = rule(2, "Tiny order: no coins.", when=when("order.total", "<", 5), exclude=coins)
    outcome = evaluate_rules([fired, quiet], ORDER)
    assert [e.rule_id for e in outcome.exclusions] == [1]


def test_a_broken_condition_is_listed_and_does_not_act() -> None:
    bad = rule(9, "Rush orders first.", when=when("order.note", ">", 1), exclude={"options": ["x"]})
    pinned_bad = rule(10, "Pinned.", pin=True, when=when("order..total", ">", 1))
    outcome = evaluate_rules([bad, pinned_bad], ORDER)
    assert [b.id for b in outcome.broken] == [9, 10]
    assert "not a number" in outcome.broken[0].reason
    assert [(r.id, r.exclusion) for r in outcome.active] == [(10, None)]


def test_a_rule_with_neither_pin_when_nor_exclude_does_nothing() -> None:
    assert evaluate_rules([rule(1, "Charge per seat.")], ORDER).active == ()


# --- exclusions ----------------------------------------------------------------------------------


def choice(**probabilities: float) -> ChoiceAnswer:
    best = max(probabilities, key=probabilities.__getitem__)
    return ChoiceAnswer(choice=best, confidence=0.5, probabilities=probabilities)


def test_an_excluded_option_goes_to_zero_and_the_rest_are_renormalised() -> None:
    plan = plan_exclusions(questions(), [Exclusion(1, "No coins.", "path", ("coins",))])
    answers = apply_exclusions({"path": choice(coins=0.6, stair=0.3, door=0.1)}, plan)
    path = answers["path"]
    assert isinstance(path, ChoiceAnswer)
    assert path.probabilities == {"coins": 0.0, "stair": 0.75, "door": 0.25}
    assert path.choice == "stair"
    assert path.confidence == pytest.approx(0.5)  # 0.75 among two possible options
    assert [(r.option, r.rule_text) for r in plan.removed["path"]] == [("coins", "No coins.")]


def test_excluding_every_option_removes_none_and_breaks_the_rule() -> None:
    everything = Exclusion(3, "Never move.", "path", ("coins", "stair", "door"))
    plan = plan_exclusions(questions(), [everything])
    assert plan.removed == {}
    (broken,) = plan.broken
    assert broken.id == 3 and broken.question == "path"
    assert "every option of question 'path'" in broken.reason


def test_two_rules_that_together_remove_everything_break_the_later_one() -> None:
    first = Exclusion(1, "No coins.", "path", ("coins",))
    second = Exclusion(2, "No stair, no door.", "path", ("stair", "door"))
    plan = plan_exclusions(questions(), [first, second])
    assert [r.option for r in plan.removed["path"]] == ["coins"]
    assert [b.id for b in plan.broken] == [2]


def test_a_null_question_applies_to_every_question_with_the_options() -> None:
    extra = {"exit": {"type": "choice", "criteria": {"coins": "a", "window": "b"}}}
    plan = plan_exclusions(questions(**extra), [Exclusion(1, "No coins.", None, ("coins",))])
    assert set(plan.removed) == {"path", "exit"}


def test_options_a_question_does_not_have_and_absent_questions_are_passed_over() -> None:
    plan = plan_exclusions(
        questions(),
        [Exclusion(1, "x", "path", ("window",)), Exclusion(2, "y", "elsewhere", ("coins",))],
    )
    assert plan.removed == {} and plan.broken == ()


def test_a_noul_excludes_true_or_false() -> None:
    qs = questions()
    no_yes = plan_exclusions(qs, [Exclusion(1, "Never risky.", "risky", ("true",))])
    answer = apply_exclusions({"risky": NoulAnswer(noul=0.8)}, no_yes)["risky"]
    assert isinstance(answer, NoulAnswer) and answer.noul == 0.0
    no_no = plan_exclusions(qs, [Exclusion(1, "Always risky.", "risky", ("false",))])
    answer = apply_exclusions({"risky": NoulAnswer(noul=0.2)}, no_no)["risky"]
    assert isinstance(answer, NoulAnswer) and answer.noul == 1.0
    both = plan_exclusions(qs, [Exclusion(1, "Neither.", "risky", ("true", "false"))])
    assert both.removed == {} and both.broken[0].question == "risky"


def test_a_score_excludes_levels_by_index_or_by_text() -> None:
    answer = ScoreAnswer(
        score=1.1,
        confidence=0.3,
        legend={"0": "none", "1": "some", "2": "deadly"},
        probabilities={"0": 0.2, "1": 0.5, "2": 0.3},
    )
    for option in ("deadly", "2"):
        plan = plan_exclusions(questions(), [Exclusion(1, "Never deadly.", "danger", (option,))])
        shown = apply_exclusions({"danger": answer}, plan)["danger"]
        assert isinstance(shown, ScoreAnswer)
        assert shown.probabilities == pytest.approx({"0": 2 / 7, "1": 5 / 7, "2": 0.0}, abs=1e-6)
        assert shown.score == pytest.approx(5 / 7, abs=1e-5)


def test_box_questions_are_never_touched() -> None:
    qs = questions(where={"type": "box", "instructions": "the door"})
    assert plan_exclusions(qs, [Exclusion(1, "x", "where", ("door",))]).removed == {}


def test_options_left_with_no_probability_become_equally_likely() -> None:
    shown = remove_options(choice(coins=1.0, stair=0.0, door=0.0), {"coins"})
    assert isinstance(shown, ChoiceAnswer)
    assert shown.probabilities == {"coins": 0.0, "stair": 0.5, "door": 0.5}
    assert shown.choice == "stair"
