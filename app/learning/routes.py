"""Learned memory: a learning request's outcome, the gate's setting, and calibration."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from app.deps import TenantDep, UnitOfWorkRoute, UowDep
from app.engines.registry import default_engine
from app.learning import gate
from app.learning.calibrate import run_calibration
from app.learning.lasting import current_probe
from app.learning.schemas import (
    GATE_CHANGE,
    CalibrateIn,
    CalibrateOut,
    GateIn,
    GateOut,
    LearningOut,
)
from app.learning.service import learning_status, set_gate, wording
from app.settings import get_settings

router = APIRouter(route_class=UnitOfWorkRoute, tags=["learning"])


LEARNING_EXAMPLE: dict[str, Any] = {
    "request_id": "req_3b8e1f0c5d2a4e6f9a7c1b0d2e4f6a8c",
    "status": "stored",
    "probability": 0.98,
    "outcome": {
        "sentences": [
            {"text": "We run the self-hosted edition on Windows Server.", "probability": 0.98},
            {"text": "Dashboards have been slow since this morning.", "probability": 0.02},
        ],
        "threshold": 0.5,
        "stored": ["We run the self-hosted edition on Windows Server."],
        "retired": [],
    },
}
GATE_EXAMPLE: dict[str, Any] = {
    "instructions": gate.DEFAULT_INSTRUCTIONS,
    "true": gate.DEFAULT_TRUE,
    "false": gate.DEFAULT_FALSE,
    "threshold": gate.DEFAULT_THRESHOLD,
    "lasting_probe": True,
}


def _answer(example: Any) -> dict[int | str, dict[str, Any]]:
    return {200: {"content": {"application/json": {"example": example}}}}


@router.get(
    "/v1/learning/{request_id}", response_model=LearningOut, responses=_answer(LEARNING_EXAMPLE)
)
def get_learning(
    request_id: Annotated[str, Path(max_length=40, examples=[LEARNING_EXAMPLE["request_id"]])],
    tenant: TenantDep,
    uow: UowDep,
) -> dict[str, Any]:
    """What the gate decided for a decision sent with `"memory": {"learn": true}`: queued, or
    stored / not_stored with each sentence's probability and the lines stored and retired."""
    return learning_status(uow.session, tenant, request_id)


@router.get("/v1/settings/gate", response_model=GateOut, responses=_answer(GATE_EXAMPLE))
def get_gate(tenant: TenantDep, uow: UowDep) -> dict[str, Any]:
    """The gate's wording and threshold, and whether the lasting probe reads beside the
    engine (it does with the packaged embedding model; with another model the engine's answer
    to the wording is the gate's probability)."""
    question, threshold = wording(uow.session, tenant.id)
    return _gate_out(question, threshold)


@router.put(
    "/v1/settings/gate", response_model=GateOut, responses=_answer({**GATE_EXAMPLE, **GATE_CHANGE})
)
def put_gate(body: GateIn, tenant: TenantDep, uow: UowDep) -> dict[str, Any]:
    """Change the gate's wording (what is worth remembering in your domain) or threshold."""
    question, threshold = set_gate(
        uow.session,
        tenant,
        instructions=body.instructions,
        true=body.true,
        false=body.false,
        threshold=body.threshold,
    )
    return _gate_out(question, threshold)


@router.post("/v1/gate/calibrate", response_model=CalibrateOut)
def calibrate_gate(body: CalibrateIn, tenant: TenantDep, uow: UowDep) -> dict[str, Any]:
    """Pick the threshold that best separates labelled examples on one part, and report
    precision and recall on the held-out rest; `apply: true` sets it for the tenant."""
    calibration = run_calibration(
        uow.session,
        tenant,
        default_engine(),
        current_probe(),
        [(example.request, example.remember) for example in body.examples],
        held_out_share=body.held_out_share,
        seed=body.seed,
        apply=body.apply,
        price=get_settings().price_decision,
    )
    result, probabilities = calibration.result, calibration.probabilities
    return {
        "threshold": result.threshold,
        "previous_threshold": calibration.previous_threshold,
        "applied": body.apply,
        "fit_examples": result.fit_size,
        "held_out_examples": result.held_out_size,
        "held_out_precision": result.precision,
        "held_out_recall": result.recall,
        "probabilities": [round(p, 4) for p in probabilities],
    }


def _gate_out(question: gate.GateWording, threshold: float) -> dict[str, Any]:
    return {
        "instructions": question.instructions,
        "true": question.true,
        "false": question.false,
        "threshold": threshold,
        "lasting_probe": current_probe() is not None,
    }
