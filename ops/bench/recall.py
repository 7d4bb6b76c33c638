"""Recall benchmark: query latency on a 10,000-line subject, and evidence recall on LoCoMo.

    .venv/bin/python ops/bench/recall.py [path/to/locomo-dev.json]

Needs the benchmark-only packages `bm25s` (numpy backend) and `rank_bm25` for the rows it
compares against; Dossier's own recall needs only numpy, which it already depends on.

Latency. The subject is built from the LoCoMo file itself, so the words are real chat: every
dialog turn, observation, session-summary sentence and event line of all conversations
(about 5,200 lines), then the dialog turns again with their years moved on, a year per
round, until there are 10,000 lines. Queries are the non-adversarial questions, one to three
of them joined into a state. Each engine's time per query includes splitting the query into
words; index building is timed apart. Every query runs ROUNDS times and keeps its fastest
run (a shared machine's preemptions are not the engine's); rank_bm25 scores every line per
query, so it runs once on a sample of the queries. Dossier's lexical scoring is exhaustive
(app.recall.scoring), so only the shortlist row has an "agreement" (below).

Meaning. The hybrid rows (app.recall.hybrid) use the packaged static model: their time per
query includes embedding the state, and the lines' vectors are made once, timed apart (as a
write makes them). On 10,000 lines the cosines are a shortlist by the vectors' first dimensions
then exact (app.embeddings.vectors.SHORTLIST_FROM): the row "every cosine" is the exact way, and
the shortlist row's agreement is the share of the exact way's hits it also returns.

Evidence recall. Each conversation is a subject, each dialog turn a line written as
"[session date] Speaker: text" (plus the shared photo's caption, which is part of the turn),
each question a query: state = the question, no question words, names off (a conversation id
names nothing in it). Category 5 (adversarial, no answer in the conversation) is left out,
and so are questions without evidence. recall@k is the share of a question's evidence
dia_ids found in the top k, averaged over questions. Dossier runs with top_k = k and
min_share at its floor 0.05, so only lines with next to no score are cut (and, for
comparison, at the default 0.2).
"""

from __future__ import annotations

import importlib
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from threadpoolctl import threadpool_limits  # noqa: E402

from app.embeddings.base import Embedder, to_stored  # noqa: E402
from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.embeddings.vectors import PREFIX_DIMS, LineVectors  # noqa: E402
from app.recall.hybrid import (  # noqa: E402
    SEARCH_SEMANTIC_WEIGHT,
    SUBJECT_SEMANTIC_WEIGHT,
    Meaning,
    hybrid_recall,
)
from app.recall.index import RecallIndex, build_index  # noqa: E402
from app.recall.scoring import (  # noqa: E402
    Hit,  # noqa: E402
    RecallOptions,
    recall,
)

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared/data/locomo-dev.json"
SUBJECT_LINES = 10_000
ROUNDS = 3
RANK_BM25_QUERIES = 200
QUESTION_TEXT = (
    "Decide whether the assistant can answer the user from the conversation history. "
    "Criteria: the answer must say when it happened and who said it."
)


