"""The recall index of one subject's lines: BM25+ weights, built once, serialised safely.

The index is built once per subject version and cached by the caller, in process and in
Redis, so every weight a query needs is computed at build time (see `app.recall.scoring`).
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from collections.abc import Sequence
from math import log
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from app.recall.terms import PAIR_JOINER, words_and_phrases

if TYPE_CHECKING:
    from app.recall.scoring import _Fixed

LineIds = npt.NDArray[np.uint16] | npt.NDArray[np.uint32]
Weights = npt.NDArray[np.float32]
_ID_TYPES = {"H": np.uint16, "I": np.uint32}


# BM25+ parameters. A line is one fact, and a longer line is usually a fuller fact rather
# than a wordier one, so length counts for less than in documents (B 0.3, not the usual
# 0.75), and DELTA gives a matched word a floor however long its line (BM25+). On the LoCoMo
# benchmark (ops/bench/recall.py) K1 0.6 to 1.5, B 0.2 to 0.5 and DELTA 0.25 to 1 all land
# within 0.005 of each other.
K1 = 1.2
B = 0.3
DELTA = 0.5

PHRASE_WEIGHT = 1.0
"""Multiplier of a phrase's BM25 weight. A shared pair is rarer than its two words, so its idf
already rewards it; weighting it like a word keeps one phrase from outvoting the rest."""


_FORMAT_VERSION = 2  # 2: no forward index, no score bounds (exhaustive scoring)
_MAGIC = b"DRI1"


class CorruptIndex(ValueError):
    """Serialised index bytes that are not a well-formed index of this format version."""


class RecallIndex:
    """Posting lists of one subject's lines, with every BM25 contribution precomputed.

    For term t, `_ids[_offsets[t]:_offsets[t + 1]]` are the lines holding it (ascending)
    and `_weights` over the same range what each of those lines scores for it. Arrays rather
    than lists keep a cached 10,000-line subject at a few megabytes in process; a query reads
    them as numpy views (`postings`), without copying.
    """

    __slots__ = (
        "line_count",
        "term_ids",
        "_terms",
        "_offsets",
        "_ids",
        "_weights",
        "_ids_array",
        "_weights_array",
        "_fixed",
    )

    def __init__(
        self,
        line_count: int,
        terms: list[str],
        inverted: tuple[array[int], array[int], array[float]],
    ) -> None:
        self.line_count = line_count
        self._terms = terms
        self.term_ids = {term: n for n, term in enumerate(terms)}
        self._offsets, self._ids, self._weights = inverted
        self._ids_array: LineIds = np.frombuffer(self._ids, dtype=_ID_TYPES[self._ids.typecode])
        self._weights_array: Weights = np.frombuffer(self._weights, dtype=np.float32)
        self._fixed: dict[tuple[str, tuple[str, ...]], _Fixed] = {}  # see scoring._fixed_part

    def postings(self, term_id: int) -> tuple[LineIds, Weights]:
        """The lines holding the term (ascending) and what each scores for it (views)."""
        start, end = self._offsets[term_id], self._offsets[term_id + 1]
        return self._ids_array[start:end], self._weights_array[start:end]

    @property
    def term_count(self) -> int:
        """How many words and phrases the index holds (a loaded index must hold the same)."""
        return len(self._terms)

    @property
    def distinct_word_score(self) -> float:
        """What a line of average length scores for one word no other line holds: the scale
        of a clear lexical match (app.recall.hybrid)."""
        return _idf(self.line_count, 1) * (1 + DELTA)

    @property
    def nbytes(self) -> int:
        """About what the index holds in memory (arrays, and ~100 bytes per term)."""
        arrays = sum(values.itemsize * len(values) for values in self._arrays())
        return arrays + 100 * len(self._terms)

    def _arrays(self) -> tuple[array[Any], ...]:
        return (self._offsets, self._ids, self._weights)

    def to_bytes(self) -> bytes:
        """Compact, safe-to-load bytes: a JSON header (format, line count, terms) and the
        arrays as little-endian numbers, zlib-compressed. No pickle."""
        header = json.dumps(
            {
                "v": _FORMAT_VERSION,
                "lines": self.line_count,
                "ids": self._ids.typecode,
                "terms": self._terms,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        parts = [len(header).to_bytes(4, "little"), header]
        parts.extend(_little_endian(values) for values in self._arrays())
        return _MAGIC + zlib.compress(b"".join(parts), 1)

    @classmethod
    def from_bytes(cls, data: bytes) -> RecallIndex:
        """Load bytes from `to_bytes`; anything malformed raises `CorruptIndex`."""
        if not data.startswith(_MAGIC):
            raise CorruptIndex("not a recall index")
        try:
            body = zlib.decompress(data[len(_MAGIC) :])
            header_len = int.from_bytes(body[:4], "little")
            header = json.loads(body[4 : 4 + header_len].decode())
        except (zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CorruptIndex("unreadable recall index") from exc
        if not isinstance(header, dict) or header.get("v") != _FORMAT_VERSION:
            raise CorruptIndex("unknown recall index version")
        line_count, terms, id_code = header.get("lines"), header.get("terms"), header.get("ids")
        if (
            not isinstance(line_count, int)
            or line_count < 0
            or not isinstance(terms, list)
            or not all(isinstance(t, str) for t in terms)
            or id_code not in _ID_TYPES
        ):
            raise CorruptIndex("malformed recall index header")
        view = memoryview(body)[4 + header_len :]
        offsets, view = _read_array("I", len(terms) + 1, view)
        total = offsets[-1]
        ids, view = _read_array(id_code, total, view)
        weights, view = _read_array("f", total, view)
        if len(view) or not _is_offsets(offsets, total) or (total and max(ids) >= line_count):
            raise CorruptIndex("malformed recall index postings")
        return cls(line_count, terms, (offsets, ids, weights))


def build_index(lines: Sequence[str]) -> RecallIndex:
    """Index a subject's lines: BM25+ (K1, B, DELTA) over words and phrases."""
    per_line: list[tuple[dict[str, int], int]] = []
    doc_freq: dict[str, int] = {}
    for line in lines:
        words, phrases = words_and_phrases(line)
        counts: dict[str, int] = {}
        for term in words:
            counts[term] = counts.get(term, 0) + 1
        for term in phrases:
            counts[term] = counts.get(term, 0) + 1
        for term in counts:
            doc_freq[term] = doc_freq.get(term, 0) + 1
        per_line.append((counts, len(words)))

    line_count = len(lines)
    average_length = sum(length for _, length in per_line) / line_count if line_count else 0.0
    terms = sorted(doc_freq)
    term_ids = {term: n for n, term in enumerate(terms)}
    idf = [
        _idf(line_count, doc_freq[term]) * (PHRASE_WEIGHT if PAIR_JOINER in term else 1.0)
        for term in terms
    ]
    postings: list[list[tuple[int, float]]] = [[] for _ in terms]
    for line_no, (counts, length) in enumerate(per_line):
        norm = K1 * (1 - B + B * length / average_length) if average_length else K1
        once = (K1 + 1) / (1 + norm) + DELTA  # the factor for a term the line holds once
        for term, tf in counts.items():
            factor = once if tf == 1 else tf * (K1 + 1) / (tf + norm) + DELTA
            term_id = term_ids[term]
            postings[term_id].append((line_no, idf[term_id] * factor))

    offsets = array("I", [0])
    ids = array("H" if line_count <= 0xFFFF else "I")
    weights = array("f")
    for entries in postings:
        ids.extend(line_no for line_no, _ in entries)
        weights.extend(weight for _, weight in entries)
        offsets.append(len(ids))
    return RecallIndex(line_count, terms, (offsets, ids, weights))


def _idf(line_count: int, doc_freq: int) -> float:
    """BM25 idf that stays positive: a word in every line still counts a little (names)."""
    return log(1 + (line_count - doc_freq + 0.5) / (doc_freq + 0.5))


# --- serialisation -----------------------------------------------------------------------


def _is_offsets(offsets: array[int], total: int) -> bool:
    ascending = all(a <= b for a, b in zip(offsets, offsets[1:], strict=False))
    return ascending and offsets[0] == 0 and offsets[-1] == total


def _little_endian(values: array[Any]) -> bytes:
    if sys.byteorder == "little":
        return values.tobytes()
    swapped = array(values.typecode, values)
    swapped.byteswap()
    return swapped.tobytes()


def _read_array(typecode: str, count: int, view: memoryview) -> tuple[array[Any], memoryview]:
    values = array(typecode)
    size = values.itemsize * count
    if count < 0 or len(view) < size:
        raise CorruptIndex("truncated recall index")
    values.frombytes(view[:size])
    if sys.byteorder != "little":
        values.byteswap()
    return values, view[size:]
