"""Engines and the System One wire format.

The wire models are checked against the real client, `typesafe-sdk`: what its client sends must
validate, and what the embedded engine answers must pass its parser. The remote engine is tested
against `httpx.MockTransport` and, for a real timeout, a server on the loopback address.
"""

from __future__ import annotations

import email.utils
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import httpx2
import pytest
from typesafe_sdk import Box, Choice, Noul, RetryPolicy, Score, TypeSafeClient

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder
from app.engines.base import (
    MATCHED_CHOICE_OPTIONS,
    MATCHED_READ_TOKENS,
    count_word_tokens,
    read_window_for,
)
from app.engines.embedded import HYBRID_MODEL, LEXICAL_MODEL, EmbeddedEngine, read_state
from app.engines.systemone import SystemOneEngine, retry_after_seconds
from app.engines.wire import (
    BoxQuestion,
    ChoiceAnswer,
    ChoiceQuestion,
    NoulAnswer,
    NoulQuestion,
    Question,
    ScoreAnswer,
    ScoreQuestion,
    SystemOneRequest,
    SystemOneResponse,
    Usage,
    parse_request,
)
from app.errors import Invalid, UpstreamFailed, UpstreamTimeout

ENGINE = EmbeddedEngine(StaticEmbedder(DEFAULT_MODEL))
"""The embedded engine as Dossier runs it by default: words and meaning."""

SDK_QUESTIONS: dict[str, Choice | Noul | Score] = {
    "tone": Choice(
        instructions="What is the tone?",
        criteria={"calm": None, "angry": "An upset or hostile message"},
    ),
    "billing": Noul(instructions="Is this about billing?"),
    "spam": Noul(criteria={"true": "Unsolicited advertising", "false": "A conversation"}),
    "urgency": Score(
        instructions="How urgent is this message?",
        criteria=["Can wait", "Needs attention this week", "Needs attention today"],
    ),
}


def _sdk_client(handler: Callable[[httpx2.Request], httpx2.Response]) -> TypeSafeClient:
    return TypeSafeClient(
        api_key="test-key",
        base_url="http://dossier.test",
        transport=httpx2.MockTransport(handler),
        retry=RetryPolicy(max_retries=0),
        # Dossier's server decompresses zstd; here the captured body is read as it is.
        compression=False,
    )


