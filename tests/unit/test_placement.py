"""Placement of memory lines before the state, and what the engine reads of them."""

from __future__ import annotations

import json

import pytest

from app.recall.placement import (
    MAX_CONTEXT_LINES,
    MAX_LINE_CHARS,
    MEMORY_CUT,
    MEMORY_FULL,
    MEMORY_KEY,
    ReservedKey,
    place,
    serialise,
)


def words(text: str) -> int:
    """A whitespace tokenizer: one token per run of non-space characters."""
    return len(text.split())


LINES = ["ACME holds an enterprise contract.", "Refunds for ACME go to billing."]


def test_string_state_gets_the_lines_then_a_blank_line() -> None:
    placement = place("Refund my order.", LINES, window_tokens=100, count_tokens=words)
    assert placement.state == LINES[0] + "\n" + LINES[1] + "\n\nRefund my order."
    assert placement.read == [True, True]
    assert placement.lines_seen == 2
    assert placement.warnings == []
    assert placement.turns_dropped == 0


def test_object_state_gets_the_lines_under_the_reserved_first_key() -> None:
    state = {"ticket": "Refund my order.", "tier": "gold"}
    placement = place(state, LINES, window_tokens=100, count_tokens=words)
    assert isinstance(placement.state, dict)
    assert list(placement.state) == [MEMORY_KEY, "ticket", "tier"]
    assert placement.state[MEMORY_KEY] == LINES
    assert serialise(placement.state).startswith('{"dossier_memory":["ACME holds')
    assert placement.lines_seen == 2
    assert state == {"ticket": "Refund my order.", "tier": "gold"}  # caller's state untouched


def test_object_state_with_the_reserved_key_is_refused() -> None:
    with pytest.raises(ReservedKey) as caught:
        place({MEMORY_KEY: "mine"}, LINES, window_tokens=100, count_tokens=words)
    assert isinstance(caught.value, ValueError)


def test_array_state_gets_the_lines_as_its_first_element() -> None:
    turns = [{"role": "user", "text": "hi"}, {"role": "user", "text": "refund please"}]
    placement = place(turns, LINES, window_tokens=100, count_tokens=words)
    assert placement.state == [LINES, *turns]
    assert placement.turns_dropped == 0
    assert placement.read == [True, True]


def test_array_leaves_out_its_oldest_turns_until_the_lines_fit() -> None:
    turns = [f"turn {n} " + " ".join(["word"] * 8) for n in range(10)]  # 10 tokens each
    # lines: 5 + 6 tokens; each kept turn 10; window 45 → the lines and the 3 newest turns
    placement = place(turns, LINES, window_tokens=45, count_tokens=words)
    assert placement.turns_dropped == 7
    assert placement.state == [LINES, *turns[7:]]
    assert placement.read == [True, True]
    assert placement.warnings == []
    assert words(serialise(placement.state)) <= 45


def test_array_keeps_the_newest_turn_even_when_it_fills_the_window() -> None:
    turns = ["old turn", "new " * 30]
    placement = place(turns, LINES, window_tokens=20, count_tokens=words)
    assert placement.state == [LINES, turns[1]]
    assert placement.turns_dropped == 1
    assert placement.read == [False, False]
    assert placement.lines_seen == 0
    assert placement.warnings == [MEMORY_FULL]


def test_array_reads_the_last_lines_when_the_newest_turn_leaves_room_for_some() -> None:
    lines = ["one two three four", "five six seven eight", "nine ten eleven twelve"]
    turns = [" ".join(["older"] * 5), " ".join(["newest"] * 6)]
    # 4 + 4 + 4 tokens of lines, 6 of the newest turn: window 13 reads tokens 5 to 17
    placement = place(turns, lines, window_tokens=13, count_tokens=words)
    assert placement.turns_dropped == 1
    assert placement.read == [False, False, True]
    assert placement.lines_seen == 1
    assert placement.warnings == [MEMORY_CUT]


def test_string_reads_the_first_lines_when_cut() -> None:
    lines = ["one two three", "four five six", "seven eight nine"]
    placement = place("the state " * 20, lines, window_tokens=7, count_tokens=words)
    assert placement.read == [True, True, False]
    assert placement.lines_seen == 2
    assert placement.warnings == [MEMORY_CUT]


def test_string_with_a_first_line_past_the_window_reads_none() -> None:
    placement = place("state", ["a b c d e f"], window_tokens=5, count_tokens=words)
    assert placement.read == [False]
    assert placement.warnings == [MEMORY_FULL]


def test_object_reads_the_first_lines_when_cut() -> None:
    lines = ["one two three", "four five six", "seven eight nine"]
    placement = place({"k": "v " * 50}, lines, window_tokens=6, count_tokens=words)
    assert placement.read == [True, True, False]
    assert placement.warnings == [MEMORY_CUT]


def test_at_most_64_lines_each_cut_at_2000_characters() -> None:
    lines = [f"line {n}" for n in range(70)]
    lines[0] = "x" * 2500
    placement = place("state", lines, window_tokens=10_000, count_tokens=words)
    assert placement.lines_dropped == 6
    assert len(placement.read) == MAX_CONTEXT_LINES
    assert isinstance(placement.state, str)
    placed = placement.state.split("\n\n")[0].split("\n")
    assert placed[0] == "x" * MAX_LINE_CHARS
    assert placed[-1] == "line 63"


def test_each_line_is_counted_once() -> None:
    calls: list[str] = []

    def counting(text: str) -> int:
        calls.append(text)
        return words(text)

    lines = [f"line {n}" for n in range(20)]
    place([f"turn {n}" for n in range(50)], lines, window_tokens=1000, count_tokens=counting)
    assert len(calls) == 20 + 50
    assert sum(1 for call in calls if "line" in call) == 20


def test_no_lines_leave_the_state_as_it_is() -> None:
    placement = place(["a", "b"], [], window_tokens=1, count_tokens=words)
    assert placement.state == ["a", "b"]
    assert placement.read == []
    assert placement.warnings == []


def test_array_elements_are_compact_json_in_the_count() -> None:
    turns = [{"text": "a b"}]
    placement = place(turns, ["x"], window_tokens=100, count_tokens=words)
    assert json.loads(serialise(placement.state)) == [["x"], {"text": "a b"}]
    assert serialise(placement.state) == '[["x"],{"text":"a b"}]'
