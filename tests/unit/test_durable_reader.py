"""The embedded extractor beyond its patterns: the durable reader (app.facts.durable) on
the packaged static model, and what the patterns now read exactly (titles such as "St.",
phone numbers as people write them)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.clauses import clauses
from app.facts.durable import READER_FILE, DurableReader, as_said, values_of
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Extracted, Turn
from app.facts.tagger import SlotTagger
from app.facts.utterances import sentences

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)
_READER = DurableReader.for_embedder(EMBEDDER)
assert _READER is not None
READER = _READER
MONDAY = date(2026, 3, 2)


def facts(text: str, extractor: EmbeddedExtractor) -> list[Extracted]:
    return [e for e in extractor.extract([Turn(text, MONDAY)]) if e.kind == "fact"]


@pytest.mark.parametrize(
    ("text", "slot", "value"),
    [
        ("I've just relocated to Gdansk for good.", "home", "Gdansk"),
        (  # "My knees are shot from years of football." is no longer read (session 11's heads)
            "I've got a dodgy knee from years of rugby.",
            "health",
            "I've got a dodgy knee from years of rugby",
        ),
        ("I call Oslo home these days", "home", "Oslo"),
    ],
)
def test_the_reader_keeps_what_no_pattern_was_written_for(text: str, slot: str, value: str) -> None:
    assert facts(text, EmbeddedExtractor(None)) == []  # the patterns alone miss it
    (fact,) = facts(text, EmbeddedExtractor(READER))
    assert (fact.slot, fact.value) == (slot, value)
    assert fact.text == as_said(text)  # faithful: the sentence as said, nothing invented


@pytest.mark.parametrize(
    "text",
    [
        "Could you book a table for four on Friday?",
        "I'm in Berlin for a conference this week.",
        "Ugh, Mondays.",
        "do you know a good vegan place near me?",
        "remind me to call mum tomorrow",
        "my sister has lived in Oslo for years, she loves it",
        "If I moved to Canada, would I need a visa?",
        "I'm stuck at the airport, my flight to Riga got cancelled",
        "Thanks, that helps with note 32!",
        "Nice, room 214 it is.",
    ],
)
def test_the_reader_keeps_chatter_out(text: str) -> None:
    assert facts(text, EmbeddedExtractor(READER)) == []


@pytest.mark.parametrize(
    ("text", "instruction"),
    [
        (
            "Could you use metric units from now on? I never know what a cup is.",
            "Could you use metric units from now on?",
        ),
        (
            "I'm colour-blind, so please never describe charts by colour alone.",
            "Never describe charts by colour alone",
        ),
    ],
)
def test_a_standing_instruction_asked_as_a_request_is_kept(text: str, instruction: str) -> None:
    """A rule for every answer asked as a question, or after the reason for it."""
    found = facts(text, EmbeddedExtractor(READER))
    assert [f.text for f in found if f.slot == "instruction"] == [instruction]


@pytest.mark.parametrize(
    "text",
    [
        "can you make this paragraph a bit shorter?",
        "please translate the menu below into Spanish",
        "Could you check my cover letter for typos?",
    ],
)
def test_a_request_for_one_answer_is_no_instruction(text: str) -> None:
    assert facts(text, EmbeddedExtractor(READER)) == []


def test_the_patterns_win_where_they_read_a_fact() -> None:
    text = "I moved to Lisbon in 2021."
    assert facts(text, EmbeddedExtractor(READER)) == facts(text, EmbeddedExtractor(None))


def test_the_extractor_names_what_reads() -> None:
    assert EmbeddedExtractor(None).name == "embedded-14-patterns"
    assert EmbeddedExtractor(READER).name == "embedded-14-untagged"
    tagger = SlotTagger.for_embedder(StaticEmbedder(DEFAULT_MODEL))
    field = SlotTagger.for_embedder(StaticEmbedder(DEFAULT_MODEL), sequence=None)
    # re-extraction re-runs the batches an extractor of another name made
    assert EmbeddedExtractor(READER, None, tagger).name == "embedded-14"
    assert EmbeddedExtractor(READER, None, field).name == "embedded-14-field"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a second fact after the one the whole sentence gives
        (
            "grew up in Valparaíso, these days I live in Santiago with my wife",
            {("origin", "Valparaíso"), ("home", "Santiago")},
        ),
        # a fact said before a question
        ("I'm vegetarian, what should I order at a steakhouse?", {("diet", "vegetarian")}),
    ],
)
def test_clauses_give_a_second_fact_and_the_fact_before_a_question(
    text: str, found: set[tuple[str, str]]
) -> None:
    assert found <= {(f.slot, f.value) for f in facts(text, EmbeddedExtractor(READER))}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a condition on a standing instruction is part of it
        ("If I ask for code, always use Python.", {"If I ask for code, always use Python"}),
        # an answer to the assistant, then a statement
        ("Great, I've just relocated to Gdansk for good.", {"Gdansk"}),
        ("Nice to meet you, I'm Ana from Porto.", {"Ana"}),
        # the user is in it
        ("My doctor says I have type 2 diabetes.", {"type 2 diabetes"}),
        # a band's name, not a hypothetical
        ("Imagine Dragons is my favourite band", {"Imagine Dragons is my favourite band"}),
        # the patterns read the home, the clause the origin
        ("i've been living in Oslo since 2015, grew up in Lagos though", {"Oslo", "Lagos"}),
        # pasted text is no statement about oneself
        (" ".join(["word"] * 200), set()),
    ],
)
def test_what_the_reader_takes_from_harder_sentences(text: str, found: set[str]) -> None:
    assert {f.value for f in facts(text, EmbeddedExtractor(READER))} == found


def test_a_condition_states_no_fact_even_to_the_patterns_alone() -> None:
    assert facts("If I moved to Canada, I'd need a visa.", EmbeddedExtractor(None)) == []
    assert facts("I moved to Canada.", EmbeddedExtractor(None)) != []


def test_the_reader_reads_no_text_too_short_or_too_long_for_a_statement() -> None:
    lasting = "I have type 2 diabetes"
    assert READER.read([lasting])[0] is not None
    assert READER.read(["Type 2 diabetes"]) == [None]  # under 4 words as a sentence
    assert READER.read([f"{lasting}, " + "and so on " * 20]) == [None]  # over 60 words
    assert READER.read(["my cat"], clauses=True) == [None]  # under 3 words as a clause


def test_several_clauses_of_one_slot_leave_one_fact() -> None:
    found = facts(
        "living in Oslo since 2015, grew up in Lagos though, raised in Accra really",
        EmbeddedExtractor(READER),
    )
    assert [f.slot for f in found].count("origin") == 1


def test_a_clause_fact_takes_the_span_its_own_clause_states() -> None:
    (fact,) = facts(
        "until next Friday I'm living out of a suitcase, I have type 2 diabetes.",
        EmbeddedExtractor(READER),
    )
    assert (fact.slot, fact.valid_until) == ("health", None)


def test_a_sentence_splits_into_clauses_at_commas_dashes_and_joiners() -> None:
    assert clauses("born in Lagos, moved to London when I was 20") == [
        "born in Lagos",
        "moved to London when I was 20",
    ]
    assert clauses("it's Robert on my passport but I go by Bobby") == [
        "it's Robert on my passport",
        "I go by Bobby",
    ]
    # "and" splits before a new subject only: two values of one statement stay together
    assert clauses("I speak Irish and Dutch and my wife speaks Welsh") == [
        "I speak Irish and Dutch",
        "my wife speaks Welsh",
    ]
    # "and" after a short subject, and "so" as an intensifier, join
    assert clauses("My husband and I are both vegan, so I cook a lot") == [
        "My husband and I are both vegan",
        "I cook a lot",
    ]
    assert clauses("I've been vegan for so long") == ["I've been vegan for so long"]
    # fillers go, and so do pieces of one word
    assert clauses("ok so btw — I'm a nurse (nights, mostly)") == ["I'm a nurse"]


def test_a_named_slot_takes_the_name_the_sentence_mentions() -> None:
    assert values_of("manager", "My manager these days is Oskar Lind") == ("Oskar Lind",)
    assert values_of("home", "We bought a house in Mt. Vernon") == ("Mt. Vernon",)
    assert values_of("uses", "I do all my budgeting in YNAB") == ("I do all my budgeting in YNAB",)
    assert values_of("home", "home is a flat by the sea") == ("home is a flat by the sea",)


def test_the_reader_is_used_only_with_its_model(tmp_path: Path) -> None:
    other = tmp_path / "reader.npz"
    with np.load(READER_FILE) as trained:
        about = str(trained["about"]).replace(EMBEDDER.name, "static:other")
        np.savez(
            other,
            slot_weights=trained["slot_weights"],
            lasting_weights=trained["lasting_weights"],
            about=about,
        )
    assert DurableReader.for_embedder(EMBEDDER, other) is None
    assert DurableReader.for_embedder(None) is None


def test_abbreviations_do_not_end_a_sentence_or_a_name() -> None:
    assert sentences("I work as a nurse at St. Mary's hospital. Dr. Patel is great.") == [
        "I work as a nurse at St. Mary's hospital.",
        "Dr. Patel is great.",
    ]
    assert sentences("I met Dr. Patel at St. Mary's on Mt. Pleasant St. today. Then home.") == [
        "I met Dr. Patel at St. Mary's on Mt. Pleasant St. today.",
        "Then home.",
    ]
    found = {(f.slot, f.value) for f in facts("I work as a nurse at St. Mary's.", EXTRACTOR)}
    assert found == {("role", "nurse"), ("employer", "St. Mary's")}


EXTRACTOR = EmbeddedExtractor(None)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("my number's 07700 900123 if you need it", "07700 900123"),
        ("my cell changed, it's 0612 345 678 now", "0612 345 678"),
        ("Work phone: (555) 010-4477.", "(555) 010-4477"),
    ],
)
def test_phone_numbers_as_people_write_them(text: str, number: str) -> None:
    assert [(f.slot, f.value) for f in facts(text, EXTRACTOR)] == [("phone", number)]


def test_an_interjection_opening_a_sentence_is_no_name() -> None:
    """A sentence of the user's cat may keep the cat by its kind (the labelling guide's pet:
    "the animal if unnamed"), never "Ha" as its name."""
    values = {
        f.value
        for f in facts("ha, my cat, right on the keyboard again.", EmbeddedExtractor(READER))
    }
    assert "Ha" not in values and "ha" not in values
