"""Evidence recall of the knowledge search on LoCoMo, through the public API.

    .venv/bin/python ops/bench/locomo.py [path/to/locomo-dev.json]

Services: DOSSIER_DATABASE_URL / DOSSIER_REDIS_URL when set, otherwise the embedded ones (see
ops/bench/harness.py); the API is served over real HTTP and every call below is an HTTP call.

Each conversation is one end-user. Its dialog turns go in as facts, one per turn, with
`POST /v1/users/{user}/facts` (kind event, the session's day as `happened_on`), written
"[session date] Speaker: text" plus the shared photo's caption, which is part of the turn.
They are not run through extraction: LoCoMo's questions ask about any turn, and the embedded
extractor keeps only durable facts and events about the speaker, so this measures the
retrieval, not the extractor. Each question (category 5, adversarial, left out, and questions
without evidence) is asked twice with `POST /v1/knowledge/search {"query", "user", "top_k": 10,
"semantic"}`: by words alone (lexical) and by words and meaning (hybrid, the default);
a fact maps back to its turn's dia_id by its text (read back with the export route).
recall@k is the share of a question's evidence dia_ids among the first k hits, averaged over
questions.
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ops.bench.harness import client, running_api  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared/data/locomo-dev.json"
KS = (5, 10)
MODES = {"lexical": False, "hybrid": True}


def turns_of(conversation: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(dia_id, text, day) of every dialog turn, in order."""
    data = conversation["conversation"]
    out = []
    n = 1
    while f"session_{n}" in data:
        stamp = data.get(f"session_{n}_date_time", "")
        day = _day(stamp)
        for turn in data[f"session_{n}"]:
            text = f"[{stamp}] {turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" (shared a photo: {turn['blip_caption']})"
            out.append((turn["dia_id"], text, day))
        n += 1
    return out


def _day(stamp: str) -> str:
    try:
        return datetime.strptime(stamp, "%I:%M %p on %d %B, %Y").date().isoformat()
    except ValueError:
        return ""


def main(argv: list[str]) -> None:
    path = Path(argv[0]) if argv else DEFAULT_DATA
    conversations = json.loads(path.read_text())
    with running_api() as bench, client(bench) as http:
        http.put("/v1/knowledge/settings", json={"enabled": True}).raise_for_status()
        totals = {(mode, k): 0.0 for mode in MODES for k in KS}
        questions = 0
        turns_loaded = 0
        search_ms: dict[str, list[float]] = {mode: [] for mode in MODES}
        for conversation in conversations:
            user = conversation["sample_id"]
            turns = turns_of(conversation)
            by_text: dict[str, list[str]] = defaultdict(list)
            for dia_id, text, _ in turns:
                by_text[text].append(dia_id)
            for start in range(0, len(turns), 500):
                batch = [
                    {"text": text, "kind": "event", **({"happened_on": day} if day else {})}
                    for _, text, day in turns[start : start + 500]
                ]
                http.post(f"/v1/users/{user}/facts", json={"facts": batch}).raise_for_status()
            turns_loaded += len(turns)
            dia_of = _fact_dia_ids(http, user, by_text)
            for qa in conversation["qa"]:
                if qa["category"] == 5 or not qa.get("evidence"):
                    continue
                for mode, semantic in MODES.items():
                    started = time.perf_counter()
                    response = http.post(
                        "/v1/knowledge/search",
                        json={
                            "query": qa["question"],
                            "user": user,
                            "top_k": max(KS),
                            "semantic": semantic,
                        },
                    )
                    search_ms[mode].append((time.perf_counter() - started) * 1000)
                    response.raise_for_status()
                    ranked: list[str] = []
                    for hit in response.json()["data"]:
                        ranked.extend(d for d in dia_of.get(hit["id"], []) if d not in ranked)
                    evidence = set(qa["evidence"])
                    for k in KS:
                        totals[mode, k] += len(evidence & set(ranked[:k])) / len(evidence)
                questions += 1
    print(
        f"LoCoMo ({path.name}): {len(conversations)} conversations, {turns_loaded} dialog turns "
        "loaded as facts (one fact per turn, POST /v1/users/{user}/facts), not as conversations"
    )
    print(
        f"{questions} questions (category 5 and questions without evidence left out), each "
        "asked with POST /v1/knowledge/search"
    )
    print(f"{'search':<10} {'@5':>7} {'@10':>7} {'p50 ms':>8} {'p99 ms':>8}  (through HTTP)")
    for mode in MODES:
        timings = sorted(search_ms[mode])
        recalls = " ".join(f"{totals[mode, k] / questions:>7.3f}" for k in KS)
        p50 = timings[len(timings) // 2]
        p99 = timings[int(0.99 * (len(timings) - 1))]
        print(f"{mode:<10} {recalls} {p50:>8.1f} {p99:>8.1f}")


def _fact_dia_ids(http: Any, user: str, by_text: dict[str, list[str]]) -> dict[int, list[str]]:
    dia_of: dict[int, list[str]] = {}
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        page = http.get(f"/v1/users/{user}/export", params=params).json()
        for fact in page["data"]:
            dia_of[fact["id"]] = by_text.get(fact["text"], [])
        cursor = page["next_cursor"]
        if cursor is None:
            return dia_of


if __name__ == "__main__":
    main(sys.argv[1:])
