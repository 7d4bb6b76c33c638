"""Charging for priced requests: one ledger line each.

A charge is checked when the work asks for it and taken when the work commits. The check reads
the balance without a lock, so a request that cannot pay does no work; the credit itself is
taken by one conditional UPDATE per tenant in the moment before COMMIT (`settle_charges`), so
the tenant's row, which every request of the tenant writes, is locked for microseconds and never
while a request does its work or waits (for a thread, a slow extractor, a model). Two requests
can never spend the same credit twice: the UPDATE only takes what is there.

Routes that must work when a tenant cannot pay (reads, forget, deletes) are charged with
`required=False`: billed while credit covers them, otherwise recorded at cost 0, unbilled.

A chat completion under a `thread` always has one line, which carries the thread id: its
retrieval charge when it searched, otherwise a free line (`free_call`), so the Activity view
lists every call of a conversation. The thread is an id; no message text is ever on a line.

A batch chunk's decisions are charged together at the chunk's end (`charge_many`), under the
tenant row's lock: as many as the balance covers, in item order. Its chat completions are
charged as the route charges them, and settled in turn (`charge_mark`, `settle_in_turn`).
Every ledger line and every credit taken is written by `app.ledger.repository`, and a priced
action that ends with its ledger line and audit row writes both with `bill_action`.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from app.audit.service import record
from app.errors import InsufficientCredit
from app.ledger import repository as repo
from app.ledger.repository import ChargeLine
from app.models import LedgerLine
from app.tenants.service import CurrentTenant

_PENDING = "dossier_pending_charges"
"""Key in `Session.info` of the charges to take at commit."""


@dataclass
class _PendingCharge:
    tenant_id: uuid.UUID
    cost: Decimal
    line: LedgerLine
    required: bool


def charge(
    session: Session,
    tenant: CurrentTenant,
    *,
    route: str,
    cost: Decimal,
    units: int = 1,
    subject: str | None = None,
    required: bool = True,
    thread: str | None = None,
) -> LedgerLine:
    """Write the ledger line; the credit is taken when the session commits.

    With `required`, a suspended tenant gets 403 and one without enough credit 402, and the
    caller's transaction (which holds the write) is rolled back by the error.
    """
    if required and tenant.suspended:
        raise tenant.refusal()
    pending = _pending(session)
    balance = repo.credit(session, tenant.id)
    promised = sum((c.cost for c in pending if c.tenant_id == tenant.id), Decimal(0))
    covered = balance is not None and balance - promised >= cost
    if not covered and required:
        raise InsufficientCredit("not enough credit for this request; reads and deletes still work")
    line = repo.add_line(
        session,
        tenant.id,
        route=route,
        subject=subject,
        thread=thread,
        units=units,
        cost=cost if covered else Decimal(0),
        billed=covered,
    )
    if covered:
        pending.append(_PendingCharge(tenant.id, cost, line, required))
    return line


def free_call(session: Session, tenant: CurrentTenant, *, route: str, thread: str) -> LedgerLine:
    """A call that costs nothing, written so its thread can find it: cost 0, unbilled, and
    allowed whatever the tenant's credit or status (a thread "costs nothing")."""
    return repo.add_line(
        session, tenant.id, route=route, thread=thread, units=1, cost=Decimal(0), billed=False
    )


def charge_mark(session: Session) -> int:
    """Where the unit's pending charges stand now: give `settle_in_turn` one mark before each
    request of a group, and it settles the charges made after each mark together."""
    return len(_pending(session))


def settle_in_turn(session: Session, tenant_id: uuid.UUID, marks: Sequence[int]) -> list[int]:
    """Take the credit of each request's charges (those made from its mark to the next) in
    turn, under the tenant row's lock, while the balance covers them; a request it no longer
    covers has its ledger lines taken out. Returns those requests' positions.

    For a batch's chat completions: each was charged when it ran, but several chunks of one
    tenant run at once, so the balance each saw may be gone by the end; settled here, the ones
    it does not cover end 402 on their own, rather than failing the whole chunk at commit.
    """
    pending = _pending(session)
    balance = repo.credit(session, tenant_id, lock=True)
    bounds = [*marks, len(pending)]
    before = pending[: bounds[0]] if bounds else []
    left = (balance or Decimal(0)) - sum(
        (c.cost for c in before if c.tenant_id == tenant_id and _still_written(c.line)),
        Decimal(0),
    )
    uncovered: list[int] = []
    for position, (start, end) in enumerate(zip(bounds, bounds[1:], strict=False)):
        charges = [c for c in pending[start:end] if _still_written(c.line)]
        cost = sum((c.cost for c in charges), Decimal(0))
        if cost <= left:
            left -= cost
            continue
        uncovered.append(position)
        for c in charges:
            repo.drop_line(session, c.line)
    session.flush()  # deleted lines are no longer "written": the commit's settlement skips them
    return uncovered


