"""Lexical recall over one subject's lines: words and short phrases, BM25 weights.

Recall shows the engine the few lines that share names and phrases with the state (seed,
"Making sure the right lines are found"). It is deliberately lexical: a fact worded very
differently from the state is missed, and that is documented behaviour, not a bug.

Words come from `app.text.words.index_terms`, the module forget uses too, so both agree on
what a word is (case, accents, apostrophes, hyphens). On top of it, and only inside recall
(applied alike to lines and queries), this module drops a small list of English function
words and folds plural, -ing and -ed endings, so "invoices" finds "invoice". Forget never
sees these folds: it checks every line recall returns with its own whole-word matching.

A phrase is a pair of content words that stand next to each other once function words are
left out ("written in Swedish" gives "written swedish"). Phrases are indexed as terms of
their own, so a line that shares a pair outranks one that holds the same words apart.

The index is built once per subject version and cached by the caller, in process and in
Redis, so every weight a query needs is computed at build time, and a query skips the long
posting lists of common words once they can no longer change the answer (see `recall`).
"""

from __future__ import annotations

import heapq
import json
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import log

from app.text.words import index_terms

# BM25+ parameters. A line is one fact, and a longer line is usually a fuller fact rather
# than a wordier one, so length counts for less than in documents (B 0.3, not the usual
# 0.75), and DELTA gives a matched word a floor however long its line (BM25+). On the LoCoMo
# benchmark (ops/bench/recall.py) K1 0.6 to 1.5, B 0.2 to 0.5 and DELTA 0.25 to 1 all land
# within 0.005 of each other; the lower B also keeps the query-time score bounds tight.
K1 = 1.2
B = 0.3
DELTA = 0.5

PHRASE_WEIGHT = 1.0
"""Multiplier of a phrase's BM25 weight. A shared pair is rarer than its two words, so its idf
already rewards it; weighting it like a word keeps one phrase from outvoting the rest."""

STATE_WEIGHT = 1.0
NAME_WEIGHT = 1.0
QUESTION_WEIGHT = 0.5
"""Question words weigh half of state and name words. The question text (instructions and
criteria) is the same for every decision of a kind, so its words would pull the same lines
every time; at half weight they still find a line the state cannot reach (the reply-language
line for "Which language should the reply be written in?"), yet a line that matches this
state as well wins over one that only matches the question. Names weigh as much as the
state: they are what the decision is about, and a name shared by every line of the subject
already has a tiny idf, so it ranks such lines only when nothing else does."""

STOP_WORDS = frozenset(
    """
    a about again all also am an and any are as at be because been being both but by can
    could did do does doing during each either few for from further had has have having he
    her here hers herself him himself his how i if in into is it its itself just me more
    most my myself neither nor of on once only or other ought our ours ourselves own same
    shall she should so some such than that the their theirs them themselves then there
    these they this those through to too until very was we were what when where which while
    who whom whose why will with would you your yours yourself yourselves
    dont doesnt didnt isnt arent wasnt werent cant couldnt wont wouldnt shouldnt hasnt
    havent hadnt im ive youre youve theyre theyve weve hes shes lets
    """.split()
)
"""English function words: they are in most lines, so they should not make a line relevant.
Words that carry meaning in a state ("down", "out", "not", "no", "off", "before") are kept."""

_PAIR_JOINER = " "  # index terms never hold a space, so a pair cannot clash with a word
_FORMAT_VERSION = 1
_MAGIC = b"DRI1"


class CorruptIndex(ValueError):
    """Serialised index bytes that are not a well-formed index of this format version."""


@dataclass(frozen=True, slots=True)
class Hit:
    """A recalled line: its position in the subject's lines, and its score."""

    index: int
    score: float


