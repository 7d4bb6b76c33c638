"""A decision with memory: rules, recall, place, ask the engine, say exactly what was used.

The order of work: the subject's rules are computed on the state (facts, fired rules,
exclusions), recall adds lines, placement puts them before the state, and the engine is asked
once, about the answer's state and, for synchronous compare / explain / placebo, every pass's
state with it. Rules then remove options, the tenant temperature is applied, and at balanced or
best the second tier is asked again. Only the decision is billed, once; the passes are free.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from app.decisions import pass_jobs
from app.decisions.context import MemoryContext
from app.decisions.passes import (
    Baseline,
    PassItem,
    PassPlan,
    pass_blocks,
    pass_specs,
    pass_state,
)
from app.decisions.recall import SubjectRecall
from app.embeddings import Embedder, current_embedder
from app.engines.asking import ask_distinct
from app.engines.base import Engine, read_window_for
from app.engines.registry import SecondTier
from app.engines.wire import Answer, MemoryOptions, SystemOneRequest, serialise
from app.errors import Invalid
from app.jobs.names import RUN_PASSES
from app.learning.service import queue_learning
from app.ledger.service import charge, ensure_can_pay
from app.memory.service import MemoryService
from app.observability.metrics import observe_recall
from app.quality.service import tenant_quality
from app.quality.tiers import (
    QualitySetting,
    TieredAnswer,
    quality_block,
    second_tier_questions,
    shown_answers,
)
from app.recall.cache import RecallIndexCache
from app.recall.placement import Placement, ReservedKey, place
from app.rules.evaluate import ActiveRule, RulesOutcome
from app.rules.exclusions import ExclusionPlan, apply_exclusions, plan_exclusions
from app.settings import Settings
from app.tenants.service import CurrentTenant

SECOND_TIER_UNAVAILABLE = "second_tier_unavailable"
"""The tenant's quality asks for a second tier and none is configured: the engine answered."""


@dataclass(frozen=True)
class PreparedMemory:
    """The subject's memory for one decision, placed: what the answer and its passes share."""

    subject: str
    subject_pk: int | None
    rules: RulesOutcome
    context: MemoryContext
    placement: Placement
    exclusions: ExclusionPlan
    recall_ms: float
    recall: str = "lexical"
    """hybrid: words and meaning (app.recall.hybrid); lexical: words alone."""

    def items(self) -> list[PassItem]:
        """Each memory item: read when all its placed lines were read; acting when it placed a
        line or removed an option."""
        placed = self.context.lines[: len(self.placement.read)]
        result = []
        for i, item in enumerate(self.context.items):
            reads = [
                read
                for line, read in zip(placed, self.placement.read, strict=True)
                if line.owner == i
            ]
            rule = item.rule
            removes = rule is not None and bool(self.exclusions.removed_by(rule.id))
            result.append(
                PassItem(
                    kind=item.kind,
                    text=item.text,
                    read=bool(reads) and all(reads),
                    acts=bool(reads) or removes,
                    rule_id=rule.id if rule is not None else None,
                    exclusion=rule.exclusion if rule is not None else None,
                )
            )
        return result


