"""The gate's second reader: does a sentence state something that stays true, or only holds now?

The gate asks the engine its wording's question about each sentence. A similarity engine reads
topic well and time poorly: "I work from the Dublin office" and "I'm working from the Dublin
office just this week" are about the same thing, and only one is worth remembering. This probe
reads scope: a linear classifier over the embeddings layer's sentence vectors and whether the
sentence asks a question (`probe_features`), trained by
ops/models/build_lasting.py on sentences written in pairs on one topic (one lasting, one
momentary), so what it learned is scope, not topic.

The gate adds the two opinions as logits (`gate.combined`): the engine's answer to the tenant's
wording (what matters in their domain) and the probe's sense of what lasts. The probe was
trained with one embedding model and is used only with it (`for_embedder` gives None with any
other, and the gate then reads the engine alone; `GET /v1/settings/gate` says which).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from app.embeddings.base import Embedder
from app.embeddings.loader import current_embedder

PROBE_FILE = Path(__file__).parent / "lasting_probe.json"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LastingProbe:
    embedder: Embedder
    weights: np.ndarray
    """One per vector dimension, then one for `asks`."""
    bias: float
    scale: float
    offset: float

    @classmethod
    def for_embedder(
        cls, embedder: Embedder | None, path: Path = PROBE_FILE
    ) -> LastingProbe | None:
        """The probe, if it was trained with this embedder's model; None otherwise."""
        if embedder is None:
            return None
        trained = json.loads(path.read_text())
        if trained["model"] != embedder.name:
            log.warning(
                "the gate's lasting probe was trained with %s, not %s: the gate reads the "
                "engine's answer alone",
                trained["model"],
                embedder.name,
            )
            return None
        return cls(
            embedder,
            np.asarray([*trained["weights"], trained["question_weight"]], dtype=np.float32),
            float(trained["bias"]),
            float(trained["scale"]),
            float(trained["offset"]),
        )

    def logits(self, sentences: Sequence[str]) -> list[float]:
        """log(P / (1 - P)) that each sentence states something lasting."""
        if not sentences:
            return []
        raw = probe_features(self.embedder, sentences) @ self.weights + self.bias
        return [float(x) for x in self.scale * raw + self.offset]


def probe_features(embedder: Embedder, sentences: Sequence[str]) -> np.ndarray:
    """Each sentence's vector and 1 if it asks a question (ends with "?"), else 0."""
    asks = np.array([[1.0 if s.rstrip().endswith("?") else 0.0] for s in sentences])
    return np.hstack([embedder.encode(sentences), asks.astype(np.float32)])


@lru_cache
def current_probe() -> LastingProbe | None:
    """This process's probe, for its embedder (see `LastingProbe.for_embedder`)."""
    return LastingProbe.for_embedder(current_embedder())
