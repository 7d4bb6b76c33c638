"""The names a message mentions, and which of the user's slots each fills, read from the words
around it.

Two thirds of what the patterns and the durable reader miss is a second or third fact in a
message that gave one: "born in Kerala, moved to Leeds in 2004 and I've been a staff nurse at
the LGI ever since", "its just me and Sandra doing it". The durable reader gives one slot to a
sentence or clause; the patterns read the phrasings they were written for. This reader looks at
each name instead (a run of capitalised words, or a place written with its capitals by
`app.text.casual`), each occupation ("quantity surveyor") and each team ("the fraud team"): the
words just before and after it, the sentence's words, the meaning of the sentence and of the few
words before it, and the meaning of the name itself (from the embeddings layer: "Figma" is a
tool, "Daventry" a place, "Deborah" someone, wherever they are said); one linear head per slot,
plus one for "none of the user's", scores it. One the rest of the extractor has not given a slot
to becomes a fact when its best slot scores at least `SLOT_SCORE` and no more than `NONE_MARGIN`
below "none"; an occupation may only be a role, a team only a team.

The head is a ridge regression trained by ops/models/build_named.py on the durable reader's
value-labelled sentences and the everyday tuning sets (ops/bench/data/extraction_tuning*.jsonl;
never the held-out sets). Trained with a quarter of the tuning sets left out at a time
(ops/models/folds.py), the extractor finds 0.70 of the facts of the quarter it has not seen at
precision 0.88, against 0.31 at 0.93 for the patterns alone: the labelled chat is what makes it
work (with thirteen sets and names only it found 49 more of 2,479 facts, with ten 26, with six
1). Which it may read (not someone else's, not in a condition or a question's asking part, not a
job left or a product given up) is the extractor's to say (`app.facts.embedded`).
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from app.embeddings.base import Embedder
from app.embeddings.loader import current_embedder
from app.embeddings.static import DEFAULT_MODEL
from app.facts.durable import NAMED_SLOTS, without_the_user_after
from app.facts.vocabulary import NATIONALITIES, OCCUPATIONS
from app.text.dictionary import in_the_dictionary
from app.text.places import known_places, known_towns
from app.text.tools import tools_in
from app.text.words import fold

NAMES_FILE = Path(__file__).parent / "named_model.npz"

READ_SLOTS = NAMED_SLOTS | {"uses", "role", "nationality", "team"}
"""The slots a name may fill: the durable reader's named slots, and the things the user uses,
which are mostly products' names ("I cull in Photo Mechanic", "we get paged through PagerDuty");
a nationality said in passing ("I'm 41, Peruvian, and just moved to Calgary"); an occupation
the sentence mentions may be the user's role and nothing else, a team their team."""

SLOT_SCORE = -0.4
"""A name's best slot must score at least this (targets +-1)."""
NONE_MARGIN = 0.3
"""... and no more than this below "none". First chosen by leaving one tuning set out at a time
(`build_named.py --folds`, twenty sets, 3,864 facts): (-0.2, 0.0), (-0.3, 0.2) and (-0.4, 0.4)
found 186, 228 and 262 more facts than the extractor without the reader, at precision 0.832,
0.831 and 0.828 (0.828 without it); the last pair's added facts were right two times in three
by the labels, the middle one's four in five. Chosen again in session 12, once sentences naming
no one close gave no relation fact (precision 0.873), by training both readers on three quarters
of 23 sets and scoring the fourth: (-0.3, 0.2), (-0.3, 0.3), (-0.4, 0.3), (-0.4, 0.4) and (-0.5,
0.4) found 3,104, 3,110, 3,154, 3,165 and 3,198 of 4,501 facts at precision 0.873, 0.873, 0.870,
0.868 and 0.865, each keeping 67 chatter messages: (-0.4, 0.3)'s added facts are right seven
times in ten, the looser pairs' two in three."""
BUCKETS = 8192
WEIGHT = 0.4
"""Each hashed cue (a word at a position beside the name, a word of the sentence, the name's
shape) adds this in its bucket."""
WINDOW = 4
"""Words looked at on each side of the name."""
OWN_WEIGHT = 2.0
"""The name's own meaning is scaled by this against the rest ("Figma", "Salesforce" and "Jira"
mean a tool wherever they are said, "Daventry" a place, "Deborah" someone): chosen by leaving a
quarter of the tuning sets out at a time (32 sets, 6,588 facts): without the name's vector the
extractor found 4,462 at precision 0.874, with it at 1 4,534 at 0.878, at 2 4,540 at 0.879."""

