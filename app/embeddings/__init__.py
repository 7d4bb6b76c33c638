"""Embeddings: text to unit-norm vectors, so recall and knowledge search find meaning too.

One small interface (`Embedder`), chosen by `DOSSIER_EMBEDDINGS` (`app.embeddings.loader`):
the packaged static model by default, a sentence encoder as an option, or none.
"""

from app.embeddings.base import Embedder, EmbeddingsUnavailable
from app.embeddings.loader import current_embedder, embedder_from_settings

__all__ = ["Embedder", "EmbeddingsUnavailable", "current_embedder", "embedder_from_settings"]
