"""The first person as people type it in chat: "i", "im", "ive", "i'm" read as "I", "I'm",
"I've" (and "Im", "Ive" typed without the apostrophe).

Patterns and the durable reader were written for (and trained on) the first person spelled
"I"; a lower-case "i" is how a great share of chat is typed, and "im a nurse" or "i don't work
at deloitte anymore" must read as their capitalised forms do. Only these tokens change, so a
fact's text is still the user's words and every value (names, places) is untouched; "i.e.",
"i18n" and a lone "i" in a list ("i) first…") are left alone.
"""

from __future__ import annotations

import re

_LOWER_I = re.compile(r"(?<![\w'’.-])(?:i|im|ive|Im|Ive)(?![\w.)-])")
_SPELLED = {"i": "I", "im": "I'm", "ive": "I've", "Im": "I'm", "Ive": "I've"}


def first_person_capitalised(text: str) -> str:
    """`text` with the casual first person written as "I" ("im a nurse" -> "I'm a nurse")."""
    return _LOWER_I.sub(lambda match: _SPELLED[match.group()], text)
