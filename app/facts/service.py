"""End-user facts: the turns chat completions queue for extraction, extraction itself (live,
re-run and from imported history), and the facts routes (list, add, forget, promote, graph).

Every change to a user's facts locks the user's row first (requests, extraction and erasure
alike), so they go one at a time and in one lock order, and moves the user's version so no
cached index serves the old facts. Each service holds one concern: `ExtractionService` (turns
in, batches extracted), `FactService` (a user's facts as the API shows and changes them) and
`HistoryService` (imports of past conversations); `store_items` is the reconciliation both
extraction and added facts end in.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from sqlalchemy.orm import Session

from app.audit.service import record
from app.documents import repository as documents
from app.documents.service import create_promoted, resolve_collections
from app.embeddings.storage import vectors_for_write
from app.errors import Conflict, DossierError, Invalid, NotFound
from app.facts import repository as repo
from app.facts.extraction import Extracted, Extractor, Turn
from app.facts.graph import build_graph
from app.facts.history import PastTurn, import_view, start_import
from app.facts.models import EndUser, ExtractionBatch, ExtractionTurn, Fact, fact_status
from app.facts.reconcile import Known, reconcile
from app.facts.schemas import (
    FactDeleted,
    FactOut,
    FactsAdded,
    FactsIn,
    FactsPage,
    GraphOut,
    HistoryImportOut,
    HistoryIn,
    PromotedDocument,
    PromoteOut,
    TenantFactsPage,
)
from app.jobs.names import EXTRACT_BATCH
from app.jobs.outbox import JobQueue
from app.knowledge.indexes import KnowledgeIndexes, drop_or_refuse, user_prefix
from app.knowledge.repository import is_enabled, tenant_of
from app.knowledge.switch import require_enabled
from app.ledger.service import bill_action, charge, ensure_can_pay
from app.memory.service import usage_of
from app.observability.metrics import count_failed_turns
from app.settings import Settings
from app.tenants.service import CurrentTenant


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class ApplyResult:
    inserted: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    retired: list[int] = field(default_factory=list)
    duplicates: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.inserted or self.updated or self.retired)


def store_items(
    session: Session,
    jobs: JobQueue,
    user: EndUser,
    items: Sequence[Extracted],
    *,
    now: datetime,
    batch_id: int | None,
    source: str,
    force_bump: bool = False,
) -> ApplyResult:
    """Reconcile `items` with the user's known facts and store the outcome."""
    stored = {fact.id: fact for fact in repo.active_facts(session, user.id)}
    known = [
        Known(
            id=f.id,
            kind=f.kind,
            slot=f.slot,
            value=f.value,
            text=f.text,
            valid_from=f.valid_from,
            valid_until=f.valid_until,
            happened_on=f.happened_on,
        )
        for f in stored.values()
    ]
    plan = reconcile(known, items, now.date())
    result = ApplyResult(duplicates=plan.duplicates)
    inserted: list[Fact] = []
    for item in plan.inserts:
        fact = Fact(
            tenant_id=user.tenant_id,
            end_user_id=user.id,
            kind=item.kind,
            slot=item.slot,
            value=item.value,
            text=item.text,
            valid_from=item.valid_from,
            valid_until=item.valid_until,
            happened_on=item.on if item.kind == "event" else None,
            said_on=item.said_on,
            batch_id=batch_id,
            source=source,
            created_at=now,
            updated_at=now,
        )
        session.add(fact)
        inserted.append(fact)
    # Every new or reworded fact gets the vector of its new text.
    changed = [*inserted, *(stored[fact_id] for fact_id, _ in plan.updates)]
    texts = [fact.text for fact in inserted] + [item.text for _, item in plan.updates]
    stamped = vectors_for_write(texts, jobs)
    for fact, vector in zip(changed, stamped.vectors, strict=True):
        fact.embedding = vector
        fact.embedding_model = stamped.model if vector is not None else None
    session.flush()
    result.inserted = [fact.id for fact in inserted]
    for fact_id, item in plan.updates:
        fact = stored[fact_id]
        fact.text, fact.value = item.text, item.value
        fact.valid_from, fact.valid_until = item.valid_from, item.valid_until
        fact.updated_at = now
        result.updated.append(fact_id)
    for fact_id, day in plan.ends:
        stored[fact_id].valid_until = day
        stored[fact_id].updated_at = now
        result.updated.append(fact_id)
    for retire in plan.retires:
        fact = stored[retire.fact_id] if retire.fact_id > 0 else inserted[-retire.fact_id - 1]
        fact.status = "retired"
        fact.retired_on = retire.day
        fact.retired_by = inserted[retire.by].id if retire.by is not None else None
        fact.updated_at = now
        result.retired.append(fact.id)
    if result.changed or force_bump:
        repo.bump(user)
    return result


