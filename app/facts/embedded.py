"""The embedded extractor: the patterns (`app.facts.patterns`) where they fire, and the durable
reader (`app.facts.durable`) where they read nothing, over sentences and their clauses."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from app.facts.clauses import clauses
from app.facts.durable import DurableReader, Reading, as_said, with_subject
from app.facts.extraction import MULTI_VALUED, Extracted, Turn
from app.facts.make_believe import said_of_the_user
from app.facts.named import Named, NameReader, mentions_in
from app.facts.pasted import without_pasted
from app.facts.patterns import dedupe, extract_sentence
from app.facts.spans import span_of
from app.facts.utterances import (
    ACKNOWLEDGES,
    FIRST_PERSON,
    MAX_SENTENCE_CHARS,
    asks,
    keeps_open,
    sentences,
    statement_clauses,
)
from app.text.casual import spelled_out
from app.text.places import known_places
from app.text.words import fold


class EmbeddedExtractor:
    """Deterministic English patterns, and where they read no fact, the durable reader
    (`app.facts.durable`) and the name reader when meaning is on; offline, about 2 ms a message on
    2 cores (the patterns alone 0.6 ms).

    `embedded-7` is the patterns with the durable and name readers, reading chat's spelling
    (dropped apostrophes, places, teams, tools and organisations in lower case) and its
    fragments, and a second fact of a message (what a clause's opening says, a name, product,
    occupation or team the name reader gives a slot: `app.facts.named`), nothing of what is
    made believe or quoted from others (`app.facts.make_believe`);
    `embedded-7-patterns` the same patterns alone (`embedded-6` before products, occupations,
    teams, make-believe and heads that learned from the tuning sets; `embedded-5` before the
    second facts of clauses; `embedded-4` and `embedded-1` before chat's spelling; `embedded-3`
    read the same sentences with fewer patterns and kept nothing after an end; `embedded-2`,
    the reader's first version, whole sentences with the gate's lasting probe): re-extraction
    re-runs the kept turns of batches made by another."""

    def __init__(
        self, reader: DurableReader | None = None, names: NameReader | None = None
    ) -> None:
        self.reader = reader
        self.names = names
        self.name = "embedded-7" if reader is not None else "embedded-7-patterns"

    def extract(self, turns: Sequence[Turn]) -> list[Extracted]:
        per_sentence: list[tuple[int, str, date, list[Extracted]]] = [
            (number, sentence, turn.said_on, extract_sentence(sentence, turn.said_on))
            for number, turn in enumerate(turns)
            for sentence in sentences(spelled_out(said_of_the_user(without_pasted(turn.text))))
            if len(sentence) <= MAX_SENTENCE_CHARS
        ]
        if self.reader is not None:
            self._read_the_rest(self.reader, per_sentence)
        if self.names is not None:
            self._read_the_names(self.names, per_sentence)
        return dedupe(
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
            and not ACKNOWLEDGES.search(sentence)
        ]
        readings = reader.read([per_sentence[n][1] for n in whole])
        read_whole: dict[int, Extracted] = {}
        for n, reading in zip(whole, readings, strict=True):
            if reading is not None and not _of_someone_else(reading, per_sentence[n][1]):
                _, sentence, said_on, items = per_sentence[n]
                read_whole[n] = _as_fact(reading, sentence, said_on)
                items[:0] = [read_whole[n], *_listed_with(reading, read_whole[n])]
        parts: list[tuple[int, str]] = []
        for n, (_, sentence, said_on, items) in enumerate(per_sentence):
            whole_closed = not keeps_open(sentence)
            answers = bool(ACKNOWLEDGES.search(sentence))
            question = asks(sentence)
            for clause in statement_clauses(sentence):
                if answers and not FIRST_PERSON.search(clause):
                    continue  # "thanks, that helps with note 32": more of the answer
                read = extract_sentence(clause, said_on)
                if not _reads_a_fact(read):
                    if question and _ALTERNATIVES.search(clause):
                        continue  # "cat or dog for a first pet, pros and cons?": the question
                    parts.append((n, clause))
                elif whole_closed:  # "I'm vegetarian, what should I order?"
                    items.extend(
                        item
                        for item in read
                        if item.kind in ("fact", "end")
                        and not (question and item.slot == "instruction")
                    )  # "no jargon, explain like I'm five: what is a mortgage?" is for once
                elif _said_of_the_user(sentence[: sentence.find(clause)]):
                    # what a pattern anchored at a start reads in this clause alone
                    items.extend(_not_given_yet(read, items))
        readings = reader.read([clause for _, clause in parts], clauses=True)
        for (n, clause), reading in zip(parts, readings, strict=True):
            if reading is None or _of_someone_else(reading, clause):
                continue
            if _INTRODUCES_SOMEONE.match(per_sentence[n][1]):
                continue  # "Meet Sarah, 29, nurse on nights": Sarah's
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

    @staticmethod
    def _read_the_names(
        names: NameReader, per_sentence: list[tuple[int, str, date, list[Extracted]]]
    ) -> None:
        """A fact for each name of a turn that the rest gave no slot to and the name reader
        (`app.facts.named`) gives one of the user's: a second or third fact of a message ("born
        in Kerala, moved to Leeds in 2004 and I've been a staff nurse at the LGI ever since"),
        for a slot the turn has not filled yet, or a new value of a slot of several."""
        given: dict[int, list[Extracted]] = {}
        for number, _, _, items in per_sentence:
            given.setdefault(number, []).extend(i for i in items if i.kind in ("fact", "end"))
        known = {
            n: {fold(i.value or "") for i in turn if not _read_whole(i)} - {""}
            for n, turn in given.items()
        }  # a clause read whole ("I use an iPhone and Xero for my accounts") names no one yet
        for number, sentence, said_on, items in per_sentence:
            turn = given[number]
            unread = []
            for named in _names_said_of_the_user(sentence)[:MOST_NAMES]:
                name = fold(named.name)
                if not any(name in value or value in name for value in known[number]):
                    unread.append(named)
            for named, read_as in zip(unread, names.read(sentence, unread), strict=True):
                # an occupation in a clause read whole as a role is that role, however it reads
                slot = named.fills or read_as
                whole = next(
                    (
                        item
                        for item in items
                        if item.kind == "fact"
                        and item.slot == slot
                        and (
                            (_read_whole(item) and named.name in (item.value or ""))
                            or (named.fills == "team" and not _TEAM_WORD.search(item.value or ""))
                        )
                    ),
                    None,
                )
                if slot is None or not _fits(slot, named, sentence):
                    if whole is not None and slot is not None:
                        # "I left my job as a pharmacist last spring": no role of the user's now
                        items.remove(whole)
                        turn.remove(whole)
                    continue
                if whole is not None:  # "we run our books through Xero": Xero, not the clause
                    fact = replace(whole, value=named.name)
                    items[items.index(whole)] = fact
                    turn[turn.index(whole)] = fact
                elif read_as is not None and (
                    slot in MULTI_VALUED
                    or not any(item.slot == slot for item in turn if item.kind == "fact")
                ):
                    fact = Extracted(
                        kind="fact",
                        text=as_said(sentence),
                        said_on=said_on,
                        slot=slot,
                        value=named.name,
                    )
                    items.append(fact)
                    turn.append(fact)
                else:
                    continue  # the turn gave this slot its one value already
                known[number].add(fold(named.name))


MOST_NAMES = 12
"""Names read in one sentence at most: a sentence naming more is a list or pasted text, and
the reading grows with each name."""


_A_NAME_LONG = 5
"""Words a value may have and still be a name that the name reader should not read again."""


def _read_whole(item: Extracted) -> bool:
    """Whether the fact's value is the clause it was read from, not a name or a phrase of it."""
    value = item.value or ""
    return len(value.split()) > _A_NAME_LONG or fold(value) == fold(item.text)


