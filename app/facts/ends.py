"""Saying something no longer holds: the end of a job, a home, a manager or a partner, and a
habit, a tool or a duty given up, with what holds now kept beside the end ("No longer drinks
coffee"). `app.facts.reconcile` decides which known facts each end retires."""

from __future__ import annotations

import re
from collections.abc import Iterator

from app.facts.found import Found, clean
from app.facts.vocabulary import DIETS, END, NAME, ORG, PHRASE, PLACE, PRONOUNS, ROLE_NOUNS
from app.text.places import known_places
from app.text.tools import tools_in
from app.text.words import fold


def _a_known_place(value: str) -> bool:
    """Whether the value is a town, region or country (`app.text.places`): "Left Berlin after
    eleven years" ends a home, not a job."""
    return fold(value) in known_places()


_VALUES = ("v", "v2", "v3")
"""The groups an end's pattern names its value by, one for each way it is said."""


def ends(sentence: str) -> Iterator[Found]:
    """A job, a home, a partner, a manager, a colleague, a diet or a pet that no longer holds,
    with the slot it ends and, where the sentence names it, its value."""
    yield from _said_by_a_pattern(sentence)
    yield from _left_for_another(sentence)
    yield from _tools_given_up(sentence)
    for match in _RESIGNING.finditer(sentence):
        yield Found("end", "employer", "", "No longer works at their employer", match.start())
    yield from _not_any_more(sentence)


def _said_by_a_pattern(sentence: str) -> Iterator[Found]:
    """The ends of `_ENDS`, each pattern's slot (a job left in a known place is a home left:
    "Left Berlin after eleven years")."""
    for pattern, ended in _ENDS:
        if ended == "uses" and (_FOR_A_WHILE.search(sentence) or _LONG_AGO.search(sentence)):
            continue  # "back in 1998 I switched from Windows to Linux for like a week"
        for match in pattern.finditer(sentence):
            groups = match.groupdict()
            value = next((groups[name] for name in _VALUES if groups.get(name)), "").strip()
            said = value.split()[0].lower() if value else ""
            if value and value.lower() not in _NO_VALUE and said not in PRONOUNS:
                slot = "home" if ended == "employer" and _a_known_place(value) else ended
                yield Found("end", slot, value, _ENDED_TEXT[slot].format(value), match.start())


def _left_for_another(sentence: str) -> Iterator[Found]:
    """A home or a tool the user left for another (`_FROM_ONE_TO_ANOTHER`), not for a while ("I
    switched from Windows to Linux for like a week") nor long ago ("when I was a kid we moved
    from Ohio to Texas")."""
    if _FOR_A_WHILE.search(sentence) or _LONG_AGO.search(sentence):
        return
    for match in _FROM_ONE_TO_ANOTHER.finditer(sentence):
        value, slot = match.group("v"), "uses"
        if value is not None and _a_known_place(value):
            slot = "home"  # "we've swapped Sheffield for a village outside Harrogate"
        elif value is None:  # a place left: a home when it or the place moved to is a known one
            value, slot = match.group("place"), "home"
            if not any(_a_known_place(place or "") for place in match.group("place", "to")):
                continue
        yield Found("end", slot, value, _ENDED_TEXT[slot].format(value), match.start())


def _tools_given_up(sentence: str) -> Iterator[Found]:
    """A known tool given up (`_OFF_A_TOOL`), not for a while ("I deleted Instagram for a week")."""
    if _FOR_A_WHILE.search(sentence):
        return
    for match in _OFF_A_TOOL.finditer(sentence):
        value = next(value for value in match.group(*_VALUES) if value)
        if tools_in(value.lower()) == [(0, len(value))]:
            yield Found("end", "uses", value, _ENDED_TEXT["uses"].format(value), match.start())


