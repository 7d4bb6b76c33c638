"""What the user does regularly, read by how often they say they do it.

A habit is said with its frequency far more often than with a word that names it as one: "I
cycle to work every day, rain or shine", "me and my dog Rufus walk 5 miles every morning", "I'm
a postie in dundee, walk about 20k steps a day", "we sell the eggs at the farmers market in
Ludlow every saturday". The durable reader gives a clause one slot, so a habit said beside a
home or a job ("I'm vegan, live in Ghent and cycle to work every day") goes unread, and the
patterns know a few verbs ("I go bouldering every tue"). Here a clause of the user's, with a
verb of the present and a frequency after it ("every Thursday", "most days", "3 times a week",
"twice a month", "on weekends", "daily", "3 espressos a day", "each way"), is a habit: the words
from the verb to the frequency, as said.

Not a habit: what someone else does ("my son swims every Wednesday"), what the user wants,
plans or used to do ("I want to run every day", "I'll start swimming twice a week", "I walked
every day last summer"), what they no longer do (an end, read elsewhere), and how long
something lasts ("Airflow, dbt and Snowflake all day"). Which clauses may state a fact at all
(not a question's asking part, not a request) is `app.facts.utterances`'s to say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = (
    r"(?:\d+(?:[.,]\d+)?k?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|"
    r"a\s+couple(?:\s+of)?)"
)
_DAYS = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
)
_UNITS = (
    r"day|weekday|morning|afternoon|evening|night|week|weekend|fortnight|month|year|summer|"
    rf"winter|spring|autumn|season|lunchtime|lunch|break|shift|term|payday|{_DAYS}"
)
_FREQUENCY = re.compile(
    rf"\b(?:"
    rf"every\s*(?:(?:other|single|second)\s+)?(?:{_UNITS})|everyday"
    rf"|each\s+(?:{_UNITS}|way)"
    rf"|most\s+(?:days|mornings|evenings|nights|weekends|weeks|lunchtimes|(?:{_DAYS})s)"
    rf"|(?:(?:on|at)\s+(?:the\s+)?)?weekends|(?:on\s+)?(?:{_DAYS})s"
    rf"(?:\s*(?:,|and|&|n)\s*(?:{_DAYS})s?)*"
    rf"|(?:{_NUMBER}\s*(?:x|times)|once|twice)\s+(?:a|per|every|each)\s+"
    r"(?:day|week|month|year|fortnight|night)"
    rf"|{_NUMBER}\s+(?:days|nights|mornings|evenings|shifts|afternoons)\s+(?:a|per)\s+"
    r"(?:week|month|fortnight)"
    rf"|{_NUMBER}\s+[\w-]+\s+(?:a|per)\s+(?:day|night|week)"
    rf"|(?:daily|nightly|weekly|fortnightly|monthly)(?=\s*(?:$|[,.;:!?)—–-]|\s+(?:and|or|at|in|on|"
    rf"for|with|but|so|now|too|as|because|since|before|after|unless|if)\b))"
    rf")\b",
    re.IGNORECASE,
)
"""How often: "every (other) Sunday", "each way", "most days", "on weekends", "3x a week",
"twice a month", "4 nights a week", "20k steps a day", "daily"."""

_ADVERBS = (
    r"always|usually|normally|still|also|now|just|basically|literally|generally|typically|often|"
    r"even|really|actually|religiously|mostly|mainly|pretty\s+much|tend\s+to|try\s+to|like\s+to|"
    r"get\s+to|have\s+to|then|both|all"
)
_SUBJECT = re.compile(
    r"(?:^|\b)(?:I|we|me\s+and\s+(?:my\s+)?[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?|"
    r"(?:my\s+)?[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?\s+and\s+I)"
    r"(?P<aux>['’](?:m|re|ve\s+been)|\s+(?:am|are|have\s+been))?\s+"
    rf"(?:(?:{_ADVERBS})\s+)*(?P<verb>[a-z][a-z'’-]*)\b",
    re.IGNORECASE,
)
"""The user as the subject ("I", "we", "me and my dog Rufus", "Tessa and I", "I've been"), and
the verb after it."""
_HABIT_VERBS = (
    r"walk|run|swim|cycle|bike|drive|commute|work|train|go|do|play|cook|read|write|watch|eat|"
    r"drink|smoke|sleep|take|practise|practice|visit|call|check|meditate|pray|fast|volunteer|"
    r"teach|study|lift|climb|ride|bake|knit|hike|surf|dance|sing|clean|shop|post|stream|lead|"
    r"coach|referee|host"
)
_SUBJECTLESS = re.compile(
    rf"^(?:(?:{_ADVERBS})\s+)*(?P<verb>[a-z]+ing|{_HABIT_VERBS})\b", re.IGNORECASE
)
"""A clause that opens with its verb, the user being the subject of the sentence ("i'm a postie
in dundee, walk about 20k steps a day", "Retired in Malaga, still swimming in the sea most
days")."""
_AND_THEN = re.compile(rf"\band\s+(?:(?:{_ADVERBS})\s+)*(?P<verb>{_HABIT_VERBS})\b", re.IGNORECASE)
_OPENS_WITH_A_VERB = re.compile(
    rf"^(?:(?:{_ADVERBS})\s+)*(?:[a-z]+ing|live|based|{_HABIT_VERBS})\b", re.IGNORECASE
)
"""A clause of two verbs, the second a habit's ("live in Ghent and cycle to work every day")."""

_NOT_A_HABIT_VERB = frozenset(
    (
        "want wanna would will should could might may must need needs hope plan planning "
        "intend used use wish would've wouldn't won't can cant can't cannot don't dont didn't "
        "didnt never stopped quit gave give gotta gonna going am is are was "
        "were be been being 'm ’m m 'd ’d 'll ’ll d ll think thought feel felt guess reckon "
        "wonder know knew love like hate prefer enjoy miss missed had has have got get started "
        "start"
    ).split()
)
"""Verbs after the subject that say no habit: a want, a plan, a modal, a negation, the past, a
feeling ("I love swimming every morning" is a taste, read as one elsewhere), a state."""
_PAST = frozenset(
    (
        "went ran swam did made came saw ate drank wrote rode drove sat slept spent taught "
        "bought brought caught sold told paid kept left met began gave flew grew knew threw "
        "wore woke won lost found took"
    ).split()
)
_PRESENT_IN_ED = frozenset(
    "feed weed bleed breed need proceed succeed shred speed shed bed".split()
)
_NOT_NOW = re.compile(
    r"\b(?:last|this|next)\s+(?:week|month|year|summer|winter|spring|autumn|term)\b|\buntil\b|"
    r"\bused\s+to\b|\bno\s+longer\b|\banymore\b|\bany\s+more\b",
    re.IGNORECASE,
)
"""A frequency bounded to a past or a coming stretch, or said of what stopped."""
_A_COUNT = re.compile(r"\s+\d")
"""What "have" needs after it to say a habit: a count ("I have 3 espressos a day"; not "I have
migraines most days", a condition, nor "we have a weekly meeting", a meeting)."""
_ASKED = re.compile(
    r"\b(?:can|could|should|would|will|do|does|did|may|might|must|shall|is|are|am)\s*$",
    re.IGNORECASE,
)
"""A verb before the subject: the clause asks ("should I run every day")."""
MAX_WORDS = 12
"""Words from the verb to the frequency's end: further apart, they are seldom one habit."""
MORE_WORDS = 5
"""A short rest of the clause after the frequency is part of the habit ("work weekends at a
pharmacy", "forage in the woods most autumn weekends")."""
_NOT_OF_IT = re.compile(
    r"(?:after|before|because|so|when|while|with|which|who|but|and|or|if|as|to|for|since|"
    r"plus|though|unless|until|even)\b",
    re.IGNORECASE,
)
"""… unless it opens with a word that starts a clause or a purpose of its own."""


@dataclass(frozen=True)
class Habit:
    value: str
    """The words from the verb to the frequency, as said."""


def habits_in(clause: str) -> list[Habit]:
    """The habit a clause of the user's states, if it states one (see the module's doc)."""
    if _NOT_NOW.search(clause):
        return []
    frequency = _FREQUENCY.search(clause)
    if frequency is None:
        return []
    subject = _verb_of_the_user(clause[: frequency.start()])
    if subject is None or len(clause[subject : frequency.end()].split()) > MAX_WORDS:
        return []
    value = clause[subject : frequency.end()]
    rest = clause[frequency.end() :].strip().rstrip(".!")
    if rest and len(rest.split()) <= MORE_WORDS and not _NOT_OF_IT.match(rest):
        value += clause[frequency.end() :].rstrip().rstrip(".!")  # "work weekends at a pharmacy"
    value = value.strip(" ,")
    if len(value.split()) < 2:
        return []
    return [Habit(value)]


def _verb_of_the_user(before: str) -> int | None:
    """Where the verb the user is the subject of starts, in the words before the frequency."""
    said = list(_SUBJECT.finditer(before))
    if said:
        found = said[-1]
        if _ASKED.search(before[: found.start()]):
            return None  # "can i eat ugali every day": a question
        verb = found.group("verb")
        if found.group("aux") and not verb.lower().endswith("ing"):
            return None  # "I'm on duolingo every day", "I've been there every summer"
        if verb.lower() == "have":
            after = before[found.end("verb") :]
            if not after.strip() or _A_COUNT.match(after):
                # "I have 3 espressos a day" (the count opens the frequency), "we have 1:1s …"
                return found.start("verb")
        return found.start("verb") if _a_habit_verb(verb) else None
    said_first = before.lstrip()
    then = list(_AND_THEN.finditer(said_first))
    if then and _OPENS_WITH_A_VERB.match(said_first):
        return len(before) - len(said_first) + then[-1].start("verb")
    opening = _SUBJECTLESS.match(said_first)
    if opening is None or not _a_habit_verb(opening.group("verb")):
        return None
    return len(before) - len(said_first) + opening.start("verb")


def _a_habit_verb(verb: str) -> bool:
    word = verb.lower()
    if word in _NOT_A_HABIT_VERB or word in _PAST:
        return False
    return not (word.endswith("ed") and word not in _PRESENT_IN_ED)