def _embedded_server(seen: list[dict[str, Any]]) -> Callable[[httpx2.Request], httpx2.Response]:
    """A System One endpoint in a function: Dossier's wire models around the embedded engine."""
    engine = ENGINE

    def handle(request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        seen.append({"headers": dict(request.headers), "body": body})
        parsed = parse_request(body)
        answers = engine.answer(parsed.model, [parsed.state], parsed.questions)[0]
        state_text = json.dumps(parsed.state)
        response = SystemOneResponse(
            model=engine.models()[0],
            answers=answers,
            usage=Usage(input_tokens=engine.count_tokens(state_text), output_tokens=len(answers)),
        )
        return httpx2.Response(200, content=response.model_dump_json().encode())

    return handle


# --- the wire format against the SDK -------------------------------------------------------------


@pytest.mark.parametrize(
    "state",
    [
        "I was charged twice. Please help.",
        {"message": "Please help.", "subject": "Duplicate charge"},
        [{"from": "customer", "text": "Please help."}, "And again."],
    ],
)
def test_wire_request_accepts_what_the_sdk_sends(state: Any) -> None:
    seen: list[dict[str, Any]] = []
    with _sdk_client(_embedded_server(seen)) as client:
        client.system_one(state=state, questions=SDK_QUESTIONS, model="jev-latest")
    request = SystemOneRequest.model_validate(seen[0]["body"])
    assert request.state == state
    assert isinstance(request.questions["tone"], ChoiceQuestion)
    assert request.questions["tone"].criteria == {
        "calm": None,
        "angry": "An upset or hostile message",
    }
    assert isinstance(request.questions["spam"], NoulQuestion)
    assert isinstance(request.questions["urgency"], ScoreQuestion)
    assert seen[0]["headers"]["authorization"] == "Bearer test-key"


def test_wire_request_round_trips_the_sdk_question_models() -> None:
    """The SDK's question objects, as it puts them on the wire, survive our models unchanged."""
    questions: list[Choice | Noul | Score | Box] = [*SDK_QUESTIONS.values(), Box(instructions="?")]
    for question in questions:
        sent = question.model_dump(mode="json")
        body = {"model": "m", "state": "s", "questions": {"q": sent}}
        echoed = SystemOneRequest.model_validate(body).model_dump(mode="json")
        assert echoed["questions"]["q"] == sent


def test_wire_request_takes_subject_and_memory_through_extra_body() -> None:
    seen: list[dict[str, Any]] = []
    with _sdk_client(_embedded_server(seen)) as client:
        client.system_one(
            state="Please help.",
            questions={"billing": Noul(instructions="Is this about billing?")},
            extra_body={"subject": "acme", "memory": {"top_k": 3, "compare": True}},
        )
    request = parse_request(seen[0]["body"])
    assert request.subject == "acme"
    assert request.memory is not None
    assert (request.memory.top_k, request.memory.compare, request.memory.min_share) == (
        3,
        True,
        0.2,
    )


def test_sdk_parses_what_the_embedded_engine_answers() -> None:
    with _sdk_client(_embedded_server([])) as client:
        result = client.system_one(
            state={"message": "The customer is angry and upset about a hostile reply."},
            questions=SDK_QUESTIONS,
        )
    assert result.model == HYBRID_MODEL
    assert result.usage.input_tokens is not None and result.usage.input_tokens > 0
    tone = result.choices["tone"]
    assert tone.choice == "angry"
    assert set(tone.probabilities) == {"calm", "angry"}
    assert 0 <= result.nouls["billing"].noul <= 1
    urgency = result.scores["urgency"]
    assert set(urgency.probabilities) == {0, 1, 2}  # the SDK turns "0", "1", … into ints
    assert urgency.legend[2] == "Needs attention today"
    assert 0 <= urgency.score <= 2


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"model": "m", "state": "s", "questions": {}}, "questions"),
        ({"state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}}, "model"),
        (
            {"model": "m", "state": "s", "questions": {"q": {"type": "choice", "criteria": {}}}},
            "questions.q.criteria",
        ),
        (
            {"model": "m", "state": "s", "questions": {"q": {"type": "score", "criteria": []}}},
            "questions.q.criteria",
        ),
        ({"model": "m", "state": "s", "questions": {"q": {"type": "noul"}}}, "questions.q"),
        (
            {"model": "m", "state": "s", "questions": {"q": {"type": "guess"}}},
            "questions.q",
        ),
        (
            {
                "model": "m",
                "state": "s",
                "questions": {"q": {"type": "noul", "instructions": "?", "hint": "x"}},
            },
            "questions.q.hint",
        ),
    ],
)
def test_invalid_requests_name_the_field(body: dict[str, Any], field: str) -> None:
    with pytest.raises(Invalid) as caught:
        parse_request(body)
    assert caught.value.field == field
    assert caught.value.status_code == 422
    assert caught.value.message.startswith(field)


VALID = {"model": "m", "state": "s", "questions": {"q": {"type": "noul", "instructions": "?"}}}


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"memroy": {}}, "memroy"),
        ({"memory": {"top_k": 21}}, "memory.top_k"),
        ({"memory": {"top_k": "6"}}, "memory.top_k"),
        ({"memory": {"min_share": 0.01}}, "memory.min_share"),
        ({"memory": {"use": "yes"}}, "memory.use"),
        ({"memory": {"semantic": "no"}}, "memory.semantic"),
        ({"memory": {"passes": "later"}}, "memory.passes"),
        ({"memory": {"dry_run": True}}, "memory.dry_run"),
        ({"subject": "has spaces"}, "subject"),
        ({"subject": "x" * 37}, "subject"),
    ],
)
def test_dossier_fields_are_checked_and_named(extra: dict[str, Any], field: str) -> None:
    with pytest.raises(Invalid) as caught:
        parse_request({**VALID, **extra})
    assert caught.value.field == field


def test_memory_options_defaults() -> None:
    memory = parse_request({**VALID, "memory": {}}).memory
    assert memory is not None
    assert memory.model_dump() == {
        "use": True,
        "top_k": 6,
        "min_share": 0.2,
        "names": True,
        "question_words": True,
        "focus": False,
        "semantic": True,
        "compare": False,
        "explain": False,
        "placebo": False,
        "learn": False,
        "passes": "sync",
    }


# --- the embedded engine -------------------------------------------------------------------------


