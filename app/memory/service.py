"""Subject memory: writing, reading and deleting lines, rules and aliases.

Every write locks the subject's row, checks the limits, stores, charges and audits in one
transaction, and moves the subject's version so no cache serves the old memory.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field, TypeAdapter
from sqlalchemy.orm import Session

from app.audit.service import record
from app.batches import repository as batch_items
from app.cache import SubjectCache
from app.embeddings import Embedder
from app.embeddings.storage import vectors_for_write
from app.embeddings.vectors import LineVectors
from app.errors import Conflict, Invalid, NotFound
from app.idempotency import repository as idempotent_answers
from app.jobs.outbox import JobQueue
from app.ledger.service import bill_action, charge, ensure_can_pay
from app.memory import repository as repo
from app.memory.schemas import (
    AliasesIn,
    AliasesOut,
    DeletedOut,
    MemoryOut,
    RememberIn,
    RememberOut,
    RetiredLine,
    RuleCreated,
    RuleIn,
    RuleOut,
    RulesDeleted,
    RulesDeleteIn,
    Usage,
)
from app.memory.warnings import line_warnings
from app.models import LedgerLine, Rule, Subject
from app.settings import Settings
from app.tenants.service import CurrentTenant


@dataclass(frozen=True)
class SubjectMemory:
    """A subject's whole memory at one version, as cached."""

    subject_pk: Annotated[int, Field(exclude=True)]
    version: Annotated[int, Field(exclude=True)]
    """The cache key names the subject and its version; the cached value holds the rest."""
    lines: list[str]
    rules: list[RuleOut]
    aliases: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """`{"lines", "rules", "aliases"}`, as the subject cache holds it."""
        cached: dict[str, Any] = _SUBJECT_MEMORY.dump_python(self)
        return cached

    @classmethod
    def from_json(cls, subject_pk: int, version: int, data: dict[str, Any]) -> SubjectMemory:
        return _SUBJECT_MEMORY.validate_python(
            {**data, "subject_pk": subject_pk, "version": version}
        )


_SUBJECT_MEMORY = TypeAdapter(SubjectMemory)


