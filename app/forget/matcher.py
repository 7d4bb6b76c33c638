"""Which lines and rules "forget by concept" removes, lists as unsure, or lists as related.

Pure: strings in, data out, no I/O. The rules are the seed's ("Reading and forgetting"); words
come from `app.text.words`, the module recall indexes with, so both read a word alike.

Content words
    A concept's content words are its words (as `split_words` reads them, a trailing
    possessive "'s" dropped) minus English function words (`CONCEPT_FUNCTION_WORDS`: "the", "a",
    "of", "and", ...) written in lowercase, and minus a leading "The" in a concept of several words
    (its capital only starts the phrase: "The Coin Hall" is about "Coin Hall"). Every other
    capitalised word is kept: it is a name, "An" and "Can" included. If nothing is left ("the",
    "of the"), every word is kept: the user asked for exactly those words.

Names
    A word written with a capital is a name and matches only a word written with one; a word
    written in lowercase matches in any case. The first word of a concept that also has a
    lowercase word ("Enterprise contract") matches in any case, unless the next word is a name
    ("Ann Lindqvist's phone number"). Consecutive names, and a hyphenated name, make a name
    of several parts ("Ann Lindqvist", "Smith-Jones").

Unsure
    A line is removed when it holds every content word, and listed as unsure when some content
    word is found only where case does not show a name (first word of a sentence, of a list
    item, of a table cell, any word of a title-case heading, a word in capitals the concept
    does not write in capitals, a whole name of several parts in another case) or only through
    accent folding. A name of several parts found whole and capitalised is sure even where
    case shows nothing ("Will Smith signed the order." for "Will Smith"). A word whose own
    case pattern shows a name ("McAllister", "O'Brien", "DiCaprio") is sure anywhere.

Related
    A kept line is related when it holds every content word once names are compared in any
    case, or holds (in any case) one part of a name of several parts.

Speed
    A concept is parsed once (cached). All texts are folded into one string and searched for
    the folded spelling of each content word and name part standing as a word (a text that
    holds a word always holds that), so only the few texts that may hold the concept are
    split into words, and of those only the words that hold such a spelling are compared.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import accumulate, compress, repeat
from operator import add, not_

from app.text.stopwords import CONCEPT_FUNCTION_WORDS
from app.text.words import APOSTROPHES, Word, fold_text, split_words

LEADING_ARTICLES = frozenset({"the"})
"""Dropped as the first word of a concept of several words, whatever its case."""

TITLE_MINOR_WORDS = CONCEPT_FUNCTION_WORDS | {"but", "nor", "as", "per", "via", "vs"}
"""Words a title-case heading may leave in lowercase ("Plans for the Launch")."""

_NO_APOSTROPHES = str.maketrans("", "", APOSTROPHES)
_POSSESSIVE = re.compile(rf"[{APOSTROPHES}][sS]?$")
_LOOSE_APOSTROPHE = re.compile(
    rf"[{APOSTROPHES}](?<![\w\u0300-\u036f][{APOSTROPHES}])|[{APOSTROPHES}](?![^\W_])"
)
"""An apostrophe that joins no two parts of a word (the literal comes first, for speed)."""
_NON_ASCII_SEPARATOR = re.compile(rf"[^\x00-\x7f\w\u0300-\u036f{APOSTROPHES}]")
_SENTENCE_BREAK = re.compile(r"[.!?][\"'\u201d\u2019\u00bb)\]]*\s")
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019\u00bb)\]]*\s*$")
_LIST_MARKER = re.compile(r"[ \t]*(?:\(?\d{1,3}[.)]|[-*\u2022\u2013\u2014\u00b7])[ \t]+")
_UNSPACED_SCRIPT = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\U00020000-\U0003134f]+"
)
"""Han, kana, Thai, Lao, Khmer, Myanmar: scripts written without spaces between words."""


class Found(IntEnum):
    """How a text holds a concept word; a larger value is a better find."""

    NONE = 0
    OTHER_CASE = 1
    """Only as a name written in another case: related, never removed."""
    UNSURE = 2
    """Removed, and listed in matched_unsure."""
    SURE = 3


@dataclass(frozen=True)
class Match:
    """One line or rule that holds the concept."""

    index: int
    unsure: bool


@dataclass(frozen=True)
class ForgetPlan:
    """What forget does with a list of texts: indices into that list, in order."""

    removed: list[int]
    unsure: list[int]
    related: list[int]

    @property
    def matches(self) -> list[Match]:
        """The removed texts, each saying whether it goes to matched_unsure."""
        unsure = set(self.unsure)
        return [Match(index, index in unsure) for index in self.removed]


@dataclass(frozen=True, slots=True)
class ConceptPart:
    """One hyphen-separated part of a concept word, ready to compare."""

    key: str
    """Spelling as written: NFC, apostrophes out, "İ" read as "I", case folded."""
    folded: str
    """Spelling with accents and the seed's special letters folded too."""
    capital: bool
    """A name part: the text must write it with a capital."""
    all_caps: bool
    """The concept writes it in capitals ("IBM"), so capitals in the text are no doubt."""
    genitive: bool
    """Names also match with a trailing "s" ("Lindqvists", the Nordic "Åsas")."""


