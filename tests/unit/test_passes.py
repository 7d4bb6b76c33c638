"""The compare / explain / placebo passes as pure functions: what they ask and how they measure."""

from __future__ import annotations

import json

import pytest

from app.decisions.context import ContextLine
from app.decisions.passes import (
    MAX_EXPLAIN_ITEMS,
    Baseline,
    PassItem,
    PassPlan,
    is_presence_only,
    lay_out,
    leading_name,
    pass_blocks,
    pass_specs,
    pass_state,
    placebo_line,
)
from app.engines.asking import distinct_states
from app.engines.distribution import temper
from app.engines.wire import Answer, ChoiceAnswer, NoulAnswer, parse_request
from app.recall.placement import MEMORY_KEY, place
from app.rules.evaluate import Exclusion

QUESTIONS = dict(
    parse_request(
        {
            "model": "m",
            "state": "x",
            "questions": {
                "path": {
                    "type": "choice",
                    "criteria": {"coins": "gold coins", "stair": "plain stair", "door": "door"},
                },
                "risky": {"type": "noul", "instructions": "Risky?"},
            },
        }
    ).questions
)
COINS_RULE = Exclusion(1, "Never take the coins.", "path", ("coins",))


def choice(**probabilities: float) -> ChoiceAnswer:
    best = max(probabilities, key=probabilities.__getitem__)
    return ChoiceAnswer(choice=best, confidence=0.5, probabilities=probabilities)


def plan(**flags: bool) -> PassPlan:
    """A rule that only excludes (not sent), a pinned rule with a fact, two recalled lines."""
    items = (
        PassItem("rule", COINS_RULE.rule_text, False, True, 1, COINS_RULE),
        PassItem("pinned", "Premium support.", True, True, 2, None),
        PassItem("recalled", "North Traders always take the stair.", True, True),
        PassItem("recalled", "the hero is tired.", True, True),
    )
    lines = (
        ContextLine("order.total is 620, more than 500.", "computed", owner=1),
        ContextLine("Premium support.", "pinned", owner=1),
        ContextLine("North Traders always take the stair.", "recalled", 3.2, owner=2),
        ContextLine("the hero is tired.", "recalled", 1.1, owner=3),
    )
    return PassPlan(
        model="m",
        state={"room": "Coin Hall"},
        questions=QUESTIONS,
        turns_dropped=0,
        lines=lines,
        items=items,
        **flags,
    )


# --- what the passes ask -------------------------------------------------------------------------


def test_compare_asks_without_lines_and_without_rules() -> None:
    (spec,) = pass_specs(plan(compare=True))
    assert spec.kind == "without_memory" and spec.lines == () and spec.exclusions == ()
    assert pass_state(plan(), spec) == {"room": "Coin Hall"}


def test_explain_leaves_out_one_item_its_lines_and_its_exclusion() -> None:
    specs = pass_specs(plan(explain=True))
    assert [s.item for s in specs] == [0, 1, 2, 3]
    rule_left_out, pinned_left_out = specs[0], specs[1]
    assert rule_left_out.exclusions == () and len(rule_left_out.lines) == 4
    assert pinned_left_out.exclusions == (COINS_RULE,)
    # the pinned rule's fact and its text both go
    assert pinned_left_out.lines == ("North Traders always take the stair.", "the hero is tired.")


def test_explain_takes_at_most_eight_items_that_act() -> None:
    items = tuple(PassItem("recalled", f"line {i}", True, i != 0) for i in range(12))
    lines = tuple(ContextLine(f"line {i}", "recalled", owner=i) for i in range(1, 12))
    many = PassPlan("m", "s", QUESTIONS, 0, lines, items, explain=True)
    specs = pass_specs(many)
    assert len(specs) == MAX_EXPLAIN_ITEMS and [s.item for s in specs] == list(range(1, 9))


def test_placebo_replaces_every_line_and_has_no_rules() -> None:
    specs = pass_specs(plan(placebo=True))
    assert [s.kind for s in specs] == ["without_memory", "placebo"]
    assert specs[1].exclusions == ()
    assert specs[1].lines == (
        "This subject has a record in this system.",
        "Premium has a record in this system.",
        "North Traders has a record in this system.",
        "This subject has a record in this system.",
    )


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("North Traders renewed in March.", "North Traders"),
        ("ACME's invoices go to billing.", "ACME"),
        ("Ann, the buyer, prefers email.", "Ann"),
        ("The Northwind team runs Windows.", "Northwind"),
        ("Never walk along the corridor with the gold coins.", None),
        ("In the Coin Hall, the hero goes down the stair.", None),
        ("order.total is 620, more than 500.", None),
        ("O'Brien Co signed.", "O'Brien Co"),
        ("Smith-Jones signed the contract.", "Smith-Jones"),
    ],
)
def test_the_name_a_line_starts_with(line: str, name: str | None) -> None:
    assert leading_name(line) == name
    assert placebo_line(line) == f"{name or 'This subject'} has a record in this system."


