"""Forget by concept: remove every line and rule that holds it, say what was uncertain, prove it.

The matcher decides (pure); this service loads the subject under its row lock, removes, moves the
subject's version so no cache or recall index can serve a removed line again, and checks the
result against what PostgreSQL now holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.forget.matcher import plan_forget
from app.forget.schemas import ForgetIn, ForgetOut, LinesAndRules, RuleRef
from app.forget.verify import verify_forgotten
from app.idempotency import repository as idempotent_answers
from app.ledger.service import charge
from app.memory import repository as repo
from app.memory.service import MemoryService, usage_of
from app.tenants.service import CurrentTenant


@dataclass
class ForgetService:
    memory: MemoryService

    def forget(self, tenant: CurrentTenant, body: ForgetIn) -> ForgetOut:
        session = self.memory.session
        subject = self.memory.locked_subject(tenant, body.subject)
        lines = repo.lines_with_ids(session, subject.id)
        rules = repo.rule_texts_with_ids(session, subject.id)
        line_plan = plan_forget(body.concept, [text for _, text in lines])
        rule_plan = plan_forget(body.concept, [text for _, text in rules])
        answer = ForgetOut(
            subject=body.subject,
            preview=body.preview,
            removed_lines=[lines[i][1] for i in line_plan.removed],
            removed_rules=_refs(rules, rule_plan.removed),
            related=_both(lines, rules, line_plan.related, rule_plan.related),
            matched_unsure=_both(lines, rules, line_plan.unsure, rule_plan.unsure),
        )
        if body.preview:
            return answer  # no removal, no ledger line, no usage, no verification

        deleted = repo.delete_lines(session, subject, [lines[i][0] for i in line_plan.removed])
        # We hold the subject's row lock, so exactly the planned lines go and the rest stay.
        if deleted != len(line_plan.removed):
            raise RuntimeError("forget: the stored lines differ from the plan; rolled back")
        removed_rule_ids = [rules[i][0] for i in rule_plan.removed]
        if removed_rule_ids:
            repo.delete_rules(session, subject.id, removed_rule_ids)
        # A stored answer to a retried remember may quote what just went.
        idempotent_answers.forget_subjects(session, tenant.id, [subject.name])
        self.memory.written(
            tenant,
            subject,
            "memory.forget",
            ids=removed_rule_ids,
            counts={
                "lines": len(line_plan.removed),
                "rules": len(removed_rule_ids),
                "unsure": len(line_plan.unsure) + len(rule_plan.unsure),
            },
        )
        gone_lines, gone_rules = set(line_plan.removed), set(rule_plan.removed)
        kept_lines = [text for i, (_, text) in enumerate(lines) if i not in gone_lines]
        kept_rules = [text for i, (_, text) in enumerate(rules) if i not in gone_rules]
        verdict = verify_forgotten(
            body.concept,
            removed=answer.removed_lines + [rule.text for rule in answer.removed_rules],
            kept_lines=kept_lines,
            kept_rules=kept_rules,
        )
        ledger = charge(
            session,
            tenant,
            route="memory.forget",
            cost=self.memory.settings.price_forget,
            subject=body.subject,
            required=False,
        )
        return answer.model_copy(
            update={
                "verified_forgotten": verdict.verified,
                "leaks": verdict.leaks,
                "usage": usage_of(ledger),
            }
        )


def _refs(rules: list[tuple[int, str]], indices: list[int]) -> list[RuleRef]:
    return [RuleRef(id=rules[i][0], text=rules[i][1]) for i in indices]


def _both(
    lines: list[tuple[int, str]],
    rules: list[tuple[int, str]],
    line_ix: list[int],
    rule_ix: list[int],
) -> LinesAndRules:
    return LinesAndRules(lines=[lines[i][1] for i in line_ix], rules=_refs(rules, rule_ix))
