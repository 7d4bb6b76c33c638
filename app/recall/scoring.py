"""Scoring a query against a recall index: which of a subject's lines to show, best first.

Recall shows the engine the few lines that share names and phrases with the state (seed,
"Making sure the right lines are found"). It is deliberately lexical: a fact worded very
differently from the state is missed, and that is documented behaviour, not a bug.

Every weight a query needs is computed when the index is built (`app.recall.index`), and a
query skips the long posting lists of common words once they can no longer change the
answer (see `recall`).
"""

from __future__ import annotations

import heapq
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.recall.index import RecallIndex
from app.recall.terms import words_and_phrases

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
assert STATE_WEIGHT >= NAME_WEIGHT >= QUESTION_WEIGHT  # _query's precedence relies on it


@dataclass(slots=True)
class Hit:
    """A recalled line: its position in the subject's lines, and its score. (Not frozen:
    a frozen dataclass costs a microsecond to make, a tenth of a query's budget.)

    `lexical` and `semantic` are the two parts of a hybrid score (app.recall.hybrid), which
    add up to `score`; a lexical-only hit has `semantic` 0 and `lexical` None (its score is
    the raw BM25 sum, not a share)."""

    index: int
    score: float
    lexical: float | None = None
    semantic: float = 0.0


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


# --- query -------------------------------------------------------------------------------

# A query term: the lines holding it (ascending) and what each scores for it, as views into
# the index's arrays; its query weight; its bound (the most it can add to a line's score);
# whether it is a focus word.
_Term = tuple[memoryview, memoryview, float, float, bool]


@dataclass(slots=True)
class _Fixed:
    """What the names and the question text add to each line's score. They are the same for
    every decision about the subject (of one kind), so this is computed once and kept with
    the index, and a query adds it as a few terms instead of a dozen.

    Those terms are tiers by score (the best 32 lines, the next 128, then 512, ...), each
    with its own bound, so the few lines the names or question favour most are added early
    and the long tail, like a common word's list, is skipped once it cannot change the
    answer."""

    term_weights: dict[str, float]
    scores: dict[int, float]
    tiers: list[tuple[memoryview, memoryview, float]]


@dataclass(slots=True)
class _Query:
    """The query's terms found in the index, largest bound first; the state terms' weights
    by index term id (above what `fixed` gives the same term); the names' and question's
    scores by line; with focus, the index ids of the state's words beyond the names."""

    index: RecallIndex
    terms: list[_Term]
    weights: dict[int, float]
    ids: frozenset[int]
    fixed: dict[int, float]
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

    Not every posting is read: terms are added rarest first (by the most they can add), and
    once the terms left could not lift a line not yet seen to the score the answer needs,
    only the lines seen are updated (see `_score`), so the long lists of common words, the
    subject's own name among them, are mostly never walked. That much is exact. To bound
    the worst case, a query that has walked _OR_BUDGET postings before reaching that point
    (a long state on a large subject) takes no new line after it and finishes its
    _MAX_SEEN best lines: a line holding only the query's commonest words can then be
    missed (ops/bench/recall.py prints how often the hits differ from exact scoring).
    """
    if index.line_count == 0:
        return []
    query = _query(index, state=state, question=question, names=names, options=options)
    if not query.terms or query.focus == frozenset():
        return []
    return _select(_score(query, options), options)


def _query(
    index: RecallIndex,
    *,
    state: str,
    question: str,
    names: Sequence[str],
    options: RecallOptions,
) -> _Query:
    """The query's terms found in the index. A term from several sources takes the weight
    of the strongest (state, then names, then question: STATE_WEIGHT >= NAME_WEIGHT >=
    QUESTION_WEIGHT); a state term the names or question hold too adds only the difference
    to what `_Fixed` gives it. The names' words are never focus words, even when names are
    not searched: sharing only the subject's name with the state is what focus leaves out."""
    fixed = _fixed_part(
        index,
        question if options.use_question_words else "",
        tuple(names) if options.use_names else (),
    )
    state_words, state_phrases = words_and_phrases(state)
    term_ids, max_weight = index._term_ids, index._max_weight
    offsets, ids, weights = index._offsets, index._ids_view, index._weights_view
    above_fixed = fixed.term_weights.get
    focus_words: set[str] = set()
    if options.focus:
        focus_words = set(state_words).difference(*(_cached_terms(name)[1] for name in names))

    ranked = []
    by_id: dict[int, float] = {}
    for term in dict.fromkeys(state_words + state_phrases):
        term_id = term_ids.get(term)
        weight = STATE_WEIGHT - above_fixed(term, 0.0)
        if term_id is None or weight <= 0:
            continue
        by_id[term_id] = weight
        start, end = offsets[term_id], offsets[term_id + 1]
        term_entry = (ids[start:end], weights[start:end], weight, weight * max_weight[term_id])
        ranked.append((term_entry[3], term_id, term_entry, term in focus_words))
    for tier, (tier_ids, tier_weights, bound) in enumerate(fixed.tiers):
        ranked.append((bound, -1 - tier, (tier_ids, tier_weights, 1.0, bound), False))
    ranked.sort(key=lambda item: (-item[0], item[1]))
    focus = None
    if options.focus:
        focus = frozenset(term_ids[w] for w in focus_words if w in term_ids)
    return _Query(
        index=index,
        terms=[(*entry, is_focus) for _, _, entry, is_focus in ranked],
        weights=by_id,
        ids=frozenset(by_id),
        fixed=fixed.scores,
        focus=focus,
    )