@dataclass(frozen=True, slots=True)
class RecallOptions:
    """The request's `memory` knobs (seed "Using" and "Making sure the right lines are found").

    top_k: at most this many lines. min_share: keep a line only when its score reaches this
    share of the best line's. use_names / use_question_words: search the subject's names and
    the question text too. focus: keep a line only when it shares a word with the state
    beyond the subject's names.
    """

    top_k: int = 6
    min_share: float = 0.2
    use_names: bool = True
    use_question_words: bool = True
    focus: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.top_k, bool) or not isinstance(self.top_k, int):
            raise ValueError("top_k must be an integer")
        if not 1 <= self.top_k <= 20:
            raise ValueError("top_k must be between 1 and 20")
        if not 0.05 <= self.min_share <= 1:
            raise ValueError("min_share must be between 0.05 and 1")


def subject_name_words(subject_id: str) -> list[str]:
    """The words of a subject id ("northwind-traders" → northwind, traders).

    A short number ("acct-1" → acct) is left out: "1" is in too many lines to be a name,
    while a longer one ("acct-7781" → acct, 7781) can be an account number lines mention.
    """
    words = subject_id.replace("_", "-").split("-")
    return [w for w in words if any(ch.isalpha() for ch in w) or len(w) >= 3]


# --- words -------------------------------------------------------------------------------

_VOWELS = frozenset("aeiouy")


def fold_ending(term: str) -> str:
    """One form for a word's plural, -ing and -ed forms: "invoices", "invoice" → invoic;
    "painted", "painting", "paints" → paint; "stories", "story" → stori; "baked", "bake",
    "baking" → bak. Recall only, on lines and queries alike, so the forms meet.

    Not a stemmer: only these endings go (no -er, -ly, -ness), a stem keeps three letters
    and a vowel ("thing", "need", "red" stay), and only alphabetic terms are folded (a
    date's digits or "2020s" stay as they are). A few words meet that should not ("hope"
    and "hop"): a line found that way is one more line shown, never a line lost.
    """
    if not term.isalpha():
        return term
    if len(term) > 3:  # plural
        if term.endswith("ies") and len(term) > 4:
            term = term[:-3] + "y"
        elif term.endswith(("sses", "xes", "zes", "ches", "shes")):
            term = term[:-2]
        elif term.endswith("s") and not term.endswith(("ss", "us", "is")):
            term = term[:-1]
    term = _fold_verb_ending(term)
    if len(term) >= 3 and term.endswith("y"):  # story, stories (after the plural: story)
        return term[:-1] + "i"
    if len(term) >= 4 and term.endswith("ie"):  # movie, movies (movy) → movi
        return term[:-1]
    if len(term) > 3 and term.endswith("e"):  # bake, baked (bak), baking (bak)
        return term[:-1]
    return term


def _fold_verb_ending(term: str) -> str:
    if term.endswith("ing"):
        stem = term[:-3]
    elif term.endswith("ed") and not term.endswith("eed"):
        stem = term[:-2]
    else:
        return term
    if len(stem) < 3 or not _VOWELS.intersection(stem):
        return term
    if stem[-1] == stem[-2] and stem[-1] not in "lsz" and stem[-1] not in _VOWELS:
        return stem[:-1]  # running → run, stopped → stop; called, passed stay
    return stem


def content_terms(text: str) -> list[str]:
    """The words of `text` that recall scores, in order: function words left out, plurals
    folded. Splitting, case and accents are `index_terms`'s, shared with forget."""
    return words_and_phrases(text)[0]


def words_and_phrases(text: str) -> tuple[list[str], list[str]]:
    """The content words of `text` and its phrases: pairs of content words next to each other
    once function words are left out, within a clause (a pair never spans punctuation:
    "Caroline: Hey" or "group. Yesterday" is no phrase).

    `index_terms` runs on each whitespace-separated chunk rather than on the whole text,
    with the chunk's terms cached: a word never spans whitespace (every character of a word
    is a letter, digit, mark, apostrophe or hyphen), so the words are the same, and the
    common chunks of a subject's states cost a cache lookup instead of folding each time.
    """
    words: list[str] = []
    phrases: list[str] = []
    previous = ""  # the content word a next one pairs with, "" after punctuation
    for chunk in text.split():
        terms, opens, closes = _chunk_terms(chunk)
        if opens:
            previous = ""
        for term in terms:
            if previous:
                phrases.append(previous + _PAIR_JOINER + term)
            words.append(term)
            previous = term
        if closes:
            previous = ""
    return words, phrases