def _questions(**raw: Any) -> dict[str, Question]:
    """Questions in wire form, validated as a request's would be."""
    return SystemOneRequest.model_validate({"model": "m", "state": "s", "questions": raw}).questions


TONE: dict[str, Any] = {
    "type": "choice",
    "criteria": {"calm": "A neutral or polite message", "angry": "An upset or hostile message"},
}


@pytest.mark.parametrize("model", [HYBRID_MODEL, LEXICAL_MODEL])
def test_embedded_answers_every_question_type(model: str) -> None:
    engine = ENGINE
    questions = _questions(
        tone=TONE,
        spam={
            "type": "noul",
            "instructions": "Is this message unsolicited advertising?",
            "criteria": {"true": "Advertising nobody asked for", "false": "A conversation"},
        },
        urgency={"type": "score", "criteria": ["Can wait", "Needs attention today"]},
    )
    (answers,) = engine.answer(model, ["Buy cheap watches now! Advertising."], questions)
    tone, spam, urgency = answers["tone"], answers["spam"], answers["urgency"]
    assert isinstance(tone, ChoiceAnswer) and isinstance(spam, NoulAnswer)
    assert isinstance(urgency, ScoreAnswer)
    assert spam.noul > 0.5
    assert sum(tone.probabilities.values()) == pytest.approx(1, abs=1e-3)
    assert list(urgency.probabilities) == ["0", "1"]
    assert urgency.legend == {"0": "Can wait", "1": "Needs attention today"}
    assert 0 <= urgency.score <= 1


def test_embedded_with_words_alone_and_nothing_to_go_on_is_even_and_unsure() -> None:
    (answers,) = ENGINE.answer(LEXICAL_MODEL, ["Hello there."], _questions(tone=TONE))
    tone = answers["tone"]
    assert isinstance(tone, ChoiceAnswer)
    assert tone.probabilities == {"calm": 0.5, "angry": 0.5}
    assert tone.confidence == 0


def test_embedded_models_default_to_meaning_and_offer_words_alone() -> None:
    assert ENGINE.models() == [HYBRID_MODEL, LEXICAL_MODEL]
    assert EmbeddedEngine(None).models() == [LEXICAL_MODEL]
    state = ["I have been waiting three weeks and nobody answers. This is unacceptable."]
    # No word of the state is in either option: words alone cannot tell, meaning can.
    questions = _questions(tone=TONE)
    (lexical,) = ENGINE.answer(LEXICAL_MODEL, state, questions)
    (hybrid,) = ENGINE.answer("jev-latest", state, questions)
    assert lexical["tone"].confidence == 0  # type: ignore[union-attr]
    assert hybrid["tone"].choice == "angry"  # type: ignore[union-attr]
    assert hybrid["tone"].confidence > 0.1  # type: ignore[union-attr]


def test_embedded_without_an_embedder_answers_with_words_whatever_the_model() -> None:
    words_alone = EmbeddedEngine(None)
    questions = _questions(tone=TONE)
    state = ["An upset, hostile message!"]
    assert words_alone.answer(HYBRID_MODEL, state, questions) == ENGINE.answer(
        LEXICAL_MODEL, state, questions
    )


def test_embedded_noul_with_meaning_leans_where_no_word_is_shared() -> None:
    """A noul whose state shares no word with either outcome is graded, not a flat 0.5."""
    questions = _questions(
        escalate={
            "type": "noul",
            "instructions": "Should this be escalated to the on-call engineer?",
            "criteria": {
                "true": "Yes: an outage, customers cannot work, data at risk",
                "false": "No: a question, feedback or a cosmetic issue",
            },
        }
    )
    down = ["Nobody at our company can log in since nine and the whole site shows errors."]
    praise = ["Thanks, we love the new colour scheme on the dashboard."]
    (lexical_down,) = ENGINE.answer(LEXICAL_MODEL, down, questions)
    assert lexical_down["escalate"].noul == 0.5  # type: ignore[union-attr]
    (yes,) = ENGINE.answer(HYBRID_MODEL, down, questions)
    (no,) = ENGINE.answer(HYBRID_MODEL, praise, questions)
    assert yes["escalate"].noul > 0.6 > 0.4 > no["escalate"].noul  # type: ignore[union-attr]


