"""Asking an engine about several states in one call, each different state once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.decisions.passes import Baseline, PassPlan, distinct_states, pass_blocks, pass_specs
from app.decisions.passes import pass_state as state_of_pass
from app.decisions.wire import Answer, Question, State
from app.engines.base import Engine


def ask_distinct(
    engine: Engine, model: str, states: Sequence[State], questions: Mapping[str, Question]
) -> list[dict[str, Answer]]:
    """One engine call for all `states`; a state that repeats (an explain pass whose item sent
    no line asks the answer's own state) is asked once and its answers shared."""
    unique, where = distinct_states(states)
    answers = engine.answer(model, unique, questions)
    return [answers[i] for i in where]


def run_passes(engine: Engine, plan: PassPlan, baseline: Baseline) -> dict[str, Any]:
    """Ask the first engine for every pass of the plan together, and measure them."""
    specs = pass_specs(plan)
    states = [state_of_pass(plan, spec) for spec in specs]
    raw = ask_distinct(engine, plan.model, states, plan.questions) if states else []
    return pass_blocks(plan, baseline, specs, raw)
