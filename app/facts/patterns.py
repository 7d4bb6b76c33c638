"""The embedded extractor: deterministic English patterns, dates read by `app.facts.dates`.

It keeps what is true about the user (who they are, what they prefer, what they are
responsible for, who and what they work with, standing instructions) and what happened to them
(events, with their day when the turn names one). It keeps nothing from a question, a request
("book me a table", "can you …") or a momentary want ("I need", "I'd like", "I'm thinking
about"), and no names inside those. It is precise rather than exhaustive: a sentence it does
not recognise gives nothing (ops/bench/extraction.py measures both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TypeVar

from app.facts.clauses import clauses
from app.facts.dates import DayPhrase, find_days, tense_of
from app.facts.durable import DurableReader, Reading
from app.facts.extraction import MULTI_VALUED, Extracted, Turn
from app.facts.pasted import without_pasted
from app.facts.vocabulary import NATIONALITIES
from app.text.casual import first_person_capitalised
from app.text.words import fold

T = TypeVar("T")

TITLE = r"(?:(?:St|Mt|Ft|Dr|Mr|Mrs|Ms|Prof)\.\s+)?"
"""An abbreviated title or saint before a name: "St. Mary's", "Dr. Patel", "Mt. Vernon"."""
NAME = TITLE + r"[A-Z][a-zà-ÿ'’-]+(?:\s+[A-Z][a-zà-ÿ'’-]+){0,2}"
PLACE = TITLE + r"[A-Z][\wà-ÿ'’-]+(?:[\s-]+[A-Z][\wà-ÿ'’-]+){0,3}"
ORG = (
    rf"(?:{TITLE}[A-Z][\w&'’-]*(?:\s+(?:&\s+|of\s+|and\s+)?[A-Z][\w&'’-]*){{0,4}}"
    r"|the\s+[a-z]+(?:\s+[a-z]+){0,3}\s+(?:hospital|university|bank|school|ministry|council|"
    r"company|agency|firm|startup|store|shop|library|museum|clinic|office))"
)
PHRASE = r"[^,.;!?]{1,80}?"
"""A value: up to 80 characters within a clause (bounded, so a long run of text without its
closing word is not searched from every start)."""
END = (
    r"(?=\s+(?:but|because|since|so|and\s+I|and\s+my|until|till|from|as\s+of)\b|[,.;!?]|$"
    r"|\s+[—–-]+\s)"
)
I_AM = r"\bI(?:'m|’m|\s+am)"

ROLE_NOUNS = (
    "manager|engineer|developer|designer|accountant|lead|director|analyst|consultant|teacher|"
    "nurse|doctor|scientist|researcher|student|architect|officer|administrator|admin|owner|"
    "founder|ceo|cto|cfo|coo|vp|president|head|specialist|coordinator|assistant|writer|editor|"
    "lawyer|attorney|recruiter|marketer|representative|technician|intern|programmer|tester|"
    "planner|chef|cook|pharmacist|professor|lecturer|trainer|coach|agent|clerk|supervisor|"
    "therapist|psychologist|counsel+or|photographer|artist|musician|pilot|driver|mechanic|"
    "electrician|plumber|carpenter|farmer|freelancer|contractor|journalist|economist|dentist|"
    "surgeon|paramedic|firefighter|executive|strategist|copywriter|translator|librarian|"
    "secretary|receptionist|cashier|salesperson|waiter|waitress|barista|baker|veterinarian|"
    "vet|physiotherapist|scrum master|product owner|data scientist"
)
DIETS = (
    "vegetarian|vegan|pescatarian|pescetarian|flexitarian|gluten-free|lactose intolerant|"
    "plant[- ]based|keto|halal|kosher"
)
PRONOUNS = frozenset("it this that them you him her these those there one something".split())
EVENT_VERBS = (
    "went|bought|visited|flew|ran|spent|paid|took|attended|finished|started|completed|watched|"
    "saw|met|ate|cooked|made|travell?ed|drove|won|lost|adopted|booked|celebrated|hiked|"
    "climbed|swam|walked|played|painted|baked|wrote|sold|received|passed|graduated|married|"
    "hosted|organi[sz]ed|volunteered|returned|tried|learned|learnt|signed up|registered|donated|"
    "got|had|gave|picked up|moved|joined|left|quit|biked|cycled|read"
)
NOT_EVENT_OBJECTS = re.compile(
    r"^(?:a|an|the|your|my)?\s*(?:question|problem|issue|look|idea|message|reply|answer|"
    r"chance|feeling|sense|moment|thought)s?\b",
    re.IGNORECASE,
)

_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+|\n+|[\U0001F1E6-\U0001F1FF\U0001F300-\U0001FAFF\u2600-\u27BF\u200d\ufe0f]+\s*"
    r"(?=(?:whats|what|how|why|where|which|who|any|is|are|can|could|should|do|does|did|pls|"
    r"please|help|anyway|but|so|just|give|tell|make|send|show|also|btw|ok|okay|thanks)\b)",
    re.IGNORECASE,
)
"""A sentence ends at its mark, a new line, or an emoji that chat uses as its mark: one before a
question, a request or a new turn ("type 1 diabetic here 🙃 whats a good breakfast"). An emoji
inside a statement ("I ❤️ sushi", "a family of 4 👨‍👩‍👧‍👦 living in Leeds") ends nothing."""
_IMPERATIVE = re.compile(
    r"^(?:(?:hey|hi|ok(?:ay)?|so|and)\s*,?\s+)?(?:please\s+)?(?:(?:can|could|would|will)\s+you\b|"
    r"(?:open|book|show|send|remind|find|draft|write|summari[sz]e|tell|give|help|make|create|"
    r"check|list|translate|explain|search|look|get|set|schedule|add|remove|delete|update|"
    r"email|order|buy|play|turn|read|compare|plan|fix|let's|lets|go|take|print|share|"
    r"forward|reply|call)\b)",
    re.IGNORECASE,
)
_MOMENTARY = re.compile(
    r"\bI(?:'d|’d|\s+would)\s+(?:like|love)\b|\bI\s+(?:need|want|wanna)\b|"
    rf"{I_AM}\s+(?:looking\s+for|thinking\s+(?:about|of)|trying\s+to|about\s+to|"
    r"planning\s+to|wondering|going\s+to\s+(?:try|look|check|ask))\b|"
    r"\b(?:probably|prob|prolly|maybe|perhaps|might)\b",
    re.IGNORECASE,
)
_CONDITIONAL = re.compile(
    r"^(?:(?:and|but|so|ok(?:ay)?)\s*,?\s+)?(?:if|unless|supposing|assuming|what\s+if|in\s+case|"
    r"hypothetically|suppose\s+(?:that|I|we|you)|imagine\s+(?:if|that|I|we|you)|"
    r"(?:let's\s+)?say,?\s+(?:that\s+)?(?:I|we|you)\b(?!\s+(?:hi|hello)\b))\b",
    re.IGNORECASE,
)
"""A sentence that states a condition, not a fact: "If I moved to Canada, …", "say I took the
job in Denver". "Imagine Dragons is my favourite band" and "Say hi to Tom" are not."""
_STANDING_RULE = re.compile(r"\b(?:always|never)\b", re.IGNORECASE)
"""A condition on a standing instruction is part of it: "If I ask for code, always use
Python" is kept whole, as the patterns read it."""
_STANDING = re.compile(
    r"^(?:(?:and|also)\s+)?(?:please\s+)?(?:always|never|don't\s+ever|do\s+not\s+ever|"
    r"from\s+now\s+on)\b|\bI\s+want\s+you\s+to\s+(?:always|never)\b|"
    r"^(?:please\s+)?(?:answer|reply|respond|write|talk|speak)\s+(?:to\s+me\s+)?in\s+[A-Z]|"
    r"^(?:please\s+)?keep\s+(?:your\s+)?(?:answers|replies|responses)\b|"
    r"\b(?:(?:going|moving)\s+forward|from\s+here\s+on(?:\s+out)?)\s*,?\s+(?:please\s+)?"
    r"(?:give|use|write|answer|reply|keep|send|show|make|call|don't|do\s+not|always|never|just)\b|"
    r"\bstop\s+\w+ing\b[^.!?]{0,60}?\b(?:every|each|all|your)\s+(?:answers?|repl(?:y|ies)|"
    r"responses?)\b",
    re.IGNORECASE,
)
_CALL_ME = re.compile(rf"^(?:[Pp]lease\s+)?[Cc]all\s+me\s+({NAME})\s*[.!]?$")
_UNTIL = re.compile(r"\b(?:until|till|til|up\s+to|through|thru)\s*$", re.IGNORECASE)
_FROM = re.compile(r"\b(?:from|starting(?:\s+on)?|as\s+of|beginning|effective)\s*$", re.IGNORECASE)
_START_VERBS = re.compile(
    r"\b(?:start|starting|begin|beginning|join|joining|moving|move|switch|switching|"
    r"transfer|transferring|moved|joined|started)\b",
    re.IGNORECASE,
)
_UNTIL_THEN = re.compile(r"\buntil\s+then\b", re.IGNORECASE)
EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_LIKE_END = r"(?=\s+(?:but|because|since|so|and\s+I|over|rather\s+than|instead\s+of)\b|[,.;!?]|$)"