def main(argv: Sequence[str]) -> None:
    data_path = Path(argv[0]) if argv else DEFAULT_DATA
    conversations = json.loads(data_path.read_text())
    questions = [q for c in conversations for q in c["qa"] if q["category"] != 5]

    lines = subject_lines(conversations, SUBJECT_LINES)
    states = [
        " ".join(q["question"] for q in questions[n : n + 1 + n % 3]) for n in range(len(questions))
    ]
    names = [conversations[0]["conversation"]["speaker_a"], "locomo"]
    start = time.perf_counter()
    index = build_index(lines)
    built = time.perf_counter() - start
    data = index.to_bytes()
    start = time.perf_counter()
    RecallIndex.from_bytes(data)
    loaded = time.perf_counter() - start
    threadpool_limits(limits=1, user_api="blas")  # as the service runs (app.embeddings.loader)
    embedder = StaticEmbedder(DEFAULT_MODEL)
    start = time.perf_counter()
    stored = to_stored(embedder.encode(lines))
    embedded = time.perf_counter() - start
    vectors = LineVectors.from_stored(
        [(v, embedder.name) for v in stored], embedder.name, embedder.dims
    )
    print(f"Latency: {len(lines)} lines, {len(states)} queries (1-3 questions each)")
    print(
        f"dossier index: built in {built * 1000:.0f} ms, {len(data) / 1e6:.2f} MB serialised, "
        f"loaded in {loaded * 1000:.0f} ms"
    )
    print(
        f"line vectors ({embedder.dims} dims, static model): made in {embedded * 1000:.0f} ms "
        f"({len(lines) / embedded:,.0f} lines/s), {vectors.nbytes / 1e6:.1f} MB in memory, "
        f"{sum(map(len, stored)) / 1e6:.1f} MB stored"
    )
    print(f"{'engine':<48} {'p50 ms':>8} {'p99 ms':>8} {'agreement':>10}")
    rows = latency_rows(index, lines, states, names)
    rows[2:2] = hybrid_latency_rows(index, vectors, embedder, states, names)
    for label, timings, agreement in rows:
        p50, p99 = percentile(timings, 50), percentile(timings, 99)
        shown = "" if agreement is None else f"{agreement:.3f}"
        print(f"{label:<48} {p50:>8.3f} {p99:>8.3f} {shown:>10}")

    print()
    print(f"Evidence recall on {data_path.name} (category 5 left out)")
    print(f"{'engine':<48} {'@5':>8} {'@10':>8} {'questions':>10}")
    for label, ranker in (
        ("dossier lexical (top_k=k, min_share=0.05)", dossier_ranker(0.05)),
        ("dossier lexical (top_k=k, min_share=0.2 default)", dossier_ranker(0.2)),
        ("dossier hybrid (top_k=k, min_share=0.05)", hybrid_ranker(embedder, 0.05)),
        ("dossier hybrid (top_k=k, min_share=0.2 default)", hybrid_ranker(embedder, 0.2)),
        ("bm25s (numpy, english stop words)", bm25s_ranker),
        *encoder_rankers(),
    ):
        at5, at10, count = evidence_recall(conversations, ranker)
        print(f"{label:<48} {at5:>8.3f} {at10:>8.3f} {count:>10}")


def encoder_rankers() -> list[tuple[str, Ranker]]:
    """The hybrid rows with the sentence encoder a user can pick instead of the static model
    (`pip install -e '.[encoder]'`, DOSSIER_BENCH_ENCODER=<local all-MiniLM-L6-v2 folder>), at
    the subject weight and at the search weight; none when the setting is not given."""
    folder = os.environ.get("DOSSIER_BENCH_ENCODER")
    if not folder:
        print("(sentence encoder rows: set DOSSIER_BENCH_ENCODER to a local model folder)")
        return []
    encoder_module = importlib.import_module("app.embeddings.encoder")
    encoder = encoder_module.SentenceEncoder(folder)
    return [
        (
            f"hybrid, encoder (weight {weight}, min_share=0.05)",
            hybrid_ranker(encoder, 0.05, weight),
        )
        for weight in (SUBJECT_SEMANTIC_WEIGHT, SEARCH_SEMANTIC_WEIGHT)
    ]


# --- latency -----------------------------------------------------------------------------


def subject_lines(conversations: list[dict[str, Any]], count: int) -> list[str]:
    turns = [line for c in conversations for _, line in dialog_lines(c["conversation"])]
    lines = list(turns)
    for c in conversations:
        for session in c["observation"].values():
            for facts in session.values():
                lines.extend(fact for fact, *_ in facts)
        for summary in c["session_summary"].values():
            lines.extend(re.split(r"(?<=[.!?])\s+", summary))
        for events in c["event_summary"].values():
            for speaker, items in events.items():
                if speaker != "date":
                    lines.extend(items)
    years_later = 0
    while len(lines) < count:
        years_later += 1
        lines.extend(shift_years(turn, years_later) for turn in turns)
    return lines[:count]


def shift_years(text: str, years: int) -> str:
    return re.sub(r"\b20\d\d\b", lambda m: str(int(m.group()) + years), text)


Row = tuple[str, list[float], float | None]


