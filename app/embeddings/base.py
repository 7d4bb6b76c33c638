"""The interface every embedder keeps, and how a vector is stored."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float32]


class EmbeddingsUnavailable(RuntimeError):
    """The configured model cannot be loaded; start-up stops with this message."""


class Embedder(Protocol):
    """Texts to unit-norm float32 vectors, one row per text.

    `name` identifies the model and its weights (a stored vector is used only beside a query
    embedded by the same name); `dims` is the vector length; `inline` says whether encoding
    is cheap enough to do while a write waits (the static model), or is left to a queue.
    """

    @property
    def name(self) -> str: ...

    @property
    def dims(self) -> int: ...

    @property
    def inline(self) -> bool: ...

    def encode(self, texts: Sequence[str]) -> Matrix: ...


NAME_LENGTH = 120
"""`embedding_model` columns hold this many characters."""


def model_name(kind: str, label: str, dims: int, weights: Sequence[Path]) -> str:
    """A model's stored name: its kind, a readable label, its vector length and a digest of
    its weight files, so other weights under the same folder name are another model (their
    vectors are never compared with this one's)."""
    sha = hashlib.sha256()
    for path in weights:
        sha.update(path.name.encode())
        with path.open("rb") as data:
            for block in iter(lambda: data.read(1 << 20), b""):
                sha.update(block)
    tail = f":{dims}:{sha.hexdigest()[:12]}"
    return f"{kind}:{label}"[: NAME_LENGTH - len(tail)] + tail


def unit_rows(matrix: npt.NDArray[np.floating]) -> Matrix:
    """Rows scaled to length 1 (an all-zero row, a text with no known token, stays zero)."""
    rows = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    np.divide(rows, norms, out=rows, where=norms > 0)
    return rows


def to_stored(vectors: Matrix) -> list[bytes]:
    """One row's bytes per vector, as kept in PostgreSQL: little-endian float16 (half the
    space of float32; cosine scores move by less than 0.001)."""
    half = vectors.astype("<f2")
    return [row.tobytes() for row in half]
