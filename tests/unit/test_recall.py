"""Recall engine: the seed's own examples, one test per knob."""

from __future__ import annotations

import json
import random
import zlib

import fakeredis
import pytest

from app.cache import SubjectCache
from app.recall import scoring
from app.recall.cache import RecallIndexCache
from app.recall.index import CorruptIndex, RecallIndex, build_index
from app.recall.scoring import Hit, RecallOptions, recall
from app.recall.terms import fold_ending, subject_name_words, words_and_phrases
from app.text.words import index_terms

OPTIONS = RecallOptions()


def texts(lines: list[str], **kwargs: object) -> list[str]:
    """The recalled lines' texts, best first."""
    options = kwargs.pop("options", RecallOptions())
    assert isinstance(options, RecallOptions)
    query = {"state": "", "question": "", "names": (), **kwargs}
    hits = recall(build_index(lines), options=options, **query)  # type: ignore[arg-type]
    return [lines[hit.index] for hit in hits]


# --- names -------------------------------------------------------------------------------

NORTHWIND_LINES = [
    "The office coffee machine is cleaned every Friday.",
    "Northwind Traders holds a premium support contract.",
    "Globex pays its invoices by bank transfer.",
    "Escalate every Northwind outage to the on-call engineer.",
    "Parking permits are renewed in January.",
]
TICKET = "Our service is down and customers cannot log in."


def test_subject_name_words_split_the_id() -> None:
    assert subject_name_words("northwind-traders") == ["northwind", "traders"]
    assert subject_name_words("acct_7781") == ["acct", "7781"]
    assert subject_name_words("acct-1") == ["acct"]


def test_names_find_the_subjects_lines_when_the_state_does_not_name_it() -> None:
    names = subject_name_words("northwind-traders")
    found = texts(NORTHWIND_LINES, state=TICKET, names=names)
    assert set(found) == {NORTHWIND_LINES[1], NORTHWIND_LINES[3]}


def test_names_off_does_not_find_them() -> None:
    names = subject_name_words("northwind-traders")
    found = texts(
        NORTHWIND_LINES, state=TICKET, names=names, options=RecallOptions(use_names=False)
    )
    assert NORTHWIND_LINES[1] not in found
    assert NORTHWIND_LINES[3] not in found


def test_aliases_are_names_too() -> None:
    lines = ["Globex Corporation renews in March.", "The canteen opens at eight."]
    found = texts(lines, state=TICKET, names=["acct", "Globex Corporation"])
    assert found == [lines[0]]


# --- question words ----------------------------------------------------------------------

CONTOSO_LINES = [
    "Contoso exports its monthly reports to CSV.",
    "Contoso's report export runs every Monday night.",
    "Contoso reports are exported to the finance share.",
    "The Contoso export of sales reports needs an admin login.",
    "Contoso asked for weekly reports instead of monthly ones.",
    "Contoso's reports exported last week were missing totals.",
    "Contoso reviews exported reports with their accountant.",
    "Failed Contoso report exports are retried after an hour.",
    "Contoso keeps exported reports for seven years.",
    "Contoso's export reports go to Dana in finance.",
    "Contoso's team wants every reply written in Swedish.",
]
SWEDISH = CONTOSO_LINES[-1]
EXPORT_STATE = "The export of the monthly reports failed again. Can you check the reports export?"
LANGUAGE_QUESTION = "Which language should the reply be written in?"


def test_question_words_find_the_language_line() -> None:
    found = texts(CONTOSO_LINES, state=EXPORT_STATE, question=LANGUAGE_QUESTION, names=["contoso"])
    assert SWEDISH in found
    assert len(found) <= 6


def test_question_words_off_leave_it_out_of_top_k() -> None:
    found = texts(
        CONTOSO_LINES,
        state=EXPORT_STATE,
        question=LANGUAGE_QUESTION,
        names=["contoso"],
        options=RecallOptions(use_question_words=False, min_share=0.05),
    )
    assert len(found) == 6
    assert SWEDISH not in found


def test_question_words_weigh_half_of_state_words() -> None:
    index = build_index(["Send invoices in Swedish.", "Invoices go to Dana."])
    by_question = recall(
        index, state="", question="Whom to send it to?", names=(), options=RecallOptions()
    )
    by_state = recall(index, state="send", question="", names=(), options=RecallOptions())
    assert [hit.index for hit in by_question] == [hit.index for hit in by_state] == [0]
    assert by_question[0].score == pytest.approx(by_state[0].score / 2)


