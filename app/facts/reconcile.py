"""Reconciling newly extracted items against what is already known about an end-user.

A pure function over in-memory facts, so every case is testable without a database:

- the same fact again (same slot, same value, same wording and span) is a duplicate: nothing;
- the same slot and value in other words, or with a new span, updates the known fact;
- another value in a slot that holds one value (employer, home, manager, …) contradicts it:
  the known fact retires on the day the new one starts (or the day it was said), and the new
  one is added; a new value that starts later ("from 1 November") leaves the old one holding
  until that day, when it ends by itself;
- liking what the user disliked (and the other way round) retires the old preference;
- taking up again what a habit fact said was given up ("No longer drinks coffee", then "Drinks
  coffee every morning") retires it;
- an `end` ("I left Northwind on 1 August") retires the matching fact on that day, or, for a
  day still to come, makes it hold until then;
- events never retire; the same event on the same day is a duplicate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from app.facts.extraction import MULTI_VALUED, OPPOSITES, RESUMES, Extracted, gave_up
from app.text.words import fold


@dataclass(frozen=True)
class Known:
    """An active fact or event of the user as stored."""

    id: int
    kind: str
    slot: str | None
    value: str | None
    text: str
    valid_from: date | None = None
    valid_until: date | None = None
    happened_on: date | None = None


@dataclass(frozen=True)
class Retire:
    fact_id: int
    """A stored fact's id, or -(n + 1) for `Plan.inserts[n]` (said and contradicted in one
    batch: kept, retired)."""
    day: date
    by: int | None = None
    """Index in `Plan.inserts` of the fact that contradicted it (None for an `end`)."""


@dataclass
class Plan:
    inserts: list[Extracted] = field(default_factory=list)
    updates: list[tuple[int, Extracted]] = field(default_factory=list)
    retires: list[Retire] = field(default_factory=list)
    ends: list[tuple[int, date]] = field(default_factory=list)
    """Facts that hold until a day still to come (their `valid_until` is set to it)."""
    duplicates: int = 0


def same_value(a: str | None, b: str | None) -> bool:
    """Whether two values name the same thing: equal or one holding the other as whole words
    ("Northwind" and "Northwind Traders"), case and accents folded."""
    if not a or not b:
        return False
    fa, fb = f" {' '.join(fold(a).split())} ", f" {' '.join(fold(b).split())} "
    return fa == fb or fa in fb or fb in fa


def reconcile(known: Sequence[Known], new: Sequence[Extracted], today: date) -> Plan:
    plan = Plan()
    # Known facts as they stand while the batch is read: -(n + 1) stands for plan.inserts[n],
    # so a batch that says two things about one slot reconciles with itself too.
    active: dict[int, Known] = {fact.id: fact for fact in known}
    for item in new:
        if item.kind == "event":
            _event(plan, active, item)
        elif item.kind == "end":
            _end(plan, active, item, today)
        else:
            _fact(plan, active, item, today)
    return plan


def _event(plan: Plan, active: dict[int, Known], item: Extracted) -> None:
    for fact in active.values():
        if fact.kind == "event" and fold(fact.text) == fold(item.text):
            if fact.happened_on == item.on:
                plan.duplicates += 1
                return
    _insert(plan, active, item)


def _end(plan: Plan, active: dict[int, Known], item: Extracted, today: date) -> None:
    """An end stops its slot's fact (of its value when it names one). A habit, tool or liking
    that ends ("I don't drink coffee anymore") stops every habit, tool, diet or liking that
    names what ended ("Drinks coffee every morning", "Likes coffee"; not "Likes coffee" for "I
    don't drink coffee at night anymore"), and an end without a slot ("I'm no longer with Mark")
    every fact that names it; a fact saying it was given up ("No longer drinks coffee") is what
    holds after such an end and stays."""
    day = item.on or item.said_on
    loose = item.slot is None or item.slot in RESUMES
    for fact_id, fact in list(active.items()):
        if fact.kind != "fact":
            continue
        if loose:
            if (
                gave_up(fact)
                or (item.slot is not None and fact.slot not in RESUMES)
                or not item.value
                or not (_names(fact.value or "", item.value) or _names(fact.text, item.value))
            ):
                continue
        elif fact.slot != item.slot or (item.value and not same_value(fact.value, item.value)):
            continue
        _stop(plan, active, fact_id, day, today, by=None)


def _names(text: str, value: str) -> bool:
    """Whether `text` holds `value` as whole words ("Drinks coffee every morning", "coffee")."""
    return f" {' '.join(fold(value).split())} " in f" {' '.join(fold(text).split())} "


def _fact(plan: Plan, active: dict[int, Known], item: Extracted, today: date) -> None:
    starts = item.valid_from or item.said_on
    for fact_id, fact in list(active.items()):
        if fact.kind != "fact":
            continue
        if item.slot is None or fact.slot is None:
            if fact.slot == item.slot and fold(fact.text) == fold(item.text):
                plan.duplicates += 1
                return
            continue
        if fact.slot == OPPOSITES.get(item.slot) and same_value(fact.value, item.value):
            _stop(plan, active, fact_id, starts, today, by=len(plan.inserts))
            continue
        if _takes_up_again(item, fact):
            _stop(plan, active, fact_id, starts, today, by=len(plan.inserts))
            continue
        if fact.slot != item.slot:
            continue
        if same_value(fact.value, item.value):
            if _unchanged(fact, item):
                plan.duplicates += 1
            else:
                _update(plan, active, fact_id, fact, item)
            return
        if item.slot not in MULTI_VALUED:
            _stop(plan, active, fact_id, starts, today, by=len(plan.inserts))
    _insert(plan, active, item)


def _takes_up_again(item: Extracted, fact: Known) -> bool:
    """Whether `item` takes up what `fact` said was given up ("Drinks coffee every morning"
    after "No longer drinks coffee")."""
    return (
        gave_up(fact)
        and item.slot in RESUMES
        and not gave_up(item)
        and not _NEGATED.search(item.text)
        and (_names(item.value or "", fact.value or "") or _names(item.text, fact.value or ""))
    )


_NEGATED = re.compile(r"\b(?:not|never|no\s+longer|haven['’]t|hasn['’]t|\w+n['’]t)\b", re.I)
"""A fact that says what the user does not do takes nothing up again ("I haven't touched
coffee in months")."""


def _unchanged(fact: Known, item: Extracted) -> bool:
    return (
        fold(fact.text) == fold(item.text)
        and (item.valid_from is None or item.valid_from == fact.valid_from)
        and (item.valid_until is None or item.valid_until == fact.valid_until)
    )


def _insert(plan: Plan, active: dict[int, Known], item: Extracted) -> None:
    plan.inserts.append(item)
    key = -len(plan.inserts)
    active[key] = Known(
        id=key,
        kind=item.kind,
        slot=item.slot,
        value=item.value,
        text=item.text,
        valid_from=item.valid_from,
        valid_until=item.valid_until,
        happened_on=item.on,
    )


def _update(
    plan: Plan, active: dict[int, Known], fact_id: int, fact: Known, item: Extracted
) -> None:
    merged = replace(
        item,
        valid_from=item.valid_from or fact.valid_from,
        valid_until=item.valid_until or fact.valid_until,
    )
    if fact_id < 0:
        plan.inserts[-fact_id - 1] = merged
    else:
        plan.updates = [(i, e) for i, e in plan.updates if i != fact_id] + [(fact_id, merged)]
    active[fact_id] = replace(
        fact,
        value=merged.value,
        text=merged.text,
        valid_from=merged.valid_from,
        valid_until=merged.valid_until,
    )


def _stop(
    plan: Plan, active: dict[int, Known], fact_id: int, day: date, today: date, by: int | None
) -> None:
    """The fact no longer holds from `day`: retired now, or holding until a day to come."""
    fact = active[fact_id]
    if day > today:
        if fact_id < 0:
            plan.inserts[-fact_id - 1] = replace(plan.inserts[-fact_id - 1], valid_until=day)
        else:
            plan.ends.append((fact_id, day))
        active[fact_id] = replace(fact, valid_until=day)
        return
    del active[fact_id]
    plan.retires.append(Retire(fact_id, day, by))
