"""Hybrid recall: the lexical score and the meaning of the words, fused per query.

Lexical recall (app.recall.scoring) finds lines that share names and phrases with the state;
a line that says the same thing in other words it cannot see ("Who is my boss?" and "Reports
to Ines Valcourt"). The cosine of the state's vector with each line's (app.embeddings) sees
that, but is blunt with names, numbers and rare terms, where words are exact. So both:

    score = (1 - w) * lexical / scale  +  w * max(0, cosine - floor) / (1 - floor)

with w SUBJECT_SEMANTIC_WEIGHT for a decision's subject lines, SEARCH_SEMANTIC_WEIGHT for
knowledge search, floor SEMANTIC_FLOOR, and scale the query's best lexical score, or what one
distinctive word (held by no other line) scores if that is more. So the best word match keeps
its full weight whatever BM25's scale, but a best match on common words only (the subject's
name, which most of its lines hold) stays a small share and does not outvote a line that means
what the state asks. The semantic part counts only similarity above the floor, below which
unrelated texts of one language already sit, so a line with nothing in common with the state is
never recalled for it. Both parts come back with each hit, which is how a decision's memory
block and knowledge search say why a line was chosen. `min_share` and `top_k` apply to the
fused score; names and question words weigh in the lexical part only, as does `focus` (a line
found by meaning is kept: it is about the state, not only the subject's name).

The weights and floor were chosen for the packaged model on the tuning sets
(`ops/bench/data/meaning_tuning*.json`, written before tuning; half their questions share no
word with their answer) and on LoCoMo's dev file (ops/bench/recall.py). Knowledge search: from
weight 0.5 to 0.85 the tuning set's facts and documents rise while LoCoMo evidence recall@10
falls from 0.689 to 0.683; 0.8 with a floor of 0.1 keeps most of both. Subject lines, needed by
a situation that seldom names them (72 tuning cases): 0.57 of them are recalled at 0.8, 0.625
at 0.85 and 0.9, 0.60 at 0.95; 0.85 keeps the ordinary wordings best. `tests/data/
meaning_heldout.json` measures them on questions never tuned on (tests/integration/
test_meaning.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from app.embeddings.base import Matrix
from app.embeddings.vectors import LineVectors
from app.recall.index import RecallIndex
from app.recall.scoring import Hit, RecallOptions, recall

SEARCH_SEMANTIC_WEIGHT = 0.8
SUBJECT_SEMANTIC_WEIGHT = 0.85
SEMANTIC_FLOOR = 0.1
CANDIDATES = 10
"""Lines taken from each side before fusing: lexical recall's limit, and as many by cosine."""

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Meaning:
    """What hybrid recall needs beyond the words: the lines' vectors and the query's."""

    vectors: LineVectors
    query: Matrix


@dataclass(frozen=True, slots=True)
class Fused:
    """A hit's two parts: why it was chosen, by words and by meaning."""

    lexical: float
    semantic: float

    @property
    def score(self) -> float:
        return self.lexical + self.semantic


@lru_cache(maxsize=256)
def candidate_options(options: RecallOptions) -> RecallOptions:
    """Lexical recall's options for the candidates: at least CANDIDATES lines, down to its
    floor share, so fusion sees lines the lexical answer alone would have cut. (Cached: a
    request's options are one of a few, and making them again checks them again.)"""
    return dataclasses.replace(options, top_k=max(CANDIDATES, options.top_k), min_share=0.05)


def cosines(meaning: Meaning, lexical: Iterable[int], most: int = CANDIDATES) -> dict[int, float]:
    """The cosine of each candidate with the query: the `most` most similar lines above the
    floor, and the lexical candidates whatever their similarity."""
    top, similar = meaning.vectors.nearest(meaning.query, most)
    above = similar > SEMANTIC_FLOOR
    found = dict(zip(top[above].tolist(), similar[above].tolist(), strict=True))
    rest = [line_no for line_no in lexical if line_no not in found]
    if rest:
        found.update(
            zip(rest, meaning.vectors.similarity(rest, meaning.query).tolist(), strict=True)
        )
    return found


def fuse(
    lexical: Mapping[K, float],
    cosine: Mapping[K, float],
    scale: float,
    unembedded: Collection[K] = (),
    weight: float = SEARCH_SEMANTIC_WEIGHT,
) -> dict[K, Fused]:
    """Each candidate's two parts, from raw lexical scores and cosines (a key in one map
    only scores 0 on the other side); `scale` is the distinctive-word score (see above). A
    line in `unembedded` has no vector yet: its words count in full (its lexical share, as
    words-only recall would rank it), so a line just written is not pushed down meanwhile."""
    best = max(max(lexical.values(), default=0.0), scale)
    fused: dict[K, Fused] = {}
    for key in lexical.keys() | cosine.keys():
        lexical_part = lexical.get(key, 0.0) / best if best > 0 else 0.0
        if key in unembedded:
            fused[key] = Fused(lexical_part, 0.0)
            continue
        semantic_part = max(0.0, (cosine.get(key, 0.0) - SEMANTIC_FLOOR) / (1 - SEMANTIC_FLOOR))
        fused[key] = Fused((1 - weight) * lexical_part, weight * semantic_part)
    return fused


def select(fused: Mapping[K, Fused], *, top_k: int, min_share: float) -> list[tuple[K, Fused]]:
    """Candidates reaching min_share of the best fused score, at most top_k, best first
    (ties: the larger lexical part, then the key)."""
    # sorting tuples built once is about twice as fast as a key function reading the parts
    ranked = sorted((-parts.score, -parts.lexical, key, parts) for key, parts in fused.items())
    if not ranked or ranked[0][3].score <= 0:
        return []
    floor = ranked[0][3].score * min_share * (1 - 1e-9)
    return [(key, parts) for _, _, key, parts in ranked[:top_k] if parts.score >= floor]


def hybrid_recall(
    index: RecallIndex,
    meaning: Meaning,
    *,
    state: str,
    question: str,
    names: Sequence[str],
    options: RecallOptions,
    weight: float = SUBJECT_SEMANTIC_WEIGHT,
) -> list[Hit]:
    """The lines to show the engine for this state, best first, by the fused score (the
    semantic part weighing `weight`)."""
    if index.line_count == 0:
        return []
    lexical = {
        hit.index: hit.score
        for hit in recall(
            index,
            state=state,
            question=question,
            names=names,
            options=candidate_options(options),
        )
    }
    most = max(CANDIDATES, options.top_k)
    absent = meaning.vectors.absent
    unembedded = {line_no for line_no in lexical if absent[line_no]} if absent.any() else set()
    fused = fuse(
        lexical, cosines(meaning, lexical, most), index.distinct_word_score, unembedded, weight
    )
    return [
        Hit(line_no, parts.score, parts.lexical, parts.semantic)
        for line_no, parts in select(fused, top_k=options.top_k, min_share=options.min_share)
    ]
