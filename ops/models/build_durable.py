"""Train the extractor's durable reader: does a sentence state something lasting about the
user, and which slot does it fill?

    python ops/models/build_durable.py          # writes app/facts/durable_model.npz (2 min)
    python ops/models/build_durable.py --folds  # trains on three quarters of the tuning sets,
                                                # scores the fourth, at each threshold in GRID

Since session 11 the heads also learn from the everyday tuning sets (`from_tuning`:
each sentence holding a labelled value is lasting, in its slot; the others are kept out), so
those sets' figures are training figures; `--folds` and ops/models/folds.py give the honest
ones, the held-out sets (tests/data/) are never learned from.

Two ridge regressions over `app.facts.durable.reader_features` (the default static model's
vector, hashed stemmed words, hashed raw words and word pairs):

- the slot head, one column per slot (+1 for the slot's sentences, -1 for the others'), trained
  on the lasting sentences;
- the lasting head (+1 for every lasting sentence, -1 for every sentence to keep out).

Lasting sentences, each with its slot: ops/models/data/slots_train_a.jsonl, _b (24 everyday
sentences per slot, many phrasings), _c (40 per slot in chat style: lowercase, filler, the fact
inside a longer message), clauses_durable.jsonl (32 short statements per slot),
messages_durable.jsonl (28 chat-length sentences per slot, the slot's keyword absent from about
half), contrast_durable.jsonl (602 sentences in groups on one topic that fill different slots:
home, origin, nationality and office; health, allergy and diet; a colleague, a manager and a
responsibility; ...) and change_durable.jsonl (320 changes that now hold: "got promoted to senior
data analyst last month", "switched to Linux Mint for good").

Sentences to keep out: the momentary half of lasting_train.jsonl (the gate's paired set),
clauses_chatter.jsonl (questions, requests, momentary states, events, plans, hypotheticals,
others' facts, feelings, fillers, near misses, pasted text), messages_chatter.jsonl (the same
kinds, chat-length and personal-sounding), change_passing.jsonl (each of change_durable's
changes paired with a passing sentence on its topic: a one-off event, a trial, a plan, a
momentary state, someone else's change) and numbers_chatter.jsonl (74 sentences with a number
that is no age: a page, a room, an order, a score; 37 templates, two numbers each, so a number
alone does not make an age).

Written too, and not used: indirect_durable.jsonl (20 lasting sentences per slot said in
passing: "with three kids under five, weekends are chaos", "34, if it matters") and
personal_near_miss.jsonl (480 to keep out, in the user's voice with the slots' words: others'
lasting facts, passing illness, places and tools, questions about their situation, fragments;
20 lines implying the user's own partner, child or boss taken out, as they would teach that a
relation is no fact). With both, the tuning set's recall fell by one fact (0.855 to 0.848, its
chatter kept out 60 of 60 either way), so the heads are trained without them. Likewise
casual_durable.jsonl (24 lasting sentences per slot as chat is typed: lower case, dropped
subjects, the fact inside a longer message) and casual_chatter.jsonl (600 to keep out, 60 of
each kind): with both, over the four tuning sets recall fell 0.771 -> 0.764 and chatter kept
out 260 -> 256 of 266 (at the thresholds of the time).

Every file after _c but numbers_chatter was written by a helper who had seen neither evaluation
set (tests/data/, ops/bench/data/).

The ridge strength is chosen by 5-fold cross-validated accuracy of both heads. The folds are
random, so a pair of change_durable / change_passing or a group of contrast_durable can fall on
both sides: the cross-validated figures flatter the heads a little (the held-out extraction
sets are the honest measure). Deterministic; numpy only; tied to the embedding model's name.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ops/bench"))

from extraction import labelled_set, score  # noqa: E402  (the bench's sets and matching)

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.facts.durable import READER_FILE, DurableReader, ReaderAbout, reader_features  # noqa: E402
from app.facts.embedded import EmbeddedExtractor  # noqa: E402
from app.facts.make_believe import said_of_the_user  # noqa: E402
from app.facts.pasted import without_pasted  # noqa: E402
from app.facts.utterances import sentences  # noqa: E402
from app.text.casual import spelled_out  # noqa: E402
from app.text.words import fold  # noqa: E402

DATA = ROOT / "ops/models/data"
LASTING = (
    "slots_train_a",
    "slots_train_b",
    "slots_train_c",
    "clauses_durable",
    "messages_durable",
    "contrast_durable",
    "change_durable",
)
KEPT_OUT = (
    "clauses_chatter",
    "messages_chatter",
    "numbers_chatter",
    "change_passing",
)
RIDGES = (0.3, 1.0, 3.0)
FOLDS = 5


def rows(name: str) -> list[dict[str, object]]:
    path = DATA / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def ridge(features: np.ndarray, targets: np.ndarray, strength: float) -> np.ndarray:
    """Weights (the last row the bias) minimising squared error plus `strength` times their
    squared length; solved in the primal (features x features) or the dual (rows x rows),
    whichever system is smaller: the two give the same weights."""
    design = np.hstack([features, np.ones((len(features), 1))])
    count, columns = design.shape
    if count < columns:
        gram = design @ design.T + strength * np.eye(count)
        return np.asarray(design.T @ np.linalg.solve(gram, targets))
    covariance = design.T @ design + strength * np.eye(columns)
    return np.asarray(np.linalg.solve(covariance, design.T @ targets))


def scores(weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    return np.asarray(features @ weights[:-1] + weights[-1])


def cross_validated(
    features: np.ndarray,
    targets: np.ndarray,
    strength: float,
    right: Callable[[np.ndarray, np.ndarray], int],
) -> float:
    """The share of held-out rows `right(scores, targets)` counts, over `FOLDS` folds."""
    order = np.random.default_rng(0).permutation(len(features))
    count = 0
    for held_out in np.array_split(order, FOLDS):
        train = np.ones(len(features), dtype=bool)
        train[held_out] = False
        weights = ridge(features[train], targets[train], strength)
        count += right(scores(weights, features[held_out]), targets[held_out])
    return count / len(features)


def slot_right(predicted: np.ndarray, targets: np.ndarray) -> int:
    return int((predicted.argmax(axis=1) == targets.argmax(axis=1)).sum())


def lasting_right(predicted: np.ndarray, targets: np.ndarray) -> int:
    return int(((predicted[:, 0] >= 0) == (targets[:, 0] > 0)).sum())


TUNING = sorted(
    (ROOT / "ops/bench/data").glob("extraction_tuning*.jsonl"),
    key=lambda path: int(path.stem.rsplit("_", 1)[-1]) if path.stem[-1].isdigit() else 1,
)


def from_tuning(paths: list[Path], slots: set[str]) -> tuple[list[dict[str, object]], list[str]]:
    """The everyday tuning sets' sentences, as the extractor splits them: a sentence that holds
    a labelled fact's value is lasting, in that fact's slot; every other sentence of a message
    is one to keep out (the labels name every lasting fact a message states). A sentence that
    holds an ending's value, or a fact of a slot the reader does not have, is neither."""
    lasting: list[dict[str, object]] = []
    kept_out: list[str] = []
    for path in paths:
        for line in path.read_text().splitlines():
            message = json.loads(line) if line.strip() else {}
            if "text" not in message:
                continue
            for sentence in sentences(
                spelled_out(said_of_the_user(without_pasted(message["text"])))
            ):
                held = [e for e in message["expect"] if fold(e.get("value", "")) in fold(sentence)]
                facts = [e for e in held if e["kind"] == "fact" and e["slot"] in slots]
                if facts:
                    lasting.append({"text": sentence, "slot": facts[0]["slot"]})
                elif not held:
                    kept_out.append(sentence)
    return lasting, kept_out