def test_a_word_in_state_and_question_counts_once_at_the_state_weight() -> None:
    index = build_index(["Send invoices in Swedish.", "Invoices go to Dana."])
    both = recall(index, state="send", question="send it", names=(), options=RecallOptions())
    alone = recall(index, state="send", question="", names=(), options=RecallOptions())
    assert both == alone


def test_a_name_in_the_state_counts_once() -> None:
    index = build_index(["Fabrikam pays late.", "Contoso pays early."])
    named = recall(index, state="Fabrikam", question="", names=["fabrikam"], options=OPTIONS)
    unnamed = recall(index, state="Fabrikam", question="", names=(), options=OPTIONS)
    assert named == unnamed


def test_the_names_and_question_part_is_kept_per_index_within_bounds() -> None:
    index = build_index(CONTOSO_LINES)
    for n in range(40):
        recall(index, state="export", question=f"question {n}", names=["contoso"], options=OPTIONS)
    assert 0 < len(index._fixed) <= scoring._FIXED_KEPT


# --- focus -------------------------------------------------------------------------------

FABRIKAM_LINES = [
    "Fabrikam pays invoices within 30 days.",
    "Fabrikam tickets go to the second-line team.",
]
LAUNCH = "send this launch mail?"


def test_without_focus_the_names_bring_the_off_topic_lines() -> None:
    found = texts(FABRIKAM_LINES, state=LAUNCH, names=["fabrikam"])
    assert set(found) == set(FABRIKAM_LINES)


def test_focus_drops_lines_that_share_only_the_name() -> None:
    found = texts(
        FABRIKAM_LINES, state=LAUNCH, names=["fabrikam"], options=RecallOptions(focus=True)
    )
    assert found == []


def test_focus_keeps_only_the_opt_out_line() -> None:
    lines = [*FABRIKAM_LINES, "Fabrikam opted out of marketing mail."]
    found = texts(lines, state=LAUNCH, names=["fabrikam"], options=RecallOptions(focus=True))
    assert found == [lines[2]]


def test_focus_does_not_count_a_name_even_when_names_are_off() -> None:
    lines = ["Fabrikam pays invoices within 30 days."]
    options = RecallOptions(focus=True, use_names=False)
    assert texts(lines, state="Fabrikam launch mail", names=["fabrikam"], options=options) == []


# --- min_share ---------------------------------------------------------------------------

DUNGEON_LINES = [
    "In the Coin Hall, the hero always goes down the narrow plain stair.",
    "In the Torch Hall, the hero always walks along the corridor to the torches.",
    "In the Bone Hall, the hero always takes the narrow door, never the stair.",
]
COIN_HALL = (
    "The hero stands in the Coin Hall. Gold coins lie along the corridor; "
    "a narrow plain stair goes down. Which way?"
)


def test_default_min_share_keeps_the_other_rooms() -> None:
    found = texts(DUNGEON_LINES, state=COIN_HALL, names=["hero"])
    assert found[0] == DUNGEON_LINES[0]
    assert len(found) > 1


def test_min_share_half_keeps_only_the_coin_hall_line() -> None:
    options = RecallOptions(min_share=0.5)
    assert texts(DUNGEON_LINES, state=COIN_HALL, names=["hero"], options=options) == [
        DUNGEON_LINES[0]
    ]


# --- top_k -------------------------------------------------------------------------------


def test_top_k_bounds_the_lines() -> None:
    lines = [f"Invoice {n} for Fabrikam was paid late." for n in range(30)]
    assert len(texts(lines, state="late invoice", options=RecallOptions(top_k=3))) == 3
    assert len(texts(lines, state="late invoice", options=RecallOptions(top_k=20))) == 20
    assert len(texts(lines, state="late invoice")) == 6


@pytest.mark.parametrize(
    "kwargs", [{"top_k": 0}, {"top_k": 21}, {"min_share": 0.01}, {"min_share": 1.5}]
)
def test_options_out_of_range_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RecallOptions(**kwargs)  # type: ignore[arg-type]


# --- words and phrases -------------------------------------------------------------------


def test_a_shared_phrase_ranks_above_the_same_words_apart() -> None:
    lines = [
        "Support for the contract ends with the premium renewal.",
        "The premium support contract ends in May.",
    ]
    assert texts(lines, state="Does the premium support cover this?") == [lines[1], lines[0]]


def test_function_words_alone_do_not_make_a_line_relevant() -> None:
    assert texts(["The reply is in the box."], state="What is the time?") == []


def test_accents_and_case_are_folded() -> None:
    lines = ["Call muller before noon.", "Müller prefers email.", "Mull it over."]
    found = texts(lines, state="A note from MÜLLER")
    assert set(found) == {lines[0], lines[1]}