@dataclass(frozen=True)
class _Found:
    kind: str
    slot: str | None
    value: str
    text: str
    start: int


Reader = Callable[[str], Iterator[_Found]]
"""Reads one sentence: every fact, or end, it states."""


def _clean(value: str) -> str:
    value = re.sub(r"^(?:the|a|an|my|our)\s+", "", value.strip(), flags=re.IGNORECASE)
    return value.strip(" \t'\"’“”").rstrip(".")


def _items(value: str) -> list[str]:
    """ "Jira and Confluence", "German and a bit of Japanese" → their items."""
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+or\s+|\s*&\s*", value)
    cleaned = [
        _clean(re.sub(r"^(?:a\s+(?:little\s+)?bit\s+of|some|fluent|basic)\s+", "", p.strip()))
        for p in parts
    ]
    return [c for c in cleaned if c]


@dataclass(frozen=True)
class Pattern:
    """One row of the table: a regular expression whose group `v` is the value of `slot`, and
    the fact's text built from `text` (`{v}` is the value). With `many`, the value is a list
    ("Jira and Confluence") and each item is a fact. A value that is a pronoun gives nothing."""

    pattern: str
    slot: str
    text: str
    flags: int = re.IGNORECASE
    many: bool = False

    def reader(self) -> Reader:
        compiled = re.compile(self.pattern, self.flags)

        def find(sentence: str) -> Iterator[_Found]:
            for match in compiled.finditer(sentence):
                raw = match.group("v")
                values = _items(raw) if self.many else [_clean(raw)]
                for value in values:
                    if not value or value.split()[0].lower() in PRONOUNS:
                        continue
                    yield _Found("fact", self.slot, value, self.text.format(v=value), match.start())

        return find


def _favourite(sentence: str) -> Iterator[_Found]:
    pattern = rf"\bmy\s+fav(?:ou)?rite\s+(?P<c>[a-z]+(?:\s+[a-z]+)?)\s+is\s+(?P<v>{PHRASE}){END}"
    for match in re.finditer(pattern, sentence, re.IGNORECASE):
        category, value = match.group("c").lower(), _clean(match.group("v"))
        if value:
            yield _Found(
                "fact",
                f"favourite:{category}",
                value,
                f"Favourite {category} is {value}",
                match.start(),
            )


def _family(sentence: str) -> Iterator[_Found]:
    relations = r"wife|husband|partner|girlfriend|boyfriend|spouse|fianc[ée]e?"
    for match in re.finditer(
        rf"\b[Mm]y\s+(?P<r>{relations})(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|,|\s+is)?"
        rf"\s+(?P<v>{NAME})",
        sentence,
    ):
        relation = match.group("r").lower()
        yield _Found(
            "fact",
            "partner",
            match.group("v"),
            f"{relation.capitalize()} is {match.group('v')}",
            match.start(),
        )
    kids = r"sons?|daughters?|kids?|child|children|boys?|girls?"
    for match in re.finditer(
        rf"\b[Mm]y\s+(?P<r>son|daughter|kid|child)(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named"
        rf"|,)?\s+(?P<v>{NAME})",
        sentence,
    ):
        yield _Found(
            "fact",
            "child",
            match.group("v"),
            f"Has a {match.group('r').lower()} named {match.group('v')}",
            match.start(),
        )
    for match in re.finditer(
        rf"\bI\s+have\s+(?:a|an|one|two|three|four|five|\d)\s+(?P<r>{kids})(?:,|\s+called|"
        rf"\s+named|:)\s+(?P<v>{NAME}(?:(?:\s*,\s*|\s+and\s+){NAME})*)",
        sentence,
    ):
        relation = re.sub(r"(?:ren|s)$", "", match.group("r").lower())
        for name in _items(match.group("v")):
            yield _Found("fact", "child", name, f"Has a {relation} named {name}", match.start())
    animals = r"dog|cat|puppy|kitten|rabbit|hamster|parrot|horse|bird|fish|turtle|guinea\s+pig"
    for match in re.finditer(
        rf"\b(?:I\s+(?:have|adopted|got|own)\s+an?|[Mm]y)\s+(?:new\s+|little\s+)?(?P<r>{animals})"
        rf"(?:'s\s+name\s+is|\s+is\s+called|\s+called|\s+named|,)\s+(?P<v>{NAME})",
        sentence,
    ):
        animal = match.group("r").lower()
        yield _Found(
            "fact",
            "pet",
            match.group("v"),
            f"Has a {animal} named {match.group('v')}",
            match.start(),
        )


