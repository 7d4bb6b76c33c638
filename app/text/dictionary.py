"""English's words, to tell a word no dictionary holds ("quickbooks", "genesys") from an
ordinary one typed in lower case ("invoices", "forklift").

The list (english_words.txt.gz beside this module, 116,000 lower-case words with their
inflections, from SCOWL's British and American lists; built by ops/models/build_words.py,
licence in english_words.NOTICE) is read once, on first use.
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

WORDS_FILE = Path(__file__).parent / "english_words.txt.gz"


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Every word of the list, in lower case."""
    return frozenset(gzip.decompress(WORDS_FILE.read_bytes()).decode().split())


def in_the_dictionary(word: str) -> bool:
    """Whether the lower-case word is English, or each part of it between hyphens is
    ("two-person", "double-booking")."""
    words = english_words()
    return word in words or ("-" in word and all(part in words for part in word.split("-") if part))
