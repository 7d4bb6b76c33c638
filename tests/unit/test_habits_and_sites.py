"""Habits said by how often (`app.facts.habits`), an employer named with its site
(`app.facts.workplaces`) and a rule asked for because of something lasting
(`app.facts.utterances.asked_because`), through the extractor a user gets with meaning on."""

from __future__ import annotations

from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts.durable import DurableReader
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Turn
from app.facts.habits import habits_in
from app.facts.named import NameReader
from app.facts.patterns import extract_sentence
from app.facts.tagger import SlotTagger
from app.facts.workplaces import Site, site_of

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)
EXTRACTOR = EmbeddedExtractor(
    DurableReader.for_embedder(EMBEDDER),
    NameReader.for_embedder(EMBEDDER),
    SlotTagger.for_embedder(EMBEDDER),
)


def facts(message: str, slot: str) -> list[str]:
    return [
        item.value or ""
        for item in EXTRACTOR.extract([Turn(message, date(2026, 4, 1))])
        if item.kind == "fact" and item.slot == slot
    ]


@pytest.mark.parametrize(
    ("clause", "habit"),
    [
        ("I cycle to work every day", "cycle to work every day"),
        ("me and my dog Rufus walk 5 miles every morning", "walk 5 miles every morning"),
        ("walk about 20k steps a day", "walk about 20k steps a day"),
        ("still swimming in the sea most days", "swimming in the sea most days"),
        ("I've been doing yoga every morning", "doing yoga every morning"),
        ("Tessa and I run the stall on weekends", "run the stall on weekends"),
        ("me and Luca close the bar together most nights", "close the bar together most nights"),
        ("I work weekends at a pharmacy", "work weekends at a pharmacy"),
        ("I write poetry every night after my shift", "write poetry every night"),
        ("i stream on twitch 3 nights a week", "stream on twitch 3 nights a week"),
        ("I teach piano on tuesdays and thursdays", "teach piano on tuesdays and thursdays"),
        ("I have 3 espressos a day", "have 3 espressos a day"),
    ],
)
def test_a_habit_is_read_from_the_verb_to_how_often(clause: str, habit: str) -> None:
    assert [h.value for h in habits_in(clause)] == [habit]


@pytest.mark.parametrize(
    "clause",
    [
        "I want to run every day",
        "my son swims every Wednesday",
        "I walked every day last summer",
        "I used to swim twice a week",
        "I don't run every morning anymore",
        "can i eat ugali every day",
        "Airflow, dbt and Snowflake all day",
        "i run the weekly newsletter at work",
        "I'm on duolingo every day",
        "I love swimming every morning",
        "I'll start going to the gym three times a week",
        "I have migraines most days",
        "we have a weekly meeting on mondays that always overruns",
    ],
)
def test_no_habit_from_a_want_someone_else_the_past_or_a_question(clause: str) -> None:
    assert habits_in(clause) == []


def test_a_habit_said_beside_other_facts_is_kept_too() -> None:
    message = "I'm vegan, live in Ghent and cycle to work every day, rain or shine."
    assert any("cycle to work every day" in value for value in facts(message, "habit"))
    assert facts(message, "diet") == ["vegan"]


def test_a_duty_said_with_how_often_is_no_habit_of_its_own() -> None:
    message = "I'm a team leader at the Co-op and I do the cash office every morning."
    assert facts(message, "habit") == []


@pytest.mark.parametrize(
    ("employer", "site"),
    [
        ("KPMG Lagos", Site("KPMG", "Lagos")),
        ("Arup's Leeds office", Site("Arup", "Leeds")),
        ("Santander's Milton Keynes", Site("Santander", "Milton Keynes")),
        ("Bank of Ireland", None),
        ("University of Leeds", None),
        ("Leeds Beckett", None),
        ("Hospital Santa Maria", None),
        ("Grant Thornton", None),
        ("Lockheed Martin", None),
        ("Sidley Austin", None),
        ("Banco Santander", None),
        ("Deloitte's Dublin office", Site("Deloitte", "Dublin")),
        ("Amazon UK", None),
        ("Tesco", None),
    ],
)
def test_an_employer_named_with_its_site(employer: str, site: Site | None) -> None:
    assert site_of(employer) == site


def test_the_site_of_an_employer_is_the_office() -> None:
    message = "I'm Amaka, I work in the audit team at KPMG Lagos and I'm drowning in Excel."
    assert facts(message, "employer") == ["KPMG"]
    assert facts(message, "office") == ["Lagos"]


def test_an_organisation_said_of_its_site_is_no_town() -> None:
    message = "My desk is at the Aviva building in Norwich, how do I book a parking space?"
    assert facts(message, "office") == ["Norwich"]
    assert facts(message, "employer") == ["Aviva"]


