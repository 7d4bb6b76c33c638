"""Static embeddings (model2vec's format): a token table, mean-pooled; numpy and tokenizers
only, no torch. A query embeds in well under a tenth of a millisecond and a 10,000-line write
in about a third of a second on two cores, so vectors are made while a write waits.

The default model ships in the package (`default_model/`, built by
ops/models/build_default.py from all-MiniLM-L6-v2; its NOTICE and LICENSE say so).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from pathlib import Path

import numpy as np
from model2vec import StaticModel

from app.embeddings.base import EmbeddingsUnavailable, Matrix, model_name, unit_rows

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
        # A few texts (a query, a decision's sentences) over a plain table (no token
        # remapping, no per-token weights, as the default model is) are mean-pooled here:
        # model2vec's path costs ~0.05 ms more per call, a third of a query's embedding time.
        # Many texts (a write) take its path, which buckets them by length and is faster.
        self._plain = self._model.token_mapping is None and self._model.weights is None

    @property
    def name(self) -> str:
        return self._name

    @property
    def dims(self) -> int:
        return int(self._model.dim)

    def encode(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return unit_rows(self._model.embedding[:0])
        if self._plain and len(texts) <= _FEW:
            return unit_rows(self._mean_pooled(texts))
        vectors = self._model.encode(
            list(texts), batch_size=_BATCH, show_progress_bar=False, use_multiprocessing=False
        )
        return unit_rows(vectors)

    def _mean_pooled(self, texts: Sequence[str]) -> Matrix:
        """What model2vec's `encode` computes for a plain table (texts cut to `max_length`
        tokens, unknown tokens dropped, the mean of the rows), summed in float32."""
        model = self._model
        longest = model.max_length
        if longest is not None:
            texts = [text[: longest * model.median_token_length] for text in texts]
        ids = [row[:longest] for row in model.tokenize(list(texts))]
        if len(ids) == 1 and ids[0]:  # a query: no offsets to work out, a fifth of its time
            rows = model.embedding[ids[0]].astype(np.float32)
            # reduceat, as below: it sums in the same order, so the vector is the same
            pooled: Matrix = np.add.reduceat(rows, [0], axis=0)
            pooled /= len(ids[0])
            return pooled
        lengths = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
        flat = np.fromiter(chain.from_iterable(ids), dtype=np.int64, count=int(lengths.sum()))
        pooled = np.zeros((len(ids), self.dims), dtype=np.float32)
        found = lengths > 0
        if flat.size:
            starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))[found]
            rows = model.embedding[flat].astype(np.float32)
            pooled[found] = np.add.reduceat(rows, starts, axis=0) / lengths[found, None]
        return pooled