def test_every_pass_reads_the_same_array_elements_as_the_answer() -> None:
    turns = [{"text": f"turn {i} " + "word " * 20} for i in range(30)]
    lines = ["Harbor runs Windows.", "Harbor is on the self-hosted edition."]
    placement = place(turns, lines, window_tokens=200, count_tokens=lambda s: len(s.split()))
    assert placement.turns_dropped > 0
    kept = turns[placement.turns_dropped :]
    assert lay_out(turns, lines, placement.turns_dropped) == placement.state
    assert lay_out(turns, [], placement.turns_dropped) == kept
    assert lay_out(turns, ["X has a record in this system."], placement.turns_dropped) == [
        ["X has a record in this system."],
        *kept,
    ]


def test_strings_and_objects_are_laid_out_as_placement_does() -> None:
    assert lay_out("Refund?", ["A.", "B."]) == "A.\nB.\n\nRefund?"
    assert lay_out({"t": 1}, ["A."]) == {MEMORY_KEY: ["A."], "t": 1}
    assert lay_out({"t": 1}, []) == {"t": 1}


def test_a_state_asked_twice_is_asked_once() -> None:
    unique, where = distinct_states(["a", {"b": 1}, "a", {"b": 1}, "c"])
    assert unique == ["a", {"b": 1}, "c"] and where == [0, 1, 0, 1, 2]


def test_the_plan_survives_json_for_an_async_job() -> None:
    original = plan(compare=True, explain=True, placebo=True)
    again = PassPlan.from_json(original.to_json())
    assert again == original
    named_only = parse_request(
        {
            "model": "m",
            "state": "x",
            "questions": {"q": {"type": "choice", "criteria": {"calm": None, "x": "y"}}},
        }
    ).questions
    bare = PassPlan("m", [{"t": 1}], dict(named_only), 0, (), ())
    assert PassPlan.from_json(json.loads(json.dumps(bare.to_json()))) == bare
    baseline = Baseline({"risky": NoulAnswer(noul=0.3)}, frozenset({"risky"}))
    assert Baseline.from_json(baseline.to_json()) == baseline


# --- how they measure ----------------------------------------------------------------------------


def test_compare_lists_the_excluded_option_with_its_rule() -> None:
    p = plan(compare=True)
    shown = {"path": choice(coins=0.0, stair=0.9, door=0.1), "risky": NoulAnswer(noul=0.7)}
    raw_without: dict[str, Answer] = {
        "path": choice(coins=0.8, stair=0.1, door=0.1),
        "risky": NoulAnswer(noul=0.4),
    }
    blocks = pass_blocks(p, Baseline(shown), pass_specs(p), [raw_without])
    assert blocks["without_memory"]["path"]["probabilities"]["coins"] == 0.8  # kept
    path = blocks["changes"]["path"]
    assert path["from"] == "coins" and path["to"] == "stair"
    assert path["moved"] == pytest.approx(0.8)
    assert path["excluded"] == [{"option": "coins", "rule": "Never take the coins."}]
    assert path["taken_by_rule"] is True
    risky = blocks["changes"]["risky"]
    assert (risky["from"], risky["to"], risky["moved"]) == ("false", "true", pytest.approx(0.3))
    assert risky["excluded"] == [] and risky["taken_by_rule"] is False
    assert blocks["explain"] is None and blocks["placebo"] is None


