"""The embedded extractor, dates and reconciliation under a frozen clock (every day is given,
never read from the machine), and the LLM extractor against an injected transport."""

from __future__ import annotations

import json
from datetime import date

import httpx
import pytest
from prometheus_client import REGISTRY

from app.chat.upstream import ChatClient
from app.documents.parsing import chunk_text, media_type_of, slugify
from app.errors import UpstreamFailed
from app.facts.dates import find_days
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Extracted, Turn
from app.facts.graph import build_graph
from app.facts.llm_extractor import LlmExtractor, UnreadableAnswer
from app.facts.reconcile import Known, reconcile, same_value

MONDAY = date(2025, 9, 15)
extractor = EmbeddedExtractor()


def extract(text: str, said_on: date = MONDAY) -> list[Extracted]:
    return extractor.extract([Turn(text, said_on)])


# Spans


@pytest.mark.parametrize(
    ("phrase", "tense", "day"),
    [
        ("tomorrow", "neutral", date(2025, 9, 16)),
        ("yesterday", "neutral", date(2025, 9, 14)),
        ("next Monday", "future", date(2025, 9, 22)),
        ("last Sunday", "past", date(2025, 9, 14)),
        ("on Saturday", "past", date(2025, 9, 13)),
        ("on Saturday", "future", date(2025, 9, 20)),
        ("1 October", "future", date(2025, 10, 1)),
        ("1 August", "past", date(2025, 8, 1)),
        ("1 August", "future", date(2026, 8, 1)),
        ("October 3rd, 2024", "neutral", date(2024, 10, 3)),
        ("2026-01-31", "neutral", date(2026, 1, 31)),
        ("in 3 days", "neutral", date(2025, 9, 18)),
        ("two weeks ago", "past", date(2025, 9, 1)),
    ],
)
def test_a_phrase_that_names_a_day_resolves_against_the_message_day(
    phrase: str, tense: str, day: date
) -> None:
    found = find_days(f"It is {phrase}.", MONDAY, tense)  # type: ignore[arg-type]
    assert [p.day for p in found] == [day]


@pytest.mark.parametrize(
    "phrase",
    [
        "soon",
        "at some point",
        "next week",
        "last month",
        "in March",
        "over the weekend",
        "once the merger closes",
        "eventually",
    ],
)
def test_vague_times_give_no_day(phrase: str) -> None:
    assert [p.day for p in find_days(f"It happens {phrase}.", MONDAY)] == [None]


def test_until_gives_an_end_day_and_from_a_start_day() -> None:
    [end, email] = extract("I am resigning on 1 October, until then reach me at jelle@example.com.")
    assert (email.slot, email.value, email.valid_until) == (
        "email",
        "jelle@example.com",
        date(2025, 10, 1),
    )
    assert (end.kind, end.slot, end.on) == ("end", "employer", date(2025, 10, 1))
    [office] = extract("From 1 November I am in the Berlin office.")
    assert (office.slot, office.value, office.valid_from, office.valid_until) == (
        "office",
        "Berlin",
        date(2025, 11, 1),
        None,
    )


def test_vague_spans_are_left_alone() -> None:
    [manager] = extract("Once the merger closes I will report to Anna.")
    assert (manager.slot, manager.value, manager.valid_from, manager.valid_until) == (
        "manager",
        "Anna",
        None,
        None,
    )
    assert extract("I'll probably switch teams soon.") == []


def test_leaving_on_a_day_ends_the_job_that_day() -> None:
    [end] = extract("I left Northwind on 1 August.")
    assert (end.kind, end.slot, end.value, end.on) == (
        "end",
        "employer",
        "Northwind",
        date(2025, 8, 1),
    )


def test_events_carry_the_day_they_happened() -> None:
    [event] = extract("I went to the dentist yesterday.")
    assert event.kind == "event" and event.on == date(2025, 9, 14)
    assert event.text == "Went to the dentist on 14 September 2025"
    [vague] = extract("I spent 200 euros on groceries last week.")
    assert vague.kind == "event" and vague.on is None


