"""The LLM extractor through `dossier serve` and a real worker, against a stub chat endpoint on
the loopback address that answers malformed, truncated or valid JSON as each test scripts it:
nothing is lost, every failure is counted and retried, and a batch that cannot be read ends
failed with its turns kept."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import psycopg

from app.serving import serve_process, worker_process
from tests.support import Services, own_services, tenant_http, wait_until

VALID = json.dumps(
    {
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
            }
        ]
    }
)
MALFORMED = '{"items": [{"kind": "fact", "text": "Lives in'


class StubChat:
    """Answers extraction requests from a script per end-user word ("unlucky": the first
    attempt's two answers malformed, then valid; "doomed": always cut off), and plain chat
    requests with a short answer."""

    def __init__(self) -> None:
        self.extraction_calls: dict[str, int] = {}

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        if "response_format" not in body:
            return _choice("Noted.")
        turns = body["messages"][1]["content"]
        who = "doomed" if "doomed" in turns else "unlucky"
        calls = self.extraction_calls[who] = self.extraction_calls.get(who, 0) + 1
        if who == "doomed":
            return _choice(VALID[:30], finish_reason="length")
        return _choice(MALFORMED if calls <= 2 else VALID)


def _choice(content: str, finish_reason: str = "stop") -> dict[str, Any]:
    message = {"role": "assistant", "content": content}
    return {"choices": [{"message": message, "finish_reason": finish_reason}]}


@contextmanager
def stub_server(stub: StubChat) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            payload = json.dumps(stub.answer(body)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()


def test_unreadable_answers_are_repaired_retried_and_never_lost(
    services: Services, tmp_path: Path
) -> None:
    stub = StubChat()
    with stub_server(stub) as chat_url:
        settings = {
            "chat_url": chat_url,
            "extractor": "llm",
            "extraction_delay_seconds": "0",
        }
        with own_services(services, tmp_path, **settings) as own:
            with serve_process(own.env) as url, worker_process(own.env):
                http = tenant_http(url, "llm-extraction")
                http.put("/v1/knowledge/settings", json={"enabled": True}).raise_for_status()
                for user in ("unlucky", "doomed"):
                    http.post(
                        "/v1/chat/completions",
                        json={
                            "model": "any",
                            "user": user,
                            "messages": [{"role": "user", "content": f"I live in Oslo ({user})."}],
                        },
                    ).raise_for_status()

                # The first attempt: malformed, then its repair malformed too; the task's
                # retry asks again and is read: the fact is there, once.
                facts = wait_until(lambda: _facts(http, "unlucky"), 60, "the retried extraction")
                assert [f["text"] for f in facts] == ["Lives in Oslo"]
                assert stub.extraction_calls["unlucky"] == 3

                # Cut off every time: one repair per attempt, four attempts, then failed,
                # with its turn kept for re-extraction and the failure in the audit log.
                failed = wait_until(
                    lambda: _audit(http, "knowledge.extraction.failed"), 90, "the failed batch"
                )
                assert failed[0]["counts"] == {"turns": 1}
                assert stub.extraction_calls["doomed"] == 8
                assert _facts(http, "doomed") == []
                assert _batches(own.database_url) == {("done", 1), ("failed", 1)}
                assert _kept_turns(own.database_url, "failed") == 1


def _facts(http: httpx.Client, user: str) -> list[dict[str, Any]]:
    response = http.get(f"/v1/users/{user}/facts")
    if response.status_code == 404:
        return []
    response.raise_for_status()
    return list(response.json()["data"])


def _audit(http: httpx.Client, action: str) -> list[dict[str, Any]]:
    response = http.get("/v1/audit", params={"action": action})
    response.raise_for_status()
    return list(response.json()["data"])


def _batches(database_url: str) -> set[tuple[str, int]]:
    with psycopg.connect(database_url.replace("+psycopg", "")) as conn:
        rows = conn.execute(
            "SELECT status, count(*) FROM extraction_batches GROUP BY status"
        ).fetchall()
    return {(status, count) for status, count in rows}


def _kept_turns(database_url: str, status: str) -> int:
    with psycopg.connect(database_url.replace("+psycopg", "")) as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM extraction_turns t JOIN extraction_batches b "
            "ON b.id = t.batch_id WHERE b.status = %s",
            (status,),
        ).fetchone() or (0,)
    return int(count)
