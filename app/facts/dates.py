"""Days named in an English sentence, resolved against the day the message was written.

Only a phrase that resolves to one calendar day gives a day: "1 October", "October 1st, 2026",
"2026-10-01", "today", "tomorrow", "yesterday", "next Monday", "last Sunday", "on Saturday",
"in 3 days", "2 weeks ago". Anything vaguer ("soon", "next week", "last month", "in March",
"over the weekend", "once the merger closes") is reported as vague and gives no day: a date
nobody chose would take a true fact out of memory, so none is guessed.

Absolute dates are read by python-dateutil. A date without a year takes the year that fits
the sentence's tense: the latest such day not after the message for the past ("I left on
1 August"), the earliest not before it for the future ("until 1 October"), else the closest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from dateutil import parser as date_parser
from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

Tense = Literal["past", "future", "neutral"]

_WEEKDAYS = {
    "monday": MO,
    "tuesday": TU,
    "wednesday": WE,
    "thursday": TH,
    "friday": FR,
    "saturday": SA,
    "sunday": SU,
}
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_CALENDAR_WORD = re.compile(rf"(?:{'|'.join(_WEEKDAYS)}|{_MONTHS})s?", re.IGNORECASE)
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"
_WEEKDAY = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_COUNT = r"(?:\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten)"

_ABSOLUTE = re.compile(
    rf"\b(?:the\s+)?(?:{_DAY}\s+(?:of\s+)?(?:{_MONTHS})\.?(?:,?\s+{_YEAR})?"
    rf"|(?:{_MONTHS})\.?\s+(?:the\s+)?{_DAY}(?:,?\s+{_YEAR})?"
    rf"|{_YEAR}-[01]\d-[0-3]\d)\b",
    re.IGNORECASE,
)
_RELATIVE_DAY = re.compile(
    r"\b(?:the\s+day\s+after\s+tomorrow|the\s+day\s+before\s+yesterday|today|tonight|"
    r"tomorrow|yesterday)\b",
    re.IGNORECASE,
)
_WEEKDAY_PHRASE = re.compile(
    rf"\b(?:(next|last|this|coming|on)\s+)?({_WEEKDAY})\b(?!s)", re.IGNORECASE
)
_OFFSET = re.compile(
    rf"\b(?:in\s+({_COUNT})\s+(days?|weeks?)|({_COUNT})\s+(days?|weeks?)\s+ago)\b",
    re.IGNORECASE,
)
_VAGUE = re.compile(
    r"\b(?:soon|someday|some\s+day|at\s+some\s+point|eventually|one\s+day|later|recently|"
    r"(?:next|last|this|coming)\s+(?:week|month|year|weekend|spring|summer|autumn|fall|winter)|"
    rf"in\s+(?:early\s+|late\s+|mid-?)?(?:{_MONTHS}|spring|summer|autumn|fall|winter|{_YEAR})|"
    r"over\s+the\s+weekend|a\s+while\s+ago|once\s+\w+(?:\s+\w+){0,4}\s+(?:closes|is\s+done|"
    r"ends|finishes|happens))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class DayPhrase:
    """A phrase naming a time: its place in the sentence and its day (None when vague)."""

    start: int
    end: int
    text: str
    day: date | None


def find_days(sentence: str, written: date, tense: Tense = "neutral") -> list[DayPhrase]:
    """Every time phrase of `sentence` in order, resolved against `written` where it names a
    day. Overlapping matches keep the first found (absolute before relative before vague)."""
    found: list[DayPhrase] = []
    taken: list[tuple[int, int]] = []

    def add(match: re.Match[str], day: date | None) -> None:
        span = match.span()
        if any(span[0] < end and start < span[1] for start, end in taken):
            return
        taken.append(span)
        found.append(DayPhrase(span[0], span[1], match.group(), day))

    for match in _ABSOLUTE.finditer(sentence):
        add(match, _absolute(match.group(), written, tense))
    for match in _RELATIVE_DAY.finditer(sentence):
        add(match, _relative(match.group().lower(), written))
    for match in _WEEKDAY_PHRASE.finditer(sentence):
        add(match, _weekday(match.group(1), match.group(2), written, tense))
    for match in _OFFSET.finditer(sentence):
        add(match, _offset(match, written))
    for match in _VAGUE.finditer(sentence):
        add(match, None)
    return sorted(found, key=lambda phrase: phrase.start)


def _absolute(text: str, written: date, tense: Tense) -> date | None:
    if re.fullmatch(rf"{_YEAR}-[01]\d-[0-3]\d", text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            return None
    cleaned = re.sub(r"\bthe\b|\bof\b", " ", text, flags=re.IGNORECASE)
    has_year = re.search(_YEAR, cleaned) is not None
    try:
        parsed = date_parser.parse(cleaned, default=datetime(written.year, 1, 1), dayfirst=True)
    except (ValueError, OverflowError):
        return None
    day: date = parsed.date()
    if has_year:
        return day
    candidates = []
    for year in (written.year - 1, written.year, written.year + 1):
        try:
            candidates.append(day.replace(year=year))
        except ValueError:  # 29 February
            continue
    if not candidates:
        return None
    if tense == "past":
        before = [c for c in candidates if c <= written]
        return max(before) if before else None
    if tense == "future":
        after = [c for c in candidates if c >= written]
        return min(after) if after else None
    return min(candidates, key=lambda c: abs((c - written).days))


def _relative(text: str, written: date) -> date:
    text = " ".join(text.split())
    shift = {
        "today": 0,
        "tonight": 0,
        "tomorrow": 1,
        "yesterday": -1,
        "the day after tomorrow": 2,
        "the day before yesterday": -2,
    }[text]
    return written + timedelta(days=shift)


def _shifted(written: date, delta: relativedelta) -> date:
    """`written` moved by a dateutil delta (dateutil has no type hints: the result is a date)."""
    moved: date = written + delta
    return moved


def _weekday(which: str | None, name: str, written: date, tense: Tense) -> date:
    weekday = _WEEKDAYS[name.lower()]
    which = (which or "").lower()
    if which == "last" or (which in ("", "on") and tense == "past"):
        return _shifted(written, relativedelta(days=-1, weekday=weekday(-1)))
    if which == "this" and tense == "past":
        return _shifted(written, relativedelta(weekday=weekday(-1)))
    if which == "this":
        return _shifted(written, relativedelta(weekday=weekday(+1)))
    return _shifted(written, relativedelta(days=+1, weekday=weekday(+1)))


def _offset(match: re.Match[str], written: date) -> date:
    ahead = match.group(1) is not None
    count_text = (match.group(1) or match.group(3)).lower()
    unit = (match.group(2) or match.group(4)).lower()
    count = int(count_text) if count_text.isdigit() else _NUMBERS[count_text]
    days = count * (7 if unit.startswith("week") else 1)
    return written + timedelta(days=days if ahead else -days)


_PAST_WORDS = re.compile(
    r"\b(?:was|were|had|did|went|bought|visited|flew|ran|spent|paid|took|left|quit|joined|"
    r"moved|started|finished|attended|saw|met|got|gave|made|came|ate|drank|adopted|won|lost|"
    r"drove|travell?ed|booked|ordered|watched|read|completed|celebrated|ago|yesterday|last|"
    r"\w{3,}ed)\b",
    re.IGNORECASE,
)
_FUTURE_WORDS = re.compile(
    r"\b(?:will|shall|'ll|going\s+to|until|till|from|starting|next|tomorrow|"
    r"(?:am|'m|are|'re|is)\s+\w+ing|last\s+day\b[^.!?]{0,40}?\s(?:is|will\s+be))\b",
    re.IGNORECASE,
)


def tense_of(sentence: str) -> Tense:
    """Whether a sentence speaks of the past, the future, or neither, by its words."""
    future = _FUTURE_WORDS.search(sentence) is not None
    past = _PAST_WORDS.search(sentence) is not None
    if future and not past:
        return "future"
    if past and not future:
        return "past"
    return "neutral"


def names_a_day(text: str) -> bool:
    """Whether the text is a weekday's or a month's name ("Sunday", "Fridays", "Sept"): when
    something is, not whom ("Sunday here, so quiet")."""
    return _CALENDAR_WORD.fullmatch(text.strip()) is not None
