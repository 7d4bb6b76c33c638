"""Train the extractor's slot tagger: which slot's value is each word of a message part of?

    python ops/models/build_tagger.py     # writes app/facts/tagger_model.crfsuite and
                                          # app/facts/tagger_words.npz (about 3 minutes)

A linear-chain CRF (python-crfsuite, L-BFGS with L1 `C1` and L2 `C2`) over
`app.facts.tagger.word_features`, trained on the everyday tuning sets
(ops/bench/data/extraction_tuning*.jsonl, every message labelled with the values it states):
each message is read as the extractor reads it (`app.facts.embedded.read_sentences`: chat's
spelling read back, pasted and made-believe text left out) and each labelled value of a fact
tags its words (B-slot, I-slot), every other word O; chatter is all O. Never the held-out sets
(tests/data/). The word clusters are k-means (`CLUSTERS` centroids, seeded, numpy) over the
static model's vectors of the sets' words. Deterministic; tied to the embedding model's name.
ops/models/folds.py trains it on three quarters of the sets and scores the fourth.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import numpy as np
import pycrfsuite

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ops/models"))

from build_durable import TUNING  # noqa: E402

from app.embeddings.base import Embedder  # noqa: E402
from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.facts.embedded import read_sentences  # noqa: E402
from app.facts.tagger import (  # noqa: E402
    CLUSTERS,
    TAGGER_FILE,
    WORDS_FILE,
    TaggerAbout,
    tokens_of,
    value_tags,
    word_features,
)

C1 = 0.05
C2 = 0.01
"""Chosen once, not tuned: CRFsuite's usual small L1 and L2 strengths."""
ITERATIONS = 150
KMEANS_ROUNDS = 15


def messages(paths: list[Path]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each message of the sets as the extractor reads it, with its facts' (slot, value)s."""
    found = []
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line) if line.strip() else {}
            if "text" not in row:
                continue
            values = [
                (item["slot"], item["value"])
                for item in row["expect"]
                if item.get("kind") == "fact" and item.get("slot") and item.get("value")
            ]
            text = " ".join(read_sentences(row["text"]))
            if text:
                found.append((text, values))
    return found


def word_clusters(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """`CLUSTERS` unit centroids of the texts' words' vectors (spherical k-means, seeded)."""
    words = sorted(
        {token.text.lower().replace("’", "'") for text in texts for token in tokens_of(text)}
    )
    vectors = embedder.encode([word for word in words if word[:1].isalnum()])
    rng = np.random.default_rng(0)
    centroids = vectors[rng.choice(len(vectors), CLUSTERS, replace=False)].copy()
    for _ in range(KMEANS_ROUNDS):
        nearest = (vectors @ centroids.T).argmax(axis=1)
        for c in range(CLUSTERS):
            members = vectors[nearest == c]
            if len(members):
                mean = members.mean(axis=0)
                centroids[c] = mean / (np.linalg.norm(mean) + 1e-9)
    return centroids.astype(np.float32)


def train(embedder: Embedder, paths: list[Path], model: Path) -> tuple[np.ndarray, int, int]:
    """Train on the sets: writes the model, returns the centroids, messages and tagged values."""
    labelled = messages(paths)
    centroids = word_clusters(embedder, [text for text, _ in labelled])
    trainer = pycrfsuite.Trainer(verbose=False)
    values = 0
    for text, facts in labelled:
        tokens = tokens_of(text)
        tags = value_tags(text, tokens, facts)
        values += sum(tag.startswith("B-") for tag in tags)
        trainer.append(word_features(embedder, centroids, text, tokens), tags)
    trainer.set_params(
        {
            "c1": C1,
            "c2": C2,
            "max_iterations": ITERATIONS,
            "feature.possible_transitions": True,
        }
    )
    trainer.train(str(model))
    return centroids, len(labelled), values


def main() -> None:
    embedder = StaticEmbedder(DEFAULT_MODEL)
    centroids, count, values = train(embedder, TUNING, TAGGER_FILE)
    about = TaggerAbout(
        model=embedder.name,
        trained_on=(
            f"{count} messages, {values} tagged values: {len(TUNING)} tuning sets ("
            + ", ".join(path.name for path in TUNING)
            + ")"
        ),
        c1=C1,
        c2=C2,
    )
    with WORDS_FILE.open("wb") as out:
        np.savez_compressed(
            out, centroids=centroids.astype(np.float16), about=about.model_dump_json()
        )
    print(f"{TAGGER_FILE.relative_to(ROOT)}: {about.trained_on}; trained {date.today()}")


if __name__ == "__main__":
    main()
