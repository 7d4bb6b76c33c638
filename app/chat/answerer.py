"""The embedded answerer: with no chat endpoint configured, Dossier answers extractively from
what retrieval found, and says so, so the whole flow runs offline."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.knowledge.retrieval import KnowledgeHit
from app.recall.terms import content_terms

MODEL = "dossier-extractive-1"
PREFIX = "Dossier's embedded answerer (extractive, no language model configured)"
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def answer(question: str, hits: Sequence[KnowledgeHit], most: int = 3) -> str:
    if not hits:
        return (
            f"{PREFIX}: nothing retrieved answers this. Set DOSSIER_CHAT_URL for a language "
            "model to answer freely."
        )
    wanted = set(content_terms(question))
    lines = []
    for hit in hits[:most]:
        sentence = _best_sentence(hit.text, wanted)
        where = "about you" if hit.type == "fact" else f"{hit.title} ({hit.collection})"
        lines.append(f"- {sentence} [{where}]")
    return f"{PREFIX}, from what was retrieved:\n" + "\n".join(lines)


def _best_sentence(text: str, wanted: set[str]) -> str:
    sentences = [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]
    if not sentences:
        return text.strip()
    return max(sentences, key=lambda s: (len(wanted.intersection(content_terms(s))), -len(s)))