@dataclass(frozen=True, slots=True)
class ConceptWord:
    """One content word of a concept."""

    text: str
    parts: tuple[ConceptPart, ...]
    is_name: bool
    unspaced: bool
    """Written in a script without spaces: found inside longer runs of text too (unsure)."""


@dataclass(frozen=True, slots=True)
class Concept:
    """A concept parsed once: what every text is compared with."""

    text: str
    words: tuple[ConceptWord, ...]
    name_runs: tuple[tuple[int, ...], ...]
    """Indices into `words` of each name of several parts ("Ann Lindqvist", "Smith-Jones")."""
    name_parts: tuple[ConceptPart, ...]
    """Every part of those names: a text holding one of them is related."""
    needles: tuple[str, ...]
    """Folded spelling of each content word: a text holding the concept holds them all."""
    part_needles: tuple[str, ...]
    """Folded spelling of each name part: a related text holds one of them."""
    needle_patterns: tuple[re.Pattern[str], ...]
    """Each needle standing as a word (or hyphenated part) of the folded text."""
    part_patterns: tuple[re.Pattern[str], ...]
    """Each part needle standing as a word of the folded text."""

    @property
    def symbols_only(self) -> bool:
        """A concept with no word in it matches only a text that contains it as written."""
        return not self.words


@dataclass(frozen=True, slots=True)
class TextPart:
    """One hyphen-separated part of a word of a text, with what its place says about case."""

    key: str
    folded: str
    capital: bool
    all_caps: bool
    case_blind: bool
    """Its capital may come from where it stands (sentence start, heading, ...), not a name."""
    last: bool
    """Last part of its word: where a genitive "s" may follow a name."""
    glue: str
    """"-" inside a word, " " first part after only whitespace, "" first part otherwise."""


@dataclass(frozen=True, slots=True)
class TextWord:
    """One word of a text, possessive dropped, split into its hyphenated parts."""

    key: str
    parts: tuple[TextPart, ...]
    has_letter: bool


# --- concept -----------------------------------------------------------------------------


@lru_cache(maxsize=256)
def parse_concept(concept: str) -> Concept:
    """Read a concept once: its content words, its names and what a text must contain."""
    text = concept.strip()
    words = split_words(text)
    names = _name_flags(words)
    content = _content_indices(words, names)
    concept_words = tuple(_concept_word(words[i].text, names[i]) for i in content)
    runs = _name_runs(content, names, concept_words)
    name_parts = tuple(part for run in runs for i in run for part in concept_words[i].parts)
    needles = tuple(_folded_key(w.text) for w in concept_words)
    part_needles = tuple(dict.fromkeys(p.folded for p in name_parts))
    return Concept(
        text=text,
        words=concept_words,
        name_runs=runs,
        name_parts=name_parts,
        needles=needles,
        part_needles=part_needles,
        needle_patterns=tuple(_word_pattern(n) for n in needles),
        part_patterns=tuple(_word_pattern(n) for n in part_needles),
    )


def _name_flags(words: list[Word]) -> list[bool]:
    """Which concept words are names: those written with a capital, except a first word that
    only starts a phrase of lowercase words ("Enterprise contract", not "Ann Lindqvist's ...")."""
    names = [_starts_capital(w.text) for w in words]
    has_lowercase = any(_starts_lowercase(w.text) for w in words)
    if len(words) > 1 and has_lowercase and names[0] and not names[1]:
        names[0] = False
    return names


