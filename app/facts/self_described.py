"""Short ways chat says who one is: an age or a role said first ("41 yo dad of twins, …",
"paralegal at a small firm — …"), a condition by its adjective ("dyslexic btw"), a stack, dual
citizenship, a role said with "as … I", a manager named after the fact ("marcus is my boss"),
the kind of person one is ("a morning person")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from app.facts.clauses import clauses
from app.facts.found import Found
from app.facts.people import NOT_NAMES
from app.facts.vocabulary import (
    CODE,
    DIETS,
    HEALTH,
    NAME,
    NATIONALITIES,
    OCCUPATIONS,
    ORG,
    PLACE,
    ROLE_NOUNS,
    listed_values,
)
from app.text.places import known_places
from app.text.words import fold


def said_first(sentence: str) -> Iterator[Found]:
    """What chat says first and without a subject, before the rest: "41 yo dad of twins, tired
    24/7", "as a 62 year old retiree, is it dumb to buy an EV", "paralegal at a small firm —
    whats the fastest way…", "backend dev, mostly go and postgres". Only the opening clause, and
    only when it says nothing of anyone else ("manager at the store was rude" is not read)."""
    said = clauses(sentence) or [sentence]
    first = said[0]
    introduced = _after_the_introduction(said)
    if _SOMEONE_DOES.search(first):
        if introduced is None:
            return
        first = introduced  # "I'm Mei, 29, pharmacy tech on nights": the role after the name
    age = _AGE_FIRST.match(first)
    if age:
        yield Found("fact", "age", age.group("v"), f"Is {age.group('v')} years old", 0)
    role = _ROLE_FIRST.match(first) or (
        _ROLE_INTRODUCED.match(introduced)
        if introduced is not None and not _SOMEONE_DOES.search(introduced)
        else None
    )
    if role and not _NOT_YET_OR_NO_MORE.match(role.group("v")):
        yield Found("fact", "role", role.group("v"), f"Works as {role.group('v')}", 0)
        if role.group("org"):  # "backend dev at Shopify here"
            org = role.group("org")
            yield Found("fact", "employer", org, f"Works at {org}", role.start("org"))
    aged = _NAMED_AND_AGED.match(sentence)
    if aged:
        yield Found("fact", "age", aged.group("v"), f"Is {aged.group('v')} years old", 0)
    diet = _DIET_FIRST.match(first)
    if diet:
        value = diet.group("v") or diet.group("w")
        yield Found("fact", "diet", value, f"Is {value}", 0)


_SOMEONE_DOES = re.compile(
    r"\b(?:is|was|are|were|has|had|says|said|does|did|told|asked|wants|my|our|his|her|their)\b",
    re.IGNORECASE,
)


_DIET_TAIL = (
    r"these\s+days|now|nowadays|lately|since\s+\S+|for\s+\S+\s+(?:years|yrs|months)|btw|fyi|"
    r"here|myself|tho|though"
)
_DIET_FIRST = re.compile(
    r"^(?:(?:so|ok|hey|hi|btw|fyi|also)\W+)?"
    rf"(?:(?:strictly|fully|mostly|full[- ]on)\s+(?P<v>{DIETS})(?:\s*,?\s+(?:{_DIET_TAIL}))*|"
    rf"(?P<w>{DIETS})(?:\s*,?\s+(?:{_DIET_TAIL}))+)\s*[.!]?\s*$",
    re.IGNORECASE,
)
"""A diet said first, with what makes it one's own: "keto these days, how many carbs…",
"vegetarian, fyi", "strictly halal". A diet alone ("keto", "ok vegan") picks an option the
assistant offered."""


_AGE_FIRST = re.compile(
    r"^(?:(?:so|ok|hey|hi)\W+)?(?:as\s+an?\s+)?(?P<v>[1-9]\d)\s*(?:yo|y/o|yrs?\s+old|years?\s+old|"
    r"[- ]year[- ]old)\b",
    re.IGNORECASE,
)


_ROLE = rf"(?:[\w-]+\s+){{0,2}}?(?:{ROLE_NOUNS})(?:\s+of\s+[\w-]+(?:\s+[\w-]+)?)?"
"""A role as chat says it: "paralegal", "backend dev", "head of procurement"."""


_FIRST_NAME = r"[A-Z][a-zà-ÿ-]+"
"""A name as a word of letters (no apostrophe: "It's" is none)."""


_ROLE_FIRST = re.compile(
    rf"^(?:(?:so|ok|hey|hi)\W+)?(?:as\s+)?(?:an?\s+)?(?!dear\b)(?P<v>{_ROLE})"
    rf"(?:\s+(?:at|for|with)\s+(?P<org>(?-i:{ORG}))(?:\s+here)?\s*$|"
    r"(?:\s+(?:at|for|with|in)\s+[^,;]{1,40})?\s*[.!]?\s*$)",
    re.IGNORECASE,
)
_ROLE_INTRODUCED = re.compile(
    rf"^(?:(?:work(?:ing)?\s+)?as\s+)?(?:an?\s+)?(?P<v>{_ROLE})"
    rf"(?:\s+(?:at|for|with)\s+(?P<org>(?-i:{ORG}))\s*[.!]?\s*$|"
    r"(?:\s+(?:at|for|with|in|on)\s+[^,;]{1,40}|\s+aged\s+[1-9]\d)?\s*[.!]?\s*$)",
    re.IGNORECASE,
)
"""A role after one's introduction says more ways than one said first: "working as a carer in
a nursing home", "pharmacy tech on nights", "a retired midwife aged 71"."""
_NOT_YET_OR_NO_MORE = re.compile(
    r"(?:future|aspiring|wannabe|would-be|former|ex|unemployed|redundant|trainee|student)\b",
    re.IGNORECASE,
)
"""A role one hopes for or had is not the one one has ("I'm 22, aspiring nurse", "former
chef")."""