def test_momentary_wants_questions_and_requests_are_not_kept() -> None:
    for text in (
        "Can you summarise this article for me?",
        "Open the quarterly report page.",
        "I need a quick recipe for dinner.",
        "Could you draft an email to my landlord Pieter?",
        "Book me a table for two at Luigi's tonight.",
        "I'd like to see flights to Oslo.",
    ):
        assert extract(text) == [], text


def test_standing_instructions_are_kept() -> None:
    [item] = extract("Please always answer in Dutch.")
    assert (item.slot, item.text) == ("instruction", "Always answer in Dutch")


# Reconciliation


def known(fact_id: int, slot: str, value: str, text: str, **more: object) -> Known:
    return Known(id=fact_id, kind="fact", slot=slot, value=value, text=text, **more)  # type: ignore[arg-type]


def fact(slot: str, value: str, text: str, **more: object) -> Extracted:
    return Extracted(kind="fact", text=text, said_on=MONDAY, slot=slot, value=value, **more)  # type: ignore[arg-type]


def test_a_contradicted_fact_retires_on_the_day_the_new_one_starts() -> None:
    plan = reconcile(
        [known(1, "employer", "Northwind", "Works at Northwind")],
        [fact("employer", "Contoso", "Works at Contoso")],
        today=MONDAY,
    )
    assert [(r.fact_id, r.day, r.by) for r in plan.retires] == [(1, MONDAY, 0)]
    assert [i.value for i in plan.inserts] == ["Contoso"]


def test_a_change_that_starts_later_lets_the_old_fact_hold_until_then() -> None:
    plan = reconcile(
        [known(1, "office", "Amsterdam", "Works in the Amsterdam office")],
        [fact("office", "Berlin", "Works in the Berlin office", valid_from=date(2025, 11, 1))],
        today=MONDAY,
    )
    assert plan.retires == [] and plan.ends == [(1, date(2025, 11, 1))]


def test_the_same_fact_in_other_words_updates_and_again_is_a_duplicate() -> None:
    plan = reconcile(
        [known(1, "employer", "Northwind", "Works at Northwind")],
        [fact("employer", "Northwind Traders", "Works at Northwind Traders")],
        today=MONDAY,
    )
    assert [(i, e.text) for i, e in plan.updates] == [(1, "Works at Northwind Traders")]
    assert plan.inserts == [] and plan.retires == []
    same = reconcile(
        [known(1, "employer", "Northwind", "Works at Northwind")],
        [fact("employer", "Northwind", "Works at Northwind")],
        today=MONDAY,
    )
    assert same.duplicates == 1 and not (same.inserts or same.updates or same.retires)


def test_several_values_of_a_multi_valued_slot_live_side_by_side() -> None:
    plan = reconcile(
        [known(1, "allergy", "peanuts", "Is allergic to peanuts")],
        [fact("allergy", "shellfish", "Is allergic to shellfish")],
        today=MONDAY,
    )
    assert plan.retires == [] and [i.value for i in plan.inserts] == ["shellfish"]


def test_liking_what_was_disliked_retires_the_dislike() -> None:
    plan = reconcile(
        [known(1, "dislikes", "cilantro", "Dislikes cilantro")],
        [fact("likes", "cilantro", "Likes cilantro")],
        today=MONDAY,
    )
    assert [r.fact_id for r in plan.retires] == [1]


def test_an_end_in_the_past_retires_and_one_to_come_sets_the_end_day() -> None:
    facts = [known(1, "employer", "Northwind", "Works at Northwind")]
    past = Extracted(
        kind="end",
        text="x",
        said_on=MONDAY,
        slot="employer",
        value="Northwind",
        on=date(2025, 8, 1),
    )
    assert [(r.fact_id, r.day) for r in reconcile(facts, [past], MONDAY).retires] == [
        (1, date(2025, 8, 1))
    ]
    later = Extracted(kind="end", text="x", said_on=MONDAY, slot="employer", on=date(2025, 10, 1))
    plan = reconcile(facts, [later], MONDAY)
    assert plan.retires == [] and plan.ends == [(1, date(2025, 10, 1))]
    other = Extracted(kind="end", text="x", said_on=MONDAY, slot="employer", value="Contoso")
    assert reconcile(facts, [other], MONDAY).retires == []


