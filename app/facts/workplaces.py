"""An organisation named with its site: "KPMG Lagos", "Deloitte's Dublin office", "JD Sports
Birmingham".

Chat names where someone works by the organisation and the town of its site in one breath, and
the name reader reads the run of capitalised words as one name: the employer. Split at a known
place that ends it (`app.text.places`: countries and cities of 50,000 people or more), the
organisation is the employer and the place the office. Not split: a place that is part of the
organisation's own name ("Bank of Ireland", "University of Leeds", "Leeds Beckett": the place
opens it or follows "of"; "Hospital Santa Maria", "Grant Thornton": the rest is ordinary words).
Without a possessive or a word for the site, only an acronym's town is split ("KPMG Lagos",
"IKEA Wembley"): a firm named after people or places ("Lockheed Martin", "Sidley Austin",
"Banco Santander") ends with a town as often as not, so "Infosys Pune" stays whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.text.dictionary import in_the_dictionary
from app.text.places import known_places
from app.text.words import fold

_SITE_NOUN = re.compile(
    r"\s+(?:office|site|campus|branch|store|depot|plant|hub|hq|studio|warehouse)$", re.IGNORECASE
)
_POSSESSIVE = re.compile(r"['’]s?$")
_JOINS = re.compile(r"\b(?:of|and|the|for|de|du|la|le|van|von)$|&$", re.IGNORECASE)
MAX_PLACE_WORDS = 3


@dataclass(frozen=True)
class Site:
    organisation: str
    place: str


def site_of(employer: str) -> Site | None:
    """The organisation and the place an employer's name ends with, if it ends with a known
    place (not an abbreviation: "Amazon UK" is a company's arm) that is not part of the
    organisation's own name: said as the organisation's ("Arup's Leeds"), with a word for the
    site ("Deloitte Dublin office"), or after an acronym ("KPMG Lagos")."""
    said = employer.strip()
    site_said = bool(_SITE_NOUN.search(said))
    words = _SITE_NOUN.sub("", said).split()
    places = known_places()
    for size in range(min(MAX_PLACE_WORDS, len(words) - 1), 0, -1):
        place = " ".join(words[-size:])
        before = " ".join(words[:-size])
        organisation = _POSSESSIVE.sub("", before)
        if not place[:1].isupper() or place.isupper() or fold(place) not in places:
            continue
        if not organisation or _JOINS.search(organisation) or _a_common_noun(organisation):
            return None
        if not (site_said or organisation != before or organisation.isupper()):
            return None  # "Lockheed Martin", "Sidley Austin", "Banco Santander": the firm's name
        return Site(organisation, place)
    return None


def _a_common_noun(organisation: str) -> bool:
    """Whether the organisation is named by ordinary words, whose place is its name ("Hospital
    Santa Maria") or a surname ("Grant Thornton")."""
    return all(in_the_dictionary(word.lower()) for word in organisation.split())