def _after_the_introduction(said: list[str]) -> str | None:
    """The clause after an introduction's name, age or nationality ("I'm Mei, 29, pharmacy
    tech on nights", "I am Mrs. Okafor, a retired midwife aged 71", "i'm 19, apprentice
    mechanic at Kwik Fit"), when the sentence opens with one."""
    if not _I_INTRODUCE.match(said[0]):
        return None  # "Meet Sarah, 29, nurse on nights", "Q: Emma, 30, …": someone else
    at = 0
    while at < len(said) - 1 and _INTRODUCTION.fullmatch(said[at].strip()):
        at += 1
    return said[at] if at > 0 else None


_I_INTRODUCE = re.compile(r"^(?:(?:hi|hey|hello|hiya)\W+)?I(?:['’]m|\s+am)\s", re.IGNORECASE)


_INTRODUCTION = re.compile(
    r"(?:(?:hi|hey|hello|hiya)\W+)?(?:I(?:['’]m|\s+am)\s+)?(?:(?:Mrs?|Ms|Miss|Dr)\.?\s+)?"
    rf"(?:(?-i:[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)|[1-9]\d(?:\s*(?:yo|y/o|yrs?\s+old|years?\s+old))?|"
    rf"{NATIONALITIES})\.?",
    re.IGNORECASE,
)
"""One item of an introduction: a name, an age or a nationality, with or without "I'm"."""
_NAMED_AND_AGED = re.compile(
    rf"^(?:(?i:hi|hey|hello|hiya)\W+)?I['’]m\s+{_FIRST_NAME}\s*,\s*(?P<v>[1-9]\d)\s*"
    r"(?:,|$|yo\b|y/o\b)"
)
"""An age said with one's name: "i'm Mei, 29, pharmacy tech on nights", "Hi, I'm Mehmet, 44,
type 2 diabetic"."""


def age_in_an_introduction(sentence: str) -> Iterator[Found]:
    """An age said as one item of the list that introduces the user ("I'm a roofer, 52, knees are
    shot", "me: turkish, 31, at bosch in stuttgart", "korean, 26, living in leiden", "electrician,
    23, just qualified", "Ayesha (34) — just relocated", "20, nursing student"): a number on its
    own between commas or in brackets, opening the message or after an opening that says who the
    user is ("I'm", "me:", "name's", a name, a
    nationality or an occupation) and names no one else ("my son, 14, …", "Meet Sarah, 29")."""
    age = _LISTED_AGE.search(sentence, 0, _AN_INTRODUCTION_LONG)
    if age is None:
        return
    opening = sentence[: age.start()]
    if any(character.isdigit() for character in opening):
        return  # "I'm stuck on question 7, 20 and 33": numbers of something else
    if _SOMEONE_ELSES.search(opening) or not _introduces_the_user(opening):
        return  # an age may open the message too: "20, nursing student", "27 and finally …"
    if _opens_the_message(opening) and _opens_with_a_topic(sentence[age.end("v") :]):
        return
    yield Found("fact", "age", age.group("v"), f"Is {age.group('v')} years old", age.start("v"))


