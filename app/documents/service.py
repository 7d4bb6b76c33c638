"""Collections and their documents: create, rename, delete; add documents as pasted text or
uploaded files; read them in the background (the ingest queue) into chunks retrieval ranks.
One service a concern: `CollectionService`, `DocumentService`, `IngestService`; and
`meter_storage`, which beat runs to bill what the ready documents hold.

A document belongs to the collection it was added to for good: its chunks are stored under
that collection, so there is no move (delete it and add it where it belongs).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sqlalchemy.orm import Session

from app.audit.service import record
from app.documents import repository as repo
from app.documents.models import Collection, Document
from app.documents.parsing import Unreadable, chunk_text, media_type_of, read_text, slugify
from app.documents.schemas import (
    CollectionDeleted,
    CollectionDeletedCounts,
    CollectionIn,
    CollectionOut,
    CollectionsOut,
    DocumentDeleted,
    DocumentOut,
    DocumentPatch,
    DocumentsOut,
    DocumentTextIn,
)
from app.embeddings.storage import passage_for_meaning, vectors_for_write
from app.errors import Conflict, DossierError, Invalid, NotFound
from app.jobs.names import INGEST_DOCUMENT
from app.jobs.outbox import JobQueue
from app.knowledge import repository as knowledge
from app.knowledge.indexes import KnowledgeIndexes, drop_collection_caches
from app.ledger.service import bill_action, charge, ensure_can_pay
from app.settings import Settings
from app.tenants.service import CurrentTenant

log = logging.getLogger(__name__)

MONTH = timedelta(days=30)


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Upload:
    filename: str
    content_type: str | None
    data: bytes


@dataclass
class CollectionService:
    """Collections: create, list, rename, delete."""

    session: Session
    settings: Settings
    indexes: KnowledgeIndexes

    def create(self, tenant: CurrentTenant, body: CollectionIn) -> CollectionOut:
        ensure_can_pay(tenant)
        slug = slugify(body.name)
        if not slug:
            raise Invalid("a collection's name needs at least one letter or digit", field="name")
        if repo.collection_by_slug(self.session, tenant.id, slug) is not None:
            raise Conflict(
                f"there is already a collection '{slug}'", field="name", code="collection_exists"
            )
        collection = repo.add_collection(self.session, tenant.id, slug, body.name)
        record(self.session, tenant, "knowledge.collection.create", ids=[collection.id])
        return _collection_out(collection, 0)

    def all(self, tenant: CurrentTenant) -> CollectionsOut:
        counts = repo.document_counts(self.session, tenant.id)
        return CollectionsOut(
            data=[
                _collection_out(c, counts.get(c.id, 0))
                for c in repo.collections_of(self.session, tenant.id)
            ]
        )

    def rename(self, tenant: CurrentTenant, slug: str, body: CollectionIn) -> CollectionOut:
        """Only the display name changes: the slug is what requests send, so it stays."""
        collection = find_collection(self.session, tenant, slug, lock=True)
        # Two collections showing one name could not be told apart in the console or a sources
        # list; the slug stays unique on its own.
        if repo.collection_named(self.session, tenant.id, body.name, other_than=collection.id):
            raise Conflict(
                f"another collection is already called '{body.name}'",
                field="name",
                code="collection_name_taken",
            )
        collection.name = body.name
        record(self.session, tenant, "knowledge.collection.rename", ids=[collection.id])
        return _collection_out(collection, repo.count_documents(self.session, collection.id))

    def delete(self, tenant: CurrentTenant, slug: str) -> CollectionDeleted:
        collection = find_collection(self.session, tenant, slug, lock=True)
        documents = repo.count_documents(self.session, collection.id)
        repo.delete_collection(self.session, collection)
        drop_collection_caches(self.indexes, str(tenant.id), collection.id)
        bill_action(
            self.session,
            tenant,
            "knowledge.collection.delete",
            cost=self.settings.price_delete,
            required=False,
            ids=[collection.id],
            counts={"documents": documents},
        )
        return CollectionDeleted(slug=slug, deleted=CollectionDeletedCounts(documents=documents))


@dataclass
class DocumentService:
    """A collection's documents: add (pasted or uploaded), list, read, rename, delete."""

    session: Session
    jobs: JobQueue
    settings: Settings
    indexes: KnowledgeIndexes

    def add(
        self,
        tenant: CurrentTenant,
        slug: str,
        *,
        pasted: DocumentTextIn | None,
        files: Sequence[Upload],
    ) -> list[DocumentOut]:
        """Every file and the pasted text become a document each, in one go; a file Dossier
        cannot take refuses the whole request (422 naming it) and adds nothing."""
        ensure_can_pay(tenant)
        collection = find_collection(self.session, tenant, slug, lock=False)
        if pasted is None and not files:
            raise Invalid("send a title and text, or one or more files", field="files")
        new: list[Document] = []
        if pasted is not None:
            raw = pasted.text.encode()
            self._check_size(len(raw), "text", "the pasted text")
            new.append(
                self._document(tenant, collection, pasted.title, pasted.source, None, "text", raw)
            )
        for number, upload in enumerate(files):
            where = f"files[{number}]"
            kind = media_type_of(upload.filename, upload.content_type)
            if kind is None:
                raise Invalid(
                    f"'{upload.filename}' is not a PDF, .txt or .md file; nothing was added",
                    field=where,
                    code="unsupported_file",
                )
            self._check_size(len(upload.data), where, f"'{upload.filename}'")
            title = upload.filename.rsplit("/", 1)[-1] or "untitled"
            new.append(
                self._document(
                    tenant, collection, title[:300], None, upload.filename[:300], kind, upload.data
                )
            )
        self.session.flush()
        for doc in new:
            self.jobs.add(INGEST_DOCUMENT, doc.id)
        record(
            self.session,
            tenant,
            "knowledge.document.add",
            ids=[d.id for d in new],
            counts={"documents": len(new)},
        )
        return [_document_out(doc, collection.slug) for doc in new]

    def documents(
        self, tenant: CurrentTenant, slug: str, cursor: str | None, limit: int
    ) -> DocumentsOut:
        collection = find_collection(self.session, tenant, slug, lock=False)
        if cursor is not None and not cursor.isdigit():
            raise Invalid("cursor is not one this API gave out", field="cursor")
        rows = repo.documents_of(
            self.session, collection.id, int(cursor) if cursor else None, limit
        )
        more = len(rows) > limit
        rows = rows[:limit]
        return DocumentsOut(
            data=[_document_out(doc, slug) for doc in rows],
            next_cursor=str(rows[-1].id) if more else None,
        )

    def get(self, tenant: CurrentTenant, slug: str, document_id: int) -> DocumentOut:
        collection = find_collection(self.session, tenant, slug, lock=False)
        return _document_out(document_of(self.session, collection, document_id), slug)

    def patch(
        self, tenant: CurrentTenant, slug: str, document_id: int, body: DocumentPatch
    ) -> DocumentOut:
        collection = find_collection(self.session, tenant, slug, lock=body.title is not None)
        doc = document_of(self.session, collection, document_id)
        if body.title is not None and body.title != doc.title:
            doc.title = body.title
            self._reembed(tenant, collection, doc)
        if "source" in body.model_fields_set:
            doc.source = body.source or None
        record(self.session, tenant, "knowledge.document.update", ids=[doc.id])
        return _document_out(doc, slug)

    def _reembed(self, tenant: CurrentTenant, collection: Collection, doc: Document) -> None:
        """A chunk's vector is made under its document's title (passage_for_meaning): a new
        title makes new vectors, so the old title lives on in none, and searches read them
        from the next collection version."""
        chunks = repo.chunks_of(self.session, doc.id)
        if not chunks:
            return
        passages = [passage_for_meaning(doc.title, chunk.text) for chunk in chunks]
        stamped = vectors_for_write(passages, self.jobs)
        for chunk, vector in zip(chunks, stamped.vectors, strict=True):
            chunk.embedding = vector
            chunk.embedding_model = stamped.model if vector is not None else None
        repo.bump(collection)
        drop_collection_caches(self.indexes, str(tenant.id), collection.id)

    def delete_document(
        self, tenant: CurrentTenant, slug: str, document_id: int
    ) -> DocumentDeleted:
        collection = find_collection(self.session, tenant, slug, lock=True)
        doc = document_of(self.session, collection, document_id)
        was_ready = doc.status == "ready"
        repo.delete_document(self.session, doc)
        if was_ready:
            repo.bump(collection)
            drop_collection_caches(self.indexes, str(tenant.id), collection.id)
        bill_action(
            self.session,
            tenant,
            "knowledge.document.delete",
            cost=self.settings.price_delete,
            required=False,
            ids=[document_id],
        )
        return DocumentDeleted(id=document_id, deleted=True)

    def _document(
        self,
        tenant: CurrentTenant,
        collection: Collection,
        title: str,
        source: str | None,
        filename: str | None,
        kind: str,
        raw: bytes,
    ) -> Document:
        doc = Document(
            tenant_id=tenant.id,
            collection_id=collection.id,
            title=title,
            source=source,
            filename=filename,
            media_type=kind,
            status="processing",
            size_bytes=len(raw),
            raw=raw,
        )
        self.session.add(doc)
        return doc

    def _check_size(self, size: int, where: str, what: str) -> None:
        most = self.settings.document_max_bytes
        if size > most:
            raise Invalid(
                f"{what} has {size} bytes, more than {most} ({most // (1024 * 1024)} MB); "
                "nothing was added",
                field=where,
                code="file_too_large",
            )


