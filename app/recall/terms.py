"""Words for recall: function words, ending folding, content terms and phrases.

Words come from `app.text.words.index_terms`, the module forget uses too, so both agree on
what a word is (case, accents, apostrophes, hyphens). On top of it, and only inside recall
(applied alike to lines and queries), this module drops a small list of English function
words and folds plural, -ing and -ed endings, so "invoices" finds "invoice". Forget never
sees these folds: it checks every line recall returns with its own whole-word matching.

A phrase is a pair of content words that stand next to each other once function words are
left out ("written in Swedish" gives "written swedish"). Phrases are indexed as terms of
their own, so a line that shares a pair outranks one that holds the same words apart.
"""

from __future__ import annotations

from functools import lru_cache

from app.text.stopwords import RECALL_STOP_WORDS
from app.text.words import index_terms

PAIR_JOINER = " "  # index terms never hold a space, so a pair cannot clash with a word


def subject_name_words(subject_id: str) -> list[str]:
    """The words of a subject id ("northwind-traders" → northwind, traders).

    A short number ("acct-1" → acct) is left out: "1" is in too many lines to be a name,
    while a longer one ("acct-7781" → acct, 7781) can be an account number lines mention.
    """
    words = subject_id.replace("_", "-").split("-")
    return [w for w in words if any(ch.isalpha() for ch in w) or len(w) >= 3]


_VOWELS = frozenset("aeiouy")


def fold_ending(term: str) -> str:
    """One form for a word's plural, -ing and -ed forms: "invoices", "invoice" → invoic;
    "painted", "painting", "paints" → paint; "stories", "story" → stori; "baked", "bake",
    "baking" → bak. Recall only, on lines and queries alike, so the forms meet.

    Not a stemmer: only these endings go (no -er, -ly, -ness), a stem keeps three letters
    and a vowel ("thing", "need", "red" stay), and only alphabetic terms are folded (a
    date's digits or "2020s" stay as they are). A few words meet that should not ("hope"
    and "hop"): a line found that way is one more line shown, never a line lost.
    """
    if not term.isalpha():
        return term
    if len(term) > 3:  # plural
        if term.endswith("ies") and len(term) > 4:
            term = term[:-3] + "y"
        elif term.endswith(("sses", "xes", "zes", "ches", "shes")):
            term = term[:-2]
        elif term.endswith("s") and not term.endswith(("ss", "us", "is")):
            term = term[:-1]
    term = _fold_verb_ending(term)
    if len(term) >= 3 and term.endswith("y"):  # story, stories (after the plural: story)
        return term[:-1] + "i"
    if len(term) >= 4 and term.endswith("ie"):  # movie, movies (movy) → movi
        return term[:-1]
    if len(term) > 3 and term.endswith("e"):  # bake, baked (bak), baking (bak)
        return term[:-1]
    return term


def _fold_verb_ending(term: str) -> str:
    if term.endswith("ing"):
        stem = term[:-3]
    elif term.endswith("ed") and not term.endswith("eed"):
        stem = term[:-2]
    else:
        return term
    if len(stem) < 3 or not _VOWELS.intersection(stem):
        return term
    if stem[-1] == stem[-2] and stem[-1] not in "lsz" and stem[-1] not in _VOWELS:
        return stem[:-1]  # running → run, stopped → stop; called, passed stay
    return stem


def content_terms(text: str) -> list[str]:
    """The words of `text` that recall scores, in order: function words left out, endings
    folded. Splitting, case and accents are `index_terms`'s, shared with forget."""
    return words_and_phrases(text)[0]


def words_and_phrases(text: str) -> tuple[list[str], list[str]]:
    """The content words of `text` and its phrases: pairs of content words next to each other
    once function words are left out, within a clause (a pair never spans punctuation:
    "Caroline: Hey" or "group. Yesterday" is no phrase).

    `index_terms` runs on each whitespace-separated chunk rather than on the whole text,
    with the chunk's terms cached: a word never spans whitespace (every character of a word
    is a letter, digit, mark, apostrophe or hyphen), so the words are the same, and the
    common chunks of a subject's states cost a cache lookup instead of folding each time.
    """
    words: list[str] = []
    phrases: list[str] = []
    previous = ""  # the content word a next one pairs with, "" after punctuation
    for chunk in text.split():
        terms, opens, closes = _chunk_terms(chunk)
        if opens:
            previous = ""
        for term in terms:
            if previous:
                phrases.append(previous + PAIR_JOINER + term)
            words.append(term)
            previous = term
        if closes:
            previous = ""
    return words, phrases


@lru_cache(maxsize=65536)
def _chunk_terms(chunk: str) -> tuple[tuple[str, ...], bool, bool]:
    """A chunk's content terms, and whether it starts or ends with punctuation."""
    folded = (fold_ending(t) for t in index_terms(chunk) if t not in RECALL_STOP_WORDS)
    return tuple(t for t in folded if t), not chunk[0].isalnum(), not chunk[-1].isalnum()
