"""Hybrid recall: the fused score, its two parts, and the options that keep their meaning."""

from __future__ import annotations

import numpy as np

from app.embeddings.vectors import LineVectors, largest
from app.recall.hybrid import (
    SEARCH_SEMANTIC_WEIGHT,
    SEMANTIC_FLOOR,
    Fused,
    Meaning,
    fuse,
    hybrid_recall,
    select,
)
from app.recall.index import build_index
from app.recall.scoring import RecallOptions, recall

LINES = [
    "Globex pays by invoice every quarter",
    "Globex runs the on-premises edition",
    "Reports to Ines Valcourt",
    "The office is closed on Fridays",
]


def meaning_toward(line_no: int, cosine: float) -> Meaning:
    """Line vectors on the first unit axes, and a query at `cosine` to one of them (the rest
    of it on an axis no line has)."""
    dims = len(LINES) + 1
    matrix = np.eye(len(LINES), dims, dtype=np.float32)
    query = np.zeros(dims, dtype=np.float32)
    query[line_no] = cosine
    query[-1] += np.sqrt(1 - cosine**2)
    return Meaning(LineVectors(matrix, np.zeros(len(LINES), dtype=np.bool_), "test"), query)


def test_a_line_found_by_meaning_alone_is_recalled_and_says_so() -> None:
    index = build_index(LINES)
    hits = hybrid_recall(
        index,
        meaning_toward(2, 0.9),
        state="Who is their boss?",
        question="",
        names=("globex",),
        options=RecallOptions(),
    )
    assert LINES[hits[0].index] == "Reports to Ines Valcourt"
    assert hits[0].lexical == 0 and hits[0].semantic > 0
    assert hits[0].score == hits[0].lexical + hits[0].semantic


def test_words_still_win_where_they_match() -> None:
    index = build_index(LINES)
    hits = hybrid_recall(
        index,
        meaning_toward(3, 0.2),  # a weak likeness: a clear word match beats it
        state="How does Globex pay the invoice?",
        question="",
        names=(),
        options=RecallOptions(),
    )
    assert LINES[hits[0].index] == "Globex pays by invoice every quarter"
    assert hits[0].lexical and hits[0].lexical > 0


def test_nothing_in_common_recalls_nothing() -> None:
    index = build_index(LINES)
    hits = hybrid_recall(
        index,
        meaning_toward(0, SEMANTIC_FLOOR / 2),
        state="Quantum chromodynamics",
        question="",
        names=(),
        options=RecallOptions(),
    )
    assert hits == []
    assert (
        recall(
            index, state="Quantum chromodynamics", question="", names=(), options=RecallOptions()
        )
        == []
    )


def test_a_line_without_its_vector_yet_is_ranked_by_its_words() -> None:
    """A line written under another model, or not yet reached by the queue, is not pushed
    below lines that only share the subject's name."""
    lines = [
        "Globex wants all refunds sent to the escrow account",
        "Globex runs the on-premises edition",
        "Globex pays by invoice every quarter",
    ]
    index = build_index(lines)
    matrix = np.eye(3, 4, dtype=np.float32)
    matrix[0] = 0
    absent = np.array([True, False, False])
    query = np.array([0.0, 0.5, 0.5, np.sqrt(0.5)], dtype=np.float32)
    hits = hybrid_recall(
        index,
        Meaning(LineVectors(matrix, absent, "test"), query),
        state="Where should the refund go? escrow account",
        question="",
        names=("globex",),
        options=RecallOptions(top_k=2),
    )
    assert lines[hits[0].index] == lines[0]
    assert hits[0].semantic == 0 and hits[0].lexical == 1.0


def test_a_common_word_match_stays_a_small_share() -> None:
    """Sharing only the subject's name (in most lines) scores far below one distinctive word."""
    parts = fuse({0: 0.2, 1: 0.2}, {2: 0.9}, scale=4.0)
    assert parts[2].score > parts[0].score
    assert parts[0].lexical == (1 - SEARCH_SEMANTIC_WEIGHT) * 0.2 / 4.0
    assert parts[2].semantic == SEARCH_SEMANTIC_WEIGHT * (0.9 - SEMANTIC_FLOOR) / (
        1 - SEMANTIC_FLOOR
    )


def test_select_keeps_min_share_and_top_k() -> None:
    fused = {n: Fused(0.0, score) for n, score in enumerate([0.5, 0.4, 0.09, 0.3])}
    kept = select(fused, top_k=2, min_share=0.2)
    assert [key for key, _ in kept] == [0, 1]
    assert [key for key, _ in select(fused, top_k=6, min_share=0.2)] == [0, 1, 3]
    assert select({0: Fused(0.0, 0.0)}, top_k=6, min_share=0.2) == []


def test_nearest_lines_are_exact_below_the_shortlist_size_and_found_above_it() -> None:
    import numpy as np

    from app.embeddings.vectors import SHORTLIST_FROM, LineVectors

    rng = np.random.default_rng(7)
    # Variance falling along the dimensions, as the packaged model's PCA leaves it.
    scale = np.linspace(2.0, 0.1, 256, dtype=np.float32)
    for rows in (SHORTLIST_FROM - 1, 3 * SHORTLIST_FROM):
        matrix = rng.standard_normal((rows, 256)).astype(np.float32) * scale
        matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
        vectors = LineVectors(matrix, np.zeros(rows, dtype=np.bool_), "m")
        assert (vectors.prefix is None) == (rows < SHORTLIST_FROM)
        for target in (0, rows // 2, rows - 1):
            query = matrix[target] + 0.05 * rng.standard_normal(256).astype(np.float32)
            query /= np.linalg.norm(query)
            top, cosines = vectors.nearest(query, 10)
            exact = matrix @ query
            assert np.allclose(cosines, exact[top], atol=1e-5)  # exact cosines of what it finds
            assert target in set(top.tolist())
            best = set(np.argsort(-exact)[:10].tolist())
            found = len(best & set(top.tolist()))
            assert found == 10 if vectors.prefix is None else found >= 8


def test_the_largest_values_are_found_however_they_lie() -> None:
    """The sampled threshold gives argpartition's set, also when the sample misleads it."""
    rng = np.random.default_rng(3)
    spread = rng.standard_normal(10_000).astype(np.float32)
    only_sampled_high = np.where(np.arange(10_000) % 16 == 0, 1 + spread, spread - 10)
    top_hidden = spread.copy()
    top_hidden[1::16] += 10  # the best values all sit between the sampled ones
    for values in (spread, only_sampled_high.astype(np.float32), top_hidden):
        for count in (1, 10, 256, 700):
            found = largest(values, count)
            assert len(found) == count
            expected = np.argpartition(values, len(values) - count)[len(values) - count :]
            assert set(found.tolist()) == set(expected.tolist())
    assert sorted(largest(spread[:5], 10).tolist()) == [0, 1, 2, 3, 4]