@lru_cache(maxsize=65536)
def _chunk_terms(chunk: str) -> tuple[tuple[str, ...], bool, bool]:
    """A chunk's content terms, and whether it starts or ends with punctuation."""
    folded = (fold_ending(t) for t in index_terms(chunk) if t not in STOP_WORDS)
    return tuple(t for t in folded if t), not chunk[0].isalnum(), not chunk[-1].isalnum()


# --- index -------------------------------------------------------------------------------


class RecallIndex:
    """Posting lists of one subject's lines, with every BM25 contribution precomputed.

    Inverted: for term t, `_ids[_offsets[t]:_offsets[t + 1]]` are the lines holding it
    (ascending) and `_weights` over the same range what each of those lines scores for it;
    `_max_weight[t]` bounds that score. Forward: for line n,
    `_line_terms[_line_offsets[n]:_line_offsets[n + 1]]` are the terms it holds, so a query
    can finish a line's score without walking the long lists of common words. Arrays rather
    than lists keep a cached 10,000-line subject at a few megabytes in process.
    """

    __slots__ = (
        "line_count",
        "_terms",
        "_term_ids",
        "_offsets",
        "_ids",
        "_weights",
        "_max_weight",
        "_line_offsets",
        "_line_terms",
    )

    def __init__(
        self,
        line_count: int,
        terms: list[str],
        inverted: tuple[array, array, array, array],
        forward: tuple[array, array],
    ) -> None:
        self.line_count = line_count
        self._terms = terms
        self._term_ids = {term: n for n, term in enumerate(terms)}
        self._offsets, self._ids, self._weights, self._max_weight = inverted
        self._line_offsets, self._line_terms = forward

    @property
    def term_count(self) -> int:
        return len(self._terms)

    def _arrays(self) -> tuple[array, ...]:
        return (
            self._offsets,
            self._ids,
            self._weights,
            self._max_weight,
            self._line_offsets,
            self._line_terms,
        )

    def to_bytes(self) -> bytes:
        """Compact, safe-to-load bytes: a JSON header (format, line count, terms) and the
        arrays as little-endian numbers, zlib-compressed. No pickle."""
        header = json.dumps(
            {
                "v": _FORMAT_VERSION,
                "lines": self.line_count,
                "ids": self._ids.typecode,
                "term_ids": self._line_terms.typecode,
                "terms": self._terms,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        parts = [len(header).to_bytes(4, "little"), header]
        parts.extend(_little_endian(values) for values in self._arrays())
        return _MAGIC + zlib.compress(b"".join(parts), 1)

    @classmethod
    def from_bytes(cls, data: bytes) -> RecallIndex:
        """Load bytes from `to_bytes`; anything malformed raises `CorruptIndex`."""
        if not data.startswith(_MAGIC):
            raise CorruptIndex("not a recall index")
        try:
            body = zlib.decompress(data[len(_MAGIC) :])
            header_len = int.from_bytes(body[:4], "little")
            header = json.loads(body[4 : 4 + header_len].decode())
        except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CorruptIndex("unreadable recall index") from exc
        if not isinstance(header, dict) or header.get("v") != _FORMAT_VERSION:
            raise CorruptIndex("unknown recall index version")
        line_count, terms = header.get("lines"), header.get("terms")
        id_code, term_code = header.get("ids"), header.get("term_ids")
        if (
            not isinstance(line_count, int)
            or line_count < 0
            or not isinstance(terms, list)
            or not all(isinstance(t, str) for t in terms)
            or id_code not in ("H", "I")
            or term_code not in ("H", "I")
        ):
            raise CorruptIndex("malformed recall index header")
        view = memoryview(body)[4 + header_len :]
        offsets, view = _read_array("I", len(terms) + 1, view)
        total = offsets[-1]
        ids, view = _read_array(id_code, total, view)
        weights, view = _read_array("f", total, view)
        max_weight, view = _read_array("f", len(terms), view)
        line_offsets, view = _read_array("I", line_count + 1, view)
        line_terms, view = _read_array(term_code, total, view)
        if (
            len(view)
            or not _is_offsets(offsets, total)
            or not _is_offsets(line_offsets, total)
            or (total and (max(ids) >= line_count or max(line_terms) >= len(terms)))
        ):
            raise CorruptIndex("malformed recall index postings")
        return cls(
            line_count, terms, (offsets, ids, weights, max_weight), (line_offsets, line_terms)
        )


def build_index(lines: Sequence[str]) -> RecallIndex:
    """Index a subject's lines: BM25+ (K1, B, DELTA) over words and phrases."""
    per_line: list[tuple[dict[str, int], int]] = []
    doc_freq: dict[str, int] = {}
    for line in lines:
        words, phrases = words_and_phrases(line)
        counts: dict[str, int] = {}
        for term in words:
            counts[term] = counts.get(term, 0) + 1
        for term in phrases:
            counts[term] = counts.get(term, 0) + 1
        for term in counts:
            doc_freq[term] = doc_freq.get(term, 0) + 1
        per_line.append((counts, len(words)))

    line_count = len(lines)
    average_length = sum(length for _, length in per_line) / line_count if line_count else 0.0
    terms = sorted(doc_freq)
    term_ids = {term: n for n, term in enumerate(terms)}
    idf = [
        _idf(line_count, doc_freq[term]) * (PHRASE_WEIGHT if _PAIR_JOINER in term else 1.0)
        for term in terms
    ]
    postings: list[list[tuple[int, float]]] = [[] for _ in terms]
    line_offsets = array("I", [0])
    line_terms = array("H" if len(terms) <= 0xFFFF else "I")
    for line_no, (counts, length) in enumerate(per_line):
        norm = K1 * (1 - B + B * length / average_length) if average_length else K1
        held = sorted(term_ids[term] for term in counts)
        for term_id in held:
            tf = counts[terms[term_id]]
            weight = idf[term_id] * (tf * (K1 + 1) / (tf + norm) + DELTA)
            postings[term_id].append((line_no, weight))
        line_terms.extend(held)
        line_offsets.append(len(line_terms))

    offsets = array("I", [0])
    ids = array("H" if line_count <= 0xFFFF else "I")
    weights = array("f")
    max_weight = array("f")
    for entries in postings:
        ids.extend(line_no for line_no, _ in entries)
        weights.extend(weight for _, weight in entries)
        offsets.append(len(ids))
        # the bound must hold for the stored float32 weights, so take it from them
        max_weight.append(max(weights[offsets[-2] : offsets[-1]]))
    return RecallIndex(
        line_count, terms, (offsets, ids, weights, max_weight), (line_offsets, line_terms)
    )


def _idf(line_count: int, doc_freq: int) -> float:
    """BM25 idf that stays positive: a word in every line still counts a little (names)."""
    return log(1 + (line_count - doc_freq + 0.5) / (doc_freq + 0.5))


# --- query -------------------------------------------------------------------------------


@dataclass(slots=True)
class _Query:
    """The query's terms found in the index: (term id, weight, bound) largest bound first,
    where bound is the most the term can add to a line's score; their weights by term id;
    and with focus, the ids of the state's words beyond the names."""

    terms: list[tuple[int, float, float]]
    weights: dict[int, float]
    focus: frozenset[int] | None


def recall(
    index: RecallIndex,
    *,
    state: str,
    question: str,
    names: Sequence[str],
    options: RecallOptions,
) -> list[Hit]:
    """The lines to show the engine for this state, best first.

    A line's score is the sum, over the query's words and phrases it holds, of the term's
    BM25+ weight times the query weight of its source (state, names, question; a term from
    several sources counts once, at its highest weight). Kept: lines with a positive score
    (with `focus`, only those holding a state word beyond the names), reaching `min_share`
    of the best such line, at most `top_k`. Ties go to the earlier line.

    The answer is exact, but not every posting is read: terms are added rarest first (by
    the most they can add), and once the terms left could not lift a line not yet seen to
    the score the answer needs, the lines seen are finished from the forward index instead
    (see `_score`). The long lists of common words, the subject's own name among them, are
    then never walked.
    """
    if index.line_count == 0:
        return []
    query = _query(index, state=state, question=question, names=names, options=options)
    if not query.terms or query.focus == frozenset():
        return []
    return _select(_score(index, query, options), options)


def _query(
    index: RecallIndex,
    *,
    state: str,
    question: str,
    names: Sequence[str],
    options: RecallOptions,
) -> _Query:
    """The names' words are never focus words, even when names are not searched: sharing
    only the subject's name with the state is what focus leaves out."""
    weights: dict[str, float] = {}
    name_words: set[str] = set()
    for name in names:
        name_terms, words = _cached_terms(name)
        name_words.update(words)
        if options.use_names:
            _raise_weights(weights, name_terms, NAME_WEIGHT)
    if question and options.use_question_words:
        _raise_weights(weights, _cached_terms(question)[0], QUESTION_WEIGHT)
    state_words, state_phrases = words_and_phrases(state)
    _raise_weights(weights, state_words, STATE_WEIGHT)
    _raise_weights(weights, state_phrases, STATE_WEIGHT)

    term_ids, max_weight = index._term_ids, index._max_weight
    found = []
    for term, weight in weights.items():
        term_id = term_ids.get(term)
        if term_id is not None:
            found.append((weight * max_weight[term_id], term_id, weight))
    found.sort(reverse=True)
    focus = None
    if options.focus:
        focus_words = set(state_words) - name_words
        focus = frozenset(term_ids[w] for w in focus_words if w in term_ids)
    return _Query(
        terms=[(term_id, weight, bound) for bound, term_id, weight in found],
        weights={term_id: weight for _, term_id, weight in found},
        focus=focus,
    )


@lru_cache(maxsize=1024)
def _cached_terms(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Words and phrases of a question or name (the same text comes with every decision),
    and its words alone."""
    words, phrases = words_and_phrases(text)
    return (*words, *phrases), frozenset(words)


def _raise_weights(weights: dict[str, float], terms: Iterable[str], weight: float) -> None:
    for term in terms:
        if weights.get(term, 0.0) < weight:
            weights[term] = weight


# --- scoring -----------------------------------------------------------------------------

# A posting list shorter than this is cheaper to add than to check whether it can be skipped.
_CHECK_FROM = 64
# Finishing a line from the forward index costs about as much as adding this many postings.
_FINISH_COST = 16
# Scores are float sums: compare bounds with a little room so rounding never drops a line.
_ROOM = 1 - 1e-6


def _score(index: RecallIndex, query: _Query, options: RecallOptions) -> dict[int, float]:
    """Exact scores of every line that can be in the answer (with focus, of focused lines
    only); other lines may be missing.

    Terms are added along their posting lists, largest bound first. Before a long list,
    `cut`, a score the answer's last line will reach, is raised by finishing the best lines
    so far (`_probe`). Once the bounds of the terms left add up to less than `cut`, a line
    not seen yet cannot make the answer, and neither can a seen line below `cut` minus them:
    the lines left are finished from the forward index, if that is cheaper than adding the
    lists left.
    """
    offsets, all_ids, all_weights = index._offsets, index._ids, index._weights
    scores: dict[int, float] = {}
    focused: set[int] | None = None if query.focus is None else set()
    remaining = sum(bound for _, _, bound in query.terms)
    postings_left = sum(offsets[t + 1] - offsets[t] for t, _, _ in query.terms)
    cut = 0.0
    probed_at = 0  # how many lines had scores at the last probe
    for term_id, weight, bound in query.terms:
        start, end = offsets[term_id], offsets[term_id + 1]
        if end - start >= _CHECK_FROM and scores:
            if len(scores) >= 2 * probed_at:
                probed_at = len(scores)
                cut = max(cut, _probe(index, query, scores, options))
            if remaining < cut * _ROOM:
                floor = cut * _ROOM - remaining
                left = [line_no for line_no, score in scores.items() if score >= floor]
                if len(left) * _FINISH_COST <= postings_left:
                    return _finish(index, query, left)
        ids = all_ids[start:end]
        _add(scores, ids, all_weights[start:end], weight)
        if focused is not None and query.focus is not None and term_id in query.focus:
            focused.update(ids)
        remaining -= bound
        postings_left -= end - start
    if focused is None:
        return scores
    return {line_no: scores[line_no] for line_no in focused & scores.keys()}


def _probe(
    index: RecallIndex, query: _Query, scores: dict[int, float], options: RecallOptions
) -> float:
    """A score the answer's last line will reach: the top_k best lines so far, finished,
    are top_k lines the answer's last one cannot be below, and min_share of the best of
    them is below min_share of the answer's best."""
    best = heapq.nlargest(options.top_k, scores, key=scores.__getitem__)
    finished = _finish(index, query, best).values()
    if not finished:
        return 0.0
    share = max(finished) * options.min_share
    return max(share, min(finished)) if len(finished) == options.top_k else share


def _finish(index: RecallIndex, query: _Query, lines: Iterable[int]) -> dict[int, float]:
    """Exact scores of `lines` from the forward index (with focus, of the focused ones)."""
    line_offsets, line_terms = index._line_offsets, index._line_terms
    offsets, all_ids, all_weights = index._offsets, index._ids, index._weights
    weights, focus = query.weights, query.focus
    wanted = weights.keys()
    finished: dict[int, float] = {}
    for line_no in lines:
        held = wanted & line_terms[line_offsets[line_no] : line_offsets[line_no + 1]]
        if focus is not None and focus.isdisjoint(held):
            continue
        score = 0.0
        for term_id in held:
            at = bisect_left(all_ids, line_no, offsets[term_id], offsets[term_id + 1])
            score += all_weights[at] * weights[term_id]
        finished[line_no] = score
    return finished


def _add(scores: dict[int, float], ids: array, weights: array, query_weight: float) -> None:
    """Add a term's weights to its lines' scores, starting a score for a line not seen yet."""
    if not scores and query_weight == 1.0:
        scores.update(zip(ids, weights, strict=True))
        return
    get = scores.get
    if query_weight == 1.0:
        for line_no, weight in zip(ids, weights, strict=True):
            scores[line_no] = get(line_no, 0.0) + weight
    else:
        for line_no, weight in zip(ids, weights, strict=True):
            scores[line_no] = get(line_no, 0.0) + weight * query_weight


def _select(scores: dict[int, float], options: RecallOptions) -> list[Hit]:
    """Lines reaching min_share of the best, at most top_k, best first, ties to the earlier."""
    if not scores:
        return []
    best = max(scores.values())
    if best <= 0:
        return []
    floor = best * options.min_share * (1 - 1e-9)
    kept = [(line_no, score) for line_no, score in scores.items() if score >= floor]
    if len(kept) > options.top_k:
        last = heapq.nlargest(options.top_k, [score for _, score in kept])[-1]
        kept = [(line_no, score) for line_no, score in kept if score >= last]
    kept.sort(key=lambda item: (-item[1], item[0]))
    return [Hit(line_no, score) for line_no, score in kept[: options.top_k]]


# --- serialisation -----------------------------------------------------------------------


def _is_offsets(offsets: array, total: int) -> bool:
    ascending = all(a <= b for a, b in zip(offsets, offsets[1:], strict=False))
    return ascending and offsets[0] == 0 and offsets[-1] == total


def _little_endian(values: array) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()


def _read_array(typecode: str, count: int, view: memoryview) -> tuple[array, memoryview]:
    values = array(typecode)
    size = values.itemsize * count
    if count < 0 or len(view) < size:
        raise CorruptIndex("truncated recall index")
    values.frombytes(view[:size])
    if sys.byteorder != "little":
        values.byteswap()
    return values, view[size:]