def _content_indices(words: list[Word], names: list[bool]) -> list[int]:
    """Indices of the content words (see the module docstring); all words if none is left."""
    content = []
    for i, word in enumerate(words):
        folded = _exact_key(_strip_possessive(word.text))
        if i == 0 and len(words) > 1 and folded in LEADING_ARTICLES:
            continue
        if not names[i] and folded in CONCEPT_FUNCTION_WORDS:
            continue
        content.append(i)
    return content or list(range(len(words)))


def _concept_word(raw: str, is_name: bool) -> ConceptWord:
    base = _strip_possessive(raw)
    parts = tuple(
        ConceptPart(
            key=_exact_key(part),
            folded=_folded_key(part),
            capital=is_name and _starts_capital(part),
            all_caps=_is_all_caps(part),
            genitive=is_name,
        )
        for part in base.split("-")
    )
    unspaced = _UNSPACED_SCRIPT.fullmatch(base) is not None
    return ConceptWord(text=base, parts=parts, is_name=is_name, unspaced=unspaced)


def _name_runs(
    content: list[int], names: list[bool], words: tuple[ConceptWord, ...]
) -> tuple[tuple[int, ...], ...]:
    """Names of several parts: consecutive content names, or one hyphenated name."""
    runs: list[tuple[int, ...]] = []
    current: list[int] = []
    previous = -2
    for position, original in enumerate(content):
        if names[original] and original == previous + 1 and current:
            current.append(position)
        else:
            if current:
                runs.append(tuple(current))
            current = [position] if names[original] else []
        previous = original
    if current:
        runs.append(tuple(current))
    return tuple(run for run in runs if sum(len(words[i].parts) for i in run) > 1)


def concept_queries(concept: str) -> list[str]:
    """Questions built from the concept, to check that recall no longer finds it."""
    parsed = parse_concept(concept)
    if not parsed.text:
        return []
    if parsed.symbols_only:
        return [parsed.text]
    queries = [parsed.text, " ".join(w.text for w in parsed.words)]
    queries.append(f"What do we know about {parsed.text}?")
    for run in parsed.name_runs or _single_names(parsed):
        queries.append(f"Who is {' '.join(parsed.words[i].text for i in run)}?")
    return list(dict.fromkeys(queries))


def _single_names(parsed: Concept) -> tuple[tuple[int, ...], ...]:
    return tuple((i,) for i, word in enumerate(parsed.words) if word.is_name)


# --- texts -------------------------------------------------------------------------------


def read_text(text: str, concept: Concept | None = None) -> list[TextWord]:
    """Split a text into words and parts, marking where its case does not show a name.

    Given a concept, words that cannot match any of its words or name parts (they do not
    contain a needle) are left as `_OTHER_WORD`, which keeps the words around it apart; that
    is most of the cost saved on a long line."""
    words = split_words(text)
    starts, headings = _case_blind_positions(text, words)
    read: list[TextWord] = []
    previous_end: int | None = None
    for word, starts_sentence, in_heading in zip(words, starts, headings, strict=True):
        if concept is None or _may_be_concept_word(concept, word.text):
            joined = previous_end is not None and _only_whitespace(text[previous_end : word.start])
            read.append(_text_word(word.text, starts_sentence, in_heading, joined))
        else:
            read.append(_OTHER_WORD)
        previous_end = word.end
    return read


def _may_be_concept_word(concept: Concept, word: str) -> bool:
    key = _search_key(word)
    return any(needle in key for needle in concept.needles + concept.part_needles)


def _text_word(raw: str, starts_sentence: bool, in_heading: bool, joined: bool) -> TextWord:
    base = _strip_possessive(raw)
    pieces = base.split("-")
    parts = tuple(
        TextPart(
            key=_exact_key(piece),
            folded=_folded_key(piece),
            capital=_starts_capital(piece),
            all_caps=_is_all_caps(piece),
            case_blind=(in_heading or (starts_sentence and n == 0)) and not _shows_case(piece),
            last=n == len(pieces) - 1,
            glue="-" if n else (" " if joined else ""),
        )
        for n, piece in enumerate(pieces)
    )
    has_letter = any(ch.isalpha() for ch in base)
    return TextWord(key=_exact_key(base), parts=parts, has_letter=has_letter)


