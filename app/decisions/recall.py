"""A subject's memory for a state: the rules evaluated on it and the lines recall finds, by words
and meaning, exactly as a decision recalls them. Decisions place these lines before the state;
the MCP recall tool (`recall_for_text`) hands them to an agent instead."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from app.decisions.context import ContextLine, MemoryContext, memory_context, recalled_lines
from app.embeddings import Embedder
from app.engines.wire import MemoryOptions, Question
from app.errors import NotFound
from app.ledger.service import charge
from app.memory import repository as repo
from app.memory.schemas import Usage
from app.memory.service import MemoryService, SubjectMemory, line_vectors_of, usage_of
from app.recall.cache import RecallIndexCache
from app.recall.hybrid import Meaning
from app.recall.placement import MAX_CONTEXT_LINES, State
from app.rules.evaluate import RulesOutcome, evaluate_rules
from app.tenants.service import CurrentTenant
from app.text.content import content_text

MEANING_PARTIAL = "meaning_partial"
"""Some of the subject's lines have no vector of the current model yet (a model change being
re-embedded, or lines written with meaning off): those were found by their words only."""

SUBJECT_UNKNOWN = "subject_unknown"


@dataclass(frozen=True)
class Recalled:
    memory: SubjectMemory | None
    """None when the subject has no memory (the decision goes on without)."""
    rules: RulesOutcome
    context: MemoryContext
    recall: Literal["hybrid", "lexical"]
    """hybrid: words and meaning (app.recall.hybrid); lexical: words alone."""


@dataclass
class SubjectRecall:
    memory: MemoryService
    indexes: RecallIndexCache
    embedder: Embedder | None

    def recall(
        self,
        tenant: CurrentTenant,
        subject: str,
        state: State,
        questions: Mapping[str, Question],
        options: MemoryOptions,
        warnings: list[str],
    ) -> Recalled:
        """The context lines for `state`: computed facts, acting rules, then recalled lines."""
        memory = self._load(tenant, subject, warnings)
        rules = evaluate_rules(memory.rules if memory else [], state)
        state_text = content_text(state)
        meaning = (
            self._meaning(tenant, memory, state_text, warnings)
            if memory and options.semantic
            else None
        )
        recalled = (
            recalled_lines(
                self.indexes.get(str(tenant.id), memory.subject_pk, memory.version, memory.lines),
                memory.lines,
                subject=subject,
                aliases=memory.aliases,
                state_text=state_text,
                questions=questions,
                options=options,
                meaning=meaning,
            )
            if memory
            else []
        )
        return Recalled(
            memory=memory,
            rules=rules,
            context=memory_context(rules, recalled),
            recall="hybrid" if meaning is not None else "lexical",
        )

    def _meaning(
        self, tenant: CurrentTenant, memory: SubjectMemory, state_text: str, warnings: list[str]
    ) -> Meaning | None:
        """The subject's line vectors and the state's, or None when meaning is off (then
        recall is by words, and the memory block says `"recall": "lexical"`)."""
        embedder = self.embedder
        if embedder is None or not memory.lines or not state_text.strip():
            return None
        session = self.memory.session
        subject_pk = memory.subject_pk
        vectors = self.indexes.vectors(
            str(tenant.id),
            subject_pk,
            memory.version,
            model=embedder.name,
            dims=embedder.dims,
            line_count=len(memory.lines),
            load=lambda: line_vectors_of(session, subject_pk, memory.lines, embedder),
        )
        if vectors.missing:
            warnings.append(MEANING_PARTIAL)
        return Meaning(vectors, embedder.encode([state_text])[0])

    def _load(
        self, tenant: CurrentTenant, subject: str, warnings: list[str]
    ) -> SubjectMemory | None:
        try:
            return self.memory.load(tenant, subject)
        except NotFound:
            warnings.append(SUBJECT_UNKNOWN)
            return None

    # --- recall alone, for an agent ----------------------------------------------------------

    def recall_for_text(
        self, tenant: CurrentTenant, subject: str, text: str, *, top_k: int
    ) -> RecallOut:
        """What a decision about `text` would be given from the subject's memory, without the
        decision: billed and touched as a read of the subject's memory."""
        self.memory.load(tenant, subject)  # an unknown subject is a 404 here, not a warning
        warnings: list[str] = []
        found = self.recall(tenant, subject, text, {}, MemoryOptions(top_k=top_k), warnings)
        assert found.memory is not None
        ledger = charge(
            self.memory.session,
            tenant,
            route="memory.recall",
            cost=self.memory.settings.price_read,
            subject=subject,
            required=False,
        )
        repo.touch(self.memory.session, found.memory.subject_pk)
        lines = found.context.lines
        return RecallOut(
            subject=subject,
            recall=found.recall,
            lines=[_line_out(line) for line in lines[:MAX_CONTEXT_LINES]],
            lines_dropped=max(0, len(lines) - MAX_CONTEXT_LINES),
            warnings=warnings,
            usage=usage_of(ledger),
        )


class RecallOut(BaseModel):
    subject: str
    recall: Literal["hybrid", "lexical"]
    lines: list[dict[str, Any]]
    """In the order a decision places them: computed facts, acting rules, recalled lines."""
    lines_dropped: int
    warnings: list[str]
    usage: Usage


def _line_out(line: ContextLine) -> dict[str, Any]:
    out: dict[str, Any] = {"text": line.text, "kind": line.kind}
    if line.score is not None:
        out["score"] = line.score
    if line.why is not None:
        out["lexical"], out["semantic"] = line.why.lexical, line.why.semantic
    return out
