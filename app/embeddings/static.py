"""Static embeddings (model2vec's format): a token table, mean-pooled; numpy and tokenizers
only, no torch. A query embeds in well under a tenth of a millisecond and a 10,000-line write
in about a third of a second on two cores, so vectors are made while a write waits.

The default model ships in the package (`default_model/`, built by
ops/models/build_default.py from all-MiniLM-L6-v2; its NOTICE and LICENSE say so).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from model2vec import StaticModel

from app.embeddings.base import EmbeddingsUnavailable, Matrix, model_name, unit_rows

DEFAULT_MODEL = Path(__file__).parent / "default_model"
_BATCH = 1024


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

    @property
    def name(self) -> str:
        return self._name

    @property
    def dims(self) -> int:
        return int(self._model.dim)

    def encode(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return unit_rows(self._model.embedding[:0])
        vectors = self._model.encode(
            list(texts), batch_size=_BATCH, show_progress_bar=False, use_multiprocessing=False
        )
        return unit_rows(vectors)