@pytest.mark.parametrize(
    "forms",
    [
        ("invoices", "invoice"),
        ("stories", "story", "Stories"),
        ("movies", "movie"),
        ("classes", "class"),
        ("painted", "painting", "paints", "paint"),
        ("running", "run", "runs"),
        ("baked", "bake", "baking"),
        ("played", "plays", "playing", "play"),
        ("studied", "studies", "study", "studying"),
    ],
)
def test_word_endings_meet(forms: tuple[str, ...]) -> None:
    folded = {fold_ending(form.lower()) for form in forms}
    assert len(folded) == 1, folded


@pytest.mark.parametrize("word", ["status", "need", "thing", "red", "spring", "2020s", "is"])
def test_short_stems_and_other_endings_stay(word: str) -> None:
    assert fold_ending(word) == word


def test_a_doubled_l_or_s_stays() -> None:
    assert fold_ending("called") == "call"
    assert fold_ending("passed") == "pass"


def test_a_plural_state_finds_a_singular_line() -> None:
    assert texts(["Fabrikam sends one invoice a month."], state="invoices") != []


def test_no_match_recalls_nothing() -> None:
    assert texts(NORTHWIND_LINES, state="zebra crossing") == []
    assert recall(build_index([]), state="x", question="", names=(), options=RecallOptions()) == []


# --- serialisation -----------------------------------------------------------------------


def test_round_trip_gives_the_same_hits() -> None:
    lines = CONTOSO_LINES + DUNGEON_LINES + ["Åsa prefers email.", "Ticket 2026-10-16 closed."]
    index = build_index(lines)
    loaded = RecallIndex.from_bytes(index.to_bytes())
    assert loaded.line_count == index.line_count
    assert loaded.term_count == index.term_count
    for state in (EXPORT_STATE, COIN_HALL, "asa", "2026"):
        query = {"state": state, "question": LANGUAGE_QUESTION, "names": ["contoso"]}
        expected = recall(index, options=RecallOptions(min_share=0.05), **query)  # type: ignore[arg-type]
        assert recall(loaded, options=RecallOptions(min_share=0.05), **query) == expected  # type: ignore[arg-type]
        assert expected


@pytest.mark.parametrize("bad", [b"", b"pickle", b"DRI1garbage", b"DRI1" + b"x\x9c\x03\x00"])
def test_malformed_bytes_are_refused(bad: bytes) -> None:
    with pytest.raises(CorruptIndex):
        RecallIndex.from_bytes(bad)


def test_truncated_bytes_are_refused() -> None:
    data = build_index(CONTOSO_LINES).to_bytes()
    body = zlib.decompress(data[4:])
    with pytest.raises(CorruptIndex):
        RecallIndex.from_bytes(data[:4] + zlib.compress(body[:-8]))


# --- many lines --------------------------------------------------------------------------


def test_many_lines_sharing_the_names_keep_the_exact_answer() -> None:
    """With many lines sharing the names, the query returns what line-by-line scoring does."""
    lines = [f"Northwind order {n} shipped to customer {n % 97} by road." for n in range(3000)]
    lines[1234] = "Northwind customers cannot log in after the password reset."
    lines[2345] = "Northwind escalates log in outages to the on-call engineer."
    index = build_index(lines)
    options = RecallOptions(top_k=5, min_share=0.05)
    query = {"state": TICKET, "question": "", "names": ["northwind"]}
    hits = recall(index, options=options, **query)  # type: ignore[arg-type]
    assert [hit.index for hit in hits[:2]] == [1234, 2345]
    assert _same(hits, _exhaustive(index, options, **query))


def _random_subject(seed: int, size: int) -> tuple[list[str], list[str]]:
    """Lines and states over a vocabulary where a few words are very common (Zipf-like)."""
    rng = random.Random(seed)
    vocabulary = [f"w{n}" for n in range(1500)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]

    def text(length: int) -> str:
        return " ".join(rng.choices(vocabulary, weights, k=length))

    lines = [text(rng.randint(4, 18)) + "." for _ in range(size)]
    states = [
        ". ".join(text(rng.randint(3, 25)) for _ in range(rng.randint(1, 3))) for _ in range(60)
    ]
    return lines, states


LINES, STATES = _random_subject(seed=7, size=2000)
INDEX = build_index(LINES)
RANDOM_QUERY = {"question": "w3 w40 w41 w700", "names": ["w0", "w1 w2"]}


