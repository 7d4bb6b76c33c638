"""Which embedder this process uses: `DOSSIER_EMBEDDINGS` (static, encoder, off) and
`DOSSIER_EMBEDDING_MODEL` (a local folder, or for the encoder a model id).

Loaded once per process. A model that cannot load stops start-up with a message naming the
setting (`EmbeddingsUnavailable`), never a silent fall back to words alone; `off` is the one
way to run lexically, and recall then says so (`"recall": "lexical"`).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path

from threadpoolctl import threadpool_limits

from app.embeddings.base import Embedder, EmbeddingsUnavailable
from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.settings import Settings, get_settings


def embedder_from_settings(settings: Settings) -> Embedder | None:
    """The embedder the settings ask for; None when meaning is off."""
    if settings.embeddings == "off":
        return None
    if settings.embeddings == "static":
        folder = Path(settings.embedding_model) if settings.embedding_model else DEFAULT_MODEL
        if not folder.is_dir():
            raise EmbeddingsUnavailable(
                f"DOSSIER_EMBEDDING_MODEL: {folder} is not a folder (a static model is loaded "
                "from a local folder only; unset it for the packaged default)"
            )
        return StaticEmbedder(folder)
    if not settings.embedding_model:
        raise EmbeddingsUnavailable(
            "DOSSIER_EMBEDDINGS=encoder needs DOSSIER_EMBEDDING_MODEL (a local model folder, or "
            "a model id your machine can fetch)"
        )
    try:  # imported only when asked for: it brings torch
        encoder = importlib.import_module("app.embeddings.encoder")
    except ImportError as exc:
        raise EmbeddingsUnavailable(
            "DOSSIER_EMBEDDINGS=encoder needs sentence-transformers: "
            f"pip install 'dossier[encoder]' ({exc})"
        ) from exc
    embedder: Embedder = encoder.SentenceEncoder(settings.embedding_model)
    return embedder


@lru_cache
def current_embedder() -> Embedder | None:
    """This process's embedder (see the module docstring).

    Also keeps BLAS to one thread in this process: recall's one matrix-vector product per
    query (10,000 × 256) is fastest on one core, and requests already run in parallel
    threads; OpenBLAS's own threads would only contend with them (p99 9.6 ms against 0.8 ms
    measured on two cores, ops/bench/recall.py)."""
    threadpool_limits(limits=1, user_api="blas")
    return embedder_from_settings(get_settings())