def _ends(sentence: str) -> Iterator[_Found]:
    for match in re.finditer(
        rf"\bI\s+(?:have\s+)?(?:left|quit|resigned\s+from|am\s+leaving|'m\s+leaving|’m\s+leaving|"
        rf"will\s+leave|am\s+resigning\s+from|'m\s+resigning\s+from|no\s+longer\s+work\s+"
        rf"(?:at|for)|don't\s+work\s+(?:at|for)\s+|stopped\s+working\s+(?:at|for))\s*"
        rf"(?P<v>{ORG})",
        sentence,
    ):
        org = match.group("v").strip()
        yield _Found("end", "employer", org, f"No longer works at {org}", match.start())
    for match in re.finditer(
        r"\bI(?:'m|’m|\s+am|\s+will\s+be|'ll\s+be)?\s+(?:resigning|retiring|resign|retire|"
        r"quitting)\b(?!\s+from\s+[A-Z])",
        sentence,
    ):
        yield _Found("end", "employer", "", "No longer works at their employer", match.start())
    for match in re.finditer(
        rf"\bI\s+(?:no\s+longer|don't|do\s+not)\s+live\s+in\s+(?P<v>{PLACE})", sentence
    ):
        yield _Found(
            "end", "home", match.group("v"), f"No longer lives in {match.group('v')}", match.start()
        )
    for match in re.finditer(
        rf"\bmy\s+last\s+day\s+(?:at|with)\s+(?P<v>{ORG})\s+(?:was|is|will\s+be)\b",
        sentence,
        re.IGNORECASE,
    ):
        org = match.group("v").strip()
        yield _Found("end", "employer", org, f"No longer works at {org}", match.start())
    for match in _NOT_ANY_MORE.finditer(sentence):
        value = (match.group("v") or match.group("v2") or match.group("v3")).strip()
        verb = match.group("verb") or match.group("verb2") or match.group("verb3")
        slot: str | None = _ENDED_BY_VERB[" ".join(verb.lower().split())]
        if verb.lower() == "with" and not _BROKE_UP.search(sentence):
            slot = None  # "I'm no longer with Acme" or "with Mark": whatever names them ends
        text = _ENDED_TEXT[slot].format(value) if slot else f"No longer with {value}"
        yield _Found("end", slot, value, text, match.start())


_NOT_ANY_MORE = re.compile(
    rf"(?:\bI(?:['’]m|\s+am)?\s+|^|,\s*)(?:don['’]?t|do\s+not|no\s+longer|not)\s+"
    rf"(?P<verb>work\s+(?:at|for)|report\s+to|with|live\s+in)\s+(?P<v>{PHRASE})\s+any\s?more\b"
    rf"|\bI\s+no\s+longer\s+(?P<verb2>report\s+to)\s+(?P<v2>{NAME})"
    rf"|\bI(?:['’]m|\s+am)\s+no\s+longer\s+(?P<verb3>at|with)\s+(?P<v3>{ORG})",
    re.IGNORECASE,
)
"""Ends said with "anymore", whose value may be written in lower case and whose "I" may be
left out ("I don't work at deloitte anymore", "not with Marco anymore", "dont live in chicago
anymore"), "I no longer report to Steph" and "I'm no longer at Contoso"."""
_BROKE_UP = re.compile(
    r"\b(?:split|broke\s+up|break\s+up|divorced?|separated|dumped|ex)\b", re.IGNORECASE
)
"""What makes "no longer with Mark" the end of a partner rather than of a client or a job."""
_ENDED_BY_VERB = {
    "work at": "employer",
    "work for": "employer",
    "at": "employer",
    "report to": "manager",
    "with": "partner",
    "live in": "home",
}
_ENDED_TEXT = {
    "home": "No longer lives in {}",
    "employer": "No longer works at {}",
    "manager": "No longer reports to {}",
    "partner": "No longer with {}",
}


_HEDGE = r"(?:(?:really|even|actually|much|usually|regularly|ever)\s+)?"
_NO_LONGER = re.compile(
    rf"\bI(?:'ve|’ve|\s+have)?\s+(?:no\s+longer|don't|don’t|do\s+not)\s+{_HEDGE}"
    rf"(?P<verb>[a-z]+)\s+(?P<v>{PHRASE})\s+any\s?more\b"
    rf"|\bI\s+no\s+longer\s+{_HEDGE}(?P<verb2>[a-z]+)\s+(?P<v2>{PHRASE}){END}"
    rf"|\bI(?:'ve|’ve|\s+have)?\s+(?P<quit>stopped|quit|given\s+up|gave\s+up)\s+"
    rf"(?P<v3>[a-z]+ing(?:\s+{PHRASE})?){END}",
    re.IGNORECASE,
)


_AFTER_THE_THING = re.compile(
    r"\s+(?:and|but|so|because|when|after|before|since|for\s+good|in\s+(?:\d{4}|[A-Z]\w+))\b"
)
"""Where what was given up ends: "smoking for good in February and the cravings are the worst"
gave up "smoking"."""
_PREPOSITIONS = frozenset({"to", "with", "at", "for", "in", "on", "from", "about", "by"})
_TRAILING_TIME = re.compile(
    r"(?:\s+(?:for\s+good|any\s?more|now|at\s+all|btw|fwiw|tbh|lol|haha|though|either|(?:last|this)\s+(?:year|month|week)|"
    r"yesterday|today|in\s+\d{4}|since\s+\w+))+$",
    re.IGNORECASE,
)