def test_events_never_retire_and_repeat_only_once_a_day() -> None:
    trip = Known(
        id=1,
        kind="event",
        slot=None,
        value="Lisbon",
        text="Flew to Lisbon",
        happened_on=date(2025, 3, 3),
    )
    again = Extracted(kind="event", text="Flew to Lisbon", said_on=MONDAY, on=date(2025, 3, 3))
    later = Extracted(kind="event", text="Flew to Lisbon", said_on=MONDAY, on=date(2025, 9, 1))
    plan = reconcile([trip], [again, later], MONDAY)
    assert plan.duplicates == 1 and len(plan.inserts) == 1 and plan.retires == []


def test_a_batch_that_says_two_things_of_one_slot_keeps_the_first_retired() -> None:
    plan = reconcile(
        [],
        [
            fact("home", "Rotterdam", "Lives in Rotterdam"),
            fact("home", "Utrecht", "Lives in Utrecht"),
        ],
        today=MONDAY,
    )
    assert [i.value for i in plan.inserts] == ["Rotterdam", "Utrecht"]
    assert [(r.fact_id, r.by) for r in plan.retires] == [(-1, 1)]


def test_end_to_end_from_messages_retirement_under_a_frozen_clock() -> None:
    first = extract("I work at Northwind.", said_on=date(2025, 7, 1))
    plan = reconcile([], first, today=date(2025, 7, 1))
    stored = [known(1, "employer", "Northwind", plan.inserts[0].text)]
    left = extract("I left Northwind on 1 August.", said_on=MONDAY)
    plan = reconcile(stored, left, today=MONDAY)
    assert [(r.fact_id, r.day) for r in plan.retires] == [(1, date(2025, 8, 1))]


@pytest.mark.parametrize(
    ("text", "value", "holds_now"),
    [
        ("I don't drink coffee anymore.", "coffee", "No longer drinks coffee"),
        ("I've quit smoking for good.", "smoking", "Quit smoking"),
        ("I have given up smoking.", "smoking", "Gave up smoking"),
        (
            "I stopped running marathons last year.",
            "running marathons",
            "Stopped running marathons",
        ),
        ("I don't watch TV anymore.", "TV", "No longer watches TV"),
    ],
)
def test_saying_something_no_longer_holds_ends_it_and_keeps_what_holds_now(
    text: str, value: str, holds_now: str
) -> None:
    end, now = extract(text)
    assert (end.kind, end.slot, end.value, end.on) == ("end", "habit", value, MONDAY)
    assert (now.kind, now.slot, now.value, now.text) == ("fact", "habit", value, holds_now)


@pytest.mark.parametrize(
    "text", ["I don't eat pork.", "I can't stand cilantro anymore.", "I don't know anymore."]
)
def test_a_lasting_negative_is_no_end(text: str) -> None:
    assert all(item.kind != "end" for item in extract(text))


def test_a_tool_given_up_ends_it_and_a_duty_handed_over_ends_only() -> None:
    end, now = extract("I no longer use Slack.")
    assert (end.slot, end.value, now.slot, now.text) == (
        "uses",
        "Slack",
        "habit",
        "No longer uses Slack",
    )
    (end,) = extract("I no longer run the intern program btw.")
    assert (end.kind, end.slot, end.value) == ("end", "responsibility", "intern program")


def test_a_habit_that_ends_retires_the_habits_tools_and_likes_that_name_it() -> None:
    stored = [
        known(1, "habit", "I drink coffee every morning", "I drink coffee every morning"),
        known(2, "likes", "coffee", "Likes coffee"),
        known(3, "likes", "tea", "Likes tea"),
        known(4, "uses", "Coffeescript", "Uses Coffeescript"),
        known(5, "employer", "Coffee Collective", "Works at Coffee Collective"),
    ]
    plan = reconcile(stored, extract("I don't drink coffee anymore."), today=MONDAY)
    assert sorted((r.fact_id, r.day) for r in plan.retires) == [(1, MONDAY), (2, MONDAY)]
    assert [(i.slot, i.text) for i in plan.inserts] == [("habit", "No longer drinks coffee")]


