"""Lexical recall over one subject's lines: words and short phrases, BM25 weights.

The code lives in modules with one job each; this module re-exports their names, so
importers of `app.recall.engine` keep working:

- `app.recall.terms`: function words, ending folding, content terms and phrases, and the
  words of a subject id.
- `app.recall.index`: `RecallIndex` (BM25+ weights precomputed), `build_index`, and its
  safe serialisation (`to_bytes` / `from_bytes`, `CorruptIndex`).
- `app.recall.scoring`: `RecallOptions`, `Hit` and `recall`, which skips the long posting
  lists of common words once they can no longer change the answer.

Scoring's internals (its cost constants, `_OR_BUDGET`, `_query`) are not re-exported: a
setting is read from `app.recall.scoring`, so set (or patch) it there.
"""

from app.recall.index import (
    DELTA,
    K1,
    PHRASE_WEIGHT,
    B,
    CorruptIndex,
    RecallIndex,
    build_index,
)
from app.recall.scoring import (
    NAME_WEIGHT,
    QUESTION_WEIGHT,
    STATE_WEIGHT,
    Hit,
    RecallOptions,
    recall,
)
from app.recall.terms import (
    STOP_WORDS,
    content_terms,
    fold_ending,
    subject_name_words,
    words_and_phrases,
)

__all__ = [
    "B",
    "DELTA",
    "K1",
    "NAME_WEIGHT",
    "PHRASE_WEIGHT",
    "QUESTION_WEIGHT",
    "STATE_WEIGHT",
    "STOP_WORDS",
    "CorruptIndex",
    "Hit",
    "RecallIndex",
    "RecallOptions",
    "build_index",
    "content_terms",
    "fold_ending",
    "recall",
    "subject_name_words",
    "words_and_phrases",
]
