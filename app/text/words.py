"""Word splitting and folding shared by recall and forget.

Recall and forget must agree on what a word is, or a line that recall finds could survive a
forget (or the other way round). Both read words in any script, keep apostrophes inside a word,
and compare words after case and accent folding.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache

APOSTROPHES = "'\u2019\u02bc\u2018"
"""Every way an apostrophe inside a name gets typed: ' ’ ʼ ‘."""

# Letters that are not a base letter with a mark, compared as the seed says.
_SPECIAL_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ð": "d", "đ": "d", "ł": "l", "ı": "i"}
)

# A word: letters and digits of any script, joined by apostrophes or hyphens inside it.
_WORD = re.compile(rf"[^\W_][\w\u0300-\u036f]*(?:[{APOSTROPHES}\-][^\W_][\w\u0300-\u036f]*)*")
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
    for word in _WORD.findall(text):
        base = _POSSESSIVE.sub("", word) if word[-1] in _POSSESSIVE_ENDS else word
        if "-" in base:
            parts = base.split("-")
            if all(any(ch.isalpha() for ch in p) for p in parts):
                terms.extend(_clean(p) for p in parts)
                continue
        terms.append(_clean(base))
    return [t for t in terms if t]


_POSSESSIVE_ENDS = frozenset(APOSTROPHES + "s")
_NO_APOSTROPHES = str.maketrans("", "", APOSTROPHES)


def _clean(word: str) -> str:
    if word.isascii():
        return word.translate(_NO_APOSTROPHES).lower()
    return fold(word.translate(_NO_APOSTROPHES))


def fold_text(text: str) -> str:
    """Exactly `fold(text)`, for long texts: every step runs in C (regex passes instead of a
    Python loop over every character), so forget can fold all lines of a subject at once."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = _drop_marks(decomposed)
    return _spell_out_special_letters(bare, _SPECIAL_LETTERS_UPPER).casefold()


_SPECIAL = re.compile(
    "[\u00f8\u00e6\u0153\u00df\u00fe\u00f0\u0111\u0142\u0131\u00d8\u00c6\u0152\u00de\u00d0\u0110\u0141]"
)
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _spell_out_special_letters(text: str, upper: dict[int, str]) -> str:
    """`strip_accents`'s two translations, done letter by letter where such a letter stands
    (they are rare, and `str.translate` walks the whole text)."""
    return _SPECIAL.sub(lambda m: m.group().translate(_SPECIAL_LETTERS).translate(upper), text)


def _drop_marks(text: str) -> str:
    """Drop every character of non-zero combining class, as `strip_accents` does. Marks
    outside the Basic Multilingual Plane are rare and make the regex slow, so that pass runs
    only when the text has such characters at all."""
    bmp_marks, astral_marks = _combining_marks()
    bare = bmp_marks.sub("", text)
    if astral_marks is not None and _ASTRAL.search(bare):
        bare = astral_marks.sub("", bare)
    return bare


@cache
def _combining_marks() -> tuple[re.Pattern[str], re.Pattern[str] | None]:
    """Every character `strip_accents` drops (non-zero combining class), as character-class
    regexes: one for the Basic Multilingual Plane, one for the planes above it."""
    ranges: list[list[int]] = []
    for code in range(sys.maxunicode + 1):
        if unicodedata.combining(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    bmp = [r for r in ranges if r[1] <= 0xFFFF]
    astral = [r for r in ranges if r[0] > 0xFFFF]
    return re.compile(_char_class(bmp)), re.compile(_char_class(astral)) if astral else None


def _char_class(ranges: list[list[int]]) -> str:
    return "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"