_ALTERNATIVES = re.compile(r"^(?:an?\s+|the\s+)?[\w-]+(?:\s+[\w-]+)?\s+or\s+\w+", re.IGNORECASE)
"""Choices a question opens with ("cat or dog for a first pet, pros and cons?"), not a fact."""


def _names_said_of_the_user(sentence: str) -> list[Named]:
    """The names of a sentence that may tell something of the user: in a statement (a question's
    or a request's statement clauses only: "I'm a nurse at St Mary's, can you…"), in a sentence
    that does not open on someone else ("my landlord, living in Spain now, …"), after no clause
    that ends on or names someone it could describe ("just chatted with Dave, originally from
    Lagos, living in Houston now", "the author, …")."""
    if _SOMEONE_ELSE_OPENS.match(sentence):
        return []
    said = [sentence] if keeps_open(sentence) else statement_clauses(sentence)
    found = []
    for named in mentions_in(sentence):
        if not any(named.name in part for part in said):
            continue
        before = sentence[: named.start]
        parts = clauses(before)
        if any(_ENDS_ON_SOMEONE.search(part) for part in parts[:-1]):
            continue
        if _SOMEONE_MENTIONED.search(before) or _CONDITION.search(before):
            continue
        if _ANOTHERS.search(parts[-1] if parts else before) or _FORM_FIELD.search(before):
            continue
        found.append(named)
    return found


