"""Recall: which of a subject's lines to show the engine, and where to place them."""

from app.recall.engine import (
    CorruptIndex,
    Hit,
    RecallIndex,
    RecallOptions,
    build_index,
    recall,
    subject_name_words,
)
from app.recall.placement import MEMORY_KEY, Placement, ReservedKey, place

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