_NAME = re.compile(
    r"(?<![\w'’])(?:(?:St|Mt|Dr|Mr|Mrs|Ms)\.\s+)?(?:[A-Z]|[ie](?=[A-Z]))[\w'’&-]*+"
    r"(?:\s+(?:&\s+|of\s+|de\s+|van\s+|the\s+)?[A-Z][\w'’-]*+){0,3}"
)
_NOT_A_NAME = frozenset(
    "I I'm I’m I've I'd I'll OK Ok Hi Hello Hiya Dear Thanks Please Can Could What How Why My The "
    "A So But And Is Do Any Also Just Yes No Lol Pls Hey Should Would Will Am Are Im Ive If When "
    "Where Who Which Name Name's Name’s".split()
)
"""Capitalised words that open a sentence or a clause and name nothing."""
_I_AM = re.compile(r"^(?:I['’]m|I)\s+")
_WORD = re.compile(r"[\w'’&.-]+")
_FIRST_PERSON = re.compile(r"\b(?:i|my|me|we|our|im)\b")


@dataclass(frozen=True, slots=True)
class Named:
    """A name, an occupation or a team in a sentence: where it is, and as written."""

    start: int
    end: int
    name: str
    fills: str | None = None
    """The one slot it may fill: "role" for an occupation, "team" for a team; None for a name,
    which may fill any slot but a role unless written in capitals ("I'm a GP")."""


def names_in(sentence: str) -> list[Named]:
    """The names a sentence mentions, as runs of capitalised words ("Sandra", "Kwik Fit",
    "Hartley & Sons"), less a leading "I'm" and the words that only open a clause."""
    found = []
    for match in _NAME.finditer(sentence):
        words = _I_AM.sub("", match.group()).rstrip("'’").split(" ")
        while words and words[0] in _NOT_A_NAME:
            words = words[1:]  # "So I", "Hi Dave": the opening word is none of the name
        name = without_the_user_after(" ".join(words))  # "when I lived in Berlin I cycled"
        if name:
            start = sentence.find(name, match.start())
            found.append(Named(start, start + len(name), name))
    return found


_ENDS_A_TITLE = (
    r"at|in|for|and|this|that|these|year|now|today|since|so|but|who|which|with|to|on|from|when|"
    r"as|I|here|there|then"
)
"""Words after "head of X" that are no part of the title ("acting head of department this
year")."""
_OCCUPATION = re.compile(
    rf"\b(?:(?:head|director|vp|chief|lead|manager|professor|lecturer|officer|president|dean)"
    rf"\s+of\s+(?!the\b|a\b|my\b|our\b)[\w&-]+(?:\s+(?!{_ENDS_A_TITLE}\b)[\w&-]+)?"
    rf"|(?:{OCCUPATIONS})(?:e?s)?)\b(?![’'-])",
    re.IGNORECASE,
)
_NATIONALITY = re.compile(rf"(?:{NATIONALITIES})s?", re.IGNORECASE)
_NOT_A_MODIFIER = frozenset(
    "a an the my our his her their your i im i'm am is was be being been are as and or of in at "
    "for to with on by from this that these those new old now just also only still who which "
    "work works working worked job full part time years year months since ago here there so "
    "very really like about some any no not one two three four five ten then currently mostly "
    "basically actually literally became become becoming got get getting promoted doing did do "
    "lol tbh btw anyway but if when".split()
)
"""Words before an occupation that are no part of it ("as a", "years"): the run of words kept
before one stops at the first of these ("pharmacy tech", "junior doctor", "air traffic
controller")."""
MODIFIERS = 3
"""Words kept before an occupation at most."""