@dataclass
class MemoryService:
    session: Session
    jobs: JobQueue
    cache: SubjectCache
    settings: Settings
    _loaded: dict[tuple[uuid.UUID, str], SubjectMemory] = field(default_factory=dict, repr=False)

    # Writing

    def remember(self, tenant: CurrentTenant, body: RememberIn) -> RememberOut:
        ensure_can_pay(tenant)
        texts = [line.strip() for line in body.text.splitlines() if line.strip()]
        if not texts:
            raise Invalid("text holds no line to remember", field="text")
        limit = self.settings.max_line_chars
        for number, text in enumerate(texts, start=1):
            if len(text) > limit:
                raise Invalid(
                    f"line {number} has {len(text)} characters, more than {limit}; nothing stored",
                    field="text",
                    code="line_too_long",
                )
        subject = self._lock(tenant, body.subject, create=True)
        most = self.settings.max_lines_per_subject
        if subject.line_count + len(texts) > most:
            raise Conflict(
                f"subject '{body.subject}' holds {subject.line_count} lines; {len(texts)} more "
                f"would pass the limit of {most}; nothing stored",
                field="text",
                code="subject_full",
            )
        ledger = charge(
            self.session,
            tenant,
            route="memory.remember",
            cost=self.settings.price_remember_line * len(texts),
            units=len(texts),
            subject=body.subject,
        )
        repo.add_lines(self.session, subject, texts, vectors_for_write(texts, self.jobs))
        self.written(tenant, subject, "memory.remember", counts={"lines": len(texts)})
        return RememberOut(
            subject=body.subject,
            stored=texts,
            line_count=subject.line_count,
            warnings=[w for text in texts for w in line_warnings(text)],
            usage=usage_of(ledger),
        )

    def add_rule(self, tenant: CurrentTenant, body: RuleIn) -> RuleCreated:
        ensure_can_pay(tenant)
        text = body.text.strip()
        if not text or len(text) > self.settings.max_line_chars:
            raise Invalid(
                f"a rule's text has 1 to {self.settings.max_line_chars} characters", field="text"
            )
        subject = self._lock(tenant, body.subject, create=True)
        if repo.count_rules(self.session, subject.id) >= self.settings.max_rules_per_subject:
            raise Conflict(
                f"subject '{body.subject}' already holds {self.settings.max_rules_per_subject} "
                "rules",
                code="subject_full",
            )
        ledger = charge(
            self.session,
            tenant,
            route="memory.rules",
            cost=self.settings.price_write,
            subject=body.subject,
        )
        rule = repo.add_rule(
            self.session,
            subject,
            {
                "text": text,
                "pin": body.pin,
                "exclude": body.exclude.model_dump() if body.exclude else None,
                "when": body.when.model_dump() if body.when else None,
            },
        )
        self.written(tenant, subject, "memory.rules.add", ids=[rule.id], counts={"rules": 1})
        return RuleCreated(subject=body.subject, rule=_rule_out(rule), usage=usage_of(ledger))

    def delete_rules(self, tenant: CurrentTenant, body: RulesDeleteIn) -> RulesDeleted:
        subject = self._existing(tenant, body.subject, lock=True)
        deleted = repo.delete_rules(self.session, subject.id, body.ids)
        missing = sorted(set(body.ids) - set(deleted))
        if missing:
            raise NotFound(
                f"subject '{body.subject}' has no rule with id {missing[0]}; nothing deleted",
                field="ids",
            )
        ledger = charge(
            self.session,
            tenant,
            route="memory.rules.delete",
            cost=self.settings.price_delete,
            subject=body.subject,
            required=False,
        )
        self.written(
            tenant, subject, "memory.rules.delete", ids=deleted, counts={"rules": len(deleted)}
        )
        return RulesDeleted(subject=body.subject, deleted=deleted, usage=usage_of(ledger))

    def add_aliases(self, tenant: CurrentTenant, body: AliasesIn) -> AliasesOut:
        ensure_can_pay(tenant)
        subject = self._lock(tenant, body.subject, create=True)
        wanted = list(dict.fromkeys(body.aliases))
        have = repo.aliases_of(self.session, subject.id)
        if len(set(have) | set(wanted)) > self.settings.max_aliases_per_subject:
            raise Conflict(
                f"a subject holds at most {self.settings.max_aliases_per_subject} aliases",
                field="aliases",
                code="subject_full",
            )
        ledger = charge(
            self.session,
            tenant,
            route="memory.aliases",
            cost=self.settings.price_write,
            subject=body.subject,
        )
        repo.add_aliases(self.session, subject.id, wanted)
        self.written(tenant, subject, "memory.aliases.add", counts={"aliases": len(wanted)})
        return AliasesOut(
            subject=body.subject,
            aliases=repo.aliases_of(self.session, subject.id),
            usage=usage_of(ledger),
        )

    def delete_aliases(self, tenant: CurrentTenant, body: AliasesIn) -> AliasesOut:
        subject = self._existing(tenant, body.subject, lock=True)
        removed = repo.delete_aliases(self.session, subject.id, body.aliases)
        ledger = charge(
            self.session,
            tenant,
            route="memory.aliases.delete",
            cost=self.settings.price_delete,
            subject=body.subject,
            required=False,
        )
        self.written(tenant, subject, "memory.aliases.delete", counts={"aliases": removed})
        return AliasesOut(
            subject=body.subject,
            aliases=repo.aliases_of(self.session, subject.id),
            usage=usage_of(ledger),
        )

    def delete_subject(self, tenant: CurrentTenant, name: str) -> DeletedOut:
        subject = self._existing(tenant, name, lock=True)
        counts = repo.delete_subject(self.session, subject)
        # At once, not in a job: once this answers, no batch serves the subject's results.
        counts["batch_items"] = batch_items.delete_subject_items(self.session, tenant.id, name)
        idempotent_answers.forget_subjects(self.session, tenant.id, [name])
        self.cache.drop_version(str(tenant.id), subject.id, subject.version)
        ledger = bill_action(
            self.session,
            tenant,
            "memory.delete",
            cost=self.settings.price_delete,
            subject=name,
            required=False,
            counts=counts,
        )
        return DeletedOut(subject=name, deleted=counts, usage=usage_of(ledger))

    # Reading

    def read(self, tenant: CurrentTenant, name: str, *, with_lines: bool) -> MemoryOut:
        memory = self.load(tenant, name)
        ledger = charge(
            self.session,
            tenant,
            route="memory.read",
            cost=self.settings.price_read,
            subject=name,
            required=False,
        )
        repo.touch(self.session, memory.subject_pk)
        retired = repo.retired_lines(self.session, memory.subject_pk) if with_lines else []
        return MemoryOut(
            subject=name,
            line_count=len(memory.lines),
            rule_count=len(memory.rules),
            alias_count=len(memory.aliases),
            lines=memory.lines if with_lines else None,
            retired_lines=[
                RetiredLine(
                    text=line.text,
                    retired_at=line.retired_at,
                    learned_request_id=line.learned_request_id,
                )
                for line in retired
                if line.retired_at is not None
            ]
            if with_lines
            else None,
            rules=memory.rules if with_lines else None,
            aliases=memory.aliases if with_lines else None,
            usage=usage_of(ledger),
        )

    def load(self, tenant: CurrentTenant, name: str) -> SubjectMemory:
        """The subject's memory: the version from PostgreSQL (the truth), the content from the
        cache when it holds that version. Loaded once per service (one request, or one chunk of
        a batch: its items read the memory as it was when the chunk first needed it)."""
        loaded = self._loaded.get((tenant.id, name))
        if loaded is None:
            loaded = self._loaded[(tenant.id, name)] = self._load(tenant, name)
        return loaded

    def forget_loaded(self) -> None:
        """Drop what `load` kept: the next load reads PostgreSQL again."""
        self._loaded.clear()

    def _load(self, tenant: CurrentTenant, name: str) -> SubjectMemory:
        subject = self._existing(tenant, name, lock=False)
        key = self.cache.key(str(tenant.id), subject.id, subject.version)
        cached = self.cache.get_json(key)
        if cached is not None:
            return SubjectMemory.from_json(subject.id, subject.version, cached)
        memory = SubjectMemory(
            subject_pk=subject.id,
            version=subject.version,
            lines=repo.line_texts(self.session, subject.id),
            rules=[_rule_out(rule) for rule in repo.rules_of(self.session, subject.id)],
            aliases=repo.aliases_of(self.session, subject.id),
        )
        self.cache.set_json(key, memory.to_json())
        return memory

    # Helpers

    def subject_for_write(self, tenant: CurrentTenant, name: str) -> Subject:
        """The subject, made when it does not exist yet, locked for this transaction."""
        return self._lock(tenant, name, create=True)

    def locked_subject(self, tenant: CurrentTenant, name: str) -> Subject:
        """An existing subject, locked for this transaction (404 when there is none)."""
        return self._lock(tenant, name, create=False)

    def _lock(self, tenant: CurrentTenant, name: str, *, create: bool) -> Subject:
        subject = repo.lock_subject(self.session, tenant.id, name, create=create)
        if subject is None:
            raise NotFound(f"no subject '{name}'", field="subject")
        return subject

    def _existing(self, tenant: CurrentTenant, name: str, *, lock: bool) -> Subject:
        if lock:
            return self._lock(tenant, name, create=False)
        subject = repo.find_subject(self.session, tenant.id, name)
        if subject is None:
            raise NotFound(f"no subject '{name}'", field="subject")
        return subject

    def written(
        self,
        tenant: CurrentTenant,
        subject: Subject,
        action: str,
        *,
        ids: list[Any] | None = None,
        counts: dict[str, int],
    ) -> None:
        old_version = repo.bump_version(self.session, subject)
        self.cache.drop_version(str(tenant.id), subject.id, old_version)
        self.forget_loaded()
        record(self.session, tenant, action, subject=subject.name, ids=ids, counts=counts)


def line_vectors_of(
    session: Session, subject_pk: int, lines: Sequence[str], embedder: Embedder
) -> LineVectors:
    """The stored vectors of `lines` (the subject's lines at the version recall reads).

    Read by text, so a write committed since that version was read (more rows, or fewer) does
    not shift a vector onto another line; a line with no row now has none."""
    stored = {
        text: (vector, model) for text, vector, model in repo.line_vectors(session, subject_pk)
    }
    return LineVectors.from_stored(
        [stored.get(text, (None, None)) for text in lines], embedder.name, embedder.dims
    )


def usage_of(ledger: LedgerLine) -> Usage:
    return Usage(cost=float(ledger.cost or Decimal(0)), billed=ledger.billed)


def _rule_out(rule: Rule) -> RuleOut:
    return RuleOut(id=rule.id, text=rule.text, pin=rule.pin, exclude=rule.exclude, when=rule.when)