@dataclass
class ExtractionService:
    """Turns in (from chat completions), batches extracted (in a worker)."""

    session: Session
    jobs: JobQueue
    settings: Settings
    indexes: KnowledgeIndexes
    clock: Callable[[], datetime] = utcnow

    def record_turns(
        self,
        tenant: CurrentTenant,
        user_name: str,
        thread: str,
        turns: Sequence[tuple[str, datetime | None]],
    ) -> int:
        """Queue the user's new turns (text, and when said if the client says; else now) for
        extraction in the thread's open batch; the batch's first turn starts its delay.
        Returns the turns added."""
        now = self.clock()
        said = [(text.strip(), when or now) for text, when in turns if text and text.strip()]
        if not said:
            return 0
        user = lock_user(self.session, tenant, user_name, create=True)
        batch = repo.open_batch(self.session, user.id, thread)
        created = batch is None
        if batch is None:
            batch = ExtractionBatch(
                tenant_id=tenant.id,
                end_user_id=user.id,
                thread=thread,
                due_at=now + timedelta(seconds=self.settings.extraction_delay_seconds),
            )
            self.session.add(batch)
            self.session.flush()
        added = repo.add_turns(
            self.session,
            batch,
            [(text, hashlib.sha256(text.encode()).hexdigest(), when) for text, when in said],
        )
        if created:
            self.jobs.add(EXTRACT_BATCH, batch.id)
        return added

    def run_batch(self, batch_id: int, extractor: Extractor) -> float | None:
        """Extract a due batch; returns the seconds still to wait when it is not due yet."""
        peek = self.session.get(ExtractionBatch, batch_id)
        if peek is None or peek.status != "pending":
            return None
        user = repo.lock_user_by_id(self.session, peek.end_user_id)  # the user first, always
        batch = repo.lock_batch(self.session, batch_id)
        if user is None or batch is None or batch.status != "pending":
            return None
        now = self.clock()
        if batch.due_at > now:
            return (batch.due_at - now).total_seconds()
        tenant = tenant_of(self.session, batch.tenant_id)
        if not is_enabled(self.session, tenant.id):
            self._finish(batch, "skipped", None, keep=False)
            record(self.session, tenant, "knowledge.extraction.skipped", ids=[batch.id])
            return None
        turns = repo.turns_of(self.session, batch.id)
        savepoint = self.session.begin_nested()
        try:
            charge(
                self.session,
                tenant,
                route="knowledge.extraction",
                cost=self.settings.price_extraction_turn * len(turns),
                units=len(turns),
            )
        except DossierError as exc:
            savepoint.rollback()
            self._finish(batch, "failed", exc.code, keep=False)
            record(
                self.session,
                tenant,
                "knowledge.extraction.failed",
                ids=[batch.id],
                counts={"turns": len(turns)},
            )
            return None
        savepoint.commit()
        result = self._extract(extractor, user, batch, turns)
        self._finish(
            batch,
            "done",
            None,
            keep=self.settings.extraction_keep_days > 0,
            extractor=extractor.name,
        )
        record(
            self.session,
            tenant,
            "knowledge.extraction",
            ids=[batch.id, *result.inserted],
            counts=_counts(result, turns=len(turns)),
        )
        return None

    def _extract(
        self,
        extractor: Extractor,
        user: EndUser,
        batch: ExtractionBatch,
        turns: Sequence[ExtractionTurn],
        *,
        force_bump: bool = False,
    ) -> ApplyResult:
        """Extract the batch's turns, each dated by when it was said, and store what they state."""
        items = extractor.extract([Turn(t.text, t.said_at.astimezone(UTC).date()) for t in turns])
        return store_items(
            self.session,
            self.jobs,
            user,
            items,
            now=self.clock(),
            batch_id=batch.id,
            source="extracted",
            force_bump=force_bump,
        )

    def rerun_batch(self, batch_id: int, extractor: Extractor) -> None:
        """Re-extract a done batch's kept turns with `extractor` (not billed again)."""
        peek = self.session.get(ExtractionBatch, batch_id)
        if peek is None or peek.status != "done" or peek.extractor == extractor.name:
            return
        user = repo.lock_user_by_id(self.session, peek.end_user_id)
        batch = repo.lock_batch(self.session, batch_id)
        if user is None or batch is None or batch.extractor == extractor.name:
            return
        turns = repo.turns_of(self.session, batch.id)
        if not turns:
            return
        old = repo.facts_of_batch(self.session, batch.id)
        old_ids = [fact.id for fact in old]
        repo.unretire(self.session, old_ids)
        repo.delete_facts(self.session, old)
        result = self._extract(extractor, user, batch, turns, force_bump=True)
        batch.extractor = extractor.name
        drop_or_refuse(self.indexes, user_prefix(str(batch.tenant_id), user.id))
        record(
            self.session,
            tenant_of(self.session, batch.tenant_id),
            "knowledge.reextraction",
            ids=[batch.id, *result.inserted],
            counts={**_counts(result, turns=len(turns)), "replaced": len(old_ids)},
        )

    def _finish(
        self,
        batch: ExtractionBatch,
        status: str,
        error: str | None,
        *,
        keep: bool,
        extractor: str | None = None,
    ) -> None:
        batch.status = status
        batch.error = error
        batch.extractor = extractor
        batch.finished_at = self.clock()
        if not keep:
            repo.delete_turns(self.session, batch.id)