_AN_INTRODUCTION_LONG = 120
"""Characters of a sentence's opening an introduction's age is looked for in."""
_LISTED_AGE = re.compile(
    r"(?:^\W*|[,:(]\s*)(?P<v>1[6-9]|[2-9]\d)\s*(?:yo|y/o|yrs?|years?(?:\s+old)?)?"
    r"(?=\s*[,)]|\s+and\b|\s*[.!]?\s*$|\s*[.!?]\s|\s+[—–-]\s)(?!\s*[,)]?\s*(?:and\s+)?\d)",
    re.IGNORECASE,
)
_INTRODUCES_THE_USER = re.compile(
    r"^\W*(?:(?:hi|hey|hello|hiya|ok|so)\W+)?(?:I['’]m\b|im\b|I\s+am\b|me\s*$|(?:my\s+)?name['’]s\b|"
    r"my\s+name\s+is\b|(?:this\s+is\s+)?(?-i:[A-Z])[\w'’-]+\s*(?:here\b|$|[(,—–])|"
    rf"(?:me\s*:\s*)?(?:(?:{NATIONALITIES})|(?:[\w-]+\s+){{0,2}}(?:{OCCUPATIONS})(?:e?s)?)"
    r"\s*(?:here\s*)?$)",
    re.IGNORECASE,
)
"""An opening that says who the user is: "I'm …", "me: …", "name's …", a name alone, or a
nationality or an occupation as the list's first item ("korean, 26", "electrician, 23")."""
_SOMEONE_ELSES = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?!name\b)\w+|\b(?:meet|he|she|they)\b(?!/)"
    r"|\b(?:for|with|to|and|buying|cooking)\s+(?-i:[A-Z])[a-z]+",
    re.IGNORECASE,
)
"""Someone else named in the opening ("my son, 14, …", "Meet Sarah, 29", "I'm buying a gift for
Tom, 30"); not the user's own pronouns ("Lars (he/him), Danish, 30")."""
_NOT_AN_INTRODUCTION_NEXT = re.compile(
    r"\s*[,.)]?\s*(?:that['’]?s|thats|that|is|was|were|she|he|they|it|its|it['’]s|or|vs|"
    r"and\s+(?:still|counting|no|nothing|not)|minutes|mins|hours|quid|pounds|euros|dollars|"
    r"options|do|does|did|can|could|should|would|will|how|what|which|why|worth|good|healthy|"
    r"(?:vegan|vegetarian|pescatarian|halal|kosher|keto)\b)\b",
    re.IGNORECASE,
)
"""What follows an item that opens a message when the item is a topic, a count or a choice, not
something said of the user ("22, that's how many push ups", "keto, is it good for you?",
"vegan, vegetarian or pescatarian — which", "60 and still no reply")."""
_SOMEONE_ELSES_AFTER = re.compile(
    r"^[^.!?]{0,40}?\b(?:my|our|his|her|their)\s+(?:nan|gran|grandma|grandad|mum|mom|dad|son|"
    r"daughter|kid|kids|child|wife|husband|partner|friend|brother|sister|boss)\b|"
    r"^[^.!?]{0,20}?\b(?:she|he|they)['’]?s?\b|^[^.!?]{0,30}?\b(?:a\s+friend|not\s+mine|"
    r"asking\s+for)\b",
    re.IGNORECASE,
)
"""Someone else named just after an item that opens a message ("90, she's 90 this year, my
nan", "Cat allergy, a friend has one")."""


def name_said_as_here(sentence: str) -> Iterator[Found]:
    """The user's name opening a message with "here" or "again" ("Wiremu here. Kiwi, 45, …",
    "Ayşe here, Turkish, living in Leiden", "Tomasz again."); not a day, a month, a place or
    an occupation or a word that names no one ("Sunday here, so…", "Leeds here", "Nurse here",
    "Same here")."""
    match = _NAME_HERE.match(sentence)
    if match is None:
        return
    name = match.group("v") or match.group("v2")
    if fold(name) in known_places() or name.casefold() in _NOT_NAMED_HERE:
        return
    if _AN_OCCUPATION.fullmatch(name):
        return  # "Nurse here, nights on the cardiac ward"
    yield Found(
        "fact", "name", name, f"Name is {name}", match.start("v" if match.group("v") else "v2")
    )


