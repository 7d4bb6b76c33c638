"""Files, as OpenAI's Files API has them: uploaded for batches, written by batches.

A file's bytes live in PostgreSQL, in parts of 1 MiB (`file_parts`): one store to back up, to
erase a tenant from and to prove it, and a download reads one part per short transaction, so
no connection is held while a slow client reads. An upload for `purpose=batch` is checked line
by line before it is stored (each line one JSON object); what each request says is checked when
a batch is made from it, as OpenAI does (the batch ends `failed`, naming every line).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from sqlalchemy.orm import Session

from app.audit.service import record
from app.db import UnitOfWork
from app.errors import Invalid, NotFound, PayloadTooLarge
from app.files import repository as repo
from app.files.models import File
from app.settings import get_settings
from app.tenants.service import CurrentTenant

PURPOSES = ("batch",)
"""What a client may upload a file for; `batch_output` files are written by batches."""
MAX_LINES = 100_000
MAX_FILENAME = 255
READ_BYTES = 1024 * 1024


class FileGone(Exception):
    """A file was deleted while it was being downloaded: the download stops short (its
    Content-Length tells the client it is incomplete)."""


@dataclass
class FileService:
    session: Session

    def upload(
        self, tenant: CurrentTenant, purpose: str, filename: str, source: IO[bytes], size: int
    ) -> dict[str, Any]:
        tenant.ensure_active("files")
        if purpose not in PURPOSES:
            raise Invalid(
                f"purpose '{purpose}' is not one Dossier takes: upload files with purpose 'batch'",
                field="purpose",
            )
        limit = get_settings().file_max_bytes
        if size > limit:
            raise PayloadTooLarge(
                f"the file is {size} bytes, more than the {limit} a file may hold", field="file"
            )
        lines = check_jsonl(_chunks(source))
        source.seek(0)
        file = repo.new_file(
            self.session, tenant.id, purpose, (filename or "upload.jsonl")[:MAX_FILENAME]
        )
        writer = repo.PartWriter(self.session, file.id)
        for chunk in _chunks(source):
            writer.write(chunk)
        file.bytes, file.lines = writer.close(), lines
        record(self.session, tenant, "file.upload", ids=[file.id], counts={"bytes": file.bytes})
        return describe(file)

    def list(
        self,
        tenant: CurrentTenant,
        after: str | None,
        limit: int,
        order: str,
        purpose: str | None,
    ) -> dict[str, Any]:
        cursor = self.owned(tenant, after, field="after") if after is not None else None
        rows = repo.page(
            self.session, tenant.id, cursor, limit, ascending=order == "asc", purpose=purpose
        )
        data = [describe(file) for file in rows[:limit]]
        return {
            "object": "list",
            "data": data,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
            "has_more": len(rows) > limit,
        }

    def get(self, tenant: CurrentTenant, file_id: str) -> dict[str, Any]:
        return describe(self.owned(tenant, file_id))

    def delete(self, tenant: CurrentTenant, file_id: str) -> dict[str, Any]:
        file = self.owned(tenant, file_id)
        repo.remove(self.session, file.id)
        record(self.session, tenant, "file.delete", ids=[file.id], counts={"bytes": file.bytes})
        return {"id": file.id, "object": "file", "deleted": True}

    def owned(self, tenant: CurrentTenant, file_id: str, field: str = "file_id") -> File:
        file = self.session.get(File, file_id)
        if file is None or file.tenant_id != tenant.id:
            raise NotFound(f"no file '{file_id}'", field=field)
        return file


def describe(file: File) -> dict[str, Any]:
    return {
        "id": file.id,
        "object": "file",
        "bytes": file.bytes,
        "created_at": int(file.created_at.timestamp()),
        "filename": file.filename,
        "purpose": file.purpose,
        "status": "processed",
        "expires_at": None,
        "status_details": None,
        "lines": file.lines,
    }


def check_jsonl(chunks: Iterable[bytes]) -> int:
    """The number of lines, each one JSON object; the first that is not is a 422 naming it."""
    count = 0
    for number, line in enumerate(split_lines(chunks), start=1):
        count = number
        if count > MAX_LINES:
            raise Invalid(f"the file holds more than {MAX_LINES} lines", field="file")
        try:
            value = json.loads(line)
        except ValueError as exc:  # UnicodeDecodeError included
            reason = "is blank" if not line.strip() else "is not valid JSON"
            raise Invalid(
                f"line {number} {reason}: a batch file holds one JSON object per line",
                field="file",
                code="invalid_jsonl",
            ) from exc
        if not isinstance(value, dict):
            raise Invalid(f"line {number} is not a JSON object", field="file", code="invalid_jsonl")
    if count == 0:
        raise Invalid("the file is empty: a batch file holds one request per line", field="file")
    return count


def split_lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The lines of a byte stream, without their line ends; a final line end ends the last line
    rather than starting an empty one. Linear in the stream: each chunk is searched once, so a
    long line (or none at all) costs no more than its bytes."""
    pending = bytearray()
    for chunk in chunks:
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            pending += chunk[start:end]
            yield bytes(pending).removesuffix(b"\r")
            pending.clear()
            start = end + 1
        pending += chunk[start:]
    if pending:
        yield bytes(pending).removesuffix(b"\r")


def lines_of(session: Session, file_id: str) -> Iterator[bytes]:
    """A stored file's lines, read part by part in the caller's transaction."""
    return split_lines(repo.parts(session, file_id))


def content(file_id: str, size: int) -> Iterator[bytes]:
    """A file's bytes part by part, each read in a short unit of its own, for a streamed
    download that holds no connection between parts."""
    sent, seq = 0, 0
    while sent < size:
        unit = UnitOfWork(bounded=True)
        try:
            data = repo.part(unit.session, file_id, seq)
        finally:
            unit.abort()
        if data is None:
            raise FileGone(file_id)
        yield data
        sent, seq = sent + len(data), seq + 1


def _chunks(source: IO[bytes]) -> Iterator[bytes]:
    while chunk := source.read(READ_BYTES):
        yield chunk