def fail_extraction(session: Session, batch_id: int, reason: str) -> None:
    """An extraction task gave up: a pending batch ends failed with the reason (its turns are
    kept, so re-extraction can read them again), counted in the metrics and the audit log."""
    batch = repo.lock_batch(session, batch_id)
    if batch is not None and batch.status == "pending":
        batch.status, batch.error, batch.finished_at = "failed", reason[:200], utcnow()
        turns = len(repo.turns_of(session, batch.id))
        count_failed_turns(turns)
        record(
            session,
            tenant_of(session, batch.tenant_id),
            "knowledge.extraction.failed",
            ids=[batch.id],
            counts={"turns": turns},
        )


@dataclass
class FactService:
    """A user's facts as the API lists, adds, forgets, promotes and draws them."""

    session: Session
    jobs: JobQueue
    settings: Settings
    indexes: KnowledgeIndexes
    clock: Callable[[], datetime] = utcnow

    def today(self) -> date:
        return self.clock().date()

    def list_facts(
        self,
        tenant: CurrentTenant,
        user_name: str,
        *,
        text: str | None,
        status: str,
        sort: str,
        cursor: str | None,
        limit: int,
    ) -> FactsPage:
        user = repo.find_user(self.session, tenant.id, user_name)
        if user is None:
            return FactsPage(user=user_name, data=[], next_cursor=None)
        rows = repo.list_facts(
            self.session,
            user.id,
            today=self.today(),
            text=text,
            status=status,
            oldest_first=sort == "oldest",
            cursor=_cursor(cursor),
            limit=limit,
        )
        more = len(rows) > limit
        rows = rows[:limit]
        return FactsPage(
            user=user_name,
            data=[self.fact_out(user_name, fact) for fact in rows],
            next_cursor=str(rows[-1].id) if more else None,
        )

    def list_tenant_facts(
        self,
        tenant: CurrentTenant,
        *,
        text: str | None,
        user: str | None,
        status: str,
        sort: str,
        cursor: str | None,
        limit: int,
    ) -> TenantFactsPage:
        """Every end-user's facts in one list (the console's fact list): `text` found in the
        fact or the end-user's id, `user` one end-user, by status, newest, oldest or by user."""
        rows = repo.tenant_facts(
            self.session,
            tenant.id,
            today=self.today(),
            text=text,
            user=user,
            status=status,
            sort=sort,
            after=_tenant_cursor(cursor, by_user=sort == "user"),
            limit=limit,
        )
        more = len(rows) > limit
        rows = rows[:limit]
        next_cursor = None
        if more:
            last, name = rows[-1]
            next_cursor = f"{name}~{last.id}" if sort == "user" else str(last.id)
        return TenantFactsPage(
            data=[self.fact_out(name, fact) for fact, name in rows], next_cursor=next_cursor
        )

    def import_facts(self, tenant: CurrentTenant, user_name: str, body: FactsIn) -> FactsAdded:
        """Facts the caller already knows, reconciled like extracted ones."""
        require_enabled(self.session, tenant)
        ensure_can_pay(tenant)
        user = lock_user(self.session, tenant, user_name, create=True)
        today = self.today()
        items = [
            Extracted(
                kind=fact.kind,
                text=fact.text,
                said_on=today,
                slot=fact.slot,
                value=fact.value,
                valid_from=fact.valid_from,
                valid_until=fact.valid_until,
                on=fact.happened_on,
            )
            for fact in body.facts
        ]
        ledger = charge(
            self.session,
            tenant,
            route="knowledge.facts.import",
            cost=self.settings.price_write * len(items),
            units=len(items),
        )
        result = store_items(
            self.session, self.jobs, user, items, now=self.clock(), batch_id=None, source="imported"
        )
        record(
            self.session,
            tenant,
            "knowledge.facts.import",
            ids=[user.id, *result.inserted],
            counts=_counts(result, facts=len(items)),
        )
        return FactsAdded(
            user=user_name,
            ids=result.inserted,
            updated=result.updated,
            retired=result.retired,
            duplicates=result.duplicates,
            usage=usage_of(ledger),
        )

    def delete_fact(self, tenant: CurrentTenant, user_name: str, fact_id: int) -> FactDeleted:
        """Forget one fact: deleted outright, from retrieval, the graph and every export."""
        user, fact = self._fact(tenant, user_name, fact_id)
        repo.delete_fact(self.session, fact.id)
        repo.bump(user)
        drop_or_refuse(self.indexes, user_prefix(str(tenant.id), user.id))
        ledger = bill_action(
            self.session,
            tenant,
            "knowledge.fact.delete",
            cost=self.settings.price_delete,
            required=False,
            ids=[user.id, fact_id],
            counts={"facts": 1},
        )
        return FactDeleted(user=user_name, deleted=fact_id, usage=usage_of(ledger))

    def promote(
        self, tenant: CurrentTenant, user_name: str, fact_id: int, slugs: Sequence[str]
    ) -> PromoteOut:
        """Move a fact into collections: ingested as a document in each, then removed from
        the user's personal memory."""
        ensure_can_pay(tenant)
        if not documents.collections_of(self.session, tenant.id):
            raise Conflict(
                "there is no collection to promote to: create one first", code="no_collections"
            )
        collections = resolve_collections(
            self.session, tenant, list(dict.fromkeys(slugs)), field="collections"
        )
        user, fact = self._fact(tenant, user_name, fact_id)
        promoted = []
        for collection in collections:
            doc = create_promoted(
                self.session, self.jobs, tenant, collection, _title(fact.text), fact.text
            )
            promoted.append(
                PromotedDocument(
                    collection=collection.slug, id=doc.id, status=doc.status or "processing"
                )
            )
        repo.delete_fact(self.session, fact.id)
        repo.bump(user)
        drop_or_refuse(self.indexes, user_prefix(str(tenant.id), user.id))
        record(
            self.session,
            tenant,
            "knowledge.fact.promote",
            ids=[user.id, fact_id, *(d.id for d in promoted)],
            counts={"collections": len(promoted)},
        )
        return PromoteOut(fact_id=fact_id, documents=promoted)

    def graph(self, tenant: CurrentTenant, user_name: str) -> GraphOut:
        user = repo.find_user(self.session, tenant.id, user_name)
        facts = repo.all_facts(self.session, user.id) if user else []
        nodes, edges = build_graph(facts, self.today())
        return GraphOut(user=user_name, nodes=nodes, edges=edges)

    def fact_out(self, user_name: str, fact: Fact) -> FactOut:
        return FactOut(
            id=fact.id,
            user=user_name,
            kind=fact.kind,
            text=fact.text,
            slot=fact.slot,
            value=fact.value,
            status=fact_status(fact, self.today()),
            valid_from=fact.valid_from,
            valid_until=fact.valid_until,
            happened_on=fact.happened_on,
            said_on=fact.said_on,
            retired_on=fact.retired_on
            or (fact.valid_until if fact_status(fact, self.today()) == "retired" else None),
            source=fact.source,
            created_at=fact.created_at,
            updated_at=fact.updated_at,
        )

    def _fact(self, tenant: CurrentTenant, user_name: str, fact_id: int) -> tuple[EndUser, Fact]:
        user = repo.lock_user(self.session, tenant.id, user_name, create=False)
        fact = repo.get_fact(self.session, user.id, fact_id) if user else None
        if user is None or fact is None:
            raise NotFound(f"end-user '{user_name}' has no fact {fact_id}", field="id")
        return user, fact