def _not_any_more(sentence: str) -> Iterator[Found]:
    """Ends said with "anymore" or "no longer" (`_NOT_ANY_MORE`)."""
    for match in _NOT_ANY_MORE.finditer(sentence):
        value = match.group("v") or match.group("v2") or match.group("v3") or match.group("v4")
        value = value.strip()
        verbs = ("verb", "verb2", "verb3", "verb4")
        verb = next(match.group(name) for name in verbs if match.group(name))
        slot: str | None = _ENDED_BY_VERB[" ".join(verb.lower().split())]
        if verb.lower() == "with" and not _BROKE_UP.search(sentence):
            slot = None  # "I'm no longer with Acme" or "with Mark": whatever names them ends
        text = _ENDED_TEXT[slot].format(value) if slot else f"No longer with {value}"
        yield Found("end", slot, value, text, match.start())


_FROM_ONE_TO_ANOTHER = re.compile(
    r"(?:\b(?:I|[Ww]e)(?:['’]ve|\s+have)?\s+(?:(?i:just|finally|recently|now)\s+)?"
    r"(?:moved|(?P<tool>switched|migrated|swapped|ditched|moved\s+(?:our|my)\s+"
    r"(?:whole\s+)?[a-z]+))|\b(?:[Ss]ince|[Aa]fter)\s+moving)"
    r"\s+(?:(?:back|over|here|house)\s+)?"
    r"(?(tool)(?:from\s+)?(?:an?\s+|the\s+|my\s+)?(?P<v>[A-Z][\w+#-]*(?:\s+[A-Z0-9][\w+#-]*){0,2})\s+(?:to|for)\s+"
    rf"|from\s+(?:a\s+(?:flat|house|place|room)\s+in\s+)?(?P<place>{PLACE})"
    rf"(?:\s+to\s+(?:a\s+(?:flat|house|place|room)\s+in\s+)?(?P<to>{PLACE}))?"
    r"(?=\s*[,.;!?]|\s*$|\s+(?:last|this|in|a|two|three|\d+|for|and|so|but|after|years?)\b))"
    r"(?![^.!?]*\b(?:when\s+I\s+was|as\s+a\s+(?:kid|child|teen|baby)|aged\s+\d|at\s+the\s+age)\b)"
)
"""A home or a tool left for another: "we moved from Ohio last summer", "I've just moved from
Lewisham to Croydon", "after moving from Wrocław", "switched from an Android to an iPhone 15",
"we ditched Slack for Teams", "moved our whole backend from MongoDB to Postgres" ("from" is
needed for a move: "I moved to Leeds" ends nothing). A moved-from place is a home only when it
or the place moved to is a known place (`app.text.places`): "moved from Google to Meta" is a
job's, and a childhood move ("when I was five") ends no home now."""


_OFF_A_TOOL = re.compile(
    r"(?:\bI(?:['’]m|\s+am)\s+|^|[,;—–]\s*)(?:(?i:not|no\s+longer))\s+on\s+(?P<v>[\w+-]+)\s+any\s?more\b"
    r"|(?:\b(?:I|[Ww]e)(?:['’]ve|\s+have)?\s+|^|[,;—–]\s*)(?:(?i:gave|given)\s+up|(?i:quit|"
    r"deleted|cancell?ed|ditched|dropped))\s+(?:my\s+)?(?P<v2>[\w+-]+(?:\s+[A-Z][\w+-]*)?)"
    r"(?=\s*[,.;!?—–]|\s*$|\s+(?:for|in|last|this|a|and|but|so|because|after|ages)\b)"
    r"|^(?i:no\s+more)\s+(?P<v3>[\w+-]+)\s+for\s+me\b"
)
"""A tool given up, when it is a known one (`app.text.tools`): "not on facebook anymore", "I gave
up Facebook for good", "No more Spotify for me". ("I stopped using my fitbit" is `no_longer`'s;
"I quit Deloitte" a job's end, read above.)"""