def _case_blind_positions(text: str, words: list[Word]) -> tuple[list[bool], list[bool]]:
    """For each word: does it start a sentence, list item or table cell; is it in a title-case
    heading. There a capital is what the writing asks for, so it does not show a name."""
    starts = [False] * len(words)
    headings = [False] * len(words)
    index = 0
    offset = 0
    for line in text.split("\n"):
        end = offset + len(line)
        first = index
        while index < len(words) and words[index].start < end:
            index += 1
        marker = _LIST_MARKER.match(line)
        body = offset + (marker.end() if marker else 0)
        in_line = [k for k in range(first, index) if words[k].start >= body]
        heading = _is_title_case_heading(line, [words[k] for k in in_line])
        previous_end = body
        for k in in_line:
            gap = text[previous_end : words[k].start]
            starts[k] = k == in_line[0] or "|" in gap or _SENTENCE_BREAK.search(gap) is not None
            headings[k] = heading
            previous_end = words[k].end
        offset = end + 1
    return starts, headings


def _is_title_case_heading(line: str, words: list[Word]) -> bool:
    """A line like "Shipping Will Resume Monday": every word capitalised but minor words, at
    least two capitals, and no sentence end. A table row is no heading: there only the first
    word of each cell is case-blind."""
    if "|" in line or _SENTENCE_END.search(line):
        return False
    cased = [w.text for w in words if _first_cased(w.text) is not None]
    capitals = 0
    for n, word in enumerate(cased):
        if _starts_capital(word):
            capitals += 1
        elif n == 0 or word.casefold() not in TITLE_MINOR_WORDS:
            return False
    return capitals >= 2


# --- matching ----------------------------------------------------------------------------


def plan_forget(concept: str, texts: Sequence[str]) -> ForgetPlan:
    """What forgetting `concept` does to `texts` (lines, or rule texts)."""
    parsed = parse_concept(concept)
    removed: list[int] = []
    unsure: list[int] = []
    related: list[int] = []
    if not parsed.text:
        return ForgetPlan(removed, unsure, related)
    if parsed.symbols_only:
        removed = [i for i, text in enumerate(texts) if parsed.text in text]
        return ForgetPlan(removed, unsure, related)
    for index in candidates(parsed, texts):
        verdict = judge(parsed, texts[index])
        if verdict >= Found.UNSURE:
            removed.append(index)
            if verdict == Found.UNSURE:
                unsure.append(index)
        elif verdict == Found.OTHER_CASE:
            related.append(index)
    return ForgetPlan(removed, unsure, related)


def holds_concept(concept: str, text: str) -> bool:
    """True when forget would remove `text` (sure or unsure)."""
    return bool(plan_forget(concept, [text]).removed)


def judge(concept: Concept, text: str) -> Found:
    """SURE / UNSURE: removed (listed or not); OTHER_CASE: kept but related; NONE: untouched."""
    words = read_text(text, concept)
    near = [word for word in words if word is not _OTHER_WORD]
    found = [max((_word_found(cw, tw) for tw in near), default=Found.NONE) for cw in concept.words]
    for run in concept.name_runs:
        if any(found[i] < Found.SURE for i in run):
            parts = [part for word in words for part in word.parts]
            run_found = _run_found([concept.words[i] for i in run], parts)
            for i in run:
                found[i] = max(found[i], run_found)
    lowest = min(found)
    if lowest >= Found.UNSURE:
        return lowest
    if lowest == Found.OTHER_CASE or _holds_a_name_part(concept, near):
        return Found.OTHER_CASE
    return Found.NONE


def _word_found(word: ConceptWord, text_word: TextWord) -> Found:
    """Best find of a concept word in one text word: the whole word, or (when the text word
    holds a letter, so it is no date or phone number) a run of its hyphenated parts."""
    if word.unspaced:
        return _unspaced_found(word, text_word)
    k, n = len(word.parts), len(text_word.parts)
    if k > n or (k < n and not text_word.has_letter):
        return Found.NONE
    best = Found.NONE
    for start in range(n - k + 1):
        found = Found.SURE
        for part, text_part in zip(word.parts, text_word.parts[start : start + k], strict=True):
            found = min(found, _spelling_found(part, text_part), _case_found(part, text_part))
            if found == Found.NONE:
                break
        best = max(best, found)
    return best


