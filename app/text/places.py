"""Lower-case places given their capital, where a preposition introduces them.

Chat is typed in lower case ("moved back to detroit to be near family", "i work remote from
lisbon"), and the extractor's patterns take a place by its capital letter. `places_capitalised`
writes a known place that follows "in", "to", "from", "near", "outside", "around" or "of"
as its name is written ("rio de janeiro" -> "Rio de Janeiro", "the uk" -> "the UK"), so every
pattern for home, origin and office, and the durable reader's value, read it as they read
"Detroit".

Known places are places.txt beside this module (countries, US states, cities of at least 50,000
people, from GeoNames; built by ops/models/build_places.py), less the names that in lower case
are ordinary words: "dressed in orange", "from mobile" and "in reading" stay as they are. Only
the letters' case changes, so a fact's text is still the user's words.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from app.text.words import fold

PLACES_FILE = Path(__file__).parent / "places.txt"
MAX_WORDS = 3
"""The longest place name looked up, in words ("salt lake city", "rio de janeiro")."""

_AFTER_PREPOSITION = re.compile(
    r"\b(?:in|to|from|near|outside|around|of)\s+(?:the\s+)?"
    r"(?P<words>[a-zà-ÿ][\wà-ÿ'’.-]*(?:\s+[a-zà-ÿ][\wà-ÿ'’.-]*){0,2})",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def known_places() -> dict[str, str]:
    """Each place's folded name, to its name as written."""
    names = (line for line in PLACES_FILE.read_text().splitlines() if not line.startswith("#"))
    return {fold(name): name for name in names if name}


def places_capitalised(text: str) -> str:
    """`text` with each known place after a preposition written with its capitals."""
    return _AFTER_PREPOSITION.sub(_capitalised, text)


def _capitalised(match: re.Match[str]) -> str:
    """The preposition and the words after it, the longest known place among their first
    words given its capitals."""
    places = known_places()
    said = match.group("words")
    words = list(_WORD.finditer(said))
    for count in range(min(MAX_WORDS, len(words)), 0, -1):
        name = " ".join(word.group().rstrip(".") for word in words[:count])
        written = places.get(fold(name))
        if written is None:
            continue
        letters = list(said)
        for word, written_word in zip(words[:count], written.split(), strict=True):
            if len(written_word) > 1 and written_word.isupper():  # "the uk": the UK
                letters[word.start() : word.end()] = word.group().upper()
            elif written_word[:1].isupper():
                letters[word.start()] = letters[word.start()].upper()
        head = match.start("words") - match.start()
        return match.group()[:head] + "".join(letters)
    return match.group()


_WORD = re.compile(r"\S+")
