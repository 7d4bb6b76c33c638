"""SQL of the ledger: a tenant's lines, its lines grouped by thread, and the one place that
writes lines and takes credit (`app.ledger.service` decides what to charge)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from app.models import LedgerLine, Tenant
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


# The one writer of ledger lines and of the credit they take: `app.ledger.service` decides what
# to charge; these write it.


def credit(session: Session, tenant_id: uuid.UUID, *, lock: bool = False) -> Decimal | None:
    """The tenant's balance (None when there is no such tenant); with `lock`, the tenant's row
    stays locked until the transaction ends, so nothing else spends the credit meanwhile.

    The lock is FOR NO KEY UPDATE: it excludes every other credit lock and write of the row,
    but not the key-share lock a foreign key check takes when a row naming the tenant is
    written. FOR UPDATE waited on those, so two batch chunks that had each written such rows
    and then locked the credit waited on each other, deadlocked and retried into the same
    deadlock (a batch stalled at 1,175 of 1,200 items under a full test run)."""
    statement = select(Tenant.credit).where(Tenant.id == tenant_id)
    if lock:
        statement = statement.with_for_update(key_share=True)
    return session.scalar(statement)


def take_credit(session: Session, tenant_id: uuid.UUID, amount: Decimal) -> None:
    """Take `amount` from a balance the caller has locked and checked covers it."""
    session.execute(
        update(Tenant).where(Tenant.id == tenant_id).values(credit=Tenant.credit - amount)
    )


def take_credit_if_covered(session: Session, tenant_id: uuid.UUID, amount: Decimal) -> bool:
    """Take `amount` only if the balance covers it, in one conditional UPDATE (no lock held
    beforehand); False when it no longer does and nothing was taken."""
    taken = session.execute(
        update(Tenant)
        .where(Tenant.id == tenant_id, Tenant.credit >= amount)
        .values(credit=Tenant.credit - amount)
        .returning(Tenant.credit)
    ).first()
    return taken is not None


def add_line(
    session: Session,
    tenant_id: uuid.UUID,
    *,
    route: str,
    cost: Decimal,
    billed: bool,
    units: int = 1,
    subject: str | None = None,
    thread: str | None = None,
) -> LedgerLine:
    """One line, written with the unit of work (the caller keeps it to settle or drop it)."""
    line = LedgerLine(
        tenant_id=tenant_id,
        route=route,
        subject=subject,
        thread=thread,
        units=units,
        cost=cost,
        billed=billed,
    )
    session.add(line)
    return line


def drop_line(session: Session, line: LedgerLine) -> None:
    """Take out a line written in this transaction whose charge was not taken."""
    session.delete(line)


@dataclass(frozen=True)
class ChargeLine:
    """A line to charge in a group (`app.ledger.service.charge_many`)."""

    route: str
    cost: Decimal
    subject: str | None = None
    units: int = 1


def insert_lines(session: Session, tenant_id: uuid.UUID, charged: Sequence[ChargeLine]) -> None:
    """Many billed lines in one INSERT (the ORM would add them one by one)."""
    if not charged:
        return
    session.execute(
        insert(LedgerLine),
        [
            {
                "tenant_id": tenant_id,
                "route": line.route,
                "subject": line.subject,
                "units": line.units,
                "cost": line.cost,
                "billed": True,
            }
            for line in charged
        ],
    )
