"""The languages a message says the user speaks (`app.facts.languages`), through the extractor a
user gets with meaning on."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Turn
from app.facts.named import NameReader
from app.facts.tagger import SlotTagger

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)
EXTRACTOR = EmbeddedExtractor(
    DurableReader.for_embedder(EMBEDDER),
    NameReader.for_embedder(EMBEDDER),
    SlotTagger.for_embedder(EMBEDDER),
)


def languages(message: str) -> list[str]:
    return [
        (item.value or "").casefold()
        for item in EXTRACTOR.extract([Turn(message, date(2026, 4, 1))])
        if item.kind == "fact" and item.slot == "language"
    ]


@pytest.mark.parametrize(
    ("message", "spoken"),
    [
        ("Please reply in Romanian from now on, it's my mother tongue.", ["romanian"]),
        ("Answer me in Greek please. It's my first language.", ["greek"]),
        ("always write to me in Czech, it's so much easier for me to read", ["czech"]),
        ("i speak Hungarian, Slovak and Czech", ["hungarian", "slovak", "czech"]),
    ],
)
def test_the_language_the_user_reads_best_is_kept(message: str, spoken: list[str]) -> None:
    assert sorted(languages(message)) == sorted(spoken)


@pytest.mark.parametrize(
    ("message", "not_spoken"),
    [
        ("Reply in Italian from now on please, I'm practising for my trip", "italian"),
        ("I'm Ilse, Dutch is my first language, so forgive my English", "english"),
        ("my native language is Tamil and my German is still pretty awful", "german"),
        ("answer in Swedish for this one, it's for my neighbour", "swedish"),
    ],
)
def test_a_language_practised_apologised_for_or_asked_for_once_is_not(
    message: str, not_spoken: str
) -> None:
    assert not_spoken not in languages(message)


def test_a_sentence_pointing_at_a_language_gives_that_language_once() -> None:
    assert languages("Could you answer in Polish? It's my native language.") == ["polish"]
