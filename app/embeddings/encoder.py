"""A sentence encoder (sentence-transformers), for users who want more quality than the static
model and have the CPU or GPU for it: `pip install 'dossier[encoder]'`,
`DOSSIER_EMBEDDINGS=encoder`, `DOSSIER_EMBEDDING_MODEL=<local folder or model id>`.

Encoding is slow next to a write (all-MiniLM-L6-v2: ~130 lines/s on two CPU cores), so writes
store no vector and the `embeddings` queue fills them in; recall uses what is there meanwhile
and says so. This module is imported only when the setting asks for it (it imports torch).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sentence_transformers import SentenceTransformer

from app.embeddings.base import EmbeddingsUnavailable, Matrix, model_name, unit_rows

_BATCH = 64


class SentenceEncoder:
    inline = False

    def __init__(self, model: str) -> None:
        try:
            self._model = SentenceTransformer(model, device=None)
        except Exception as exc:  # a missing folder, no hub, a broken checkpoint
            raise EmbeddingsUnavailable(
                f"DOSSIER_EMBEDDING_MODEL: the sentence encoder {model!r} could not be loaded "
                f"({exc}); give a local model folder, or set DOSSIER_EMBEDDINGS=static"
            ) from exc
        # sentence-transformers 5 renamed it; older releases have only the first name.
        dimension = getattr(
            self._model, "get_embedding_dimension", self._model.get_sentence_embedding_dimension
        )
        dims = dimension()
        if not dims:
            raise EmbeddingsUnavailable(f"DOSSIER_EMBEDDING_MODEL: {model!r} has no fixed size")
        self._dims = int(dims)
        folder = Path(model)
        # A local folder is named by its weights; a model id by itself (the hub's revision
        # is the user's to pin).
        weights = (
            sorted(
                path
                for path in folder.rglob("*")
                if path.suffix in (".safetensors", ".bin", ".json") and path.is_file()
            )
            if folder.is_dir()
            else []
        )
        label = folder.name if folder.is_dir() else model
        self._name = model_name("encoder", label, self._dims, weights)

    @property
    def name(self) -> str:
        return self._name

    @property
    def dims(self) -> int:
        return self._dims

    def encode(self, texts: Sequence[str]) -> Matrix:
        vectors = self._model.encode(
            list(texts), batch_size=_BATCH, show_progress_bar=False, convert_to_numpy=True
        )
        return unit_rows(vectors)
