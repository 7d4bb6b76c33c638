from __future__ import annotations

import pytest

from app.memory.warnings import line_warnings


def codes(line: str) -> list[str]:
    return [w.code for w in line_warnings(line)]


@pytest.mark.parametrize(
    "line",
    [
        "Never walk along the corridor with the gold coins.",
        "Do not call before 9 am.",
        "Don’t send marketing mail.",
        "Support staff must not promise refunds.",
        "Discounts are not allowed for this account.",
    ],
)
def test_lines_that_forbid_something(line: str) -> None:
    assert codes(line) == ["memory_negative_rule"]


@pytest.mark.parametrize(
    "line",
    [
        "Orders of more than 500 euros need a manager.",
        "The plan covers at least 3 seats.",
        "Refunds up to $200 are automatic.",
        "Escalate tickets older than five days.",
    ],
)
def test_lines_that_compare_numbers_in_words(line: str) -> None:
    assert codes(line) == ["memory_number_rule"]


@pytest.mark.parametrize(
    "line",
    [
        "ACME Logistics holds an enterprise contract.",
        "Renewal on 2026-10-16.",
        "The customer runs version 5.2 on Windows Server.",
        "Anna knows the overview of the project.",
    ],
)
def test_plain_facts_get_no_warning(line: str) -> None:
    assert codes(line) == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ORDERS OF MORE THAN 500 EUROS NEED A MANAGER.", ["memory_number_rule"]),
        ("Support Staff MUST NOT promise refunds.", ["memory_negative_rule"]),
        ("Refunds Up To €200 are automatic.", ["memory_number_rule"]),
        ("The plan covers at leaſt 3 seats.", ["memory_number_rule"]),  # re folds ſ onto s
        ("Café staff may not open before 9.", ["memory_negative_rule"]),
    ],
)
def test_case_and_letters_outside_ascii_still_warn(line: str, expected: list[str]) -> None:
    """The cheap word check before the patterns never hides a match."""
    assert codes(line) == expected
