"""Answers of the file routes: OpenAI's FileObject, its list and its deletion, field for field
(the `openai` client validates them strictly), plus Dossier's `lines`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class FileOut(BaseModel):
    id: str
    object: Literal["file"]
    bytes: int
    created_at: int = Field(description="Unix seconds")
    filename: str
    purpose: str = Field(description="batch (uploaded) or batch_output (a batch's result file)")
    status: Literal["processed"]
    expires_at: int | None
    status_details: str | None
    lines: int = Field(description="Dossier's: the JSON objects the file holds, one per line")


class FilesPage(BaseModel):
    """OpenAI's list: the next page is `after=<last_id>` while `has_more`."""

    object: Literal["list"]
    data: list[FileOut]
    first_id: str | None
    last_id: str | None
    has_more: bool


class FileDeleted(BaseModel):
    id: str
    object: Literal["file"]
    deleted: bool
