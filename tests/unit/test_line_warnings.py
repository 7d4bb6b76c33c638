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