_NAME_HERE = re.compile(
    rf"^\W*(?:(?i:hi|hey|hello|hiya)\W+)?(?:(?i:it['’]s)\s+)?(?P<v>{_FIRST_NAME}(?:\s+{_FIRST_NAME})?)"
    r"\s+(?i:here|again)\s*(?:[,.!;:—–-]|$)"
    rf"|^\W*(?:(?i:hi|hey|hello|hiya)\W+)?(?i:this\s+is|it['’]s)\s+(?P<v2>{_FIRST_NAME})"
    rf"\s*(?:[.!]\s*$|[,—–:]\s*(?=(?:(?i:{NATIONALITIES})|\d{{2}}\b|(?i:I['’]m|I\s+am|im)\b)))"
)
"""A name and "here" or "again" ("Wiremu here.", "it's Oskar again"), or "this is" or "it's" and
a name alone, as a sentence of its own ("It's Eitan."), or before an introduction's next item, a
nationality, an age or "I'm" ("This is Ana — Romanian, a pharmacist"); not "This is Spotify —
how do I cancel", "It's Ikea, they never have anything", "This is Jake, my flatmate"."""
_AN_OCCUPATION = re.compile(rf"(?:{OCCUPATIONS})(?:e?s)?", re.IGNORECASE)
_NOT_NAMED_HERE = frozenset(
    "same me everyone nobody someone anyone newbie noob new user guest mum mom dad admin "
    "monday tuesday wednesday thursday friday saturday sunday morning evening night "
    "january february march april may june july august september october november december "
    "question update follow quick christmas easter halloween ramadan diwali eid hanukkah "
    "today tomorrow tonight yesterday time done fine true mr mrs ms miss dr prof".split()
)


def nationality_in_an_introduction(sentence: str) -> Iterator[Found]:
    """A nationality said as one item of the list that introduces the user ("heyy name's
    Lukas, 27, austrian", "me: turkish, 31, at bosch", "Callum, Scottish, software engineer",
    "polish but living in dublin") or before their occupation ("I'm a Filipino nurse working in
    Riyadh", "Croatian welder, 15 years in shipyards"), after an opening that says who the user
    is and names no one else (as `age_in_an_introduction`)."""
    for listed in _LISTED_NATIONALITY.finditer(sentence, 0, _AN_INTRODUCTION_LONG):
        opening = sentence[: listed.start("v")]
        if _SOMEONE_ELSES.search(opening):
            return
        if not _introduces_the_user(opening):
            continue
        if _opens_the_message(opening) and _A_TOWN_AFTER.match(sentence, listed.end("v")):
            continue  # "Chinese in Leeds — where's good for dim sum?": a cuisine
        value = listed.group("v")
        yield Found("fact", "nationality", value, f"Is {value}", listed.start("v"))
        return


def diet_in_an_introduction(sentence: str) -> Iterator[Found]:
    """A diet said as one item of the list that introduces the user ("I'm 34, vegetarian, and
    I've just started lifting", "I'm Zainab, accountant at Holm & Fry, vegetarian, and …",
    "teetotal, so skip the wine pairings"), after an opening that says who the user is and
    names no one else (as `age_in_an_introduction`)."""
    if len(sentence.split()) < 2:
        return  # "keto": a topic to ask about, not something said of oneself
    for listed in _LISTED_DIET.finditer(sentence, 0, _AN_INTRODUCTION_LONG):
        opening = sentence[: listed.start("v")]
        if _SOMEONE_ELSES.search(opening):
            return
        if not _introduces_the_user(opening):
            continue
        if _opens_the_message(opening) and _opens_with_a_topic(sentence[listed.end("v") :]):
            return
        value = listed.group("v")
        yield Found("fact", "diet", value, f"Is {value}", listed.start("v"))
        return


_A_TOWN_AFTER = re.compile(r"\s+in\s+[A-Z]")


def _opens_the_message(opening: str) -> bool:
    """Whether nothing but punctuation comes before an introduction's item: it opens the
    message ("20, nursing student", "teetotal, so …")."""
    return not opening.strip(" ,:(")


def _introduces_the_user(opening: str) -> bool:
    """Whether the words before an introduction's item say who the user is, or there are none."""
    return _opens_the_message(opening) or bool(_INTRODUCES_THE_USER.match(opening))


