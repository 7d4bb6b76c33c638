"""The slot tagger (`app.facts.tagger`): the values a message states, word by word, and what the
extractor a user gets with meaning on keeps of them (`EmbeddedExtractor._read_the_tagged`)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import date

import pytest

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.facts import embedded
from app.facts.durable import DurableReader, said_of_the_past
from app.facts.embedded import EmbeddedExtractor, _adds_a_name, _said_when_or_of_whom
from app.facts.extraction import Turn
from app.facts.named import NameReader
from app.facts.sequence import FLAGS, LONGEST, SEQUENCE_CONFIDENCE, SequenceReader
from app.facts.tagger import (
    TAGGED_CONFIDENCE,
    TAGGER_FILE,
    SlotTagger,
    Tagged,
    tokens_of,
    value_tags,
    word_features,
)

EMBEDDER = StaticEmbedder(DEFAULT_MODEL)
TAGGER = SlotTagger.for_embedder(EMBEDDER)
READERS = (DurableReader.for_embedder(EMBEDDER), NameReader.for_embedder(EMBEDDER))
UNTAGGED = EmbeddedExtractor(*READERS)
TAGGED = EmbeddedExtractor(*READERS, TAGGER)


def facts(message: str, extractor: EmbeddedExtractor = TAGGED) -> set[tuple[str, str]]:
    return {
        (item.slot or "", item.value or "")
        for item in extractor.extract([Turn(message, date(2026, 5, 4))])
        if item.kind == "fact"
    }


def test_words_keep_their_inner_marks_and_punctuation_stands_alone() -> None:
    text = "I don't use node.js at St. Mary's, e-bike only!"
    assert [t.text for t in tokens_of(text)] == [
        "I",
        "don't",
        "use",
        "node.js",
        "at",
        "St",
        ".",
        "Mary's",
        ",",
        "e-bike",
        "only",
        "!",
    ]
    assert all(text[t.start : t.end] == t.text for t in tokens_of(text))


def test_a_labelled_value_tags_its_words_once_and_a_value_not_said_tags_none() -> None:
    text = "I don't eat meat, I run payroll and I run the payroll audit"
    tokens = tokens_of(text)
    tags = value_tags(
        text,
        tokens,
        [("diet", "dont eat meat"), ("responsibility", "payroll"), ("pet", "Biscuit")],
    )
    tagged = [(t.text, tag) for t, tag in zip(tokens, tags, strict=True) if tag != "O"]
    assert tagged == [
        ("don't", "B-diet"),  # the label's "dont" is the text's "don't" once spelling is read back
        ("eat", "I-diet"),
        ("meat", "I-diet"),
        ("payroll", "B-responsibility"),  # its first place only
    ]


@pytest.mark.parametrize(
    ("message", "added"),
    [
        (
            "I'm a dental nurse in Swansea and I do all the sterilising and the stock orders.",
            ("responsibility", "stock orders"),
        ),
        (
            "I teach year 4 at a primary school in Bolton and run the chess club on Thursdays.",
            ("responsibility", "chess club"),
        ),
        (
            "I'm a mechanic at a Kwik Fit in Derby, mostly tyres and brakes.",
            ("responsibility", "tyres and brakes"),
        ),
        (
            "I'm a paralegal and my husband Dev is a chef, we live in Bristol with our dog Pepper.",
            ("home", "Bristol"),
        ),
        ("I have celiac disease, so no gluten for me.", ("diet", "no gluten")),
    ],
)
def test_a_second_value_said_inside_another_facts_clause_is_kept(
    message: str, added: tuple[str, str]
) -> None:
    assert added not in facts(message, UNTAGGED)  # the readers give the clause one slot
    assert facts(message, UNTAGGED) < facts(message)
    assert added in facts(message)


def test_each_value_of_a_list_is_a_fact_of_its_own() -> None:
    message = "we run payroll and pensions on Sage, I'm the finance lead at a small charity in Hull"
    found = facts(message)
    assert {("responsibility", "payroll"), ("responsibility", "pensions")} <= found
    assert {("uses", "Sage"), ("role", "finance lead"), ("office", "Hull")} <= found


@pytest.mark.parametrize(
    "message",
    [
        "Should I move to Leeds or stay in Sheffield?",
        "My sister is a vet in Glasgow and she loves her job.",
        "Should I switch from Excel to Google Sheets for the club accounts?",
        "what's a good gift for a nurse who works nights?",
        "Chinese in Leeds — where's good for dim sum?",
    ],
)
def test_the_tagger_never_decides_alone_that_a_message_states_something(message: str) -> None:
    assert facts(message) == facts(message, UNTAGGED)
    assert not any(slot == "nationality" for slot, _ in facts(message))


def test_a_name_inside_a_phrase_read_for_another_slot_is_still_free() -> None:
    message = "I look after the apprentices at Hollins Roofing, ideas for a first-week plan?"
    assert ("responsibility", "apprentices at Hollins Roofing") in facts(message, UNTAGGED)
    assert ("employer", "Hollins Roofing") in facts(message)


def test_a_value_the_tagger_is_sure_of_takes_its_slot_from_another_readers() -> None:
    message = (
        "I stack shelves at the Asda superstore in Leeds, early starts. How do I ask for a raise?"
    )
    assert ("origin", "Asda") in facts(message, UNTAGGED)
    found = facts(message)
    assert ("employer", "Asda") in found
    assert ("origin", "Asda") not in found


def test_a_value_misread_as_the_users_name_takes_the_slot_the_tagger_is_sure_of() -> None:
    message = "Nadia, architect — I draw in Procreate and model in Revit"
    assert ("name", "Procreate") in facts(message, UNTAGGED)
    found = facts(message)
    assert ("uses", "Procreate") in found
    assert ("name", "Procreate") not in found


@pytest.mark.parametrize(
    ("message", "read", "said"),
    [
        (
            "i'm on a thinkpad t14 for work, how do i stop the fan spinning up?",
            ("uses", "thinkpad"),
            ("uses", "thinkpad t14"),
        ),
        (
            "Trainee accountant at Grant Thornton, mostly audit. What's a good way to learn IFRS?",
            ("role", "Trainee"),
            ("role", "Trainee accountant"),
        ),
    ],
)
def test_a_value_the_rest_cut_short_is_the_whole_of_what_the_tagger_tagged(
    message: str, read: tuple[str, str], said: tuple[str, str]
) -> None:
    assert read in facts(message, UNTAGGED)
    found = facts(message)
    assert said in found
    assert read not in found


def test_a_name_in_the_slot_of_another_value_moves_to_the_slot_the_tagger_is_sure_of() -> None:
    message = "I'm in procurement at Halvex, I sort all the software renewals. Any template?"
    assert ("team", "Halvex") in facts(message, UNTAGGED)
    found = facts(message)
    assert {("employer", "Halvex"), ("team", "procurement")} <= found
    assert ("team", "Halvex") not in found


def test_a_value_none_of_the_rest_agrees_with_is_kept_only_when_the_tagger_is_surer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    message = "Is it ok to add my manager Rosalie on Instagram? she followed my dog's account first"
    assert ("manager", "Rosalie") not in facts(message, UNTAGGED)
    assert ("manager", "Rosalie") in facts(message)
    monkeypatch.setattr(embedded, "UNAGREED_CONFIDENCE", 1.01)
    assert ("manager", "Rosalie") not in facts(message)


def test_a_day_or_a_month_is_no_value_and_a_nationality_no_ones_name() -> None:
    def tagged(slot: str, value: str) -> Tagged:
        return Tagged(slot, 0, len(value), value, 0.9)

    assert _said_when_or_of_whom(tagged("office", "October"))  # "my notice ... in October"
    assert _said_when_or_of_whom(tagged("employer", "Sundays"))
    assert _said_when_or_of_whom(tagged("partner", "Canadian"))
    assert not _said_when_or_of_whom(tagged("office", "Leeds"))
    assert not _said_when_or_of_whom(tagged("nationality", "Canadian"))
    assert not _said_when_or_of_whom(tagged("habit", "yoga on Sundays"))


def test_a_filler_the_tagger_took_in_does_not_lengthen_a_value() -> None:
    assert _adds_a_name("macbook pro", "macbook")
    assert _adds_a_name("slaughter and may", "slaughter")
    assert not _adds_a_name("head chef there", "head chef")
    assert not _adds_a_name("like electrician", "electrician")
    assert not _adds_a_name("thinkpad running", "thinkpad")
    assert not _adds_a_name("one two three four five", "one")


def test_a_value_the_readers_gave_a_slot_is_not_read_again_for_another() -> None:
    message = "I'm Hoang, originally from Da Nang, now studying in Melbourne."
    found = facts(message)
    assert ("home", "Melbourne") in found
    assert [value for _, value in found].count("Melbourne") == 1


@pytest.mark.parametrize(
    ("message", "not_the_users"),
    [
        (
            "My dog is called Biscuit. My neighbour's cat is called Pepper and it keeps coming "
            "over.",
            "Pepper",
        ),
        ("i'm a nurse in Dubai, from the Philippines, my husband is still in Cebu", "Cebu"),
        ("I work for Vodafone in Cairo. My manager is Egyptian but grew up in Kuwait.", "Kuwait"),
        ("I'm a coder, I mostly write Rust. My team lead prefers C++.", "lead prefers C"),
    ],
)
def test_a_value_said_of_someone_else_is_not_the_users(message: str, not_the_users: str) -> None:
    """What a review of session 17 found: the tagger's values pass the name reader's test of
    whose a name is (`app.facts.whose.tells_of_the_user`)."""
    assert not_the_users not in {value for _, value in facts(message)}


def test_a_value_is_a_whole_word_or_name() -> None:
    found = facts("I'm an actor in London. I was in a play at the Old Vic last year.")
    assert ("office", "London") in found
    assert not any("Vic" in value for _, value in found)


def test_a_request_is_never_made_a_standing_rule_by_the_tagger() -> None:
    message = "I live in Leeds and it's my first time driving in snow, so please be specific"
    assert "instruction" not in {slot for slot, _ in facts(message)}


def test_a_day_is_no_ones_name() -> None:
    assert "name" not in {slot for slot, _ in facts("Sunday here, so quiet")}


def test_threads_tag_alike() -> None:
    """CRFsuite's tagger holds the sequence it tags: each thread has its own."""
    assert TAGGER is not None
    messages = [
        "I'm a mechanic at a Kwik Fit in Derby, mostly tyres and brakes.",
        "we run payroll and pensions on Sage, I'm the finance lead at a small charity in Hull",
        "I have celiac disease, so no gluten for me.",
    ] * 40
    alone = [TAGGER.tag(message) for message in messages]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(TAGGER.tag, messages))
    assert together == alone
    assert all(found for found in alone)


