"""Text PostgreSQL cannot store: the NUL character and lone UTF-16 surrogates.

JSON can carry both (`\\u0000`, `\\ud800`), and Python decodes them into strings that fail only
later, at an INSERT or when an answer is encoded: a worker's task then fails and its row stays
queued, or a read answers 500 for ever. So request bodies are checked at the edge, and such text
is a 422 naming the field.

The check is two steps: a scan of the raw bytes for an escape or a UTF-8 encoded surrogate (fast,
in C, and false only for plain bodies), then, when it finds one, a walk of the parsed document to
name the field (a proper surrogate pair, as emoji are escaped, is found by the scan and cleared
by the walk).
"""

from __future__ import annotations

import json
import re
from typing import Any

# An escape `\u0000` or `\uD800`-`\uDFFF` preceded by an even number of backslashes (so `\\u0000`,
# a backslash then "u0000", is not one), or a surrogate encoded raw in UTF-8 (ED A0-BF xx).
_SUSPECT = re.compile(rb"(?<!\\)(?:\\\\)*\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})|\xed[\xa0-\xbf]")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable_field(body: bytes, jsonl: bool = False) -> str | None:
    """The path of the first string (or key) holding a NUL or a lone surrogate, "" for the
    document itself, or None when every string can be stored (or the body is not JSON: its
    route reports that)."""
    if not _SUSPECT.search(body):
        return None
    if not jsonl:
        found = _parsed_walk(body)
        return ".".join(found) if found is not None else None
    # Lines as the batch route reads them: decoded leniently, numbered, blank ones counted.
    for number, line in enumerate(body.decode("utf-8", errors="replace").splitlines(), start=1):
        found = _parsed_walk(line)
        if found is not None:
            return f"line {number}: {'.'.join(found)}"
    return None


def _parsed_walk(document: bytes | str) -> list[str] | None:
    """The path of the first unstorable string of one JSON document; None when there is none
    or the document is not JSON (its route reports that, with the same answer as without this
    check)."""
    try:
        return _walk(json.loads(document), [])
    except (ValueError, RecursionError):
        return None


def has_unstorable(text: str) -> bool:
    return _UNSTORABLE.search(text) is not None


def without_unstorable(text: str) -> str:
    """The text less its NULs and lone surrogates (for text a reader extracted, not a user's)."""
    return _UNSTORABLE.sub("", text)


def _walk(value: Any, path: list[str]) -> list[str] | None:
    if isinstance(value, str):
        return path if has_unstorable(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if has_unstorable(key):
                return [*path, key.encode("utf-8", "backslashreplace").decode()]
            found = _walk(item, [*path, key])
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _walk(item, [*path, str(index)])
            if found is not None:
                return found
    return None