def _opens_with_a_topic(after: str) -> bool:
    """Whether what follows an item opening the message makes it a topic, a count, a choice or
    someone else's (see `_NOT_AN_INTRODUCTION_NEXT`, `_SOMEONE_ELSES_AFTER`)."""
    return bool(_NOT_AN_INTRODUCTION_NEXT.match(after) or _SOMEONE_ELSES_AFTER.match(after))


MORE_DIETS = r"low[- ]carb|low[- ]fodmap|paleo|sugar[- ]free|teetotal|alcohol[- ]free"
"""Diets the patterns read after "gone" or in an introduction's list, besides `DIETS`."""
_LISTED_DIET = re.compile(
    r"(?:^\W*|[,:(—–]\s*(?:and\s+)?|\band\s+)(?:(?:strictly|strict|fully|mostly)\s+)?"
    rf"(?P<v>{DIETS}|{MORE_DIETS})"
    r"(?=\s*[,;)—–.!?]|\s*$|\s+(?:and|but|so|btw|too|now|here|myself)\b)",
    re.IGNORECASE,
)


_LISTED_NATIONALITY = re.compile(
    r"(?:^\W*|[,:(—–]\s*|\b(?:I['’]m|I\s+am|im)\s+(?:an?\s+)?|\b(?:hi|hey|hello)\W+(?:an?\s+)?)"
    rf"(?P<v>(?:{NATIONALITIES})(?:-(?:{NATIONALITIES}))?)"
    r"(?=\s*[,;)—–]|\s*[.!]?\s*$|\s+-\s|\s+here\b(?!\s+(?:is|are|was|isn|isn't)\b)|"
    r"\s+(?:but|and\s+(?:I|live|living|work)|btw|living|"
    r"based|born|working|guy|girl|woman|man|lady|bloke|national|expat|myself)\b"
    r"|\s+in\s+(?-i:[A-Z])"
    rf"|\s+(?:[\w-]+\s+){{0,2}}(?:{OCCUPATIONS})(?:e?s)?\b)",
    re.IGNORECASE,
)
"""A nationality as a list's item: between commas, opening the sentence, after "I'm", or
before an occupation."""


def moved_or_started_without_a_subject(sentence: str) -> Iterator[Found]:
    """A move between two known places ("i moved from Leeds to Bristol"), and a move or a new
    job said without "I": "moved back to detroit to be near family", "dont
    live in chicago anymore, moved back to detroit", "started at Northwind Traders last week".
    Only where no one else is the sentence's subject ("my parents retired, moved to florida",
    "my son is 5, started at Lincoln Elementary"), and a move only to a known place ("moved to
    Notion for my notes", "meeting got cancelled, moved to Friday" name none)."""
    places = known_places()
    for match in _MOVED_TO.finditer(sentence):
        place = match.group("v")
        if fold(place) in places and not _someone_else_before(sentence, match):
            yield Found("fact", "home", place, f"Lives in {place}", match.start())
    for match in _MOVED_FROM_TO.finditer(sentence):
        left, moved_to = match.group("left") or match.group("left2"), match.group("v")
        if _someone_else_before(sentence, match) or _MOVED_ON.search(sentence, match.end()):
            continue
        if fold(left) in places and fold(moved_to) in places:
            yield Found("fact", "home", moved_to, f"Lives in {moved_to}", match.start())
            yield Found("end", "home", left, f"No longer lives in {left}", match.start())
    for match in _STARTED_AT.finditer(sentence):
        if not _someone_else_before(sentence, match):
            org = match.group("v")
            yield Found("fact", "employer", org, f"Works at {org}", match.start())


def _someone_else_before(sentence: str, match: re.Match[str]) -> bool:
    return _SOMEONE_ELSE_FIRST.search(sentence, 0, match.start()) is not None


