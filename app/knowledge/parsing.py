"""Reading documents into text and cutting the text into chunks retrieval can rank.

PDFs are read for their embedded text with pypdf; a scanned, image-only PDF has none, and
that is a failure with its reason, never an empty ready document. Text and markdown are
decoded as UTF-8 (Windows-1252 when that fails).
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass

from app.engines.base import count_word_tokens
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
    if not text.strip():
        raise Unreadable("the document holds no text")
    return text


def _pdf_text(raw: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted:
            raise Unreadable("the PDF is encrypted; upload it without a password")
        return "\n\n".join((page.extract_text() or "") for page in reader.pages)
    except Unreadable:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        log.info("unreadable PDF: %s", exc)
        raise Unreadable("the file is not a PDF that can be read") from exc


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
