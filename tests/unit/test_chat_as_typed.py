"""Messages as people type them in chat: a lower-case first person, questions without their
mark, content pasted into a request, ends said with "anymore" in lower case."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader, with_subject
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Extracted, Turn
from app.facts.named import NameReader
from app.facts.pasted import without_pasted
from app.facts.tagger import SlotTagger
from app.facts.utterances import asks, keeps_open, sentences
from app.text.casual import first_person_capitalised

MONDAY = date(2026, 3, 2)
PATTERNS = EmbeddedExtractor(None)
WITH_READER = EmbeddedExtractor(DurableReader.for_embedder(StaticEmbedder(DEFAULT_MODEL)))
DEFAULT = EmbeddedExtractor(
    DurableReader.for_embedder(StaticEmbedder(DEFAULT_MODEL)),
    NameReader.for_embedder(StaticEmbedder(DEFAULT_MODEL)),
    SlotTagger.for_embedder(StaticEmbedder(DEFAULT_MODEL)),
)
"""The extractor a user gets with meaning on: both readers and the slot tagger."""


def read(text: str, extractor: EmbeddedExtractor = WITH_READER) -> list[Extracted]:
    return extractor.extract([Turn(text, MONDAY)])


@pytest.mark.parametrize(
    ("typed", "read_as"),
    [
        ("im a nurse", "I'm a nurse"),
        ("ive been here since may", "I've been here since may"),
        ("i’d rather not", "I’d rather not"),
        ("him and i went", "him and I went"),
        ("Im a nurse", "I'm a nurse"),
        ("the iam role is broken", "the iam role is broken"),
        ("i.e. this one", "i.e. this one"),
        ("i18n and my iPhone", "i18n and my iPhone"),
        ("i) first", "i) first"),
    ],
)
def test_the_casual_first_person_reads_as_i(typed: str, read_as: str) -> None:
    assert first_person_capitalised(typed) == read_as


def test_a_fact_typed_in_lower_case_is_kept_as_its_capitalised_form_is() -> None:
    for typed in ("im a nurse", "I'm a nurse"):
        (fact,) = read(typed, PATTERNS)
        assert (fact.slot, fact.value) == ("role", "nurse")


@pytest.mark.parametrize(
    ("message", "left"),
    [
        ("convert to json: name: Ahmed Khan, email: ahmed.khan@example.com", "convert to json"),
        ("fix the formatting: Jan Kowalski, ul. Dluga 14/3, 80-831 Gdansk", "fix the formatting"),
        (
            "getting this when i run the build:\nTypeError: x is undefined",
            "getting this when i run the build",
        ),
        (
            "what does this mean? 'Hi Anna, we need the signed SOW by Friday'",
            "what does this mean?",
        ),
        ("Quick context: I'm a nurse in Leeds", "Quick context: I'm a nurse in Leeds"),
        ("My stack: Python, Postgres and Redis", "My stack: Python, Postgres and Redis"),
        ("I'm sure it's fine, don't worry", "I'm sure it's fine, don't worry"),
        ('my nickname is "Bobby"', 'my nickname is "Bobby"'),
    ],
)
def test_content_handed_over_is_left_out_and_what_is_said_is_kept(message: str, left: str) -> None:
    assert without_pasted(message) == left


def test_names_and_emails_in_pasted_content_are_not_the_users() -> None:
    assert (
        read("convert to json: name: Ahmed Khan, email: ahmed.khan@example.com, office: Dubai")
        == []
    )
    assert read("fix the formatting: Jan Kowalski, tel. +48 501 234 567") == []


@pytest.mark.parametrize(
    "question",
    [
        "whats the fastest way to learn dutch",
        "is 30 too old to start piano",
        "how do i explain route planning on a cv",
        "python or go for our new service, what do u think",
        "moving to Leeds soon, any tips",
    ],
)
def test_a_question_without_its_mark_states_nothing(question: str) -> None:
    assert not keeps_open(first_person_capitalised(question))
    assert read(question) == []


@pytest.mark.parametrize(
    "statement",
    [
        "where I live it rains most of the year",
        "what I do is payroll for three companies",
        "Rahul, my husband, does all the cooking in our house",
        "our parrot, Kiwi, is older than my marriage",
    ],
)
def test_a_statement_opening_with_a_question_word_or_a_verb_after_a_name_is_no_question(
    statement: str,
) -> None:
    assert not asks(statement) and keeps_open(statement)


def test_a_statement_before_an_unmarked_question_is_kept() -> None:
    (fact,) = [i for i in read("I'm vegan, any tips for eating out in Lyon") if i.kind == "fact"]
    assert (fact.slot, fact.value) == ("diet", "vegan")


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("i don't work at deloitte anymore", "employer", "deloitte"),
        ("we split up so i'm not with Marco anymore", "partner", "Marco"),
        ("i no longer report to Steph", "manager", "Steph"),
    ],
)
def test_an_end_in_lower_case_ends_its_slot_and_is_never_read_as_the_fact(
    message: str, slot: str, value: str
) -> None:
    found = read(message)
    assert [(i.kind, i.slot, i.value) for i in found] == [("end", slot, value)]


def test_an_end_and_the_new_fact_of_its_slot_in_one_sentence_are_both_kept() -> None:
    found = read("i no longer report to Steph, my new manager is Olu Bankole.")
    assert [(i.kind, i.slot, i.value) for i in found] == [
        ("end", "manager", "Steph"),
        ("fact", "manager", "Olu Bankole"),
    ]


def test_what_was_given_up_ends_before_what_follows_it() -> None:
    found = read("I quit smoking for good in february and the cravings after meals are the worst.")
    assert [(i.kind, i.value) for i in found] == [("end", "smoking"), ("fact", "smoking")]


@pytest.mark.parametrize(
    "about_someone_else",
    [
        "our new CTO speaks five languages apparently",
        "dad's been diabetic for like 20 yrs",
        "my sister lives in Melbourne and has three kids",
        "Sara on my team is vegan so the offsite menu was a whole thing",
        "our client uses SAP for literally everything, its painful",
    ],
)
def test_what_holds_of_someone_else_is_not_the_users(about_someone_else: str) -> None:
    assert [i for i in read(about_someone_else) if i.kind == "fact"] == []


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("Rahul, my husband, does all the cooking in our house", "partner", "Rahul"),
        ("my wife Sofia works nights at the hospital", "partner", "Sofia"),
        ("my daughter Mila started school in Porto this year", "child", "Mila"),
    ],
)
def test_someone_in_their_relation_to_the_user_is_kept(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


@pytest.mark.parametrize(
    ("message", "slot", "names"),
    [
        (
            "we have two boys, Max and Leo, and honestly the morning routine is chaos",
            "child",
            ["Max", "Leo"],
        ),
        ("we've got two cats, Miso and Tofu, both absolute menaces", "pet", ["Miso", "Tofu"]),
    ],
)
def test_each_name_listed_in_a_slot_of_several_values_is_a_fact(
    message: str, slot: str, names: list[str]
) -> None:
    assert [i.value for i in read(message) if i.slot == slot] == names


@pytest.mark.parametrize(
    ("message", "kind", "slot", "value"),
    [
        ("As a Brazilian citizen, do I need a visa for Japan?", "fact", "nationality", "Brazilian"),
        ("as a Canadian i find the tipping thing confusing", "fact", "nationality", "Canadian"),
        (
            "i'm British-Indian and my parents are traditional",
            "fact",
            "nationality",
            "British-Indian",
        ),
        (
            "my last day at Hollis & Page was 30 january, job hunting now",
            "end",
            "employer",
            "Hollis & Page",
        ),
        (
            "quick one - going forward give me the short answer first",
            "fact",
            "instruction",
            "going forward give me the short answer first",
        ),
        (
            "can you please stop adding disclaimers to every answer",
            "fact",
            "instruction",
            "stop adding disclaimers to every answer",
        ),
    ],
)
def test_phrasings_of_chat_the_patterns_read(
    message: str, kind: str, slot: str, value: str
) -> None:
    found = [i for i in read(message) if (i.kind, i.slot) == (kind, slot)]
    assert len(found) == 1 and value in (found[0].value or "")


@pytest.mark.parametrize(
    "message", ["As a British company we pay VAT.", "I'm going forward with the plan."]
)
def test_near_phrasings_that_state_no_such_fact(message: str) -> None:
    assert read(message, PATTERNS) == []


def test_the_last_day_at_a_job_ends_it_on_that_day() -> None:
    (end,) = read("my last day at Hollis & Page was 30 january", PATTERNS)
    assert end.on == date(2026, 1, 30)


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("i'm canadian, grew up in Nova Scotia", "nationality", "canadian"),
        ("im from Lagos originally, been in toronto since 2015", "home", "Toronto"),
        ("I've been living in Oslo for five years", "home", "Oslo"),
        ("i live in Leeds now, moved over from Cork a couple yrs back", "origin", "Cork"),
        ("i'm a product manager at Spotify", "employer", "Spotify"),
        (
            "my main contact at the agency is Farah Siddiqui, she runs our paid social",
            "works_with",
            "Farah Siddiqui",
        ),
        ("I work with the Berlin sales team every day", "works_with", "Berlin sales team"),
        (
            "im on the payments team, we own checkout + refunds",
            "responsibility",
            "checkout + refunds",
        ),
        ("i'm the product owner for the checkout flow", "responsibility", "checkout flow"),
    ],
)
def test_work_and_home_as_chat_says_them(message: str, slot: str, value: str) -> None:
    assert value in [i.value for i in read(message, PATTERNS) if i.slot == slot]


def test_the_lead_of_a_team_is_in_it_not_responsible_for_it() -> None:
    assert [i.slot for i in read("I'm the team lead for the payments squad.", PATTERNS)] == ["role"]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("plant based for 8 yrs now, any high protein breakfast ideas", "diet", "plant based"),
        (
            "i've got a shellfish allergy so the paella recipe needs tweaking",
            "allergy",
            "shellfish",
        ),
        ("I'm vegan, help me plan meals for the week", "diet", "vegan"),
        (
            "so for context i report to the VP of ops, Rahul Mehta, and he's old school",
            "manager",
            "Rahul Mehta",
        ),
    ],
)
def test_a_fact_said_in_passing_is_kept(message: str, slot: str, value: str) -> None:
    assert [(i.slot, i.value) for i in read(message) if i.kind == "fact"] == [(slot, value)]


def test_a_team_and_its_employer_said_before_a_question_are_both_kept() -> None:
    found = read("i'm on the data platform team at Zalando, what's a good book")
    assert [(i.slot, i.value) for i in found if i.kind == "fact"] == [
        ("team", "data platform team"),
        ("employer", "Zalando"),
    ]


def test_an_emoji_ends_a_sentence() -> None:
    found = read("type 1 diabetic here 🙃 whats a decent low carb breakfast")
    assert [i.slot for i in found] == ["health"]


def test_a_sentence_that_ends_by_asking_for_something_states_nothing_of_it() -> None:
    assert read("my boss wants the report by friday, help me outline it") == []


@pytest.mark.parametrize(
    ("message", "slot", "values"),
    [
        ("I've got dual citizenship, Irish and Dutch.", "nationality", ["Irish", "Dutch"]),
        ("Tamil is my first language, English my second.", "language", ["Tamil", "English"]),
        (  # learning a language is not yet speaking it
            "im learning korean, been at it two years, but my native language is tagalog",
            "language",
            ["tagalog"],
        ),
    ],
)
def test_each_nationality_or_language_named_is_a_fact(
    message: str, slot: str, values: list[str]
) -> None:
    assert [i.value for i in read(message) if i.slot == slot] == values


@pytest.mark.parametrize(
    ("typed", "read_as"),
    [
        ("dyslexic btw", "I'm dyslexic btw"),
        ("paralegal at a small immigration firm", "I'm paralegal at a small immigration firm"),
        ("the dog is snoring next to me", "the dog is snoring next to me"),
        ("forwarded to Raj and Keiko", "forwarded to Raj and Keiko"),
        ("currently on the train to work", "currently on the train to work"),
        ("20 min max", "20 min max"),
        ("Anna says hi", "Anna says hi"),
        ("have lived in Tokyo since 2019", "I have lived in Tokyo since 2019"),
        ("been in boston 12 yrs", "I've been in boston 12 yrs"),
    ],
)
def test_the_reader_puts_back_the_im_chat_leaves_out_and_nothing_else(
    typed: str, read_as: str
) -> None:
    assert with_subject(typed) == read_as


def test_a_flag_ends_a_sentence_and_been_somewhere_for_years_is_home() -> None:
    found = read("born and raised in cork 🇮🇪 but been in boston 12 yrs so my accent's a mess lol.")
    assert [(i.slot, i.value) for i in found if i.slot == "home"] == [("home", "Boston")]


@pytest.mark.parametrize(
    ("typed", "read_as"),
    [
        ("been in boston 12 yrs", "I've been in boston 12 yrs"),
        ("being the only data engineer here", "I'm the only data engineer here"),
    ],
)
def test_been_and_being_are_read_with_their_subject(typed: str, read_as: str) -> None:
    assert with_subject(typed) == read_as


# Found in review: none of these may give a fact or an end it does not state.


@pytest.mark.parametrize(
    "message",
    [
        "been in therapy for years",
        "I've been in Paris since Monday for a conference",
        "been in London for two months on a work trip",
        "moved over from Jira to Linear last year",
        "we own a dog",
        "I'm in a support group at St Mary's for my anxiety",
        "I'm the point person for the offsite next week",
        "I don't feel like it anymore.",
        "I quit drinking for a month.",
        "I've given up trying to fix it.",
    ],
)
def test_phrasings_near_a_pattern_give_no_fact_of_it(message: str) -> None:
    found = [(i.kind, i.slot) for i in read(message, PATTERNS) if i.kind != "event"]
    assert ("fact", "home") not in found and ("fact", "origin") not in found
    assert ("fact", "responsibility") not in found and ("fact", "employer") not in found
    assert ("fact", "habit") not in found


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("This is my situation: I'm 34, I live in Leeds and I work at Asda", ("home", "Leeds")),
        ("Quick update on this: I moved to Berlin last month", ("home", "Berlin")),
        ("I grew up in the '90s in Leeds, the kids' school is near my flat", ("origin", "Leeds")),
        ("Can't eat gluten, I'm coeliac", ("diet", "gluten")),
        ("I live in NYC 🗽 and work at Google", ("home", "NYC")),
        ("we are a family of 4 👨‍👩‍👧‍👦 living in Leeds", ("home", "Leeds")),
    ],
)
def test_statements_read_as_questions_pasted_text_or_two_sentences_are_kept(
    message: str, kept: tuple[str, str]
) -> None:
    slot, value = kept
    assert any(i.slot == slot and value in (i.value or i.text) for i in read(message, DEFAULT))


def test_an_emoji_inside_a_statement_ends_nothing() -> None:
    assert sentences("I ❤️ sushi, always have") == ["I ❤️ sushi, always have"]


def test_a_habit_verb_after_an_adverb_is_still_the_habit() -> None:
    end, now = read("I don't really drink coffee anymore.")
    assert (end.value, now.text) == ("coffee", "No longer drinks coffee")


def test_running_marathons_is_a_habit_running_the_intern_program_a_duty() -> None:
    (end, now) = read("I don't run marathons anymore.", PATTERNS)
    assert (end.slot, now.text) == ("habit", "No longer runs marathons")
    (end,) = read("I no longer run the intern program.", PATTERNS)
    assert end.slot == "responsibility"


def test_no_longer_with_someone_ends_whatever_names_them_unless_a_break_up_says_partner() -> None:
    (end,) = read("I'm no longer with Acme.", PATTERNS)
    assert (end.slot, end.value) == (None, "Acme")
    (end,) = read("we broke up, so I'm not with Mark anymore", PATTERNS)
    assert (end.slot, end.value) == ("partner", "Mark")


def test_a_last_day_still_to_come_ends_the_job_on_that_day() -> None:
    (end,) = PATTERNS.extract([Turn("My last day at Acme is Friday.", date(2024, 5, 1))])
    assert end.on == date(2024, 5, 3)


def test_a_second_pet_in_its_own_clause_is_a_second_fact() -> None:
    pets = [
        i.value for i in read("got a dog called Biscuit, and a cat named Luna") if i.slot == "pet"
    ]
    assert pets == ["Biscuit", "Luna"]


def test_a_clause_whose_subject_is_another_clause_says_nothing_of_the_user() -> None:
    assert [i.slot for i in read("our parrot, Kiwi, is older than my marriage")] == ["pet"]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        (
            "can u tighten these slides? my manager priya is super picky about fonts",
            "manager",
            "priya",
        ),
        ("our parrot kiwi is 30 yrs old and suddenly plucking feathers", "pet", "kiwi"),
        ("my cofounder Leila handles the tech side", "works_with", "Leila"),
        ("My manager Priya is great", "manager", "Priya"),
    ],
)
def test_a_relation_named_in_passing_is_kept_in_either_case(
    message: str, slot: str, value: str
) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message, PATTERNS)]


@pytest.mark.parametrize(
    "message", ["my manager also wants the deck", "my wife and I moved to Porto"]
)
def test_a_word_after_a_relation_is_no_name_by_itself(message: str) -> None:
    assert not [i for i in read(message, PATTERNS) if i.slot in ("manager", "partner")]


@pytest.mark.parametrize(
    ("message", "slot", "names"),
    [
        ("got two boys, finn and arlo, and they fight constantly", "child", ["finn", "arlo"]),
        ("we've got three cats: Miso, Tofu and Natto", "pet", ["Miso", "Tofu", "Natto"]),
        ("we've got two puppies, rex and max", "pet", ["rex", "max"]),
    ],
)
def test_children_or_pets_counted_then_named_are_each_a_fact(
    message: str, slot: str, names: list[str]
) -> None:
    assert [i.value for i in read(message, PATTERNS) if i.slot == slot] == names


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("41 yo dad of twins, tired 24/7 😂 is 6 hrs of sleep actually that bad", "age", "41"),
        ("as a 62 year old retiree on a fixed income, is it dumb to buy an EV", "age", "62"),
        (
            "paralegal at a small immigration firm — whats the fastest way to track deadlines",
            "role",
            "paralegal",
        ),
        (
            "backend dev, mostly go and postgres. why is my query planner ignoring this",
            "role",
            "backend dev",
        ),
        ("head of procurement, I sign off on anything over 10k", "role", "head of procurement"),
    ],
)
def test_what_chat_says_first_without_a_subject_is_kept(
    message: str, slot: str, value: str
) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message)]


def test_an_opening_about_someone_else_gives_no_role() -> None:
    assert read("manager at the store was rude", PATTERNS) == []


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("quit smoking for good back in january 🎉 any tips", "habit", "smoking"),
        ("left google in january, doing my own startup now.", "employer", "google"),
        (
            "we stopped working with Acme Logistics, shipping's in-house now.",
            "works_with",
            "Acme Logistics",
        ),
        ("no longer vegetarian, started eating fish again", "diet", "vegetarian"),
        (
            "we lost our cat luna last week 😢 so pls stop with the cat food suggestions",
            "pet",
            "luna",
        ),
    ],
)
def test_ends_said_without_their_i(message: str, slot: str, value: str) -> None:
    assert ("end", slot, value) in [(i.kind, i.slot, i.value) for i in read(message)]


def test_a_request_after_an_end_is_no_fact() -> None:
    found = read("we lost our cat luna last week 😢 so pls stop with the cat food suggestions")
    assert [i.kind for i in found] == ["end"]


@pytest.mark.parametrize("message", ["left work early today", "left the house at 8"])
def test_leaving_a_place_for_the_day_ends_no_job(message: str) -> None:
    assert read(message, PATTERNS) == []


def test_pls_opens_a_standing_instruction_as_please_does() -> None:
    (fact,) = read("pls always give me metric units, imperial makes zero sense to me", PATTERNS)
    assert fact.slot == "instruction"


@pytest.mark.parametrize(
    ("message", "slot", "values"),
    [
        ("I'm Lena btw! ok so my question is about sourdough hydration", "name", ["Lena"]),
        ("asthmatic since i was a kid so winter running is rough", "health", ["asthmatic"]),
        ("dyslexic btw, so short sentences help a lot", "health", ["dyslexic"]),
        ("gluten free bc celiac so be careful w recipes", "health", ["celiac"]),
        ("our stack is django + react, should we bother with htmx", "uses", ["django", "react"]),
        ("I've been using Figma daily for years, what's the best plugin", "uses", ["Figma"]),
        ("as head of procurement I sign off on anything over 10k", "role", ["head of procurement"]),
        ("our cto marcus is my boss and he wants an architecture doc", "manager", ["marcus"]),
        ("Karen Liu is my manager, for context.", "manager", ["Karen Liu"]),
        (
            "I cover the EMEA enterprise accounts, what's a good cadence",
            "responsibility",
            ["EMEA enterprise accounts"],
        ),
    ],
)
def test_short_ways_chat_says_who_one_is(message: str, slot: str, values: list[str]) -> None:
    assert [i.value for i in read(message) if i.slot == slot] == values


def test_a_moment_is_not_read_as_lasting() -> None:
    assert read("so excited rn I can't focus on anything 😆") == []


@pytest.mark.parametrize(
    ("message", "kind", "slot", "value"),
    [
        (
            "pls send anything personal to j.okafor@fastmail.com going forward, not my work one",
            "fact",
            "email",
            "j.okafor@fastmail.com",
        ),
        (
            "since retiring from the navy I volunteer at the food bank on tuesdays",
            "end",
            "employer",
            "navy",
        ),
    ],
)
def test_standing_contacts_and_retirements(message: str, kind: str, slot: str, value: str) -> None:
    assert (kind, slot, value) in [(i.kind, i.slot, i.value) for i in read(message)]


def test_a_one_off_send_gives_no_email() -> None:
    assert read("send this to bob@example.com") == []


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("living in munich and still dont speak german", "home", "Munich"),
        ("I'm a morning person", "likes", "morning"),
        ("dark roast person through and through, recommend beans", "likes", "dark roast"),
        ("not a cat person tbh", "dislikes", "cat"),
    ],
)
def test_a_lower_case_home_and_the_kind_of_person_one_is(
    message: str, slot: str, value: str
) -> None:
    """With the reader, as by default: a request after the fact ("…, recommend beans") leaves
    the patterns alone nothing to read (the whole sentence asks), the clauses still state it."""
    assert (slot, value) in [(i.slot, i.value) for i in read(message)]


@pytest.mark.parametrize("message", ["living in fear lol", "I'm the only person who knows SAP"])
def test_near_phrasings_give_no_home_and_no_liking(message: str) -> None:
    assert not [i for i in read(message, PATTERNS) if i.slot in ("home", "likes")]


def test_a_partner_named_in_passing_is_said_as_a_fact_is() -> None:
    (fact,) = read("my wife jules is a nurse", PATTERNS)
    assert (fact.slot, fact.value, fact.text) == ("partner", "jules", "Wife is jules")


def test_a_habit_given_up_is_read_without_its_apostrophe() -> None:
    found = read("i dont drink coffee anymore, switched to matcha a while ago.")
    assert ("end", "habit", "coffee") in [(i.kind, i.slot, i.value) for i in found]


def test_a_home_left_and_a_home_moved_to_both_typed_in_lower_case() -> None:
    found = read("dont live in chicago anymore, moved back to detroit to be near family.")
    said = [(i.kind, i.slot, i.value) for i in found]
    assert ("end", "home", "Chicago") in said
    assert ("fact", "home", "Detroit") in said


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("i moved to rio de janeiro last year", "home", "Rio de Janeiro"),
        ("we moved to tampere for good last year", "home", "Tampere"),
        ("moved to the uk in 2019", "home", "UK"),
    ],
)
def test_a_place_typed_in_lower_case_is_a_home(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message)]


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("I don't speak German.", "language"),
        ("i havent lived in Leeds for years", "home"),
        ("I'm not from around here, tbh", "origin"),
    ],
)
def test_a_denial_is_no_fact_of_its_slot(message: str, slot: str) -> None:
    assert not [i for i in read(message) if i.slot == slot]


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("i dont eat pork, for religious reasons", "diet"),
        ("can't stand horror movies, never could", "dislikes"),
    ],
)
def test_a_denial_that_states_the_fact_is_kept(message: str, slot: str) -> None:
    assert [i for i in read(message) if i.slot == slot]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        (
            "Im on the growth team at Canva, mostly experiments on onboarding flows",
            "team",
            "growth team",
        ),
        ("we use jira and confluence for literally everything at work ugh.", "uses", "confluence"),
        ("i use vim + tmux every day", "uses", "tmux"),
        ("im a backend dev at klarna, mostly java these days", "employer", "klarna"),
        (
            "i'm a pediatric nurse at st. luke's and i need help with an email",
            "employer",
            "st. luke's",
        ),
        (
            "i teach 8th grade science at lincoln middle, need a fun lab",
            "employer",
            "lincoln middle",
        ),
    ],
)
def test_teams_tools_and_employers_typed_in_lower_case(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message)]


@pytest.mark.parametrize(
    "message",
    [
        "I'm a nurse at night mostly",
        "I'm a teacher at a small school in Leeds",
        "I use it daily",
        "I'm on the same team as Raj",
    ],
)
def test_no_employer_tool_or_team_from_a_time_a_determiner_or_a_pronoun(message: str) -> None:
    found = [(i.slot, i.value) for i in read(message, PATTERNS)]
    assert not [f for f in found if f[0] in ("employer", "uses", "team")]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("keto these days, how many carbs is a small apple", "diet", "keto"),
        ("vegetarian, fyi", "diet", "vegetarian"),
        ("being a pharmacist in flu season is no joke", "role", "pharmacist"),
        ("pls stop suggesting python, i write rust for a living", "uses", "rust"),
        (
            "backend dev, mostly go and postgres. why is my planner ignoring this",
            "uses",
            "postgres",
        ),
        (
            "im in the platform reliability team, it's mostly terraform all day.",
            "uses",
            "terraform",
        ),
        ("call me Sam, not Samantha, only my grandma calls me that lol", "name", "Samantha"),
        ("btw call me Jo, nobody uses Johanna except my mum lol", "name", "Johanna"),
        ("it's Robert on my passport but I go by Bobby", "name", "Robert"),
        (
            "as of March 1 I'm no longer at Contoso. started at Northwind Traders",
            "employer",
            "Northwind Traders",
        ),
    ],
)
def test_what_chat_says_in_fragments(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


def test_moving_out_of_a_place_ends_it_as_home() -> None:
    found = read("moved out of london in march, we're in Margate now and loving it")
    assert ("end", "home", "London") in [(i.kind, i.slot, i.value) for i in found]
    assert ("fact", "home", "London") not in [(i.kind, i.slot, i.value) for i in found]
    assert ("fact", "home", "Margate") in [(i.kind, i.slot, i.value) for i in found]


@pytest.mark.parametrize(
    "message",
    [
        "imagine being a pilot lol",
        "I mostly go to the gym on mondays",
        "call me Tuesday, when you can",
        "please call me tomorrow, ok",
    ],
)
def test_no_role_tool_or_name_from_a_daydream_a_verb_or_a_day(message: str) -> None:
    found = [i.slot for i in read(message)]
    assert not {"role", "uses", "preferred_name", "name"} & set(found)


@pytest.mark.parametrize(
    "message",
    [
        "cat or dog for a first pet, pros and cons?",
        "are sphynx cats actually hypoallergenic",
        "the author of this article, dr. chen, says intermittent fasting is bad, is she right?",
        "need high protein lunch ideas",
    ],
)
def test_a_question_and_a_want_give_nothing(message: str) -> None:
    assert read(message) == []


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("eat halal so no pork or gelatin — are haribo ok?", "diet", "halal"),
        ("not a fan of horror movies at all, recommend something tense?", "dislikes", "horror"),
    ],
)
def test_a_fact_said_without_a_subject_before_a_question_is_kept(
    message: str, slot: str, value: str
) -> None:
    found = [(i.slot, i.value) for i in read(message)]
    assert any(s == slot and value in v for s, v in found)


def test_as_of_a_day_with_the_present_tense_is_the_nearest_such_day() -> None:
    found = EmbeddedExtractor(None).extract(
        [Turn("as of March 1 I'm no longer at Contoso.", date(2026, 3, 4))]
    )
    assert [(i.kind, i.value, i.on) for i in found] == [("end", "Contoso", date(2026, 3, 1))]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("i have asthma and its pollen season, tips for exercising outside?", "health", "asthma"),
        ("just got diagnosed with adhd lol", "health", "adhd"),
        ("Name's Arjun Mehta. I need a formal letter to my landlord", "name", "Arjun Mehta"),
        ("my mother tongue is Hungarian so sorry for grammar", "language", "Hungarian"),
        ("i moved from Leeds to Bristol a few weeks ago", "home", "Bristol"),
        ("I lead the payments team at Monzo, we need two more engineers", "employer", "Monzo"),
        ("thai is hands down my favourite cuisine, suggest something", "favourite:cuisine", "thai"),
        (
            "As a Portuguese citizen living in Rotterdam, do I need to register?",
            "home",
            "Rotterdam",
        ),
        ("my hubby Dev snores like a freight train", "partner", "Dev"),
    ],
)
def test_everyday_statements_of_who_one_is(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("i moved from Leeds to Bristol a few weeks ago", "home", "Leeds"),
        ("no longer at Spotify as of Jan 31, how do i explain the gap", "employer", "Spotify"),
        ("Marco and I broke up, help me write a message", "partner", "Marco"),
        ("I stopped doing keto, it was making me miserable.", "diet", "keto"),
        ("i used to love k-dramas but honestly im over them now", "likes", "k-dramas"),
        ("not in the sales team anymore, moved to partnerships", "team", "sales"),
        (
            "we're not working with Halden Logistics anymore, the contract ended.",
            "works_with",
            "Halden Logistics",
        ),
    ],
)
def test_everyday_ends(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "end"]


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("my cousin just got diagnosed with asthma, what should she carry", "health"),
        ("wish i could speak french, it sounds so pretty", "language"),
        ("moved over from Jira to Linear last year", "home"),
        ("I stopped doing keto, it was making me miserable.", "habit"),
    ],
)
def test_no_fact_of_another_a_past_a_wish_or_a_tool(message: str, slot: str) -> None:
    assert not [i for i in read(message) if i.slot == slot and i.kind == "fact"]


def test_a_span_of_one_statement_is_not_another_statements() -> None:
    (fact,) = [
        i
        for i in read("until next Friday I'm living out of a suitcase, I have type 2 diabetes.")
        if i.kind == "fact"
    ]
    assert (fact.slot, fact.valid_until) == ("health", None)
    (leave,) = read("Until 1 October, I'm on parental leave.")
    assert (leave.slot, leave.valid_until) == ("status", date(2026, 10, 1))


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("backend dev at Shopify here, mostly ruby. how do i profile", "employer", "Shopify"),
        (
            "I'm Head of Customer Success at a small SaaS startup.",
            "role",
            "Head of Customer Success",
        ),
        ("i'm Mei, 29, pharmacy tech on nights, need a meal plan", "age", "29"),
        ("Hi, I'm Mehmet, 44, type 2 diabetic.", "age", "44"),
        (
            "i manage a team of 4 designers, how do i run a design crit",
            "responsibility",
            "team of 4 designers",
        ),
        ("I use a MacBook Air M2 and Figma all day", "uses", "Figma"),
        ("i drink like 5 coffees a day, how bad is that", "habit", "5 coffees a day"),
        ("Im 34 and just started running 3x a week, is a 10k realistic", "habit", "running"),
        ("i go bouldering every tue and thu and my forearms are DEAD", "habit", "bouldering"),
    ],
)
def test_roles_habits_and_tools_said_in_passing(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


@pytest.mark.parametrize(
    "message",
    [
        "im going camping every summer",
        "thinking about running every morning",
        "I'm trying to walk 3x a week",
    ],
)
def test_a_plan_or_a_try_is_no_habit(message: str) -> None:
    assert not [i for i in read(message) if i.slot == "habit"]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("Hello. I am 78 and live alone in Swansea since my husband passed.", "home", "Swansea"),
        ("I come from Romania and I am living in Leicester four years now", "origin", "Romania"),
        (
            "im a teacher at Millbrook Primary and im also in charge of the school library",
            "responsibility",
            "school library",
        ),
        ("Hi, I'm Gareth, sparky by trade.", "role", "sparky"),
        (
            "My husband Derek has dementia and I'm his full time carer now.",
            "role",
            "full time carer",
        ),
        ("i'm gluten free cos im coeliac", "diet", "gluten free"),
        ("I'm 16 and I work saturdays at Greggs.", "employer", "Greggs"),
        ("We're Nigerian, been in Manchester since 2015.", "nationality", "Nigerian"),
        ("I have MS, diagnosed 2018, and I use a wheelchair most days now.", "uses", "wheelchair"),
        (
            "Thai food is my absolute favourite, could eat green curry every day.",
            "favourite:cuisine",
            "Thai",
        ),
        ("I'm Jamaican, live in Birmingham", "nationality", "Jamaican"),
        (
            "I work for Bupa as an activities coordinator in one of their care homes",
            "role",
            "activities coordinator",
        ),
        ("Our restaurant is in Cardiff Bay, I'm head chef there.", "role", "head chef"),
    ],
)
def test_what_people_outside_tech_say_of_themselves(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        (
            "We moved out of Bristol for good, we're in a village near Taunton now.",
            "home",
            "Bristol",
        ),
        ("we don't have the chickens anymore, fox got them all", "pet", "chickens"),
        ("I've stopped working at the Co-op, last shift was friday.", "employer", "Co-op"),
        ("me and Jamie split up last night so its just me and the dog now.", "partner", "Jamie"),
        ("i dont drive anymore, gave my licence up after my stroke.", "habit", "drive"),
        ("I gave up smoking on new years day and I'm still going!!", "habit", "smoking"),
    ],
)
def test_what_people_outside_tech_say_has_ended(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "end"]


def test_im_jamaican_is_a_nationality_not_a_name() -> None:
    assert "name" not in [i.slot for i in read("I'm Jamaican")]


@pytest.mark.parametrize(
    ("message", "kind", "slot", "value"),
    [
        (
            "Just moved from Manchester to Shrewsbury to be closer to my parents",
            "end",
            "home",
            "Manchester",
        ),
        ("me and Jonah broke up so ignore what I said", "end", "partner", "Jonah"),
        ("I've quit coffee for good, green tea only now.", "end", "habit", "coffee"),
        ("Im not at St Mary's anymore, went freelance.", "end", "employer", "St Mary's"),
        ("im no longer the team lead, handed it over yesterday", "end", "role", "team lead"),
        ("we had to put our dog Max down yesterday", "end", "pet", "Max"),
        ("Sanna (my manager) asked me to summarise the Q2 numbers", "fact", "manager", "Sanna"),
        ("ive been with Chloe 3 yrs and want to propose", "fact", "partner", "Chloe"),
        ("I'm originally from Kraków but have lived in Oslo since 2015", "fact", "home", "Oslo"),
        ("grew up in Lagos, now in Houston, and i miss suya", "fact", "home", "Houston"),
        ("I'm Leila but everyone calls me Lei", "fact", "name", "Leila"),
        ("My favourite food is Ethiopian", "fact", "favourite:cuisine", "Ethiopian"),
        ("I work in logistics at DHL, the Leipzig hub.", "fact", "employer", "DHL"),
    ],
)
def test_ends_and_facts_said_sideways(message: str, kind: str, slot: str, value: str) -> None:
    assert (kind, slot, value) in {(i.kind, i.slot, i.value) for i in read(message)}


def test_something_given_up_for_a_while_is_no_end() -> None:
    assert not [i for i in read("I quit tea for a month") if i.kind == "end"]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("My home telephone is 0161 496 0732 should you require it.", "phone", "0161 496 0732"),
        ("Dear assistant, I am Mrs. Okafor, a retired midwife aged 71.", "age", "71"),
        ("I'm deaf and use BSL, can you recommend cafes", "language", "BSL"),
        ("aqua aerobics is the only thing that helps my arthritis", "health", "arthritis"),
        ("I'm in the pharmacy team at Boots in Truro.", "office", "Truro"),
        ("I work as a welder in Port Talbot", "office", "Port Talbot"),
        (
            "my team leader Aisha has put me in charge of training the new starters",
            "manager",
            "Aisha",
        ),
        (
            "She's made me responsible for the rota for our ward, how do I make it fair",
            "responsibility",
            "rota for our ward",
        ),
    ],
)
def test_more_of_what_people_outside_tech_say(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("Dear assistant, could you explain an ISA?", "role"),
        ("my arthritis test is tomorrow", "health"),
    ],
)
def test_a_salutation_and_a_test_state_no_fact(message: str, slot: str) -> None:
    assert not [i for i in read(message, PATTERNS) if i.slot == slot]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("call me Bex pls, nobody calls me Rebecca except my mum", "preferred_name", "Bex"),
        ("pls just call me DJ, my full name is Dimitrios Ioannou", "preferred_name", "DJ"),
        ("pls just call me DJ, my full name is Dimitrios Ioannou", "name", "Dimitrios Ioannou"),
        ("just started at Ocado as a product designer on monday!!", "role", "product designer"),
    ],
)
def test_names_and_a_new_role_said_in_passing(message: str, slot: str, value: str) -> None:
    assert (slot, value) in [(i.slot, i.value) for i in read(message) if i.kind == "fact"]


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("please avoid tables in your answers", "avoid tables"),
        (
            "I'm blind and use NVDA as my screen reader, please avoid tables in your answers",
            "avoid",
        ),
        ("i have ADHD so walls of text are hard, break things up into small chunks pls", "chunks"),
        ("no bullet points please", "bullet points"),
    ],
)
def test_a_request_about_the_answers_form_is_a_standing_instruction(
    message: str, asked: str
) -> None:
    instructions = [item.text for item in read(message) if item.slot == "instruction"]
    assert any(asked in text.lower() for text in instructions), instructions


def test_a_question_about_the_answers_form_is_no_instruction() -> None:
    assert not any(
        item.slot == "instruction" for item in read("can you avoid tables in your answers?")
    )


@pytest.mark.parametrize(
    ("message", "device"),
    [
        ("Could you tell me how to make the writing bigger on my iPad please.", "iPad"),
        ("can my hearing aids pair with a TV?", "hearing aids"),
    ],
)
def test_a_device_named_as_ones_own_in_a_question_is_kept(message: str, device: str) -> None:
    assert [(item.slot, item.value) for item in read(message)] == [("uses", device)]


def test_a_device_asked_about_and_not_owned_is_not_kept() -> None:
    assert read("should I get an iPad or a Kindle for reading?") == []


@pytest.mark.parametrize(
    ("message", "role"),
    [
        (
            "i'm Mei, 29, pharmacy tech on nights, need a meal plan that works around that",
            "pharmacy tech",
        ),
        (
            "i'm 19, apprentice mechanic at Kwik Fit, explain tyre balancing simply?",
            "apprentice mechanic",
        ),
        ("I'm Filipino, working as a carer in a nursing home.", "carer"),
    ],
)
def test_a_role_said_after_an_introductions_name_age_or_nationality_is_kept(
    message: str, role: str
) -> None:
    assert ("role", role) in [(item.slot, item.value) for item in read(message)]


def test_an_introduction_followed_by_someone_elses_role_gives_no_role() -> None:
    assert not any(item.slot == "role" for item in read("I'm Tom, my brother is a nurse"))


def test_a_role_said_first_in_a_later_clause_is_kept_and_one_in_an_aside_on_a_name_is_not() -> None:
    welder = read("I'm from Poland originally but British citizen since 2020, work as a welder.")
    assert any(item.slot == "role" and "welder" in (item.value or "") for item in welder)
    aside = read("For context I report to Dana Whitfield (VP of Ops), so the tone is formal.")
    assert not any(item.slot == "role" for item in aside)


def test_a_home_said_without_a_subject_after_an_origin_is_kept() -> None:
    facts = [
        (item.slot, item.value) for item in read("originally from Lagos, living in Houston now.")
    ]
    assert ("origin", "Lagos") in facts
    assert ("home", "Houston") in facts


@pytest.mark.parametrize(
    ("message", "ended", "holds"),
    [
        (
            "We moved from Bristol to Exeter in the autumn and the buses are awful",
            ("home", "Bristol"),
            ("home", "Exeter"),
        ),
        (
            "Thursday was my last day at Aviva, starting somewhere new in May",
            ("employer", "Aviva"),
            None,
        ),
        ("left my job at the Royal Mail in March, any CV tips?", ("employer", "Royal Mail"), None),
        ("I switched from Spotify to Tidal last month", ("uses", "Spotify"), None),
    ],
)
def test_a_change_ends_what_held_before(
    message: str, ended: tuple[str, str], holds: tuple[str, str] | None
) -> None:
    found = read(message)
    assert [(i.slot, i.value) for i in found if i.kind == "end"] == [ended]
    if holds is not None:
        assert holds in {(i.slot, i.value) for i in found if i.kind == "fact"}


@pytest.mark.parametrize(
    ("message", "ended"),
    [
        (
            "I've just moved from Lewisham to Croydon. How long is the commute?",
            ("home", "Lewisham"),
        ),
        ("I've lived in Kraków for a year now after moving from Wrocław.", ("home", "Wrocław")),
        ("I moved here from London in 2019 and love it", ("home", "London")),
        ("I've just switched from an Android to an iPhone 15 and I'm lost.", ("uses", "Android")),
        ("We ditched Slack for Teams in January.", ("uses", "Slack")),
        ("We moved our whole backend from MongoDB to Postgres this quarter.", ("uses", "MongoDB")),
        ("I gave up Facebook for good last year.", ("uses", "Facebook")),
        ("No more Spotify for me, I cancelled it.", ("uses", "Spotify")),
        ("We stopped using Trello in March, the team is on Asana now.", ("uses", "Trello")),
        ("I left the Army in 2021 after 12 years.", ("employer", "Army")),
        ("I'm an engineer at Spotify now — left Klarna in the autumn.", ("employer", "Klarna")),
        ("I'm a product manager at Flutterwave, previously at Andela.", ("employer", "Andela")),
        ("I was made redundant from Standard Bank in February.", ("employer", "Standard Bank")),
        ("Since March I report to Ana Lima instead of Rui.", ("manager", "Rui")),
        ("Sunita has replaced Tom as my manager.", ("manager", "Tom")),
        ("Dr. Okafor isn't my supervisor anymore since she moved.", ("manager", "Dr. Okafor")),
        ("I'm not at the Birmingham office anymore; I'm in Leeds.", ("office", "Birmingham")),
        ("I moved from the Berlin office to Munich in February.", ("office", "Berlin")),
        (
            "Our office moved from Sandton to Rosebank, so my commute changed.",
            ("office", "Sandton"),
        ),
        ("I'm not a student anymore, I work at a climbing gym.", ("role", "student")),
        ("Since my divorce from Daniel went through I've been in Cork.", ("partner", "Daniel")),
        ("Left Berlin after eleven years and I'm back in Kraków.", ("home", "Berlin")),
        ("Finally we've swapped Sheffield for a village outside Harrogate.", ("home", "Sheffield")),
    ],
)
def test_what_the_user_left_for_another_is_ended(message: str, ended: tuple[str, str]) -> None:
    assert ended in [(i.slot, i.value) for i in read(message) if i.kind == "end"]


@pytest.mark.parametrize(
    "message",
    [
        "I moved from Lagos to London when I was five.",
        "I moved from Google to Meta last year",
        "My sister's ex, Tom, is a plumber",
        "Left the choir after 8 years, too much drama.",
        "She was previously at Andela before joining us",
        "I deleted Instagram for a week, felt great",
        "she's not at the Birmingham office anymore, she moved to london",
        "we stopped using Trello for 5 minutes during the outage, it was chaos",
        "back in 1998 I switched from Windows to Linux for like a week",
        "I left the office early today",
        "Should I switch from Android to an iPhone?",
        "I'm not on nights anymore",
        "my parents moved from Leeds to York",
    ],
)
def test_what_was_not_the_users_or_not_left_ends_nothing(message: str) -> None:
    assert [(i.slot, i.value) for i in read(message) if i.kind == "end"] == []


@pytest.mark.parametrize(
    "message",
    ["my sister moved from Bristol to Exeter", "the meeting moved from Monday to Friday"],
)
def test_someone_elses_move_ends_nothing_of_the_users(message: str) -> None:
    assert [i for i in read(message) if i.kind == "end"] == []


def test_leaving_one_town_for_another_moves_home() -> None:
    found = {(i.kind, i.slot, i.value) for i in read("We left Bristol for Cardiff in the spring.")}
    assert {("fact", "home", "Cardiff"), ("end", "home", "Bristol")} <= found
    assert ("fact", "employer", "Cardiff") not in found


@pytest.mark.parametrize(
    ("message", "age"),
    [
        ("I'm a roofer, 52, knees are shot honestly (arthritis).", "52"),
        ("me: turkish, 31, at bosch in stuttgart.", "31"),
        ("korean, 26, living in leiden for my masters.", "26"),
        ("Ayesha (34) — just relocated back to Karachi.", "34"),
        ("Retired teacher here, 61, name's Sunita.", "61"),
        ("my son, 14, wants a phone.", None),
        ("Meet Sarah, 29, nurse on nights.", None),
        ("I'm stuck on question 7, 20 and 33.", None),
        ("I'm at gate 12, 45 minutes late.", None),
    ],
)
def test_an_age_listed_in_an_introduction_is_read(message: str, age: str | None) -> None:
    """A number on its own in the list that introduces the user is their age; not in a list
    about someone else, nor among other numbers."""
    ages = [i.value for i in read(message) if i.kind == "fact" and i.slot == "age"]
    assert ages == ([age] if age else [])


@pytest.mark.parametrize(
    ("message", "duty"),
    [
        ("Oskar and I run the goods-in bay at the depot", "goods-in bay"),
        ("me and Hanne cover the front desk on weekdays", "front desk"),
        ("I'm a porter and I do the linen rounds every morning", "linen rounds"),
        ("i do all the purchase ledger for the group, ugh", "purchase ledger"),
        ("I'm a nurse and I run the discharge lounge on weekdays", "discharge lounge"),
        ("I'm the night manager at a Premier Inn. Cash-ups are on me.", "Cash-ups"),
        ("Dealing with complaints is on me, sadly", "Dealing with complaints"),
        ("We use Clio and I'm the one billing clients.", "billing clients"),
        ("I'm the one who does the rota", "rota"),
        ("My boss asked me to own the customer onboarding calls from now on.", "onboarding calls"),
        ("My team lead gave me the monthly KPI deck to own.", "monthly KPI deck"),
        ("I coordinate the second-year placement module.", "placement module"),
    ],
)
def test_a_duty_is_what_the_user_runs_or_does_at_work(message: str, duty: str) -> None:
    """The duty alone, read once ("the discharge lounge", not again as "the discharge lounge on
    weekdays" from the clause), whoever shares it with the user."""
    duties = [i.value for i in read(message, PATTERNS) if i.slot == "responsibility"]
    assert len(duties) == 1 and duty in (duties[0] or "")
    assert "on weekdays" not in (duties[0] or "") and "every" not in (duties[0] or "")


@pytest.mark.parametrize(
    "message",
    [
        "I do the dishes after dinner, my wife cooks",
        "I do the Times cryptic every morning on the bus",
        "i do the 10k parkrun most saturdays",
        "my boyfriend and i split the chores",
        "if Sam and I run the stall on Saturday, who pays the pitch fee?",
        "Should I do the course in March?",
        "I do the same as you",
        "Drinks are on me tonight!",
        "The bill is on me",
        "the mistake is on me, sorry",
        "I'm the one who forgot her birthday",
        "Is it on me to fix this?",
        "My manager asked me to run the open day next week",
    ],
)
def test_a_pastime_a_chore_or_a_question_is_no_duty(message: str) -> None:
    assert "responsibility" not in [i.slot for i in read(message, PATTERNS)]


@pytest.mark.parametrize(
    ("message", "manager"),
    [
        ("My manager Anika Rao asked me to own the access review from now on.", "Anika Rao"),
        ("my boss Martina Kovač wants the report by friday", "Martina Kovač"),
        ("My supervisor, Prof. Okafor, wants a draft.", "Prof. Okafor"),
    ],
)
def test_a_manager_named_beside_the_word_is_read_whole(message: str, manager: str) -> None:
    assert ("manager", manager) in [(i.slot, i.value) for i in read(message, PATTERNS)]


@pytest.mark.parametrize(
    "message",
    ["My manager Olu left the company last week", "my boss Ines retired in March"],
)
def test_a_manager_who_left_or_is_leaving_is_not_read_as_one_now(message: str) -> None:
    assert "manager" not in [i.slot for i in read(message, PATTERNS)]


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        (
            "I'm a 58 year old man with rheumatoid arthritis, any gentle hobbies?",
            "health",
            "rheumatoid arthritis",
        ),
        ("Rosacea on my cheeks every summer, what sunscreen?", "health", "Rosacea"),
        ("im lactose intolerant, any creamy soups?", "health", "lactose intolerant"),
        ("I've been gluten free for years bc of coeliac, bread recs?", "health", "coeliac"),
        ("I'm on a low sodium diet these days, snack ideas?", "diet", "low sodium diet"),
        ("Went vegetarian in May, how do I get enough iron?", "diet", "vegetarian"),
    ],
)
def test_a_condition_or_a_diet_said_in_passing_is_read(message: str, slot: str, value: str) -> None:
    assert value in [i.value for i in read(message, DEFAULT) if i.slot == slot]