def test_explain_moves_are_how_much_each_item_raised_the_chosen_option() -> None:
    p = plan(explain=True)
    shown = {"path": choice(coins=0.0, stair=0.9, door=0.1), "risky": NoulAnswer(noul=0.7)}
    raw = [
        {"path": choice(coins=0.5, stair=0.45, door=0.05), "risky": NoulAnswer(noul=0.7)},
        {"path": choice(coins=0.1, stair=0.81, door=0.09), "risky": NoulAnswer(noul=0.6)},
        {"path": choice(coins=0.1, stair=0.3, door=0.6), "risky": NoulAnswer(noul=0.8)},
        {"path": choice(coins=0.1, stair=0.81, door=0.09), "risky": NoulAnswer(noul=0.7)},
    ]
    entries = pass_blocks(p, Baseline(shown), pass_specs(p), raw)["explain"]
    rule, pinned, stair_line, tired = entries
    assert rule["kind"] == "rule" and rule["rule_id"] == 1 and rule["read"] is False
    assert rule["moves"]["path"] == pytest.approx(0.45) and rule["flips"] == ["path"]
    # the other passes keep the rule: coins is removed from them too
    assert pinned["moves"]["path"] == pytest.approx(0.0)
    assert stair_line["kind"] == "recalled"
    assert stair_line["moves"]["path"] == pytest.approx(0.9 - 0.3 / 0.9, abs=1e-4)
    assert stair_line["moves"]["risky"] == pytest.approx(-0.1) and "path" in stair_line["flips"]
    assert tired["moves"] == {"path": 0.0, "risky": 0.0} and tired["flips"] == []
    assert all(entry["measured_on_first"] == [] for entry in entries)


def test_placebo_separates_content_from_presence() -> None:
    p = plan(placebo=True)
    shown = {"path": choice(coins=0.0, stair=0.9, door=0.1), "risky": NoulAnswer(noul=0.7)}
    without = {"path": choice(coins=0.8, stair=0.1, door=0.1), "risky": NoulAnswer(noul=0.4)}
    neutral = {"path": choice(coins=0.8, stair=0.15, door=0.05), "risky": NoulAnswer(noul=0.72)}
    block = pass_blocks(p, Baseline(shown), pass_specs(p), [without, neutral])["placebo"]
    assert block["answers"]["path"]["probabilities"]["coins"] == 0.8  # no rules in the placebo
    assert block["memory_effect"] == {"path": pytest.approx(0.8), "risky": pytest.approx(0.3)}
    assert block["content_effect"] == {"path": pytest.approx(0.75), "risky": pytest.approx(-0.02)}
    assert block["presence_only"] == ["risky"]


def test_presence_only_needs_a_real_move_the_same_way() -> None:
    assert is_presence_only(0.3, 0.3) and is_presence_only(-0.2, -0.25)
    assert is_presence_only(0.3, 0.295)  # within the tolerance
    assert not is_presence_only(0.3, 0.1) and not is_presence_only(0.3, -0.3)
    assert not is_presence_only(0.005, 0.005)


def test_the_temperature_is_applied_to_every_pass_as_to_the_answer() -> None:
    p = PassPlan(**{**plan(compare=True).__dict__, "temperature": 0.5})
    raw_shown = choice(coins=0.2, stair=0.5, door=0.3)
    shown = {"path": temper(raw_shown, 0.5)}
    raw_without = choice(coins=0.5, stair=0.3, door=0.2)
    blocks = pass_blocks(p, Baseline(shown), pass_specs(p), [{"path": raw_without}])
    expected = temper(raw_without, 0.5)
    assert isinstance(expected, ChoiceAnswer)
    assert blocks["without_memory"]["path"]["probabilities"] == expected.probabilities
    assert blocks["without_memory"]["path"]["probabilities"]["coins"] == pytest.approx(
        0.25 / (0.25 + 0.09 + 0.04), abs=1e-6
    )


def test_questions_the_second_tier_answered_are_measured_untempered_on_first() -> None:
    p = PassPlan(**{**plan(compare=True, placebo=True).__dict__, "temperature": 0.5})
    first = {"path": choice(coins=0.0, stair=0.6, door=0.4), "risky": NoulAnswer(noul=0.7)}
    baseline = Baseline(first, frozenset({"path"}))
    without = {"path": choice(coins=0.5, stair=0.3, door=0.2), "risky": NoulAnswer(noul=0.5)}
    blocks = pass_blocks(p, baseline, pass_specs(p), [without, without])
    assert blocks["without_memory"]["path"]["probabilities"]["coins"] == 0.5  # untempered
    assert blocks["without_memory"]["risky"]["noul"] == 0.5  # tempered 0.5 stays 0.5
    assert blocks["changes"]["path"]["measured_on_first"] is True
    assert blocks["changes"]["path"]["moved"] == pytest.approx(0.3)
    assert blocks["placebo"]["measured_on_first"] == ["path"]
