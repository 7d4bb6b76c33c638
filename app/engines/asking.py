"""Asking an engine about several states in one call, each different state once.

Decisions, their compare / explain / placebo passes and the learning gate all ask this way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.engines.base import Engine
from app.engines.wire import Answer, Question, State, serialise


def distinct_states(states: Sequence[State]) -> tuple[list[State], list[int]]:
    """Each different state once (a pass whose item sent no line asks the answer's own state),
    and for each input state the index of its copy."""
    seen: dict[str, int] = {}
    unique: list[State] = []
    where: list[int] = []
    for state in states:
        key = serialise(state)
        if key not in seen:
            seen[key] = len(unique)
            unique.append(state)
        where.append(seen[key])
    return unique, where


def ask_distinct(
    engine: Engine, model: str, states: Sequence[State], questions: Mapping[str, Question]
) -> list[dict[str, Answer]]:
    """One engine call for all `states`; a state that repeats (an explain pass whose item sent
    no line asks the answer's own state) is asked once and its answers shared."""
    unique, where = distinct_states(states)
    answers = engine.answer(model, unique, questions)
    return [answers[i] for i in where]
