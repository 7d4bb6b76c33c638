"""SQL for files and their parts."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from app.files.models import PART_BYTES, File, FilePart


class PartWriter:
    """Writes a file's bytes as parts of `PART_BYTES`, in order, as they come."""

    def __init__(self, session: Session, file_id: str) -> None:
        self.session, self.file_id = session, file_id
        self.buffer = bytearray()
        self.seq = 0
        self.size = 0

    def write(self, data: bytes) -> None:
        self.buffer += data
        self.size += len(data)
        while len(self.buffer) >= PART_BYTES:
            self._part(bytes(self.buffer[:PART_BYTES]))
            del self.buffer[:PART_BYTES]

    def close(self) -> int:
        """Write what is left; returns the file's size."""
        if self.buffer:
            self._part(bytes(self.buffer))
            self.buffer.clear()
        return self.size

    def _part(self, data: bytes) -> None:
        self.session.execute(
            insert(FilePart), [{"file_id": self.file_id, "seq": self.seq, "data": data}]
        )
        self.seq += 1


def new_file(session: Session, tenant_id: uuid.UUID, purpose: str, filename: str) -> File:
    file = File(
        id=f"file-{uuid.uuid4().hex}",
        tenant_id=tenant_id,
        purpose=purpose,
        filename=filename,
        bytes=0,
        lines=0,
    )
    session.add(file)
    session.flush()  # the parts refer to it
    return file


def part(session: Session, file_id: str, seq: int) -> bytes | None:
    data = session.scalar(
        select(FilePart.data).where(FilePart.file_id == file_id, FilePart.seq == seq)
    )
    return bytes(data) if data is not None else None


def parts(session: Session, file_id: str) -> Iterator[bytes]:
    """Every part in order, fetched a few at a time (for a worker or a request that reads the
    whole file inside its own transaction)."""
    rows = session.execute(
        select(FilePart.data)
        .where(FilePart.file_id == file_id)
        .order_by(FilePart.seq)
        .execution_options(yield_per=4)
    )
    return (bytes(row[0]) for row in rows)


def page(
    session: Session,
    tenant_id: uuid.UUID,
    after: File | None,
    limit: int,
    *,
    ascending: bool,
    purpose: str | None,
) -> list[File]:
    """Up to `limit + 1` files after `after` in (created_at, id) order."""
    statement = select(File).where(File.tenant_id == tenant_id)
    if purpose is not None:
        statement = statement.where(File.purpose == purpose)
    if after is not None:
        if ascending:
            statement = statement.where(
                (File.created_at > after.created_at)
                | ((File.created_at == after.created_at) & (File.id > after.id))
            )
        else:
            statement = statement.where(
                (File.created_at < after.created_at)
                | ((File.created_at == after.created_at) & (File.id < after.id))
            )
    order = (
        (File.created_at.asc(), File.id.asc())
        if ascending
        else (File.created_at.desc(), File.id.desc())
    )
    return list(session.scalars(statement.order_by(*order).limit(limit + 1)))


def remove(session: Session, file_id: str) -> None:
    session.execute(delete(File).where(File.id == file_id))