@pytest.mark.parametrize(
    "message",
    [
        "I'm a nurse for patients with diabetes on the renal ward",
        "my friend with epilepsy is visiting, anything I should know?",
        "I'm worried I might have coeliac, what are the signs?",
        "My son is gluten free because of coeliac disease",
    ],
)
def test_someone_elses_condition_a_worry_or_a_diet_unnamed_is_none(message: str) -> None:
    assert not {i.slot for i in read(message, DEFAULT)} & {"health", "diet"}


@pytest.mark.parametrize(
    ("message", "nationality"),
    [
        ("name's Joakim, 31, norwegian, i fix boats in Bergen", "norwegian"),
        ("I'm a Ghanaian midwife in Kumasi, night shifts mostly", "Ghanaian"),
        ("Tunde here, Nigerian, living in Leeds now", "Nigerian"),
        ("I'm Algerian, 29, and a chef", "Algerian"),
    ],
)
def test_a_nationality_said_as_an_item_of_an_introduction_is_read(
    message: str, nationality: str
) -> None:
    found = read(message, DEFAULT)
    assert nationality in [i.value for i in found if i.slot == "nationality"]
    assert nationality not in [i.value for i in found if i.slot == "name"]


@pytest.mark.parametrize(
    "message",
    ["kiwi, mango and banana in a smoothie?", "my wife is Polish, 30, and loves Leeds"],
)
def test_a_fruit_or_someone_elses_nationality_is_none_and_no_name(message: str) -> None:
    found = read(message, DEFAULT)
    assert "nationality" not in [i.slot for i in found]
    assert "Polish" not in [i.value for i in found]


def test_the_name_a_message_opens_with_here_is_the_users_but_a_day_or_a_job_is_not() -> None:
    assert ("name", "Tunde") in [(i.slot, i.value) for i in read("Tunde here, quick one", DEFAULT)]
    for message in ("Sunday here, so quiet", "Nurse here, nights on the ward"):
        assert "name" not in [i.slot for i in read(message, DEFAULT)]


def test_what_the_review_of_session_14_found() -> None:
    """A charity's cause is no condition of the user's, a language before "here is" no
    nationality, a kind of work no product; an age said as "a 40 year old" is read beside the
    condition the sentence goes on to."""
    assert "health" not in [
        i.slot for i in read("I volunteer for a charity for cystic fibrosis", DEFAULT)
    ]
    found = read("English here is not great sorry, I'm polish", DEFAULT)
    assert [i.value for i in found if i.slot == "nationality"] == ["polish"]
    assert "backend" not in [
        i.value for i in read("i code in python and rust, mostly backend", DEFAULT)
    ]
    found = read("I'm a 40 year old man with gout, any tips for long walks?", DEFAULT)
    assert ("age", "40") in [(i.slot, i.value) for i in found]
    assert ("health", "gout") in [(i.slot, i.value) for i in found]
