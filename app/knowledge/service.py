"""What composes the rooms: blended retrieval over a user's facts and the workspace's
documents (`RetrievalService`, for `/v1/knowledge/search`, chat completions and MCP), and an
end-user as a whole under the GDPR (`EndUserService`: export, erasure), whose data is facts
today and, through chat, batch items and retried answers too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from app.audit.service import record
from app.batches import repository as batch_items
from app.documents import repository as documents
from app.documents.models import Collection
from app.documents.service import resolve_collections
from app.embeddings import current_embedder
from app.facts import repository as facts
from app.facts.schemas import FactsPage
from app.facts.service import FactService
from app.idempotency import repository as idempotent_answers
from app.jobs.names import ERASE_USER_CACHES
from app.jobs.outbox import JobQueue
from app.knowledge.indexes import KnowledgeIndexes, drop_or_refuse, user_prefix
from app.knowledge.retrieval import Retrieved, search
from app.knowledge.schemas import SearchIn, SearchOut, UserErased
from app.knowledge.switch import is_enabled, utcnow
from app.ledger.service import bill_action, charge
from app.memory.service import usage_of
from app.settings import Settings
from app.tenants.service import CurrentTenant


@dataclass
class RetrievalService:
    """Blended retrieval: charged once when it runs, recorded in the audit log."""

    session: Session
    settings: Settings
    indexes: KnowledgeIndexes
    clock: Callable[[], datetime] = utcnow

    def today(self) -> date:
        return self.clock().date()

    def enabled(self, tenant: CurrentTenant) -> bool:
        return is_enabled(self.session, tenant)

    def resolve_collections(
        self, tenant: CurrentTenant, slugs: Sequence[str] | None, *, field: str = "collection"
    ) -> list[Collection]:
        return resolve_collections(self.session, tenant, slugs, field=field)

    def retrieve(
        self,
        tenant: CurrentTenant,
        *,
        query: str,
        user_name: str | None,
        collections: list[Collection] | None,
        personal: bool,
        top_k: int,
        route: str,
        semantic: bool = True,
        thread: str | None = None,
    ) -> tuple[Retrieved, Any]:
        """Blended retrieval when there is something to consult (a user, or a ready document
        in scope); charged once when it runs, found anything or not, on a ledger line that
        carries the call's `thread`. Returns the result and the ledger line (None when nothing
        was searched)."""
        scope = (
            collections
            if collections is not None
            else documents.collections_of(self.session, tenant.id)
        )
        user = (
            facts.find_user(self.session, tenant.id, user_name) if personal and user_name else None
        )
        has_documents = bool(scope) and documents.ready_documents_exist(
            self.session, [c.id for c in scope], tenant.id
        )
        if not (personal and user_name) and not has_documents:
            return Retrieved(searched=False, user=user_name), None
        ledger = charge(
            self.session, tenant, route=route, cost=self.settings.price_retrieval, thread=thread
        )
        hits = search(
            self.session,
            self.indexes,
            tenant_id=str(tenant.id),
            query=query,
            user=user,
            collections=scope if has_documents else [],
            today=self.today(),
            top_k=top_k,
            embedder=current_embedder() if semantic else None,
        )
        result = Retrieved(hits=hits, searched=True, user=user_name)
        record(
            self.session,
            tenant,
            "knowledge.retrieval",
            ids=[*result.fact_ids, *result.chunk_ids],
            counts={"facts": len(result.fact_ids), "passages": len(result.chunk_ids)},
        )
        return result, ledger

    def search(self, tenant: CurrentTenant, body: SearchIn) -> SearchOut:
        slugs = [body.collection] if isinstance(body.collection, str) else body.collection
        collections = self.resolve_collections(tenant, slugs) if slugs is not None else None
        if not self.enabled(tenant):
            return SearchOut(data=[], sources=[], searched=False)
        result, ledger = self.retrieve(
            tenant,
            query=body.query,
            user_name=body.user,
            collections=collections,
            personal=True,
            top_k=body.top_k,
            route="knowledge.search",
            semantic=body.semantic,
        )
        return SearchOut(
            data=[hit.to_json(body.user) for hit in result.hits],
            sources=result.sources(),
            searched=result.searched,
            usage=usage_of(ledger) if ledger is not None else None,
        )


@dataclass
class EndUserService:
    """An end-user under the GDPR: everything held about them (Article 15), and all of it
    erased at once (Article 17)."""

    session: Session
    jobs: JobQueue
    settings: Settings
    indexes: KnowledgeIndexes
    clock: Callable[[], datetime] = utcnow

    def export(
        self, tenant: CurrentTenant, user_name: str, cursor: str | None, limit: int
    ) -> FactsPage:
        """Every fact of the user, active and retired, oldest first (GDPR Article 15)."""
        listed = FactService(self.session, self.jobs, self.settings, self.indexes, self.clock)
        page = listed.list_facts(
            tenant, user_name, text=None, status="all", sort="oldest", cursor=cursor, limit=limit
        )
        user = facts.find_user(self.session, tenant.id, user_name)
        record(
            self.session,
            tenant,
            "knowledge.user.export",
            ids=[user.id] if user else [],
            counts={"facts": len(page.data)},
        )
        return page

    def erase_user(self, tenant: CurrentTenant, user_name: str) -> UserErased:
        """Erase every fact of the user at once and for good: rows, pending extraction, cached
        indexes, their chat requests in batches. Synchronous: when this returns, nothing of
        theirs is left to find (but for a batch chunk running their request at this moment,
        which the next erasure or the batch's deletion takes)."""
        user = facts.lock_user(self.session, tenant.id, user_name, create=False)
        counts = {"facts": 0, "pending_turns": 0, "cache_keys": 0, "batch_items": 0}
        if user is not None:
            counts.update(facts.count_user_rows(self.session, user.id))
            facts.delete_user(self.session, user.id)
            counts["cache_keys"] = drop_or_refuse(
                self.indexes, user_prefix(str(tenant.id), user.id)
            )
            # A reader that built an index from the rows before this commit could cache it
            # after the drop above: drop once more once the deletion has committed.
            self.jobs.add(ERASE_USER_CACHES, str(tenant.id), user.id)
        # Held under the user's id whether or not they have facts: what a retried write
        # answered, and their chat requests and answers in batches.
        idempotent_answers.forget_end_user(self.session, tenant.id, user_name)
        counts["batch_items"] = batch_items.delete_end_user_items(
            self.session, tenant.id, user_name
        )
        ledger = bill_action(
            self.session,
            tenant,
            "knowledge.user.erase",
            cost=self.settings.price_delete,
            required=False,
            ids=[user.id] if user else [],
            counts=counts,
        )
        return UserErased(user=user_name, deleted=counts, usage=usage_of(ledger))
