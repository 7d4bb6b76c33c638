"""Who the user lives and works with, as chat names them: a partner, children and pets (by name,
counted then named, or named in passing in either case: "my manager priya is picky", "our
parrot kiwi is 30"), a manager and colleagues."""

from __future__ import annotations

import re
from collections.abc import Iterator

from app.facts.found import Found, listed_items
from app.facts.vocabulary import DIETS, NAME, NATIONALITIES


def said_in_brackets(sentence: str) -> Iterator[Found]:
    """Who someone is to the user, said beside their name: "Sanna (my manager) asked me…", "I've
    been with Chloe 3 yrs"."""
    for match in _IN_BRACKETS.finditer(sentence):
        relation = " ".join(match.group("r").lower().split())
        slot, name = _slot_of(relation), match.group("v")
        text = _NAMED_TEXT[slot].format(r=relation, v=name)
        yield Found("fact", slot, name, text[0].upper() + text[1:], match.start())
    for match in _BEEN_WITH.finditer(sentence):
        name = match.group("v")
        if _NOT_A_PARTNER.search(sentence) or not _A_PARTNER.search(sentence):
            continue  # "I've been with Barclays for 10 years", "…but we broke up"
        yield Found("fact", "partner", name, f"Partner is {name}", match.start())


_PARTNERS = r"wife|husband|hubby|wifey|partner|girlfriend|boyfriend|gf|bf|spouse|fianc[ée]e?"
_RELATIONS = {
    "partner": _PARTNERS,
    "child": r"son|daughter|kid|stepson|stepdaughter",
    "pet": r"dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|horse|tortoise|turtle",
    "manager": r"manager|boss|line\s+manager|supervisor|team\s+leader|team\s+lead",
    "works_with": r"colleague|co-?worker|teammate|co-?founder|business\s+partner",
}
"""Who someone is to the user, by the word for the relation, per slot."""


def _slot_of(relation: str) -> str:
    for slot, words in _RELATIONS.items():
        if re.fullmatch(words, relation, re.IGNORECASE):
            return slot
    raise ValueError(f"no slot has the relation {relation!r}")


_IN_BRACKETS = re.compile(
    rf"(?<![\w'’-])(?P<v>(?-i:{NAME}))\s*\((?:my|our)\s+"
    rf"(?P<r>{'|'.join(_RELATIONS.values())})\)",
    re.IGNORECASE,
)
_NOT_A_PARTNER = re.compile(
    r"\b(?:bank|contract|switch|account|premium|provider|promotion|job|company|firm|employer|GP|"
    r"customer|broke\s+up|split|divorced|ex|now|salary|pension|work)\b",
    re.IGNORECASE,
)
_A_PARTNER = re.compile(
    r"\b(?:propos\w*|marr\w+|wedding|anniversary|together|relationship|love|move\s+in|engaged|"
    r"dating|boyfriend|girlfriend|partner|ring)\b",
    re.IGNORECASE,
)
"""What makes "I've been with Chloe 3 yrs" a partner, where "with Barclays for 10 years" is not."""
_BEEN_WITH = re.compile(
    r"\bI(?:['’]ve|\s+have)\s+been\s+with\s+(?P<v>(?-i:[A-Z][a-z]+))\s+(?:for\s+)?(?:\d+|a\s+few|two|"
    r"three|four|five|six|seven|eight|nine|ten|many)\s+(?:years|yrs|months)\b",
    re.IGNORECASE,
)


_NO_PARTNERS_NAME = re.compile(
    rf"(?i:{NATIONALITIES}|{DIETS}|is|was|has|so|very|really|always|never)(?:\s+\S+)*"
)
"""What follows "my wife is" that says of her, not who she is."""