def _fits(slot: str, named: Named, sentence: str) -> bool:
    """Whether the slot the name reader chose fits how the name was said: a place of work is
    one the user works at now (not where they studied, trained, interned or used to work, nor
    one they hope for: "I'm a nurse, trained at Guy's"); so is an occupation ("I left my job as
    a pharmacist", "I'm dating a firefighter", "a postie for a dad" are not the user's now); a
    product is one they use now ("tried todoist", "I would use Notion if it worked offline");
    a partner, child or pet is the user's when said as theirs ("we've got a spaniel called
    Bella", not "treated a spaniel called Bella today"), is no acronym ("my cat came from the
    RSPCA") and no thing ("buying my husband a Garmin")."""
    before, after = sentence[: named.start], sentence[named.end :]
    near = before[-48:]
    if slot in _PEOPLE and (fold(named.name) in known_places() or _A_THING.search(before)):
        return False  # "my biggest client is in Berlin": a place is no one
    if slot in ("employer", "office"):
        return not _NOT_THE_WORK_NOW.search(near)
    if slot in ("partner", "child", "pet"):
        return bool(_OWN.search(before)) and not named.name.isupper()
    if slot in ("role", "team"):  # in its own clause: "used to work at Deloitte, now a UX designer"
        clause = _CLAUSE_BREAK.split(near)[-1]
        return not (
            _NOT_THE_WORK_NOW.search(clause)
            or _NOT_MY_ROLE_NOW.search(clause)
            or _NOT_NOW_AFTER.match(after)
        )
    if slot == "uses":  # "cancelled Spotify, I'm on Tidal now"
        return not (_NOT_USED_NOW.search(before[-28:]) or _NOT_NOW_AFTER.match(after))
    return True


_TEAM_WORD = re.compile(r"\b(?:team|squad|desk|ward|department|dept|unit|section)\b", re.I)
"""A team's value that says it is one; a name read as a team ("on the platform team at
Zalando" read as Zalando) gives way to the team the sentence names."""
_CLAUSE_BREAK = re.compile(r"[,;:()—–]|\s-\s|\b(?:but|now)\b", re.IGNORECASE)
_A_THING = re.compile(r"\b(?:a|an)\s+$", re.IGNORECASE)
"""An article just before a name: "a Garmin" is a thing, no one is "a Sarah"."""
_NOT_MY_ROLE_NOW = re.compile(
    r"\b(?:former(?:ly)?|ex|left|quit|resign\w*|sacked|fired|redundan\w*|spent|did|done|stint|"
    r"never|no|not|playing|play|dating|date|married|marry|met|become|becoming|wish|would|"
    r"could|if|(?:daughter|son|child|wife|husband|widow)\s+of|after\s+(?:\w+\s+){0,2}years|"
    r"start|starts|starting|join|joining|offered|offer|accepted|accept|looked|looking|saw|"
    r"will)\b",
    re.IGNORECASE,
)
"""Words before an occupation that make it no job of the user's now: "after 20 years as a
firefighter", "I'm no accountant", "I'm the daughter of a coal miner", "playing a nurse", "I'm
starting as a barista on Monday", "I looked at a job as a flight attendant"."""
_NOT_NOW_AFTER = re.compile(
    r"^\W*(?:(?:for|as)\s+(?:a|my)\s+(?:dad|mum|mom|father|mother|parent)|before\b|until\b|"
    r"till\b|back\s+in\b|years\s+ago\b|never\s+again\b|if\b|when\s+I\s+was\b|vs\.?\s|"
    r"versus\b|or\s+(?:an?\s+)?[A-Z]\w*)",
    re.IGNORECASE,
)
"""Words just after an occupation or a product that make it not the user's now: "a paramedic
before moving into teaching", "a postie for a dad", "Notion if it worked offline", "Figma vs
Sketch"."""


