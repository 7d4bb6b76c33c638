"""A sentence's clauses: where one message states two things, or a fact before a question.

People pack several things into one sentence: "born and raised in Lagos, moved to London when
I was 20" (where they are from, and where they live), "it's Robert on my passport but I go by
Bobby" (a name, and what to call them), "i'm 34 and just started running, any beginner tips?"
(an age, inside a question). The durable reader reads the whole sentence first; its clauses let
it find the second fact, and the fact said before a question or a request.

A clause ends at a comma, a semicolon, a dash or a bracket, at a colon the question the sentence
ends with follows ("so as a paramedic I get asked this a lot: is there …?"), before "but",
"because" and their kin, before "so" when a subject or a request follows ("so I", "so please use
short paragraphs"; "for so long" is one clause), and before "and" when a new subject follows
("and I", "and my") a subject of its own: "Irish and Dutch" and "my husband and I are vegan"
stay whole. Leading joiners and fillers ("and", "so", "btw", "honestly") are dropped, so a
clause reads as said on its own. Pieces of a single word are not
clauses.
"""

from __future__ import annotations

import re

_BOUNDARY = re.compile(
    r"(?<!\s)(?:\s*[,;]\s+|\s*:\s+(?=[^:?]*\?\s*$)|\s+[-—–]+\s+|\s*[—–]\s*|\s*\(\s*|\s*\)\s*"
    r"|\s+(?:but|because|cause|cos|though|although|whereas|while)\s+"
    r"|\s+so\s+(?=(?:i|i'm|i’m|i've|i’ve|we|my|our|it|that|they|he|she)\b)"
    r"|\s+so\s+(?=(?:please|pls|plz|kindly|don'?t|don’t|do\s+not|never|always|use|keep|skip|"
    r"avoid|give|write|explain|show|flag|list|put|answer|reply|stop|tone|make|be|feel\s+free|"
    r"stick|spell|leave|assume|include|mention|remind)\b)"
    r"|(?P<and>\s+and\s+)(?=(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|im|ive|my|we|we're|we’re|we've|"
    r"our|me)\b))",
    re.IGNORECASE,
)
"""(A boundary starts where no space is before it: a long run of spaces is scanned once, not
once from each of its spaces.)"""
_JOINER = re.compile(
    r"^(?:and|but|so|also|plus|though|oh|ok|okay|well|anyway|btw|tbh|honestly|actually)\b[\s,]*",
    re.IGNORECASE,
)


def clauses(sentence: str) -> list[str]:
    """The sentence's clauses of two words or more, in order, each without a leading joiner."""
    found: list[str] = []
    for piece in _pieces(sentence):
        clause = piece.strip()
        while (trimmed := _JOINER.sub("", clause).strip()) != clause:
            clause = trimmed
        if len(clause.split()) >= 2:
            found.append(clause)
    return found


def _pieces(sentence: str) -> list[str]:
    """The text between boundaries; "and" before a subject is no boundary after a subject of
    two words or fewer ("My husband and I are both vegan", "me and my wife moved to Porto")."""
    pieces: list[str] = []
    start = 0
    for boundary in _BOUNDARY.finditer(sentence):
        before = sentence[start : boundary.start()]
        if boundary.group("and") and len(before.split()) <= 2:
            continue
        pieces.append(before)
        start = boundary.end()
    pieces.append(sentence[start:])
    return pieces