def charge_many(session: Session, tenant_id: uuid.UUID, lines: Sequence[ChargeLine]) -> int:
    """Charge `lines` in order, at once, while the balance covers them: returns how many were
    charged (the first ones; the rest are not written and cost nothing).

    For a batch chunk's decisions, decided first and charged here in one step at the end: the
    tenant's row is locked (FOR UPDATE, after the chunk's items, like every chunk locks them)
    from this read to the commit, so the balance read is the balance taken from, and two
    chunks of one tenant never spend the same credit. The lines are billed at once, not at
    commit (`settle_charges` does not see them): the caller commits them with its results.
    """
    balance = repo.credit(session, tenant_id, lock=True)
    left = balance if balance is not None else Decimal(0)
    charged = 0
    for line in lines:
        if line.cost > left:
            break
        left -= line.cost
        charged += 1
    if charged:
        paid = lines[:charged]
        repo.take_credit(session, tenant_id, sum((line.cost for line in paid), Decimal(0)))
        repo.insert_lines(session, tenant_id, paid)
    return charged


def bill_action(
    session: Session,
    tenant: CurrentTenant,
    action: str,
    *,
    cost: Decimal,
    units: int = 1,
    subject: str | None = None,
    required: bool = True,
    ids: list[Any] | None = None,
    counts: dict[str, int] | None = None,
) -> LedgerLine:
    """The end of a priced action: its ledger line (route = `action`) and its audit row (the
    same action), written together so no charged action goes unaudited. The charge comes
    first: a required one the tenant cannot pay raises before the audit row is written."""
    line = charge(
        session, tenant, route=action, cost=cost, units=units, subject=subject, required=required
    )
    record(session, tenant, action, subject=subject, ids=ids, counts=counts)
    return line


def balance(session: Session, tenant_id: uuid.UUID) -> Decimal | None:
    """The tenant's credit as it stands, read without a lock (for an early check; the charge
    itself is taken at commit or under the lock)."""
    return repo.credit(session, tenant_id)


def ensure_can_pay(tenant: CurrentTenant) -> None:
    """Early check so a write that would be refused does no work first."""
    if tenant.suspended:
        raise tenant.refusal()


def _pending(session: Session) -> list[_PendingCharge]:
    charges: list[_PendingCharge] = session.info.setdefault(_PENDING, [])
    return charges


@event.listens_for(Session, "before_commit")
def settle_charges(session: Session) -> None:
    """Take every pending charge's credit, one UPDATE per tenant, just before COMMIT.

    If the balance no longer covers them (another request spent it since the check), a required
    charge fails the whole unit with 402; charges that were not required stay, unbilled.
    A savepoint's commit is not the commit: it settles nothing.
    """
    if session.in_nested_transaction():
        return
    charges = [c for c in session.info.pop(_PENDING, []) if _still_written(c.line)]
    for tenant_id in dict.fromkeys(c.tenant_id for c in charges):
        mine = [c for c in charges if c.tenant_id == tenant_id]
        total = sum((c.cost for c in mine), Decimal(0))
        if repo.take_credit_if_covered(session, tenant_id, total):
            continue
        if any(c.required for c in mine):
            raise InsufficientCredit(
                "not enough credit for this request; reads and deletes still work"
            )
        for c in mine:
            c.line.cost, c.line.billed = Decimal(0), False


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    """The whole transaction rolled back: its charges with it. (A savepoint's rollback drops
    only the lines written inside it, which `_still_written` leaves out at settlement.)"""
    if not session.in_nested_transaction():
        session.info.pop(_PENDING, None)


def _still_written(line: Any) -> bool:
    """False for a line whose savepoint was rolled back since it was charged."""
    state = inspect(line)
    return bool(state.pending or state.persistent)
