"""The embeddings layer: the packaged static model, stored vectors, the loader's errors, and
the bounded cache recall keeps them in."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer
from tokenizers.models import WordLevel

from app.bounded_cache import BoundedCache
from app.embeddings import EmbeddingsUnavailable, embedder_from_settings
from app.embeddings.base import to_stored, unit_rows
from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.embeddings.vectors import CorruptVectors, LineVectors
from app.embeddings.wordpiece import AsciiWordPiece
from app.settings import Settings


@pytest.fixture(scope="module")
def static() -> StaticEmbedder:
    return StaticEmbedder(DEFAULT_MODEL)


def test_the_packaged_model_gives_unit_vectors_the_same_every_time(
    static: StaticEmbedder,
) -> None:
    vectors = static.encode(
        ["Lives in Ljubljana", "Reports to Ines Valcourt", "Lives in Ljubljana"]
    )
    assert vectors.dtype == np.float32 and vectors.shape == (3, static.dims)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(vectors[0], vectors[2])
    assert static.encode([]).shape == (0, static.dims)
    assert static.name.startswith("static:default_model:") and static.inline


def test_similar_meaning_scores_above_unrelated(static: StaticEmbedder) -> None:
    query, near, far = static.encode(
        ["Which town do I call home?", "Lives in Ljubljana", "Allergic to shellfish"]
    )
    assert float(query @ near) > float(query @ far)


def _texts(seed: int, count: int) -> list[str]:
    """Chat-like lines, and random strings of letters, digits, punctuation, whitespace, an
    accented letter and the tokenizer's own "[UNK]" (which the fast path leaves to it)."""
    rng = random.Random(seed)
    alphabet = "abcXYZ09 .,'-!?$#@\t\n\\[]{}_^`~|\"é"
    texts = [
        "[5:08 pm on 15 June, 2024] John: Wow, great to hear that you had a blast!",
        "Reports to Ines Valcourt (since 2021-03); e-mail: ines@example.com",
        "supercalifragilisticexpialidocious " * 3 + "x" * 120,
        "word " * 700,  # past max_length tokens
        "a [UNK] b [PAD]",
        "Ljubljana, Žalec, façade, naïve, 東京",
        "tab\there\x0bvertical\x01control",
        "",
        "   ",
    ]
    texts += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80))) for _ in range(count)
    ]
    return texts


def test_the_fast_tokens_are_the_tokenizers(static: StaticEmbedder) -> None:
    words = AsciiWordPiece.for_tokenizer(static._model.tokenizer)
    assert words is not None
    fast = 0
    for text in _texts(seed=5, count=3000):
        ids = words.ids(text)
        if ids is not None:
            fast += 1
            # the tokenizer truncates at the model's max_length; the embedder does it after
            expected = static._model.tokenizer.encode(text, add_special_tokens=False).ids
            assert ids[: static._model.max_length] == expected, text
    assert fast > 1000


def test_vectors_are_those_of_model2vecs_own_pooling(static: StaticEmbedder) -> None:
    """A write's many texts give model2vec's `encode` bit for bit (stored vectors do not
    change); a query's few texts, its mean in float32."""
    texts = _texts(seed=11, count=1500)
    model = static._model
    expected = unit_rows(model.encode(texts, show_progress_bar=False, use_multiprocessing=False))
    assert np.array_equal(static.encode(texts), expected)
    for text in texts[:200]:
        ids = model.tokenize([text[: model.max_length * model.median_token_length]])[0]
        if not ids:  # no known token: a zero vector
            assert not static.encode([text]).any()
            continue
        mean = model.embedding[ids[: model.max_length]].astype(np.float32).mean(axis=0)
        assert np.allclose(static.encode([text])[0], unit_rows(mean[None])[0], atol=1e-6)


def test_another_tokenizer_takes_no_fast_path() -> None:
    tokenizer = Tokenizer(WordLevel({"a": 0, "[UNK]": 1}, unk_token="[UNK]"))
    assert AsciiWordPiece.for_tokenizer(tokenizer) is None


def test_the_settings_choose_the_embedder_and_a_bad_one_names_the_setting(tmp_path: Path) -> None:
    assert embedder_from_settings(Settings(embeddings="off")) is None
    assert isinstance(embedder_from_settings(Settings()), StaticEmbedder)
    with pytest.raises(EmbeddingsUnavailable, match="DOSSIER_EMBEDDING_MODEL"):
        embedder_from_settings(Settings(embedding_model=str(tmp_path / "missing")))
    (tmp_path / "empty").mkdir()
    with pytest.raises(EmbeddingsUnavailable, match="model.safetensors"):
        embedder_from_settings(Settings(embedding_model=str(tmp_path / "empty")))
    with pytest.raises(EmbeddingsUnavailable, match="DOSSIER_EMBEDDING_MODEL"):
        embedder_from_settings(Settings(embeddings="encoder"))


def test_stored_vectors_round_trip_and_another_models_count_as_missing(
    static: StaticEmbedder,
) -> None:
    stored = to_stored(static.encode(["a line", "another line"]))
    assert all(len(raw) == static.dims * 2 for raw in stored)
    rows = [(stored[0], static.name), (stored[1], "static:other:0"), (None, None)]
    vectors = LineVectors.from_stored(rows, static.name, static.dims)
    assert vectors.missing == 2
    assert np.allclose(vectors.matrix[0], static.encode(["a line"])[0], atol=2e-3)
    assert not vectors.matrix[1:].any()
    again = LineVectors.from_bytes(vectors.to_bytes())
    assert np.array_equal(again.matrix, vectors.matrix)
    assert (again.missing, again.model) == (2, static.name)
    assert again.absent.tolist() == [False, True, True]
    with pytest.raises(CorruptVectors):
        LineVectors.from_bytes(vectors.to_bytes()[:-1])
    with pytest.raises(CorruptVectors):
        LineVectors.from_bytes(b"DVE1" + b"an older format")


def test_the_cache_is_bounded_by_bytes_and_partial_entries_expire() -> None:
    cache: BoundedCache[str, bytes] = BoundedCache(100, len)
    cache.put("a", b"x" * 60)
    cache.put("b", b"x" * 30)
    assert cache.get("a") is not None  # a is now the most recent
    cache.put("c", b"x" * 30)  # 120 bytes: the least recent (b) goes
    assert cache.get("b") is None and cache.get("a") and cache.get("c")
    assert cache.nbytes == 90
    cache.put("huge", b"x" * 101)
    assert cache.get("huge") is None and cache.nbytes == 90
    cache.put("brief", b"x", ttl_seconds=0.01)
    time.sleep(0.02)
    assert cache.get("brief") is None
    assert cache.drop_where(lambda key: key == "a") == 1 and cache.nbytes == 30
