"""The graph of an end-user's facts: the user, the entities their facts name, and one edge per
fact (retired ones included, with their end day; forgotten ones are gone with their rows)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from app.facts.models import Fact, fact_status
from app.facts.schemas import GraphEdge, GraphNode
from app.text.words import fold

USER_NODE = "user"

RELATIONS: dict[str, tuple[str, str]] = {
    "employer": ("works_at", "organization"),
    "role": ("works_as", "role"),
    "office": ("works_in_office", "place"),
    "team": ("member_of", "team"),
    "home": ("lives_in", "place"),
    "origin": ("comes_from", "place"),
    "nationality": ("nationality", "nationality"),
    "manager": ("reports_to", "person"),
    "works_with": ("works_with", "person"),
    "partner": ("partner", "person"),
    "child": ("parent_of", "person"),
    "pet": ("owns_pet", "animal"),
    "uses": ("uses", "tool"),
    "responsibility": ("responsible_for", "topic"),
    "likes": ("likes", "topic"),
    "dislikes": ("dislikes", "topic"),
    "allergy": ("allergic_to", "topic"),
    "diet": ("diet", "diet"),
    "language": ("speaks", "language"),
    "email": ("contact", "contact"),
    "phone": ("contact", "contact"),
}


def build_graph(facts: Sequence[Fact], today: date) -> tuple[list[GraphNode], list[GraphEdge]]:
    nodes: dict[str, GraphNode] = {USER_NODE: GraphNode(id=USER_NODE, type="user", label="user")}
    edges: list[GraphEdge] = []
    for fact in sorted(facts, key=lambda f: f.id):
        relation, node = _target(fact)
        nodes.setdefault(node.id, node)
        status = fact_status(fact, today)
        edges.append(
            GraphEdge(
                source=USER_NODE,
                target=node.id,
                relation=relation,
                fact_id=fact.id,
                status=status,
                valid_from=fact.valid_from,
                valid_until=fact.valid_until,
                happened_on=fact.happened_on,
                retired_on=fact.retired_on or (fact.valid_until if status == "retired" else None),
            )
        )
    return list(nodes.values()), edges


def _target(fact: Fact) -> tuple[str, GraphNode]:
    if fact.kind == "event":
        return "did", GraphNode(id=f"event:{fact.id}", type="event", label=fact.text)
    slot = fact.slot or ""
    if fact.value and (slot in RELATIONS or slot.startswith("favourite:")):
        relation, kind = RELATIONS.get(slot, (slot.replace(":", "_"), "topic"))
        key = f"{kind}:{'-'.join(fold(fact.value).split())}"
        return relation, GraphNode(id=key, type=kind, label=fact.value)
    if slot:
        return slot, GraphNode(id=f"attribute:{fact.id}", type="attribute", label=fact.text)
    return "knows", GraphNode(id=f"fact:{fact.id}", type="fact", label=fact.text)
