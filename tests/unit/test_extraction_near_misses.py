"""What today's chat readers must not take for a fact, and what they must not lose: messages a
reviewer wrote to break the lower-case frames, the subjectless readers, the denial guard and the
question rules (none from an evaluation set)."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Extracted, Turn

WITH_READER = EmbeddedExtractor(DurableReader.for_embedder(StaticEmbedder(DEFAULT_MODEL)))


def read(text: str) -> list[Extracted]:
    return WITH_READER.extract([Turn(text, date(2026, 3, 4))])


def said(text: str) -> set[tuple[str, str | None]]:
    return {(item.slot or "", item.value) for item in read(text) if item.kind == "fact"}


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("I'm a developer with adhd", "employer", "adhd"),
        ("I'm a writer for hire", "employer", "hire"),
        ("I'm a student at high school", "employer", "high school"),
        ("I practice gratitude at bedtime", "employer", "bedtime"),
        ("just moved to Notion for my notes", "home", "Notion"),
        ("Meeting got cancelled, moved to Friday", "home", "Friday"),
        ("she quit her job, moved to Lisbon", "home", "Lisbon"),
        ("my parents retired, moved to florida", "home", "Florida"),
        ("started with ChatGPT, then switched to Claude", "employer", "ChatGPT"),
        ("my sister hates being a nurse", "role", "nurse"),
        ("being a doctor's wife is lonely", "role", "doctor"),
        ("keto", "diet", "keto"),
        ("who does the cooking? mostly julia", "uses", "julia"),
        ("i work mostly in spring, landscaping", "uses", "spring"),
        ("the old truck is mostly rust now", "uses", "rust"),
        ("i use either, whatever is cheaper", "uses", "either"),
        ("It's Katherine on my birth certificate", "name", "It's Katherine"),
        ("Everything on my passport is correct", "name", "Everything"),
        ("call me Sam, not Sammy", "name", "Sammy"),
        ("nobody uses Facebook anymore", "name", "Facebook"),
        ("I'm on the winning team this season", "team", "winning team"),
    ],
)
def test_no_fact_where_none_was_said(message: str, slot: str, value: str) -> None:
    assert (slot, value) not in said(message)


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("I can't live without my dog Max", "pet", "Max"),
        ("I never miss a day at Siemens", "employer", "Siemens"),
        ("I'm not sure why but I've lived in Oslo for 8 years", "home", "Oslo"),
        ("need to mention I'm allergic to penicillin", "allergy", "penicillin"),
        ("just need you to know I moved to Denver", "home", "Denver"),
        ("Should mention that I'm vegetarian", "diet", "vegetarian"),
        ("It's Katherine on my birth certificate", "name", "Katherine"),
        (
            "started at Northwind Traders, still getting used to their tooling",
            "employer",
            "Northwind Traders",
        ),
        ("our stack is mostly java.", "uses", "java"),
    ],
)
def test_a_fact_said_beside_a_negation_a_want_or_a_question_word_is_kept(
    message: str, slot: str, value: str
) -> None:
    assert (slot, value) in said(message)


def test_a_stack_said_with_a_full_stop_is_one_tool() -> None:
    assert [v for s, v in said("our stack is mostly java.") if s == "uses"] == ["java"]


@pytest.mark.parametrize(
    "message",
    ["I've never had a pet", "can i use vinegar on hardwood floors"],
)
def test_a_denial_and_a_question_without_its_mark_give_no_fact(message: str) -> None:
    assert not [s for s, _ in said(message) if s in ("pet", "uses")]
