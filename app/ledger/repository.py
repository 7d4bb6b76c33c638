"""SQL of the ledger: a tenant's lines, and its lines grouped by thread."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import LedgerLine
from app.pagination import paginate


def lines(
    session: Session, tenant_id: uuid.UUID, *, thread: str | None, cursor: str | None, limit: int
) -> list[LedgerLine]:
    """Newest first, one more than `limit` (so the caller knows whether a page follows)."""
    statement = select(LedgerLine).where(LedgerLine.tenant_id == tenant_id)
    if thread is not None:
        statement = statement.where(LedgerLine.thread == thread)
    return list(session.scalars(paginate(statement, LedgerLine.id, cursor, limit)))


@dataclass(frozen=True)
class ThreadRow:
    thread: str
    calls: int
    cost: Decimal
    first_at: datetime
    last_at: datetime
    last_id: int


def threads(
    session: Session, tenant_id: uuid.UUID, *, before_id: int | None, limit: int
) -> list[ThreadRow]:
    """The tenant's threads, the most recently used first (by their newest line's id, which is
    the cursor), one more than `limit`."""
    last_id = func.max(LedgerLine.id)
    statement = (
        select(
            LedgerLine.thread,
            func.count(),
            func.coalesce(func.sum(LedgerLine.cost), 0),
            func.min(LedgerLine.created_at),
            func.max(LedgerLine.created_at),
            last_id,
        )
        .where(LedgerLine.tenant_id == tenant_id, LedgerLine.thread.is_not(None))
        .group_by(LedgerLine.thread)
        .order_by(last_id.desc())
        .limit(limit + 1)
    )
    if before_id is not None:
        statement = statement.having(last_id < before_id)
    return [
        ThreadRow(str(thread), calls, cost, first_at, last_at, last)
        for thread, calls, cost, first_at, last_at, last in session.execute(statement).all()
    ]


def routes_of(
    session: Session, tenant_id: uuid.UUID, thread_ids: list[str]
) -> dict[str, dict[str, int]]:
    """Per thread, how many of its lines each route wrote."""
    if not thread_ids:
        return {}
    rows = session.execute(
        select(LedgerLine.thread, LedgerLine.route, func.count())
        .where(LedgerLine.tenant_id == tenant_id, LedgerLine.thread.in_(thread_ids))
        .group_by(LedgerLine.thread, LedgerLine.route)
        .order_by(LedgerLine.route)
    ).all()
    out: dict[str, dict[str, int]] = {}
    for thread, route, count in rows:
        out.setdefault(str(thread), {})[route] = count
    return out
