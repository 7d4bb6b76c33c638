"""The embedded extractor: the patterns (`app.facts.patterns`) where they fire, the durable
reader (`app.facts.durable`) where they read nothing, over sentences and their clauses, the name
reader (`app.facts.named`) for names left without a slot, and the slot tagger
(`app.facts.tagger`) for the values all of them left out."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from app.facts.clauses import clauses
from app.facts.dates import names_a_day
from app.facts.durable import (
    PLACE_SLOTS,
    THE_USERS_I,
    DurableReader,
    Reading,
    as_said,
    listed_after,
    may_be_a_place,
    said_of_the_past,
)
from app.facts.extraction import MULTI_VALUED, Extracted, Turn
from app.facts.habits import habits_in
from app.facts.languages import LanguagesSaid, not_said_spoken, settle_languages
from app.facts.make_believe import said_of_the_user
from app.facts.named import READ_SLOTS, TEAM_HEAD, Named, NameReader, occupations_in
from app.facts.pasted import without_pasted
from app.facts.patterns import dedupe, extract_sentence
from app.facts.spans import span_of
from app.facts.tagger import (
    CORRECTING_CONFIDENCE,
    TAGGED_CONFIDENCE,
    UNAGREED_CONFIDENCE,
    SlotTagger,
    Tagged,
)
from app.facts.utterances import (
    ACKNOWLEDGES,
    FIRST_PERSON,
    MAX_SENTENCE_CHARS,
    asked_because,
    asks,
    for_once,
    keeps_open,
    sentences,
    standing,
    statement_clauses,
)
from app.facts.vocabulary import is_a_nationality
from app.facts.whose import (
    introduces_someone,
    is_the_users_now,
    mentions_of_the_user,
    of_someone_else,
    tells_of_the_user,
    the_user_speaks_before,
)
from app.facts.workplaces import site_of
from app.text.casual import spelled_out
from app.text.places import known_places
from app.text.words import fold


class EmbeddedExtractor:
    """Deterministic English patterns, and where they read no fact, the durable reader
    (`app.facts.durable`), the name reader and the slot tagger when meaning is on; offline, about
    3 ms a message on 2 cores (the patterns alone 0.7 ms).

    `embedded-14` is the patterns with the durable and name readers and the slot tagger (its
    field and, beside it, its sequence reader: `app.facts.sequence`), reading
    chat's spelling (dropped apostrophes, places, teams, tools and organisations in lower case)
    and its fragments, a second fact of a message (what a clause's opening says, a name,
    product, occupation or team the name reader gives a slot: `app.facts.named`) and the values
    the slot tagger finds beside them (`app.facts.tagger`), nothing of what is made believe or
    quoted from others (`app.facts.make_believe`); `embedded-14-field` the same without the
    sequence reader, `embedded-14-untagged` without the slot tagger (both for the benchmarks)
    and `embedded-14-patterns` the same patterns alone (`embedded-13` before the ends of homes,
    tools, jobs, offices and managers left for another and the sequence reader's values over
    words the field is unsure of; `embedded-12` before the sequence reader;
    `embedded-11` before the slot tagger; `embedded-10` before habits said by how
    often, rules asked for because of something lasting, employers named with their site, jobs
    said by their frame, towns known by their capitals and duties said as "my job is …";
    `embedded-9` before products typed in lower
    case, duties said with someone, languages settled per message, conditions and nationalities
    said in passing and heads that learned from 46 tuning sets; `embedded-8` before the name
    reader read the
    name's own meaning and heads that learned from 44 tuning sets; `embedded-7` before standing
    instructions asked as requests, relation facts kept only by a name, the ends of moves and
    job changes and heads that learned from 29 tuning sets; `embedded-6` before products,
    occupations, teams, make-believe and heads that learned from the tuning sets; `embedded-5`
    before the second facts of clauses; `embedded-4` and `embedded-1` before chat's spelling;
    `embedded-3` read the same sentences with fewer patterns and kept nothing after an end;
    `embedded-2`, the reader's first version, whole sentences with the gate's lasting probe):
    re-extraction re-runs the kept turns of batches made by another."""

    def __init__(
        self,
        reader: DurableReader | None = None,
        names: NameReader | None = None,
        tagger: SlotTagger | None = None,
    ) -> None:
        self.reader = reader
        self.names = names
        self.tagger = tagger
        if reader is None:
            self.name = "embedded-14-patterns"
        elif tagger is None:
            self.name = "embedded-14-untagged"
        elif tagger.sequence is None:
            self.name = "embedded-14-field"  # the tagger's field without its sequence reader
        else:
            self.name = "embedded-14"

    def extract(self, turns: Sequence[Turn]) -> list[Extracted]:
        per_sentence: list[tuple[int, str, date, list[Extracted]]] = [
            (number, sentence, turn.said_on, extract_sentence(sentence, turn.said_on))
            for number, turn in enumerate(turns)
            for sentence in read_sentences(turn.text)
        ]
        self._whole_occupations(per_sentence)
        if self.reader is not None:
            self._read_the_rest(self.reader, per_sentence)
            self._read_standing_requests(self.reader, per_sentence)
        if self.names is not None:
            self._read_the_names(self.names, per_sentence)
        self._read_the_habits(per_sentence)
        said = [LanguagesSaid.of(turn.text) for turn in turns]  # once a message: it is long
        for number, sentence, said_on, items in per_sentence:
            items[:] = settle_languages(sentence, items, said_on, said[number])
            items[:] = [item for item in items if not _a_nationality_for_a_name(item)]
        if self.tagger is not None:
            self._read_the_tagged(self.tagger, per_sentence)
        for _, _, _, items in per_sentence:
            items[:] = _with_the_sites(items)
        return dedupe(
            [replace(item, turn=number) for number, _, _, items in per_sentence for item in items]
        )

    @staticmethod
    def _whole_occupations(per_sentence: list[tuple[int, str, date, list[Extracted]]]) -> None:
        """A role the patterns read by its first noun is the whole occupation the sentence
        names from there ("I'm a consultant cardiologist", "I'm the head of finance at a
        logistics firm"): the occupation as `app.facts.named` reads it, with the words that
        say which."""
        for _, sentence, _, items in per_sentence:
            for n, item in enumerate(items):
                if item.kind != "fact" or item.slot != "role" or not item.value:
                    continue
                if _read_whole(item):
                    continue
                value = fold(item.value)
                whole = next(
                    (
                        o.name
                        for o in occupations_in(sentence)
                        if fold(o.name).startswith(f"{value} ")
                    ),
                    None,
                )
                if whole is not None:
                    items[n] = replace(item, value=whole, text=item.text.replace(item.value, whole))

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
            if reading is None or introduces_someone(per_sentence[n][1]):
                continue  # "Meet Sarah, 29, nurse on nights": Sarah's
            if not of_someone_else(reading, per_sentence[n][1]):
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
                elif the_user_speaks_before(sentence[: sentence.find(clause)]):
                    # what a pattern anchored at a start reads in this clause alone
                    items.extend(_not_given_yet(read, items))
        readings = reader.read([clause for _, clause in parts], clauses=True)
        for (n, clause), reading in zip(parts, readings, strict=True):
            if reading is None or of_someone_else(reading, clause):
                continue
            if of_someone_else(reading, per_sentence[n][1]) and not FIRST_PERSON.search(clause):
                continue  # "my friend Dimitra says Greeks don't …, only name days": hers
            if introduces_someone(per_sentence[n][1]):
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
    def _read_standing_requests(
        reader: DurableReader, per_sentence: list[tuple[int, str, date, list[Extracted]]]
    ) -> None:
        """A standing instruction asked as a request or a question, which the rest leaves out
        as a request for this answer: "Can you stick to British spelling from here on?", "I'm
        dyslexic, so please use short paragraphs", "stop asking if I want more help at the end
        of every message". The durable reader reads each request of a sentence that gave no
        instruction and keeps it only as an instruction (its lasting head tells a standing rule
        from a request for once: "make it shorter", "can you check this email?")."""
        asked: list[tuple[int, str]] = []
        for n, (_, sentence, said_on, items) in enumerate(per_sentence):
            if for_once(sentence) or any(item.slot == "instruction" for item in items):
                continue  # "tell my students: no emojis in your answers" is theirs
            parts = clauses(sentence) or [sentence]
            ruled = [
                item
                for part in parts
                if standing(part) and not asks(sentence)
                for item in extract_sentence(part, said_on)
                if item.slot == "instruction"
            ]  # "I'm colour-blind, so please never describe charts by colour alone"
            if ruled:
                items.append(ruled[0])
                continue
            reasoned = [part for part in parts if asked_because(sentence, part)]
            if reasoned and any(item.kind == "fact" for item in items):
                # "I'm dyslexic, so please use short paragraphs": the reason lasts, so the rule does
                rule = as_said(reasoned[0])
                items.append(_as_fact(Reading("instruction", rule, rule), reasoned[0], said_on))
                continue
            asked += [(n, part) for part in parts if not keeps_open(part)]
        readings = reader.read_instructions([part for _, part in asked])
        for (n, part), reading in zip(asked, readings, strict=True):
            _, _, said_on, items = per_sentence[n]
            if reading is not None and not any(i.slot == "instruction" for i in items):
                items.append(_as_fact(reading, part, said_on))

    @staticmethod
    def _read_the_habits(per_sentence: list[tuple[int, str, date, list[Extracted]]]) -> None:
        """A habit said by its frequency (`app.facts.habits`) in a clause that may state a
        fact, where the sentence gave no habit or end of one: often beside a fact of another
        slot ("I'm vegan, live in Ghent and cycle to work every day")."""
        for _, sentence, said_on, items in per_sentence:
            if any(item.slot == "habit" for item in items):
                continue
            whole = [sentence] if keeps_open(sentence) else []
            given = [fold(i.value) for i in items if i.slot in _SAID_WITH_A_FREQUENCY and i.value]
            for clause in statement_clauses(sentence) or whole:
                for habit in habits_in(clause):
                    if any(value in fold(habit.value) for value in given):
                        continue  # "I do the cash office every morning": a duty
                    reading = Reading("habit", habit.value, as_said(clause))
                    items.append(_as_fact(reading, clause, said_on))

    @staticmethod
    def _read_the_tagged(
        tagger: SlotTagger, per_sentence: list[tuple[int, str, date, list[Extracted]]]
    ) -> None:
        """The values the slot tagger (`app.facts.tagger`) finds in a turn that the rest read
        nothing of, each a fact with the sentence it is in as its text: the second and third
        values of a message ("I'm a claims handler at Aviva and half my day is calls on
        Genesys"). Only in a turn the rest read a fact or an end from: the tagger adds to what a
        message states, it never decides alone that it states something (in a quarter of the
        tuning sets, tagging turns the rest read nothing from kept 29 more chatter messages of
        751 for 17 more facts of 4,092). Where none of its values is one the rest read, the two
        disagree, and the tagger must be surer (`UNAGREED_CONFIDENCE`).

        Where the rest read a value too short ("macbook" of "a 2019 macbook pro"), the tagged
        one takes its place; where they read a name into a slot of one value that the tagger is
        all but sure is of another slot still free, it moves there and the tagged value takes the
        slot ("I'm in procurement at Halvex": Halvex employs, the team is procurement)."""
        turns: dict[int, list[int]] = {}
        for n, (number, _, _, _) in enumerate(per_sentence):
            turns.setdefault(number, []).append(n)
        for rows in turns.values():
            given = [item for n in rows for item in per_sentence[n][3]]
            if not any(item.kind in ("fact", "end") for item in given):
                continue
            starts, at = [], 0
            for n in rows:
                starts.append(at)
                at += len(per_sentence[n][1]) + 1
            text = " ".join(per_sentence[n][1] for n in rows)
            found = tagger.tag(text)
            # "Chinese in Leeds — where's good for dim sum?": no office read, so no nationality
            agreed = any(_agrees(tagged, given) for tagged in found)
            least = TAGGED_CONFIDENCE if agreed else UNAGREED_CONFIDENCE
            for tagged in found:
                if tagged.confidence < least or tagged.slot in _RULED_SLOTS:
                    continue
                k = bisect_right(starts, tagged.start) - 1
                _, sentence, said_on, items = per_sentence[rows[k]]
                if tagged.end > starts[k] + len(sentence):
                    continue  # tagged across two sentences
                named = Named(tagged.start - starts[k], tagged.end - starts[k], tagged.value)
                if not tells_of_the_user(named, sentence):
                    continue  # "my neighbour's cat is called Pepper"
                slot = placed(tagged.slot, named, sentence)
                if slot is None or not is_the_users_now(slot, named, sentence):
                    continue  # "Back in 2012 I spent a year teaching English in Busan"
                tagged = replace(tagged, slot=slot)
                if _said_when_or_of_whom(tagged) or _cut_short(named, sentence):
                    continue  # "I was in a play at the Old Vic": no "Vic"
                misread = _read_for_another_slot(tagged, items, given)
                if misread is not None:  # "I sort post at the Royal Mail centre": the employer
                    _mend(misread, replace(misread, slot=tagged.slot), items, given)
                    continue
                shorter = _said_in_part(tagged, items)
                if shorter is not None:  # "on a 2019 macbook pro": not "macbook" alone
                    _mend(shorter, replace(shorter, value=tagged.value), items, given)
                    continue
                moved = _in_the_slot_of_another(tagged, items, given, found)
                if moved is not None:  # "I'm in procurement at Halvex": Halvex is no team
                    misread, slot_of_it = moved
                    _mend(misread, replace(misread, slot=slot_of_it), items, given)
                if _read_already(tagged, given) or _not_a_language_spoken(tagged, sentence):
                    continue
                reading = Reading(tagged.slot, tagged.value, as_said(sentence))
                fact = _as_fact(reading, sentence, said_on)
                items.append(fact)
                given.append(fact)

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
            mentioned = mentions_of_the_user(sentence)[:MOST_NAMES]
            if any(named.fills == "team" for named in mentioned):
                # the team the sentence names replaces a name read as the team, which is free
                # to be read for what it is ("on a firmware team at Garmin": Garmin employs)
                known[number] -= {
                    fold(item.value or "") for item in items if _a_name_for_a_team(item)
                }
            unread = []
            for named in mentioned:
                name = fold(named.name)
                if not any(_one_holds_the_other(name, value) for value in known[number]):
                    unread.append(named)
            for named, read_as in zip(unread, names.read(sentence, unread), strict=True):
                if fold(named.name) in known[number]:
                    continue  # listed after a name read before it ("Figma and Miro")
                # an occupation in a clause read whole as a role is that role, however it reads
                slot = named.fills or read_as
                # the fact it replaces: the clause read whole that holds it, or a name read as
                # the team the sentence names ("on the platform team at Zalando": not Zalando)
                whole = next(
                    (
                        item
                        for item in items
                        if item.kind == "fact"
                        and item.slot == slot
                        and (
                            (_read_whole(item) and named.name in (item.value or ""))
                            or (named.fills == "team" and _a_name_for_a_team(item))
                        )
                    ),
                    None,
                )
                if slot is not None:
                    slot = placed(slot, named, sentence)
                    if slot is None:
                        continue
                if slot is None or not is_the_users_now(slot, named, sentence):
                    if whole is not None and slot is not None:
                        # "I left my job as a pharmacist last spring": no role of the user's now
                        items.remove(whole)
                        turn.remove(whole)
                    continue
                if whole is not None:  # "we run our books through Xero": Xero, not the clause
                    fact = replace(whole, value=named.name)
                    items[items.index(whole)] = fact
                    turn[turn.index(whole)] = fact
                    if slot in MULTI_VALUED:  # "my main tools are Figma, Notion and Linear"
                        listed = [
                            replace(fact, value=more)
                            for more in listed_after(sentence, named.end)
                            if fold(more) not in known[number]
                        ]
                        known[number] |= {fold(item.value or "") for item in listed}
                        items.extend(listed)
                        turn.extend(listed)
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


def read_sentences(text: str) -> list[str]:
    """The sentences of a turn the extractor reads: chat's spelling read back, without what is
    pasted or made believe, none longer than `MAX_SENTENCE_CHARS`."""
    said = sentences(spelled_out(said_of_the_user(without_pasted(text))))
    return [sentence for sentence in said if len(sentence) <= MAX_SENTENCE_CHARS]


def _agrees(tagged: Tagged, given: Sequence[Extracted]) -> bool:
    """Whether the tagged value is one the rest read too (or holds one, or is held by one)."""
    value = fold(tagged.value)
    return any(
        _one_holds_the_other(value, fold(item.value))
        for item in given
        if item.kind in ("fact", "end") and item.value
    )


_RULED_SLOTS = frozenset({"instruction"})
"""Slots the tagger adds nothing to: whether a request is a standing rule or one for this answer
is the request readers' to say (`_read_standing_requests`: "I'm new to Leeds, so please be
specific" asks it once)."""


def _said_when_or_of_whom(tagged: Tagged) -> bool:
    """Whether a tagged value is a day or a month, which says when and is no value of any slot
    ("hand in my notice at Barclays in October": no office; "Sunday here, so quiet": no one's
    name), or a nationality tagged as someone's name."""
    return names_a_day(tagged.value) or (
        tagged.slot in _PEOPLES_NAMES and is_a_nationality(tagged.value)
    )


_CAPITALISED_BEFORE = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w'’-]*)\s+$")


def _cut_short(named: Named, sentence: str) -> bool:
    """Whether a tagged value is part of a word or a name, not the whole of it: "C" of "C++",
    "Vic" of "the Old Vic" (a capitalised word before it that does not open the sentence and is
    not the user's "I")."""
    after = sentence[named.end : named.end + 1]
    if after and (after.isalnum() or after in "+#"):
        return True
    before = _CAPITALISED_BEFORE.search(sentence[: named.start])
    return named.name[:1].isupper() and before is not None and before.group(1) not in THE_USERS_I


_SLOTS_OF_A_NAME = (READ_SLOTS | {"responsibility"}) - {"name", "preferred_name", "nationality"}
"""Slots whose values the readers may give one another by mistake: places, organisations,
tools, people and what the user does."""
_MISREAD_SLOTS = _SLOTS_OF_A_NAME | {"name"}
"""Slots a value the tagger is all but sure of may be taken from: those, and the user's name
("nights at St Aldric's" is no one's)."""


def _mend(old: Extracted, new: Extracted, *facts: list[Extracted]) -> None:
    """The mended fact in the old one's place, in each list of facts that holds it (the
    sentence's and the turn's)."""
    for listed in facts:
        listed[listed.index(old)] = new


def _read_for_another_slot(
    tagged: Tagged, items: Sequence[Extracted], given: Sequence[Extracted]
) -> Extracted | None:
    """The fact of the sentence that holds the tagged value as its value in another slot
    (`_MISREAD_SLOTS`), when the tagger is all but sure of its own (`CORRECTING_CONFIDENCE`) and
    its slot is free: the tagger read the words around the value ("I sort post at the Royal Mail
    centre in Warrington" is the employer, "the cold air here in Norwich kills me on my walk to
    work" the home)."""
    if tagged.confidence < CORRECTING_CONFIDENCE or tagged.slot not in _SLOTS_OF_A_NAME:
        return None
    if tagged.slot not in MULTI_VALUED and any(item.slot == tagged.slot for item in given):
        return None
    value = fold(tagged.value)
    return next(
        (
            item
            for item in items
            if item.kind == "fact"
            and item.slot in _MISREAD_SLOTS
            and item.slot != tagged.slot
            and fold(item.value or "") == value
        ),
        None,
    )


_LONGER_BY = 3
"""Words a tagged value may add to the value the rest read of it (`_said_in_part`)."""


def _said_in_part(tagged: Tagged, items: Sequence[Extracted]) -> Extracted | None:
    """The sentence's fact of the tagged value's slot whose value is a part of it, as whole
    words, a few words shorter: the rest read a name and stopped too soon ("Sage" of "we're on
    Sage 50", "Slaughter" of "an associate at Slaughter and May", "cabin crew" of "a cabin crew
    purser"). Not a clause read whole: that holds more than the value, not less."""
    value = fold(tagged.value)
    for item in items:
        if item.kind != "fact" or item.slot != tagged.slot or not item.value:
            continue
        if _read_whole(item):
            continue
        read = fold(item.value)
        if read != value and _holds_the_words(value, read) and _adds_a_name(value, read):
            return item
    return None


_NOT_OF_A_VALUE = re.compile(
    r"^(?:like|as|also|just|really|basically|only)\s|\s(?:there|here|life|now|too|lol|tbh)$"
    r"|^\S+ \w+ing$|[.,;:!?]$"
)
"""A tagged value's words that are not the value's: a filler before it ("like electrician"),
after it ("head chef there") or a verb after a name ("thinkpad running"), or an end mark."""


def _adds_a_name(value: str, read: str) -> bool:
    """Whether a tagged value that holds the value the rest read adds a few words of a name to
    it ("macbook" → "macbook pro", "Slaughter" → "Slaughter and May"), not a filler."""
    if len(value.split()) - len(read.split()) > _LONGER_BY:
        return False
    return _NOT_OF_A_VALUE.search(value) is None or _NOT_OF_A_VALUE.search(read) is not None


def _in_the_slot_of_another(
    tagged: Tagged, items: Sequence[Extracted], given: Sequence[Extracted], found: Sequence[Tagged]
) -> tuple[Extracted, str] | None:
    """The sentence's fact holding the tagged value's slot of one value with another value,
    which the tagger is all but sure (`CORRECTING_CONFIDENCE`) belongs to a slot still free,
    and that slot: "Halvex" read as the team of "I'm in procurement at Halvex" is the employer,
    and the team is procurement."""
    if tagged.slot in MULTI_VALUED or tagged.slot not in _SLOTS_OF_A_NAME:
        return None
    value = fold(tagged.value)
    for item in items:
        if item.kind != "fact" or item.slot != tagged.slot or not item.value:
            continue
        read = fold(item.value)
        if _read_whole(item) or _one_holds_the_other(read, value):
            continue
        for other in found:
            if fold(other.value) != read or other.confidence < CORRECTING_CONFIDENCE:
                continue
            if other.slot == tagged.slot or other.slot not in _SLOTS_OF_A_NAME:
                continue
            if other.slot in MULTI_VALUED or not any(i.slot == other.slot for i in given):
                return item, other.slot
    return None


def _not_a_language_spoken(tagged: Tagged, sentence: str) -> bool:
    """Whether a tagged language is one the sentence asks answers in or apologises for: whether
    the user speaks it is `app.facts.languages`'s to say ("Reply in Italian from now on, I'm
    practising for my trip" is a rule, not a language the user speaks)."""
    return tagged.slot == "language" and fold(tagged.value) in not_said_spoken(sentence)


def _read_already(tagged: Tagged, given: Sequence[Extracted]) -> bool:
    """Whether the turn's facts hold a tagged value already: a fact of its slot holds it (in its
    value, or in its text when it was read whole: "I run payroll and pensions"), a slot of one
    value has its value, or a name or phrase read for another slot is it or a part of it
    ("Melbourne" read as home is no office too; "Kwik Fit" read as the employer is no "Kwik Fit
    Derby"). A phrase of another slot that only holds the value leaves it free ("the tills at
    aldi" is a duty and "aldi" the employer; "Marisol" is the name and "Mari" what to call
    her)."""
    value = fold(tagged.value)
    for item in given:
        if item.kind not in ("fact", "end"):
            continue
        if item.slot == tagged.slot:
            held = item.text if _read_whole(item) else item.value or ""
            if tagged.slot not in MULTI_VALUED or _one_holds_the_other(value, fold(held)):
                return True
        elif item.value and not _read_whole(item):
            if _holds_the_words(value, fold(item.value)):
                return True
    return False


def _holds_the_words(value: str, other: str) -> bool:
    """Whether the value is the other, or holds it as whole words ("kwik fit derby" holds
    "kwik fit"; "marisol" does not hold "mari")."""
    return value == other or re.search(rf"(?<!\w){re.escape(other)}(?!\w)", value) is not None


def _with_the_sites(items: list[Extracted]) -> list[Extracted]:
    """An employer named with its site ("KPMG Lagos", "Arup's Leeds office") is the
    organisation, and the site is the office (`app.facts.workplaces`), unless the sentence
    named an office already; an employer that is a known place is the office ("a PhD student
    at Edinburgh")."""
    has_office = any(item.slot == "office" for item in items)
    found: list[Extracted] = []
    for item in items:
        if item.slot != "employer" or not item.value:
            found.append(item)
            continue
        if fold(item.value) in known_places():
            if not has_office:  # "a medical student at Cardiff": where, the town for its university
                found.append(replace(item, slot="office"))
                has_office = True
            continue
        site = site_of(item.value)
        if site is None:
            found.append(item)
            continue
        found.append(replace(item, value=site.organisation))
        if not has_office:
            found.append(replace(item, slot="office", value=site.place))
            has_office = True
    return found


def _a_nationality_for_a_name(item: Extracted) -> bool:
    """Whether the fact takes a nationality for someone's name ("I'm Jordanian, a lab
    technician", "my wife is Polish, 30": the readers may read the word after "I'm" or "is" as
    one)."""
    return (
        item.kind == "fact" and item.slot in _PEOPLES_NAMES and is_a_nationality(item.value or "")
    )


_PEOPLES_NAMES = frozenset({"name", "preferred_name", "partner", "child", "manager", "works_with"})


def _a_name_for_a_team(item: Extracted) -> bool:
    """Whether the fact is a team named by no word that says it is one (the durable reader's
    value, a name of the sentence: "Garmin" for "a firmware team at Garmin")."""
    return item.kind == "fact" and item.slot == "team" and not TEAM_HEAD.search(item.value or "")


_IN_A_TOWN = re.compile(r"\b(?:in|near|outside|around)\s+$", re.IGNORECASE)


def placed(slot: str, named: Named, sentence: str) -> str | None:
    """The slot a name a reader gave one fills where it is said, or None where it fills none of
    the user's: a place slot only what may be a place ("just chatted with Dave, originally from
    Lagos": not Dave), nothing of the user's past ("I used to live in Oslo and I miss the snow");
    a town named after "in" is where the user works, not for whom ("I'm a chef in Valencia"),
    and a place in a clause about where the user lives is the home ("I live with my husband
    Rajesh in Leicester")."""
    if slot in PLACE_SLOTS and not may_be_a_place(named.name, sentence[: named.start]):
        return None
    if said_of_the_past(slot, sentence[: named.start]):
        return None
    if slot == "employer" and a_town_after_in(named, sentence):
        slot = "office"
    if slot == "office" and a_place_lived_in(named, sentence):
        slot = "home"
    return slot


def a_place_lived_in(named: Named, sentence: str) -> bool:
    """Whether the name is a place said in a clause about where the user lives ("I live with
    my husband Rajesh in Leicester"): a home, whatever else the clause names."""
    clause = _CLAUSE_OPENS.split(sentence[: named.start])[-1]
    return _LIVES.search(clause) is not None


_CLAUSE_OPENS = re.compile(r"[,;:()—–]|\b(?:and|but)\b", re.IGNORECASE)
_LIVES = re.compile(r"\b(?:live|lives|living)\b", re.IGNORECASE)


def a_town_after_in(named: Named, sentence: str) -> bool:
    """Whether the name is a known town said after "in" (or "near"): where the user works,
    not whom for ("a chef in Valencia")."""
    before = sentence[: named.start]
    return fold(named.name) in known_places() and _IN_A_TOWN.search(before) is not None


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


_SAID_WITH_A_FREQUENCY = frozenset(
    {"responsibility", "employer", "office", "role", "uses", "team", "diet", "likes", "dislikes"}
)
"""Slots whose facts are often said with how often ("I do the cash office every morning", "I
work weekends at Tesco", "I do the 16:8 fasting thing every day"): a habit holding the value of
one the sentence gave is that fact said with its frequency, not a habit of its own."""
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
    given = [(item.slot, fold(item.value or "")) for item in items]
    slots = {item.slot for item in items if item.kind == "fact"}
    return [
        item
        for item in read
        if item.kind == "fact"
        and item.slot not in _WHOLE_SENTENCE_SLOTS
        and not any(
            slot == item.slot and _one_holds_the_other(value, fold(item.value or ""))
            for slot, value in given
        )
        and (item.slot not in slots or item.slot in MULTI_VALUED)
    ]


def _one_holds_the_other(value: str, other: str) -> bool:
    """Whether two values are one: the same, or one said within the other ("I'm a nurse and I
    run the ward at night" reads "the ward" from the sentence and "the ward at night" from its
    clause)."""
    if not value or not other:
        return value == other
    return value in other or other in value


def _reads_a_fact(items: list[Extracted]) -> bool:
    return any(item.kind in ("fact", "end") for item in items)


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
