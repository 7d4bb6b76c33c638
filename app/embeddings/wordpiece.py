"""BERT's uncased WordPiece tokenizer for plain ASCII text, in Python, with the ids of each
chunk of text cached: the packaged model's tokenizer gives the same ids in a sixth of the time.

The `tokenizers` library costs ~30 microseconds for a query of twenty words, most of it fixed
work per call (normalising, pre-tokenising, building an `Encoding`), a third of what embedding a
query takes; and 10,000 lines of a write spend ~170 ms there. For text of printable ASCII and
ordinary whitespace, what that tokenizer does comes down to: lower-case, split on whitespace and
on every ASCII punctuation character (each one its own word), then WordPiece each word (the
longest vocabulary entry from the start, then "##"-prefixed entries for the rest; a word with a
part no entry covers, or over `max_input_chars_per_word` characters, is one unknown token).
Words repeat across lines and queries, so the ids of each whitespace-separated chunk are
cached. Any other text (accents, other scripts, control characters) goes to the tokenizer,
which folds and splits it as its settings say.

Used only when the tokenizer's settings are exactly those (`for_tokenizer`); tests compare the ids
with the tokenizer's on real and random text.
"""

from __future__ import annotations

import json
import re

from tokenizers import Tokenizer

_PLAIN = re.compile(r"[\t\n\r -~]*")
"""Text the normaliser leaves as it is, but for case: printable ASCII and the whitespace BERT
treats as a space (other control characters it deletes, which this path does not do)."""
_WORDS = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")
"""After lower-casing: runs of letters and digits, and each ASCII punctuation character alone
(BERT counts every non-alphanumeric printable ASCII character as punctuation)."""

_CHUNKS_KEPT = 65_536
"""Whitespace-separated chunks whose ids are kept: a subject's words, numbers and dates."""

_SETTINGS: dict[str, dict[str, object] | None] = {
    "normalizer": {"type": "BertNormalizer", "lowercase": True},
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "post_processor": None,
    "model": {"type": "WordPiece", "continuing_subword_prefix": "##"},
}
"""What the tokenizer's settings must hold for this path to be the same (the normaliser's other
settings change nothing in printable ASCII)."""


class AsciiWordPiece:
    """`ids(text)`: the token ids of ASCII text, or None when the tokenizer must do it."""

    def __init__(
        self, vocab: dict[str, int], unknown: int, longest_word: int, added: list[str]
    ) -> None:
        self._vocab = vocab
        self._unknown = unknown
        self._longest_word = longest_word
        self._added = tuple(added)
        # a plain dict, emptied when full: cheaper than lru_cache, and holds no linked-list
        # node per entry for the garbage collector to walk
        self._chunks: dict[str, tuple[int, ...]] = {}

    @classmethod
    def for_tokenizer(cls, tokenizer: Tokenizer) -> AsciiWordPiece | None:
        """The fast path for this tokenizer, or None when its settings are not BERT's uncased
        WordPiece (another model: the tokenizer does all the work)."""
        settings = json.loads(tokenizer.to_str())
        for part, wanted in _SETTINGS.items():
            have = settings.get(part)
            if wanted is None:
                if have is not None:
                    return None
            elif not isinstance(have, dict) or any(have.get(k) != v for k, v in wanted.items()):
                return None
        model = settings["model"]
        vocab = tokenizer.get_vocab()
        unknown = vocab.get(model.get("unk_token"))
        if unknown is None or not isinstance(model.get("max_input_chars_per_word"), int):
            return None
        added = [token["content"] for token in settings.get("added_tokens") or []]
        if not all(isinstance(content, str) and content for content in added):
            return None
        return cls(vocab, unknown, model["max_input_chars_per_word"], added)

    @property
    def unknown(self) -> int:
        return self._unknown

    def ids(self, text: str) -> list[int] | None:
        """The ids the tokenizer gives `text` (without special tokens, not truncated: the
        caller cuts them at the model's max_length), unknown ones included;
        None for text outside printable ASCII and ordinary whitespace, or holding an added
        token's text ("[UNK]"), which the tokenizer takes out before anything else."""
        if not text.isascii() or _PLAIN.fullmatch(text) is None:
            return None
        lowered = text.lower()
        for token in self._added:
            if token in text or token.lower() in lowered:
                return None
        ids: list[int] = []
        chunks = self._chunks
        for chunk in lowered.split():  # no word spans whitespace: its chunk's ids are its own
            pieces = chunks.get(chunk)
            if pieces is None:
                if len(chunks) >= _CHUNKS_KEPT:
                    chunks.clear()
                pieces = chunks[chunk] = self._chunk_pieces(chunk)
            ids.extend(pieces)
        return ids

    def _chunk_pieces(self, chunk: str) -> tuple[int, ...]:
        """The ids of a whitespace-free piece of lower-cased text ("account.", "2024]")."""
        return tuple(piece for word in _WORDS.findall(chunk) for piece in self._word_pieces(word))

    def _word_pieces(self, word: str) -> tuple[int, ...]:
        """Greedy longest-match-first, as WordPiece: the unknown token when any part of the
        word is in no entry."""
        if len(word) > self._longest_word:
            return (self._unknown,)
        vocab, pieces, start = self._vocab, [], 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = vocab.get(piece)
                if found is not None:
                    pieces.append(found)
                    start = end
                    break
            else:
                return (self._unknown,)
        return tuple(pieces)
