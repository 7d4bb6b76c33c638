"""The per-tenant knowledge switch, which facts, documents and chat all read: on or off, and
turning it off with what it holds kept or deleted.

Below the rooms rather than in `app.knowledge.service`: facts' and documents' services ask
whether knowledge is on, and `app.knowledge.service` composes those services, so the switch
imports only the rooms' repositories and nothing imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from app.audit.service import record
from app.documents import repository as documents
from app.errors import Conflict, Invalid
from app.facts import repository as facts
from app.knowledge import repository as repo
from app.knowledge.indexes import KnowledgeIndexes, drop_or_refuse
from app.knowledge.retrieval import TOP_K
from app.knowledge.schemas import RetrievalOut, SettingsIn, SettingsOut
from app.settings import Settings
from app.tenants.service import CurrentTenant


def utcnow() -> datetime:
    return datetime.now(UTC)


def is_enabled(session: Session, tenant: CurrentTenant) -> bool:
    return repo.is_enabled(session, tenant.id)


def require_enabled(session: Session, tenant: CurrentTenant) -> None:
    """A write of knowledge while it is off is refused (409), naming the switch."""
    if not is_enabled(session, tenant):
        raise Conflict(
            "knowledge is off for this tenant: turn it on with PUT /v1/knowledge/settings",
            code="knowledge_off",
        )


@dataclass
class SwitchService:
    session: Session
    settings: Settings
    indexes: KnowledgeIndexes
    clock: Callable[[], datetime] = utcnow

    def read_settings(self, tenant: CurrentTenant) -> SettingsOut:
        return SettingsOut(
            enabled=repo.is_enabled(self.session, tenant.id), retrieval=self._retrieval()
        )

    def _retrieval(self) -> RetrievalOut:
        return RetrievalOut(top_k=TOP_K, embeddings=self.settings.embeddings)

    def put_settings(self, tenant: CurrentTenant, body: SettingsIn) -> SettingsOut:
        if body.enabled and body.on_disable is not None:
            raise Invalid("on_disable goes only with enabled: false", field="on_disable")
        row = repo.settings_row(self.session, tenant.id, lock=True)
        deleted: dict[str, int] | None = None
        if not body.enabled and self._holds_knowledge(tenant):
            if body.on_disable is None:
                raise Invalid(
                    'knowledge holds facts or collections: send "on_disable": "keep" to keep '
                    'them for when it is on again, or "delete" to delete every fact and '
                    "document for good; nothing was changed",
                    field="on_disable",
                    code="on_disable_required",
                )
            if body.on_disable == "delete":
                deleted = self._delete_everything(tenant)
        changed = row.enabled != body.enabled
        row.enabled = body.enabled
        row.updated_at = self.clock()
        record(
            self.session,
            tenant,
            "knowledge.settings",
            counts={"enabled": int(body.enabled), "changed": int(changed), **(deleted or {})},
        )
        return SettingsOut(enabled=body.enabled, deleted=deleted)

    def _holds_knowledge(self, tenant: CurrentTenant) -> bool:
        return facts.has_facts(self.session, tenant.id) or documents.has_collections(
            self.session, tenant.id
        )

    def _delete_everything(self, tenant: CurrentTenant) -> dict[str, int]:
        fact_count = facts.count_facts_of(self.session, tenant.id)
        document_count = documents.count_documents_of(self.session, tenant.id)
        users = facts.delete_users_of(self.session, tenant.id)
        collections = documents.delete_collections_of(self.session, tenant.id)
        drop_or_refuse(self.indexes, f"dossier:kfacts:{tenant.id}:")
        drop_or_refuse(self.indexes, f"dossier:kdocs:{tenant.id}:")
        return {
            "facts": fact_count,
            "documents": document_count,
            "users": users,
            "collections": collections,
        }

    def enabled(self, tenant: CurrentTenant) -> bool:
        return is_enabled(self.session, tenant)
