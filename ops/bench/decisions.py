"""Does memory make the embedded engine's decisions right, and does the gate keep lasting facts?

    python ops/bench/decisions.py            # every set, words alone beside words and meaning
    python ops/bench/decisions.py --tuning   # the tuning sets only (what the engine was tuned on)
    python ops/bench/decisions.py -v         # and each miss

The engine alone, in process (no services): each case's state is decided once without memory and
once with the subject's memory lines under "dossier_memory", by `dossier-lexical-1` (words alone,
the engine before meaning) and `dossier-hybrid-1` (words and meaning, the default).

Sets, and which is which:
- tuning (chosen on): the support-routing example of `dossier demo` (app/demo/routing.py);
  ops/bench/data/decisions_tuning.json (an IT helpdesk, and the routing example reworded) and
  decisions_tuning_more.json (insurance claims, a GP practice, a hotel chain);
  ops/bench/data/gate_tuning.jsonl (60 labelled sentences) and the cookbook's five tickets;
- held out (written before tuning by someone who had not seen the engine, measured, never tuned
  on): tests/data/decisions_heldout.json (a hospital meal service, an energy supplier) and
  tests/data/gate_heldout.jsonl (80 labelled sentences, 8 domains).

The gate's figures are those `POST /v1/gate/calibrate` reports (the same functions): the
threshold fitted on 70% of the examples, precision and recall on the held-out 30%, averaged over
five seeds; and how many sentences score exactly 0.5. Three readers: the lexical engine (the gate
before), the hybrid engine alone, and the hybrid engine with the lasting probe (the default).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pydantic import TypeAdapter  # noqa: E402

from app.demo import routing  # noqa: E402
from app.embeddings.loader import current_embedder  # noqa: E402
from app.engines.embedded import (  # noqa: E402
    HYBRID_MODEL,
    LEXICAL_MODEL,
    MEMORY_KEY,
    EmbeddedEngine,
)
from app.engines.wire import ChoiceAnswer, NoulAnswer, Question  # noqa: E402
from app.learning import gate  # noqa: E402
from app.learning.calibrate import calibrate, example_probabilities  # noqa: E402
from app.learning.lasting import LastingProbe, current_probe  # noqa: E402

TUNING_DECISIONS = (
    ROOT / "ops/bench/data/decisions_tuning.json",
    ROOT / "ops/bench/data/decisions_tuning_more.json",
)
HELDOUT_DECISIONS = ROOT / "tests/data/decisions_heldout.json"
TUNING_GATE = ROOT / "ops/bench/data/gate_tuning.jsonl"
HELDOUT_GATE = ROOT / "tests/data/gate_heldout.jsonl"
MODELS = (LEXICAL_MODEL, HYBRID_MODEL)
SEEDS = range(5)

_QUESTIONS = TypeAdapter(dict[str, Question])


@dataclass(frozen=True)
class Case:
    id: str
    state: Any
    memory: list[str]
    questions: dict[str, Question]
    expected: dict[str, str | bool]


@dataclass
class Tally:
    right: int = 0
    asked: int = 0

    def __str__(self) -> str:
        return f"{self.right}/{self.asked}" if self.asked else "-"


def decision_sets(path: Path) -> dict[str, list[Case]]:
    sets: dict[str, list[Case]] = {}
    for entry in json.loads(path.read_text())["sets"]:
        questions = _QUESTIONS.validate_python(entry["questions"])
        sets[entry["domain"]] = [
            Case(
                case["id"],
                case["state"],
                entry["subjects"][case["subject"]],
                questions,
                case["expected"],
            )
            for case in entry["cases"]
        ]
    return sets


def routing_set() -> list[Case]:
    questions = _QUESTIONS.validate_python(routing.ROUTE)
    return [
        Case(
            ticket.id,
            routing.ticket_state(ticket),
            routing.lasting_facts(ticket.customer_id),
            questions,
            {"team": ticket.expected_team},
        )
        for ticket in routing.LATER_MESSAGES
    ]


def with_memory(state: Any, lines: Sequence[str]) -> Any:
    return {MEMORY_KEY: list(lines), **state}


def decide(engine: EmbeddedEngine, model: str, cases: list[Case], verbose: bool) -> list[str]:
    """'choice without → with; noul without → with' for one model over a set."""
    tallies = {kind: (Tally(), Tally()) for kind in ("choice", "noul")}
    for case in cases:
        for key, expected in case.expected.items():
            question = {key: case.questions[key]}
            for memory, state in enumerate((case.state, with_memory(case.state, case.memory))):
                answer = engine.answer(model, [state], question)[0][key]
                if isinstance(answer, ChoiceAnswer):
                    tally, right = tallies["choice"][memory], answer.choice == expected
                    got: Any = answer.choice
                else:
                    assert isinstance(answer, NoulAnswer)
                    tally, right = tallies["noul"][memory], (answer.noul > 0.5) == expected
                    got = answer.noul
                tally.asked += 1
                tally.right += right
                if verbose and memory and not right:
                    print(f"    {model} miss {case.id} {key}: expected {expected}, got {got}")
    return [f"{kind} {a} → {b}" for kind, (a, b) in tallies.items() if a.asked]


def gate_figures(engine: EmbeddedEngine, model: str, probe: LastingProbe | None, path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    probabilities = example_probabilities(
        _Pinned(engine, model), probe, gate.GateWording(), [r["request"] for r in rows]
    )
    labels = [bool(r["remember"]) for r in rows]
    undecided = sum(p == gate.UNDECIDED for p in probabilities)
    results = [calibrate(probabilities, labels, 0.3, seed) for seed in SEEDS]
    precision = [r.precision or 0.0 for r in results]
    recall = [r.recall or 0.0 for r in results]
    return (
        f"AUC {_auc(probabilities, labels):.3f}, "
        f"precision {sum(precision) / len(precision):.2f} recall {sum(recall) / len(recall):.2f} "
        f"(mean of {len(results)} splits; thresholds "
        f"{', '.join(f'{r.threshold:.2f}' for r in results)}), "
        f"exactly 0.5: {undecided}/{len(rows)}"
    )


def _auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """How often a sentence worth keeping scores above one that is not (ties count half)."""
    kept = [s for s, label in zip(scores, labels, strict=True) if label]
    left = [s for s, label in zip(scores, labels, strict=True) if not label]
    wins = sum((k > n) + 0.5 * (k == n) for k in kept for n in left)
    return wins / (len(kept) * len(left))


class _Pinned:
    """The engine answering with one model whatever the gate asks for (the gate asks for the
    engine's default)."""

    def __init__(self, engine: EmbeddedEngine, model: str) -> None:
        self._engine = engine
        self._model = model
        self.name = engine.name
        self.read_window_tokens = engine.read_window_tokens

    def count_tokens(self, text: str) -> int:
        return self._engine.count_tokens(text)

    def models(self) -> list[str]:
        return [self._model]

    def answer(self, model: str, states: Any, questions: Any) -> Any:
        return self._engine.answer(self._model, states, questions)


def learned_from_cookbook(engine: EmbeddedEngine, model: str, probe: LastingProbe | None) -> str:
    """The five earlier tickets of `dossier demo --learn` through the default gate at 0.5."""
    requests = [routing.ticket_state(ticket) for ticket in routing.EARLIER_TICKETS]
    probabilities = example_probabilities(
        _Pinned(engine, model), probe, gate.GateWording(), requests
    )
    right = sum(
        gate.passes(p, gate.DEFAULT_THRESHOLD) == (ticket.lasting_fact is not None)
        for p, ticket in zip(probabilities, routing.EARLIER_TICKETS, strict=True)
    )
    shown = ", ".join(f"{p:.2f}" for p in probabilities)
    return f"{right}/5 kept or left as they should be (P {shown})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tuning", action="store_true", help="the tuning sets only")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each miss")
    args = parser.parse_args()
    engine = EmbeddedEngine(current_embedder())
    readers = [
        ("words alone (before)", LEXICAL_MODEL, None),
        ("meaning, engine alone", HYBRID_MODEL, None),
        ("meaning + lasting probe", HYBRID_MODEL, current_probe()),
    ]
    groups: list[tuple[str, dict[str, list[Case]], Path | None]] = [
        (
            "tuning",
            {
                "support routing (dossier demo)": routing_set(),
                **{k: v for path in TUNING_DECISIONS for k, v in decision_sets(path).items()},
            },
            TUNING_GATE,
        )
    ]
    if not args.tuning:
        groups.append(("held out", decision_sets(HELDOUT_DECISIONS), HELDOUT_GATE))
    for group, sets, gate_path in groups:
        print(f"== {group}: right without memory → with memory")
        for name, cases in sets.items():
            print(f"  {name} ({len(cases)} cases)")
            for model in MODELS:
                print(f"    {model:<18} " + "; ".join(decide(engine, model, cases, args.verbose)))
        if gate_path is not None:
            print(f"  gate, {gate_path.name}")
            for label, model, probe in readers:
                print(f"    {label:<28} {gate_figures(engine, model, probe, gate_path)}")
    print("== dossier demo --learn (tuning)")
    for label, model, probe in readers:
        print(f"    {label:<28} {learned_from_cookbook(engine, model, probe)}")


if __name__ == "__main__":
    main()