def test_the_tagger_is_only_used_with_the_model_its_clusters_are_of() -> None:
    assert TAGGER is not None and TAGGER_FILE.is_file()
    assert SlotTagger.for_embedder(None) is None

    class Other:
        name = "static:other-model"

    assert SlotTagger.for_embedder(Other()) is None  # type: ignore[arg-type]
    assert SequenceReader.for_embedder(Other()) is None  # type: ignore[arg-type]


def test_a_place_of_a_year_long_past_is_no_home_or_workplace_now() -> None:
    assert said_of_the_past("home", "Back in 2012 I spent a year teaching English in ")
    assert said_of_the_past("office", "back in 1998 I worked at a bank in ")
    assert not said_of_the_past("home", "Back in 2012 I moved here and I still live in ")
    assert not said_of_the_past("home", "I've lived in ")


FIELD_ALONE = SlotTagger.for_embedder(EMBEDDER, sequence=None)
SEQUENCE_MESSAGES = [
    "I'm a mechanic at a Kwik Fit in Derby, mostly tyres and brakes.",
    "I'm a claims handler at Aviva and half my day is calls on Genesys",
    "we run payroll and pensions on Sage, I'm the finance lead at a small charity in Hull",
    "I teach year 4 at a primary in Salford and do the breakfast club on Mondays",
    "Nurse on a stroke ward at St. James's, nights mostly, and I look after the rota too",
    "I'm a sous chef at a tapas place in Bristol, I do the ordering and the prep lists",
    "Been at Ocado two years now, I pick orders in the chilled section",
    "I handle onboarding for new starters and run the monthly payroll at a housing association",
]