def latency_rows(
    index: RecallIndex, lines: list[str], states: list[str], names: list[str]
) -> list[Row]:
    plain = RecallOptions(use_names=False, use_question_words=False)
    full = RecallOptions()

    def state_only(state: str) -> list[int]:
        hits = recall(index, state=state, question="", names=(), options=plain)
        return [hit.index for hit in hits]

    def with_names_and_question(state: str) -> list[int]:
        hits = recall(index, state=state, question=QUESTION_TEXT, names=names, options=full)
        return [hit.index for hit in hits]

    rows: list[Row] = [
        ("dossier, state only, top_k 6", timed(states, state_only), None),
        (
            "dossier, state + names + question words, top_k 6",
            timed(states, with_names_and_question),
            None,
        ),
    ]
    try:
        import bm25s
    except ImportError:
        print("bm25s not installed: pip install bm25s")
    else:
        retriever = bm25s.BM25(backend="numpy")
        retriever.index(bm25s.tokenize(lines, show_progress=False), show_progress=False)

        def bm25s_query(state: str) -> object:
            tokens = bm25s.tokenize([state], return_ids=False, show_progress=False)
            return retriever.retrieve(tokens, k=6, show_progress=False, n_threads=0)

        rows.append(("bm25s 0.3 (numpy backend), k 6", timed(states, bm25s_query), None))
    try:
        import numpy
        from rank_bm25 import BM25Okapi
    except ImportError:
        print("rank_bm25 not installed: pip install rank_bm25")
    else:
        okapi = BM25Okapi([line.lower().split() for line in lines])

        def rank_bm25_query(state: str) -> object:
            return numpy.argsort(okapi.get_scores(state.lower().split()))[-6:]

        label = f"rank_bm25 BM25Okapi, top 6 ({RANK_BM25_QUERIES} queries, 1 round)"
        rows.append((label, timed(states[:RANK_BM25_QUERIES], rank_bm25_query, rounds=1), None))
    return rows


def hybrid_latency_rows(
    index: RecallIndex,
    vectors: LineVectors,
    embedder: Embedder,
    states: list[str],
    names: list[str],
) -> list[Row]:
    plain = RecallOptions(use_names=False, use_question_words=False)
    full = RecallOptions()
    exact = LineVectors(vectors.matrix, vectors.absent, vectors.model)
    exact.prefix = None  # every cosine, as below SHORTLIST_FROM lines

    def state_only(state: str) -> list[Hit]:
        meaning = Meaning(vectors, embedder.encode([state])[0])
        return hybrid_recall(index, meaning, state=state, question="", names=(), options=plain)

    def state_only_exact(state: str) -> list[int]:
        meaning = Meaning(exact, embedder.encode([state])[0])
        hits = hybrid_recall(index, meaning, state=state, question="", names=(), options=plain)
        return [hit.index for hit in hits]

    def state_only_two_steps(state: str) -> list[int]:
        return [hit.index for hit in state_only(state)]

    def with_names_and_question(state: str) -> object:
        meaning = Meaning(vectors, embedder.encode([state])[0])
        return hybrid_recall(
            index, meaning, state=state, question=QUESTION_TEXT, names=names, options=full
        )

    same = [
        len(set(state_only_exact(q)) & set(state_only_two_steps(q)))
        / max(1, len(state_only_exact(q)))
        for q in states
    ]
    return [
        (
            "dossier hybrid, state only, every cosine",
            timed(states, state_only_exact),
            None,
        ),
        (
            f"dossier hybrid, state only, top_k 6 (shortlist by {PREFIX_DIMS} dims)",
            timed(states, state_only),
            statistics.fmean(same),
        ),
        (
            "dossier hybrid, state + names + question words",
            timed(states, with_names_and_question),
            None,
        ),
        ("  of which: embedding the state", timed(states, lambda s: embedder.encode([s])), None),
    ]


