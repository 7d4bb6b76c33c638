"""Recall: which of a subject's lines to show the engine, and where to place them."""

from app.recall.index import CorruptIndex, RecallIndex, build_index
from app.recall.placement import MEMORY_KEY, Placement, ReservedKey, place
from app.recall.scoring import Hit, RecallOptions, recall
from app.recall.terms import subject_name_words

__all__ = [
    "MEMORY_KEY",
    "CorruptIndex",
    "Hit",
    "Placement",
    "RecallIndex",
    "RecallOptions",
    "ReservedKey",
    "build_index",
    "place",
    "recall",
    "subject_name_words",
]
