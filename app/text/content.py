"""States and descriptions as text: the JSON values, not the keys.

Recall searches this text and the embedded engine reads it, so both see the same words.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


def content_values(value: Any) -> Iterator[str]:
    """The JSON values of `value` as text, depth first, keys left out."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        yield str(value)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from content_values(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from content_values(item)


def content_text(content: Any) -> str:
    return "\n".join(content_values(content))
