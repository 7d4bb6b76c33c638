"""Reading documents into text and cutting the text into chunks retrieval can rank.

PDFs are read for their embedded text with pypdf; a scanned, image-only PDF has none, and
that is a failure with its reason, never an empty ready document. Text and markdown are
decoded as UTF-8 (Windows-1252 when that fails).

An uploaded file is untrusted: reading one is bounded in pages, in text and in CPU time, and
any failure of the PDF reader (a decompression bomb stops at pypdf's own output limit) is the
document's failure with a reason, never the task's.
"""

from __future__ import annotations

import io
import logging
import re
import time
from dataclasses import dataclass

from pypdf import PdfReader

from app.engines.base import count_word_tokens
from app.text.storable import without_unstorable
from app.text.words import strip_accents

log = logging.getLogger(__name__)

CHUNK_TOKENS = 160
"""About a paragraph or two: long enough to answer from, short enough to rank precisely."""

MEDIA_TYPES = {
    ".pdf": "pdf",
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
}


MAX_PDF_PAGES = 2_000
MAX_TEXT_CHARS = 5_000_000
"""About 1,500 pages of dense prose: far more than retrieval can use from one document."""
READ_CPU_SECONDS = 60.0
"""CPU time one document may take to read, well inside the task's time limit."""


class Unreadable(Exception):
    """The document's text could not be read; the message is the reason shown to the user."""


@dataclass(frozen=True)
class Chunk:
    text: str
    tokens: int


def media_type_of(filename: str, content_type: str | None) -> str | None:
    """pdf, text or markdown by the file's extension (or its content type); None otherwise."""
    name = filename.lower()
    for extension, kind in MEDIA_TYPES.items():
        if name.endswith(extension):
            return kind
    return {
        "application/pdf": "pdf",
        "text/plain": "text",
        "text/markdown": "markdown",
        "text/x-markdown": "markdown",
    }.get((content_type or "").split(";")[0].strip().lower())


def read_text(raw: bytes, media_type: str) -> str:
    if media_type == "pdf":
        text = _pdf_text(raw)
        if not text.strip():
            raise Unreadable(
                "the PDF has no embedded text to read (a scanned, image-only PDF has none)"
            )
        return text
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    if "\x00" in text:
        raise Unreadable("the file holds binary data (NUL characters), not text")
    if not text.strip():
        raise Unreadable("the document holds no text")
    return text


def _pdf_text(raw: bytes) -> str:
    try:
        return _read_pdf(raw)
    except Unreadable:
        raise
    except RecursionError as exc:
        raise Unreadable("the PDF nests its objects too deeply to be read") from exc
    except Exception as exc:  # the reader parses untrusted bytes: any failure is the file's
        if type(exc).__name__ == "SoftTimeLimitExceeded":
            raise  # the task's time limit, not the file's fault: its failure says so
        log.info("unreadable PDF: %s: %s", type(exc).__name__, exc)
        raise Unreadable("the file is not a PDF that can be read") from exc


def _read_pdf(raw: bytes) -> str:
    started = time.process_time()
    reader = PdfReader(io.BytesIO(raw))
    if reader.is_encrypted:
        raise Unreadable("the PDF is encrypted; upload it without a password")
    pages = len(reader.pages)
    if pages > MAX_PDF_PAGES:
        raise Unreadable(f"the PDF has {pages} pages; at most {MAX_PDF_PAGES} are read")
    texts: list[str] = []
    size = 0
    for page in reader.pages:
        text = page.extract_text() or ""
        size += len(text)
        if size > MAX_TEXT_CHARS:
            raise Unreadable(f"the PDF holds more than {MAX_TEXT_CHARS:,} characters of text")
        if time.process_time() - started > READ_CPU_SECONDS:
            raise Unreadable(f"reading the PDF took more than {READ_CPU_SECONDS:.0f} s")
        texts.append(text)
    # Extraction can yield NULs and lone surrogates from broken font maps: not storable, no use.
    return without_unstorable("\n\n".join(texts))


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def chunk_text(text: str, max_tokens: int = CHUNK_TOKENS) -> list[Chunk]:
    """Paragraphs packed into chunks of at most about `max_tokens`; a longer paragraph is cut
    at sentence ends (a sentence longer than that stands alone)."""
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        if count_word_tokens(paragraph) <= max_tokens:
            pieces.append(paragraph)
        else:
            pieces.extend(s for s in _SENTENCE.split(paragraph) if s)
    chunks: list[Chunk] = []
    current: list[str] = []
    size = 0
    for piece in pieces:
        tokens = count_word_tokens(piece)
        if current and size + tokens > max_tokens:
            chunks.append(Chunk("\n\n".join(current), size))
            current, size = [], 0
        current.append(piece)
        size += tokens
    if current:
        chunks.append(Chunk("\n\n".join(current), size))
    return chunks


def slugify(name: str) -> str:
    """ "Support docs" → support-docs: letters and digits, lowercased, accents dropped."""
    bare = strip_accents(name).lower()
    slug = re.sub(r"[^a-z0-9]+", "-", bare).strip("-")
    return slug[:64].strip("-")
