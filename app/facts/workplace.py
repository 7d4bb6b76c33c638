"""Where the user works, said beside what they do: "a welder in Port Talbot", "rent a chair at a
salon in Stockport", "on the night team at the Amazon warehouse in Dunfermline".

People name the town of their work in passing, in the clause that says what the work is, in
more ways than patterns can list. So this reads it from the structure instead of the words: a
sentence that gave a fact of the user's work (a role, an employer or a team, found by a pattern
or by the durable reader) and names a known place after "in", "at", "near" or "outside" says
where that work is, unless the clause says the place is a home ("live in", "moved to", "from").
A known place is one of the places list's (`app.text.places`): "in Accounts" or "at Boots" is
no town. The fact's text is the clause as said.
"""

from __future__ import annotations

import re

from app.facts.clauses import clauses
from app.text.places import known_places
from app.text.words import fold

WORK_SLOTS = frozenset({"role", "employer", "team"})

_IN_A_PLACE = re.compile(
    r"\b(?:in|at|near|outside)\s+(?:the\s+)?"
    r"(?P<v>[A-Z][\wà-ÿ'’.-]*(?:\s+(?:de|upon|am|on)?\s*[A-Z][\wà-ÿ'’.-]*){0,2})"
)
_A_HOME = re.compile(
    r"\b(?:live|lives|living|lived|moved|moving|move|relocated|based|born|raised|grew|from|"
    r"visit\w*|holiday\w*|trip|flew|flying|going|went|stay\w*|family|parents?|mum|dad|sister|"
    r"brother|wife|husband|partner|son|daughter|friends?|today|tonight|week|weekend|right\s+now|"
    r"currently|moment|conference|course)\b",
    re.IGNORECASE,
)
"""Words that make a place in the clause a home, a trip or someone else's, not the work's."""
_PART_OF_A_NAME = re.compile(
    r"\s+(?:uni|university|college|school|airport|station|general|infirmary|royal)\b", re.I
)
"""A place that begins the name of somewhere ("engineering student at Glasgow uni"): where one
studies or is treated, not a town one works in."""


def place_of_work(sentence: str, work_values: list[str]) -> tuple[str, str] | None:
    """(place, clause): the first known place named in a clause of a sentence that gave a fact
    of the user's work (`work_values`: its roles, employers and teams), in a clause with no word
    of a home, a trip or someone else."""
    if not work_values:
        return None
    folded_values = {fold(value) for value in work_values}
    for clause in clauses(sentence) or [sentence]:
        if _A_HOME.search(clause):
            continue
        for match in _IN_A_PLACE.finditer(clause):
            place = _known_prefix(match.group("v"))
            after = clause[match.start("v") + len(place or "") :]
            if (
                place is not None
                and fold(place) not in folded_values
                and not _PART_OF_A_NAME.match(after)
            ):
                return place, clause
    return None


def _known_prefix(words: str) -> str | None:
    """The longest run of the first words that is a known place ("Port Talbot", "Leeds" of
    "Leeds General")."""
    split = words.rstrip(".").split()
    places = known_places()
    for count in range(len(split), 0, -1):
        name = " ".join(split[:count]).rstrip(".,")
        if fold(name) in places:
            return name
    return None