def family(sentence: str) -> Iterator[Found]:
    """A partner, a child or a pet named with the relation ("my wife Sofia", "my son is called
    Leo", "I have two kids, Tom and Ana", "I adopted a dog named Rex")."""
    for match in re.finditer(
        rf"\b[Mm]y\s+(?P<r>{_PARTNERS})(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|,|\s+is)?"
        rf"\s+(?P<v>{NAME})",
        sentence,
    ):
        relation = match.group("r").lower()
        if _NO_PARTNERS_NAME.fullmatch(match.group("v")):
            continue  # "my gf is Italian", "my wife is Vegan", "my bf Is annoying"
        yield Found(
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
        yield Found(
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
        for name in listed_items(match.group("v")):
            yield Found("fact", "child", name, f"Has a {relation} named {name}", match.start())
    animals = r"dog|cat|puppy|kitten|rabbit|hamster|parrot|horse|bird|fish|turtle|guinea\s+pig"
    for match in re.finditer(
        rf"\b(?:I\s+(?:have|adopted|got|own)\s+an?|[Mm]y)\s+(?:new\s+|little\s+)?(?P<r>{animals})"
        rf"(?:'s\s+name\s+is|\s+is\s+called|\s+called|\s+named|,)\s+(?P<v>{NAME})",
        sentence,
    ):
        animal = match.group("r").lower()
        yield Found(
            "fact",
            "pet",
            match.group("v"),
            f"Has a {animal} named {match.group('v')}",
            match.start(),
        )


_SAYS_OF_THEM = (
    r"is|was|has|had|and|who|just|keeps|wants|said|says|thinks|loves|hates|asked|told|will|"
    r"would|can|can't|won't|doesn't|isn't|handles|runs|does|gets"
)
"""What follows a name said in passing: a verb of what they are or do ("my manager priya is…")."""
_SHARED_WORK = r"sous\s+chef|apprentice|intern|trainee|mentor|client"
"""People named by the work they share with the user ("my sous chef Marco", "my client Anna"):
the name must be written as one, since what follows these words is as often a thing ("my client
list", "my intern year", "my mentor program")."""
_NAMED_BY_SHARED_WORK = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:new\s+)?(?P<r>{_SHARED_WORK})\s+(?P<v>[A-Z][a-z'’-]{{1,14}})"
    r"(?![\w'’-])(?!\s+[A-Z])"
    rf"(?=\s*,|\s+(?:{_SAYS_OF_THEM}|started|always|never)\b)"
)


def named_in_passing(sentence: str) -> Iterator[Found]:
    """ "my manager priya is super picky", "our parrot kiwi is 30", "my cofounder Leila handles
    the tech side": a relation named by the way, its name in lower case as often as not. The
    name is the one word after the relation, before a verb or a comma, and no common word."""
    for match in _NAMED_IN_PASSING.finditer(sentence):
        name = match.group("v")
        if name.lower() in NOT_NAMES:
            continue
        relation = " ".join(match.group("r").lower().split())
        slot = _slot_of(relation)
        text = _NAMED_TEXT[slot].format(r=relation, v=name)
        yield Found("fact", slot, name, text[0].upper() + text[1:], match.start())
    for match in _NAMED_BY_SHARED_WORK.finditer(sentence):
        name = match.group("v")
        if name.lower() not in NOT_NAMES:
            yield Found("fact", "works_with", name, f"Works with {name}", match.start())


def counted_and_named(sentence: str) -> Iterator[Found]:
    """ "got two boys, finn and arlo", "we have two rabbits, pepper and salt": children or pets
    counted, then named, one word each and in either case."""
    for match in _COUNTED_AND_NAMED.finditer(sentence):
        one = _ONE_OF[match.group("r").lower()]
        slot = "pet" if re.fullmatch(_RELATIONS["pet"], one) else "child"
        for name in listed_items(match.group("v")):
            if name.lower() not in NOT_NAMES:
                yield Found("fact", slot, name, f"Has a {one} named {name}", match.start())


_ONE_OF = {
    "kids": "kid",
    "children": "child",
    "boys": "boy",
    "girls": "girl",
    "sons": "son",
    "daughters": "daughter",
    "dogs": "dog",
    "cats": "cat",
    "rabbits": "rabbit",
    "bunnies": "bunny",
    "hamsters": "hamster",
    "parrots": "parrot",
    "puppies": "puppy",
    "kittens": "kitten",
    "horses": "horse",
}


_COUNTED_AND_NAMED = re.compile(
    r"\b(?:(?:I|we)(?:['’]ve|\s+have)?\s+(?:got\s+)?|got\s+|have\s+)(?:two|three|four|five|\d)\s+"
    rf"(?P<r>{'|'.join(_ONE_OF)})\s*[,:(]\s*"
    r"(?P<v>[A-Za-z][a-z'’-]{1,14}(?:\s*,\s*[A-Za-z][a-z'’-]{1,14})*(?:\s*,?\s+and\s+|\s*&\s*)"
    r"[A-Za-z][a-z'’-]{1,14})\b",
    re.IGNORECASE,
)


_NAMED_TEXT = {
    "partner": "{r} is {v}",
    "child": "Has a {r} named {v}",
    "pet": "Has a {r} named {v}",
    "manager": "Reports to {v}",
    "works_with": "Works with {v}",
}


_NAMED_IN_PASSING = re.compile(
    r"\b(?:my|our)\s+(?:new\s+|little\s+|old\s+|eldest\s+|youngest\s+)?"
    rf"(?P<r>{'|'.join(_RELATIONS.values())})\s+(?P<v>[A-Za-z][a-z'’-]{{1,14}})"
    rf"(?=\s*,|\s+(?:{_SAYS_OF_THEM})\b)",
    re.IGNORECASE,
)


NOT_NAMES = frozenset(
    "is was has had and who also just really still never always usually often sometimes finally "
    "recently now then too actually literally basically says said wants thinks asked told got "
    "gets of at in on from for with to the a an here there today yesterday again though lol tbh "
    "ngl honestly apparently".split()
)
"""Words that follow a relation and are no name ("my manager also wants …")."""
