"""Train the extractor's name reader: which of the user's slots does each name a message
mentions fill, if any?

    python ops/models/build_named.py        # writes app/facts/named_model.npz

One ridge regression over `app.facts.named.name_features` (cues beside the name, the sentence's
words, the meaning of the sentence without the name, of the words before it and of the name
itself), one column per
named slot (+1 for the slot's names) and one for names that fill none of the user's (+1). The
names come from:

- the durable reader's value-labelled sentences (ops/models/data, see build_durable.py): a name
  that is the labelled value of a named slot is that slot's, every other name is none; every
  name in the sentences to keep out is none;
- the everyday tuning sets (ops/bench/data/extraction_tuning*.jsonl, one message a line with
  every fact it states labelled): a name that is a labelled value of a named slot is that
  slot's, every other name is none. Never the held-out sets (tests/data/).

So the tuning sets' figures for the extractor are training figures from here on; the honest
ones are the held-out sets', and `--folds`, which trains with one tuning set left out at a time
and scores the extractor on it, prints what a set the reader has not seen would get.
Deterministic; numpy only; tied to the embedding model's name.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ops/models"))
sys.path.insert(0, str(ROOT / "ops/bench"))

from build_durable import KEPT_OUT, LASTING, TUNING, rows  # noqa: E402
from extraction import labelled_set, score  # noqa: E402  (the bench's sets and matching)

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.facts.durable import DurableReader  # noqa: E402
from app.facts.embedded import EmbeddedExtractor  # noqa: E402
from app.facts.named import (  # noqa: E402
    NAMES_FILE,
    READ_SLOTS,
    NameReader,
    NamesAbout,
    mentions_in,
    name_features,
)
from app.facts.pasted import without_pasted  # noqa: E402
from app.facts.utterances import sentences  # noqa: E402
from app.text.casual import spelled_out  # noqa: E402
from app.text.words import fold  # noqa: E402

SLOTS = tuple(sorted(READ_SLOTS))
RIDGE = 3.0

Example = tuple[np.ndarray, list[str | None]]


def labelled(embedder: StaticEmbedder, text: str, expected: list[dict[str, str]]) -> Example:
    """The features of every name in the message's sentences, and each name's slot."""
    values = [
        (item["slot"], fold(item["value"]))
        for item in expected
        if item.get("kind") == "fact" and item.get("slot") in READ_SLOTS and item.get("value")
    ]
    features, slots = [], []
    for sentence in sentences(spelled_out(without_pasted(text))):
        names = mentions_in(sentence)
        if not names:
            continue
        features.append(name_features(embedder, sentence, names))
        for named in names:
            name = fold(named.name)
            slots.append(
                next(
                    (
                        slot
                        for slot, value in values
                        if named.fills in (None, slot)
                        and (value == name or (len(name) > 3 and (value in name or name in value)))
                    ),
                    None,
                )
            )
    empty = np.zeros((0, 1), dtype=np.float32)
    return (np.vstack(features) if features else empty), slots


def from_training_sentences(embedder: StaticEmbedder) -> list[Example]:
    found = []
    for name in LASTING:
        for row in rows(name):
            if row.get("value"):
                expected = [{"kind": "fact", "slot": str(row["slot"]), "value": str(row["value"])}]
                found.append(labelled(embedder, str(row["text"]), expected))
    kept_out = [str(row["text"]) for row in rows("lasting_train") if not row["lasting"]]
    kept_out += [str(row["text"]) for name in KEPT_OUT for row in rows(name)]
    found += [labelled(embedder, text, []) for text in kept_out]
    return found


def from_set(embedder: StaticEmbedder, path: Path) -> list[Example]:
    messages = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [labelled(embedder, m["text"], m["expect"]) for m in messages if "comment" not in m]


def fit(examples: list[Example]) -> np.ndarray:
    features = np.vstack([x for x, slots in examples if slots]).astype(np.float64)
    slots = [slot for _, names in examples for slot in names]
    targets = -np.ones((len(slots), len(SLOTS) + 1))
    for row, slot in enumerate(slots):
        targets[row, SLOTS.index(slot) if slot else len(SLOTS)] = 1
    design = np.hstack([features, np.ones((len(features), 1))])
    covariance = design.T @ design + RIDGE * np.eye(design.shape[1])
    return np.asarray(np.linalg.solve(covariance, design.T @ targets), dtype=np.float32)


GRID = ((-0.2, 0.0), (-0.3, 0.2), (-0.4, 0.4))
"""(SLOT_SCORE, NONE_MARGIN) pairs `--folds` compares."""


def folds(embedder: StaticEmbedder, base: list[Example], sets: dict[Path, list[Example]]) -> None:
    """Each tuning set scored by the extractor with a reader trained without it, for each of
    the thresholds in `GRID`."""
    durable = DurableReader.for_embedder(embedder)
    totals = np.zeros((1 + len(GRID), 4), dtype=int)
    for held in TUNING:
        weights = fit(base + [e for path, ex in sets.items() if path != held for e in ex])
        readers = [
            NameReader(embedder, SLOTS, weights, slot_score, margin) for slot_score, margin in GRID
        ]
        messages, labelled_events = labelled_set(held)
        extractors = [EmbeddedExtractor(durable)] + [
            EmbeddedExtractor(durable, reader) for reader in readers
        ]
        for row, extractor in enumerate(extractors):
            totals[row] += score(extractor, messages, False, labelled_events)
        print(f"  {held.name}: {' / '.join(str(t) for t in totals)} so far", flush=True)
    labels = ["without the name reader"] + [
        f"with it, slot score {slot_score}, none margin {margin}" for slot_score, margin in GRID
    ]
    for label, (matched, extracted, wanted, kept) in zip(labels, totals, strict=True):
        print(
            f"{label}: {matched} of {wanted} facts, precision "
            f"{matched / extracted:.3f}, chatter messages kept {kept}"
        )


def main(argv: list[str]) -> None:
    embedder = StaticEmbedder(DEFAULT_MODEL)
    base = from_training_sentences(embedder)
    sets = {path: from_set(embedder, path) for path in TUNING}
    if "--folds" in argv:
        folds(embedder, base, sets)
        return
    examples = base + [e for ex in sets.values() for e in ex]
    weights = fit(examples)
    names = sum(len(slots) for _, slots in examples)
    slot_names = sum(slot is not None for _, slots in examples for slot in slots)
    about = NamesAbout(
        model=embedder.name,
        slots=SLOTS,
        ridge=RIDGE,
        trained_on=(
            f"{names} names ({slot_names} of them a slot's): ops/models/data's value-labelled "
            f"and kept-out sentences, and {len(TUNING)} tuning sets ("
            + ", ".join(path.name for path in TUNING)
            + ")"
        ),
    )
    with NAMES_FILE.open("wb") as out:
        np.savez_compressed(out, weights=weights, about=about.model_dump_json())
    print(f"{NAMES_FILE.relative_to(ROOT)}: {about.trained_on}; trained {date.today()}")


if __name__ == "__main__":
    main(sys.argv[1:])
