"""Scoring a query against a recall index: which of a subject's lines to show, best first.

Recall shows the engine the few lines that share names and phrases with the state (seed,
"Making sure the right lines are found"). It is deliberately lexical: a fact worded very
differently from the state is missed, and that is documented behaviour, not a bug.

Every weight a query needs is computed when the index is built (`app.recall.index`), so a
query only adds up the posting lists of its terms. It adds them all, in numpy: one
`bincount` over the concatenated lists scores every line at once. On a 10,000-line subject
that is a few thousand postings per query and costs less than the Python bookkeeping it
would take to skip the long lists of common words, so scoring is exhaustive: no line the
formula ranks in is ever left out, however long the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from app.recall.index import LineIds, RecallIndex
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
assert STATE_WEIGHT >= NAME_WEIGHT >= QUESTION_WEIGHT  # _state_terms's precedence relies on it

Scores = npt.NDArray[np.float64]
"""One score per line of the index, in line order."""


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
    """
    scores = line_scores(index, state=state, question=question, names=names, options=options)
    return [] if scores is None else _select(scores, options)


def line_scores(
    index: RecallIndex,
    *,
    state: str,
    question: str,
    names: Sequence[str],
    options: RecallOptions,
) -> Scores | None:
    """Every line's score for this query (see `recall`), or None when no line can score: no
    query term is in the index, or `focus` finds no state word beyond the names. With focus,
    a line holding no such word scores 0."""
    if index.line_count == 0:
        return None
    fixed = _fixed_part(
        index,
        question if options.use_question_words else "",
        tuple(names) if options.use_names else (),
    )
    focus_words = _focus_words(state, names) if options.focus else frozenset()
    lines: list[LineIds] = []
    weights: list[npt.NDArray[np.floating]] = []
    focused: list[LineIds] = []
    for term_id, weight, is_focus in _state_terms(index, state, fixed.term_weights, focus_words):
        ids, term_weights = index.postings(term_id)
        lines.append(ids)
        if weight == 1.0:
            weights.append(term_weights)
        else:  # in float64, as they are summed (float32 times a Python float stays float32)
            weights.append(np.multiply(term_weights, weight, dtype=np.float64))
        if is_focus:
            focused.append(ids)
    if options.focus and not focused:
        return None
    if not lines and fixed.scores is None:
        return None
    scores = _summed(index.line_count, lines, weights)
    if fixed.scores is not None:
        scores += fixed.scores
    if options.focus:
        outside = np.ones(index.line_count, dtype=np.bool_)
        outside[np.concatenate(focused)] = False
        scores[outside] = 0.0
    return scores


def _state_terms(
    index: RecallIndex,
    state: str,
    fixed_weights: dict[str, float],
    focus_words: frozenset[str],
) -> list[tuple[int, float, bool]]:
    """The state's words and phrases found in the index, once each: (term id, query weight,
    is a focus word). A term the names or question hold too adds only the difference to what
    the fixed part gives it (STATE_WEIGHT >= NAME_WEIGHT >= QUESTION_WEIGHT), so it counts
    once, at the state's weight."""
    words, phrases = words_and_phrases(state)
    term_ids = index.term_ids
    found = []
    for term in dict.fromkeys(words + phrases):
        term_id = term_ids.get(term)
        weight = STATE_WEIGHT - fixed_weights.get(term, 0.0)
        if term_id is not None and weight > 0:
            found.append((term_id, weight, term in focus_words))
    return found


def _focus_words(state: str, names: Sequence[str]) -> frozenset[str]:
    """The state's words beyond the names' (even when names are not searched: sharing only
    the subject's name with the state is what focus leaves out)."""
    words = words_and_phrases(state)[0]
    return frozenset(words).difference(*(_cached_terms(name)[1] for name in names))


