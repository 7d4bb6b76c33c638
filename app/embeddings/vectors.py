"""The vectors of one recall index's lines, in line order, as recall reads them.

Built from the rows' stored bytes (float16, app.embeddings.base.to_stored). A row without a
vector of the current model (written before meaning was on, under another model and not yet
re-embedded, or by a slow encoder the queue has not reached) is marked missing: recall scores
it by its words alone (app.recall.hybrid), and `missing` counts such rows, so recall can say its
meaning was partial.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from app.embeddings.base import Matrix

_MAGIC = b"DVE2"
_HEADER = 512

SHORTLIST_FROM = 2_000
"""From this many lines, the most similar are found in two steps: a shortlist by the first
`PREFIX_DIMS` dimensions, then exact cosines of the shortlist. The packaged model's dimensions
come out of a PCA, largest variance first, so the prefix ranks nearly as the whole vector does;
reading a quarter of the matrix is what makes it fast (the full product is memory-bound)."""
PREFIX_DIMS = 64
SHORTLIST = 256


class CorruptVectors(ValueError):
    """Serialised bytes that are not vectors of this format."""


class LineVectors:
    """One unit-norm row per line (a missing line's row is zero, and `absent` marks it)."""

    __slots__ = ("matrix", "absent", "model", "prefix")

    def __init__(self, matrix: Matrix, absent: npt.NDArray[np.bool_], model: str) -> None:
        self.matrix = matrix
        self.absent = absent
        self.model = model
        two_steps = len(matrix) >= SHORTLIST_FROM and matrix.shape[1] > PREFIX_DIMS
        # (PREFIX_DIMS, lines): the product with the query reads it ~15% faster this way
        # round than as rows of the matrix
        self.prefix: Matrix | None = (
            np.ascontiguousarray(matrix[:, :PREFIX_DIMS].T) if two_steps else None
        )

    @property
    def missing(self) -> int:
        return int(self.absent.sum())

    @property
    def dims(self) -> int:
        return int(self.matrix.shape[1])

    @property
    def nbytes(self) -> int:
        prefix = self.prefix.nbytes if self.prefix is not None else 0
        return int(self.matrix.nbytes + self.absent.nbytes + prefix)

    @classmethod
    def from_stored(
        cls, rows: Sequence[tuple[bytes | None, str | None]], model: str, dims: int
    ) -> LineVectors:
        """From (embedding, embedding_model) per line; another model's vector counts as none."""
        half = np.zeros((len(rows), dims), dtype="<f2")
        absent = np.zeros(len(rows), dtype=np.bool_)
        for n, (raw, made_by) in enumerate(rows):
            if raw is None or made_by != model or len(raw) != dims * 2:
                absent[n] = True
                continue
            half[n] = np.frombuffer(raw, dtype="<f2")
        return cls(half.astype(np.float32), absent, model)

    def similarities(self, query: Matrix) -> Matrix:
        """Cosine of every line with the query vector (both unit-norm; a missing line 0)."""
        return self.matrix @ query

    def nearest(self, query: Matrix, most: int) -> tuple[npt.NDArray[np.intp], Matrix]:
        """The `most` lines most similar to the query and their cosines (in no order).

        Exact below `SHORTLIST_FROM` lines; from there, the exact cosines of a shortlist made
        by the first `PREFIX_DIMS` dimensions (ops/bench/recall.py measures both)."""
        if len(self.matrix) <= most:
            return np.arange(len(self.matrix)), self.matrix @ query
        if self.prefix is None:
            cosines = self.matrix @ query
            top = largest(cosines, most)
            return top, cosines[top]
        shortlist = largest(query[:PREFIX_DIMS] @ self.prefix, SHORTLIST)
        exact = self.matrix[shortlist] @ query
        keep = largest(exact, most)
        return shortlist[keep], exact[keep]

    def similarity(self, lines: Sequence[int], query: Matrix) -> Matrix:
        """The cosines of these lines with the query."""
        return self.matrix[np.asarray(lines, dtype=np.intp)] @ query

    def to_bytes(self) -> bytes:
        """A small text header, then the float16 rows and the missing marks as they are:
        zlib would save ~7% of float16 noise at ~145 ms for 10,000 lines."""
        rows, dims = self.matrix.shape
        header = f"{rows}:{dims}:{self.model}".encode()
        if len(header) > _HEADER:
            raise ValueError("model name too long to cache")
        return (
            _MAGIC
            + header.ljust(_HEADER)
            + self.matrix.astype("<f2").tobytes()
            + np.packbits(self.absent).tobytes()
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> LineVectors:
        if not data.startswith(_MAGIC):
            raise CorruptVectors("not line vectors")
        body = data[len(_MAGIC) :]
        try:
            rows_text, dims_text, model = body[:_HEADER].decode().rstrip().split(":", 2)
            rows, dims = int(rows_text), int(dims_text)
            size = rows * dims * 2
            half = np.frombuffer(body[_HEADER : _HEADER + size], dtype="<f2")
            matrix = half.reshape((rows, dims)).astype(np.float32)
            marks = np.frombuffer(body[_HEADER + size :], dtype=np.uint8)
            absent = np.unpackbits(marks, count=rows).astype(np.bool_)
        except (UnicodeDecodeError, ValueError) as exc:
            raise CorruptVectors("unreadable line vectors") from exc
        if len(body) != _HEADER + size + (rows + 7) // 8:
            raise CorruptVectors("truncated line vectors")
        return cls(matrix, absent, model)


_SAMPLE_STEP = 16
_SAMPLE_FROM = 1_000  # below it, argpartition is as fast


def largest(values: Matrix, count: int) -> npt.NDArray[np.intp]:
    """The positions of the `count` largest values, in no order (of equal values at the edge,
    any), as `argpartition` finds them but about three times faster on 10,000 values.

    `argpartition` reads every value several times; most are far below the answer. A
    threshold from every 16th value (the value 2 * count / 16 places from the top of that
    sample) keeps about twice `count` values, whose order is then found exactly; when it
    keeps fewer than `count` (a sample unlike the whole), every value is partitioned. Below
    _SAMPLE_FROM values, or for a count under _SAMPLE_STEP / 2, the sample would not pay."""
    if count >= len(values):
        return np.arange(len(values))
    spare = 2 * count // _SAMPLE_STEP
    if spare >= 1 and len(values) >= _SAMPLE_FROM:
        sample = values[::_SAMPLE_STEP]
        threshold = np.partition(sample, len(sample) - spare)[len(sample) - spare]
        above = np.flatnonzero(values >= threshold)
        if len(above) >= count:
            return above[np.argpartition(values[above], len(above) - count)[len(above) - count :]]
    return np.argpartition(values, len(values) - count)[len(values) - count :]