def test_a_saints_hospital_is_nobodys_name() -> None:
    message = "hey, physio here, on the stroke ward at St Bartholomew's hospital. sit to stand?"
    assert facts(message, "name") == []
    assert facts(message, "role") == ["physio"]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("I'm deaf, so please don't suggest podcasts.", "Please don't suggest podcasts"),
        ("I'm dyslexic so please keep sentences short and simple", "keep sentences short"),
        ("I'm a GP, so use proper medical terms with me.", "Use proper medical terms with me"),
        ("I have ADHD, so break things into small steps", "Break things into small steps"),
    ],
)
def test_a_rule_asked_because_of_something_lasting_stands(message: str, rule: str) -> None:
    assert any(rule.casefold() in value.casefold() for value in facts(message, "instruction"))


@pytest.mark.parametrize(
    "message",
    [
        "I'm vegan so please give me a recipe for lasagne.",
        "I'm tired so keep this one short.",
        "I've been lactose intolerant since I was a teenager, so no dairy for me.",
        "I'm a nurse and I'm about to start a night shift so answer fast",
        "I live in Leeds and it's my first time driving in snow, so please be specific",
    ],
)
def test_a_request_for_once_after_a_reason_is_no_rule(message: str) -> None:
    assert facts(message, "instruction") == []


@pytest.mark.parametrize(
    "message",
    ["my job is killing me, I need a holiday", "my job is to be honest pretty stressful"],
)
def test_what_my_job_is_like_is_no_duty(message: str) -> None:
    assert facts(message, "responsibility") == []


def test_my_job_is_a_duty() -> None:
    assert facts("I work at Amazon in Poznań, my job is packing orders.", "responsibility") == [
        "packing orders"
    ]


def test_an_employer_that_is_a_town_is_where_the_user_works() -> None:
    message = "I'm a medical student at Cardiff and the exams are in the afternoons."
    assert facts(message, "office") == ["Cardiff"]
    assert facts(message, "employer") == []


@pytest.mark.parametrize(
    ("message", "town"),
    [
        ("I drive for Uber round Manchester, mostly airport runs through the night.", "Manchester"),
        ("I do domiciliary care round Bolton, about 8 visits a shift.", "Bolton"),
    ],
)
def test_where_a_round_goes_is_where_the_user_works(message: str, town: str) -> None:
    assert facts(message, "office") == [town]


@pytest.mark.parametrize(
    "sentence",
    [
        "I'm cycling round Amsterdam on holiday next week, any tips?",
        "I was working round Bristol yesterday and got a puncture",
        "I'm working round Leeds next week for a conference",
    ],
)
def test_no_pattern_reads_a_round_that_is_no_work_as_an_office(sentence: str) -> None:
    found = extract_sentence(sentence, date(2026, 4, 1))
    assert [item.value for item in found if item.slot == "office"] == []


def test_what_is_said_before_a_question_after_a_colon_is_read() -> None:
    message = (
        "Right, so as a paramedic I get asked this a lot: is there a simple way to explain "
        "atrial fibrillation to a scared patient?"
    )
    assert facts(message, "role") == ["paramedic"]


@pytest.mark.parametrize(
    ("message", "name", "called"),
    [
        (
            "Hiya, it's Elizabeth but everyone calls me Libby and I'd rather you did too.",
            "Elizabeth",
            "Libby",
        ),
        ("My name's Daniel but everyone calls me Dan, pls do too", "Daniel", "Dan"),
        ("Name's Siddharth, though everyone calls me Sid.", "Siddharth", "Sid"),
    ],
)
def test_the_name_everyone_calls_the_user_is_the_one_they_go_by(
    message: str, name: str, called: str
) -> None:
    assert facts(message, "name") == [name]
    assert facts(message, "preferred_name") == [called]


@pytest.mark.parametrize(
    ("message", "age"),
    [
        (
            "Hi, I'm Mehmet, 44, type 2 diabetic — is a chicken kebab with rice a terrible lunch?",
            "44",
        ),
        (
            "im Dev, 17, from Birmingham, doing my A-levels, can u explain integration by parts",
            "17",
        ),
    ],
)
def test_an_introduction_a_question_opens_with_is_read(message: str, age: str) -> None:
    assert facts(message, "age") == [age]


@pytest.mark.parametrize(
    ("message", "age"),
    [
        ("20, nursing student, and my whole life is on an ipad", ["20"]),
        ("27 and finally starting to invest, where do i start", ["27"]),
        ("15, 16 and 17 are my kids' ages", []),
        ("30, 40 or 50 quid for a haircut?", []),
    ],
)
def test_an_age_may_open_the_message(message: str, age: list[str]) -> None:
    assert facts(message, "age") == age


def test_no_age_of_someone_else_from_a_question() -> None:
    assert facts("Meet Sarah, 29, is she too young to be a manager?", "age") == []