def timed(states: list[str], query: Callable[[str], object], rounds: int = ROUNDS) -> list[float]:
    """Milliseconds per query, the fastest of `rounds` runs of each (after a warm-up)."""
    for state in states[:50]:
        query(state)
    best = [float("inf")] * len(states)
    for _ in range(rounds):
        for n, state in enumerate(states):
            start = time.perf_counter()
            query(state)
            best[n] = min(best[n], (time.perf_counter() - start) * 1000)
    return best


def percentile(values: list[float], pct: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


# --- evidence recall ---------------------------------------------------------------------

Ranker = Callable[[list[str], list[str], int], list[list[int]]]
"""(lines, questions, k) → for each question the indices of its top k lines."""


def dialog_lines(conversation: dict[str, Any]) -> list[tuple[str, str]]:
    """(dia_id, line) for every turn, the line holding its session date and speaker."""
    result = []
    sessions = [k for k in conversation if re.fullmatch(r"session_\d+", k)]
    for key in sorted(sessions, key=lambda k: int(k.split("_")[1])):
        date = conversation[f"{key}_date_time"]
        for turn in conversation[key]:
            text = f"[{date}] {turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [shares {turn['blip_caption']}]"
            result.append((turn["dia_id"], text))
    return result


def evidence_ids(evidence: list[str]) -> set[str]:
    """dia_ids as written, tolerating the file's "D8:6; D9:17" and "D:11:26" spellings."""
    ids = set()
    for item in evidence:
        for match in re.finditer(r"D:?(\d+):(\d+)", item):
            ids.add(f"D{match.group(1)}:{match.group(2)}")
    return ids


def evidence_recall(
    conversations: list[dict[str, Any]], ranker: Ranker
) -> tuple[float, float, int]:
    at5: list[float] = []
    at10: list[float] = []
    for c in conversations:
        turns = dialog_lines(c["conversation"])
        dia_ids = [dia_id for dia_id, _ in turns]
        lines = [line for _, line in turns]
        qa = [
            (q["question"], evidence_ids(q.get("evidence", [])))
            for q in c["qa"]
            if q["category"] != 5
        ]
        qa = [(question, ids) for question, ids in qa if ids]
        questions = [question for question, _ in qa]
        for k, scores in ((5, at5), (10, at10)):
            for top, (_, ids) in zip(ranker(lines, questions, k), qa, strict=True):
                found = {dia_ids[n] for n in top}
                scores.append(len(ids & found) / len(ids))
    return statistics.fmean(at5), statistics.fmean(at10), len(at10)


def dossier_ranker(min_share: float) -> Ranker:
    def rank(lines: list[str], questions: list[str], k: int) -> list[list[int]]:
        index = build_index(lines)
        options = RecallOptions(
            top_k=k, min_share=min_share, use_names=False, use_question_words=False
        )
        return [
            [hit.index for hit in recall(index, state=q, question="", names=(), options=options)]
            for q in questions
        ]

    return rank


def hybrid_ranker(
    embedder: Embedder, min_share: float, weight: float = SUBJECT_SEMANTIC_WEIGHT
) -> Ranker:
    def rank(lines: list[str], questions: list[str], k: int) -> list[list[int]]:
        index = build_index(lines)
        stored = to_stored(embedder.encode(lines))
        vectors = LineVectors.from_stored(
            [(v, embedder.name) for v in stored], embedder.name, embedder.dims
        )
        options = RecallOptions(
            top_k=k, min_share=min_share, use_names=False, use_question_words=False
        )
        ranked = []
        for q in questions:
            meaning = Meaning(vectors, embedder.encode([q])[0])
            hits = hybrid_recall(
                index, meaning, state=q, question="", names=(), options=options, weight=weight
            )
            ranked.append([hit.index for hit in hits])
        return ranked

    return rank


def bm25s_ranker(lines: list[str], questions: list[str], k: int) -> list[list[int]]:
    import bm25s

    retriever = bm25s.BM25(backend="numpy")
    retriever.index(bm25s.tokenize(lines, show_progress=False), show_progress=False)
    tokens = bm25s.tokenize(questions, return_ids=False, show_progress=False)
    results, _ = retriever.retrieve(tokens, k=k, show_progress=False, n_threads=0)
    return [list(map(int, row)) for row in results]


if __name__ == "__main__":
    main(sys.argv[1:])
