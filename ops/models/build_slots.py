"""Train the extractor's slot classifier: which slot does a lasting statement fill?

    python ops/models/build_slots.py      # writes app/facts/slots_model.npz

One ridge regression per slot (targets +1 for the slot's sentences, -1 for the others) over the
default static model's sentence vectors and the sentence's hashed words
(`app.facts.durable.slot_features`), trained on ops/models/data/slots_train_a.jsonl, _b (24
everyday sentences per slot, written for this, in many phrasings) and _c (40 per slot in chat style:
lowercase, filler, the fact tucked into a longer message; written by a helper who had seen neither
evaluation set). A sentence's slot is the one
scoring highest. Deterministic; numpy only; tied to the embedding model's name.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.facts.durable import SLOTS_FILE, SlotsAbout, slot_features  # noqa: E402

DATA = (
    ROOT / "ops/models/data/slots_train_a.jsonl",
    ROOT / "ops/models/data/slots_train_b.jsonl",
    ROOT / "ops/models/data/slots_train_c.jsonl",
)
RIDGES = (0.1, 0.3, 1.0, 3.0)
FOLDS = 5


def ridge(features: np.ndarray, targets: np.ndarray, strength: float) -> np.ndarray:
    design = np.hstack([features, np.ones((len(features), 1))])
    identity = np.eye(design.shape[1])
    return np.linalg.solve(design.T @ design + strength * identity, design.T @ targets)


def predict(weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    return np.asarray((features @ weights[:-1] + weights[-1]).argmax(axis=1))


def cross_validated_accuracy(
    features: np.ndarray, targets: np.ndarray, labels: np.ndarray, strength: float
) -> float:
    order = np.random.default_rng(0).permutation(len(features))
    right = 0
    for fold in np.array_split(order, FOLDS):
        fit = np.ones(len(features), dtype=bool)
        fit[fold] = False
        weights = ridge(features[fit], targets[fit], strength)
        right += int((predict(weights, features[fold]) == labels[fold]).sum())
    return right / len(features)


def main() -> None:
    rows = [
        json.loads(line) for path in DATA for line in path.read_text().splitlines() if line.strip()
    ]
    slots = sorted({row["slot"] for row in rows})
    labels = np.array([slots.index(row["slot"]) for row in rows])
    targets = -np.ones((len(rows), len(slots)))
    targets[np.arange(len(rows)), labels] = 1
    embedder = StaticEmbedder(DEFAULT_MODEL)
    features = slot_features(embedder, [row["text"] for row in rows]).astype(np.float64)
    accuracy = {r: cross_validated_accuracy(features, targets, labels, r) for r in RIDGES}
    strength = max(RIDGES, key=lambda r: accuracy[r])
    weights = ridge(features, targets, strength)
    about = SlotsAbout(
        model=embedder.name,
        slots=tuple(slots),
        ridge=strength,
        trained_on=f"ops/models/data/slots_train_*.jsonl ({len(rows)} sentences)",
        cross_validated_accuracy=round(accuracy[strength], 4),
    )
    with SLOTS_FILE.open("wb") as out:
        np.savez_compressed(out, weights=weights.astype(np.float32), about=about.model_dump_json())
    shown = ", ".join(f"{r}: {a:.3f}" for r, a in accuracy.items())
    print(
        f"{SLOTS_FILE.relative_to(ROOT)}: {len(rows)} sentences, {len(slots)} slots; "
        f"5-fold accuracy by ridge strength {shown}; kept {strength}"
    )


if __name__ == "__main__":
    main()
