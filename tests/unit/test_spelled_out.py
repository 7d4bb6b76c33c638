"""Chat as typed, spelled as the patterns read it (app.text.casual, app.text.places): a dropped
apostrophe put back, a place typed in lower case given its capitals, and nothing else touched."""

from __future__ import annotations

import pytest

from app.text.casual import negations_spelled, spelled_out
from app.text.places import known_places, places_capitalised


@pytest.mark.parametrize(
    ("typed", "read_as"),
    [
        ("i dont drink coffee anymore", "I don't drink coffee anymore"),
        ("havent lived there in years", "haven't lived there in years"),
        ("Cant stand cilantro", "Can't stand cilantro"),
        ("im not sure it isnt broken", "I'm not sure it isn't broken"),
    ],
)
def test_a_dropped_apostrophe_is_put_back(typed: str, read_as: str) -> None:
    assert spelled_out(typed) == read_as


@pytest.mark.parametrize(
    "typed",
    [
        "i wont lie, it was ill timed",  # "won't" and "I'll" are words without it too
        "its id is on the shell",
        "we were well",
        "the don'ts and dont-care bits",  # already spelled, or part of another word
    ],
)
def test_words_that_are_words_without_an_apostrophe_stay(typed: str) -> None:
    assert negations_spelled(typed) == typed


@pytest.mark.parametrize(
    ("typed", "read_as"),
    [
        ("moved back to detroit to be near family", "moved back to Detroit to be near family"),
        ("i work remote from lisbon.", "i work remote from Lisbon."),
        ("we moved to rio de janeiro last year", "we moved to Rio de Janeiro last year"),
        (
            "born in new york, living in the netherlands",
            "born in New York, living in the Netherlands",
        ),
        ("not far from gdańsk", "not far from Gdańsk"),
        ("moved to the uk in 2019", "moved to the UK in 2019"),
        ("i moved from leeds to bristol", "i moved from Leeds to Bristol"),  # one after another
    ],
)
def test_a_place_after_a_preposition_gets_its_capitals(typed: str, read_as: str) -> None:
    assert places_capitalised(typed) == read_as


@pytest.mark.parametrize(
    "typed",
    [
        "dressed in orange today",  # a city (Orange, California), but an ordinary word
        "sent from mobile",
        "i'm in reading group on tuesdays",
        "detroit is cold",  # no preposition: not read as a place here
        "in the office near the station",  # no place at all
    ],
)
def test_ordinary_words_and_places_without_a_preposition_stay(typed: str) -> None:
    assert places_capitalised(typed) == typed


def test_the_place_list_holds_countries_states_and_cities_but_no_ordinary_words() -> None:
    places = known_places()
    assert {"germany", "texas", "detroit", "tampere", "sao paulo"} <= places.keys()
    assert places["sao paulo"] == "São Paulo"
    assert not {"orange", "reading", "mobile", "nice", "split"} & places.keys()