@dataclass
class IngestService:
    """Reading a document into chunks, in a worker; and its end when its task gives up."""

    session: Session
    jobs: JobQueue
    settings: Settings
    indexes: KnowledgeIndexes
    clock: Callable[[], datetime] = utcnow

    def ingest(self, document_id: int) -> None:
        """Read, chunk and index a processing document; safe to run twice."""
        peek = self.session.get(Document, document_id)
        if peek is None or peek.status != "processing":
            return
        collection = repo.lock_collection(self.session, peek.collection_id)
        doc = repo.lock_document(self.session, document_id)
        if collection is None or doc is None or doc.status != "processing":
            return
        tenant = knowledge.tenant_of(self.session, doc.tenant_id)
        try:
            text = read_text(doc.raw or b"", doc.media_type)
        except Unreadable as exc:
            self._fail(tenant, doc, str(exc))
            return
        chunks = chunk_text(text)
        tokens = sum(chunk.tokens for chunk in chunks)
        savepoint = self.session.begin_nested()
        try:
            charge(
                self.session,
                tenant,
                route="knowledge.ingest",
                cost=(self.settings.price_ingest_per_1k_tokens * tokens / 1000).quantize(
                    Decimal("0.000001")
                ),
                units=tokens,
            )
        except DossierError as exc:
            savepoint.rollback()
            self._fail(tenant, doc, f"not ingested: {exc.message}")
            return
        savepoint.commit()
        texts = [passage_for_meaning(doc.title, c.text) for c in chunks]
        repo.replace_chunks(
            self.session,
            doc,
            [(c.text, c.tokens) for c in chunks],
            vectors_for_write(texts, self.jobs),
        )
        doc.status, doc.tokens, doc.raw, doc.error = "ready", tokens, None, None
        doc.finished_at = self.clock()
        repo.bump(collection)
        drop_collection_caches(self.indexes, str(tenant.id), collection.id)
        record(
            self.session,
            tenant,
            "knowledge.ingest",
            ids=[doc.id],
            counts={"chunks": len(chunks), "tokens": tokens},
        )

    def fail(self, document_id: int, reason: str) -> None:
        """End a processing document failed (its task gave up); a finished one is left alone."""
        doc = repo.lock_document(self.session, document_id)
        if doc is not None and doc.status == "processing":
            self._fail(
                knowledge.tenant_of(self.session, doc.tenant_id), doc, f"not ingested: {reason}"
            )

    def _fail(self, tenant: CurrentTenant, doc: Document, reason: str) -> None:
        doc.status, doc.error, doc.raw = "failed", reason, None
        doc.finished_at = self.clock()
        record(self.session, tenant, "knowledge.ingest.failed", ids=[doc.id])