_IN_A_JOB = re.compile(
    r"\b(?:(?i:i['’]m|i\s+am|im)\s+(?i:an?|the)|"
    r"(?i:work(?:s|ing)?|employed|job)\s+as(?:\s+(?i:an?|the))?)\s+"
    r"(?:(?:only|new|sole|lone|main|resident)\s+)?"
    r"(?P<job>(?:(?:[A-Z]{2,4}|[a-z][a-z-]+)\s+){0,2}(?:[A-Z]{2,4}|[a-z][a-z-]+))"
    r"(?=\s+(?:at|for|with|in|on)\b)(?!\s+at\s+home\b)"
)
"""An occupation said by its frame, whatever its words ("I'm an aquarist at the Deepwater
Aquarium", "i'm a caseworker at Bridgehouse", "I'm the only IT person at Holloway & Pryce",
"working as Elektriker in Zürich"): the list cannot hold every job."""
_NO_JOB = frozenset(
    "fan bit lot member customer client patient guest regular beginner newbie novice mess wreck "
    "sucker stickler user subscriber resident visitor tourist shareholder parent mum mom dad "
    "father mother wife husband partner sister brother son daughter friend one first last same "
    "type kind sort big huge little part person people bunch pain nightmare fool idiot genius "
    "expert fanatic addict nerd geek junkie believer lover hater victim survivor witness "
    "volunteer student sleeper riser owl lark holder goer drinker eater smoker reader learner "
    "listener diabetic asthmatic coeliac celiac epileptic insomniac introvert extrovert vegan "
    "vegetarian stay".split()
)
"""Words of the frame that say no job ("I'm a bit late for", "I'm a regular at", "I'm a light
sleeper in summer", "I'm a diabetic on insulin"); a superlative neither ("I'm the youngest in my
team"); "person" only after an acronym or a word of work ("the IT person", "the sales ops
person"; not "a morning person"); a volunteer or a student is in the list already."""
_OF_WORK = frozenset(
    "ops admin support sales finance payroll data office systems tech it hr".split()
)


def occupations_in(sentence: str) -> list[Named]:
    """The occupations a sentence mentions, each with the few words before it that say which
    ("quantity surveyor", "night-shift nurse"), and one said by its frame (`_IN_A_JOB`)."""
    found = []
    for match in _OCCUPATION.finditer(sentence):
        start = _modifiers_start(sentence, match.start(), capitals=True)
        found.append(Named(start, match.end(), sentence[start : match.end()], fills="role"))
    for match in _IN_A_JOB.finditer(sentence):
        words = match.group("job").split()
        if any(o.start < match.end("job") and match.start("job") < o.end for o in found):
            continue
        head = words[-1].lower()
        if head == "person":
            if len(words) == 1 or not (words[-2].isupper() or words[-2].lower() in _OF_WORK):
                continue
        elif head in _NO_JOB or head.endswith("est"):
            continue
        if any(word.lower() in _NO_JOB - {"person"} for word in words):
            continue
        start, end = match.span("job")
        found.append(Named(start, end, sentence[start:end], fills="role"))
    return sorted(found, key=lambda named: named.start)


TEAM_HEAD = re.compile(
    r"\b(?:team|squad|desk|ward|department|dept|unit|section|division|bureau|seat|watch)\b"
    r"(?![’'-])",
    re.IGNORECASE,
)
"""The word that says a phrase names a team ("the payments team", "on the night desk")."""


def teams_in(sentence: str) -> list[Named]:
    """The teams a sentence mentions by the words before "team", "squad", "desk", "ward" or
    "department" ("the payments team", "on the night desk", "SRE team"); not a team no word
    says which ("my team")."""
    found = []
    for match in TEAM_HEAD.finditer(sentence):
        start = _modifiers_start(sentence, match.start(), capitals=False)
        if start < match.start():
            found.append(Named(start, match.end(), sentence[start : match.end()], fills="team"))
    return found


def _modifiers_start(sentence: str, head: int, capitals: bool) -> int:
    """Where the words that say which occupation or team starts, before its head word: at most
    `MODIFIERS` of them, none a function word, a nationality, or (unless `capitals`) a name
    ("Ocado's fulfilment team" is the fulfilment team; "SRE team" keeps its acronym)."""
    start = head
    for word in reversed(_WORD.findall(sentence[:head])[-MODIFIERS:]):
        at = sentence.rfind(word, 0, start)
        if word.lower() in _NOT_A_MODIFIER or not word[0].isalpha() or at < 0:
            break
        if _NATIONALITY.fullmatch(word):
            break  # "a Filipino nurse": a nationality, and a nurse
        if not capitals and word[0].isupper() and not word.isupper() and at > 0:
            break
        if sentence[at + len(word) : start].strip():
            break  # a comma or a dash between: another phrase
        start = at
    return start


