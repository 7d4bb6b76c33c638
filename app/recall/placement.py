"""Where memory lines go in the state, and which of them the engine reads (seed "Using").

The engine reads a bounded window of the serialised state: the first `window_tokens` tokens
of a string or an object, the last `window_tokens` of an array (a chat history is cut from
its start). The lines therefore go first: before a string, under a reserved first key of an
object, as the first element of an array. An array that is too long would lose its first
element, the memory, so its oldest turns give way instead: they are left out, right after
the memory element, until the lines and the rest fit; the newest turn always stays.

Token positions are counted piece by piece (each line with the punctuation that follows it,
each array element with the comma before it), each piece once. For a tokenizer that splits
at whitespace the sum can be a little higher than the count of the whole text, where JSON
punctuation joins two pieces without a space, so a line is at worst reported unread when it
was just read, never the other way round.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engines.wire import serialise

MEMORY_KEY = "dossier_memory"
"""The object key the lines go under, first in the object. Reserved: a state that already has
it is refused (`ReservedKey`) rather than overwritten or merged."""

MAX_CONTEXT_LINES = 64
"""Context lines placed per decision (computed facts, then fired rules, then recalled lines)."""

MAX_LINE_CHARS = 2000
"""A placed line is cut at this many characters (a stored line is never longer)."""

MEMORY_CUT = "memory_cut"
"""Some lines were read and some not: the lines and the state are longer than the engine
reads. Before a string or an object the first lines were read, in an array the last ones."""

MEMORY_FULL = "memory_full"
"""Lines were given but none was read: before a string or an object the first line alone
passes the window; in an array the lines and the newest element (every older one already
left out) fill it so that no line is wholly inside the last window tokens."""

State = str | dict[str, Any] | list[Any]


class ReservedKey(ValueError):
    """The state object already has `MEMORY_KEY`; the caller reports it to the client."""

    def __init__(self) -> None:
        super().__init__(f"the state object must not have the key {MEMORY_KEY!r}")


@dataclass(slots=True)
class Placement:
    """The state with the lines placed, and what the engine will read of them.

    read holds one flag per placed line (the first MAX_CONTEXT_LINES given), in order;
    lines_seen is how many are true. turns_dropped counts the array elements left out so the
    lines fit; lines_dropped the given lines past MAX_CONTEXT_LINES (not placed).
    """

    state: State
    lines_seen: int
    read: list[bool]
    turns_dropped: int = 0
    lines_dropped: int = 0
    warnings: list[str] = field(default_factory=list)


def place(
    state: State,
    lines: Sequence[str],
    *,
    window_tokens: int,
    count_tokens: Callable[[str], int],
) -> Placement:
    """Place `lines` (already in order) before `state` within `window_tokens` tokens.

    Raises ReservedKey when an object state already has MEMORY_KEY, ValueError for a window
    below one token, TypeError for a state that is not a string, object or array.
    """
    if window_tokens < 1:
        raise ValueError("window_tokens must be at least 1")
    if isinstance(state, dict) and MEMORY_KEY in state:
        raise ReservedKey()
    if not isinstance(state, str | dict | list):
        raise TypeError("state must be a string, an object or an array")
    placed = [line[:MAX_LINE_CHARS] for line in lines[:MAX_CONTEXT_LINES]]
    lines_dropped = max(0, len(lines) - MAX_CONTEXT_LINES)
    if not placed:
        return Placement(state=state, lines_seen=0, read=[], lines_dropped=lines_dropped)

    if isinstance(state, str):
        ends = _running_ends(count_tokens, [line + "\n" for line in placed[:-1]] + [placed[-1]])
        placement = Placement(
            state="\n".join(placed) + "\n\n" + state,
            lines_seen=0,
            read=[end <= window_tokens for end in ends],
        )
    elif isinstance(state, dict):
        prefix = "{" + json.dumps(MEMORY_KEY) + ":["
        ends = _running_ends(count_tokens, _json_line_pieces(placed, prefix, "]"))
        placement = Placement(
            state={MEMORY_KEY: placed, **state},
            lines_seen=0,
            read=[end <= window_tokens for end in ends],
        )
    else:
        placement = _place_in_array(state, placed, window_tokens, count_tokens)

    placement.lines_dropped = lines_dropped
    placement.lines_seen = sum(placement.read)
    if placement.lines_seen == 0:
        placement.warnings.append(MEMORY_FULL)
    elif placement.lines_seen < len(placed):
        placement.warnings.append(MEMORY_CUT)
    return placement


def _place_in_array(
    elements: list[Any],
    placed: list[str],
    window_tokens: int,
    count_tokens: Callable[[str], int],
) -> Placement:
    """`[lines, *elements]`, leaving out the oldest elements until the whole fits.

    Elements are counted newest first and counting stops at the first that does not fit,
    so a long history is serialised only as far as it can be kept.
    """
    if not elements:
        ends = _running_ends(count_tokens, _json_line_pieces(placed, "[[", "]]"))
        return _array_placement([placed], ends, window_tokens, turns_dropped=0)

    ends = _running_ends(count_tokens, _json_line_pieces(placed, "[[", "]"))
    total = ends[-1] + count_tokens("," + serialise(elements[-1]) + "]")
    first_kept = len(elements) - 1
    while first_kept > 0:
        piece = count_tokens("," + serialise(elements[first_kept - 1]))
        if total + piece > window_tokens:
            break
        total += piece
        first_kept -= 1
    new_state = [placed, *elements[first_kept:]]
    return _array_placement(new_state, ends, window_tokens, first_kept, total)


def _array_placement(
    new_state: list[Any],
    ends: list[int],
    window_tokens: int,
    turns_dropped: int,
    total: int | None = None,
) -> Placement:
    """Lines wholly inside the last window_tokens tokens of the array are read."""
    total = ends[-1] if total is None else total
    first_read_token = total - window_tokens
    starts = [0, *ends[:-1]]
    return Placement(
        state=new_state,
        lines_seen=0,
        read=[start >= first_read_token for start in starts],
        turns_dropped=turns_dropped,
    )


def _json_line_pieces(placed: list[str], prefix: str, close: str) -> list[str]:
    """The serialised memory list cut at line boundaries: the opening punctuation goes with
    the first line, each comma with the line before it, the closing with the last line."""
    pieces = [json.dumps(line, ensure_ascii=False) + "," for line in placed]
    pieces[0] = prefix + pieces[0]
    pieces[-1] = pieces[-1][:-1] + close
    return pieces


def _running_ends(count_tokens: Callable[[str], int], pieces: list[str]) -> list[int]:
    """Token position just after each piece, counting each piece once."""
    ends = []
    total = 0
    for piece in pieces:
        total += count_tokens(piece)
        ends.append(total)
    return ends