_ANOTHERS = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:wife|husband|partner|boyfriend|girlfriend|"
    r"son|daughter|kids?|children|mum|mom|dad|mother|father|parents|sister|brother|friend|"
    r"flatmate|roommate|mentor|boss|manager|colleague|neighbou?r|cousin|aunt|uncle|ex)"
    r"(?:['’]s)?\s+(?!(?:and|&)\s+I\b)\w+|\b[A-Z][a-z]+['’]s\s+(?:wife|husband|partner|son|"
    r"daughter|boss|dog|cat)\b",
    re.IGNORECASE,
)
"""Someone else the clause speaks of before the name, whose the name may be: "my wife grew up in
Limerick", "my husband's boss is a guy called Gareth", "their dad lives in Coventry",
"Sandra's husband works at Ford"."""
_FORM_FIELD = re.compile(r"\b[A-Za-z ]{2,20}:\s*$")
"""A field of a form or a pasted record ("Name: John Smith"): nothing says it is the user's."""
_NOT_THE_WORK_NOW = re.compile(
    r"\b(?:stud(?:y|ied|ying)|trained|training|qualified|placement|apprenticeship|degree|"
    r"masters|PGCE|PhD|interned|internship|learn(?:ed|t)|was|were|used\s+to|retired|worked|"
    r"taught|hop(?:e|ing)|going\s+to|want|applied|applying|interview\w*|stuck|shift|visit\w*|"
    r"went|go(?:ing)?\s+to|trip|holiday|ticket|nearest|assessment|volunteer\w*|starting|"
    r"joining|offered)\b",
    re.IGNORECASE,
)
_NOT_USED_NOW = re.compile(
    r"\b(?:used\s+to|tr(?:y|ied|ying)|quit|ditched|dropped|cancell?ed|switch\w*\s+from|"
    r"(?:moved|came)\s+(?:over\s+)?from|left|instead\s+of|rather\s+than|than|consider\w*|"
    r"thinking|looking\s+at|should\s+I|recommend\w*|vs|versus|or|wants?\s+(?:me|us)|"
    r"never|no\s+longer|not|don['’]?t|doesn['’]?t|trained|would|could|sold|returned|buy\w*|"
    r"bought|gift\w*)\b",
    re.IGNORECASE,
)
"""Words before a product's name that say the user does not use it now: "tried todoist",
"moved from Spotify", "Jira or Linear?", "a client wants me to use memoQ"."""
_PEOPLE = frozenset({"partner", "child", "pet", "manager", "works_with", "name", "preferred_name"})
_OWN = re.compile(
    r"\b(?:my|our|I\s+have|I['’]ve\s+got|we\s+have|we['’]ve\s+got|got\s+an?|have\s+an?|"
    r"adopted|rescued)\b",
    re.IGNORECASE,
)


_SOMEONE_ELSE_OPENS = re.compile(
    r"^\W*(?:(?:so|and|but|honestly|apparently|btw)\W+)?(?:my|our|his|her|their|the|a|an)\s+"
    r"(?!(?:name|names|full\s+name|job|work|home|family|wife|husband|partner|kids?|son|daughter|"
    r"dog|cat)\b)\w+",
    re.IGNORECASE,
)
"""A sentence opening on someone or something else ("my landlord, …", "the author, …", "our new
hire, …"); not on the user's own name, work, home or family."""
_CONDITION = re.compile(r"\b(?:if|once|when|whether|unless)\s+I\b", re.IGNORECASE)
_DESCRIBED = r"author|character|hero|heroine|novel|story|article|profile|candidate|hire|brief"
"""Words for someone described, not the user: "the author, originally from Lagos, …"."""
_SOMEONE_MENTIONED = re.compile(
    rf"\b(?i:he|she|his|her|ex|{_DESCRIBED})\b"
    r"|\b(?:[A-Z][a-z]+|my\s+ex)\s+(?:is|was|has|says|said|moved|lives)\b"
)
"""Someone the words before a name speak of, whose the name may be ("Apparently Tom is
originally from Lagos, living in Houston now"); not "they", which is as often a company ("I
work for Bupa in one of their care homes, its just me and Sandra")."""


def _said_of_the_user(before: str) -> bool:
    """Whether every clause before this one in its sentence speaks of the user, so this one
    does too: each opens with "I" ("I'm from Poland originally, work as a welder") or has no
    subject of its own ("originally from Lagos, living in Houston now"), and none ends on
    someone it could describe ("just chatted with Dave, originally from Lagos", "Character
    brief: Lena, 27, detective", "I report to Dana Whitfield (VP of Ops)")."""
    for clause in clauses(before) or ([before] if before.strip() else []):
        if _ENDS_ON_SOMEONE.search(clause) or _SOMEONE_NAMED.search(clause):
            return False
        if not (_FIRST_PERSON_OPENING.match(clause) or with_subject(clause) != clause):
            return False
    return not _ENDS_ON_SOMEONE.search(before)