_LOWER_WORD = re.compile(r"(?<![\w'’@./#-])[a-z][a-z0-9]*+(?:[.+-][a-z0-9]++)*(?![\w@/#-]|[.+-]\w)")
_CHAT_WORDS = frozenset(
    "lol lmao lmk tbh ppl pls plz thx ty omg idk imo imho btw ngl rn wanna gotta kinda sorta "
    "yeah yep nope okay hmm ugh haha hahaha lowkey highkey cuz tho smth sth abt msg msgs pic pics "
    "vid vids convo tmrw tmr tomoz prob probs def defo obvs hun bro bruh dunno gimme lemme ive "
    "youre theyre thats whats hows wheres theres isnt doesnt didnt wasnt cant wont dont im ur "
    "xx xxx etc approx asap fyi aka diy backend frontend fullstack devops webdev gamedev "
    "dataops mlops onboarding offboarding upskilling".split()
)
"""Chat's own shorthand and work's words, which no dictionary holds either and name no product
("mostly backend", "i do the onboarding")."""
RARE_WORD_LENGTH = 4
"""Letters a lower-case word needs before it may be a name ("jira", "tmux"; not "ok", "ya")."""


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """The words the packaged model's vocabulary holds whole: besides English's, the names
    and brands everyone spells ("london", "google", "excel"), which chat in lower case uses as
    often as words."""
    vocabulary = json.loads((DEFAULT_MODEL / "tokenizer.json").read_text())["model"]["vocab"]
    return frozenset(word for word in vocabulary if word.isalpha())


def rare_words_in(sentence: str) -> list[Named]:
    """Lower-case words no dictionary holds, as chat types a product ("my invoices go through
    quickbooks", "we use genesys", "kotlin + jetpack compose"): candidates the name reader may
    read as something the user uses (`_may_fill`), by the words around them and their own
    meaning; most are typos, shorthand or names, and fill none of the user's slots."""
    return [
        Named(match.start(), match.end(), match.group())
        for match in _LOWER_WORD.finditer(sentence)
        if len(match.group()) >= RARE_WORD_LENGTH
        and not match.group().isdigit()
        and match.group() not in _CHAT_WORDS
        and not _a_known_word(match.group())
    ]


def _a_known_word(word: str) -> bool:
    return word in known_words() or in_the_dictionary(word)


def mentions_in(sentence: str) -> list[Named]:
    """The names, occupations and teams of a sentence, in order; an occupation or a team written
    with capitals ("Store manager", "SRE team") is read as one, not as a name."""
    phrases = occupations_in(sentence)
    phrases += [team for team in teams_in(sentence) if _clear_of(team, phrases)]
    names = [name for name in names_in(sentence) if _clear_of(name, phrases)]
    return sorted(names + phrases, key=lambda n: n.start)


def _clear_of(named: Named, taken: Sequence[Named]) -> bool:
    """Whether the mention overlaps none of those already taken."""
    return not any(named.start < other.end and other.start < named.end for other in taken)


def candidates_in(sentence: str) -> list[Named]:
    """What the name reader may read in a sentence: its mentions, then the lower-case words no
    dictionary holds and the tools everyone names in lower case (`app.text.tools`: "excel",
    "python", "google sheets"), after them, so a sentence's names come first within
    `MOST_NAMES`. The reader learns from the mentions only: the rare words and tools it reads
    as it reads a name, by the words around them and their own meaning (the model is uncased:
    "quickbooks" means what "QuickBooks" does), and neither is ever the mention another one's
    cues look back to."""
    mentioned = mentions_in(sentence)
    rare = [word for word in rare_words_in(sentence) if _clear_of(word, mentioned)]
    tools = [Named(start, end, sentence[start:end]) for start, end in tools_in(sentence)]
    return mentioned + rare + [tool for tool in tools if _clear_of(tool, mentioned + rare)]


