"""How a history import is cut into batches (app.facts.history, pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.facts.history import BATCH_TURNS, PastTurn, batches_of

START = datetime(2025, 1, 1, tzinfo=UTC)


def turn(minutes: int, thread: str = "") -> PastTurn:
    return PastTurn(f"turn {minutes}", START + timedelta(minutes=minutes), thread)


def test_turns_are_batched_oldest_first_by_thread_run() -> None:
    turns = [turn(3, "b"), turn(1, "a"), turn(2, "a"), turn(4, "a")]
    runs = batches_of(turns)
    assert [[t.text for t in run] for run in runs] == [
        ["turn 1", "turn 2"],
        ["turn 3"],
        ["turn 4"],  # thread a again, after b: a batch of its own, so order holds
    ]


def test_a_long_run_of_one_thread_is_cut_at_the_batch_size() -> None:
    runs = batches_of([turn(n) for n in range(2 * BATCH_TURNS + 1)])
    assert [len(run) for run in runs] == [BATCH_TURNS, BATCH_TURNS, 1]
    assert [t.said_at for run in runs for t in run] == sorted(
        t.said_at for run in runs for t in run
    )