_SOMEONE_ELSE_FIRST = re.compile(
    r"\b(?:she|he|they|his|her|their|my\s+(?!own\b)[a-z]+|our\s+[a-z]+|(?-i:[A-Z][a-z]+)\s+"
    r"(?:has|had|is|was|just|quit|retired|left))\b",
    re.IGNORECASE,
)
"""Someone else as the sentence's subject: "she quit her job, moved to Lisbon"."""
_MOVED_TO = re.compile(
    r"(?:^|,\s*)(?:(?:and|so|but|then|just|recently|finally)\s+)*(?:moved|relocated)\s+"
    rf"(?:back\s+)?to\s+(?P<v>{PLACE})(?!\s+(?:team|office))"
)
_MOVED_FROM_TO = re.compile(
    r"(?:\b(?:I|[Ww]e)(?:['’]ve|\s+have)?\s+|^|,\s*)(?:(?i:just|recently|finally)\s+)?"
    rf"(?:(?:moved|relocated)\s+(?:house\s+)?(?:over\s+)?from\s+(?P<left>{PLACE})\s+(?:over\s+)?to"
    rf"|(?:left|swapped)\s+(?P<left2>{PLACE})\s+for(?:\s+a\s+\w+\s+(?:in|near|outside))?)"
    rf"\s+(?P<v>{PLACE})"
)
"""A move between two known places ("i moved from Leeds to Bristol", "we left London for
Margate"): the first no longer home, the second home; a move between tools ("moved over from
Jira to Linear") is neither."""
_MOVED_ON = re.compile(
    r"\b(?:then|back|again|and\s+(?:then\s+)?(?:to|from)|live\s+in|living\s+in|when\s+I\s+was|"
    r"as\s+a\s+(?:kid|child|teen))\b",
    re.IGNORECASE,
)
"""A move that is not the last: "…and then to Berlin", "…when I was 5 and now live in Glasgow"."""
_STARTED_AT = re.compile(
    rf"(?:^|[.,]\s*)(?:(?:just|recently)\s+)?started\s+(?:a\s+new\s+job\s+)?at\s+(?P<v>{ORG})"
)


def living_there_as(sentence: str) -> Iterator[Found]:
    """Where one lives, said with who one is: "As a Portuguese citizen living in Rotterdam, …",
    "german national living in the netherlands", "I'm an American living in the UK" (and the
    nationality it names); not "I'm not living in London anymore", "a friend living in London
    told me", "as a tourist living in Rome this month"."""
    for match in _LIVING_THERE_AS.finditer(sentence):
        described = match.group("who")
        if _NOT_ONESELF.search(described) or _FOR_A_SPELL.match(sentence, match.end()):
            continue
        place = match.group("v")
        yield Found("fact", "home", place, f"Lives in {place}", match.start("v"))
        nationality = re.search(NATIONALITIES, described)
        if nationality:
            value = nationality.group()
            yield Found("fact", "nationality", value, f"Is {value}", match.start())


_LIVING_THERE_AS = re.compile(
    r"(?:^(?:[Aa]s\s+)?(?:an?\s+)?|\bI['’]m\s+an?\s+)(?P<who>(?:[\w-]+\s+){1,3}?)living\s+in\s+"
    rf"(?:the\s+)?(?P<v>{PLACE})"
)
_NOT_ONESELF = re.compile(
    r"\b(?:not|no|never|longer|friend|colleague|guy|woman|man|someone|person|tourist|visitor|"
    r"student\s+exchange|my|his|her|their)\b",
    re.IGNORECASE,
)
_FOR_A_SPELL = re.compile(
    r"\s+(?:this|for\s+(?:a|the|now)|until|till|temporarily|right\s+now)\b", re.IGNORECASE
)