def test_the_sequence_reader_adds_only_sure_values_where_the_field_tagged_nothing_sure() -> None:
    assert TAGGER is not None and TAGGER.sequence is not None and FIELD_ALONE is not None
    added = []
    for message in SEQUENCE_MESSAGES:
        both, field = TAGGER.tag(message), FIELD_ALONE.tag(message)
        assert set(field) <= set(both)
        for value in set(both) - set(field):
            assert value.confidence >= SEQUENCE_CONFIDENCE
            assert not any(
                other.start < value.end
                and value.start < other.end
                and other.confidence >= TAGGED_CONFIDENCE
                for other in field
            )
            added.append(value)
    assert added  # the network reads something the field does not


def test_a_word_the_field_is_unsure_of_is_left_to_the_sequence_reader_when_it_is_sure() -> None:
    """The field's value below `TAGGED_CONFIDENCE` is never kept, so it does not stop the
    network's value over the same words (folds over 56 sets: 53 more facts right of 59)."""
    assert TAGGER is not None and FIELD_ALONE is not None
    message = "im a java dev at Allegro in Poznań, my teammates Kuba and Ola do the frontend"
    [unsure] = [value for value in FIELD_ALONE.tag(message) if value.value == "java dev"]
    assert unsure.slot == "uses" and unsure.confidence < TAGGED_CONFIDENCE
    [sure] = [value for value in TAGGER.tag(message) if value.slot == "role"]
    assert sure.value == "java dev" and sure.confidence >= SEQUENCE_CONFIDENCE