def _unspaced_found(word: ConceptWord, text_word: TextWord) -> Found:
    """Scripts without spaces run words together, so the word may sit inside a longer run:
    removed, but listed, since the run may be another word that contains it."""
    key = word.parts[0].key
    if text_word.key == key:
        return Found.SURE
    return Found.UNSURE if key in text_word.key else Found.NONE


def _run_found(run: list[ConceptWord], parts: list[TextPart]) -> Found:
    """Best find of a whole name of several parts, part after part in the text (hyphens where
    the concept has hyphens, spaces between words). Found capitalised it is sure wherever it
    stands; in lowercase or in capitals it is unsure ("ann lindqvist", "ANN LINDQVIST")."""
    wanted = [(part, "-" if n else " ") for word in run for n, part in enumerate(word.parts)]
    best = Found.NONE
    for start in range(len(parts) - len(wanted) + 1):
        found = Found.SURE
        for offset, (part, glue) in enumerate(wanted):
            text_part = parts[start + offset]
            if offset and text_part.glue != glue:
                found = Found.NONE
            else:
                found = min(
                    found, _spelling_found(part, text_part), _run_case_found(part, text_part)
                )
            if found == Found.NONE:
                break
        best = max(best, found)
    return best


def _holds_a_name_part(concept: Concept, words: list[TextWord]) -> bool:
    """True when the text holds, in any case, one part of a name of several parts (only the
    spelling is compared: case does not matter for related)."""
    return any(
        _spelling_found(part, text_part) != Found.NONE
        for part in concept.name_parts
        for word in words
        for text_part in word.parts
    )


def _spelling_found(part: ConceptPart, text_part: TextPart) -> Found:
    """SURE when the text spells the part as the concept does (case aside), UNSURE when only
    accent folding makes them one word ("Åsa" and "Asa" are two Swedish names)."""
    genitive = part.genitive and text_part.last
    if text_part.key == part.key or (genitive and text_part.key == part.key + "s"):
        return Found.SURE
    if text_part.folded == part.folded or (genitive and text_part.folded == part.folded + "s"):
        return Found.UNSURE
    return Found.NONE


def _case_found(part: ConceptPart, text_part: TextPart) -> Found:
    """What the text's case says of a name part found alone: a lowercase word is another
    word; capitals the concept does not use, or a capital the place asks for, prove nothing."""
    if not part.capital:
        return Found.SURE
    if not text_part.capital:
        return Found.OTHER_CASE
    if text_part.all_caps:
        return Found.SURE if part.all_caps else Found.UNSURE
    return Found.UNSURE if text_part.case_blind else Found.SURE


def _run_case_found(part: ConceptPart, text_part: TextPart) -> Found:
    """Case of a part found inside a whole name of several parts: the name going on is the
    proof, so only another case (lowercase, or capitals the concept does not use) leaves doubt."""
    if not part.capital:
        return Found.SURE
    if not text_part.capital or (text_part.all_caps and not part.all_caps):
        return Found.UNSURE
    return Found.SURE


# --- fast test ---------------------------------------------------------------------------


_SEPARATOR = "\x00"


def candidates(concept: Concept, texts: Sequence[str]) -> list[int]:
    """Indices of the texts that may hold the concept or a part of its names. All texts are
    folded and searched as one string (C speed) rather than text by text; ASCII texts, the
    usual case, only need lowercasing, so they are searched apart from the others."""
    ascii_flags = list(map(str.isascii, texts))
    groups = [ascii_flags] if all(ascii_flags) else [ascii_flags, list(map(not_, ascii_flags))]
    found: list[int] = []
    for flags in groups:
        indices = list(compress(range(len(texts)), flags))
        joined = _SEPARATOR.join(compress(texts, flags))
        if joined.count(_SEPARATOR) != max(len(indices) - 1, 0):  # a text holds the separator
            return [i for i, text in enumerate(texts) if _may_hold(concept, _search_key(text))]
        if indices:
            found += _candidates_among(concept, joined, indices)
    return sorted(found) if len(groups) > 1 else found