@dataclass
class DecisionService:
    memory: MemoryService
    indexes: RecallIndexCache
    engine: Engine
    settings: Settings
    second_tier: SecondTier | None = None
    embedder: Embedder | None = field(default_factory=current_embedder)

    def decide(
        self,
        tenant: CurrentTenant,
        request: SystemOneRequest,
        *,
        charged_by_caller: bool = False,
        quality: QualitySetting | None = None,
    ) -> dict[str, Any]:
        """Answer one request. A batch charges its chunk's decisions together
        (`charged_by_caller`) and reads the tenant's quality once (`quality`)."""
        ensure_can_pay(tenant)
        options = request.memory or MemoryOptions()
        if quality is None:
            quality = tenant_quality(self.memory.session, tenant.id)
        ledger = None
        if not charged_by_caller:
            ledger = charge(
                self.memory.session,
                tenant,
                route="systemone",
                cost=self.settings.price_decision,
                subject=request.subject,
            )
        warnings: list[str] = []
        prepared: PreparedMemory | None = None
        if request.subject is not None and options.use:
            prepared = self._prepare(tenant, request.subject, request, options, warnings)
            warnings.extend(prepared.placement.warnings)
        state = prepared.placement.state if prepared else request.state
        exclusions = prepared.exclusions if prepared else ExclusionPlan()
        plan = self._plan(request, options, quality, prepared)
        sync = plan is not None and options.passes == "sync"
        specs = pass_specs(plan) if plan is not None and sync else []
        states = [state, *(pass_state(plan, spec) for spec in specs if plan is not None)]
        raw = ask_distinct(self.engine, request.model, states, request.questions)
        answer = self._tiered(request, state, raw[0], exclusions, quality, warnings)
        baseline = Baseline(
            answers={name: answer.first.get(name, shown) for name, shown in answer.shown.items()},
            measured_on_first=frozenset(answer.first),
        )
        memory_block = _memory_block(prepared) if prepared else None
        if memory_block is not None and plan is not None:
            if sync:
                memory_block.update(pass_blocks(plan, baseline, specs, raw[1:]))
            else:
                memory_block["passes_job"] = self._enqueue(tenant, prepared, plan, baseline)
        response: dict[str, Any] = {
            "model": request.model,
            "answers": {name: a.model_dump() for name, a in answer.shown.items()},
            "usage": {
                "input_tokens": self._input_tokens(state, request),
                "output_tokens": len(answer.shown),
                "cost": float(ledger.cost) if ledger else float(self.settings.price_decision),
                "billed": ledger.billed if ledger else True,
            },
            "memory": memory_block,
            "quality": quality_block(quality, answer),
            "warnings": warnings,
            "reading": {"turns_dropped": prepared.placement.turns_dropped if prepared else 0},
        }
        if options.learn and request.subject is not None:
            response["learning"] = self._learn(tenant, request.subject, request.state)
        return response

    def _learn(self, tenant: CurrentTenant, subject: str, state: Any) -> dict[str, Any]:
        """Queue the gate for after the answer: the caller does not wait for it. A subject the
        tenant never wrote to is made here, so a first request can teach it."""
        subject_row = self.memory.subject_for_write(tenant, subject)
        request_id = queue_learning(
            self.memory.session, self.memory.jobs, tenant.id, subject_row.id, state
        )
        return {"request_id": request_id, "status": "queued"}

    # --- memory ----------------------------------------------------------------------------------

    def _prepare(
        self,
        tenant: CurrentTenant,
        subject: str,
        request: SystemOneRequest,
        options: MemoryOptions,
        warnings: list[str],
    ) -> PreparedMemory:
        started = time.perf_counter()
        found = SubjectRecall(self.memory, self.indexes, self.embedder).recall(
            tenant, subject, request.state, request.questions, options, warnings
        )
        recall_ms = (time.perf_counter() - started) * 1000
        observe_recall(recall_ms / 1000)
        return PreparedMemory(
            subject=subject,
            subject_pk=found.memory.subject_pk if found.memory else None,
            rules=found.rules,
            context=found.context,
            placement=self._place(request, found.context.texts),
            exclusions=plan_exclusions(request.questions, found.rules.exclusions),
            recall_ms=recall_ms,
            recall=found.recall,
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

    # --- passes ----------------------------------------------------------------------------------

    def _plan(
        self,
        request: SystemOneRequest,
        options: MemoryOptions,
        quality: QualitySetting,
        prepared: PreparedMemory | None,
    ) -> PassPlan | None:
        """What the passes ask, when some are wanted and there is a memory to check."""
        if prepared is None or not (options.compare or options.explain or options.placebo):
            return None
        return PassPlan(
            model=request.model,
            state=request.state,
            questions=dict(request.questions),
            turns_dropped=prepared.placement.turns_dropped,
            lines=prepared.context.lines[: len(prepared.placement.read)],
            items=tuple(prepared.items()),
            temperature=quality.temperature,
            compare=options.compare,
            explain=options.explain,
            placebo=options.placebo,
        )

    def _enqueue(
        self,
        tenant: CurrentTenant,
        prepared: PreparedMemory | None,
        plan: PassPlan,
        baseline: Baseline,
    ) -> dict[str, str]:
        """Store the job and send it once the decision commits."""
        subject_pk = prepared.subject_pk if prepared else None
        job = pass_jobs.create_job(self.memory.session, tenant, subject_pk, plan, baseline)
        self.memory.jobs.add(RUN_PASSES, str(job.id))
        return {"id": str(job.id), "status": job.status, "url": f"/v1/jobs/{job.id}"}

    # --- quality ---------------------------------------------------------------------------------

    def _tiered(
        self,
        request: SystemOneRequest,
        state: Any,
        raw: dict[str, Answer],
        exclusions: ExclusionPlan,
        quality: QualitySetting,
        warnings: list[str],
    ) -> TieredAnswer:
        """The answer shown: the engine's, or at balanced and best the second tier's for the
        questions it is asked (about the same placed state)."""
        tier = self.second_tier
        first = apply_exclusions(raw, exclusions)
        threshold = tier.threshold if tier else 1.0
        again = second_tier_questions(quality.level, first, threshold)
        if again and tier is None:
            warnings.append(SECOND_TIER_UNAVAILABLE)
            again = []
        second: dict[str, Answer] = {}
        if again and tier is not None:
            asked = {name: request.questions[name] for name in again}
            second = tier.engine.answer(tier.model_name(), [state], asked)[0]
        return shown_answers(raw, second, exclusions, quality.temperature)

    def _input_tokens(self, state: Any, request: SystemOneRequest) -> int:
        questions = " ".join(q.model_dump_json() for q in request.questions.values())
        return self.engine.count_tokens(serialise(state)) + self.engine.count_tokens(questions)


def _fired_lines(prepared: PreparedMemory, owner: int, rule: ActiveRule) -> list[dict[str, Any]]:
    """A fired rule's entries, one per line it sent, each with its own `read` (a number rule
    sends two: the computed fact, then its text), so the reads of `hits` and `rules_fired`
    add up to `lines_seen`; a rule that sent none (an exclusion) has one entry, unread."""
    placed = prepared.context.lines[: len(prepared.placement.read)]
    lines = [
        (line, read)
        for line, read in zip(placed, prepared.placement.read, strict=True)
        if line.owner == owner
    ]
    excluded = [
        {"question": question, "option": option}
        for question, option in prepared.exclusions.removed_by(rule.id)
    ]
    base = {"id": rule.id, "fact": rule.fact}
    if not lines:
        return [
            {
                **base,
                "text": rule.text,
                "kind": rule.kind,
                "sent": False,
                "read": False,
                "excluded": excluded,
            }
        ]
    return [
        {
            **base,
            "text": line.text,
            "kind": line.kind,
            "sent": True,
            "read": read,
            "excluded": excluded if line.kind != "computed" else [],
        }
        for line, read in lines
    ]


def _memory_block(prepared: PreparedMemory) -> dict[str, Any]:
    """What the memory did: the lines sent and read, the rules that acted or broke. The pass
    blocks stay None unless asked for."""
    placement = prepared.placement
    placed = prepared.context.lines[: len(placement.read)]
    hits = [
        {
            "text": line.text,
            "kind": line.kind,
            "score": line.score,
            "read": read,
            **(
                {"lexical": line.why.lexical, "semantic": line.why.semantic}
                if line.why is not None
                else {}
            ),
        }
        for line, read in zip(placed, placement.read, strict=True)
        if line.kind == "recalled"
    ]
    rules_fired = [
        entry
        for owner, (item, view) in enumerate(
            zip(prepared.context.items, prepared.items(), strict=True)
        )
        if (rule := item.rule) is not None and view.acts
        for entry in _fired_lines(prepared, owner, rule)
    ]
    broken = [*prepared.rules.broken, *prepared.exclusions.broken]
    return {
        "subject": prepared.subject,
        "lines_used": len(placed),
        "lines_seen": placement.lines_seen,
        "lines_dropped": placement.lines_dropped,
        "recall_ms": round(prepared.recall_ms, 3),
        "recall": prepared.recall,
        "hits": hits,
        "rules_fired": rules_fired,
        "rules_broken": [rule.to_json() for rule in broken],
        "without_memory": None,
        "changes": None,
        "explain": None,
        "placebo": None,
        "passes_job": None,
    }
