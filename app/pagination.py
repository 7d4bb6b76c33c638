"""Cursor pagination over id-ordered tables: newest first, the cursor is the last id seen."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from fastapi import Query
from pydantic import BaseModel
from sqlalchemy import Select

from app.errors import Invalid

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    data: list[T]
    next_cursor: str | None


CursorQuery = Annotated[str | None, Query(description="next_cursor of the previous page")]
LimitQuery = Annotated[int, Query(ge=1, le=500)]


def paginate(statement: Select[Any], id_column: Any, cursor: str | None, limit: int) -> Select[Any]:
    if cursor is not None:
        if not cursor.isdigit():
            raise Invalid("cursor is not one this API gave out", field="cursor")
        statement = statement.where(id_column < int(cursor))
    return statement.order_by(id_column.desc()).limit(limit + 1)


def page_of(rows: list[T], ids: list[int], limit: int) -> Page[T]:
    more = len(rows) > limit
    return Page(data=rows[:limit], next_cursor=str(ids[limit - 1]) if more else None)