_NOT_A_THING_LEFT = (
    r"(?!\s+(?:library|hospital|school|university|office|shop|store|clinic|museum|centre|"
    r"center|branch|site)\b)"
    r"(?!\s+(?:on(?!\s+(?:\d|the\s+\d|[A-Z]))|off|open|running|behind|out|outside|unlocked|"
    r"plugged|switched|at\s+home)\b)"
)
"""What follows a thing left somewhere, not a job left: "I left the Xbox on all night" (but "I
left Northwind on 1 August"), and the kind of place a name is only part of ("I no longer work
at the Hallbrook library")."""


_A_BOSS = r"(?:manager|boss|supervisor|line\s+manager|team\s+lead|lead)"
_A_SITE = r"(?:office|site|branch|depot|warehouse|store|plant|campus|hub)"


_A_PET = r"(?:old\s+|sweet\s+)?(?:dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|horse|pony)"
"""A pet the user had, as an end names it ("our old dog Max", "my cat luna")."""


_ENDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\bI(?:\s+have|['’]ve)?\s+(?:left|quit|resigned\s+from|am\s+leaving|'m\s+leaving|"
            r"’m\s+leaving|will\s+leave|am\s+resigning\s+from|'m\s+resigning\s+from|"
            r"no\s+longer\s+work\s+"
            r"(?:at|for)|don't\s+work\s+(?:at|for)\s+|stopped\s+working\s+(?:at|for)(?:\s+the)?)\s*"
            rf"(?:the\s+(?=[A-Z]))?(?P<v>(?>{ORG})){_NOT_A_THING_LEFT}"
        ),
        "employer",
    ),
    (  # "my last day at Hollis & Page was 30 January" (or "is Friday")
        re.compile(
            rf"\bmy\s+last\s+day\s+(?:at|with)\s+(?P<v>{ORG})\s+(?:was|is|will\s+be)\b",
            re.IGNORECASE,
        ),
        "employer",
    ),
    (  # "Friday was my last day at Deloitte"
        re.compile(rf"\bwas\s+my\s+last\s+day\s+(?:at|with)\s+(?:the\s+)?(?P<v>{ORG})"),
        "employer",
    ),
    (  # "left my job at the Co-op last month"
        re.compile(
            r"(?:\bI(?:['’]ve|\s+have)?\s+|^|,\s*)(?:(?i:just|finally)\s+)?(?i:left|quit)\s+my\s+"
            rf"(?i:job|role|position)\s+(?:at|with)\s+(?:the\s+)?(?P<v>{ORG})"
        ),
        "employer",
    ),
    (  # "switched from Android to an iPhone last week": Android no longer
        re.compile(
            r"(?:\b(?:I|[Ww]e)(?:['’]ve|\s+have)?\s+|^|,\s*)(?:(?i:just|finally|recently)\s+)?"
            rf"(?i:switched|migrated|swapped)\s+(?:over\s+)?from\s+(?P<v>{ORG})\s+(?:to|for)\s+"
        ),
        "uses",
    ),
    (  # "since retiring from the navy"
        re.compile(
            r"(?:\bI(?:['’]ve|\s+have|['’]m|\s+am)?\s+|^|\b(?:since|after)\s+)(?:retired|retiring)\s+from\s+"
            rf"(?:the\s+)?(?P<v>{ORG}|[a-z][\w&-]+)"
        ),
        "employer",
    ),
    (  # "left google in january"
        re.compile(
            rf"(?:^|[,—–]\s*)(?:(?:just|finally)\s+)?(?i:left)\s+(?:the\s+(?=[A-Z]))?(?P<v>(?>{ORG}|[a-z][\w&-]+))"
            rf"{_NOT_A_THING_LEFT}"
            r"(?=\s+(?:in|on|last|this|after|back|a|to|for)\b|\s*[,.;!]|\s*$)"
        ),
        "employer",
    ),
    (
        re.compile(rf"\bI\s+(?:no\s+longer|don't|do\s+not)\s+live\s+in\s+(?P<v>{PLACE})"),
        "home",
    ),
    (  # "a product manager at Flutterwave, previously at Andela" (not "She was previously at")
        re.compile(
            r"(?:[,;—–(]\s*|\bI\s+was\s+)(?i:previously|formerly)\s+(?:at|with)\s+(?:the\s+)?"
            rf"(?P<v>{ORG})"
        ),
        "employer",
    ),
    (  # "I was made redundant from Standard Bank in February"
        re.compile(rf"\bI\s+was\s+made\s+redundant\s+(?:from|by|at)\s+(?:the\s+)?(?P<v>{ORG})"),
        "employer",
    ),
    (  # "I report to Ana Lima instead of Rui", "she's replaced Tom as my manager"
        re.compile(
            rf"\breport(?:ing)?\s+to\s+{NAME}\s+(?:now\s+)?instead\s+of\s+(?P<v>{NAME})"
            rf"|\breplaced\s+(?P<v2>{NAME})\s+as\s+my\s+{_A_BOSS}\b"
            rf"|(?P<v3>{NAME})\s+(?:isn['’]t|is\s+not|is\s+no\s+longer)\s+my\s+{_A_BOSS}\b"
        ),
        "manager",
    ),
    (  # "I'm not at the Birmingham office anymore", "moved from the Berlin office to Munich"
        re.compile(
            r"(?:\bI(?:['’]m|\s+am)\s+|^|[,;—–]\s*)"
            rf"(?i:not|no\s+longer)\s+(?:at|in|based\s+(?:at|in))\s+(?:the|our)\s+(?P<v>{PLACE})"
            rf"\s+{_A_SITE}\b(?=[^.!?]*\bany\s?more\b|\s+(?:now|since)\b)"
            rf"|\b(?:I|[Ww]e)\s+(?:have\s+|['’]ve\s+)?moved\s+from\s+(?:the|our)\s+(?P<v2>{PLACE})\s+"
            rf"{_A_SITE}\s+to\b"
            rf"|\b[Oo]ur\s+office\s+(?:has\s+)?moved\s+from\s+(?P<v3>{PLACE})\s+to\b"
        ),
        "office",
    ),
    (  # "I'm not a student anymore"
        re.compile(
            rf"\bI(?:['’]m|\s+am)\s+not\s+an?\s+(?P<v>(?:[\w-]+\s+){{0,2}}(?:{ROLE_NOUNS}))"
            r"\s+any\s?more\b",
            re.IGNORECASE,
        ),
        "role",
    ),
    (  # "since my divorce from Daniel went through" ("my ex Kieran" ended long ago)
        re.compile(rf"\b(?:my|our)\s+divorce\s+from\s+(?P<v>{NAME})"),
        "partner",
    ),
    (  # "moved out of london in march", "we moved away from Leeds"
        re.compile(
            r"(?:\b(?:I|[Ww]e)(?:['’]ve|\s+have)?\s+|^|,\s*)(?:(?i:just|finally)\s+)?moved\s+"
            rf"(?:out\s+of|away\s+from)\s+(?P<v>{PLACE})"
        ),
        "home",
    ),
    (  # "im no longer the team lead"
        re.compile(
            r"\bI(?:['’]m|\s+am)\s+no\s+longer\s+(?:the|an?)\s+"
            r"(?!(?:only|newest|designated|youngest|oldest|main)\b)"
            rf"(?P<v>(?:[\w-]+\s+){{0,2}}(?:{ROLE_NOUNS}))\b(?!['’]s)(?!\s+of\b)"
            r"(?!\s+(?:tonight|today|this\b|on\s+the\s+team))",
            re.IGNORECASE,
        ),
        "role",
    ),
    (  # "we had to put our dog Max down", "our cat Luna died last week"
        re.compile(
            rf"\b(?:put|had\s+to\s+put)\s+(?:our|my)\s+{_A_PET}\s+(?P<v>[A-Z][a-z'’-]{{1,14}})\s+down\b"
            r"(?!\s+(?:for|as|on)\b)"
            rf"|\b[OoMm](?:ur|y)\s+{_A_PET}\s+(?P<v2>[A-Z][a-z'’-]{{1,14}})\s+(?:died(?!\s+(?:his|her|"
            r"its|of\s+(?:embarrassment|laughing|boredom)))|passed\s+away|passed(?=\s*[,.;!]|\s*$))",
        ),
        "pet",
    ),
    (  # "we don't have the chickens anymore"
        re.compile(
            r"\b(?:I|we)\s+(?:don['’]?t|do\s+not|no\s+longer)\s+have\s+(?:the|our|my)\s+"
            r"(?P<v>(?:dog|cat|chickens?|hens?|rabbits?|bunny|hamsters?|parrot|horse|goats?|"
            r"tortoise|guinea\s+pigs?|budgie|pony|ferret|snake|lizard)s?)\b"
            r"(?=[^,.;!?]*\bany\s?more\b)",
            re.IGNORECASE,
        ),
        "pet",
    ),
    (  # "I stopped doing keto", "gave up being vegan"
        re.compile(
            r"(?:\bI(?:['’]ve|\s+have)?\s+|^|,\s*)(?:stopped|quit|gave\s+up|given\s+up|dropped)\s+"
            rf"(?:doing\s+|being\s+|eating\s+|going\s+)?(?:a\s+)?(?P<v>{DIETS})(?![\w-])"
            r"(?!\s+(?:food|bread|meat|meals?|options?|snacks?|products?|cheese|recipes?|"
            r"restaurants?|milk|pasta)\b)"
            r"(?![^.!?]*\b(?:for\s+(?:a|one|two|three|\d+)\s+(?:day|week|month)s?|for\s+lent|"
            r"back\s+on|for\s+now)\b)",
            re.IGNORECASE,
        ),
        "diet",
    ),
    (  # "i used to love k-dramas but honestly im over them now"
        re.compile(
            r"\bI\s+used\s+to\s+(?:really\s+)?(?:love|like|enjoy|be\s+into)\s+"
            r"(?P<v>[^,.;!?]{1,40}?)(?=\s+(?:but|and|as\s+a\s+(?:kid|child|teen)|when|lol)\b|"
            r"\s*[,.;!—–]|\s*$)(?![^.!?]*\b(?:still|even\s+more|now\s+I\s+(?:love|like))\b)",
            re.IGNORECASE,
        ),
        "likes",
    ),
    (  # "not in the sales team anymore"
        re.compile(
            r"(?:\bI(?:['’]m|\s+am)\s+|^|,\s*)(?:not|no\s+longer)\s+(?:in|on|part\s+of)\s+the\s+"
            r"(?!(?:same|wrong|whole|other|new|old|best|worst|first|last|main|winning|losing|"
            r"home|away|mood|school|football|slack|a|b)\b)"
            r"(?P<v>[\w-]+(?:\s+[\w-]+){0,2}?)\s+team\b(?=[^.!?]*\bany\s?more\b|"
            r"[^.!?]*\bno\s+longer\b)",
            re.IGNORECASE,
        ),
        "team",
    ),
    (  # "Marco and I broke up", "I split up with Marco"
        re.compile(
            rf"(?:(?<![\w'’-])(?P<v>{NAME})\s+and\s+I|\b[Mm]e\s+and\s+"
            rf"(?!(?:Mum|Mom|Dad|Nan|Gran|Grandma|Grandpa|Mam)\b)(?P<v2>{NAME}))\s+"
            r"(?:just\s+|finally\s+|have\s+|['’]ve\s+)?"
            r"(?:broke\s+up|split\s+up|separated|(?:got\s+)?divorced)"
            r"(?:(?<!split\sup)(?<!separated)(?=\s+(?:so|and|but|because|bc)\b)"
            r"|(?=\s*(?:[,.;!?—–]|$)|\s+(?:last|in|after|recently|yesterday|this|a\s+\w+\s+ago|"
            r"\d|for\s+good)\b))"
            r"(?![^.!?]*\bback\s+together\b)(?!\s+to\s+\w)(?![,\s]+(?:she|he)\s+went)"
        ),
        "partner",
    ),
    (
        re.compile(
            r"\bI\s+(?:just\s+|finally\s+)?(?:broke\s+up|split\s+up)\s+with\s+"
            rf"(?P<v>{NAME})(?![^.!?]*\bback\s+together\b)"
        ),
        "partner",
    ),
    (  # "we stopped working with Acme"
        re.compile(
            r"\b(?:I|we)\s+(?:have\s+|'ve\s+|’ve\s+)?(?:stopped\s+working|no\s+longer\s+work)\s+"
            rf"with\s+(?P<v>(?-i:{ORG}))|\b(?:I['’]m|I\s+am|we['’]re|we\s+are)\s+not\s+working\s+"
            rf"with\s+(?P<v2>(?-i:{ORG}))\s+any\s?more\b",
            re.IGNORECASE,
        ),
        "works_with",
    ),
    (  # "no longer vegetarian", "I'm not vegan"
        re.compile(
            rf"(?:\bI(?:['’]m|\s+am)\s+|^|,\s*)(?:no\s+longer|not)\s+(?:a\s+)?(?P<v>{DIETS})"
            r"(?:\s+any\s?more|\s+after\s+all|\s+now|(?=\s*[,.;!—–-]|\s*$))",
            re.IGNORECASE,
        ),
        "diet",
    ),
    (  # "we lost our cat luna last week"
        re.compile(
            rf"\b(?:we|I)\s+(?:just\s+)?lost\s+(?:our|my)\s+{_A_PET}\s+(?P<v>[A-Za-z][a-z'’-]{{1,14}})\b",
            re.IGNORECASE,
        ),
        "pet",
    ),
)
"""Ends read by one pattern each, with the slot they end."""
_NO_VALUE = frozenset(
    {"the", "my", "our", "a", "an", "home", "work", "early", "late", "it", "them", "him", "her"}
)
"""What follows "left" when no job was left: "left work early", "left it there"."""
_RESIGNING = re.compile(
    r"\bI(?:'m|’m|\s+am|\s+will\s+be|'ll\s+be)?\s+(?:resigning|retiring|resign|retire|"
    r"quitting)\b(?!\s+from\s+[A-Z])"
)
"""Leaving a job that the sentence does not name: "I'm resigning at the end of the month"."""


