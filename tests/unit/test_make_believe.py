"""A story, a part played or another's quoted words say nothing of the user
(`app.facts.make_believe`), and the extractor keeps nothing of them."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Turn
from app.facts.make_believe import said_of_the_user
from app.facts.named import NameReader
from app.facts.tagger import SlotTagger

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)
EXTRACTOR = EmbeddedExtractor(
    DurableReader.for_embedder(EMBEDDER),
    NameReader.for_embedder(EMBEDDER),
    SlotTagger.for_embedder(EMBEDDER),
)


def facts(text: str) -> set[tuple[str, str]]:
    return {
        (item.slot or "", item.value or "")
        for item in EXTRACTOR.extract([Turn(text, date(2026, 3, 2))])
        if item.kind in ("fact", "end")
    }


@pytest.mark.parametrize(
    "message",
    [
        "In my novel the heroine is a 41-year-old firefighter in Marseille who hates the sea.",
        "Role-play time: you're a customs officer in Frankfurt and I'm Diego, a Chilean tourist.",
        "Let's pretend I'm a 70-year-old retiree in Florida asking about Medicare.",
        "You're Sherlock Holmes and I'm Watson, a doctor back from Kabul. Deduce something!",
        "For my D&D campaign my character is a half-elf blacksmith called Torvin.",
        "I'm writing a short story narrated by a nurse in Berlin whose wife is called Ifeoma.",
        "My friend texted 'I'm 30 tomorrow and I'm allergic to birthdays' - funny reply?",
        "Someone on Reddit wrote 'I'm vegan and I live in Oslo', is that the same person?",
        # a second review's (session 11): parts opened with "be", rehearsals, story ideas, plays
        "be a strict French teacher and I'm your student Amélie who forgot her homework",
        "you be the customer and I'll be a waiter at a vegan café",
        "I'm writing a thriller - the killer is an accountant at Deloitte with a wife called Rosa",
        "in my play, the lead is a 60-year-old teacher from Belfast, give her a first line",
        "for my webcomic, the main girl is a Korean student in Paris with a cat named Bao",
        "let's rehearse: I'm a sales rep at Oracle pitching to you, a CTO",
        "story idea: a woman moves to Reykjavik and adopts a dog called Loki",
    ],
)
def test_what_is_made_believe_or_quoted_from_others_gives_nothing(message: str) -> None:
    assert facts(message) == set()


def test_what_is_said_before_the_story_begins_is_read() -> None:
    message = "I'm a teacher in Leeds, write a story for my class about a dragon called Ember"
    assert said_of_the_user(message) == "I'm a teacher in Leeds, "
    assert ("role", "teacher") in facts(message)


@pytest.mark.parametrize(
    "message",
    [
        "Can you write a short poem about my dog Biscuit, who loves snow?",
        "the kids' school is great and I'm a nurse at St Mary's",
        "I said no to my boss and I still work at Tesco",
    ],
)
def test_a_poem_about_the_users_own_life_or_an_apostrophe_is_no_make_believe(
    message: str,
) -> None:
    assert said_of_the_user(message) == message