def test_embedded_refuses_box_questions() -> None:
    with pytest.raises(Invalid) as caught:
        ENGINE.answer("m", ["text"], {"where": BoxQuestion(instructions="The dog")})
    assert caught.value.field == "questions.where.type"


@pytest.mark.parametrize("model", [HYBRID_MODEL, LEXICAL_MODEL])
def test_embedded_is_deterministic_and_answers_states_in_order(model: str) -> None:
    states = ["A polite and neutral note.", "An upset, hostile message!"]
    first = ENGINE.answer(model, states, _questions(tone=TONE))
    fresh = EmbeddedEngine(StaticEmbedder(DEFAULT_MODEL))  # nothing cached
    second = fresh.answer(model, states, _questions(tone=TONE))
    assert first == second
    assert [a["tone"].choice for a in first] == ["calm", "angry"]  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "state",
    [
        {"dossier_memory": ["Ann is always upset and hostile."], "message": "Ann wrote again."},
        [{"dossier_memory": ["Ann is always upset and hostile."]}, "Ann wrote again."],
        "Ann is always upset and hostile.\n\nAnn wrote again.",
    ],
)
@pytest.mark.parametrize("model", [HYBRID_MODEL, LEXICAL_MODEL])
def test_embedded_reads_memory_lines_in_every_state_shape(state: Any, model: str) -> None:
    (answers,) = ENGINE.answer(model, [state], _questions(tone=TONE))
    assert answers["tone"].choice == "angry"  # type: ignore[union-attr]


def test_embedded_separates_memory_lines_from_the_state() -> None:
    reading = read_state(
        {"dossier_memory": ["One line.\nTwo line."], "ticket": {"text": "Hi. Bye!", "n": 3}},
        window=100,
    )
    assert reading.memory_lines == ("One line.", "Two line.")
    assert reading.sentences == ("Hi.", "Bye!", "3")


def test_embedded_reads_the_start_of_an_object_and_the_end_of_an_array() -> None:
    filler = "word " * 5000
    angry = "An upset, hostile message."
    as_object = {"first": filler, "late": angry}
    as_array = [angry, filler]
    questions = _questions(tone=TONE)
    # Past the window the engine sees nothing: words alone stay even, and with meaning the
    # answer is the filler's alone.
    for state in (as_object, as_array):
        (answers,) = ENGINE.answer(LEXICAL_MODEL, [state], questions)
        assert answers["tone"].confidence == 0  # type: ignore[union-attr]
        (read,) = ENGINE.answer(HYBRID_MODEL, [state], questions)
        (filler_only,) = ENGINE.answer(HYBRID_MODEL, [{"first": filler}], questions)
        assert read == filler_only
    for state in ({"late": angry, "first": filler}, [filler, angry]):
        for model in (LEXICAL_MODEL, HYBRID_MODEL):
            (answers,) = ENGINE.answer(model, [state], questions)
            assert answers["tone"].choice == "angry"  # type: ignore[union-attr]


def test_a_matched_choice_reads_only_the_matching_window() -> None:
    engine = ENGINE
    many = {f"option_{i}": f"Filler option number {i}" for i in range(MATCHED_CHOICE_OPTIONS)}
    small = _questions(tone=TONE)
    matched = _questions(tone={"type": "choice", "criteria": {**TONE["criteria"], **many}})
    assert read_window_for(engine, small) == engine.read_window_tokens
    assert read_window_for(engine, matched) == MATCHED_READ_TOKENS
    state = {"first": "word " * 600, "late": "An upset, hostile message."}
    (small_answer,) = engine.answer(LEXICAL_MODEL, [state], small)
    (matched_answer,) = engine.answer(LEXICAL_MODEL, [state], matched)
    assert small_answer["tone"].choice == "angry"  # type: ignore[union-attr]
    assert matched_answer["tone"].confidence == 0  # type: ignore[union-attr]


def test_token_count_is_words_and_punctuation() -> None:
    assert count_word_tokens("Hello, world!") == 4
    assert count_word_tokens("internationalisation") == 3  # 20 letters: pieces of 8
    assert count_word_tokens("東京です") == 4
    assert ENGINE.count_tokens("") == 0


# --- the remote engine ---------------------------------------------------------------------------

ROUTE = _questions(tone=TONE)


