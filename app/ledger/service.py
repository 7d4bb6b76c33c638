"""Charging for priced requests: one ledger line each.

Credit is taken with one conditional UPDATE, so concurrent requests can never spend the same
credit twice. Routes that must work when a tenant cannot pay (reads, forget, deletes) are charged
with `required=False`: billed while credit covers them, otherwise recorded at cost 0, unbilled.
"""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.errors import Forbidden, InsufficientCredit
from app.models import LedgerLine, Tenant
from app.tenants.service import CurrentTenant


def charge(
    session: Session,
    tenant: CurrentTenant,
    *,
    route: str,
    cost: Decimal,
    units: int = 1,
    subject: str | None = None,
    required: bool = True,
) -> LedgerLine:
    """Take `cost` from the tenant's credit and write the ledger line.

    With `required`, a suspended tenant gets 403 and one without enough credit 402, and the
    caller's transaction (which holds the write) is rolled back by the error.
    """
    if required and tenant.suspended:
        raise Forbidden("this tenant is suspended: reads, forget and deletes still work")
    taken = session.execute(
        update(Tenant)
        .where(Tenant.id == tenant.id, Tenant.credit >= cost)
        .values(credit=Tenant.credit - cost)
        .returning(Tenant.credit)
    ).first()
    if taken is None and required:
        raise InsufficientCredit("not enough credit for this request; reads and deletes still work")
    line = LedgerLine(
        tenant_id=tenant.id,
        route=route,
        subject=subject,
        units=units,
        cost=cost if taken is not None else Decimal(0),
        billed=taken is not None,
    )
    session.add(line)
    return line


def ensure_can_pay(tenant: CurrentTenant) -> None:
    """Early check so a write that would be refused does no work first."""
    if tenant.suspended:
        raise Forbidden("this tenant is suspended: reads, forget and deletes still work")