def test_giving_up_again_what_was_given_up_retires_nothing() -> None:
    stored = [known(1, "habit", "coffee", "No longer drinks coffee")]
    plan = reconcile(stored, extract("I don't drink coffee anymore."), today=MONDAY)
    assert plan.retires == [] and plan.inserts == [] and plan.duplicates == 1


@pytest.mark.parametrize(
    ("slot", "value", "text", "retired"),
    [
        ("habit", "I drink coffee every morning again", "I drink coffee every morning again", True),
        ("likes", "coffee", "Likes coffee", True),
        ("dislikes", "coffee", "Dislikes coffee", False),
        ("habit", "tea", "Drinks tea", False),
    ],
)
def test_taking_up_again_what_was_given_up_retires_the_giving_up(
    slot: str, value: str, text: str, retired: bool
) -> None:
    stored = [known(1, "habit", "coffee", "No longer drinks coffee")]
    plan = reconcile(stored, [fact(slot, value, text)], today=MONDAY)
    assert [r.fact_id for r in plan.retires] == ([1] if retired else [])


def test_same_value_reads_whole_words() -> None:
    assert same_value("Northwind", "northwind traders")
    assert not same_value("Ann", "Anna")


# The LLM extractor


def test_the_llm_extractor_asks_with_a_schema_and_keeps_only_well_formed_items() -> None:
    sent: list[dict[str, object]] = []
    items = [
        {
            "kind": "fact",
            "text": "Works at Contoso",
            "slot": "Employer",
            "value": "Contoso",
            "valid_from": "2025-09-16",
            "valid_until": None,
            "on": None,
            "turn": 0,
        },
        {
            "kind": "fact",
            "text": "Lives in Oslo",
            "slot": "home",
            "value": "Oslo",
            "valid_from": "soon",
            "valid_until": None,
            "on": None,
            "turn": 1,
        },
        {
            "kind": "end",
            "text": "Left Northwind",
            "slot": "employer",
            "value": "Northwind",
            "valid_from": None,
            "valid_until": None,
            "on": None,
            "turn": 1,
        },
        {
            "kind": "wish",
            "text": "Wants pizza",
            "slot": None,
            "value": None,
            "valid_from": None,
            "valid_until": None,
            "on": None,
            "turn": 0,
        },
    ]

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        assert request.headers["authorization"] == "Bearer key"
        return httpx.Response(
            200,
            json={
                "choices": [
                    {"message": {"role": "assistant", "content": json.dumps({"items": items})}}
                ]
            },
        )

    llm = LlmExtractor(
        ChatClient("http://chat.test/v1", "key", transport=httpx.MockTransport(handler)), "m1"
    )
    got = llm.extract(
        [
            Turn("Tomorrow I start at Contoso.", MONDAY),
            Turn("I moved to Oslo, I left Northwind.", date(2025, 9, 16)),
        ]
    )
    assert sent[0]["response_format"]["type"] == "json_schema"  # type: ignore[index]
    assert "[1] (written 2025-09-16" in sent[0]["messages"][1]["content"]  # type: ignore[index]
    assert [(i.kind, i.slot, i.valid_from, i.on) for i in got] == [
        ("fact", "employer", date(2025, 9, 16), None),
        ("fact", "home", None, None),  # "soon" is no day: dropped, not guessed
        ("end", "employer", None, date(2025, 9, 16)),
    ]
    assert llm.name == "llm-1:m1"


def test_the_llm_extractor_fails_loudly_on_an_answer_outside_the_schema() -> None:
    llm = LlmExtractor(
        ChatClient(
            "http://chat.test/v1",
            transport=httpx.MockTransport(
                lambda r: httpx.Response(200, json={"choices": [{"message": {"content": "sure!"}}]})
            ),
        )
    )
    with pytest.raises(UpstreamFailed):
        llm.extract([Turn("I live in Oslo.", MONDAY)])


VALID = {
    "items": [
        {
            "kind": "fact",
            "text": "Lives in Oslo",
            "slot": "home",
            "value": "Oslo",
            "valid_from": None,
            "valid_until": None,
            "on": None,
            "turn": 0,
        },
        {"kind": "mood", "text": "Happy"},  # unknown kind: left out, counted
    ]
}
MALFORMED = '{"items": [{"kind": "fact", "text": "Lives in Oslo",'  # cut mid-object
TRUNCATED = {"content": json.dumps(VALID)[:40], "finish_reason": "length"}


