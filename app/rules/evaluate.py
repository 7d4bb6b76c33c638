"""Which rules act at a decision, and the facts their conditions compute: pure, no I/O.

A subject's rule is one of three kinds, and may combine them:

- pinned (`pin: true`): its text goes to the engine first at every decision about the subject,
  whatever the state says;
- conditional (`when: {path, op, value}`): the condition is computed on the state, not read by
  the engine. When it holds, the rule fires: a computed fact line ("order.total is 620, more than
  500.") and the rule's text go to the engine, and its exclusion, if any, applies. When the path
  is absent from the state (or the state is not an object) the rule does not fire; a malformed
  path or a value that is not a number goes to `rules_broken` with the reason, since a rule that
  can never fire silently is worse than one that says so;
- excluding (`exclude`): removes options in code (see `app.rules.exclusions`). A rule with no
  condition excludes at every decision. Unless it is pinned its text is not sent: a line that
  names an option pulls the engine toward it, which is why the option is removed in code.

A rule with none of pin, when and exclude does nothing at a decision: pin it, or remember it as
a line so recall can find it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.memory.schemas import RuleOut

RuleKind = Literal["pinned", "rule"]

_OPS: dict[str, tuple[str, Any]] = {
    ">": ("more than {v}", lambda a, b: a > b),
    ">=": ("{v} or more", lambda a, b: a >= b),
    "<": ("less than {v}", lambda a, b: a < b),
    "<=": ("{v} or less", lambda a, b: a <= b),
    "==": ("equal to {v}", lambda a, b: a == b),
    "!=": ("not {v}", lambda a, b: a != b),
}
_INDEX = re.compile(r"^\d+$")


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Options a rule removes: from the named question, or from every question (None)."""

    rule_id: int
    rule_text: str
    question: str | None
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ActiveRule:
    """A rule that acts at this decision.

    placed: its text goes to the engine (pinned, or conditional and fired);
    fact: the computed fact line of a condition that held;
    exclusion: the options it removes, when it has an exclusion and no condition stops it.
    """

    id: int
    text: str
    kind: RuleKind
    placed: bool
    fact: str | None
    exclusion: Exclusion | None


@dataclass(frozen=True, slots=True)
class BrokenRule:
    """A rule that could not do what it says at this decision, and why."""

    id: int
    text: str
    reason: str
    question: str | None = None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"id": self.id, "text": self.text, "reason": self.reason}
        if self.question is not None:
            body["question"] = self.question
        return body


@dataclass(frozen=True, slots=True)
class RulesOutcome:
    """Active rules in the order their lines go (pinned, then fired conditional, then those that
    only exclude), and the broken ones."""

    active: tuple[ActiveRule, ...]
    broken: tuple[BrokenRule, ...]

    @property
    def facts(self) -> list[str]:
        return [rule.fact for rule in self.active if rule.fact is not None]

    @property
    def exclusions(self) -> list[Exclusion]:
        return [rule.exclusion for rule in self.active if rule.exclusion is not None]


# --- conditions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fired:
    value: float


@dataclass(frozen=True, slots=True)
class NotFired:
    """The condition was computed and does not hold, or its path is not in the state."""


@dataclass(frozen=True, slots=True)
class Broken:
    reason: str


ConditionResult = Fired | NotFired | Broken


def check_condition(when: Mapping[str, Any], state: Any) -> ConditionResult:
    """Compute `when` ({path, op, value}) on the state."""
    path, op, limit = when.get("path"), when.get("op"), when.get("value")
    if op not in _OPS:
        return Broken(f"unknown operator {op!r}; use one of {', '.join(_OPS)}")
    if not isinstance(limit, int | float) or not _is_number(limit):
        return Broken(f"the rule's value {limit!r} is not a number")
    problem = path_problem(path)
    if problem is not None:
        return Broken(problem)
    assert isinstance(path, str)
    found = resolve(state, path)
    if isinstance(found, Broken | NotFired):
        return found
    if not _is_number(found):
        return Broken(f"{path} is {_describe(found)}, not a number")
    holds = _OPS[op][1](float(found), float(limit))
    return Fired(float(found)) if holds else NotFired()


def path_problem(path: Any) -> str | None:
    """Why a dotted path is malformed, or None: segments are non-empty and hold no spaces."""
    if not isinstance(path, str) or not path:
        return "the path is empty"
    for segment in path.split("."):
        if not segment:
            return f"malformed path {path!r}: an empty segment"
        if segment != segment.strip() or any(c.isspace() for c in segment):
            return f"malformed path {path!r}: a segment holds a space"
    return None


def resolve(state: Any, path: str) -> Any:
    """The value at a dotted path of an object state (`order.total`; a digit segment indexes a
    list: `items.0.price`). NotFired when the path is not there; Broken when it runs into a
    value that has no fields."""
    if not isinstance(state, Mapping):
        return NotFired()
    current: Any = state
    walked: list[str] = []
    for segment in path.split("."):
        if isinstance(current, Mapping):
            if segment not in current:
                return NotFired()
            current = current[segment]
        elif isinstance(current, list) and _INDEX.match(segment):
            if int(segment) >= len(current):
                return NotFired()
            current = current[int(segment)]
        else:
            where = ".".join(walked)
            return Broken(f"{where} is {_describe(current)}, so it has no {segment!r}")
        walked.append(segment)
    return current


def fact_line(path: str, op: str, actual: float, limit: float) -> str:
    """The computed fact a fired condition adds: "order.total is 620, more than 500." """
    wording = _OPS[op][0].format(v=format_number(limit))
    return f"{path} is {format_number(actual)}, {wording}."


def format_number(value: float) -> str:
    """620.0 as 620, 620.5 as 620.5: a number as a person writes it."""
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _is_number(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(float(value))
    )


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return f"the number {format_number(value)}" if _is_number(value) else repr(value)


# --- rules at a decision -------------------------------------------------------------------------


def evaluate_rules(rules: Sequence[RuleOut], state: Any) -> RulesOutcome:
    """Which rules act at a decision about `state`, in the order their lines go."""
    pinned: list[ActiveRule] = []
    fired: list[ActiveRule] = []
    excluding: list[ActiveRule] = []
    broken: list[BrokenRule] = []
    for rule in rules:
        fact: str | None = None
        in_force = True
        if rule.when is not None:
            result = check_condition(rule.when, state)
            if isinstance(result, Broken):
                broken.append(BrokenRule(rule.id, rule.text, result.reason))
            if isinstance(result, Fired):
                when = rule.when
                fact = fact_line(when["path"], when["op"], result.value, float(when["value"]))
            in_force = isinstance(result, Fired)
        exclusion = _exclusion_of(rule) if in_force else None
        if rule.pin:
            pinned.append(ActiveRule(rule.id, rule.text, "pinned", True, fact, exclusion))
        elif rule.when is not None and in_force:
            fired.append(ActiveRule(rule.id, rule.text, "rule", True, fact, exclusion))
        elif rule.when is None and exclusion is not None:
            excluding.append(ActiveRule(rule.id, rule.text, "rule", False, None, exclusion))
    return RulesOutcome(tuple(pinned + fired + excluding), tuple(broken))


def _exclusion_of(rule: RuleOut) -> Exclusion | None:
    if not rule.exclude:
        return None
    options = tuple(str(option) for option in rule.exclude.get("options") or ())
    if not options:
        return None
    return Exclusion(rule.id, rule.text, rule.exclude.get("question"), options)
