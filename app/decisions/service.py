"""A decision with memory: recall, place, ask the engine, say exactly what was used."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from app.decisions.context import ContextLine, pinned_lines, recalled_lines
from app.decisions.wire import MemoryOptions, SystemOneRequest
from app.engines.base import Engine, read_window_for
from app.errors import Invalid, NotFound
from app.ledger.service import charge, ensure_can_pay
from app.memory.service import MemoryService, SubjectMemory
from app.recall.cache import RecallIndexCache
from app.recall.placement import Placement, ReservedKey, place, serialise
from app.settings import Settings
from app.tenants.service import CurrentTenant
from app.text.content import content_text


@dataclass
class DecisionService:
    memory: MemoryService
    indexes: RecallIndexCache
    engine: Engine
    settings: Settings

    def decide(self, tenant: CurrentTenant, request: SystemOneRequest) -> dict[str, Any]:
        ensure_can_pay(tenant)
        options = request.memory or MemoryOptions()
        ledger = charge(
            self.memory.session,
            tenant,
            route="systemone",
            cost=self.settings.price_decision,
            subject=request.subject,
        )
        warnings: list[str] = []
        state = request.state
        memory_block: dict[str, Any] | None = None
        placement: Placement | None = None
        if request.subject is not None and options.use:
            started = time.perf_counter()
            context = self._context(tenant, request, options, warnings)
            recall_ms = (time.perf_counter() - started) * 1000
            placement = self._place(request, [line.text for line in context])
            state = placement.state
            warnings.extend(placement.warnings)
            memory_block = _memory_block(request.subject, context, placement, recall_ms)
        answers = self.engine.answer(request.model, [state], request.questions)[0]
        return {
            "model": request.model,
            "answers": {name: answer.model_dump() for name, answer in answers.items()},
            "usage": {
                "input_tokens": self._input_tokens(state, request),
                "output_tokens": len(answers),
                "cost": float(ledger.cost),
                "billed": ledger.billed,
            },
            "memory": memory_block,
            "warnings": warnings,
            "reading": {"turns_dropped": placement.turns_dropped if placement else 0},
        }

    def _context(
        self,
        tenant: CurrentTenant,
        request: SystemOneRequest,
        options: MemoryOptions,
        warnings: list[str],
    ) -> list[ContextLine]:
        assert request.subject is not None
        try:
            memory = self.memory.load(tenant, request.subject)
        except NotFound:
            warnings.append("subject_unknown")
            return []
        index = self.indexes.get(str(tenant.id), memory.subject_pk, memory.version, memory.lines)
        return pinned(memory) + recalled_lines(
            index,
            memory.lines,
            subject=request.subject,
            aliases=memory.aliases,
            state_text=content_text(request.state),
            questions=request.questions,
            options=options,
        )

    def _place(self, request: SystemOneRequest, lines: list[str]) -> Placement:
        try:
            return place(
                request.state,
                lines,
                window_tokens=read_window_for(self.engine, request.questions),
                count_tokens=self.engine.count_tokens,
            )
        except ReservedKey as exc:
            raise Invalid(str(exc), field="state") from exc

    def _input_tokens(self, state: Any, request: SystemOneRequest) -> int:
        questions = " ".join(q.model_dump_json() for q in request.questions.values())
        return self.engine.count_tokens(serialise(state)) + self.engine.count_tokens(questions)


def pinned(memory: SubjectMemory) -> list[ContextLine]:
    return pinned_lines([(rule.text, rule.pin) for rule in memory.rules])


def _memory_block(
    subject: str, context: list[ContextLine], placement: Placement, recall_ms: float
) -> dict[str, Any]:
    placed = context[: len(placement.read)]
    return {
        "subject": subject,
        "lines_used": len(placed),
        "lines_seen": placement.lines_seen,
        "lines_dropped": placement.lines_dropped,
        "recall_ms": round(recall_ms, 3),
        "hits": [
            {"text": line.text, "kind": line.kind, "score": line.score, "read": read}
            for line, read in zip(placed, placement.read, strict=True)
        ],
        "rules_fired": [],
        "rules_broken": [],
        "without_memory": None,
        "changes": None,
    }