def _answer_body(choice: str = "calm", model: str = "jev-1.14.0") -> dict[str, Any]:
    return {
        "model": model,
        "answers": {
            "tone": {
                "type": "choice",
                "choice": choice,
                "confidence": 0.8,
                "probabilities": {"calm": 0.9, "angry": 0.1},
            }
        },
        "usage": {"input_tokens": 12, "output_tokens": 3},
    }


class Upstream:
    """A scripted System One endpoint: each request gets the next scripted reply."""

    def __init__(self, *replies: httpx.Response | Exception) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []
        self.waits: list[float] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        if isinstance(reply, Exception):
            raise reply
        return reply

    def engine(self, **options: Any) -> SystemOneEngine:
        return SystemOneEngine(
            "https://engine.test/",
            "secret-key",
            transport=httpx.MockTransport(self.handle),
            sleep=self.waits.append,
            **options,
        )


def ok() -> httpx.Response:
    return httpx.Response(200, json=_answer_body())


def test_remote_sends_what_the_sdk_sends_and_validates_the_answer() -> None:
    upstream = Upstream(ok())
    (answers,) = upstream.engine().answer("jev-latest", [{"message": "Hi"}], ROUTE)
    assert answers["tone"] == ChoiceAnswer(
        choice="calm", confidence=0.8, probabilities={"calm": 0.9, "angry": 0.1}
    )
    request = upstream.requests[0]
    assert request.url == "https://engine.test/v1/systemone"
    assert request.headers["authorization"] == "Bearer secret-key"
    body = json.loads(request.content)
    assert SystemOneRequest.model_validate(body).model == "jev-latest"
    assert set(body) == {"model", "state", "questions"}  # no subject or memory upstream
    assert body["questions"]["tone"] == TONE


def test_remote_retries_429_after_the_seconds_it_asks() -> None:
    upstream = Upstream(httpx.Response(429, headers={"retry-after": "2"}), ok())
    upstream.engine().answer("m", ["Hi"], ROUTE)
    assert len(upstream.requests) == 2
    assert upstream.waits == [2.0]


def test_remote_honours_an_http_date_and_caps_the_wait() -> None:
    soon = email.utils.formatdate(time.time() + 3, usegmt=True)
    later = email.utils.formatdate(time.time() + 3600, usegmt=True)
    upstream = Upstream(
        httpx.Response(429, headers={"retry-after": soon}),
        httpx.Response(503, headers={"retry-after": later}),
        ok(),
    )
    upstream.engine(max_attempts=3, max_retry_wait=10).answer("m", ["Hi"], ROUTE)
    assert 1 <= upstream.waits[0] <= 3
    assert upstream.waits[1] == 10


def test_retry_after_forms() -> None:
    assert retry_after_seconds(httpx.Headers({"retry-after-ms": "250"})) == 0.25
    assert retry_after_seconds(httpx.Headers({"retry-after": "1.5"})) == 1.5
    assert retry_after_seconds(httpx.Headers({"retry-after": "soon"})) is None
    assert retry_after_seconds(httpx.Headers({"retry-after": "-3"})) is None
    assert retry_after_seconds(httpx.Headers({})) is None


def test_remote_retries_5xx_with_backoff_then_succeeds() -> None:
    upstream = Upstream(httpx.Response(503), httpx.Response(500), ok())
    (answers,) = upstream.engine(backoff=0.5).answer("m", ["Hi"], ROUTE)
    assert answers["tone"].type == "choice"
    assert upstream.waits == [0.5, 1.0]


def test_remote_gives_up_after_max_attempts_with_502() -> None:
    upstream = Upstream(httpx.Response(502, json={"error": {"message": "bad gateway"}}))
    with pytest.raises(UpstreamFailed) as caught:
        upstream.engine(max_attempts=3).answer("m", ["Hi"], ROUTE)
    assert len(upstream.requests) == 3
    assert caught.value.status_code == 502
    assert "answered 502: bad gateway" in caught.value.message
    assert "secret-key" not in caught.value.message


def test_remote_upstream_gateway_timeout_is_504() -> None:
    upstream = Upstream(httpx.Response(504))
    with pytest.raises(UpstreamTimeout) as caught:
        upstream.engine(max_attempts=2).answer("m", ["Hi"], ROUTE)
    assert caught.value.status_code == 504
    assert len(upstream.requests) == 2