@dataclass
class HistoryService:
    """Imports of a user's past conversations (see app.facts.history)."""

    session: Session
    jobs: JobQueue
    clock: Callable[[], datetime] = utcnow

    def import_history(
        self, tenant: CurrentTenant, user_name: str, body: HistoryIn
    ) -> HistoryImportOut:
        """Past conversations with their dates, as an import job."""
        require_enabled(self.session, tenant)
        ensure_can_pay(tenant)
        latest = self.clock() + timedelta(days=1)
        for number, turn in enumerate(body.turns):
            if turn.said_at > latest:
                raise Invalid(
                    f"turns.{number}.said_at: {turn.said_at.isoformat()} is in the future",
                    field=f"turns.{number}.said_at",
                )
        user = lock_user(self.session, tenant, user_name, create=True)
        turns = [PastTurn(t.text, t.said_at, t.thread) for t in body.turns]
        job = start_import(self.session, self.jobs, tenant, user, turns)
        return import_view(self.session, tenant, user_name, job.id)

    def history_import(
        self, tenant: CurrentTenant, user_name: str, import_id: str
    ) -> HistoryImportOut:
        return import_view(self.session, tenant, user_name, import_id)


def lock_user(session: Session, tenant: CurrentTenant, name: str, *, create: bool) -> EndUser:
    """The end-user's row, locked (created first with `create`); a 404 when there is none."""
    user = repo.lock_user(session, tenant.id, name, create=create)
    if user is None:
        raise NotFound(f"no end-user '{name}'", field="user")
    return user


