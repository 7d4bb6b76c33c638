"""Exclusion rules remove options in code: pure, no I/O.

A removed option's probability becomes 0 and the others are renormalised (they keep their
ratios). What an option is, per question type (see `app.engines.distribution`):

- choice: an option's name, as in `criteria`;
- noul: "true" (yes) or "false" (no); removing "true" makes the answer a certain no;
- score: a level, by its index ("0", "1", …) or by its text when the level is a string;
- box: nothing to remove, so an exclusion never touches a box question.

An exclusion names a question, or none (`question: null`) to apply to every question that has
the options. Options a question does not have are passed over, so one rule can serve several
kinds of decision. A rule that would leave a question no option at all removes none there and is
listed in `rules_broken` with the reason: an answer must stay possible. Rules apply in order, so
when two rules together would remove every option, the later one is the broken one.

Which options go depends only on the questions asked, not on the engine's answer, so the plan is
made once per decision and applied to the answer and to every pass alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.engines.distribution import (
    NOUL_NO,
    NOUL_YES,
    option_probabilities,
    with_probabilities,
)
from app.engines.wire import (
    Answer,
    ChoiceQuestion,
    NoulQuestion,
    Question,
    ScoreQuestion,
)
from app.rules.evaluate import BrokenRule, Exclusion


@dataclass(frozen=True, slots=True)
class Removal:
    """One option one rule removed from one question."""

    option: str
    rule_id: int
    rule_text: str


@dataclass(frozen=True, slots=True)
class ExclusionPlan:
    """Per question, the options removed and by which rule; and the rules that could not act."""

    removed: dict[str, tuple[Removal, ...]] = field(default_factory=dict)
    broken: tuple[BrokenRule, ...] = ()

    def removed_by(self, rule_id: int) -> list[tuple[str, str]]:
        """(question, option) pairs this rule removed."""
        return [
            (question, removal.option)
            for question, removals in self.removed.items()
            for removal in removals
            if removal.rule_id == rule_id
        ]


def question_options(question: Question) -> dict[str, str]:
    """The names a rule may use for each option of `question`, mapped to the option's key in
    the answer's probabilities (empty for a box)."""
    if isinstance(question, ChoiceQuestion):
        return {label: label for label in question.criteria}
    if isinstance(question, NoulQuestion):
        return {NOUL_YES: NOUL_YES, NOUL_NO: NOUL_NO}
    if isinstance(question, ScoreQuestion):
        names = {str(i): str(i) for i in range(len(question.criteria))}
        for i, level in enumerate(question.criteria):
            if isinstance(level, str):
                names.setdefault(level, str(i))
        return names
    return {}


def plan_exclusions(
    questions: Mapping[str, Question], exclusions: Sequence[Exclusion]
) -> ExclusionPlan:
    """Which options each exclusion removes from the questions of this request."""
    removed: dict[str, list[Removal]] = {}
    broken: list[BrokenRule] = []
    for exclusion in exclusions:
        targets = [exclusion.question] if exclusion.question is not None else list(questions)
        for name in targets:
            question = questions.get(name) if name is not None else None
            if question is None:
                continue
            names = question_options(question)
            keys = list(dict.fromkeys(names.values()))
            gone = {r.option for r in removed.get(name, [])}
            wanted = [names[o] for o in exclusion.options if o in names]
            new = [key for key in dict.fromkeys(wanted) if key not in gone]
            if not new:
                continue
            if gone.union(new) >= set(keys):
                broken.append(
                    BrokenRule(
                        exclusion.rule_id,
                        exclusion.rule_text,
                        f"it would remove every option of question {name!r} "
                        f"({', '.join(keys)}), so it removed none there",
                        question=name,
                    )
                )
                continue
            removed.setdefault(name, []).extend(
                Removal(key, exclusion.rule_id, exclusion.rule_text) for key in new
            )
    return ExclusionPlan({q: tuple(r) for q, r in removed.items()}, tuple(broken))


def apply_exclusions(answers: Mapping[str, Answer], plan: ExclusionPlan) -> dict[str, Answer]:
    """The answers with the planned options at probability 0 and the rest renormalised."""
    result = dict(answers)
    for name, removals in plan.removed.items():
        answer = answers.get(name)
        if answer is not None:
            result[name] = remove_options(answer, {r.option for r in removals})
    return result


def remove_options(answer: Answer, options: set[str]) -> Answer:
    """One answer without `options`. When the engine gave the options left no probability at
    all, they are made equally likely: an answer must still be one of them."""
    probabilities = option_probabilities(answer)
    if probabilities is None or not options & set(probabilities):
        return answer
    kept = {o: p for o, p in probabilities.items() if o not in options}
    total = sum(kept.values())
    renormalised = {
        o: (kept[o] / total if total > 0 else 1 / len(kept)) if o in kept else 0.0
        for o in probabilities
    }
    return with_probabilities(answer, renormalised, possible=len(kept))