def fit(
    embedder: StaticEmbedder,
    lasting: list[dict[str, object]],
    kept_out: list[str],
    slots: list[str],
    strengths: tuple[float, ...],
) -> tuple[np.ndarray, np.ndarray, float, tuple[float, float]]:
    """The slot and lasting heads' weights, at the ridge strength of `strengths` with the best
    cross-validated accuracy of both heads (not cross-validated when there is one)."""
    lasting_features = reader_features(embedder, [str(row["text"]) for row in lasting])
    kept_out_features = reader_features(embedder, kept_out)
    every = np.vstack([lasting_features, kept_out_features]).astype(np.float64)
    labels = np.array([slots.index(str(row["slot"])) for row in lasting])
    slot_targets = -np.ones((len(lasting), len(slots)))
    slot_targets[np.arange(len(lasting)), labels] = 1
    lasting_targets = np.r_[np.ones(len(lasting)), -np.ones(len(kept_out))].reshape(-1, 1)
    accuracy = {
        r: (
            cross_validated(every[: len(lasting)], slot_targets, r, slot_right),
            cross_validated(every, lasting_targets, r, lasting_right),
        )
        if len(strengths) > 1
        else (float("nan"), float("nan"))
        for r in strengths
    }
    strength = max(strengths, key=lambda r: sum(accuracy[r]))
    slot_weights = ridge(every[: len(lasting)], slot_targets, strength).astype(np.float32)
    lasting_weights = ridge(every, lasting_targets, strength)[:, 0].astype(np.float32)
    return slot_weights, lasting_weights, strength, accuracy[strength]


