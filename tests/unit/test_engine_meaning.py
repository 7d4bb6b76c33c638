"""The embedded engine's reading of meaning (app.engines.meaning) and the gate's lasting probe
(app.learning.lasting), on the packaged static model."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.embeddings.base import Matrix
from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.engines.meaning import (
    UNRELATED_COSINE,
    MeaningSpace,
    TextVectors,
    content_words,
    criterion_parts,
    memory_evidence,
    shared_names,
    state_evidence,
    without_names,
)
from app.learning import gate
from app.learning.lasting import PROBE_FILE, LastingProbe

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)


class Counting:
    """The static embedder, counting the texts it is asked to encode."""

    def __init__(self) -> None:
        self.encoded: list[str] = []
        self.name, self.dims, self.inline = EMBEDDER.name, EMBEDDER.dims, True

    def encode(self, texts: Sequence[str]) -> Matrix:
        self.encoded.extend(texts)
        return EMBEDDER.encode(texts)


def test_a_criterion_is_its_whole_text_and_each_clause() -> None:
    parts = criterion_parts(
        "No: a question or a one-off request (send, book); a problem happening now."
    )
    assert parts == [
        "No: a question or a one-off request (send, book); a problem happening now.",
        "a question or a one-off request",
        "send, book",
        "a problem happening now",
    ]
    assert criterion_parts("  ") == []


def test_content_words_leave_out_ids_dates_and_stop_words() -> None:
    assert content_words("C-1042") == 0
    assert content_words("2026-09-15") == 0
    assert content_words("VPN client") == 2
    assert content_words("The dashboards have been slow since this morning.") == 4


def test_the_subject_name_every_line_shares_is_left_out() -> None:
    lines = (
        "Priya Raman does all her work on a MacBook Air.",
        "Priya Raman's desk is in the Porto office.",
    )
    names = shared_names(lines)
    assert names == {"Priya", "Raman"}
    assert without_names(lines[1], names) == "desk is in the Porto office."
    assert shared_names(lines[:1]) == frozenset()  # one line: nothing to tell a name by


def test_text_vectors_embed_each_text_once_and_forget_the_oldest() -> None:
    counting = Counting()
    vectors = TextVectors(counting, capacity=2)
    first = vectors(["alpha beta", "gamma delta", "alpha beta"])
    assert counting.encoded == ["alpha beta", "gamma delta"]
    assert np.allclose(first[0], first[2])
    vectors(["gamma delta"])
    assert counting.encoded == ["alpha beta", "gamma delta"]
    vectors(["epsilon"])  # capacity 2: "alpha beta", least recently used, goes
    vectors(["alpha beta"])
    assert counting.encoded == ["alpha beta", "gamma delta", "epsilon", "alpha beta"]
    assert vectors([]).shape == (0, EMBEDDER.dims)


def test_similarities_are_centred_and_a_blank_option_scores_as_unrelated() -> None:
    vectors = TextVectors(EMBEDDER)
    space = MeaningSpace.build(["A refund for a double charge on the invoice", ""], vectors)
    text = vectors(["I was billed twice this month and want my money back."])
    raw = float(text[0] @ vectors(["A refund for a double charge on the invoice"])[0])
    similarities = space.similarities(text)
    assert similarities.sum() == pytest.approx(0, abs=1e-6)
    assert similarities[0, 0] == pytest.approx((raw - UNRELATED_COSINE) / 2, abs=1e-5)


def test_state_evidence_weighs_sentences_by_content_and_memory_takes_the_best_line() -> None:
    rows = np.array([[0.3, -0.3], [-0.1, 0.1]], dtype=np.float32)
    # "C-1042" has no content word: only the second sentence speaks, at half its weight
    # (two content words of four), half from the best sentence and half from the mean.
    assert state_evidence(["C-1042", "The invoice is wrong again"], rows) == pytest.approx(
        [0.5 * -0.05 + 0.5 * -0.1, 0.5 * 0.05 + 0.5 * 0.1]
    )
    assert not state_evidence(["C-1042"], rows[:1]).any()
    assert memory_evidence(rows) == pytest.approx([0.3, 0.1])
    assert memory_evidence(rows[:0]).shape == (2,)


def test_the_probe_reads_lasting_facts_above_passing_ones() -> None:
    probe = LastingProbe.for_embedder(EMBEDDER)
    assert probe is not None
    lasting, passing, outage, asked = probe.logits(
        [
            "We have run all our servers on Debian for years.",
            "Our Debian server is down right now.",
            "Our server is down right now.",
            "Which plan are we on?",
        ]
    )
    assert lasting > 0 > outage
    assert asked < 0
    # A product's name leans lasting (it is mostly named in lasting facts): the same outage
    # naming Debian scores above zero, though still far below the lasting fact.
    assert lasting - passing > 3


def test_the_probe_is_used_only_with_the_model_it_was_trained_with(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    other = tmp_path / "probe.json"
    other.write_text(json.dumps({**json.loads(PROBE_FILE.read_text()), "model": "static:x"}))
    with caplog.at_level(logging.WARNING):
        assert LastingProbe.for_embedder(EMBEDDER, other) is None
    assert "the gate reads the engine's answer alone" in caplog.text
    assert LastingProbe.for_embedder(None) is None


def test_the_gate_adds_the_two_opinions_as_logits() -> None:
    assert gate.combined(0.5, 0.0) == pytest.approx(0.5)
    assert gate.combined(0.5, 2.0) == pytest.approx(1 / (1 + np.exp(-2)))
    assert gate.combined(0.9, -np.log(9)) == pytest.approx(0.5)
    assert 0 < gate.combined(0.0, 0.0) < 1e-5  # a certain engine stays finite
