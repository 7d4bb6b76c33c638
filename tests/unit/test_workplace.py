"""The town of the user's work, said beside the work (`app.facts.workplace`), and people named
by what they are to the user ("my sous chef Marco", "my regular Janice")."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Turn
from app.facts.workplace import place_of_work

MONDAY = date(2026, 3, 2)
WITH_READER = EmbeddedExtractor(DurableReader.for_embedder(StaticEmbedder(DEFAULT_MODEL)))


def slots_of(text: str) -> set[tuple[str | None, str | None]]:
    return {
        (item.slot, item.value)
        for item in WITH_READER.extract([Turn(text, MONDAY)])
        if item.kind == "fact"
    }


@pytest.mark.parametrize(
    ("message", "office"),
    [
        ("Hiya, I'm a hairdresser, rent a chair at a salon in Stockport.", "Stockport"),
        ("I'm a staff nurse at the hospital in Leeds, what shoes are best for shifts", "Leeds"),
        ("im a barista at a little cafe in Brighton", "Brighton"),
    ],
)
def test_a_known_place_beside_the_users_work_is_where_they_work(message: str, office: str) -> None:
    assert ("office", office) in slots_of(message)


@pytest.mark.parametrize(
    "message",
    [
        "I'm a nurse, my sister lives in Leeds.",
        "We live in Brighton and I'm a teacher",
        "I'm a teacher, at a conference in Leeds this week",
        "I'm a developer and I'm from Leeds originally",
        "I work in Accounts at Boots",  # a department and an employer, no town
        "is it hard to find work as a nurse in Leeds?",  # a question states nothing
    ],
)
def test_a_place_of_a_home_a_trip_or_someone_else_is_not_the_work(message: str) -> None:
    assert not any(slot == "office" for slot, _ in slots_of(message))


def test_no_work_fact_no_place_of_work() -> None:
    assert place_of_work("rent a chair at a salon in Stockport", []) is None
    assert place_of_work("rent a chair at a salon in Stockport", ["hairdresser"]) == (
        "Stockport",
        "rent a chair at a salon in Stockport",
    )


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("My sous chef Marco is leaving and I need a job advert", "Marco"),
        ("my client Anna wants the logo bigger again", "Anna"),
        ("my apprentice Callum keeps forgetting his gloves", "Callum"),
    ],
)
def test_a_colleague_named_by_the_work_they_share_is_one_the_user_works_with(
    message: str, name: str
) -> None:
    assert ("works_with", name) in slots_of(message)


def test_someone_named_by_what_they_are_to_the_user_is_no_partner_of_theirs() -> None:
    facts = slots_of("my regular Janice wants a bob")
    assert not any(slot == "partner" for slot, _ in facts)
    assert ("name", "Ravi") in slots_of("my names Ravi btw")


def test_a_place_that_begins_the_name_of_a_university_is_not_a_town_of_work() -> None:
    facts = slots_of("i'm 23, final year engineering student at Glasgow uni, help me")
    assert not any(slot == "office" for slot, _ in facts)


@pytest.mark.parametrize(
    ("message", "slot", "name"),
    [
        ("my twins Leo and Nora start kindergarten in august, what do they need", "child", "Leo"),
        ("our greyhound Biscuit is scared of stairs", "pet", "Biscuit"),
    ],
)
def test_children_and_pets_named_by_their_kind_are_still_the_users(
    message: str, slot: str, name: str
) -> None:
    assert (slot, name) in slots_of(message)
