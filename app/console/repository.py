"""SQL of the console's read-only listings (`app.console.lookups`)."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from app.facts.models import EndUser, Fact


def users_with_fact_counts(
    session: Session, tenant_id: uuid.UUID, *, after: str | None, limit: int, today: date
) -> list[tuple[str, int, int, datetime]]:
    """The tenant's end-users by id after `after`, one more than `limit`: (id, facts, retired
    facts, created_at). A fact is retired by status or by having ended by `today`."""
    retired = or_(Fact.status == "retired", Fact.valid_until <= today)
    facts = (
        select(EndUser.name, func.count(Fact.id), func.count(Fact.id).filter(retired))
        .select_from(EndUser)
        .outerjoin(Fact, Fact.end_user_id == EndUser.id)
        .where(EndUser.tenant_id == tenant_id)
        .group_by(EndUser.id)
    )
    if after is not None:
        facts = facts.where(EndUser.name > after)
    statement = facts.add_columns(EndUser.created_at).order_by(EndUser.name).limit(limit + 1)
    return [
        (name, count, retired_count, created_at)
        for name, count, retired_count, created_at in session.execute(statement).all()
    ]