def _no_longer(sentence: str) -> Iterator[_Found]:
    """ "I don't drink coffee anymore", "I no longer use Slack", "I've quit smoking": the habit
    (or the tool: "use"; or the duty: "I no longer run the intern program") ends, with whatever
    else names it among the user's habits, tools, diets and likes (`reconcile`), and what holds
    now is kept after the end ("No longer drinks coffee", "Quit smoking"): without it, a user who
    never said they drank coffee would be known for nothing. Only a habit's verb keeps one ("I
    don't feel like it anymore" keeps nothing), and nothing given up for a while is kept ("I quit
    drinking for a month")."""
    if _FOR_A_WHILE.search(sentence):
        return
    for match in _NO_LONGER.finditer(sentence):
        verb = (match.group("verb") or match.group("verb2") or "").lower()
        if verb in ("work", "live", "report"):
            continue  # a job, a home, a manager: `_ends` reads those, with their slot
        said = match.group("v") or match.group("v2") or match.group("v3")
        value = _TRAILING_TIME.sub("", _AFTER_THE_THING.split(_clean(said))[0])
        if not value or value.split()[0].lower() in PRONOUNS | _PREPOSITIONS | _NOT_HABITS:
            continue
        duty = verb in _DUTY_VERBS and said.split()[0].lower() in ("the", "our", "my")
        slot = "responsibility" if duty else "uses" if verb == "use" else "habit"
        yield _Found("end", slot, value, f"No longer: {value}", match.start())
        if duty or (verb and verb not in _HABIT_VERBS):
            continue  # a duty handed over, or a verb of no habit: the end alone
        if verb:
            given_up = f"No longer {_HABIT_VERBS[verb]} {value}"
        else:  # "Quit smoking", "Stopped running marathons", "Gave up smoking"
            quit = " ".join(match.group("quit").lower().replace("given", "gave").split())
            given_up = f"{quit[0].upper()}{quit[1:]} {value}"
        yield _Found("fact", "habit", value, given_up, match.start())


_HABIT_VERBS = {
    "drink": "drinks",
    "eat": "eats",
    "smoke": "smokes",
    "vape": "vapes",
    "use": "uses",
    "watch": "watches",
    "play": "plays",
    "take": "takes",
    "wear": "wears",
    "drive": "drives",
    "own": "owns",
    "run": "runs",
    "do": "does",
    "go": "goes",
    "cook": "cooks",
    "bake": "bakes",
    "read": "reads",
    "ride": "rides",
    "cycle": "cycles",
    "swim": "swims",
    "climb": "climbs",
    "gamble": "gambles",
    "buy": "buys",
}
"""Verbs of a habit one gives up, and how the fact that holds now says them."""
_DUTY_VERBS = frozenset({"run", "manage", "lead", "own", "handle", "organise", "organize"})
_NOT_HABITS = frozenset(
    {"trying", "hoping", "waiting", "caring", "worrying", "pretending", "asking", "expecting"}
)
"""What one gives up that is no habit: "I've given up trying to fix it"."""
_FOR_A_WHILE = re.compile(
    r"\bfor\s+(?:a|one|two|three|four|\d+)\s+(?:day|week|month)s?\b|\bfor\s+now\b|"
    r"\btemporarily\b|\bthis\s+(?:week|month)\b|\bfor\s+lent\b|\buntil\b",
    re.IGNORECASE,
)


def _instructions(sentence: str) -> Iterator[_Found]:
    if _STANDING.search(sentence):
        value = re.sub(
            r"^(?:(?:and|also)\s+)?please\s+|^I\s+want\s+you\s+to\s+",
            "",
            sentence,
            flags=re.IGNORECASE,
        )
        value = value.strip().rstrip(".!")
        if value:
            yield _Found("fact", "instruction", value, value[0].upper() + value[1:], 0)


def _call_me(sentence: str) -> Iterator[_Found]:
    match = _CALL_ME.search(sentence.strip())
    if match:
        yield _Found(
            "fact", "preferred_name", match.group(1), f"Prefers to be called {match.group(1)}", 0
        )