def meter_storage(session: Session, settings: Settings, now: datetime | None = None) -> int:
    """Charge each tenant for the tokens its ready documents hold, per month and pro rata,
    beyond the free allowance; at most once per `storage_meter_seconds`. Returns tenants
    charged."""
    now = now or datetime.now(UTC)
    charged = 0
    for tenant_id, tokens in repo.stored_tokens(session):
        row = knowledge.settings_row(session, tenant_id, lock=True)
        last = row.storage_metered_at
        row.storage_metered_at = now if last is None else last
        if last is None:
            continue
        elapsed = (now - last).total_seconds()
        if elapsed < settings.storage_meter_seconds:
            continue
        row.storage_metered_at = now
        billable = max(0, tokens - settings.storage_free_tokens)
        if billable == 0:
            continue
        months = Decimal(elapsed) / Decimal(MONTH.total_seconds())
        cost = (settings.price_storage_per_1k_tokens_month * billable / 1000 * months).quantize(
            Decimal("0.000001")
        )
        tenant = knowledge.tenant_of(session, tenant_id)
        bill_action(
            session,
            tenant,
            "knowledge.storage",
            cost=cost,
            units=billable,
            required=False,
            counts={"tokens": tokens, "billable": billable},
        )
        charged += 1
    return charged


def _collection_out(collection: Collection, documents: int) -> CollectionOut:
    return CollectionOut(
        slug=collection.slug,
        name=collection.name,
        documents=documents,
        created_at=collection.created_at or datetime.now(UTC),
    )


