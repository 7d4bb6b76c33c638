"""Blended retrieval: one search over an end-user's current facts and the tenant's collections.

Each source has its own lexical index (app.recall.index) and, with meaning on, its rows'
vectors: the user's facts that hold today, and each collection's chunks. The query goes to
each, and the candidates are fused across sources (app.recall.hybrid: the lexical part is a
share of the best lexical score over all sources, the semantic part the cosine above the
floor), so the most relevant facts and passages come first whichever source holds them. With
meaning off, the lexical scores are merged as they are. `sources` groups the
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

from app.documents import repository as documents
from app.documents.models import Collection
from app.embeddings import Embedder
from app.embeddings.base import Matrix
from app.errors import ServiceUnavailable
from app.facts import repository as facts
from app.facts.models import EndUser
from app.knowledge.indexes import Entry, KnowledgeIndexes, chunks_key, facts_key
from app.recall.hybrid import (
    CANDIDATES,
    Fused,
    Meaning,
    candidate_options,
    cosines,
    fuse,
    select,
)
from app.recall.scoring import RecallOptions, recall

log = logging.getLogger(__name__)

TOP_K = 8
"""Facts and passages a chat completion's retrieval puts before the conversation."""

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
    why: Fused | None = None
    """With meaning on: the lexical and semantic parts of the score."""

    def to_json(self, user: str | None) -> dict[str, Any]:
        why = (
            {"lexical": round(self.why.lexical, 4), "semantic": round(self.why.semantic, 4)}
            if self.why is not None
            else {}
        )
        if self.type == "fact":
            return {
                "type": "fact",
                "id": self.id,
                "user": user,
                "text": self.text,
                "score": round(self.score, 4),
                **why,
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
            **why,
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


Kept = tuple[float, str, int, int, Fused | None]
"""score, type ("fact" or "passage"), row id, source pk, and the fused parts."""


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
    embedder: Embedder | None = None,
) -> list[KnowledgeHit]:
    """The best `top_k` facts and passages for `query`, best first; by words and meaning when
    an `embedder` is given, else by words."""
    try:
        sources = _sources(session, indexes, tenant_id, user, collections, today, embedder)
        if embedder is None:
            kept = _lexical(sources, query, top_k)
        else:
            kept = _hybrid(sources, query, embedder.encode([query])[0], top_k)
        return _load(session, kept, {c.id: c.slug for c in collections})
    except (SQLAlchemyError, psycopg.Error, OSError) as exc:
        log.exception("knowledge retrieval failed")
        raise ServiceUnavailable(
            "knowledge retrieval failed, so the request was not answered without the context "
            "it asked for; try again",
            code="retrieval_failed",
        ) from exc


@dataclass(frozen=True, slots=True)
class _Source:
    kind: str  # "fact" or "passage"
    pk: int  # the user's or the collection's row id
    entry: Entry


def _sources(
    session: Session,
    indexes: KnowledgeIndexes,
    tenant_id: str,
    user: EndUser | None,
    collections: Sequence[Collection],
    today: date,
    embedder: Embedder | None,
) -> list[_Source]:
    sources = []
    if user is not None:
        user_pk = user.id
        entry = indexes.get(
            facts_key(tenant_id, user.id, user.version, today),
            lambda: facts.retrievable_facts(session, user_pk, today),
            embedder,
        )
        sources.append(_Source("fact", user.id, entry))
    for collection in collections:
        collection_pk = collection.id
        entry = indexes.get(
            chunks_key(tenant_id, collection.id, collection.version),
            lambda pk=collection_pk: documents.chunk_texts(session, pk),  # type: ignore[misc]
            embedder,
        )
        sources.append(_Source("passage", collection.id, entry))
    return sources


def _options(top_k: int) -> RecallOptions:
    return RecallOptions(top_k=top_k, min_share=0.05, use_names=False, use_question_words=False)


def _lexical(sources: list[_Source], query: str, top_k: int) -> list[Kept]:
    scored: list[Kept] = []
    for source in sources:
        entry = source.entry
        for hit in recall(entry.index, state=query, question="", names=(), options=_options(top_k)):
            scored.append((hit.score, source.kind, entry.ids[hit.index], source.pk, None))
    if not scored:
        return []
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    best = scored[0][0]
    return [s for s in scored if s[0] >= best * MIN_SHARE][:top_k]


def _hybrid(sources: list[_Source], query: str, query_vector: Matrix, top_k: int) -> list[Kept]:
    lexical: dict[tuple[int, int], float] = {}
    cosine: dict[tuple[int, int], float] = {}
    unembedded: set[tuple[int, int]] = set()
    most = max(CANDIDATES, top_k)
    for n, source in enumerate(sources):
        entry = source.entry
        hits = recall(
            entry.index,
            state=query,
            question="",
            names=(),
            options=candidate_options(_options(top_k)),
        )
        found = {hit.index: hit.score for hit in hits}
        lexical.update(((n, line_no), score) for line_no, score in found.items())
        vectors = entry.vectors
        if vectors is not None and entry.index.line_count:
            meaning = Meaning(vectors, query_vector)
            found_cosines = cosines(meaning, found, most)
            cosine.update(((n, line_no), c) for line_no, c in found_cosines.items())
            unembedded.update((n, line_no) for line_no in found if vectors.absent[line_no])
    kept: list[Kept] = []
    scale = max((source.entry.index.distinct_word_score for source in sources), default=0.0)
    fused = fuse(lexical, cosine, scale, unembedded)
    for (n, line_no), parts in select(fused, top_k=top_k, min_share=MIN_SHARE):
        source = sources[n]
        kept.append((parts.score, source.kind, source.entry.ids[line_no], source.pk, parts))
    return kept


def _load(session: Session, kept: list[Kept], slugs: dict[int, str]) -> list[KnowledgeHit]:
    found = {f.id: f for f in facts.facts_by_ids(session, [s[2] for s in kept if s[1] == "fact"])}
    chunks = {
        chunk.id: (chunk, doc)
        for chunk, doc in documents.chunks_by_ids(
            session, [s[2] for s in kept if s[1] == "passage"]
        )
    }
    hits = []
    for score, kind, row_id, source_pk, why in kept:
        if kind == "fact" and row_id in found:
            hits.append(KnowledgeHit("fact", row_id, found[row_id].text, score, why=why))
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
                    why=why,
                )
            )
    return hits
