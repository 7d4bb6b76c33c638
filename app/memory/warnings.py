"""Warnings for lines that should be rules.

A memory line can only pull the engine: a line that forbids an option names it (and pulls the
engine toward it), and a line that compares numbers in words is read, not computed. Both belong in
a rule; remember says so instead of refusing the line.
"""

from __future__ import annotations

import re

from app.memory.schemas import LineWarning

_NUMBER = r"(?:[$€£]\s?)?(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|fifty|hundred|thousand)"  # noqa: E501
_NUMBER_RULE = re.compile(
    r"\b(?:(?:more|less|fewer|greater|higher|lower|larger|smaller|bigger|older|newer|younger|longer|shorter)\s+than"
    r"|at\s+(?:least|most)|no\s+(?:more|less|fewer)\s+than|not\s+more\s+than"
    r"|up\s+to|over|under|above|below|exceed(?:s|ing)?|minimum\s+of|maximum\s+of)"
    rf"\s+{_NUMBER}\b",
    re.IGNORECASE,
)
_NEGATIVE_START = re.compile(r"^\s*(?:never|do\s+not|don['’]t|avoid)\b", re.IGNORECASE)
_NEGATIVE_ANYWHERE = re.compile(
    r"\b(?:must\s+not|mustn['’]t|must\s+never|should\s+not|shouldn['’]t|should\s+never"
    r"|shall\s+not|may\s+not|never|(?:is|are)\s+not\s+allowed|(?:is|are)\s+forbidden)\b",
    re.IGNORECASE,
)


# A word every match of the pattern holds, lower-cased. Case-blind patterns are slow in `re`
# (~9 microseconds a line for the two, 90 ms for a 10,000-line write), and most lines hold
# none of these words, which `in` finds in a fraction of that. Only for ASCII lines: case-blind
# matching also folds a few other letters onto ASCII ones ("ſ" is an "s" to it).
_NUMBER_WORDS = tuple("than least most up over under above below exceed minimum maximum".split())
_NEGATIVE_WORDS = ("must", "should", "shall", "may", "never", "allowed", "forbidden")


def _may_hold(line: str, words: tuple[str, ...]) -> bool:
    """False when the line cannot match a pattern whose every match holds one of `words`."""
    if not line.isascii():
        return True
    lowered = line.lower()
    return any(word in lowered for word in words)


def line_warnings(line: str) -> list[LineWarning]:
    warnings: list[LineWarning] = []
    if _NEGATIVE_START.search(line) or (
        _may_hold(line, _NEGATIVE_WORDS) and _NEGATIVE_ANYWHERE.search(line)
    ):
        warnings.append(
            LineWarning(
                code="memory_negative_rule",
                line=line,
                message=(
                    "this line forbids something, and naming an option pulls the engine toward "
                    "it; use a rule with 'exclude' (POST /v1/memory/rules) to remove it in code"
                ),
            )
        )
    if _may_hold(line, _NUMBER_WORDS) and _NUMBER_RULE.search(line):
        warnings.append(
            LineWarning(
                code="memory_number_rule",
                line=line,
                message=(
                    "this line compares numbers in words, which the engine reads but does not "
                    "compute; use a rule with 'when' (POST /v1/memory/rules) to check it in code"
                ),
            )
        )
    return warnings