def test_a_value_only_the_sequence_reader_tags_becomes_a_fact() -> None:
    message = "I'm a sous chef at a tapas place in Bristol, I do the ordering and the prep lists"
    field_alone = EmbeddedExtractor(*READERS, FIELD_ALONE)
    assert ("responsibility", "prep lists") not in facts(message, field_alone)
    assert ("responsibility", "prep lists") in facts(message)


def test_the_flags_the_network_reads_are_ones_the_field_gives() -> None:
    """The network reads the field's flags by name: a flag renamed in `word_features` would
    leave its input silently empty."""
    assert TAGGER is not None
    text = (
        "I'm a nurse and my sister lives in Leeds with Qwzx Brant. Are you British? "
        "we use jira and confluence."
    )
    given = word_features(EMBEDDER, TAGGER.centroids, text, tokens_of(text))
    assert set(FLAGS) <= {feature for row in given for feature in row}


def test_a_message_longer_than_the_network_reads_is_left_to_the_field() -> None:
    assert TAGGER is not None and FIELD_ALONE is not None
    message = "I'm a sous chef at a tapas place in Bristol, I do the ordering and the prep lists"
    assert TAGGER.tag(message) != FIELD_ALONE.tag(message)
    padded = "Anyway, it was a long week. " * 30 + message  # read whole, it adds "prep lists"
    assert len(tokens_of(padded)) > LONGEST
    assert TAGGER.tag(padded) == FIELD_ALONE.tag(padded)