def _counts(result: ApplyResult, **more: int) -> dict[str, int]:
    return {
        **more,
        "added": len(result.inserted),
        "updated": len(result.updated),
        "retired": len(result.retired),
        "duplicates": result.duplicates,
    }


def _cursor(cursor: str | None) -> int | None:
    if cursor is None:
        return None
    if not cursor.isdigit():
        raise Invalid("cursor is not one this API gave out", field="cursor")
    return int(cursor)


_USER_CURSOR = re.compile(r"^([A-Za-z0-9_.@:+-]{1,128})~([0-9]{1,18})$")


def _tenant_cursor(cursor: str | None, *, by_user: bool) -> tuple[str, int] | None:
    """The tenant-wide fact list's cursor: `<end-user>~<fact id>` by user, else a fact id."""
    if cursor is None:
        return None
    if by_user:
        found = _USER_CURSOR.match(cursor)
        if found is None:
            raise Invalid("cursor is not one this API gave out", field="cursor")
        return found.group(1), int(found.group(2))
    if not cursor.isdigit() or len(cursor) > 18:
        raise Invalid("cursor is not one this API gave out", field="cursor")
    return "", int(cursor)


def _title(text: str) -> str:
    first = " ".join(text.split())
    return first if len(first) <= 80 else first[:77] + "..."