@lru_cache(maxsize=1024)
def _cached_terms(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Words and phrases of a question or name (the same text comes with every decision),
    and its words alone."""
    words, phrases = words_and_phrases(text)
    return (*words, *phrases), frozenset(words)


_FIXED_KEPT = 16  # fixed parts (names and question texts) kept per index
_FIRST_TIER = 32
_TIER_GROWTH = 4


def _fixed_part(index: RecallIndex, question: str, names: tuple[str, ...]) -> _Fixed:
    """The names' and question's part of the scores, from the index's cache or computed
    (a full walk of their lists, once per subject version, question text and names)."""
    key = (question, names)
    fixed = index._fixed.get(key)
    if fixed is not None:
        return fixed
    term_weights: dict[str, float] = {}
    if question:
        term_weights.update(dict.fromkeys(_cached_terms(question)[0], QUESTION_WEIGHT))
    for name in names:
        term_weights.update(dict.fromkeys(_cached_terms(name)[0], NAME_WEIGHT))
    scores: dict[int, float] = {}
    offsets = index._offsets
    for term, weight in term_weights.items():
        term_id = index._term_ids.get(term)
        if term_id is not None:
            start, end = offsets[term_id], offsets[term_id + 1]
            _add(scores, index._ids_view[start:end], index._weights_view[start:end], weight)
    by_score = sorted(scores, key=lambda line_no: (-scores[line_no], line_no))
    stored = array("f", [scores[line_no] for line_no in by_score])
    scores = dict(zip(by_score, stored, strict=True))  # as stored, so the bounds hold
    tiers = []
    start, size = 0, _FIRST_TIER
    while start < len(by_score):
        tier = sorted(by_score[start : start + size])
        tier_ids = array(index._ids.typecode, tier)
        tier_weights = array("f", [scores[line_no] for line_no in tier])
        tiers.append((memoryview(tier_ids), memoryview(tier_weights), stored[start]))
        start, size = start + size, size * _TIER_GROWTH
    fixed = _Fixed(term_weights=term_weights, scores=scores, tiers=tiers)
    try:  # oldest out first; a query in another thread may be doing the same
        while len(index._fixed) >= _FIXED_KEPT:
            index._fixed.pop(next(iter(index._fixed)), None)
    except (RuntimeError, StopIteration):
        pass
    index._fixed[key] = fixed
    return fixed


# --- scoring -----------------------------------------------------------------------------

# A posting list shorter than this is cheaper to add than to check whether it can be skipped.
_CHECK_FROM = 64
# Relative costs per line, measured on CPython 3.11: looking a seen line up while walking
# a posting list, bisecting a list for a seen line, finishing a line from the forward index.
_WALK_COST = 4
_BISECT_COST = 25
_FINISH_COST = 150
# Scores are float sums: compare bounds with a little room so rounding never drops a line.
_ROOM = 1 - 1e-6
# The worst case's bound: after this many postings added, no new line is taken, and only
# this many of the best lines seen are finished. Ordinary queries stop well before it.
_OR_BUDGET = 1000
_MAX_SEEN = 64


def _score(query: _Query, options: RecallOptions) -> dict[int, float]:
    """Exact scores of every line that can be in the answer (with focus, of focused lines
    only); other lines may be missing. (Past _OR_BUDGET, of the _MAX_SEEN best seen.)

    Terms are added along their posting lists, largest bound first. Before a long list,
    the scores so far give `cut`, a score the answer's last line will reach (the top_k-th
    best so far, or min_share of the best). Once the bounds of the terms left add up to less
    than `cut`, a line not seen yet cannot make the answer, and neither can a seen line
    below `cut` minus them: from then on only the seen lines are updated (`_update_seen`),
    and those that fall out are dropped as the bounds left shrink.
    """
    scores: dict[int, float] = {}
    focused: set[int] | None = None if query.focus is None else set()
    remaining = sum(term[3] for term in query.terms)
    cut = 0.0
    ceiling = 0.0  # no score is above it (the best score at the last check, plus bounds since)
    added = 0
    for position, (ids, weights, weight, bound, is_focus) in enumerate(query.terms):
        if len(ids) >= _CHECK_FROM and remaining < ceiling:
            ceiling = max(scores.values())
            if remaining < ceiling:  # the cut is never above the best score
                cut = max(cut, _cut(scores, focused, options, above=remaining) * _ROOM)
                if remaining < cut:
                    rest = query.terms[position:]
                    return _update_seen(query, rest, scores, focused, cut, remaining)
        if scores and added + len(ids) > _OR_BUDGET:
            keep = heapq.nlargest(_MAX_SEEN, scores, key=scores.__getitem__)
            scores = {line_no: scores[line_no] for line_no in keep}
            rest = query.terms[position:]
            return _update_seen(query, rest, scores, focused, cut, remaining)
        added += len(ids)
        _add(scores, ids, weights, weight)
        if is_focus and focused is not None:
            focused.update(ids)
        remaining -= bound
        ceiling += bound
    return _only_focused(scores, focused)


def _cut(
    scores: dict[int, float], focused: set[int] | None, options: RecallOptions, above: float
) -> float:
    """A score the answer's last line will reach, from partial scores (which only grow):
    min_share of the best, or the top_k-th best when it is above `above` (only then can it
    decide anything, and looking only there is cheap)."""
    if focused is None:
        values: Iterable[float] = scores.values()
    else:
        values = [scores[line_no] for line_no in focused & scores.keys()]
    high = sorted(filter(above.__lt__, values))
    if not high:
        return 0.0
    share = high[-1] * options.min_share
    return max(share, high[-options.top_k]) if len(high) >= options.top_k else share


def _update_seen(
    query: _Query,
    rest: list[_Term],
    scores: dict[int, float],
    focused: set[int] | None,
    cut: float,
    remaining: float,
) -> dict[int, float]:
    """Final scores of the seen lines that can still reach `cut`, adding the terms of `rest`
    (whose bounds add up to `remaining`) to their `scores`.

    Before each term, the lines that can no longer reach `cut` are dropped; the term is then
    added the cheapest way: walking its list when it is short next to the lines left, else
    bisecting it for each line. When many terms are left, finishing each line from the
    forward index can be cheaper still.
    """
    for position, (ids, weights, weight, bound, is_focus) in enumerate(rest):
        scores = {n: score for n, score in scores.items() if score + remaining >= cut}
        if len(scores) * _FINISH_COST < _update_cost(rest[position:], len(scores)):
            return _finish(query, scores)
        found: list[int] = []
        if len(ids) * _WALK_COST <= len(scores) * _BISECT_COST:
            for line_no, added in zip(ids, weights, strict=True):
                if line_no in scores:
                    scores[line_no] += added * weight
                    found.append(line_no)
        else:
            size = len(ids)
            for line_no in scores:
                at = bisect_left(ids, line_no)
                if at < size and ids[at] == line_no:
                    scores[line_no] += weights[at] * weight
                    found.append(line_no)
        if is_focus and focused is not None:
            focused.update(found)
        remaining -= bound
    return _only_focused(scores, focused)


def _update_cost(rest: list[_Term], lines: int) -> int:
    return sum(min(len(term[0]) * _WALK_COST, lines * _BISECT_COST) for term in rest)


def _only_focused(scores: dict[int, float], focused: set[int] | None) -> dict[int, float]:
    if focused is None:
        return scores
    return {line_no: scores[line_no] for line_no in focused & scores.keys()}


def _finish(query: _Query, lines: Iterable[int]) -> dict[int, float]:
    """Exact scores of `lines` from the forward index (with focus, of the focused ones)."""
    index = query.index
    line_offsets, line_terms = index._line_offsets, index._line_terms
    offsets, all_ids, all_weights = index._offsets, index._ids, index._weights
    weights, focus, wanted, fixed = query.weights, query.focus, query.ids, query.fixed
    finished: dict[int, float] = {}
    for line_no in lines:
        held = wanted.intersection(line_terms[line_offsets[line_no] : line_offsets[line_no + 1]])
        if focus is not None and focus.isdisjoint(held):
            continue
        score = fixed.get(line_no, 0.0)
        for term_id in held:
            at = bisect_left(all_ids, line_no, offsets[term_id], offsets[term_id + 1])
            score += all_weights[at] * weights[term_id]
        finished[line_no] = score
    return finished


def _add(
    scores: dict[int, float], ids: Sequence[int], weights: Sequence[float], query_weight: float
) -> None:
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
