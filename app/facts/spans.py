"""Which days a sentence's facts hold from and until, and the day an end or an event happened.

A sentence's days are found once (`app.facts.dates`) and read by the words before each ("until 1
October" ends a span, "from Monday" starts one, "yesterday" dates an event). A span said in one
statement of a sentence is not said of another: "until next Friday I'm living out of a
suitcase, I have type 2 diabetes" keeps no end for the diabetes, while a day said before every
statement ("From 1 April, I work at Acme and my manager is Sarah") and a statement that points
back to it ("…, until then reach me at …") share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from app.facts.clauses import clauses
from app.facts.dates import DayPhrase, Tense, find_days, tense_of
from app.facts.utterances import FIRST_PERSON

_UNTIL = re.compile(r"\b(?:until|till|til|up\s+to|through|thru)\s*$", re.IGNORECASE)


_FROM = re.compile(r"\b(?:from|starting(?:\s+on)?|as\s+of|beginning|effective)\s*$", re.IGNORECASE)


_START_VERBS = re.compile(
    r"\b(?:start|starting|begin|beginning|join|joining|moving|move|switch|switching|"
    r"transfer|transferring|moved|joined|started)\b",
    re.IGNORECASE,
)


_UNTIL_THEN = re.compile(r"\buntil\s+then\b", re.IGNORECASE)


@dataclass(frozen=True)
class Span:
    valid_from: date | None = None
    valid_until: date | None = None
    on: date | None = None


@dataclass(frozen=True)
class SentenceDays:
    """A sentence's days, its span as a whole and the statements it makes."""

    sentence: str
    said_on: date
    tense: Tense
    phrases: list[DayPhrase]
    statements: list[tuple[int, int]]
    whole: Span

    @classmethod
    def of(cls, sentence: str, said_on: date) -> SentenceDays:
        tense = tense_of(sentence)
        phrases = find_days(sentence, said_on, tense)
        whole = _spans(sentence, phrases, tense, said_on)
        statements = _statements(sentence) if phrases else []
        return cls(sentence, said_on, tense, phrases, statements, whole)

    def span_at(self, start: int) -> Span:
        """The span of the statement that what starts at `start` belongs to."""
        own = _days_of_its_statement(self.sentence, start, self.phrases, self.statements)
        if own is self.phrases:
            return self.whole
        return _spans(self.sentence, own, self.tense, self.said_on)


def span_of(sentence: str, said_on: date) -> Span:
    """The span a whole sentence states ("until May", "since March")."""
    tense = tense_of(sentence)
    return _spans(sentence, find_days(sentence, said_on, tense), tense, said_on)


def _statements(sentence: str) -> list[tuple[int, int]]:
    """Where each clause of the sentence that makes a statement of its own begins and ends ("until
    next Friday I'm living out of a suitcase, I have type 2 diabetes": two); a clause without a
    subject ("Until 1 October, I'm on parental leave") belongs to the statement after it."""
    found: list[tuple[int, int]] = []
    at = 0
    for clause in clauses(sentence):
        start = sentence.find(clause, at)
        if start < 0:
            return []
        at = start + len(clause)
        joined = _JOINED.match(sentence, at - len(clause))
        if found and (joined or not FIRST_PERSON.search(clause)):
            found[-1] = (found[-1][0], at)  # "…, and my manager is Sarah": one statement
        elif not FIRST_PERSON.search(clause):
            return []  # an opening clause without a subject ("From 1 April, …") is said of all
        else:
            found.append((start, at))
    return found if len(found) > 1 else []


_VALUE_START = re.compile(r"(?:[,;]\s*|\s+|(?:and|&)\s+)*", re.IGNORECASE)
_JOINED = re.compile(r"(?:and|&)\s", re.IGNORECASE)


def _days_of_its_statement(
    sentence: str, start: int, days: list[DayPhrase], statements: list[tuple[int, int]]
) -> list[DayPhrase]:
    """The days said in the same statement as what starts at `start`: a span said of one thing
    ("until next Friday I'm living out of a suitcase") is not said of another in the sentence,
    unless the statement points back to it ("…, until then reach me at …")."""
    lead = _VALUE_START.match(sentence, start)  # past a ", " or "and " a reader began with
    start = lead.end() if lead else start
    for begin, end in statements:
        if begin <= start < end:
            if _UNTIL_THEN.search(sentence, begin, end):
                return days
            return [day for day in days if begin <= day.start < end]
    return days


def _spans(sentence: str, days: list[DayPhrase], tense: Tense, said_on: date) -> Span:
    """Which resolved day is a start, which an end, which the day something happened."""
    valid_from = valid_until = on = None
    for phrase in days:
        if phrase.day is None:
            continue
        before = sentence[: phrase.start]
        if _UNTIL.search(before):
            through = re.search(r"\b(?:through|thru)\s*$", before, re.IGNORECASE)
            valid_until = phrase.day + timedelta(days=1) if through else phrase.day
        elif _FROM.search(before):
            valid_from = phrase.day
        elif tense != "past" and (phrase.start == 0 or _START_VERBS.search(sentence)):
            if phrase.day > said_on:
                valid_from = phrase.day
            on = on or phrase.day
        else:
            on = on or phrase.day
    if valid_until is None and _UNTIL_THEN.search(sentence):
        earlier = [p.day for p in days if p.day is not None]
        if earlier:
            valid_until = earlier[0]
    if _UNTIL_THEN.search(sentence) and on is not None and valid_from == on:
        valid_from = None
    return Span(valid_from, valid_until, on)


def dated_text(text: str, days: list[DayPhrase]) -> str:
    """An event's text with a relative day ("yesterday") written as the calendar day."""
    for phrase in days:
        if phrase.day is None or phrase.text not in text:
            continue
        written = f"{phrase.day.day} {phrase.day:%B %Y}"
        prefix = "" if re.match(r"(?i)on\s", phrase.text) else "on "
        text = text.replace(
            phrase.text, prefix + written if not phrase.text[0].isdigit() else written
        )
        text = text.replace("on on ", "on ")
    return text