def _summed(
    line_count: int,
    lines: list[LineIds],
    weights: list[npt.NDArray[np.floating]],
) -> Scores:
    """Per line, the sum of the weights of the postings that name it (float64)."""
    if not lines:
        return np.zeros(line_count, dtype=np.float64)
    summed = np.bincount(np.concatenate(lines), np.concatenate(weights), minlength=line_count)
    return summed.astype(np.float64, copy=False)  # it is already: weights make bincount float


# --- names and question ------------------------------------------------------------------


@dataclass(slots=True)
class _Fixed:
    """What the names and the question text add to each line's score (None when they match
    no line), and each of their terms' query weight. They are the same for every decision
    about the subject (of one kind), so this is computed once and kept with the index."""

    term_weights: dict[str, float]
    scores: Scores | None


@lru_cache(maxsize=1024)
def _cached_terms(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Words and phrases of a question or name (the same text comes with every decision),
    and its words alone."""
    words, phrases = words_and_phrases(text)
    return (*words, *phrases), frozenset(words)


_FIXED_KEPT = 16  # fixed parts (names and question texts) kept per index


def _fixed_part(index: RecallIndex, question: str, names: tuple[str, ...]) -> _Fixed:
    """The names' and question's part of the scores, from the index's cache or computed
    (once per subject version, question text and names)."""
    key = (question, names)
    fixed = index._fixed.get(key)
    if fixed is not None:
        return fixed
    term_weights: dict[str, float] = {}
    if question:
        term_weights.update(dict.fromkeys(_cached_terms(question)[0], QUESTION_WEIGHT))
    for name in names:
        term_weights.update(dict.fromkeys(_cached_terms(name)[0], NAME_WEIGHT))
    lines, weights = [], []
    for term, weight in term_weights.items():
        term_id = index.term_ids.get(term)
        if term_id is not None:
            ids, term_weights_of_lines = index.postings(term_id)
            lines.append(ids)
            weights.append(np.multiply(term_weights_of_lines, weight, dtype=np.float64))
    scores = _summed(index.line_count, lines, weights) if lines else None
    fixed = _Fixed(term_weights=term_weights, scores=scores)
    try:  # oldest out first; a query in another thread may be doing the same
        while len(index._fixed) >= _FIXED_KEPT:
            index._fixed.pop(next(iter(index._fixed)), None)
    except (RuntimeError, StopIteration):
        pass
    index._fixed[key] = fixed
    return fixed


# --- selection ---------------------------------------------------------------------------


def _select(scores: Scores, options: RecallOptions) -> list[Hit]:
    """Lines reaching min_share of the best, at most top_k, best first, ties to the earlier."""
    best = float(scores.max())
    if best <= 0:
        return []
    kept = _top_candidates(scores, options.top_k, best * options.min_share * (1 - 1e-9), best)
    values = scores[kept]
    if len(kept) > options.top_k:
        # only the lines tied with the top_k-th or above need ordering
        last = np.partition(values, -options.top_k)[-options.top_k]
        above = values >= last
        kept, values = kept[above], values[above]
    order = np.lexsort((kept, -values))[: options.top_k]
    return [
        Hit(line_no, score)
        for line_no, score in zip(kept[order].tolist(), values[order].tolist(), strict=True)
    ]


_NARROWER = (0.5, 0.25)
"""Shares of the best score tried before min_share's own floor (see `_top_candidates`)."""


def _top_candidates(scores: Scores, top_k: int, floor: float, best: float) -> npt.NDArray[np.intp]:
    """The lines scoring at least `floor`, or at least those of them that can be among the
    `top_k` best: the lines above a higher bar, when `top_k` of them reach it. With
    min_share at 0.05 (hybrid recall's candidates) thousands of lines pass the floor, and
    ordering them costs more than looking again with a lower bar."""
    for share in _NARROWER:
        bar = best * share
        if bar <= floor:
            break
        kept = np.flatnonzero(scores >= bar)
        if len(kept) >= top_k:
            return kept
    return np.flatnonzero(scores >= floor)
