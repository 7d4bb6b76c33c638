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

import gzip
import re
from functools import lru_cache
from pathlib import Path

from app.text.words import fold

PLACES_FILE = Path(__file__).parent / "places.txt"
TOWNS_FILE = Path(__file__).parent / "towns.txt.gz"
MAX_WORDS = 3
"""The longest place name looked up, in words ("salt lake city", "rio de janeiro")."""

_AFTER_PREPOSITION = re.compile(
    r"\b(?:in|to|from|near|outside|around|of)\s+(?:the\s+)?"
    r"(?=(?P<words>[a-zà-ÿ][\wà-ÿ'’.-]*(?:\s+[a-zà-ÿ][\wà-ÿ'’.-]*){0,2}))",
    re.IGNORECASE,
)
"""A preposition, and (looked at, not taken) up to `MAX_WORDS` words after it: a place found
there does not hide the next preposition ("from leeds to bristol")."""


@lru_cache(maxsize=1)
def known_towns() -> frozenset[str]:
    """Towns and cities of 1,000 people or more, by their names as written (GeoNames'
    cities1000; built by ops/models/build_places.py): whether a capitalised name is a town."""
    return frozenset(gzip.decompress(TOWNS_FILE.read_bytes()).decode().split("\n")) - {""}


@lru_cache(maxsize=1)
def known_places() -> dict[str, str]:
    """Each place's folded name, to its name as written."""
    names = (line for line in PLACES_FILE.read_text().splitlines() if not line.startswith("#"))
    return {fold(name): name for name in names if name}


def places_capitalised(text: str) -> str:
    """`text` with each known place after a preposition written with its capitals."""
    pieces: list[str] = []
    at = 0
    for match in _AFTER_PREPOSITION.finditer(text):
        start = match.start("words")
        found = _place_in(match.group("words")) if start >= at else None
        if found is not None:
            said, written = found
            pieces += [text[at:start], written]
            at = start + len(said)
    return "".join([*pieces, text[at:]])


def _place_in(words: str) -> tuple[str, str] | None:
    """The longest known place among the first words, as said and with its capitals."""
    places = known_places()
    found = list(_WORD.finditer(words))
    for count in range(min(MAX_WORDS, len(found)), 0, -1):
        name = " ".join(word.group().rstrip(".") for word in found[:count])
        written = places.get(fold(name))
        if written is None:
            continue
        said = words[: found[count - 1].end()]
        letters = list(said)
        for word, written_word in zip(found[:count], written.split(), strict=True):
            if len(written_word) > 1 and written_word.isupper():  # "the uk": the UK
                letters[word.start() : word.end()] = word.group().upper()
            elif written_word[:1].isupper():
                letters[word.start()] = letters[word.start()].upper()
        return said, "".join(letters)
    return None


_WORD = re.compile(r"\S+")