def said_of_oneself(sentence: str) -> Iterator[Found]:
    """Short ways chat says who one is: a condition by its adjective ("dyslexic btw", "I'm
    asthmatic", "gluten free bc celiac"), a stack ("our stack is django + react"), dual
    citizenship ("dual citizen — italian and canadian"), a role said with "as" ("as head of
    procurement I sign off …", "being a pharmacist in flu season"), the language or tool one
    works in ("i write rust for a living", "mostly terraform all day"), a manager named after
    the fact ("marcus is my boss")."""
    for match in _HEALTH_SAID.finditer(sentence):
        value = match.group("v")
        yield Found("fact", "health", value, f"Is {value}", match.start())
    for match in _STACK.finditer(sentence):
        for tool in re.split(r"\s*(?:\+|\band\b|&|/)\s*", match.group("v").rstrip(".")):
            if tool:
                yield Found("fact", "uses", tool, f"Uses {tool}", match.start())
    if _DUAL_CITIZEN.search(sentence):
        for nationality in listed_values("nationality", sentence):
            yield Found("fact", "nationality", nationality, f"Is {nationality}", 0)
    for match in _AS_ROLE_I.finditer(sentence):
        yield Found("fact", "role", match.group("v"), f"Works as {match.group('v')}", match.start())
    for match in _BEING_A_ROLE.finditer(sentence):
        yield Found("fact", "role", match.group("v"), f"Works as {match.group('v')}", match.start())
    for match in _WORKS_IN_CODE.finditer(sentence):
        tools = ("v", "w", "v2", "w2", "v3")
        for tool in (match.group(name) for name in tools):
            if tool:
                yield Found("fact", "uses", tool, f"Uses {tool}", match.start())
    for match in _FULL_NAME_BESIDE.finditer(sentence):
        name = match.group("v") or match.group("v2") or match.group("v3") or match.group("v4")
        if match.group("v") and len(name) < len(match.group("short")) + 3:
            continue
        if name.lower() not in NOT_NAMES:
            yield Found("fact", "name", name, f"Name is {name}", match.start())
    for match in _EVERYONE_CALLS_ME.finditer(sentence):
        short = match.group("v")
        if short.lower() not in NOT_NAMES and short.lower() not in NOT_CALLED:
            yield Found("fact", "preferred_name", short, f"Prefers to be called {short}", 0)
    for match in _IS_MY_MANAGER.finditer(sentence):
        name = match.group("v") or match.group("lower")
        if name.lower() not in _NOT_MANAGERS:
            yield Found("fact", "manager", name, f"Reports to {name}", match.start())


_HEALTH_SAID = re.compile(
    rf"(?:\bI['’]m\s+(?:also\s+)?|^|,\s*|\b(?:bc|because|cause|cos)\s+(?:I['’]m\s+)?)"
    rf"(?:a\s+)?(?P<v>{HEALTH})(?=\s*(?:[,.;!?—–-]|$)|\s+(?:here|btw|fyi|tbh|since|so|and|too)\b)",
    re.IGNORECASE,
)


_STACK = re.compile(
    r"\b(?:our|my)\s+(?:tech\s+)?stack\s+is\s+(?:mostly\s+|basically\s+)?"
    r"(?P<v>[\w.#-]+(?:\s*(?:\+|\band\b|&|/)\s*[\w.#-]+){0,5})",
    re.IGNORECASE,
)


_DUAL_CITIZEN = re.compile(r"\bdual\s+(?:citizen(?:ship)?|national(?:ity)?)\b", re.IGNORECASE)


_AS_ROLE_I = re.compile(
    rf"(?:^|,\s*)[Aa]s\s+(?:an?\s+|the\s+)?(?P<v>{_ROLE})\s*,?\s+I\b",
    re.IGNORECASE,
)


_BEING_A_ROLE = re.compile(
    r"(?:^|[,;—–]\s*)(?:(?:honestly|so|and|but|tbh)\s+)?being\s+(?:an?\s+|the\s+only\s+)"
    rf"(?!(?:good|bad|great|terrible|better|decent|cat|dog|pet|home|house|car)\s)"
    rf"(?P<v>{_ROLE})(?![\w'’-])(?!\s+(?:is\s+like|would|must|worth))",
    re.IGNORECASE,
)
"""A role said with "being" as a clause's subject: "being a pharmacist in flu season is no joke"
(not "imagine being a pilot", "my sister hates being a nurse", "is being a pilot worth it",
"being a doctor's wife", "being a cat owner")."""


_WORK_TAIL = (
    r"for\s+a\s+living|these\s+days|all\s+day|now|lately|nowadays|at\s+work|every\s+day|daily"
)
_WORKS_IN_CODE = re.compile(
    r"\bI\s+(?:write|code|program)\s+(?:(?:basically|mostly|mainly|almost)\s+)?"
    r"(?:(?:everything|all|only)\s+)?(?:in\s+)?"
    rf"(?P<v>{CODE})(?![\w+#]|[.-]\w)(?:\s*(?:,|and|&|\+)\s*(?P<w>{CODE})(?![\w+#]|[.-]\w))?"
    rf"(?=\s+(?:{_WORK_TAIL})\b|\s*[,.;!—–-]|\s*$)"
    r"|(?:^|[,;—–]\s*|\bit['’]s\s+)mostly\s+"
    rf"(?:(?P<v2>{CODE})\s*(?:and|&|\+|,)\s*(?P<w2>{CODE})(?![\w+#]|[.-]\w)"
    rf"|(?P<v3>{CODE})(?=\s+(?:{_WORK_TAIL})\b))",
    re.IGNORECASE,
)
"""A language or tool one works in: "i write rust for a living", "i write basically everything
in python"; "mostly X" first in a clause, with a second tool or a time of work ("mostly go and
postgres", "it's mostly terraform all day"), since "mostly julia" may answer who cooks and "the
old truck is mostly rust now" is no tool."""


