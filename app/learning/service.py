"""Learned memory: after a decision, the gate decides on the extraction queue whether its request
stated a lasting fact; if so the fact is stored as lines marked learned, and an older learned
line it replaces is retired (kept, listed, never recalled again)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from app.audit.service import record
from app.cache import SubjectCache
from app.embeddings.storage import vectors_for_write
from app.engines.asking import ask_distinct
from app.engines.base import Engine
from app.engines.wire import parse_request
from app.errors import NotFound
from app.jobs.names import LEARN
from app.jobs.outbox import JobQueue
from app.learning import gate
from app.learning import repository as repo
from app.learning.lasting import LastingProbe
from app.learning.models import LearningRequest
from app.memory import repository as memory_repo
from app.tenants.service import CurrentTenant


def new_request_id() -> str:
    return f"req_{uuid.uuid4().hex}"


def queue_learning(
    session: Session, jobs: JobQueue, tenant_id: uuid.UUID, subject_pk: int, state: Any
) -> str:
    """Keep the request's state for the gate and send the gate's task after the commit."""
    request_id = new_request_id()
    session.add(
        LearningRequest(id=request_id, tenant_id=tenant_id, subject_id=subject_pk, state=state)
    )
    jobs.add(LEARN, request_id)
    return request_id


def wording(session: Session, tenant_id: uuid.UUID) -> tuple[gate.GateWording, float]:
    row = repo.gate_setting(session, tenant_id)
    if row is None:
        return gate.GateWording(), gate.DEFAULT_THRESHOLD
    default = gate.GateWording()
    return (
        gate.GateWording(
            row.instructions or default.instructions,
            row.true_criterion or default.true,
            row.false_criterion or default.false,
        ),
        row.threshold,
    )


def set_gate(
    session: Session,
    tenant: CurrentTenant,
    *,
    instructions: str | None,
    true: str | None,
    false: str | None,
    threshold: float | None,
) -> tuple[gate.GateWording, float]:
    """Change the gate's wording or threshold (what is None stays), with its audit row like
    every settings write (which fields changed, never their text); returns the gate as now."""
    tenant.ensure_active("the gate")
    row = repo.gate_setting_for_write(session, tenant.id)
    changes: dict[str, Any] = {
        "instructions": instructions,
        "true_criterion": true,
        "false_criterion": false,
        "threshold": threshold,
    }
    for column, value in changes.items():
        if value is not None:
            setattr(row, column, value)
    session.flush()
    record(
        session,
        tenant,
        "gate.settings",
        counts={
            "instructions": int(instructions is not None),
            "true": int(true is not None),
            "false": int(false is not None),
            "threshold": int(threshold is not None),
        },
    )
    return wording(session, tenant.id)


def set_threshold(session: Session, tenant_id: uuid.UUID, threshold: float) -> None:
    """The threshold a calibration chose (its audit row is the calibration's)."""
    repo.gate_setting_for_write(session, tenant_id).threshold = threshold


def sentence_probabilities(
    engine: Engine, probe: LastingProbe | None, question: dict[str, Any], sentences: list[str]
) -> list[float]:
    """P(lasting fact) of each sentence: one engine call for all of them, combined with the
    lasting probe's reading when there is one (`gate.combined`)."""
    if not sentences:
        return []
    parsed = parse_request({"model": "gate", "state": "", "questions": {"gate": question}})
    answers = ask_distinct(
        engine, engine.models()[0], gate.gate_states(sentences), parsed.questions
    )
    engine_says = [float(answer["gate"].noul) for answer in answers]  # type: ignore[union-attr]
    if probe is None:
        return engine_says
    return [gate.combined(p, z) for p, z in zip(engine_says, probe.logits(sentences), strict=True)]


@dataclass
class Learner:
    session: Session
    jobs: JobQueue
    engine: Engine
    probe: LastingProbe | None
    cache: SubjectCache

    def run(self, request_id: str) -> dict[str, Any] | None:
        """Decide one learning request; safe to run twice (a finished request is left alone)."""
        request = repo.lock_request(self.session, request_id)
        if request is None or request.status != "queued":
            return None
        subject = memory_repo.lock_subject_by_id(self.session, request.subject_id)
        if subject is None:
            return None  # the subject was deleted meanwhile (and the request with it)
        question, threshold = wording(self.session, request.tenant_id)
        sentences = gate.candidate_sentences(request.state)
        probabilities = sentence_probabilities(
            self.engine, self.probe, question.question(), sentences
        )
        learned = gate.lasting_lines(sentences, probabilities, threshold)
        learned = [line for line in learned if line not in self._active_texts(subject.id)]
        retired = self._supersede(subject.id, learned) if learned else []
        if learned:
            memory_repo.add_lines(
                self.session,
                subject,
                learned,
                vectors_for_write(learned, self.jobs),
                learned_request_id=request_id,
            )
        if learned or retired:
            old = memory_repo.bump_version(self.session, subject)
            self.cache.drop_version(str(request.tenant_id), subject.id, old)
        request.status = "stored" if learned else "not_stored"
        request.probability = gate.request_probability(probabilities)
        request.outcome = {
            "sentences": [
                {"text": s, "probability": round(p, 4)}
                for s, p in zip(sentences, probabilities, strict=True)
            ],
            "threshold": threshold,
            "stored": learned,
            "retired": retired,
        }
        request.finished_at = datetime.now(UTC)
        record(
            self.session,
            CurrentTenant(request.tenant_id, "active"),
            "memory.learn",
            subject=subject.name,
            ids=[request_id],
            counts={"stored": len(learned), "retired": len(retired)},
        )
        return request.outcome

    def _active_texts(self, subject_pk: int) -> set[str]:
        return set(memory_repo.line_texts(self.session, subject_pk))

    def _supersede(self, subject_pk: int, learned: list[str]) -> list[str]:
        """Retire each older learned line that a new one replaces (the second gate question,
        asked only of older lines sharing words with the new one)."""
        older = memory_repo.learned_lines(self.session, subject_pk)
        pairs = [(new, row) for new in learned for row in older if gate.may_replace(new, row[1])]
        if not pairs:
            return []
        parsed = parse_request(
            {"model": "gate", "state": "", "questions": {"replace": gate.SUPERSEDE_QUESTION}}
        )
        states = [gate.supersede_state(new, row[1]) for new, row in pairs]
        answers = ask_distinct(self.engine, self.engine.models()[0], states, parsed.questions)
        replaced = {
            row[0]: row[1]
            for (_, row), answer in zip(pairs, answers, strict=True)
            if gate.passes(float(answer["replace"].noul), gate.DEFAULT_THRESHOLD)  # type: ignore[union-attr]
        }
        if replaced:
            memory_repo.retire_lines(self.session, list(replaced), datetime.now(UTC))
        return list(replaced.values())


def learning_status(session: Session, tenant: CurrentTenant, request_id: str) -> dict[str, Any]:
    request = session.get(LearningRequest, request_id)
    if request is None or request.tenant_id != tenant.id:
        raise NotFound(f"no learning request '{request_id}'", field="request_id")
    return {
        "request_id": request.id,
        "status": request.status,
        "probability": request.probability,
        "outcome": request.outcome,
    }


def fail_request(session: Session, request_id: str, reason: str) -> None:
    """End a queued learning request failed (its task gave up): polling it then stops."""
    request = repo.lock_request(session, request_id)
    if request is not None and request.status == "queued":
        request.status, request.outcome = "failed", {"error": reason}
        request.finished_at = datetime.now(UTC)
