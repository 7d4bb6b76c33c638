"""The output and error files of a batch made from a file, written as OpenAI writes them.

One line per request, `{"id", "custom_id", "response": {"status_code", "request_id", "body"},
"error"}`, in the order of the input file: what succeeded in the output file, the rest in the
error file (a request that failed answers its status and Dossier's error body, as the endpoint
itself would; one never run carries `error` `batch_cancelled` or `batch_expired` and no
response). They are written once, when the batch has ended and no item is left running, in the
transaction that sees it so, under the batch's row lock.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.batches import repository as repo
from app.batches.models import Batch
from app.files import repository as files
from app.files.models import File

OUTPUT_PURPOSE = "batch_output"
NOT_RUN = {
    "canceled": ("batch_cancelled", "the batch was cancelled before this request ran"),
    "expired": ("batch_expired", "the batch expired before this request ran"),
}
WRITTEN_AFTER = ("completed", "expired", "cancelled")
"""A failed batch never ran a request: it has no files."""


def write_if_done(session: Session, batch: Batch, now: datetime) -> bool:
    """Write the batch's files if it was made from a file, has ended, and has no item left
    running (a chunk running at a cancel or an expiry finishes its items first; its finish task
    comes here again). Returns whether they were written now."""
    if (
        batch.input_file_id is None
        or batch.outputs_written_at is not None
        or batch.status not in WRITTEN_AFTER
        or repo.pending_left(session, batch.id)
    ):
        return False
    write(session, batch)
    batch.outputs_written_at = now
    session.flush()
    return True


def write(session: Session, batch: Batch) -> None:
    writers: dict[bool, tuple[File, files.PartWriter]] = {}
    counts = {True: 0, False: 0}
    for custom_id, result in repo.results(session, batch.id):
        succeeded, line = output_line(custom_id, result)
        if succeeded not in writers:
            kind = "output" if succeeded else "error"
            file = files.new_file(
                session, batch.tenant_id, OUTPUT_PURPOSE, f"{batch.id}_{kind}.jsonl"
            )
            writers[succeeded] = (file, files.PartWriter(session, file.id))
        writers[succeeded][1].write(line)
        counts[succeeded] += 1
    for succeeded, (file, writer) in writers.items():
        file.bytes, file.lines = writer.close(), counts[succeeded]
        if succeeded:
            batch.output_file_id = file.id
        else:
            batch.error_file_id = file.id


def output_line(custom_id: str | None, result: dict[str, Any]) -> tuple[bool, bytes]:
    """(whether it goes in the output file, the line with its newline)."""
    kind = result["type"]
    response: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    if kind == "succeeded":
        response = _response(200, result["response"])
    elif kind in NOT_RUN:
        code, message = NOT_RUN[kind]
        error = {"code": code, "message": message}
    else:
        response = _response(int(result.get("status_code", 500)), {"error": result["error"]})
    line = {
        "id": f"batch_req_{uuid.uuid4().hex}",
        "custom_id": custom_id,
        "response": response,
        "error": error,
    }
    return kind == "succeeded", (json.dumps(line, ensure_ascii=False) + "\n").encode()


def _response(status_code: int, body: Any) -> dict[str, Any]:
    return {"status_code": status_code, "request_id": f"req_{uuid.uuid4().hex}", "body": body}