_NOT_ANY_MORE = re.compile(
    rf"(?:\bI(?:['’]m|\s+am)?\s+|^|,\s*)(?:don['’]?t|do\s+not|no\s+longer|not)\s+"
    rf"(?P<verb>work\s+(?:at|for)|report\s+to|with|live\s+in)\s+(?P<v>{PHRASE})\s+any\s?more\b"
    rf"|(?:\bI(?:['’]m|\s+am)?\s+|^|,\s*)not\s+(?P<verb4>at)\s+"
    rf"(?P<v4>(?-i:{ORG}))(?<!\bHome)(?<!\bWork)\s+any\s?more\b"
    rf"|\bI\s+no\s+longer\s+(?P<verb2>report\s+to)\s+(?P<v2>{NAME})"
    rf"|(?:\bI(?:['’]m|\s+am)\s+|^)no\s+longer\s+(?P<verb3>at|with)\s+(?P<v3>(?-i:{ORG}))",
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


_A_DIET = re.compile(
    rf"(?:(?:doing|being|eating|going|following)\s+)?(?:a\s+)?(?P<d>{DIETS})", re.IGNORECASE
)


_ENDED_TEXT = {
    "home": "No longer lives in {}",
    "office": "No longer works in {}",
    "employer": "No longer works at {}",
    "manager": "No longer reports to {}",
    "partner": "No longer with {}",
    "works_with": "No longer works with {}",
    "diet": "Not {}",
    "pet": "No longer has {}",
    "likes": "No longer likes {}",
    "role": "No longer works as {}",
    "team": "No longer on the {} team",
    "uses": "No longer uses {}",
}


def no_longer(sentence: str) -> Iterator[Found]:
    """ "I don't drink coffee anymore", "I no longer use Slack", "I've quit smoking": the habit
    (or the tool: "use"; or the duty: "I no longer run the intern program") ends, with whatever
    else names it among the user's habits, tools, diets and likes (`reconcile`), and what holds
    now is kept after the end ("No longer drinks coffee", "Quit smoking"): without it, a user who
    never said they drank coffee would be known for nothing. Only a habit's verb keeps one ("I
    don't feel like it anymore" keeps nothing), and nothing given up for a while is kept ("I quit
    drinking for a month")."""
    if _FOR_A_WHILE.search(sentence):
        return
    for match in _NO_LONGER_ALONE.finditer(sentence):  # "i dont drive anymore"
        verb = (match.group("verb") or match.group("verb2")).lower()
        yield Found("end", "habit", verb, f"No longer: {verb}", match.start())
        yield Found("fact", "habit", verb, f"No longer {verb}s", match.start())
    for match in _NO_LONGER.finditer(sentence):
        verb = (match.group("verb") or match.group("verb2") or "").lower()
        if verb in ("work", "live", "report"):
            continue  # a job, a home, a manager: `ends` reads those, with their slot
        said = match.group("v") or match.group("v2") or match.group("v3")
        value = _TRAILING_TIME.sub("", _AFTER_THE_THING.split(clean(said))[0])
        if not value or value.split()[0].lower() in PRONOUNS | _PREPOSITIONS | _NOT_HABITS:
            continue
        if _A_JOB_OR_HOME.match(value):
            continue  # "stopped working at the Co-op": `ends` reads the job
        used = _USING.match(value)
        if used:  # "I stopped using Excel for my budget": a tool given up, no habit
            tool = used.group("tool")
            yield Found("end", "uses", tool, _ENDED_TEXT["uses"].format(tool), match.start())
            continue
        diet = _A_DIET.fullmatch(value)
        if diet:  # "I don't do keto anymore", "I no longer eat halal": a diet ends, no habit
            yield Found("end", "diet", diet.group("d"), f"Not {diet.group('d')}", match.start())
            continue
        duty = verb in _DUTY_VERBS and said.split()[0].lower() in ("the", "our", "my")
        slot = "responsibility" if duty else "uses" if verb == "use" else "habit"
        yield Found("end", slot, value, f"No longer: {value}", match.start())
        if duty or (verb and verb not in _HABIT_VERBS):
            continue  # a duty handed over, or a verb of no habit: the end alone
        if verb:
            given_up = f"No longer {_HABIT_VERBS[verb]} {value}"
        else:  # "Quit smoking", "Stopped running marathons", "Gave up smoking"
            quit = " ".join(match.group("quit").lower().replace("given", "gave").split())
            given_up = f"{quit[0].upper()}{quit[1:]} {value}"
        yield Found("fact", "habit", value, given_up, match.start())


_HEDGE = r"(?:(?:really|even|actually|much|usually|regularly|ever)\s+)?"


_QUIT_THINGS = (
    r"coffee|tea|alcohol|booze|sugar|caffeine|cigarettes|cigs|fags|vaping|weed|social\s+media|"
    r"energy\s+drinks|fizzy\s+drinks|soda|chocolate"
)
"""What is given up by its name, not a verb: "I've quit coffee for good", "gave up sugar"."""
_NO_LONGER = re.compile(
    rf"\bI(?:'ve|’ve|\s+have)?\s+(?:no\s+longer|don't|don’t|do\s+not)\s+{_HEDGE}"
    rf"(?P<verb>[a-z]+)\s+(?P<v>{PHRASE})\s+any\s?more\b"
    rf"|\bI\s+no\s+longer\s+{_HEDGE}(?P<verb2>[a-z]+)\s+(?P<v2>{PHRASE}){END}"
    rf"|(?<!\bwhen\s)(?<!\btime\s)(?<!\bif\s)(?<!\bwhenever\s)"
    rf"(?:\b(?:I|[Ww]e)(?:'ve|’ve|\s+have)?\s+|^|,\s*)(?P<quit>stopped|quit|given\s+up|gave\s+up)\s+"
    rf"(?P<v3>[a-z]+ing(?:\s+{PHRASE})?|(?:{_QUIT_THINGS})(?:\s+for\s+good)?){END}",
    re.IGNORECASE,
)


_USING = re.compile(r"using\s+(?:my\s+|our\s+|the\s+)?(?P<tool>.+)", re.IGNORECASE)


_A_JOB_OR_HOME = re.compile(
    r"(?:working\s+(?:at|for|as|with)|living\s+(?:in|at|with)|reporting\s+to)\b", re.IGNORECASE
)
_ALONE = r"drive|smoke|drink|vape|run|cycle|swim|cook|gamble"
"""Habits said by their verb alone, each made third person by an "s" ("No longer drives")."""
_NO_LONGER_ALONE = re.compile(
    rf"\bI(?:['’]ve|\s+have)?\s+(?:no\s+longer|don['’]?t|do\s+not)\s+{_HEDGE}(?P<verb>{_ALONE})"
    r"\s+any\s?more\b(?!\s+than\b)(?!\s+(?:tonight|today|this\s+\w+|on|at)\b)"
    rf"|\bI\s+no\s+longer\s+(?P<verb2>{_ALONE})(?=\s*[,.;!?]|\s*$)",
    re.IGNORECASE,
)
"""A habit given up said by its verb alone: "i dont drive anymore", "I don't drink anymore"."""


_AFTER_THE_THING = re.compile(
    r"\s+(?:and|but|so|because|when|after|before|since|for\s+good|in\s+(?:\d{4}|[A-Z]\w+))\b"
)
"""Where what was given up ends: "smoking for good in February and the cravings are the worst"
gave up "smoking"."""


_PREPOSITIONS = frozenset({"to", "with", "at", "for", "in", "on", "from", "about", "by"})


_TRAILING_TIME = re.compile(
    r"(?:\s+(?:for\s+good|any\s?more|now|at\s+all|btw|fwiw|tbh|lol|haha|though|either|"
    r"(?:last|this)\s+(?:year|month|week)|yesterday|today|in\s+\d{4}|since\s+\w+|"
    r"on\s+new\s+years?['’]?\s+(?:day|eve)|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"back|(?:back\s+)?in\s+(?:january|february|march|april|may|june|july|august|september|"
    r"october|november|december|spring|summer|autumn|fall|winter|lockdown)))+$",
    re.IGNORECASE,
)


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


_LONG_AGO = re.compile(
    r"\bwhen\s+I\s+was\s+(?:a\s+(?:kid|child|baby|teen(?:ager)?|student)|young|little|small|\d+)\b|"
    r"\bas\s+a\s+(?:kid|child|teen(?:ager)?|baby)\b|\bback\s+in\s+(?:the\s+)?(?:\d{4}|\d0s|day)\b|"
    r"\bgrowing\s+up\b",
    re.IGNORECASE,
)
"""A move or a switch said of long ago: it ends nothing now."""


_FOR_A_WHILE = re.compile(
    r"\bfor\s+(?:(?:like|about|only|just)\s+)?(?:a|an|one|two|three|four|five|\d+)\s+"
    r"(?:minute|hour|day|week|month)s?\b|\bfor\s+now\b|"
    r"\btemporarily\b|\bthis\s+(?:week|month)\b|\bfor\s+lent\b|\buntil\b|"
    r"\bfor\s+the\s+(?:weekend|week|day|night|summer|holidays?)\b",
    re.IGNORECASE,
)
