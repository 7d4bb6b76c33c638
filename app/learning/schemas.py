"""Request and answer bodies of the learning routes: a learning request's outcome, the gate's
setting, and calibration."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt


class Example(BaseModel):
    model_config = ConfigDict(extra="forbid")
    request: Any = Field(description="a request's state, as sent to /v1/systemone")
    remember: StrictBool = Field(description="does it state a lasting fact worth keeping?")


class CalibrateIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "examples": [
                        {"request": "We run the self-hosted edition on Linux.", "remember": True},
                        {"request": "I'm typing on my phone at the airport.", "remember": False},
                        {"request": "We are on the enterprise plan.", "remember": True},
                        {"request": "Could you resend last month's invoice?", "remember": False},
                    ],
                    "held_out_share": 0.5,
                    "apply": False,
                }
            ]
        },
    )
    examples: list[Example] = Field(min_length=4, max_length=5_000)
    held_out_share: StrictFloat = Field(0.3, gt=0, lt=1)
    seed: StrictInt = 0
    apply: StrictBool = False


GATE_CHANGE: dict[str, Any] = {
    "instructions": "Does `request` state a fact about the customer that stays true: the "
    "edition, operating system or plan they use, their role, or a standing preference?",
    "threshold": 0.6,
}


class GateIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [GATE_CHANGE]})
    instructions: str | None = Field(None, min_length=1, max_length=2_000)
    true: str | None = Field(None, min_length=1, max_length=2_000)
    false: str | None = Field(None, min_length=1, max_length=2_000)
    threshold: StrictFloat | None = Field(None, ge=0, le=1)


class LearningOut(BaseModel):
    request_id: str
    status: Literal["queued", "stored", "not_stored", "failed"]
    probability: float | None
    outcome: dict[str, Any] | None = Field(
        description="each sentence's probability, the threshold, the lines stored and retired; "
        '`{"error"}` when the gate failed; null while queued'
    )


class GateOut(BaseModel):
    instructions: str
    true: str
    false: str
    threshold: float
    lasting_probe: bool = Field(
        description="the packaged embedding model's lasting probe reads beside the engine"
    )


class CalibrateOut(BaseModel):
    threshold: float
    previous_threshold: float
    applied: bool
    fit_examples: int
    held_out_examples: int
    held_out_precision: float | None
    held_out_recall: float | None
    probabilities: list[float] = Field(description="each example's, rounded to 4 decimals")