@pytest.mark.parametrize(
    ("message", "slot", "value"),
    [
        ("Ayşe here, Turkish, living in Leiden, PhD student.", "nationality", "Turkish"),
        ("hi, Lars (he/him), Danish, 30, backend dev", "nationality", "Danish"),
        ("hi, Lars (he/him), Danish, 30, backend dev", "age", "30"),
        ("This is Ana — Romanian, a pharmacist, and allergic to penicillin.", "name", "Ana"),
        (
            "This is Ana — Romanian, a pharmacist, and allergic to penicillin.",
            "nationality",
            "Romanian",
        ),
        ("It's Eitan. I'm dyslexic, so please use short paragraphs.", "name", "Eitan"),
    ],
)
def test_the_items_of_an_introduction(message: str, slot: str, value: str) -> None:
    assert value in facts(message, slot)


@pytest.mark.parametrize("message", ["It's Monday, ugh.", "It's Christmas!", "This is Mrs. Okafor"])
def test_no_name_from_a_day_a_holiday_or_a_title(message: str) -> None:
    assert facts(message, "name") == []


@pytest.mark.parametrize(
    ("message", "diet"),
    [
        ("I'm 34, vegetarian, and I've just started lifting.", "vegetarian"),
        ("I'm Jordanian, a lab technician at Nabil Labs in Irbid, and vegetarian.", "vegetarian"),
        ("I was diagnosed with type 2 in July so I've gone low-carb.", "low-carb"),
        ("we've gone dairy-free as a household since my partner's diagnosis.", "dairy-free"),
        ("teetotal, so skip the wine pairings — what goes with a lamb tagine?", "teetotal"),
    ],
)
def test_a_diet_said_as_an_item_of_an_introduction_or_gone(message: str, diet: str) -> None:
    assert facts(message, "diet") == [diet]


def test_no_diet_of_someone_else_in_an_introduction() -> None:
    assert facts("my son, 14, vegetarian, won't eat anything green", "diet") == []


@pytest.mark.parametrize(
    ("message", "allergies"),
    [
        (
            "I have a peanut and sesame allergy and the school is doing a food day",
            ["peanut", "sesame"],
        ),
        (
            "allergic to penicillin and shellfish — what should I tell the clinic?",
            ["penicillin", "shellfish"],
        ),
        ("I'm coeliac and also allergic to sesame, which rules out most takeaways.", ["sesame"]),
        ("Peanut allergy, severe. Are these cookies safe?", ["Peanut"]),
        ("my son is allergic to eggs", []),
    ],
)
def test_allergies_listed_or_said_in_passing(message: str, allergies: list[str]) -> None:
    assert facts(message, "allergy") == allergies


@pytest.mark.parametrize(
    ("message", "called"),
    [
        ("pls always call me Kat, not Katarzyna", ["Kat"]),
        ("i'm Oluwaseun, call me Seun tho. 33, nigerian", ["Seun"]),
        ("I'd like you to call me Ren, not Renata.", ["Ren"]),
        ("sam here. can you call me Sammy tho, everyone at work does", ["Sammy"]),
        ("can you call me tomorrow?", []),
        ("could you call me back?", []),
    ],
)
def test_the_name_asked_to_be_called_by(message: str, called: list[str]) -> None:
    assert facts(message, "preferred_name") == called


@pytest.mark.parametrize(
    ("message", "slot"),
    [
        ("60 and still no reply from the landlord after 3 weeks. what do i do", "age"),
        ("90, she's 90 this year, my nan. what should i get her", "age"),
        ("I'm buying a gift for Tom, 30, what should I get?", "age"),
        ("This is Spotify — how do I cancel my premium?", "name"),
        ("It's Ikea, they never have anything in stock.", "name"),
        ("This is Jake, my flatmate, he wants to ask you about his CV", "name"),
        ("Mexican in London is the best restaurant name ever, right?", "nationality"),
        ("Chinese in Leeds — where's good for dim sum?", "nationality"),
        ("my friends call me Mum because I'm always the organised one lol", "preferred_name"),
        ("my friends call me Monday morning if they need a lift", "preferred_name"),
        ("can u call me Uber, im stuck outside", "preferred_name"),
        ("keto, is it actually good for weight loss?", "diet"),
        ("vegan, vegetarian or pescatarian — which is best for the planet?", "diet"),
        ("we went paleo for a week once and hated it", "diet"),
        ("Cat allergy, a friend has one — can I still visit?", "allergy"),
        ("my son has asthma and a peanut allergy", "allergy"),
        ("my wife is coeliac and also allergic to sesame", "allergy"),
    ],
)
def test_no_fact_of_the_user_from_a_topic_a_count_or_someone_else(message: str, slot: str) -> None:
    assert facts(message, slot) == []
