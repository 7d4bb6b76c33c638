"""The whole learned extractor on everyday chat it has not learned from.

    python ops/models/folds.py      # about 45 minutes on 2 cores with 56 sets (20 before
                                    # the sequence reader, which adds four networks of about
                                    # 6 minutes); torch, as for build_sequence.py

The learned readers learn from the everyday tuning sets (ops/bench/data/
extraction_tuning*.jsonl), so their rows in ops/bench/extraction.py are training figures. Here
each quarter of the sets (every fourth set) is scored by the extractor whose durable reader
(`build_durable.py`), name reader (`build_named.py`), slot tagger (`build_tagger.py`) and
sequence reader (`build_sequence.py`) were trained on ops/models/data and the other three
quarters only, beside the patterns alone: what a new user's chat would get.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "ops/models"))
sys.path.insert(0, str(ROOT / "ops/bench"))

import build_durable  # noqa: E402
import build_named  # noqa: E402
import build_sequence  # noqa: E402
import build_tagger  # noqa: E402
from extraction import labelled_set, score  # noqa: E402  (the bench's sets and matching)

from app.embeddings.static import DEFAULT_MODEL, StaticEmbedder  # noqa: E402
from app.facts.durable import READER_FILE, DurableReader, ReaderAbout  # noqa: E402
from app.facts.embedded import EmbeddedExtractor  # noqa: E402
from app.facts.named import NameReader  # noqa: E402
from app.facts.sequence import SequenceReader  # noqa: E402
from app.facts.tagger import SlotTagger  # noqa: E402


def main() -> None:
    embedder = StaticEmbedder(DEFAULT_MODEL)
    lasting, kept_out = build_durable.base_rows()
    slots = sorted({str(row["slot"]) for row in lasting})
    with np.load(READER_FILE) as trained:
        strength = ReaderAbout.model_validate_json(str(trained["about"])).ridge
    names_base = build_named.from_training_sentences(embedder)
    names_by_set = {path: build_named.from_set(embedder, path) for path in build_durable.TUNING}
    totals = np.zeros((3, 4), dtype=int)
    for quarter in range(4):
        held = [path for n, path in enumerate(build_durable.TUNING) if n % 4 == quarter]
        learned = [path for path in build_durable.TUNING if path not in held]
        more_lasting, more_kept_out = build_durable.from_tuning(learned, set(slots))
        slot_w, lasting_w, _, _ = build_durable.fit(
            embedder, lasting + more_lasting, kept_out + more_kept_out, slots, (strength,)
        )
        durable = DurableReader(embedder, tuple(slots), slot_w, lasting_w)
        name_weights = build_named.fit(names_base + [e for p in learned for e in names_by_set[p]])
        names = NameReader(embedder, build_named.SLOTS, name_weights)
        model = Path(tempfile.mkdtemp()) / f"tagger_{quarter}.crfsuite"
        centroids, _, _ = build_tagger.train(embedder, learned, model)
        weights, tags, _ = build_sequence.train(embedder, learned)
        tagger = SlotTagger(embedder, centroids, model, SequenceReader(embedder, weights, tags))
        for path in held:
            messages, events = labelled_set(path)
            for row, extractor in enumerate(
                (
                    EmbeddedExtractor(None),
                    EmbeddedExtractor(durable, names),
                    EmbeddedExtractor(durable, names, tagger),
                )
            ):
                found = np.array(score(extractor, messages, False, events))
                totals[row] += found
            matched, extracted, wanted, kept = found
            print(
                f"  {path.name}: recall {matched / wanted:.3f}, precision "
                f"{matched / extracted:.3f}, chatter messages kept {kept}",
                flush=True,
            )
        print(f"  quarter {quarter}: {totals.tolist()} so far", flush=True)
    for label, (matched, extracted, wanted, kept) in zip(
        (
            "patterns alone",
            "with the durable and name readers, trained without the quarter",
            "with the readers and both taggers, trained without the quarter",
        ),
        totals,
        strict=True,
    ):
        print(
            f"{label}: {matched} of {wanted} facts (recall {matched / wanted:.3f}), precision "
            f"{matched / extracted:.3f}, chatter messages kept {kept}"
        )


if __name__ == "__main__":
    main()
