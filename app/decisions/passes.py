"""Checking what the memory did: the compare, explain and placebo passes. Pure, no I/O.

Each pass asks the engine about the same state with other lines (none, all but one, neutral
ones) and is measured against the answer shown:

- compare: without the memory, so without its lines and its rules; `changes` per question says
  from which option to which, how far the chosen option moved, and which options a rule removed
  (`excluded`). An option a rule removed keeps the engine's probability in `without_memory`.
- explain: one pass per memory item (up to `MAX_EXPLAIN_ITEMS`) with that item left out: a
  recalled line, or a rule with its fact line, its text and its exclusion; the move per
  question is how much the item raised the chosen option.
- placebo: each line replaced by "<the name it starts with> has a record in this system." and no
  rules. `memory_effect` is what the whole memory did, `content_effect` what its content did
  beyond being there, `presence_only` the questions neutral lines moved as far.

Every pass reads the same state elements as the answer: when placement left out an array's oldest
elements so the lines could be read, each pass is laid out around the elements that were kept, so
it differs from the answer only by its lines. The tenant temperature is applied to every pass as
to the answer. For a question the second tier answered, the passes (asked of the first engine)
are measured against the first engine's own answer, untempered as the answer shows it, and the
question is listed in `measured_on_first`.

A move or effect is a difference of probabilities of the chosen option (see
`app.engines.distribution`), rounded to 4 decimals; box questions have no options and are left
out of moves, changes and effects.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import PlainSerializer, TypeAdapter

from app.decisions.context import ContextLine, ItemKind
from app.engines.distribution import chosen_option, option_probabilities, temper
from app.engines.wire import Answer, Question, State
from app.recall.placement import place
from app.rules.evaluate import Exclusion
from app.rules.exclusions import ExclusionPlan, apply_exclusions, plan_exclusions

MAX_EXPLAIN_ITEMS = 8
PLACEBO_RECORD = "has a record in this system."
PLACEBO_NO_NAME = "This subject"
"""Who a neutral line is about when its line starts with no name ("order.total is 620…")."""

PRESENCE_FLOOR = 0.01
"""A memory effect smaller than this is no effect, so no question is presence-only by it."""
PRESENCE_TOLERANCE = 0.01
"""Neutral lines moved a question "as much" as the real ones when within this of them."""

MOVE_DECIMALS = 4

_ANSWERS = TypeAdapter(dict[str, Answer])
_QUESTIONS = TypeAdapter(dict[str, Question])


# --- what the passes need ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PassItem:
    """A memory item as explain sees it. `acts`: it sent a line or removed an option."""

    kind: ItemKind
    text: str
    read: bool
    acts: bool
    rule_id: int | None = None
    exclusion: Exclusion | None = None

    def to_json(self) -> dict[str, Any]:
        exclusion = self.exclusion
        return {
            "kind": self.kind,
            "text": self.text,
            "read": self.read,
            "acts": self.acts,
            "rule_id": self.rule_id,
            "exclusion": None
            if exclusion is None
            else {"question": exclusion.question, "options": list(exclusion.options)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PassItem:
        found = data.get("exclusion")
        rule_id = data.get("rule_id")
        exclusion = None
        if found is not None and rule_id is not None:
            exclusion = Exclusion(rule_id, data["text"], found["question"], tuple(found["options"]))
        return cls(
            kind=data["kind"],
            text=data["text"],
            read=bool(data["read"]),
            acts=bool(data["acts"]),
            rule_id=rule_id,
            exclusion=exclusion,
        )


@dataclass(frozen=True)
class PassPlan:
    """Everything the passes ask, fixed at the decision's moment.

    state: the request's state as sent; turns_dropped: the array elements placement left out;
    lines: the placed lines with the item each belongs to; items: the memory items in order.
    """

    model: str
    state: State
    questions: dict[str, Question]
    turns_dropped: int
    lines: tuple[ContextLine, ...]
    items: tuple[PassItem, ...]
    temperature: float = 1.0
    compare: bool = False
    explain: bool = False
    placebo: bool = False

    @property
    def wanted(self) -> bool:
        return self.compare or self.explain or self.placebo

    @property
    def exclusions(self) -> list[Exclusion]:
        return [item.exclusion for item in self.items if item.exclusion is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "state": self.state,
            "questions": _QUESTIONS.dump_python(self.questions, mode="json"),
            "turns_dropped": self.turns_dropped,
            "lines": [line.to_json() for line in self.lines],
            "items": [item.to_json() for item in self.items],
            "temperature": self.temperature,
            "compare": self.compare,
            "explain": self.explain,
            "placebo": self.placebo,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PassPlan:
        return cls(
            model=data["model"],
            state=data["state"],
            questions=_QUESTIONS.validate_python(data["questions"]),
            turns_dropped=int(data["turns_dropped"]),
            lines=tuple(ContextLine.from_json(line) for line in data["lines"]),
            items=tuple(PassItem.from_json(item) for item in data["items"]),
            temperature=float(data["temperature"]),
            compare=bool(data["compare"]),
            explain=bool(data["explain"]),
            placebo=bool(data["placebo"]),
        )


@dataclass(frozen=True)
class Baseline:
    """The answers the passes are measured against: the answer shown, except that a question
    the second tier answered is measured on the first engine's own answer (`measured_on_first`),
    which is untempered as the answer shows it."""

    answers: dict[str, Answer]
    measured_on_first: Annotated[frozenset[str], PlainSerializer(sorted)] = field(
        default_factory=frozenset
    )
    """Stored sorted, so the same baseline is always stored the same."""

    def to_json(self) -> dict[str, Any]:
        """`{"answers": {name: answer}, "measured_on_first": [sorted names]}`, as a pass job
        stores it."""
        stored: dict[str, Any] = _BASELINE.dump_python(self, mode="json")
        return stored

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Baseline:
        return _BASELINE.validate_python(dict(data))


_BASELINE = TypeAdapter(Baseline)


@dataclass(frozen=True, slots=True)
class PassSpec:
    """One pass: its lines and the exclusions in force. `item`: the item explain left out."""

    kind: str
    lines: tuple[str, ...]
    exclusions: tuple[Exclusion, ...]
    item: int | None = None


# --- what to ask ---------------------------------------------------------------------------------


def explained_items(plan: PassPlan) -> list[int]:
    """The items explain leaves out one at a time: the first `MAX_EXPLAIN_ITEMS` that act."""
    return [i for i, item in enumerate(plan.items) if item.acts][:MAX_EXPLAIN_ITEMS]


def pass_specs(plan: PassPlan) -> list[PassSpec]:
    """The passes the plan asks for: without memory (compare, and placebo's reference), the
    placebo, then one per explained item."""
    specs: list[PassSpec] = []
    if plan.compare or plan.placebo:
        specs.append(PassSpec("without_memory", (), ()))
    if plan.placebo:
        specs.append(PassSpec("placebo", tuple(placebo_line(line.text) for line in plan.lines), ()))
    if plan.explain:
        for i in explained_items(plan):
            lines = tuple(line.text for line in plan.lines if line.owner != i)
            exclusions = tuple(
                item.exclusion
                for j, item in enumerate(plan.items)
                if j != i and item.exclusion is not None
            )
            specs.append(PassSpec("explain", lines, exclusions, item=i))
    return specs


def pass_state(plan: PassPlan, spec: PassSpec) -> State:
    """The state a pass asks about: the lines laid out as placement lays them, around the very
    elements the answer read (an array's elements from `turns_dropped` on)."""
    return lay_out(plan.state, list(spec.lines), plan.turns_dropped)


def lay_out(state: State, lines: list[str], turns_dropped: int = 0) -> State:
    """`lines` before `state` as placement places them, leaving out nothing more: placement with
    a window nothing can fill, on the elements already kept."""
    kept = state[turns_dropped:] if isinstance(state, list) else state
    return place(kept, lines, window_tokens=1, count_tokens=lambda _: 0).state


# --- placebo lines -------------------------------------------------------------------------------

_SENTENCE_STARTERS = frozenset(
    """A An The This That These Those Never Always Do Don't Does Did If When Where While In On At
    For From To With By Of Our We They It Its He She I You Your My His Her Their Please No Not
    All Every Each Only Any Some Use Avoid Send Call Ask After Before Since Unless""".split()
)
_NAME_WORD = re.compile(r"^[\"“‘(\[]*([^\W\d_][\w'’&.\-]*?)((?:['’]s)?[,;:.!?\")\]”’]*)$")
_MAX_NAME_WORDS = 6


def leading_name(text: str) -> str | None:
    """The capitalised words a line starts with ("North Traders renewed…" → "North Traders"),
    a usual sentence opener ("The", "Never", "In") passed over; None when there are none."""
    words: list[str] = []
    for position, token in enumerate(text.split()):
        match = _NAME_WORD.match(token)
        if match is None or not match.group(1)[:1].isupper():
            break
        word, tail = match.group(1).rstrip("."), match.group(2)
        if position == 0 and word in _SENTENCE_STARTERS:
            continue
        words.append(word)
        if tail or len(words) == _MAX_NAME_WORDS:
            break  # "Traders," or "ACME's" ends the name
    return " ".join(words) or None


def placebo_line(text: str) -> str:
    """A neutral line in place of a memory line: "North Traders has a record in this system."
    It keeps who the line is about and says nothing else."""
    return f"{leading_name(text) or PLACEBO_NO_NAME} {PLACEBO_RECORD}"


# --- measuring -----------------------------------------------------------------------------------


def pass_answers(
    plan: PassPlan, baseline: Baseline, raw: Mapping[str, Answer], exclusions: ExclusionPlan
) -> dict[str, Answer]:
    """A pass's answers as the answer shown is made: the tenant temperature (not for questions
    measured on first, which are untempered), then the pass's exclusions."""
    tempered = {
        name: answer if name in baseline.measured_on_first else temper(answer, plan.temperature)
        for name, answer in raw.items()
    }
    return apply_exclusions(tempered, exclusions)


def pass_blocks(
    plan: PassPlan,
    baseline: Baseline,
    specs: Sequence[PassSpec],
    raw: Sequence[Mapping[str, Answer]],
) -> dict[str, Any]:
    """The `without_memory`, `changes`, `explain` and `placebo` blocks from the passes' raw
    engine answers (one per spec, in order). Blocks not asked for are None."""
    main_plan = plan_exclusions(plan.questions, plan.exclusions)
    answered: dict[str, dict[str, Answer]] = {}
    explained: list[tuple[PassSpec, dict[str, Answer]]] = []
    for spec, answers in zip(specs, raw, strict=True):
        removed = plan_exclusions(plan.questions, spec.exclusions)
        shown = pass_answers(plan, baseline, answers, removed)
        if spec.kind == "explain":
            explained.append((spec, shown))
        else:
            answered[spec.kind] = shown
    without = answered.get("without_memory")
    blocks: dict[str, Any] = {
        "without_memory": None,
        "changes": None,
        "explain": None,
        "placebo": None,
    }
    if plan.compare and without is not None:
        blocks["without_memory"] = _dump(without)
        blocks["changes"] = changes(baseline, without, main_plan)
    if plan.explain:
        blocks["explain"] = [
            explain_entry(plan, baseline, spec, answers) for spec, answers in explained
        ]
    if plan.placebo and without is not None and "placebo" in answered:
        blocks["placebo"] = placebo_block(baseline, without, answered["placebo"])
    return blocks


def changes(
    baseline: Baseline, without: Mapping[str, Answer], plan: ExclusionPlan
) -> dict[str, dict[str, Any]]:
    """Per question: from (without memory) to (with), how far the chosen option moved, the
    options rules removed with the rule's text, and whether a rule took the answer away (the
    answer without memory is one of them)."""
    result: dict[str, dict[str, Any]] = {}
    for name, answer in baseline.answers.items():
        to = chosen_option(answer)
        before = without.get(name)
        if to is None or before is None:
            continue
        start = chosen_option(before)
        excluded = [{"option": r.option, "rule": r.rule_text} for r in plan.removed.get(name, ())]
        result[name] = {
            "from": start,
            "to": to,
            "moved": _move(answer, before, to),
            "excluded": excluded,
            "taken_by_rule": any(e["option"] == start for e in excluded),
            "measured_on_first": name in baseline.measured_on_first,
        }
    return result


def explain_entry(
    plan: PassPlan, baseline: Baseline, spec: PassSpec, answers: Mapping[str, Answer]
) -> dict[str, Any]:
    """One explained item: how much it raised each question's chosen option (negative: it
    lowered it), and the questions whose answer would change without it (`flips`)."""
    assert spec.item is not None
    item = plan.items[spec.item]
    moves: dict[str, float] = {}
    flips: list[str] = []
    for name, answer in baseline.answers.items():
        chosen = chosen_option(answer)
        other = answers.get(name)
        if chosen is None or other is None:
            continue
        moves[name] = _move(answer, other, chosen)
        if chosen_option(other) != chosen:
            flips.append(name)
    entry: dict[str, Any] = {"text": item.text, "kind": item.kind, "read": item.read}
    if item.rule_id is not None:
        entry["rule_id"] = item.rule_id
    entry.update(
        moves=moves,
        flips=flips,
        measured_on_first=sorted(baseline.measured_on_first & set(moves)),
    )
    return entry


def placebo_block(
    baseline: Baseline, without: Mapping[str, Answer], placebo: Mapping[str, Answer]
) -> dict[str, Any]:
    """What the memory's content did (against neutral lines) and what the whole memory did
    (against none); presence_only: the questions neutral lines moved as far, in the same way."""
    content: dict[str, float] = {}
    memory: dict[str, float] = {}
    presence_only: list[str] = []
    for name, answer in baseline.answers.items():
        chosen = chosen_option(answer)
        neutral, bare = placebo.get(name), without.get(name)
        if chosen is None or neutral is None or bare is None:
            continue
        memory[name] = _move(answer, bare, chosen)
        content[name] = _move(answer, neutral, chosen)
        if is_presence_only(memory[name], _move(neutral, bare, chosen)):
            presence_only.append(name)
    return {
        "answers": _dump(placebo),
        "content_effect": content,
        "memory_effect": memory,
        "presence_only": presence_only,
        "measured_on_first": sorted(baseline.measured_on_first & set(memory)),
    }


def is_presence_only(memory_effect: float, placebo_effect: float) -> bool:
    """The memory moved the question, and neutral lines moved it at least as far the same way."""
    if abs(memory_effect) < PRESENCE_FLOOR:
        return False
    direction = 1.0 if memory_effect > 0 else -1.0
    return placebo_effect * direction >= abs(memory_effect) - PRESENCE_TOLERANCE


def _move(after: Answer, before: Answer, option: str) -> float:
    """How much `option`'s probability rose from `before` to `after`."""
    now, then = option_probabilities(after) or {}, option_probabilities(before) or {}
    return round(now.get(option, 0.0) - then.get(option, 0.0), MOVE_DECIMALS)


def _dump(answers: Mapping[str, Answer]) -> dict[str, Any]:
    return {name: answer.model_dump() for name, answer in answers.items()}