_FIRST_PERSON_OPENING = re.compile(r"^(?:\W*(?:so|and|but|hi|hey|hello)\W+)?I(?:['’]\w+)?\b")
_ENDS_ON_SOMEONE = re.compile(
    r"(?:(?<!\bfrom\s)(?<!\bin\s)(?<!\bto\s)(?<!\bat\s)(?<!\bnear\s)(?<!\bof\s)\b[A-Z][\w'’-]+|"
    r"\b(?:guy|girl|man|woman|friend|one))\W*[(,:]?\s*$"
)
"""A clause ending on a name or a person, whom the next clause may describe; not a place it
ends on ("originally from Lagos, living in Houston now")."""
_SOMEONE_NAMED = re.compile(rf"\b(?:he|she|they|his|her|their|{_DESCRIBED})\b", re.IGNORECASE)
_WHOLE_SENTENCE_SLOTS = frozenset({"instruction", "language"})
"""Slots a sentence's patterns read from the whole of it: a standing instruction is the whole
sentence ("I'm deaf, so … text only please"), a clause of it would be a second, partial copy;
a language is read with what the sentence says of it ("fluent in Polish, learning Norwegian")."""


def _not_given_yet(read: list[Extracted], items: list[Extracted]) -> list[Extracted]:
    """The facts a clause's patterns read that its sentence's did not: a slot the sentence gave
    no fact of, or a new value of a slot of several values. (The sentence's patterns read most
    of what its clauses' do; those anchored at a clause's start only there: "I'm from Poland
    originally, work as a welder in Port Talbot", "originally from Lagos, living in Houston
    now".)"""
    given = {(item.slot, fold(item.value or "")) for item in items}
    slots = {item.slot for item in items if item.kind == "fact"}
    return [
        item
        for item in read
        if item.kind == "fact"
        and item.slot not in _WHOLE_SENTENCE_SLOTS
        and (item.slot, fold(item.value or "")) not in given
        and (item.slot not in slots or item.slot in MULTI_VALUED)
    ]


def _reads_a_fact(items: list[Extracted]) -> bool:
    return any(item.kind in ("fact", "end") for item in items)


_SOMEONE_ELSES_SUBJECT = re.compile(
    r"^\W*(?:(?:so|and|but|also|btw|honestly|apparently|anyway)\W+)*(?:my|our)\s+"
    r"(?:[\w-]+\s+)?(?:flat-?mate|room-?mate|house-?mate|friend|mum|mom|mother|dad|father|"
    r"parents?|sister|brother|sibling|girlfriend|boyfriend|wife|husband|partner|fianc[eé]e?|"
    r"son|daughter|kids?|child(?:ren)?|nan|gran|grandma|grandmother|grandad|grandpa|"
    r"grandfather|aunt|uncle|cousin|niece|nephew|neighbou?r|landlord|landlady|boss|manager|"
    r"colleague|co-?worker|client|teacher|in-laws?|step\w+)(?:['’]s(?:\s+\w+)?)?\b"
    r"(?!\s+(?:and|&)\s+I\b)(?!\s*,?\s+[A-Z]\w*\s+(?:and|&)\s+I\b)",
    re.IGNORECASE,
)
"""A sentence whose subject is someone close to the user ("my flatmate Oskar is allergic to
shellfish", "my girlfriend's manager keeps emailing her", "my wife is vegan"); not "my wife and
I", not "my sister Ana and I"."""
_INTRODUCES_SOMEONE = re.compile(
    r"^\W*(?:meet|say\s+hi\s+to|introducing|this\s+is\s+(?:my|our)\b)", re.IGNORECASE
)
"""A sentence that introduces someone, whose clauses are theirs."""
_ABOUT_SOMEONE = frozenset({"partner", "child", "pet", "manager", "works_with"})
"""Slots whose value is the someone a sentence speaks of: "my wife is called Ana" is the user's."""


def _of_someone_else(reading: Reading, said: str) -> bool:
    """Whether the durable reader's fact is of the person the sentence speaks of, not the user's
    ("my flatmate Oskar is allergic to shellfish" is no allergy of the user's)."""
    return reading.slot not in _ABOUT_SOMEONE and bool(_SOMEONE_ELSES_SUBJECT.match(said))


def _as_fact(reading: Reading, read_from: str, said_on: date) -> Extracted:
    """The reader's fact, with the span the sentence or clause it was read from states
    ("since March", "until May")."""
    span = span_of(read_from, said_on)
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
