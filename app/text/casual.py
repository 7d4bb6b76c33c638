"""Chat as people type it, spelled as the patterns read it: the first person as "I" ("i", "im",
"ive" read as "I", "I'm", "I've") and a negation's dropped apostrophe put back ("dont",
"havent", "cant" read as "don't", "haven't", "can't"), and a place typed in lower case given
its capitals ("moved back to detroit": `app.text.places`).

Patterns and the durable reader were written for (and trained on) standard spelling; a
lower-case "i" and a missing apostrophe are how a great share of chat is typed, and "im a
nurse", "i dont drink coffee anymore" or "i havent lived in Leeds for years" must read as their
spelled-out forms do. Only these tokens change, so a fact's text is still the user's words and
every value (names, places) is untouched; "i.e.", "i18n" and a lone "i" in a list ("i) first…")
are left alone, and so are words that are also words without an apostrophe ("wont", "ill",
"id", "its", "well", "were", "shell").
"""

from __future__ import annotations

import re

from app.text.places import places_capitalised

_LOWER_I = re.compile(r"(?<![\w'’.-])(?:i|im|ive|Im|Ive)(?![\w.)-])")
_SPELLED = {"i": "I", "im": "I'm", "ive": "I've", "Im": "I'm", "Ive": "I've"}
_NEGATIONS = (
    "dont|doesnt|didnt|cant|couldnt|wouldnt|shouldnt|isnt|arent|wasnt|werent|havent|hasnt|"
    "hadnt|aint|mustnt|neednt"
)
_NO_APOSTROPHE = re.compile(rf"(?<![\w'’-])(?i:{_NEGATIONS})(?![\w'’-])")


def first_person_capitalised(text: str) -> str:
    """`text` with the casual first person written as "I" ("im a nurse" -> "I'm a nurse")."""
    return _LOWER_I.sub(lambda match: _SPELLED[match.group()], text)


def negations_spelled(text: str) -> str:
    """`text` with a negation's apostrophe put back ("dont" -> "don't", "Cant" -> "Can't")."""
    return _NO_APOSTROPHE.sub(lambda match: match.group()[:-1] + "'t", text)


def spelled_out(text: str) -> str:
    """`text` as the patterns read it: the first person capitalised, negations spelled, and a
    known place after a preposition given its capitals (`app.text.places`)."""
    return places_capitalised(negations_spelled(first_person_capitalised(text)))
