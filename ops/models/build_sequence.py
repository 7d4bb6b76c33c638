"""Train the sequence reader: a bidirectional LSTM tagging each word with its value's slot.

    python -m venv /tmp/build && /tmp/build/bin/pip install -e . torch==2.13.0
    /tmp/build/bin/python ops/models/build_sequence.py   # writes app/facts/sequence_model.npz
                                                         # (about 6 minutes on 2 cores)

Torch only here, at build time: `app.facts.sequence` runs the trained network with numpy. The
inputs are `app.facts.sequence.sequence_inputs` (each word's static-model vector and the slot
tagger's flags), the targets the B-/I-/O tags `ops/models/build_tagger.py` trains the field on,
from the same everyday tuning sets (ops/bench/data/extraction_tuning*.jsonl; never the held-out
sets in tests/data/). One layer of `HIDDEN` units each way, dropout 0.2 on the inputs and 0.3
before the output layer, Adam, `EPOCHS` passes in batches of 32, seeded: chosen once, not tuned
(session 18's first try had 192 units and 25 passes and took three times as long to train).
The weights are stored as float16 (0.8 MB compressed). ops/models/folds.py trains it on three
quarters of the sets and scores the fourth.
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ops/models"))

from build_durable import TUNING  # noqa: E402
from build_tagger import messages  # noqa: E402

from app.embeddings.base import Embedder  # noqa: E402
from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.facts.sequence import (  # noqa: E402
    SEQUENCE_FILE,
    SequenceAbout,
    SequenceReader,
    sequence_inputs,
)
from app.facts.tagger import (  # noqa: E402
    lowered,
    tokens_of,
    value_tags,
    word_features,
    word_vectors,
)

HIDDEN = 128
EPOCHS = 15
BATCH = 32


class Network(nn.Module):
    def __init__(self, inputs: int, tags: int) -> None:
        super().__init__()
        self.drop_in = nn.Dropout(0.2)
        self.lstm = nn.LSTM(inputs, HIDDEN, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(0.3)
        self.out = nn.Linear(2 * HIDDEN, tags)

    def forward(self, inputs: torch.Tensor, lengths: list[int]) -> torch.Tensor:
        packed = nn.utils.rnn.pack_padded_sequence(
            self.drop_in(inputs), lengths, batch_first=True, enforce_sorted=False
        )
        states, _ = self.lstm(packed)
        states, _ = nn.utils.rnn.pad_packed_sequence(states, batch_first=True)
        return self.out(self.drop(states))  # type: ignore[no-any-return]


def examples(embedder: Embedder, paths: list[Path]) -> list[tuple[np.ndarray, list[str]]]:
    """Each message of the sets as the network reads it, with its words' tags."""
    found = []
    for text, values in messages(paths):
        tokens = tokens_of(text)
        if not tokens:
            continue
        vectors = word_vectors(embedder, lowered(tokens))
        # the flags do not depend on the clusters: any centroids of the right width do
        features = word_features(embedder, np.zeros((1, embedder.dims)), text, tokens, vectors)
        inputs = sequence_inputs(vectors, [token.text for token in tokens], features)
        found.append((inputs, value_tags(text, tokens, values)))
    return found


def train(embedder: Embedder, paths: list[Path]) -> tuple[dict[str, np.ndarray], list[str], int]:
    """The trained network's weights (float16, torch's names), its tags and its messages;
    stops if the numpy reader at run time does not read as torch does."""
    torch.manual_seed(0)
    labelled = examples(embedder, paths)
    tags = sorted({tag for _, row in labelled for tag in row})
    index = {tag: n for n, tag in enumerate(tags)}
    width = labelled[0][0].shape[1]
    network = Network(width, len(tags))
    optimiser = torch.optim.Adam(network.parameters(), lr=2e-3)
    loss_of = nn.CrossEntropyLoss(ignore_index=-1)
    rng = np.random.default_rng(0)
    for _ in range(EPOCHS):
        network.train()
        order = rng.permutation(len(labelled))
        for first in range(0, len(order), BATCH):
            batch = [labelled[k] for k in order[first : first + BATCH]]
            lengths = [len(row) for _, row in batch]
            inputs = torch.zeros(len(batch), max(lengths), width)
            targets = torch.full((len(batch), max(lengths)), -1, dtype=torch.long)
            for n, (given, row) in enumerate(batch):
                inputs[n, : lengths[n]] = torch.from_numpy(given)
                targets[n, : lengths[n]] = torch.tensor([index[tag] for tag in row])
            loss = loss_of(network(inputs, lengths).reshape(-1, len(tags)), targets.reshape(-1))
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), 5.0)
            optimiser.step()
    weights = {
        name: value.detach().numpy().astype(np.float16)
        for name, value in network.state_dict().items()
    }
    _reads_as_torch(network, SequenceReader(embedder, weights, tags), labelled[:200])
    return weights, tags, len(labelled)


def _reads_as_torch(
    network: Network, reader: SequenceReader, labelled: list[tuple[np.ndarray, list[str]]]
) -> None:
    """The numpy network (float16 weights) gives torch's probabilities to within 0.01."""
    network.eval()
    with torch.no_grad():
        for inputs, row in labelled:
            given = network(torch.from_numpy(inputs)[None], [len(row)])[0]
            expected = torch.softmax(given, dim=-1).numpy()
            apart = float(np.abs(reader.probabilities(inputs) - expected).max())
            if apart > 0.01:
                raise SystemExit(f"the numpy reader is {apart:.3f} from torch's probabilities")


def save(
    path: Path, embedder: Embedder, weights: dict[str, np.ndarray], tags: list[str], about: str
) -> None:
    record = SequenceAbout(model=embedder.name, trained_on=about, hidden=HIDDEN, epochs=EPOCHS)
    with path.open("wb") as out:
        arrays = {**weights, "tags": np.array(tags), "about": np.array(record.model_dump_json())}
        np.savez_compressed(out, **arrays)  # type: ignore[arg-type]


def main() -> None:
    torch.set_num_threads(2)
    embedder = StaticEmbedder(DEFAULT_MODEL)
    weights, tags, count = train(embedder, TUNING)
    about = (
        f"{count} messages: {len(TUNING)} tuning sets ("
        + ", ".join(path.name for path in TUNING)
        + ")"
    )
    save(SEQUENCE_FILE, embedder, weights, tags, about)
    print(f"{SEQUENCE_FILE.relative_to(ROOT)}: {about}; trained {date.today()}")


if __name__ == "__main__":
    main()
