"""Blended retrieval: one search over an end-user's current facts and the tenant's collections.

Each source has its own lexical index (app.recall.engine): the user's facts that hold today,
and each collection's chunks. The query goes to each, and the hits are merged by score, so the
most relevant facts and passages come first whichever source holds them. `sources` groups the
hits: one entry per document, one for the user's facts, ordered by their best hit.

A failure here is an error for the caller: a request that asked for context is never answered
without it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import psycopg
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from app.errors import ServiceUnavailable
from app.knowledge import repository as repo
from app.knowledge.indexes import KnowledgeIndexes, chunks_key, facts_key
from app.knowledge.models import Collection, EndUser
from app.recall.engine import RecallOptions, recall

log = logging.getLogger(__name__)

MIN_SHARE = 0.1
"""A hit is kept when it reaches this share of the best hit's score."""


@dataclass(frozen=True)
class KnowledgeHit:
    type: str  # "fact" or "passage"
    id: int
    text: str
    score: float
    document_id: int | None = None
    collection: str | None = None
    title: str | None = None
    source: str | None = None

    def to_json(self, user: str | None) -> dict[str, Any]:
        if self.type == "fact":
            return {
                "type": "fact",
                "id": self.id,
                "user": user,
                "text": self.text,
                "score": round(self.score, 4),
            }
        return {
            "type": "passage",
            "id": self.id,
            "document_id": self.document_id,
            "collection": self.collection,
            "title": self.title,
            "source": self.source,
            "text": self.text,
            "score": round(self.score, 4),
        }


@dataclass
class Retrieved:
    hits: list[KnowledgeHit] = field(default_factory=list)
    searched: bool = False
    user: str | None = None

    def sources(self) -> list[dict[str, Any]]:
        """One entry per document, one grouped entry for facts; by best score."""
        groups: dict[tuple[str, int], dict[str, Any]] = {}
        for hit in self.hits:
            if hit.type == "fact":
                key = ("facts", 0)
                entry = groups.setdefault(
                    key, {"type": "facts", "user": self.user, "fact_ids": [], "score": hit.score}
                )
                entry["fact_ids"].append(hit.id)
            else:
                key = ("document", hit.document_id or 0)
                entry = groups.setdefault(
                    key,
                    {
                        "type": "document",
                        "collection": hit.collection,
                        "document_id": hit.document_id,
                        "title": hit.title,
                        "source": hit.source,
                        "passages": 0,
                        "score": hit.score,
                    },
                )
                entry["passages"] += 1
            entry["score"] = max(entry["score"], hit.score)
        ordered = sorted(groups.values(), key=lambda e: -e["score"])
        for entry in ordered:
            entry["score"] = round(entry["score"], 4)
        return ordered

    @property
    def fact_ids(self) -> list[int]:
        return [h.id for h in self.hits if h.type == "fact"]

    @property
    def chunk_ids(self) -> list[int]:
        return [h.id for h in self.hits if h.type == "passage"]


def search(
    session: Session,
    indexes: KnowledgeIndexes,
    *,
    tenant_id: str,
    query: str,
    user: EndUser | None,
    collections: Sequence[Collection],
    today: date,
    top_k: int = 8,
) -> list[KnowledgeHit]:
    """The best `top_k` facts and passages for `query`, best first."""
    try:
        return _search(session, indexes, tenant_id, query, user, collections, today, top_k)
    except (SQLAlchemyError, psycopg.Error, OSError) as exc:
        log.exception("knowledge retrieval failed")
        raise ServiceUnavailable(
            "knowledge retrieval failed, so the request was not answered without the context "
            "it asked for; try again",
            code="retrieval_failed",
        ) from exc


def _search(
    session: Session,
    indexes: KnowledgeIndexes,
    tenant_id: str,
    query: str,
    user: EndUser | None,
    collections: Sequence[Collection],
    today: date,
    top_k: int,
) -> list[KnowledgeHit]:
    options = RecallOptions(top_k=top_k, min_share=0.05, use_names=False, use_question_words=False)
    scored: list[tuple[float, str, int, int]] = []  # score, type, row id, source pk
    if user is not None:
        user_pk = user.id
        index, ids = indexes.get(
            facts_key(tenant_id, user.id, user.version, today),
            lambda: repo.retrievable_facts(session, user_pk, today),
        )
        for hit in recall(index, state=query, question="", names=(), options=options):
            scored.append((hit.score, "fact", ids[hit.index], user.id))
    for collection in collections:
        collection_pk = collection.id
        index, ids = indexes.get(
            chunks_key(tenant_id, collection.id, collection.version),
            lambda pk=collection_pk: repo.chunk_texts(session, pk),  # type: ignore[misc]
        )
        for hit in recall(index, state=query, question="", names=(), options=options):
            scored.append((hit.score, "passage", ids[hit.index], collection.id))
    if not scored:
        return []
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    best = scored[0][0]
    kept = [s for s in scored if s[0] >= best * MIN_SHARE][:top_k]
    return _load(session, kept, {c.id: c.slug for c in collections})


def _load(
    session: Session, kept: list[tuple[float, str, int, int]], slugs: dict[int, str]
) -> list[KnowledgeHit]:
    facts = {f.id: f for f in repo.facts_by_ids(session, [s[2] for s in kept if s[1] == "fact"])}
    chunks = {
        chunk.id: (chunk, doc)
        for chunk, doc in repo.chunks_by_ids(session, [s[2] for s in kept if s[1] == "passage"])
    }
    hits = []
    for score, kind, row_id, source_pk in kept:
        if kind == "fact" and row_id in facts:
            hits.append(KnowledgeHit("fact", row_id, facts[row_id].text, score))
        elif kind == "passage" and row_id in chunks:
            chunk, doc = chunks[row_id]
            hits.append(
                KnowledgeHit(
                    "passage",
                    row_id,
                    chunk.text,
                    score,
                    document_id=doc.id,
                    collection=slugs.get(source_pk),
                    title=doc.title,
                    source=doc.source,
                )
            )
    return hits