def test_remote_does_not_retry_a_refusal() -> None:
    upstream = Upstream(httpx.Response(401, json={"detail": "Invalid API key"}))
    with pytest.raises(UpstreamFailed) as caught:
        upstream.engine().answer("m", ["Hi"], ROUTE)
    assert len(upstream.requests) == 1
    assert "401: Invalid API key" in caught.value.message


def test_remote_reports_the_upstream_validation_error_fields() -> None:
    detail = [{"loc": ["body", "questions", "tone", "criteria"], "msg": "Field required"}]
    upstream = Upstream(httpx.Response(422, json={"detail": detail}))
    with pytest.raises(UpstreamFailed) as caught:
        upstream.engine().answer("m", ["Hi"], ROUTE)
    assert "questions.tone.criteria: Field required" in caught.value.message


def test_remote_timeout_is_504_and_not_retried() -> None:
    upstream = Upstream(httpx.ReadTimeout("slow"))
    with pytest.raises(UpstreamTimeout) as caught:
        upstream.engine().answer("m", ["Hi"], ROUTE)
    assert len(upstream.requests) == 1
    assert isinstance(caught.value.__cause__, httpx.ReadTimeout)


def test_remote_retries_a_failed_connection() -> None:
    upstream = Upstream(httpx.ConnectError("refused"), ok())
    upstream.engine().answer("m", ["Hi"], ROUTE)
    assert len(upstream.requests) == 2
    upstream = Upstream(httpx.ConnectError("refused"))
    with pytest.raises(UpstreamFailed, match="could not be reached"):
        upstream.engine(max_attempts=2).answer("m", ["Hi"], ROUTE)


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (httpx.Response(200, content=b"<html>oops</html>"), "invalid body"),
        (httpx.Response(200, json={**_answer_body(), "usage": None}), "invalid usage"),
        (
            httpx.Response(
                200, json={**_answer_body(), "answers": {"other": {"type": "noul", "noul": 1}}}
            ),
            "answered nothing to the choice question 'tone'",
        ),
        (
            httpx.Response(
                200, json={**_answer_body(), "answers": {"tone": {"type": "noul", "noul": 1}}}
            ),
            "answered a noul answer",
        ),
    ],
)
def test_remote_refuses_a_malformed_answer(reply: httpx.Response, words: str) -> None:
    with pytest.raises(UpstreamFailed) as caught:
        Upstream(reply).engine().answer("m", ["Hi"], ROUTE)
    assert words in caught.value.message


def test_remote_asks_about_several_states_concurrently_in_order() -> None:
    in_flight = 0
    most = 0
    lock = threading.Lock()

    def handle(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.05)
        with lock:
            in_flight -= 1
        state = json.loads(request.content)["state"]
        return httpx.Response(200, json=_answer_body(choice=state))

    engine = SystemOneEngine(
        "https://engine.test", "k", transport=httpx.MockTransport(handle), max_concurrency=4
    )
    states = ["calm", "angry", "calm", "angry", "calm", "angry"]
    answers = engine.answer("m", states, ROUTE)
    assert [a["tone"].choice for a in answers] == states  # type: ignore[union-attr]
    assert 1 < most <= 4


def test_remote_lists_models_once() -> None:
    listing = {"models": [{"name": "jev-latest", "description": "d", "release_date": "2026-09-15"}]}
    upstream = Upstream(httpx.Response(200, json=listing))
    engine = upstream.engine()
    assert engine.models() == ["jev-latest"]
    assert engine.models() == ["jev-latest"]
    assert len(upstream.requests) == 1
    assert upstream.requests[0].url.path == "/v1/models"


@pytest.fixture
def slow_server() -> Iterator[str]:
    """A real HTTP server on the loopback address that answers after half a second."""

    class Slow(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the name http.server calls
            self.rfile.read(int(self.headers["content-length"]))
            time.sleep(0.5)
            body = json.dumps(_answer_body()).encode()
            try:
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except OSError:
                pass  # the client gave up, as it should

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_remote_times_out_against_a_real_slow_server(slow_server: str) -> None:
    engine = SystemOneEngine(slow_server, "k", timeout=0.1)
    started = time.monotonic()
    with pytest.raises(UpstreamTimeout):
        engine.answer("m", ["Hi"], ROUTE)
    assert time.monotonic() - started < 0.45
    with SystemOneEngine(slow_server, "k", timeout=2) as patient:
        (answers,) = patient.answer("m", ["Hi"], ROUTE)
    assert answers["tone"].type == "choice"
