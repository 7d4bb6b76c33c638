"""Static embeddings (model2vec's format): a token table, mean-pooled; numpy and tokenizers
only, no torch. A query embeds in well under a tenth of a millisecond and a 10,000-line write
in about a tenth of a second on two cores, so vectors are made while a write waits.

The default model ships in the package (`default_model/`, built by
ops/models/build_default.py from all-MiniLM-L6-v2; its NOTICE and LICENSE say so).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt
from model2vec import StaticModel

from app.embeddings.base import EmbeddingsUnavailable, Matrix, model_name, unit_rows
from app.embeddings.wordpiece import AsciiWordPiece

DEFAULT_MODEL = Path(__file__).parent / "default_model"
_BATCH = 1024
_FEW = 32


class StaticEmbedder:
    inline = True

    def __init__(self, folder: Path) -> None:
        weights = folder / "model.safetensors"
        if not weights.is_file():
            raise EmbeddingsUnavailable(
                f"DOSSIER_EMBEDDING_MODEL: {folder} holds no model.safetensors (a model2vec "
                "static model folder is expected)"
            )
        try:
            self._model = StaticModel.from_pretrained(str(folder), force_download=False)
        except Exception as exc:  # model2vec raises what tokenizers and safetensors raise
            raise EmbeddingsUnavailable(
                f"DOSSIER_EMBEDDING_MODEL: the static model in {folder} could not be loaded: {exc}"
            ) from exc
        self._name = model_name(
            "static", folder.name, self.dims, [weights, folder / "tokenizer.json"]
        )
        # A plain table (no token remapping, no per-token weights, as the default model is) is
        # mean-pooled here, from token ids made by `AsciiWordPiece` where it applies: a few
        # texts (a query, a decision's sentences) in float32, in a third of the time model2vec's
        # `encode` takes; many (a write) with `encode`'s own arithmetic, in a third of its time.
        self._plain = self._model.token_mapping is None and self._model.weights is None
        self._float_table = self._model.embedding.dtype in (np.float16, np.float32)
        self._words = AsciiWordPiece.for_tokenizer(self._model.tokenizer)

    @property
    def name(self) -> str:
        return self._name

    @property
    def dims(self) -> int:
        return int(self._model.dim)

    def encode(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return unit_rows(self._model.embedding[:0])
        few = len(texts) <= _FEW
        if not self._plain or not (few or self._float_table):
            vectors = self._model.encode(
                list(texts), batch_size=_BATCH, show_progress_bar=False, use_multiprocessing=False
            )
            return unit_rows(vectors)
        ids = self._token_ids(texts)
        return unit_rows(self._mean_pooled(ids) if few else self._as_model2vec(ids))

    def _token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """What model2vec's `encode` pools for each text: its first `max_length` tokens
        (from its first `max_length` * median token length characters), unknown ones dropped.
        Tokens from `AsciiWordPiece` when it applies, else from the tokenizer, which holds
        `max_length` as its truncation between model2vec's calls."""
        model = self._model
        longest = model.max_length
        if longest is not None:
            texts = [text[: longest * model.median_token_length] for text in texts]
        fast = self._words.ids if self._words is not None else _no_fast_path
        ids = [fast(text) for text in texts]
        slow = [n for n, row in enumerate(ids) if row is None]
        if slow:
            for n, row in zip(slow, model.tokenize([texts[n] for n in slow]), strict=True):
                ids[n] = row
        unknown = model.unk_token_id
        return [
            [token for token in row[:longest] if token != unknown]
            if unknown in row or (longest is not None and len(row) > longest)
            else row
            for row in cast(list[list[int]], ids)
        ]

    def _mean_pooled(self, ids: list[list[int]]) -> Matrix:
        """The mean of each text's token rows, summed in float32 (a query's few texts)."""
        table = self._model.embedding
        if len(ids) == 1 and ids[0]:  # a query: no offsets to work out, a fifth of its time
            rows = table[ids[0]].astype(np.float32)
            # reduceat, as below: it sums in the same order, so the vector is the same
            pooled: Matrix = np.add.reduceat(rows, [0], axis=0)
            pooled /= len(ids[0])
            return pooled
        lengths, flat, starts = _flattened(ids)
        pooled = np.zeros((len(ids), self.dims), dtype=np.float32)
        if flat.size:
            found = lengths > 0
            rows = table[flat].astype(np.float32)
            pooled[found] = np.add.reduceat(rows, starts, axis=0) / lengths[found, None]
        return pooled

    def _as_model2vec(self, ids: list[list[int]]) -> npt.NDArray[np.floating]:
        """Many texts (a write) pooled as model2vec's `encode` pools them, bit for bit, so
        stored vectors do not change: texts of one length together, the mean of their rows
        in the table's type (float16, summed in float32), then, when the model normalises,
        unit rows in that type again. In batches of _BATCH texts, as model2vec, which bounds
        the token rows held at once.

        Most of the time would go into turning float16 rows into float32 ones, token by token
        (numpy has no fast path for it): the table rows the texts use are converted once
        instead, and summing them gives the same float32 sums."""
        model = self._model
        lengths, flat, _ = _flattened(ids)
        rows, flat = _rows_used(model.embedding, flat)
        starts = np.cumsum(lengths) - lengths
        out: npt.NDArray[np.floating] = np.zeros((len(ids), self.dims), dtype=model.embedding.dtype)
        for begin in range(0, len(ids), _BATCH):
            for length, texts in _by_length(lengths, begin, begin + _BATCH):
                tokens = flat[starts[texts, None] + np.arange(length)]
                summed = rows[tokens].sum(axis=1, dtype=np.float32)
                summed /= np.float32(length)
                out[texts] = summed
        if not model.normalize:
            return out
        out32 = out.astype(np.float32)
        norms = np.linalg.norm(out32, axis=1, keepdims=True) + 1e-32
        normalised: npt.NDArray[np.floating] = (out32 / norms).astype(out.dtype)
        return normalised


def _rows_used(
    table: npt.NDArray[np.floating], flat: npt.NDArray[np.int64]
) -> tuple[Matrix, npt.NDArray[np.int64]]:
    """The table rows `flat` names, in float32, and `flat` renumbered into them."""
    used = np.zeros(len(table), dtype=np.bool_)
    used[flat] = True
    renumbered = np.cumsum(used) - 1
    return table[used].astype(np.float32), renumbered[flat]


def _by_length(
    lengths: npt.NDArray[np.int64], begin: int, end: int
) -> list[tuple[int, npt.NDArray[np.intp]]]:
    """The texts of [begin, end) with at least one token, by their token count."""
    batch = lengths[begin:end]
    return [
        (int(length), np.flatnonzero(batch == length) + begin)
        for length in np.unique(batch[batch > 0])
    ]


def _no_fast_path(text: str) -> None:
    return None


def _flattened(
    ids: list[list[int]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each text's token count, all tokens in one array, and where each non-empty text's
    tokens start in it."""
    lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(lengths.sum()))
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[lengths > 0]
    return lengths, flat, starts