def base_rows() -> tuple[list[dict[str, object]], list[str]]:
    lasting = [row for name in LASTING for row in rows(name)]
    kept_out = [str(row["text"]) for row in rows("lasting_train") if not row["lasting"]]
    kept_out += [str(row["text"]) for name in KEPT_OUT for row in rows(name)]
    return lasting, kept_out


GRID = ((-0.5, 0.0), (-0.3, 0.0), (-0.3, -0.1), (-0.3, -0.2))
"""(SLOT_SCORE, CLAUSE_SLOT_SCORE) pairs `--folds` compares for the reader trained on the
tuning sets too."""


def folds(embedder: StaticEmbedder) -> None:
    """The extractor with the durable reader alone (no name reader), scored on each quarter of
    the tuning sets by the packaged reader, and by readers trained on ops/models/data and the
    other three quarters, at each of the slot thresholds in `GRID`."""
    lasting, kept_out = base_rows()
    slots = sorted({str(row["slot"]) for row in lasting})
    current = DurableReader.for_embedder(embedder)
    assert current is not None
    with np.load(READER_FILE) as trained_now:
        current_strength = ReaderAbout.model_validate_json(str(trained_now["about"])).ridge
    totals = np.zeros((1 + len(GRID), 4), dtype=int)
    for quarter in range(4):
        held = [path for n, path in enumerate(TUNING) if n % 4 == quarter]
        more_lasting, more_kept_out = from_tuning(
            [path for path in TUNING if path not in held], set(slots)
        )
        slot_w, lasting_w, _, _ = fit(
            embedder, lasting + more_lasting, kept_out + more_kept_out, slots, (current_strength,)
        )
        readers = [current] + [
            DurableReader(embedder, tuple(slots), slot_w, lasting_w, whole, clause)
            for whole, clause in GRID
        ]
        for path in held:
            messages, events = labelled_set(path)
            for row, reader in enumerate(readers):
                totals[row] += score(EmbeddedExtractor(reader), messages, False, events)
        print(f"  quarter {quarter}: {' / '.join(str(t) for t in totals)} so far", flush=True)
    labels = ["the packaged reader"] + [
        f"trained on the other quarters too, slot scores {whole} / {clause}"
        for whole, clause in GRID
    ]
    for label, (matched, extracted, wanted, kept) in zip(labels, totals, strict=True):
        print(f"{label}: {matched} of {wanted}, precision {matched / extracted:.3f}, kept {kept}")


def main(argv: list[str]) -> None:
    embedder = StaticEmbedder(DEFAULT_MODEL)
    if "--folds" in argv:
        folds(embedder)
        return
    lasting, kept_out = base_rows()
    slots = sorted({str(row["slot"]) for row in lasting})
    more_lasting, more_kept_out = from_tuning(TUNING, set(slots))
    lasting, kept_out = lasting + more_lasting, kept_out + more_kept_out
    slot_weights, lasting_weights, strength, (slot_accuracy, lasting_accuracy) = fit(
        embedder, lasting, kept_out, slots, RIDGES
    )
    about = ReaderAbout(
        model=embedder.name,
        slots=tuple(slots),
        ridge=strength,
        trained_on=(
            f"{len(lasting)} lasting sentences (ops/models/data's {', '.join(LASTING)}; "
            f"{len(more_lasting)} of the {len(TUNING)} everyday tuning sets'), {len(kept_out)} to "
            f"keep out (lasting_train's momentary half, {', '.join(KEPT_OUT)}; "
            f"{len(more_kept_out)} of the tuning sets')"
        ),
        slot_accuracy=round(slot_accuracy, 4),
        lasting_accuracy=round(lasting_accuracy, 4),
    )
    with READER_FILE.open("wb") as out:
        np.savez_compressed(
            out,
            slot_weights=slot_weights,
            lasting_weights=lasting_weights,
            about=about.model_dump_json(),
        )
    print(
        f"{READER_FILE.relative_to(ROOT)}: {len(lasting)} lasting sentences, {len(kept_out)} "
        f"kept out, {len(slots)} slots; 5-fold accuracy {slot_accuracy:.3f} (slot), "
        f"{lasting_accuracy:.3f} (lasting) at ridge {strength}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