NOT_CALLED = frozenset(
    "mum mom mummy mommy dad daddy nan nana gran granny grandma grandad grandpa sir madam boss "
    "doctor uber taxi monday tuesday wednesday thursday friday saturday sunday".split()
)
"""Words "call me" is followed by that are no name one goes by ("my friends call me Mum because
I'm the organised one", "can u call me Uber", "call me Monday morning")."""
_EVERYONE = (
    r"[Ee]veryone|[Ee]verybody|[Pp]eople|[Mm]ost\s+people|(?:[Aa]ll\s+)?[Mm]y\s+friends|"
    r"[Ff]riends|[Ff]olks|[Ee]veryone\s+here|[Ee]veryone\s+at\s+work"
)
_FULL_NAME_BESIDE = re.compile(
    rf"\b[Cc]all\s+me\s+(?P<short>{_FIRST_NAME})\s*[,—–-]?\s*not\s+(?P<v>{_FIRST_NAME})\b|"
    rf"\b[Nn]obody\s+(?:uses|calls\s+me|says)\s+(?P<v2>{_FIRST_NAME})\s+"
    r"(?:except|but|apart\s+from|other\s+than|besides)\b|"
    rf"\b(?:[Ii]t['’]?s|[Ii]t\s+is)\s+(?P<v3>{_FIRST_NAME}(?:\s+{_FIRST_NAME})?)\s+on\s+my\s+"
    r"(?:passport|birth\s+certificate|id|licen[cs]e)\b|"
    rf"\b(?:[Ii]t['’]?s|[Tt]his\s+is)\s+(?P<v4>{_FIRST_NAME})\s*,?\s+but\s+(?:{_EVERYONE})\s+"
    r"call(?:s)?\s+me\b"
)
_EVERYONE_CALLS_ME = re.compile(
    rf"\b(?:{_EVERYONE})\s+(?:all\s+)?call(?:s)?\s+me\s+(?P<v>{_FIRST_NAME})\b"
    r"(?!\s+(?:when|if|because|morning|afternoon|evening|tonight|tomorrow|at|on)\b)"
)
"""The name one goes by, said as what others call one: "everyone calls me Libby", "my friends
call me Jo"."""
"""The full name said beside the name one goes by: "call me Sam, not Samantha" (a longer name:
"call me Sam, not Sammy" refuses a nickname), "nobody uses Johanna except my mum", "it's Robert
on my passport but I go by Bobby", "it's Elizabeth but everyone calls me Libby"."""


_NOT_MANAGERS = NOT_NAMES | {"she", "he", "who", "that", "this", "it", "mine"}
_IS_MY_MANAGER = re.compile(
    rf"(?:(?<![\w'’-])(?P<v>{NAME})|\b(?P<lower>[a-z][a-z'’-]{{1,14}}))\s+is\s+my\s+"
    r"(?:boss|manager|line\s+manager)\b"
)


def kind_of_person(sentence: str) -> Iterator[Found]:
    """ "I'm a morning person", "dark roast person through and through", "not a cat person":
    what one likes, or with "not", dislikes."""
    for match in _KIND_OF_PERSON.finditer(sentence):
        value = match.group("v")
        if value.lower() in _NOT_KINDS:
            continue
        if match.group("not") or match.group("not2"):
            yield Found("fact", "dislikes", value, f"Dislikes {value}", match.start())
        else:
            yield Found("fact", "likes", value, f"Likes {value}", match.start())


_KIND_OF_PERSON = re.compile(
    r"(?:\bI['’]m\s+(?P<not>not\s+)?(?:really\s+|totally\s+|definitely\s+|such\s+)?(?:an?\s+)?|"
    r"^(?:(?P<not2>not\s+)(?:really\s+)?(?:an?\s+)?)?)"
    r"(?P<v>[a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)\s+person\b(?!\s+(?:who|that|at|in|of|from|to)\b)",
    re.IGNORECASE,
)


_NOT_KINDS = frozenset(
    "nice good bad different private busy normal real other same the this that one contact point "
    "go-to only young old new".split()
)
"""Words before "person" that say no liking ("a nice person", "the contact person")."""
