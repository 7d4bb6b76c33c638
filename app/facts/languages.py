"""The languages a sentence says the user speaks, settled after the patterns and readers: the
one they ask to be answered in ("answer in Portuguese from now on, it's my first language"),
each of a list ("I speak German, English and Turkish"), the language a clause only points at
("Spanish… it's my native language"), and none they apologise for ("forgive my English", "my
German is still awful").

A language is a fact of its own beside a standing instruction: the instruction says how to
answer, the language what the user reads best, which outlives a change of the instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from app.facts.extraction import Extracted
from app.facts.vocabulary import LANGUAGES

_LANGUAGE = re.compile(rf"\b(?:{LANGUAGES})\b", re.IGNORECASE)
_ASKED_IN = re.compile(
    r"\b(?:answer|answers|reply|replies|respond|responses|write|talk|speak)\b"
    rf"(?:\s+(?:to\s+)?(?:me|everything|back|always|only))*\s+in\s+(?P<language>{LANGUAGES})\b",
    re.IGNORECASE,
)
"""A language the user asks to be answered in ("reply in Polish", "answer me in Spanish")."""
_READ_BEST = re.compile(
    r"\b(?:first|native|mother|main|strongest|home)\s+(?:language|tongue)|\b(?:easier|"
    r"comfortable|faster|better)\b|\bthink\s+in\b|\bprefer",
    re.IGNORECASE,
)
"""... which is one they read best only when the message says so ("it's my first language",
"Polish is easier for me"); a user practising one asks for it too."""
_PRACTISING = re.compile(r"\b(?:practi[sc]\w*|learn\w*|get\s+fluent|improve)\b", re.IGNORECASE)
_SHAKY = re.compile(
    rf"\b(?:forgive|excuse|sorry\s+(?:for|about))\s+my\s+(?P<a>{LANGUAGES})\b"
    rf"|\bmy\s+(?P<b>{LANGUAGES})\s+(?:is|['’]s)\s+(?:still\s+|only\s+|just\s+|a\s+bit\s+|"
    r"pretty\s+|quite\s+|really\s+|so\s+|very\s+|kinda\s+)*(?:ok|okay|fine|not|awful|bad|poor|"
    r"rusty|patchy|weak|basic|terrible|trash|broken|limited|shaky|so-so|meh)\b"
    rf"|\b(?P<c>{LANGUAGES})\s+(?:is\s*n['’]?t|is\s+not|['’]s\s+not)\s+my\s+(?:first|native|"
    r"mother|main)"
    rf"|\bmy\s+(?P<d>{LANGUAGES})\s+(?:emails?|writing|grammar|spelling)\b"
    rf"|\b(?P<e>{LANGUAGES})\s+(?:replies|answers)\s+are\s+(?:fine|ok|okay)\b",
    re.IGNORECASE,
)
"""A language the user says they speak poorly, or only apologise for."""
_POINTS_AT_ONE = re.compile(r"\b(?:language|tongue)\b", re.IGNORECASE)
"""A value that names no language but points at one ("It's my first language")."""
_SPEAK_A_LIST = re.compile(
    rf"\bI\s+speak\s+(?P<list>(?:{LANGUAGES})(?:(?:\s*,\s*|\s*&\s*|\s+and\s+|\s+n\s+)"
    rf"(?:{LANGUAGES}))+)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class LanguagesSaid:
    """What a whole message says of languages, read once for all its sentences: those the user
    speaks poorly, those it names otherwise, and whether it says the user reads one best."""

    shaky: frozenset[str]
    named: tuple[str, ...]
    reads_best: bool

    @classmethod
    def of(cls, message: str) -> LanguagesSaid:
        shaky = frozenset(_fold(language) for language in _shaky_languages(message))
        return cls(
            shaky,
            tuple(_named(message, shaky)),
            bool(_READ_BEST.search(message)) and not _PRACTISING.search(message),
        )


def settle_languages(
    sentence: str, items: list[Extracted], said_on: date, message: LanguagesSaid
) -> list[Extracted]:
    """The sentence's items with its language facts settled (see the module's docstring); the
    message it is part of says whether a language asked for is one the user reads best, and
    which language a sentence that names none points at ("Answer in Portuguese. It's my
    first language.")."""
    shaky = message.shaky
    named = _named(sentence, shaky) or list(message.named)
    settled: list[Extracted] = []
    for item in items:
        if item.kind != "fact" or item.slot != "language":
            settled.append(item)
            continue
        said = {_fold(m.group()) for m in _LANGUAGE.finditer(item.value or "")}
        if said and said <= shaky:
            continue  # "forgive my English"
        if not said and named and _POINTS_AT_ONE.search(item.value or ""):
            # "it's my native language": the one the sentence (or the message) names
            item = replace(item, value=named[0], text=f"Speaks {named[0]}")
        settled.append(item)
    has = {_fold(i.value or "") for i in settled if i.kind == "fact" and i.slot == "language"}
    asked = _instructs(items) and message.reads_best
    more = [m.group("language") for m in _ASKED_IN.finditer(sentence)] if asked else []
    for listed in _SPEAK_A_LIST.finditer(sentence):
        more += [m.group() for m in _LANGUAGE.finditer(listed.group("list"))]
    for language in more:
        if _fold(language) not in has and _fold(language) not in shaky:
            has.add(_fold(language))
            settled.append(
                Extracted(
                    kind="fact",
                    text=f"Speaks {language}",
                    said_on=said_on,
                    slot="language",
                    value=language,
                )
            )
    return settled


def not_said_spoken(sentence: str) -> frozenset[str]:
    """The languages a sentence names without saying the user speaks them, case-folded: one it
    asks answers in (`settle_languages` keeps it when the message says the user reads it best)
    and one it apologises for ("forgive my English")."""
    asked = {_fold(m.group("language")) for m in _ASKED_IN.finditer(sentence)}
    return frozenset(asked | {_fold(language) for language in _shaky_languages(sentence)})


def _named(text: str, shaky: frozenset[str]) -> list[str]:
    return [m.group() for m in _LANGUAGE.finditer(text) if _fold(m.group()) not in shaky]


def _shaky_languages(sentence: str) -> list[str]:
    return [
        language
        for match in _SHAKY.finditer(sentence)
        for language in match.groupdict().values()
        if language
    ]


def _instructs(items: list[Extracted]) -> bool:
    return any(item.kind == "fact" and item.slot == "instruction" for item in items)


def _fold(language: str) -> str:
    return language.casefold()
