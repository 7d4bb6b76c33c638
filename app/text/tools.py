"""Software, apps and devices people name in lower case ("i live in excel", "we're on jira and
confluence", "notes in goodnotes on my ipad").

Chat types a product's name as a word, and a word the dictionary holds ("excel", "python",
"slack", "zoom") is no rare word to the name reader (`app.facts.named.rare_words_in`), so it
was never a candidate for what the user uses. tools.txt beside this module lists the tools
everyone names (hand-written, not taken from any labelled set), less the ones that are mostly
something else in chat ("word", "teams", "windows", "mac", "safari"). A tool found here is only
a candidate: the name reader decides from the words around it whether the user uses it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

TOOLS_FILE = Path(__file__).parent / "tools.txt"


@lru_cache(maxsize=1)
def _tools_pattern() -> re.Pattern[str]:
    names = [
        line.strip()
        for line in TOOLS_FILE.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    longest_first = sorted(names, key=len, reverse=True)  # "google sheets" before "google"
    alternatives = "|".join(re.escape(name) for name in longest_first)
    return re.compile(rf"(?<![\w@./#+-])(?:{alternatives})(?![\w@/#+-]|[.+-]\w)")


def tools_in(sentence: str) -> list[tuple[int, int]]:
    """Where the sentence names a known tool in lower case, as (start, end), in order; a tool
    written with capitals ("Excel", "Jira") is a name the name reader finds anyway."""
    return [match.span() for match in _tools_pattern().finditer(sentence)]