PATTERNS: tuple[Pattern | Reader, ...] = (
    # Who they are.
    Pattern(rf"\bmy\s+name\s+is\s+(?P<v>{NAME})", "name", "Name is {v}", flags=0),
    Pattern(
        rf"(?:^|,\s*|\band\s+)(?:hi|hello|hey)?[,!]?\s*(?:I'm|I’m|I\s+am|this\s+is)\s+"
        rf"(?!(?:{NATIONALITIES})\b)(?P<v>{NAME})(?=\s*(?:[,.!;]|\s+and\b|\s+here\b|$))",
        "name",
        "Name is {v}",
        flags=0,
    ),
    Pattern(
        rf"{I_AM}\s+(?P<v>(?i:{NATIONALITIES})(?:-(?:{NATIONALITIES}))?)(?![\w-])"
        r"(?!\s+(?!(?:and|but|so|though|too|by)\b)[a-z])",
        "nationality",
        "Is {v}",
        flags=0,
    ),
    Pattern(  # "As a Brazilian citizen, do I need a visa?", "as a Canadian I find tipping odd"
        rf"(?:^|,\s*)[Aa]s\s+an?\s+(?P<v>{NATIONALITIES})\b"
        r"(?!\s+(?!(?:citizen|national|passport\s+holder)\b)[a-z])",
        "nationality",
        "Is {v}",
        flags=0,
    ),
    Pattern(
        rf"{I_AM}\s+(?P<v>\d{{1,3}})(?:\s+years?\s+old)?\b(?!\s*[%:.]\d)", "age", "Is {v} years old"
    ),
    Pattern(r"\bI\s+(?:just\s+)?turned\s+(?P<v>\d{1,3})\b", "age", "Is {v} years old"),
    Pattern(
        rf"\bI\s+(?:work(?:ed)?|am\s+working|'m\s+working|started|start|joined|will\s+start|"
        rf"'ll\s+start|am\s+starting|'m\s+starting)(?:\s+(?:at|for|with)\s+{ORG}|\s+{ORG})?\s+as\s+"
        rf"(?:an?\s+|the\s+)?(?P<v>[a-z][\w -]*?(?:{ROLE_NOUNS}))\b",
        "role",
        "Works as {v}",
    ),
    Pattern(
        rf"{I_AM}\s+(?:now\s+)?(?:an?|the)\s+(?P<v>(?:[a-z][\w-]*\s+){{0,3}}(?:{ROLE_NOUNS}))\b",
        "role",
        "Works as {v}",
    ),
    Pattern(rf"{I_AM}\s+(?:an?\s+)?(?:strict\s+)?(?P<v>{DIETS})\b", "diet", "Is {v}"),
    Pattern(  # "plant based for 8 yrs now", "vegan since 2019"
        rf"(?:^(?:been\s+)?|,\s*(?:been\s+)?|\bI['’]ve\s+been\s+)(?P<v>{DIETS})\s+"
        r"(?:for\s+(?:\w+\s+)?(?:years|yrs|months)|since)\b",
        "diet",
        "Is {v}",
    ),
    Pattern(  # "I've got a shellfish allergy", "I have a severe nut allergy"
        r"\bI(?:['’]ve|\s+have)?\s+(?:got\s+)?an?\s+(?:severe\s+|mild\s+|bad\s+)?"
        r"(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+allergy\b",
        "allergy",
        "Is allergic to {v}",
    ),
    Pattern(
        rf"{I_AM}\s+(?:severely\s+)?allergic\s+to\s+(?P<v>{PHRASE}){END}",
        "allergy",
        "Is allergic to {v}",
        many=True,
    ),
    Pattern(rf"\bI\s+speak\s+(?P<v>{PHRASE}){END}", "language", "Speaks {v}", many=True),
    # Where they live and work.
    Pattern(
        rf"\bI\s+(?:live|am\s+living|'m\s+living)\s+in\s+(?P<v>{PLACE})",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(rf"{I_AM}\s+(?:now\s+)?based\s+in\s+(?P<v>{PLACE})", "home", "Lives in {v}", flags=0),
    Pattern(
        rf"\bI\s+(?:just\s+|recently\s+)?(?:moved|relocated)\s+to\s+(?P<v>{PLACE})(?!\s+(?:team|office))",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(  # "been in toronto since 2015", "I've been living in Oslo for five years"
        rf"(?:^(?:but\s+|and\s+|so\s+)?|,\s*|\bI['’]ve\s+|\bI\s+have\s+)been\s+(?:living\s+|based\s+)?in\s+"
        rf"(?P<v>{PLACE}|[a-z][\w-]+)\s+(?:since\s+(?:\d{{4}}|(?:I|we)\s+w(?:as|ere)\b|uni\b|"
        rf"college\b|school\b|childhood\b|birth\b|forever\b)|(?:for\s+)?(?:\d+|a\s+few|"
        rf"many|several|two|three|four|five|six|seven|eight|nine|ten)\s+(?:years|yrs|decades?)\b|"
        rf"ever\s+since\b)(?![^.!?]{{0,40}}\b(?:trip|conference|visit|holiday|vacation|stay)\b)",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(rf"{I_AM}\s+(?:originally\s+)?from\s+(?P<v>{PLACE})", "origin", "Is from {v}", flags=0),
    Pattern(  # "moved over from Cork a couple of years back"
        rf"\b(?:I\s+)?moved\s+(?:over\s+|here\s+|down\s+|up\s+|across\s+)?from\s+(?P<v>{PLACE})"
        r"(?![\w'’-])(?!\s+(?:over\s+)?to\b)",
        "origin",
        "Is from {v}",
        flags=0,
    ),
    Pattern(rf"\bI\s+grew\s+up\s+in\s+(?P<v>{PLACE})", "origin", "Is from {v}", flags=0),
    Pattern(
        rf"\b(?:I(?:'m|’m|\s+am|\s+work|\s+will\s+be)|I'll\s+be)\s+(?:working\s+)?(?:in|at|from)\s+"
        rf"the\s+(?P<v>{PLACE})\s+office\b",
        "office",
        "Works in the {v} office",
        flags=0,
    ),
    Pattern(
        rf"\b(?:moving|move|moved|switching|transferring|joining|join|joined)\s+(?:over\s+)?"
        rf"(?:to\s+)?the\s+(?P<v>{PLACE})\s+team\b",
        "team",
        "Is in the {v} team",
        flags=0,
    ),
    Pattern(
        rf"{I_AM}\s+(?:in|on)\s+the\s+(?P<v>{PLACE})\s+team\b",
        "team",
        "Is in the {v} team",
        flags=0,
    ),
    Pattern(
        rf"\bI\s+(?:work|am\s+working|'m\s+working|’m\s+working|currently\s+work)\b(?:\s+as\s+"
        rf"[\w -]+?)?\s+(?:at|for)\s+(?P<v>{ORG})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(  # "I'm on the data platform team at Zalando"
        rf"{I_AM}\s+(?:on|in)\s+the\s+(?:[\w-]+\s+){{0,4}}?(?:team|squad|department|division)\s+"
        rf"(?:at|for)\s+(?P<v>{ORG})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(  # "I'm a product manager at Spotify"
        rf"{I_AM}\s+(?:an?|the)\s+(?:(?!of\b|the\b|a\b)[\w-]+\s+){{0,3}}?(?:{ROLE_NOUNS}|dev|nurse|"
        rf"doctor)s?\s+"
        rf"(?:at|for|with)\s+(?P<v>{ORG})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(
        rf"{I_AM}\s+(?:employed|working)\s+(?:at|by|for)\s+(?P<v>{ORG})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(
        rf"\bI\s+(?:recently\s+|just\s+)?joined\s+(?P<v>{ORG})(?!\s+team)",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(
        rf"\bI\s+(?:start|begin|will\s+start|'ll\s+start|am\s+starting|'m\s+starting|’m\s+starting|"
        rf"started)\s+(?:a\s+new\s+job\s+)?(?:at|with)\s+(?P<v>{ORG})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    # Contact.
    Pattern(
        rf"\b(?:my\s+(?:e-?mail|email\s+address)\s+is|reach\s+me\s+at|contact\s+me\s+at|e-?mail\s+me"
        rf"\s+at|mail\s+me\s+at)\s+(?P<v>{EMAIL})",
        "email",
        "Email address is {v}",
    ),
    Pattern(
        r"\b(?:(?:my\s+)?(?:(?:work|home|new)\s+)?(?:phone|mobile|cell|number)(?:\s+number)?"
        r"(?:'s|’s|\s+is|\s+changed,?\s+it's|:)?|call\s+me\s+on|reach\s+me\s+on|"
        r"text\s+me\s+on)\s+(?P<v>\+?\(?\d[\d\s()-]{5,}\d)",
        "phone",
        "Phone number is {v}",
    ),
    # Who and what they work with.
    Pattern(
        rf"\b[Mm]y\s+(?:manager|boss|supervisor|line\s+manager)\s+is\s+(?P<v>{NAME})",
        "manager",
        "Reports to {v}",
        flags=0,
    ),
    Pattern(
        rf"\bI\s+(?:report|will\s+report|'ll\s+report|am\s+reporting|'m\s+reporting)\s+to\s+"
        rf"(?P<v>{NAME})",
        "manager",
        "Reports to {v}",
        flags=0,
    ),
    Pattern(
        rf"\bI\s+(?:work|am\s+working|'m\s+working)\s+(?:closely\s+)?with\s+(?P<v>{NAME})",
        "works_with",
        "Works with {v}",
        flags=0,
    ),
    Pattern(  # "my main contact at the agency is Farah Siddiqui"
        rf"\b[Mm]y\s+(?:main\s+|key\s+|usual\s+|day-to-day\s+)?(?:contact|point\s+of\s+contact|"
        rf"counterpart|account\s+manager)\s+(?:at|in|from|with)\s+[^,.;!?]{{1,40}}?\s+is\s+"
        rf"(?P<v>{NAME})",
        "works_with",
        "Works with {v}",
        flags=0,
    ),
    Pattern(  # "I work with the Berlin sales team every day"
        r"\bI\s+(?:work|am\s+working|'m\s+working)\s+(?:closely\s+|a\s+lot\s+)?with\s+the\s+"
        r"(?!(?:worst|best|same|other|whole|entire|wrong|right|new|old|rest)\b)"
        r"(?P<v>(?:[\w-]+\s+){1,3}team)\b",
        "works_with",
        "Works with the {v}",
    ),
    Pattern(
        rf"\b[Mm]y\s+(?:colleague|co-?worker|teammate)s?\s+(?:is\s+|are\s+)?(?P<v>{NAME})",
        "works_with",
        "Works with {v}",
        flags=0,
    ),
    Pattern(
        rf"{I_AM}\s+(?:responsible\s+for|in\s+charge\s+of|accountable\s+for)\s+(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(
        rf"(?<!\bwhen\s)(?<!\bif\s)(?<!\bwhenever\s)"
        rf"\bI\s+(?:manage|lead|run|own|oversee|look\s+after)\s+(?P<v>the\s+{PHRASE}|our\s+{PHRASE})"
        rf"{END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "we own checkout + refunds", "we look after the referral program" (their team)
        rf"\bwe\s+(?:own|look\s+after|are\s+responsible\s+for|'re\s+responsible\s+for|"
        rf"take\s+care\s+of|maintain)\s+(?:all\s+)?"
        r"(?!(?:a|an|one|two|three|four|some|several|\d+|the\s+problem|it|this|that)\b)"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "I'm the product owner for the checkout flow", "the on-call lead for X"
        rf"{I_AM}\s+(?:the|an?)\s+(?:[\w-]+\s+){{0,2}}(?:owner|lead|maintainer)\s+(?:for|of)\s+(?![^,.;!?]*\b(?:team|squad|group|department)\b)"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(
        r"\b(?:I|[Ww]e)\s+(?:mostly\s+|mainly\s+|also\s+)?(?:use|are\s+using|am\s+using|'re\s+using|"
        r"rely\s+on)\s+(?P<v>[A-Z][\w.+#-]*(?:(?:\s*,\s*|\s+and\s+|\s+)[A-Z][\w.+#-]*)*)",
        "uses",
        "Uses {v}",
        flags=0,
        many=True,
    ),
    # Preferences.
    Pattern(
        rf"\bI\s+(?:really\s+|absolutely\s+|also\s+|just\s+)?(?:like|love|enjoy|adore|prefer)\s+"
        rf"(?P<v>{PHRASE}){_LIKE_END}",
        "likes",
        "Likes {v}",
    ),
    Pattern(
        rf"\bI\s+(?:really\s+)?(?:don't|do\s+not|don’t|never)\s+(?:really\s+)?(?:like|enjoy)\s+"
        rf"(?P<v>{PHRASE}){_LIKE_END}",
        "dislikes",
        "Dislikes {v}",
    ),
    Pattern(
        rf"\bI\s+(?:really\s+)?(?:hate|dislike|detest|loathe|can't\s+stand|cannot\s+stand)\s+"
        rf"(?P<v>{PHRASE}){_LIKE_END}",
        "dislikes",
        "Dislikes {v}",
    ),
    Pattern(
        rf"\bI\s+(?:usually|normally|typically|often|generally)\s+(?P<v>{PHRASE}){_LIKE_END}",
        "habit",
        "Usually {v}",
    ),
    Pattern(
        r"\bI(?:'m|’m|\s+am)\s+(?:currently\s+)?(?:on\s+)?(?P<v>(?:parental|maternity|paternity|sick|"
        r"annual|medical|study)\s+leave|on\s+(?:holiday|vacation|sabbatical)|out\s+of\s+(?:the\s+)?"
        r"office)\b",
        "status",
        "Is on {v}",
    ),
    _favourite,
    _family,
    _ends,
    _no_longer,
    _instructions,
    _call_me,
)
"""Every pattern the extractor reads a sentence with, in this order (the order decides which
of two patterns that read the same value into the same slot gives the fact): one row per
`Pattern`, then the readers whose value or slot a template cannot say."""

_READERS: tuple[Reader, ...] = tuple(
    entry.reader() if isinstance(entry, Pattern) else entry for entry in PATTERNS
)


_EVENT = re.compile(
    rf"\bI\s+(?:just\s+|finally\s+|recently\s+|also\s+|actually\s+)?(?P<verb>{EVENT_VERBS})\b"
    r"(?P<rest>[^.;!?]*)",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(
    r",\s*(?:and\s+|but\s+)?I\b|\s+but\s+|\s+and\s+(?:I|it|that|this|we|they|he|she)\b|"
    r",\s*until\b|,\s*(?:which|it|that)\b"
)
_CHANGE_SLOTS = frozenset({"employer", "home", "role", "team", "office"})
_FACT_VERBS = re.compile(r"^(?:moved|joined|left|quit|started\s+(?:at|with|as))\b", re.I)


def _events(sentence: str, facts: list[_Found]) -> Iterator[_Found]:
    changed = any(f.slot in _CHANGE_SLOTS or f.kind == "end" for f in facts)
    for match in _EVENT.finditer(sentence):
        verb, rest = match.group("verb"), match.group("rest")
        cut = _CLAUSE_END.search(rest)
        if cut:
            rest = rest[: cut.start()]
        clause = f"{verb}{rest}".strip().rstrip(",")
        if verb.lower() in ("had", "got", "read") and NOT_EVENT_OBJECTS.search(rest.strip()):
            continue
        if NOT_EVENT_OBJECTS.search(rest.strip()) or not rest.strip():
            continue
        if changed and _FACT_VERBS.search(clause):
            continue
        yield _Found("event", None, clause, clause[0].upper() + clause[1:], match.start())


def _is_momentary(sentence: str) -> bool:
    if _STANDING.search(sentence) or _CALL_ME.search(sentence.strip()):
        return False
    return bool(_IMPERATIVE.search(sentence) or _MOMENTARY.search(sentence))


_ABBREVIATION = re.compile(
    r"(?:^|\s)(?:st|dr|mr|mrs|ms|mt|prof|jr|sr|vs|etc|inc|ltd|co|no|dept|ave|rd|approx|"
    r"e\.g|i\.e|[A-Z])\.$",
    re.IGNORECASE,
)
"""A piece ending so ends with an abbreviation ("St.", "Dr.", "e.g.") or an initial ("J."),
not a sentence: "I work at St. Mary's hospital" is one sentence."""


def sentences(text: str) -> list[str]:
    """The text's sentences; a piece ending with an abbreviation joins the next, unless the
    sentence so far spans lines. Only a piece's last word is looked at, so a long text full of
    "St." and "Dr." costs time in proportion to its length."""
    pieces = [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]
    joined: list[list[str]] = []
    spans_lines: list[bool] = []
    for piece in pieces:
        if joined and not spans_lines[-1] and _ABBREVIATION.search(joined[-1][-1].split()[-1]):
            joined[-1].append(piece)
        else:
            joined.append([piece])
            spans_lines.append(False)
        spans_lines[-1] = spans_lines[-1] or "\n" in piece
    return [" ".join(parts) for parts in joined]


class EmbeddedExtractor:
    """Deterministic English patterns, and where they read no fact, the durable reader
    (`app.facts.durable`) when meaning is on; offline, about 0.4 ms a message on 2 cores (the
    patterns alone 0.1 ms).

    `embedded-1` is the patterns alone; `embedded-3` the patterns with the reader's two heads and
    clauses (`embedded-2`, its first version, read whole sentences with the gate's lasting
    probe): re-extraction re-runs batches made by another."""

    def __init__(self, reader: DurableReader | None = None) -> None:
        self.reader = reader
        self.name = "embedded-3" if reader is not None else "embedded-1"

    def extract(self, turns: Sequence[Turn]) -> list[Extracted]:
        per_sentence: list[tuple[int, str, date, list[Extracted]]] = [
            (number, sentence, turn.said_on, extract_sentence(sentence, turn.said_on))
            for number, turn in enumerate(turns)
            for sentence in sentences(first_person_capitalised(without_pasted(turn.text)))
            if len(sentence) <= MAX_SENTENCE_CHARS
        ]
        if self.reader is not None:
            self._read_the_rest(self.reader, per_sentence)
        return _dedupe(
            [replace(item, turn=number) for number, _, _, items in per_sentence for item in items]
        )

    @staticmethod
    def _read_the_rest(
        reader: DurableReader, per_sentence: list[tuple[int, str, date, list[Extracted]]]
    ) -> None:
        """Facts the durable reader finds where the patterns read none: first in each whole
        sentence that may state a fact, then in the clauses of any sentence (a second fact, or
        one said before a question), for slots the sentence has not given yet. The patterns'
        facts of a question's or a request's clauses count too: the whole gave nothing."""
        whole = [
            n
            for n, (_, sentence, _, items) in enumerate(per_sentence)
            if not _reads_a_fact(items)
            and keeps_open(sentence)
            and not _ACKNOWLEDGES.search(sentence)
        ]
        readings = reader.read([per_sentence[n][1] for n in whole])
        read_whole: dict[int, Extracted] = {}
        for n, reading in zip(whole, readings, strict=True):
            if reading is not None:
                _, sentence, said_on, items = per_sentence[n]
                read_whole[n] = _as_fact(reading, sentence, said_on)
                items[:0] = [read_whole[n], *_listed_with(reading, read_whole[n])]
        parts: list[tuple[int, str]] = []
        for n, (_, sentence, said_on, items) in enumerate(per_sentence):
            whole_closed = not keeps_open(sentence)
            answers = bool(_ACKNOWLEDGES.search(sentence))
            for clause in _statement_clauses(sentence):
                if answers and not _FIRST_PERSON.search(clause):
                    continue  # "thanks, that helps with note 32": more of the answer
                read = extract_sentence(clause, said_on)
                if not _reads_a_fact(read):
                    parts.append((n, clause))
                elif whole_closed:  # "I'm vegetarian, what should I order?"
                    items.extend(item for item in read if item.kind in ("fact", "end"))
                # else the whole sentence's patterns read what this clause's read
        readings = reader.read([clause for _, clause in parts], clauses=True)
        for (n, clause), reading in zip(parts, readings, strict=True):
            if reading is None:
                continue
            _, _, said_on, items = per_sentence[n]
            whole_fact = read_whole.get(n)
            same_slot = [i for i in items if i.kind == "fact" and i.slot == reading.slot]
            named = reading.value != reading.text  # a name, not the clause itself
            if any(fold(i.value or "") == fold(reading.value) for i in same_slot):
                continue  # the sentence gave it already (one of several it listed)
            if not same_slot or (named and reading.slot in MULTI_VALUED):
                # "got a dog called Biscuit, and a cat named Luna": a second pet
                fact = _as_fact(reading, clause, said_on)
                items.extend([fact, *_listed_with(reading, fact)])
            elif whole_fact is not None and whole_fact.slot == reading.slot and named:
                # the whole sentence's reading named the other clause's place or name
                # ("living in Oslo since 2015, grew up in Lagos though": origin is Lagos)
                read_whole[n] = replace(whole_fact, value=reading.value)
                items[items.index(whole_fact)] = read_whole[n]


_ACKNOWLEDGES = re.compile(
    r"^(?:thanks|thank\s+you|thx|ty|cheers|great|perfect|cool|nice|awesome|ok(?:ay)?|got\s+it|"
    r"sounds\s+good|lol|haha)(?=\s*[,!.:;—–-]|\s*$)",
    re.IGNORECASE,
)
"""A sentence that opens by answering the assistant ("Thanks, that helps with note 31!") is not
read whole; what follows the answer is read as a clause when the user speaks of themselves in it
("Great, I've just relocated to Gdansk for good"). "Nice is where I live" answers nothing."""
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|me|my|mine|we|we're|our|us)\b", re.I)


def _reads_a_fact(items: list[Extracted]) -> bool:
    return any(item.kind in ("fact", "end") for item in items)


def _statement_clauses(sentence: str) -> list[str]:
    """The clauses of a sentence that splits into clauses, that may state a fact: not a
    question, a request or a condition themselves, not the question the sentence ends with,
    and none of a conditional sentence (its clauses are its consequence)."""
    found = clauses(sentence)
    if found == [sentence] or _CONDITIONAL.search(sentence):
        return []
    if found and (found[-1].endswith("?") or _ASKING_CLAUSE.search(found[-1])):
        found = found[:-1]
    return [clause for clause in found if keeps_open(clause) and not _PREDICATE.match(clause)]


_PREDICATE = re.compile(r"^(?:is|was|has|does|'s)\b", re.IGNORECASE)
"""A clause that opens with a verb of the third person has its subject in another clause
("our parrot, Kiwi, is older than my marriage"): it says nothing of the user alone."""


def _as_fact(reading: Reading, read_from: str, said_on: date) -> Extracted:
    """The reader's fact, with the span the sentence or clause it was read from states
    ("since March", "until May")."""
    span = _span_of(read_from, said_on)
    return Extracted(
        kind="fact",
        text=reading.text,
        said_on=said_on,
        slot=reading.slot,
        value=reading.value,
        valid_from=span.valid_from,
        valid_until=span.valid_until,
    )


def _listed_with(reading: Reading, fact: Extracted) -> list[Extracted]:
    """A fact of its own for each other value listed ("two cats, Miso and Tofu": Tofu)."""
    return [replace(fact, value=value) for value in reading.more]


_OPENERS = r"^(?:(?:so|ok(?:ay)?|hey|btw|also|and|but|quick\s+q(?:uestion)?|anyway)\s*[,:]?\s+)?"
_NOT_ME_NEXT = r"(?:['’]s)?\b(?!['’])(?!\s+(?:I|I['’]m|I['’]ve|we|we['’]re|my|our|mine|me)\b)"
_ASKS_BY_TAIL = r"|\b(?:what\s+do\s+(?:you|u)\s+think|any\s+(?:tips|ideas|advice|thoughts))\W*$"
_WH = r"what|whats|how|why|where|which|who|whose"
_UNMARKED_QUESTION = re.compile(
    rf"{_OPENERS}(?:(?:{_WH}){_NOT_ME_NEXT}|(?:is|are|can|could|should|do|does|did)\s+"
    rf"(?:you|u|it|there|this|that|they|he|she|the|a|an|any|\d+)\b){_ASKS_BY_TAIL}",
    re.IGNORECASE,
)
"""A question typed without its question mark: "whats the commute from Harlem like", "is 30 too
old to start piano", "can you …", "python or go, what do u think". Not one: a sentence opening
with a question word of its own ("where I live it rains", "what my job involves is payroll"), a
verb that is no question ("can't eat gluten", "do yoga every morning")."""
_ASKING_CLAUSE = re.compile(
    rf"{_OPENERS}(?:{_WH}|any){_NOT_ME_NEXT}{_ASKS_BY_TAIL}",
    re.IGNORECASE,
)
"""The same of a sentence's last clause, but for the verbs: a clause after a name opens with
its verb ("Rahul, my husband, does all the cooking")."""


def asks(text: str) -> bool:
    """Whether a sentence is a question, marked or not."""
    return text.endswith("?") or bool(_UNMARKED_QUESTION.search(text))


def _last_clause_asks(sentence: str) -> bool:
    """Whether a sentence ends by asking or asking for something ("…, help me outline it")."""
    last = (clauses(sentence) or [sentence])[-1]
    return (
        last.endswith("?")
        or bool(_ASKING_CLAUSE.search(last))
        or (last != sentence and bool(_IMPERATIVE.search(last)) and not _STANDING.search(last))
    )


def keeps_open(sentence: str) -> bool:
    """Whether a sentence may state a fact at all: not a question, a request or a passing want
    (a sentence whose last clause asks is a question too)."""
    standing = not sentence.endswith("?") and _STANDING.search(sentence)
    return (
        (standing or not asks(sentence))
        and not _last_clause_asks(sentence)
        and not _is_momentary(sentence)
        and not (_CONDITIONAL.search(sentence) and not _STANDING_RULE.search(sentence))
    )


def _span_of(sentence: str, said_on: date) -> _Span:
    tense = tense_of(sentence)
    return _spans(sentence, find_days(sentence, said_on, tense), tense, said_on)


MAX_SENTENCE_CHARS = 600
"""A longer sentence (about 100 words without a stop) is pasted text, not something said of
oneself: it is not read, and the patterns' work stays bounded whatever a message holds."""


def extract_sentence(sentence: str, said_on: date) -> list[Extracted]:
    """Facts, events and ends of one sentence written on `said_on`."""
    if len(sentence) > MAX_SENTENCE_CHARS or not keeps_open(sentence):
        return []
    facts = [f for read in _READERS for f in read(sentence)]
    facts = _drop_overlaps(facts)
    events = list(_events(sentence, facts))
    tense = tense_of(sentence)
    days = find_days(sentence, said_on, tense)
    span = _spans(sentence, days, tense, said_on)
    out: list[Extracted] = []
    for item in sorted(facts + events, key=lambda f: f.start):
        if item.kind == "fact":
            out.append(
                Extracted(
                    kind="fact",
                    text=item.text,
                    said_on=said_on,
                    slot=item.slot,
                    value=item.value,
                    valid_from=span.valid_from,
                    valid_until=span.valid_until,
                )
            )
        elif item.kind == "end":
            out.append(
                Extracted(
                    kind="end",
                    text=item.text,
                    said_on=said_on,
                    slot=item.slot,
                    value=item.value or None,
                    on=span.on or span.valid_from or said_on,
                )
            )
        else:
            out.append(
                Extracted(
                    kind="event",
                    text=_dated_text(item.text, days),
                    said_on=said_on,
                    value=item.value,
                    on=span.on,
                )
            )
    return out


@dataclass(frozen=True)
class _Span:
    valid_from: date | None = None
    valid_until: date | None = None
    on: date | None = None


def _spans(sentence: str, days: list[DayPhrase], tense: str, said_on: date) -> _Span:
    """Which resolved day is a start, which an end, which the day something happened."""
    valid_from = valid_until = on = None
    for phrase in days:
        if phrase.day is None:
            continue
        before = sentence[: phrase.start]
        if _UNTIL.search(before):
            through = re.search(r"\b(?:through|thru)\s*$", before, re.IGNORECASE)
            valid_until = phrase.day + timedelta(days=1) if through else phrase.day
        elif _FROM.search(before):
            valid_from = phrase.day
        elif tense != "past" and (phrase.start == 0 or _START_VERBS.search(sentence)):
            if phrase.day > said_on:
                valid_from = phrase.day
            on = on or phrase.day
        else:
            on = on or phrase.day
    if valid_until is None and _UNTIL_THEN.search(sentence):
        earlier = [p.day for p in days if p.day is not None]
        if earlier:
            valid_until = earlier[0]
    if _UNTIL_THEN.search(sentence) and on is not None and valid_from == on:
        valid_from = None
    return _Span(valid_from, valid_until, on)


def _dated_text(text: str, days: list[DayPhrase]) -> str:
    """An event's text with a relative day ("yesterday") written as the calendar day."""
    for phrase in days:
        if phrase.day is None or phrase.text not in text:
            continue
        written = f"{phrase.day.day} {phrase.day:%B %Y}"
        prefix = "" if re.match(r"(?i)on\s", phrase.text) else "on "
        text = text.replace(
            phrase.text, prefix + written if not phrase.text[0].isdigit() else written
        )
        text = text.replace("on on ", "on ")
    return text


def _drop_overlaps(facts: list[_Found]) -> list[_Found]:
    """Two patterns that read the same value into the same slot give one fact."""
    return _first_of_each(facts, lambda fact: (fact.kind, fact.slot, fact.value.casefold()))


def _dedupe(items: list[Extracted]) -> list[Extracted]:
    """Two sentences that state the same fact (slot and value) in the same words give one
    item; the names of one list stay apart."""
    return _first_of_each(
        items,
        lambda item: (item.kind, item.slot, (item.value or "").casefold(), item.text.casefold()),
    )


def _first_of_each(items: list[T], key: Callable[[T], Hashable]) -> list[T]:
    """The first item of each key, in order."""
    seen: set[Hashable] = set()
    kept = []
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            kept.append(item)
    return kept