def _scripted(*answers: object) -> tuple[LlmExtractor, list[dict[str, object]]]:
    """An LLM extractor whose upstream gives `answers` in order (a str is the message's text,
    a dict the choice itself), and the requests it was sent."""
    sent: list[dict[str, object]] = []
    script = iter(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        answer = next(script)
        choice = (
            {"message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}
            if isinstance(answer, str)
            else {"message": {"role": "assistant", "content": answer["content"]}, **answer}  # type: ignore[index]
        )
        return httpx.Response(200, json={"choices": [choice]})

    client = ChatClient("http://chat.test/v1", transport=httpx.MockTransport(handler))
    return LlmExtractor(client, "m1"), sent


def _metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_valid_answer_is_read_at_once_and_odd_items_are_counted() -> None:
    read = _metric("dossier_extraction_answers_total", outcome="read")
    dropped = _metric("dossier_extraction_items_dropped_total")
    llm, sent = _scripted(json.dumps(VALID))
    assert [i.text for i in llm.extract([Turn("I live in Oslo.", MONDAY)])] == ["Lives in Oslo"]
    assert len(sent) == 1
    assert _metric("dossier_extraction_answers_total", outcome="read") == read + 1
    assert _metric("dossier_extraction_items_dropped_total") == dropped + 1


@pytest.mark.parametrize("bad", [MALFORMED, TRUNCATED, '["not", "an", "object"]'])
def test_an_unreadable_answer_is_repaired_once(bad: object) -> None:
    repaired = _metric("dossier_extraction_answers_total", outcome="repaired")
    llm, sent = _scripted(bad, json.dumps(VALID))
    assert [i.text for i in llm.extract([Turn("I live in Oslo.", MONDAY)])] == ["Lives in Oslo"]
    repair = sent[1]["messages"]
    assert repair[2]["role"] == "assistant"  # type: ignore[index]
    assert "could not be read" in repair[3]["content"]  # type: ignore[index]
    assert _metric("dossier_extraction_answers_total", outcome="repaired") == repaired + 1


def test_an_answer_unreadable_even_repaired_fails_loudly() -> None:
    unreadable = _metric("dossier_extraction_answers_total", outcome="unreadable")
    llm, sent = _scripted(MALFORMED, TRUNCATED)
    with pytest.raises(UnreadableAnswer, match="cut off at the length limit"):
        llm.extract([Turn("I live in Oslo.", MONDAY)])
    assert len(sent) == 2  # one repair, then the task's retries take over
    assert _metric("dossier_extraction_answers_total", outcome="unreadable") == unreadable + 1


# Documents and the graph


def test_slugs_media_types_and_chunks() -> None:
    assert slugify("Support docs") == "support-docs"
    assert slugify("  Ürgent — Ops & HR! ") == "urgent-ops-hr"
    assert media_type_of("a.PDF", None) == "pdf" and media_type_of("x.docx", None) is None
    text = "\n\n".join(f"Paragraph {n} " + "word " * 60 for n in range(6))
    chunks = chunk_text(text, max_tokens=160)
    assert len(chunks) == 3 and all(c.tokens <= 160 for c in chunks)


def test_the_graph_holds_retired_facts_with_their_day() -> None:
    from app.facts.models import Fact

    rows = [
        Fact(
            id=1,
            kind="fact",
            slot="employer",
            value="Northwind",
            text="Works at Northwind",
            status="retired",
            retired_on=date(2025, 8, 1),
        ),
        Fact(
            id=2,
            kind="event",
            slot=None,
            value=None,
            text="Flew to Lisbon",
            status="active",
            happened_on=date(2025, 3, 3),
        ),
    ]
    nodes, edges = build_graph(rows, MONDAY)
    assert {n.id for n in nodes} == {"user", "organization:northwind", "event:2"}
    assert [(e.relation, e.status, e.retired_on) for e in edges] == [
        ("works_at", "retired", date(2025, 8, 1)),
        ("did", "active", None),
    ]