def _document_out(doc: Document, slug: str) -> DocumentOut:
    return DocumentOut(
        id=doc.id,
        collection=slug,
        title=doc.title,
        source=doc.source,
        filename=doc.filename,
        media_type=doc.media_type,
        status=doc.status or "processing",
        error=doc.error,
        size_bytes=doc.size_bytes,
        tokens=doc.tokens or 0,
        created_at=doc.created_at or datetime.now(UTC),
        finished_at=doc.finished_at,
    )


def find_collection(
    session: Session, tenant: CurrentTenant, slug: str, *, lock: bool
) -> Collection:
    collection = repo.collection_by_slug(session, tenant.id, slug, lock=lock)
    if collection is None:
        raise NotFound(f"there is no collection '{slug}'", field="slug")
    return collection


def document_of(session: Session, collection: Collection, document_id: int) -> Document:
    doc = repo.document(session, collection.id, document_id)
    if doc is None:
        raise NotFound(f"collection '{collection.slug}' has no document {document_id}", field="id")
    return doc


def resolve_collections(
    session: Session,
    tenant: CurrentTenant,
    slugs: Sequence[str] | None,
    *,
    field: str = "collection",
) -> list[Collection]:
    """The named collections (a 422 names the first the tenant does not have), or every
    collection when none is named."""
    if slugs is None:
        return repo.collections_of(session, tenant.id)
    found = {c.slug: c for c in repo.collections_by_slugs(session, tenant.id, slugs)}
    for slug in slugs:
        if slug not in found:
            raise Invalid(
                f"there is no collection '{slug}' in this workspace",
                field=field,
                code="unknown_collection",
            )
    return [found[slug] for slug in slugs]


def create_promoted(
    session: Session,
    jobs: JobQueue,
    tenant: CurrentTenant,
    collection: Collection,
    title: str,
    text: str,
) -> Document:
    """A promoted fact's document in `collection`, queued for ingest (app.facts' promote)."""
    raw = text.encode()
    doc = Document(
        tenant_id=tenant.id,
        collection_id=collection.id,
        title=title,
        source="promoted fact",
        media_type="text",
        size_bytes=len(raw),
        raw=raw,
    )
    session.add(doc)
    session.flush()
    jobs.add(INGEST_DOCUMENT, doc.id)
    return doc
