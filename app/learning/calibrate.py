"""Choosing the gate's threshold from labelled examples: fit on one part, report on the rest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from app.engines.base import Engine
from app.learning import gate
from app.learning.lasting import LastingProbe
from app.learning.service import sentence_probabilities, set_threshold, wording
from app.ledger.service import bill_action
from app.tenants.service import CurrentTenant


@dataclass(frozen=True)
class GateCalibration:
    result: gate.Calibration
    previous_threshold: float
    probabilities: list[float]


def run_calibration(
    session: Session,
    tenant: CurrentTenant,
    engine: Engine,
    probe: LastingProbe | None,
    examples: Sequence[tuple[Any, bool]],
    *,
    held_out_share: float,
    seed: int,
    apply: bool,
    price: Decimal,
) -> GateCalibration:
    """Calibrate the gate on labelled (request, remember) examples, charged per example with
    its audit row before any engine work; with `apply`, the chosen threshold becomes the
    tenant's."""
    tenant.ensure_active("the gate")
    question, current = wording(session, tenant.id)
    bill_action(
        session,
        tenant,
        "gate.calibrate",
        units=len(examples),
        cost=price * len(examples),
        counts={"examples": len(examples), "applied": int(apply)},
    )
    probabilities = example_probabilities(
        engine, probe, question, [request for request, _ in examples]
    )
    result = calibrate(probabilities, [remember for _, remember in examples], held_out_share, seed)
    if apply:
        set_threshold(session, tenant.id, result.threshold)
    return GateCalibration(result, current, probabilities)


def example_probabilities(
    engine: Engine,
    probe: LastingProbe | None,
    wording: gate.GateWording,
    requests: Sequence[Any],
) -> list[float]:
    """Each example request's P(lasting fact), all sentences asked in one engine call."""
    per_request = [gate.candidate_sentences(request) for request in requests]
    flat = [sentence for sentences in per_request for sentence in sentences]
    probabilities = iter(sentence_probabilities(engine, probe, wording.question(), flat))
    return [
        gate.request_probability([next(probabilities) for _ in sentences])
        for sentences in per_request
    ]


def calibrate(
    probabilities: Sequence[float], labels: Sequence[bool], held_out_share: float, seed: int
) -> gate.Calibration:
    scored = list(zip(probabilities, labels, strict=True))
    fit, held_out = gate.split(len(scored), held_out_share, seed)
    threshold = gate.best_threshold([scored[i] for i in fit])
    precision, recall = gate.precision_recall([scored[i] for i in held_out], threshold)
    return gate.Calibration(threshold, len(fit), len(held_out), precision, recall)
