"""Word splitting and folding shared by recall and forget.

Recall and forget must agree on what a word is, or a line that recall finds could survive a
forget (or the other way round). Both read words in any script, keep apostrophes inside a word,
and compare words after case and accent folding.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

APOSTROPHES = "'\u2019\u02bc\u2018"
"""Every way an apostrophe inside a name gets typed: ' ’ ʼ ‘."""

# Letters that are not a base letter with a mark, compared as the seed says.
_SPECIAL_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ð": "d", "đ": "d", "ł": "l", "ı": "i"}
)

# A word: letters and digits of any script, joined by apostrophes or hyphens inside it.
_WORD = re.compile(
    rf"[^\W_][\w\u0300-\u036f]*(?:[{APOSTROPHES}\-][^\W_][\w\u0300-\u036f]*)*"
)
_POSSESSIVE = re.compile(rf"[{APOSTROPHES}]s?$")


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a text, as written, with where it stands."""

    text: str
    start: int
    end: int

    @property
    def parts(self) -> list[str]:
        """The parts of a hyphenated word ("dairy-free" → dairy, free)."""
        return self.text.split("-")


def split_words(text: str) -> list[Word]:
    """Every word of `text` in order; hyphenated words stay whole (see `Word.parts`)."""
    return [Word(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def strip_accents(word: str) -> str:
    """`word` without marks on its letters and with the seed's special letters spelled out."""
    decomposed = unicodedata.normalize("NFKD", word)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return bare.translate(_SPECIAL_LETTERS).translate(_SPECIAL_LETTERS_UPPER)


_SPECIAL_LETTERS_UPPER = str.maketrans(
    {"Ø": "O", "Æ": "AE", "Œ": "OE", "Þ": "TH", "Ð": "D", "Đ": "D", "Ł": "L"}
)


def fold(word: str) -> str:
    """Case- and accent-folded form used to compare words ("Müller" → "muller", "İ" → "i")."""
    return strip_accents(word.casefold()).casefold()


def index_terms(text: str) -> list[str]:
    """Folded terms recall indexes: possessives dropped, apostrophes removed, hyphenated words
    split into their parts (a part without a letter, like a date's digits, is kept whole only)."""
    terms: list[str] = []
    for word in split_words(text):
        base = _POSSESSIVE.sub("", word.text)
        parts = base.split("-")
        if len(parts) > 1 and all(any(ch.isalpha() for ch in p) for p in parts):
            terms.extend(_clean(p) for p in parts)
        else:
            terms.append(_clean(base))
    return [t for t in terms if t]


def _clean(word: str) -> str:
    return fold("".join(ch for ch in word if ch not in APOSTROPHES))