def name_features(embedder: Embedder, sentence: str, names: Sequence[Named]) -> np.ndarray:
    """For each name: its hashed cues, then the vector of the sentence with the name replaced
    by "X", then the vector of the words before it, then the name's own (scaled by
    `OWN_WEIGHT`)."""
    cues = np.zeros((len(names), BUCKETS), dtype=np.float32)
    lower = sentence.lower()
    places = known_places()
    towns = known_towns()
    first_person = bool(_FIRST_PERSON.search(lower))
    mentioned = mentions_in(sentence)
    for row, named in enumerate(names):
        left = _WORD.findall(lower[: named.start])[-WINDOW:]
        right = _WORD.findall(lower[named.end :])[:WINDOW]
        said = [f"L{k}:{w}" for k, w in enumerate(reversed(left))] + [f"Lb:{w}" for w in left]
        said += [f"R{k}:{w}" for k, w in enumerate(right)] + [f"Rb:{w}" for w in right]
        if len(left) >= 2:
            said.append(f"L01:{left[-2]} {left[-1]}")
        if len(right) >= 2:
            said.append(f"R01:{right[0]} {right[1]}")
        said += [
            f"n:{len(named.name.split())}",
            f"fills:{named.fills}",
            f"start:{named.start == 0}",
            f"place:{fold(named.name) in places}",
            f"town:{named.name in towns}",
            f"first_person:{first_person}",
            f"q:{'?' in sentence}",
            *_after_cues(sentence, named, mentioned),
        ]
        said += [f"S:{w}" for w in _WORD.findall(lower)]
        for cue in said:
            cues[row, zlib.crc32(cue.encode()) % BUCKETS] = WEIGHT
    masked = [sentence[: n.start] + "X" + sentence[n.end :] for n in names]
    before = [" ".join(_WORD.findall(sentence[: n.start])[-5:]) or "." for n in names]
    own = embedder.encode([n.name for n in names]) * OWN_WEIGHT
    return np.hstack([cues, embedder.encode(masked), embedder.encode(before), own])


def _after_cues(sentence: str, named: Named, mentioned: Sequence[Named]) -> list[str]:
    """What the mention before this one is (an occupation, a team, a name) and how far back:
    a place just after an occupation is where the user works ("a dental nurse in Swindon"),
    one after a name is that person's or the user's home."""
    before = [m for m in mentioned if m.end <= named.start]
    if not before:
        return ["prev:none"]
    gap = len(_WORD.findall(sentence[before[-1].end : named.start]))
    near = "near" if gap <= 3 else "mid" if gap <= 8 else "far"
    kind = before[-1].fills or "name"
    cues = [f"prev:{kind}", f"prev:{kind}:{near}"]
    if any(m.fills == "role" for m in before):
        cues.append("after_role")
    return cues


class NamesAbout(BaseModel):
    """What the trained file says about it (ops/models/build_named.py writes it)."""

    model: str
    slots: tuple[str, ...]
    """The named slots in column order; the last column is "none of the user's"."""
    ridge: float
    trained_on: str


@dataclass(frozen=True)
class NameReader:
    embedder: Embedder
    slots: tuple[str, ...]
    weights: np.ndarray
    """One column per slot and a last one for none; the last row is the bias."""
    slot_score: float = SLOT_SCORE
    none_margin: float = NONE_MARGIN

    @classmethod
    def for_embedder(cls, embedder: Embedder | None, path: Path = NAMES_FILE) -> NameReader | None:
        """The reader, if it was trained with this embedder's model; None otherwise."""
        if embedder is None:
            return None
        with np.load(path) as trained:
            about = NamesAbout.model_validate_json(str(trained["about"]))
            if about.model != embedder.name:
                return None
            return cls(embedder, about.slots, trained["weights"].astype(np.float32))

    def read(self, sentence: str, names: Sequence[Named]) -> list[str | None]:
        """Each name's slot, or None when it fills none of the user's."""
        if not names:
            return []
        scores = name_features(self.embedder, sentence, names) @ self.weights[:-1]
        scores += self.weights[-1]
        allowed = np.array([[_may_fill(n, slot) for slot in self.slots] for n in names])
        slot_scores = np.where(allowed, scores[:, :-1], -np.inf)
        slots: list[str | None] = []
        for row, none in zip(slot_scores, scores[:, -1], strict=True):
            best = int(row.argmax())
            read = row[best] >= self.slot_score and row[best] > none - self.none_margin
            slots.append(self.slots[best] if read else None)
        return slots


def _may_fill(named: Named, slot: str) -> bool:
    """Whether the mention may fill the slot: an occupation is the user's role or nothing of
    theirs, a team their team; a name is a role only when it is written in capitals ("I'm a
    GP"; not "boycotting Amazon"); a word in lower case that no dictionary holds is only a
    product ("quickbooks"), never a place or someone (mostly a typo or chat's shorthand)."""
    if named.fills:
        return slot == named.fills
    if named.name.islower():
        return slot == "uses"
    return slot != "role" or named.name.isupper()


@lru_cache
def current_name_reader() -> NameReader | None:
    """The reader for this process's embedder; None without meaning."""
    return NameReader.for_embedder(current_embedder())