@pytest.mark.parametrize(
    "options",
    [
        RecallOptions(),
        RecallOptions(top_k=1, min_share=1.0),
        RecallOptions(top_k=20, min_share=0.05),
        RecallOptions(focus=True),
        RecallOptions(focus=True, top_k=10, min_share=0.05, use_question_words=False),
        RecallOptions(top_k=6, min_share=0.05, use_names=False, use_question_words=False),
    ],
)
def test_scoring_matches_line_by_line_scoring(options: RecallOptions) -> None:
    """Long states over common words included: every line the formula ranks in is found."""
    for state in STATES:
        hits = recall(INDEX, state=state, options=options, **RANDOM_QUERY)  # type: ignore[arg-type]
        assert _same(hits, _exhaustive(INDEX, options, state=state, **RANDOM_QUERY)), state


def _exhaustive(
    index: RecallIndex,
    options: RecallOptions,
    *,
    state: str,
    question: str,
    names: list[str],
) -> list[Hit]:
    """`recall`'s formula written out line by line in plain Python, as its docstring says it."""
    query: dict[str, float] = {}  # term: the highest weight of its sources
    sources = [(state, scoring.STATE_WEIGHT)]
    if options.use_names:
        sources += [(name, scoring.NAME_WEIGHT) for name in names]
    if options.use_question_words:
        sources.append((question, scoring.QUESTION_WEIGHT))
    for text, weight in sources:
        words, phrases = words_and_phrases(text)
        for term in words + phrases:
            query[term] = max(query.get(term, 0.0), weight)
    name_words = {word for name in names for word in words_and_phrases(name)[0]}
    focus = {index.term_ids.get(w) for w in words_and_phrases(state)[0]} - {None}
    focus -= {index.term_ids.get(w) for w in name_words}
    scores: dict[int, float] = {}
    holds_focus: set[int] = set()
    for term, weight in query.items():
        term_id = index.term_ids.get(term)
        if term_id is None:
            continue
        ids, weights = index.postings(term_id)
        for line_no, term_weight in zip(ids.tolist(), weights.tolist(), strict=True):
            scores[line_no] = scores.get(line_no, 0.0) + term_weight * weight
            if term_id in focus:
                holds_focus.add(line_no)
    if options.focus:
        scores = {n: score for n, score in scores.items() if n in holds_focus}
    best = max(scores.values(), default=0.0)
    kept = [(n, s) for n, s in scores.items() if s > 0 and s >= best * options.min_share * 0.999999]
    kept.sort(key=lambda item: (-item[1], item[0]))
    return [Hit(n, s) for n, s in kept[: options.top_k]]


def _same(hits: list[Hit], expected: list[Hit]) -> bool:
    """The same lines in the same order, scores equal but for float rounding."""
    return [h.index for h in hits] == [h.index for h in expected] and all(
        h.score == pytest.approx(e.score) for h, e in zip(hits, expected, strict=True)
    )


# --- words -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Ann's O’Brien-Smith paid 2026-10-16, at 09:30; dairy-free!",
        "Müller  Åsa\tJosé\nSøren «quoted» (Straße) İbrahim e\u0301clair",
        "  - Will ship Monday -- 1) item;2) item  ",
    ],
)
def test_chunked_words_are_index_terms(text: str) -> None:
    """Recall runs index_terms chunk by chunk (for its cache); that must equal the whole."""
    assert [t for chunk in text.split() for t in index_terms(chunk)] == index_terms(text)


def test_an_index_of_an_older_format_in_redis_is_rebuilt_and_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """After an upgrade changes the index format, a subject's cached copy is rebuilt once,
    with a log that says why, and the new copy replaces it."""
    shared = SubjectCache(fakeredis.FakeRedis(), ttl_seconds=60)
    key = shared.key("t1", 7, 3, kind="recall")
    data = build_index(CONTOSO_LINES).to_bytes()
    body = zlib.decompress(data[4:])
    size = int.from_bytes(body[:4], "little")
    header = json.loads(body[4 : 4 + size])
    old_header = json.dumps({**header, "v": 1}, separators=(",", ":")).encode()
    old_body = len(old_header).to_bytes(4, "little") + old_header + body[4 + size :]
    shared.set_bytes(key, data[:4] + zlib.compress(old_body))

    cache = RecallIndexCache(shared, max_bytes=10_000_000, partial_seconds=1)
    with caplog.at_level("WARNING"):
        index = cache.get("t1", 7, 3, CONTOSO_LINES)

    assert index.line_count == len(CONTOSO_LINES)
    assert "unknown recall index version" in caplog.text
    replaced = shared.get_bytes(key)
    assert replaced is not None
    assert RecallIndex.from_bytes(replaced).line_count == len(CONTOSO_LINES)
