"""Helpers of the knowledge tests: switching knowledge on, waiting for workers, small PDFs."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from fastapi.testclient import TestClient

from tests.support import Tenant

T = TypeVar("T")


def enable(client: TestClient, tenant: Tenant) -> None:
    response = client.put("/v1/knowledge/settings", json={"enabled": True}, headers=tenant.headers)
    assert response.status_code == 200, response.text


def wait_for(check: Callable[[], T | None], timeout: float = 30.0, what: str = "it") -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        time.sleep(0.2)


def facts(client: TestClient, tenant: Tenant, user: str, **params: Any) -> list[dict[str, Any]]:
    response = client.get(f"/v1/users/{user}/facts", params=params, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return list(response.json()["data"])


def chat(client: TestClient, tenant: Tenant, text: str, **extra: Any) -> dict[str, Any]:
    body = {"model": "any", "messages": [{"role": "user", "content": text}], **extra}
    response = client.post("/v1/chat/completions", json=body, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def document_ready(client: TestClient, tenant: Tenant, slug: str, doc_id: int) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        body = client.get(
            f"/v1/collections/{slug}/documents/{doc_id}", headers=tenant.headers
        ).json()
        return body if body["status"] != "processing" else None

    return wait_for(done, what=f"document {doc_id} processing")


def pdf_with_text(text: str) -> bytes:
    """A one-page PDF whose page shows `text` in Helvetica (embedded text pypdf reads)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out.getvalue()


def pdf_without_text() -> bytes:
    """A PDF with a blank page only, as a scanned image-only PDF reads: no embedded text."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def rows_holding(database_url: str, needle: str) -> dict[str, int]:
    """Every table of the database whose rows, read as text, hold `needle` (any case)."""
    dsn = database_url.replace("postgresql+psycopg://", "postgresql://")
    found: dict[str, int] = {}
    with psycopg.connect(dsn) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
            )
        ]
        for table in tables:
            count = conn.execute(
                f'SELECT count(*) FROM "{table}" AS t '  # noqa: S608 - names from the catalog
                f"WHERE t::text ILIKE %s OR convert_from(convert_to(t::text, 'UTF8'), 'UTF8') "
                f"ILIKE %s",
                (f"%{needle}%", f"%{needle}%"),
            ).fetchone()
            if count and count[0]:
                found[table] = int(count[0])
    return found