def _candidates_among(concept: Concept, joined: str, indices: Sequence[int]) -> list[int]:
    """`_candidates` for texts joined by `_SEPARATOR`; `indices` are their places in the list."""
    key = _search_key(joined)
    ends = list(accumulate(map(add, map(len, key.split(_SEPARATOR)), repeat(1))))

    searched: dict[re.Pattern[str], set[int]] = {}

    def lines_with(pattern: re.Pattern[str]) -> set[int]:
        if pattern not in searched:  # a name part is often a content word too
            searched[pattern] = {bisect_right(ends, m.start()) for m in pattern.finditer(key)}
        return searched[pattern]

    lines: set[int] = set()
    for n, pattern in enumerate(concept.needle_patterns):
        hits = lines_with(pattern)
        lines = hits if n == 0 else lines & hits
        if not lines:
            break
    for pattern in concept.part_patterns:
        lines |= lines_with(pattern)
    return [indices[line] for line in sorted(lines)]


def _may_hold(concept: Concept, key: str) -> bool:
    """The same test as `_candidates` for one text: it holds the folded spelling of every
    content word (or of one name part) as a word."""
    if all(pattern.search(key) for pattern in concept.needle_patterns):
        return True
    return any(pattern.search(key) for pattern in concept.part_patterns)


@lru_cache(maxsize=1024)
def _word_pattern(needle: str) -> re.Pattern[str]:
    """The needle standing as a word: nothing word-like on either side but a genitive "s".
    The look-behind comes after the literal so the regex engine can jump to the literal.
    Scripts without spaces have no word edges, so there it is any substring."""
    literal = re.escape(needle)
    if _UNSPACED_SCRIPT.search(needle):
        return re.compile(literal)
    return re.compile(rf"{literal}(?<![^\W_]{literal})s?(?![^\W_])")


def _search_key(text: str) -> str:
    """The folded text the needles are looked for in. Its word edges must be where
    `split_words` puts them, or a needle could miss its word: an apostrophe inside a word is
    dropped (as in the needles), any other apostrophe and every non-ASCII character that is
    no part of a word ("™" folds to "tm", "😀") become a space before folding."""
    if text.isascii():
        key = text.lower()
        return _LOOSE_APOSTROPHE.sub(" ", key).replace("'", "") if "'" in key else key
    spaced = _NON_ASCII_SEPARATOR.sub(" ", _LOOSE_APOSTROPHE.sub(" ", text))
    return _without_apostrophes(fold_text(spaced))


def _without_apostrophes(key: str) -> str:
    """Apostrophes out, as in the concept's needles ("O’Brien" and "OBrien" are one name)."""
    for apostrophe in APOSTROPHES:
        if apostrophe in key:
            key = key.replace(apostrophe, "")
    return key


_OTHER_WORD = TextWord(
    key="",
    parts=(TextPart("", "", False, False, False, last=True, glue=""),),
    has_letter=False,
)
"""Stands for a text word that holds no needle: matches nothing, breaks every run."""


# --- small helpers -----------------------------------------------------------------------


def _strip_possessive(word: str) -> str:
    """Drop a possessive ("Ann's", "Ann’s" → "Ann"): it is the same word."""
    return _POSSESSIVE.sub("", word) or word


def _exact_key(word: str) -> str:
    """Compare key for a word as written: apostrophes out (however typed, or none), "İ" read
    as "I", case folded."""
    text = unicodedata.normalize("NFC", word.translate(_NO_APOSTROPHES)).replace("İ", "I")
    return text.casefold().replace("i\u0307", "i")


def _folded_key(word: str) -> str:
    """Compare key with accents and special letters folded ("Søren" → "soren")."""
    return fold_text(word.translate(_NO_APOSTROPHES))


def _first_cased(word: str) -> str | None:
    for ch in word:
        if ch.isupper() or ch.islower() or ch.istitle():
            return ch
    return None


def _starts_capital(word: str) -> bool:
    first = _first_cased(word)
    return first is not None and (first.isupper() or first.istitle())


def _starts_lowercase(word: str) -> bool:
    first = _first_cased(word)
    return first is not None and first.islower()


def _is_all_caps(word: str) -> bool:
    """Written in capitals: at least two capitals and no lowercase letter."""
    return word.isupper() and sum(1 for ch in word if ch.isupper()) >= 2


def _shows_case(word: str) -> bool:
    """A capital after the first letter next to lowercase ones ("McAllister", "O'Brien"): no
    sentence start or heading writes a word so, so its case shows a name anywhere."""
    first = _first_cased(word)
    if first is None:
        return False
    rest = word[word.index(first) + 1 :]
    return any(ch.isupper() for ch in rest) and any(ch.islower() for ch in word)


def _only_whitespace(gap: str) -> bool:
    return bool(gap) and gap.isspace()
