"""Where a tenant's data lives, store by store: count it, erase it in chunks, scan for residue.

The SQL of every PostgreSQL store is `app.erasure.repository`'s; Redis keys are here. Every
statement is scoped to one tenant, by its id or by ids resolved from it; nothing here can reach
another tenant's rows or keys.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import redis
from sqlalchemy.orm import Session

from app.embeddings import Embedder
from app.embeddings.base import to_stored
from app.erasure import repository as repo
from app.erasure.targets import Targets
from app.exports.service import discard_for_tenant as discard_exports


def count_all(session: Session, client: redis.Redis, targets: Targets) -> dict[str, int]:
    counts = repo.postgres_counts(session, targets)
    counts["redis.keys"] = sum(1 for _ in redis_keys(client, targets))
    counts["redis.recall_indexes"] = sum(1 for _ in redis_keys(client, targets, recall_only=True))
    counts["redis.vectors"] = sum(1 for _ in redis_keys(client, targets, vectors_only=True))
    return counts


def kept_by_design(session: Session, targets: Targets) -> dict[str, int]:
    return repo.kept_by_design(session, targets)


def redis_patterns(
    targets: Targets, *, recall_only: bool = False, vectors_only: bool = False
) -> list[str]:
    """Redis keys of the targets: everything, or their recall indexes, or their cached
    vectors (subject vectors, and the `:vec` part of a user's fact index)."""
    tenant = targets.tenant_id
    if vectors_only:
        if targets.whole:
            return [f"dossier:vectors:{tenant}:*", f"dossier:k*:{tenant}:*:vec"]
        return [f"dossier:vectors:{tenant}:{pk}:*" for pk in targets.subject_pks] + [
            f"dossier:kfacts:{tenant}:{pk}:*:vec" for pk in targets.user_pks
        ]
    if targets.whole:
        return [f"dossier:recall:{tenant}:*"] if recall_only else [f"dossier:*:{tenant}:*"]
    kinds = ("recall",) if recall_only else ("memory", "recall", "vectors")
    patterns = [f"dossier:{kind}:{tenant}:{pk}:*" for kind in kinds for pk in targets.subject_pks]
    if not recall_only:
        patterns += [f"dossier:kfacts:{tenant}:{pk}:*" for pk in targets.user_pks]
    return patterns


def redis_keys(
    client: redis.Redis,
    targets: Targets,
    *,
    recall_only: bool = False,
    vectors_only: bool = False,
) -> Iterator[bytes]:
    for pattern in redis_patterns(targets, recall_only=recall_only, vectors_only=vectors_only):
        yield from client.scan_iter(match=pattern, count=1_000)


def sample_texts(session: Session, targets: Targets, limit: int = 20) -> list[str]:
    """A few of the texts about to be erased, to look for afterwards."""
    return repo.sample_texts(session, targets, limit)


def erase_chunk(session: Session, client: redis.Redis, targets: Targets, size: int) -> int:
    """Erase up to `size` subjects and `size` end-users still there; returns how many went.
    Their rows go by ON DELETE CASCADE (lines, rules, aliases, learning requests, pass jobs;
    facts, turns, pending extraction), their batch items and cache keys with them."""
    subjects = repo.erase_subjects(session, targets, size)
    users = repo.erase_users(session, targets, size)
    _drop_keys(
        client,
        Targets(
            targets.tenant_id, False, [(pk, "") for pk in subjects], [(pk, "") for pk in users]
        ),
    )
    return len(subjects) + len(users)


def erase_tenant_rest(session: Session, client: redis.Redis, tenant_id: uuid.UUID) -> None:
    """What a whole tenant holds beyond its subjects and end-users."""
    repo.erase_tenant_rows(session, tenant_id)
    # Archives of organisation-wide exports hold everything above: their files and rows go too.
    discard_exports(session, tenant_id)
    _drop_keys(client, Targets(tenant_id, True, [], []))


def _drop_keys(client: redis.Redis, targets: Targets) -> None:
    keys = list(redis_keys(client, targets))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start : start + 500])


def residue(
    session: Session,
    client: redis.Redis,
    targets: Targets,
    samples: Sequence[str],
    embedder: Embedder | None,
) -> list[dict[str, Any]]:
    """Every place an erased id, a sampled erased text or its vector still shows up (empty:
    none)."""
    found = repo.residue_rows(session, targets, samples, _sample_vectors(embedder, samples))
    leftover_keys = sum(1 for _ in redis_keys(client, targets))
    if leftover_keys:
        found.append({"store": "redis.keys", "kind": "key", "count": leftover_keys})
    for key in client.scan_iter(match=f"dossier:*:{targets.tenant_id}:*", count=1_000):
        value = client.get(key)
        if isinstance(value, bytes) and any(s.encode() in value for s in samples):
            found.append({"store": "redis.values", "kind": "text", "count": 1})
    return found


def _sample_vectors(embedder: Embedder | None, samples: Sequence[str]) -> list[bytes]:
    if embedder is None or not samples:
        return []
    encoded = embedder.encode(samples)
    return [raw for raw, row in zip(to_stored(encoded), encoded, strict=True) if row.any()]
