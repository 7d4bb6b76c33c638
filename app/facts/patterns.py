"""The embedded extractor's patterns: deterministic English, dates read by `app.facts.dates` and
spans by `app.facts.spans`.

It keeps what is true about the user (who they are, what they prefer, what they are
responsible for, who and what they work with, standing instructions) and what happened to them
(events, with their day when the turn names one). It keeps nothing from a question, a request
("book me a table", "can you …") or a momentary want ("I need", "I'd like", "I'm thinking
about"), and no names inside those. It is precise rather than exhaustive: a sentence it does
not recognise gives nothing (ops/bench/extraction.py measures both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from app.facts.ends import ends, no_longer
from app.facts.extraction import Extracted
from app.facts.found import Found, Reader, clean, listed_items
from app.facts.people import counted_and_named, family, named_in_passing, said_in_brackets
from app.facts.self_described import (
    MORE_DIETS,
    age_in_an_introduction,
    diet_in_an_introduction,
    kind_of_person,
    living_there_as,
    moved_or_started_without_a_subject,
    name_said_as_here,
    nationality_in_an_introduction,
    said_first,
    said_of_oneself,
)
from app.facts.spans import SentenceDays, dated_text
from app.facts.utterances import (
    CALL_ME,
    MAX_SENTENCE_CHARS,
    keeps_open,
    standing,
)
from app.facts.vocabulary import (
    AIDS,
    AIDS_AND_DEVICES,
    CONDITIONS,
    CUISINES,
    DEVICES,
    DIETS,
    EMAIL,
    END,
    I_AM,
    LANGUAGES,
    NAME,
    NATIONALITIES,
    ORG,
    ORG_IN_LOWER_CASE,
    PHRASE,
    PLACE,
    PRONOUNS,
    ROLE_NOUNS,
    TITLE,
)

T = TypeVar("T")


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


_LIKE_END = r"(?=\s+(?:but|because|since|so|and\s+I|over|rather\s+than|instead\s+of)\b|[,.;!?]|$)"


@dataclass(frozen=True)
class Pattern:
    """One row of the table: a regular expression whose group `v` is the value of `slot`, and
    the fact's text built from `text` (`{v}` is the value; a second alternative may name its
    value `v2`). With `many`, the value is a list
    ("Jira and Confluence") and each item is a fact. A value that is a pronoun gives nothing."""

    pattern: str
    slot: str
    text: str
    flags: int = re.IGNORECASE
    many: bool = False

    def reader(self) -> Reader:
        compiled = re.compile(self.pattern, self.flags)

        def find(sentence: str) -> Iterator[Found]:
            for match in compiled.finditer(sentence):
                raw = match.group("v") or match.groupdict().get("v2") or ""
                values = listed_items(raw) if self.many else [clean(raw)]
                for value in values:
                    if not value or value.split()[0].lower() in PRONOUNS:
                        continue
                    yield Found("fact", self.slot, value, self.text.format(v=value), match.start())

        return find


_CHORES = (
    r"dishes|washing(?:-up)?|laundry|cleaning|ironing|hoovering|vacuuming|bins|garden|"
    r"gardening|driving|bedtime|nappies|night\s+feeds?|same|rest|math|maths|test|tests|exam|"
    r"exams|quiz|course|survey|exercises?|homework|work|job|thing|things|stuff|bit|opposite|"
    r"other|best|most|least|right|wrong|trick|honou?rs|talking|lot|lots|maximum|minimum|one|"
    r"ones|first|last|reading|writing|research"
)
"""What "I do the …" names first that is no duty at work: chores, a test taken, or a phrase
("I do the same", "I do all the talking"); `_PASTIMES` keeps out the rest wherever they are."""
_PASTIMES = (
    r"crosswords?|cryptics?|sudoku|wordle|puzzles?|parkrun|\d+k|marathons?|yoga|pilates|"
    r"workouts?|gym|chores|school\s+runs?|fasting|cooking|shopping|mornings\s+with\s+the\s+kids"
)
"""What "I do the …" names that is a pastime or a chore wherever in the phrase ("I do the
Guardian cryptic every morning", "I do the 5k parkrun"): a habit, not a duty."""
_DUTY = (
    rf"(?![^,.;!?]{{0,40}}\b(?:{_PASTIMES})\b)"
    r"(?:the|all\s+the|all\s+our|our|their|his|her)\s+(?=[A-Za-z])"
    rf"(?!(?:{_CHORES})\b)[\w'’&-]+(?:\s+(?!(?:every|each|on|in|at|for|with|from|between|"
    r"together|while|whilst|and|as|most|twice|too|now|these|this|since|because|so|but|when|if|"
    r"during|before|after|by|via|using|through|until|till|alone|myself|mainly|mostly|here|"
    r"there|then|today|tonight|though|tbh|lol)\b)[\w'’&-]+){0,3}"
)
"""A duty: the words after "the" up to the first that says when, where or how ("the cash office
every morning", "all the planning applications while he …")."""
_DUTY_END = r"(?=\s|[,.;:!?)—–]|$)"
_NO_DUTY = (
    r"(?:a|an|the|so|very|too|really|not|quite|pretty|hard|easy|fine|ok|okay|good|great|boring|"
    r"stressful|busy|fun|safe|secure|gone|done|over|remote|hybrid|full|part|at|in|on|with|for|"
    r"killing|doing|driving|getting|making|giving|stressing|wearing|be|to\s+be|basically\s+(?:gone|"
    r"impossible)|impossible|awful|terrible|hell|crap|rubbish|shit)\b"
)
"""What "my job is" says when it says no duty ("my job is killing me", "my job is to be honest
pretty stressful", "my job is basically gone after the merger")."""
"""A duty ends at a whole word."""


_TOOL = (
    r"(?!(?:a|an|the|my|our|your|it|this|that|these|those|them|some|any|all|both|lots|more|less|"
    r"it's|which|what|up|to|and|or|much|many|one|two|too|either|neither|ours|mine|yours|"
    r"whatever|nothing|everything|something|anything|food|coffee|tips|money|time)\b)"
    r"[a-z][\w+#-]*(?:\.[\w+#-]+)*"
)
"""A tool typed in lower case, one word: not an article, a pronoun or a quantity ("I use it
daily", "we use both")."""


def _favourite(sentence: str) -> Iterator[Found]:
    pattern = rf"\bmy\s+fav(?:ou|o)?rite\s+(?P<c>[a-z]+(?:\s+[a-z]+)?)\s+is\s+(?P<v>{PHRASE}){END}"
    for match in re.finditer(pattern, sentence, re.IGNORECASE):
        category, value = match.group("c").lower(), clean(match.group("v"))
        if category == "food" and re.fullmatch(rf"(?i:{CUISINES})", value):
            category = "cuisine"  # "My favourite food is Ethiopian"
        if value:
            yield Found(
                "fact",
                f"favourite:{category}",
                value,
                f"Favourite {category} is {value}",
                match.start(),
            )


def _instructions(sentence: str) -> Iterator[Found]:
    if standing(sentence):
        value = re.sub(
            r"^(?:(?:and|also)\s+)?please\s+|^I\s+want\s+you\s+to\s+",
            "",
            sentence,
            flags=re.IGNORECASE,
        )
        value = value.strip().rstrip(".!")
        if value:
            yield Found("fact", "instruction", value, value[0].upper() + value[1:], 0)


def _call_me(sentence: str) -> Iterator[Found]:
    match = CALL_ME.search(sentence.strip())
    if match:
        yield Found(
            "fact", "preferred_name", match.group(1), f"Prefers to be called {match.group(1)}", 0
        )


PATTERNS: tuple[Pattern | Reader, ...] = (
    # Who they are.
    Pattern(
        rf"\b[Mm]y\s+(?:full\s+|real\s+|legal\s+)?name\s+is\s+(?P<v>{NAME})",
        "name",
        "Name is {v}",
        flags=0,
    ),
    Pattern(
        rf"(?:^|,\s*|\band\s+)(?:hi|hello|hey)?[,!]?\s*(?:I'm|I’m|I\s+am|this\s+is)\s+"
        rf"(?!(?:{NATIONALITIES}|Catholic|Muslim|Jewish|Christian|Hindu|Sikh|Buddhist|Atheist|"
        r"Autistic|Gay|Straight|Bi|Trans|Vegan|Vegetarian|Tired|Free|Here|Ok|Okay|Confused|Sorry|"
        rf"Back|Done|Fine|Good|Great|Busy|New|Single|Married|Retired)\b)(?P<v>{NAME})"
        r"(?=\s*(?:[,.!;]|\s+(?:and|but|here|btw|fyi|tbh|lol|by\s+the\s+way)\b|$))",
        "name",
        "Name is {v}",
        flags=0,
    ),
    Pattern(
        rf"(?:{I_AM}|\b[Ww]e(?:['’]re|\s+are)(?:\s+both)?)\s+"
        rf"(?P<v>(?i:{NATIONALITIES})(?:-(?:{NATIONALITIES}))?)(?![\w-])"
        r"(?!\s+(?!(?:and|but|so|though|too|by|both)\b)[A-Za-z])",
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
    Pattern(  # "I'm a 40 year old woman with fibromyalgia", "I'm a 19-year-old student"
        rf"{I_AM}\s+an?\s+(?P<v>[1-9]\d)[\s-]*(?:years?|yrs?|yo)[\s-]*old\b",
        "age",
        "Is {v} years old",
    ),
    Pattern(
        rf"{I_AM}\s+(?P<v>\d{{1,3}})(?:\s+years?\s+old)?\b(?!\s*[%:.]\d)", "age", "Is {v} years old"
    ),
    Pattern(r"\bI\s+(?:just\s+)?turned\s+(?P<v>\d{1,3})\b", "age", "Is {v} years old"),
    Pattern(  # "I am Mrs. Okafor, a retired midwife aged 71"
        r"\bI(?:['’]m|\s+am)\b[^!?]{0,60}?,\s+(?:an?\s+)?[\w\s-]{0,40}?\baged\s+(?P<v>[1-9]\d)\b",
        "age",
        "Is {v} years old",
    ),
    Pattern(
        rf"(?:(?:^|,\s*)(?:(?i:just|recently)\s+)?(?=started\b)|\bI\s+)"
        rf"(?:work(?:ed)?|am\s+working|'m\s+working|started|start|joined|will\s+start|"
        rf"'ll\s+start|am\s+starting|'m\s+starting)(?:\s+(?:at|for|with)\s+{ORG}|\s+{ORG})?\s+as\s+"
        rf"(?:an?\s+|the\s+)?(?P<v>[a-z][\w -]*?(?:{ROLE_NOUNS}))\b",
        "role",
        "Works as {v}",
    ),
    Pattern(  # "I'm his full time carer now", "I'm head chef there", "sparky by trade"
        rf"{I_AM}\s+(?:now\s+)?(?:(?:his|her|their|my\s+\w+['’]s)\s+)?(?P<v>(?:full[- ]time\s+|"
        rf"part[- ]time\s+)?(?:carer|caregiver|nurse)|(?:head|senior|junior|chief|lead|sous|deputy|"
        rf"assistant)\s+(?:{ROLE_NOUNS}))\b(?!['’])",
        "role",
        "Works as {v}",
        flags=0,
    ),
    Pattern(
        r"(?:^|[,;—–]\s*|\bI(?:['’]m|\s+am)\s+(?:an?\s+)?)"
        rf"(?P<v>(?:[a-z]+\s+)?(?:{ROLE_NOUNS}))\s+by\s+(?:trade|profession)\b",
        "role",
        "Works as {v}",
    ),
    Pattern(  # "I work for Bupa as an activities coordinator"
        rf"\bI\s+work\s+(?:for|at)\s+{ORG}\s+as\s+(?:an?\s+)?"
        rf"(?P<v>(?:(?!(?:as|a|an|the|well)\b)[a-z][\w-]*\s+){{0,3}}"
        rf"(?:{ROLE_NOUNS}))\b",
        "role",
        "Works as {v}",
        flags=0,
    ),
    Pattern(
        rf"{I_AM}\s+(?:now\s+)?(?:an?|the)\s+(?P<v>(?:[a-z0-9][\w-]*\s+){{0,3}}(?:{ROLE_NOUNS}))\b"
        r"(?!['’]s\b)(?!\s+(?:lover|drinker|fan|patient|customer|person|in\s+minecraft|today|"
        r"tonight|on\s+this)\b)",
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
    Pattern(  # "I'm on a low FODMAP diet for IBS", "been on a renal diet since March"
        r"(?:\bI['’]m|\bI\s+am|\bI['’]ve\s+been|^been)\s+(?:now\s+|still\s+)?on\s+an?\s+"
        r"(?:strict\s+)?(?P<v>(?!(?:new|different|good|bad|healthy|proper|crash|fad|bit|"
        r"sort|kind|special)\b)[\w-]+(?:\s+[\w-]+)?\s+diet)\b",
        "diet",
        "Follows a {v}",
    ),
    Pattern(  # "Went gluten-free in March after my coeliac diagnosis"
        rf"(?:^|\bI\s+|\bI['’]ve\s+|\bwe(?:['’]ve)?\s+)(?:just\s+|recently\s+)?(?:went|gone|switched\s+to)\s+"
        rf"(?P<v>{DIETS}|{MORE_DIETS})\b"
        r"(?![^.!?]*\b(?:for\s+a\s+(?:week|month|bit|while|few)|this\s+week|as\s+a\s+challenge|"
        r"once)\b)",
        "diet",
        "Is {v}",
    ),
    Pattern(  # "I've got a shellfish allergy", "a peanut and sesame allergy", "and a nut allergy"
        r"(?:\bI(?:['’]ve|\s+have)?\s+(?:got\s+)?|^(?:I|I['’]ve|I['’]m|im)\b[^.!?]*?\band\s+)"
        r"an?\s+(?:severe\s+|mild\s+|bad\s+)?"
        r"(?P<v>[\w-]+(?:\s+[\w-]+)?(?:\s*(?:,|and|&)\s*[\w-]+(?:\s+[\w-]+)?)*)\s+allergy\b",
        "allergy",
        "Is allergic to {v}",
        many=True,
    ),
    Pattern(  # "Peanut allergy, severe.", "nut allergy here (proper epipen one)"
        r"^\W*(?:(?:a|severe|mild|bad)\s+)?"
        r"(?!(?:proper|real|serious|actual|an|the|my|food|an?\s+actual)\b)"
        r"(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+allergy\b"
        r"(?=\s*[,.;:!(—–]|\s+(?:here|btw|fyi|person|sufferer)\b)"
        r"(?![^.!?]*\b(?:friend|son|daughter|kids?|child|children|wife|husband|partner|mum|dad|"
        r"not\s+mine|asking\s+for)\b)",
        "allergy",
        "Is allergic to {v}",
    ),
    Pattern(  # "I'm allergic to penicillin and latex", "coeliac and also allergic to sesame"
        rf"(?:{I_AM}\s+|^(?:I['’]m|I\s+am|im)\b[^.!?]*?\b(?:and|also)\s+|^\W*)"
        r"(?:also\s+|severely\s+|very\s+|badly\s+)?"
        rf"allergic\s+to\s+(?P<v>{PHRASE}){END}",
        "allergy",
        "Is allergic to {v}",
        many=True,
    ),
    Pattern(rf"\bI\s+speak\s+(?P<v>{PHRASE}){END}", "language", "Speaks {v}", many=True),
    Pattern(  # "my first language is English, my second is Spanish"
        rf"\bmy\s+second(?:\s+language)?\s+is\s+(?P<v>{LANGUAGES})\b",
        "language",
        "Speaks {v}",
    ),
    Pattern(  # "I'm deaf and use BSL"
        r"(?:\bI|\band)\s+(?:use|sign(?:\s+in)?|communicate\s+in)\s+"
        r"(?P<v>BSL|ASL|British\s+Sign\s+Language|American\s+Sign\s+Language|sign\s+language)\b",
        "language",
        "Speaks {v}",
    ),
    Pattern(  # "helps my arthritis", "with my sleep apnoea": a condition said as one's own
        rf"(?<!\bthink\s)\bmy\s+(?P<v>{CONDITIONS})(?![\w-])(?!\s+(?:test|results?|assessment|"
        r"appointment|diagnosis\s+was\s+wrong|meds?|medication|nurse|doctor|consultant)\b)",
        "health",
        "Has {v}",
    ),
    Pattern(  # "I'm in the pharmacy team at Boots in Truro", "I work as a welder in Port Talbot"
        rf"\bI(?:['’]m|\s+am|\s+work)\b[^.!?]{{0,50}}?\bat\s+(?:the\s+)?{ORG}\s+(?:in|near)\s+"
        rf"(?P<v>{PLACE})|\bI\s+work\s+as\s+(?:an?\s+)?[a-z][\w -]{{0,30}}?\s+in\s+(?P<v2>{PLACE})",
        "office",
        "Works in {v}",
        flags=0,
    ),
    Pattern(  # "my job is packing orders", "My job is to check the welding seams"
        r"\b[Mm]y\s+(?:main\s+|actual\s+|day\s+|whole\s+)?(?:job|role)\s+(?:here\s+)?is\s+"
        rf"(?!{_NO_DUTY})(?:(?:to|basically|mostly|mainly|just)\s+)?(?!{_NO_DUTY})"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "I deliver for Evri round Ipswich", "I do domiciliary care round Bolton"
        r"\bI(?:['’]m|\s+am)?\s+(?:(?:mostly|mainly|also|now|still|currently|usually)\s+)?"
        r"(?:(?:drive|driving|ride|riding|cycle|cycling)\s+for\s+\S+|deliver|delivering|courier|"
        r"couriering|clean|cleaning|do\s+(?:domiciliary\s+)?care|cover|covering|work|working)\b"
        r"(?![^.!?]*\b(?:holiday|trip|visit|visiting|next|tomorrow|tonight|yesterday|last|"
        r"this\s+weekend)\b)[^.!?;]{0,40}?"
        rf"\b(?:a?round|all\s+over|across)\s+(?:the\s+)?(?P<v>{PLACE})",
        "office",
        "Works in {v}",
        flags=0,
    ),
    Pattern(  # "She's made me responsible for the rota for our ward"
        r"\b(?:made|put|left)\s+me\s+(?:responsible\s+for|in\s+charge\s+of)\s+"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "Cash-ups are on me", "Dealing with complaints is on me"
        r"(?:^|[,;—–]\s*|\band\s+)(?!(?:the\s+)?(?:bill|drinks?|round|dinner|lunch|coffee|"
        r"breakfast|food|pizza|it|this|that|everything|next|first|mistake|blame|fault|error|"
        r"screw-?up|mess|delay)\b)"
        r"(?P<v>(?:the\s+|all\s+the\s+|our\s+)?[A-Za-z][\w'’-]*(?:\s+[\w'’-]+){0,4}?)\s+"
        r"(?:is|are)\s+(?:all\s+|now\s+|mostly\s+)?on\s+me\b"
        r"(?!\s+(?:tonight|today|this\s+time|next\s+time|if|when)\b)",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "I'm the one billing clients", "I'm the one who does the rota"
        rf"{I_AM}\s+the\s+one\s+(?:who\s+(?:does|handles|runs|owns|manages|deals\s+with)\s+|"
        r"(?:doing|handling|running|managing|dealing\s+with)\s+)?"
        rf"(?P<v>(?:the\s+|all\s+the\s+|our\s+)?(?!who\b|that\b){PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "my boss asked me to own the onboarding calls from now on" (without "from now on",
        # a task: "asked me to run the open day"), "gave me the KPI deck to own"
        r"\basked\s+me\s+to\s+(?:own|run|handle|manage|lead|look\s+after)\s+"
        rf"(?P<v>{PHRASE})\s+from\s+now\s+on\b"
        r"|\b(?:gave|given|handed)\s+me\s+(?P<v2>(?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+){0,4}?)\s+to\s+own\b",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "my mother tongue is Hungarian"
        r"\bmy\s+(?:mother\s+tongue|native\s+language|first\s+language|home\s+language)\s+is\s+"
        rf"(?P<v>{LANGUAGES})\b",
        "language",
        "Speaks {v}",
    ),
    Pattern(  # "I have asthma", "i've got type 2 diabetes", "diagnosed with adhd last year"
        r"(?<!\bthink\s)(?<!\bthinks\s)(?<!\bif\s)(?<!\bwhether\s)(?<!\bdoubt\s)(?<!\blike\s)"
        r"(?<!\bwonder\s)(?<!\bsure\s)(?:\bI(?:['’]ve|\s+have)?\s+(?:have|got)|\bI\s+have\s+got|\bI['’]ve\s+got|"
        r"\bI(?:\s+was|\s+got|\s+have\s+been|['’]ve\s+been)\s+(?:just\s+|recently\s+)?diagnosed\s+with|"
        r"^(?:(?:just|recently)\s+)?(?:got\s+)?diagnosed\s+with|"
        r"\bI\s+(?:suffer\s+from|live\s+with))\s+"
        rf"(?P<v>{CONDITIONS})(?![\w-])(?!\s+(?:about|over|before|for|when|because|bc|from|today|"
        r"tonight|right\s+now|atm|rn|this\s+(?:week|morning|evening)|again|meds?|medication|"
        r"cream|inhaler|pills?|symptoms?|training|awareness|friendly|assessment|test|appointment|"
        r"flare)\b)",
        "health",
        "Has {v}",
    ),
    Pattern(  # "a 44 year old woman with fibromyalgia", "low FODMAP for IBS", "bc of coeliac"
        r"\bI(?:['’]m|\s+am|['’]ve|\s+have)?\b"
        r"(?:(?!\b(?:patients?|people|kids|children|clients?|students?|residents?|friends?|"
        r"sons?|daughters?|husband|wife|partner|mum|mom|dad|mother|father|someone|anyone|those|"
        r"them|him|her|his|their|if|whether|worried|scared|afraid|test\w*|check\w*|"
        r"charity|charities|volunteer\w*|fundrais\w*|donat\w*|raising|research\w*|"
        r"awareness)\b)"
        r"[^.;!?]){0,60}?"
        r"\b(?:with|for|because\s+of|bc\s+of|cos\s+of|due\s+to|since)\s+(?:my\s+)?"
        rf"(?P<v>{CONDITIONS})(?![\w-])(?!\s+(?:patients?|clinic|awareness|charity|research|"
        r"ward|nurse|team|test|screening)\b)",
        "health",
        "Has {v}",
    ),
    Pattern(  # "Psoriasis on my elbows", "Eczema on my hands that never clears", "adhd + an office"
        rf"^\W*(?P<v>{CONDITIONS})(?![\w-])(?=\s+(?:on\s+my|here|\+|and\s+I|since|ever\s+since|"
        r"flares?|means|makes|so\s+I)\b|\s*\+)",
        "health",
        "Has {v}",
    ),
    Pattern(  # "Name's Arjun Mehta."
        rf"^(?:(?:hi|hey|hello)\W+)?(?:[Tt]he\s+)?[Nn]ame['’]s\s+(?!(?:Not|None|Unknown|Irrelevant)\b)"
        rf"(?P<v>{NAME})",
        "name",
        "Name is {v}",
        flags=0,
    ),
    # Where they live and work.
    Pattern(
        r"(?:\bI|\bI(?:['’]m|\s+am)\s+(?:\d{1,3}|retired|widowed|single|divorced|married)\s*,?\s*"
        r"and)\s+(?:still\s+|now\s+|currently\s+)?(?:live|am\s+living|'m\s+living)"
        r"(?:\s+alone|\s+on\s+my\s+own|\s+by\s+myself|\s+together|\s+now)?"
        rf"\s+in\s+(?P<v>{PLACE})",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(rf"{I_AM}\s+(?:now\s+)?based\s+in\s+(?P<v>{PLACE})", "home", "Lives in {v}", flags=0),
    Pattern(  # "living in munich and still …", "I live in leeds now": a place in lower case too
        r"(?:\bI\s+(?:live|am\s+living|'m\s+living|’m\s+living)|^living)\s+in\s+(?:the\s+)?"
        r"(?!(?:fear|hope|denial|sin|poverty|luxury|comfort|peace|limbo|hell|debt|style|"
        r"sweatpants|pyjamas|pajamas|the\s+moment|the\s+past|a\b|an\b)\b)"
        rf"(?P<v>{PLACE}|[a-z][\w-]+)(?=\s+(?:and|now|these|since|for|but|so)\b|\s*[,.;!?—–-]|\s*$)",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(
        r"\bI\s+(?:just\s+|recently\s+|finally\s+)?"
        rf"(?:moved|relocated)\s+(?:back\s+)?to\s+(?P<v>{PLACE})"
        r"(?!\s+(?:team|office))",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    moved_or_started_without_a_subject,
    Pattern(  # "moved out of london in march, we're in Margate now": where the move ended
        r"\bmoved\s+(?:out\s+of|away\s+from)\s+[^.!?]*?\b(?:I['’]m|we['’]re|I\s+am|we\s+are)\s+"
        rf"(?:now\s+)?(?:living\s+|settled\s+|based\s+)?in\s+(?P<v>{PLACE})",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(  # "I'm originally from Kraków but have lived in Oslo since 2015"
        r"(?:\bI(?:['’]ve|\s+have)|\bbut\s+have|,\s*have)\s+(?:now\s+)?lived\s+in\s+"
        rf"(?P<v>{PLACE})\s+(?:since|for)\b(?![^,.;!?]*\b(?:before|until|till|then)\b)",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(  # "grew up in Lagos, now in Houston"
        r"(?:^|\bI\s+)(?:grew\s+up|was\s+born|born(?:\s+and\s+raised)?|lived)\s+in\s+[^,.;!?]{1,40}"
        r"(?:,\s*|\s+but\s+)(?:I['’]m\s+|we['’]re\s+)?now\s+(?:in|based\s+in|living\s+in)\s+"
        rf"(?P<v>{PLACE})(?!\s+(?:for|on|until|till|waiting|working|visiting)\b)",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(  # "been in toronto since 2015", "I've been living in Oslo for five years"
        r"(?:^(?:but\s+|and\s+|so\s+)?|,\s*|\bI['’]ve\s+|\bI\s+have\s+)been\s+"
        r"(?:living\s+|based\s+)?in\s+"
        rf"(?P<v>{PLACE}|[a-z][\w-]+)\s+(?:since\s+(?:\d{{4}}|(?:I|we)\s+w(?:as|ere)\b|uni\b|"
        rf"college\b|school\b|childhood\b|birth\b|forever\b)|(?:for\s+)?(?:\d+|a\s+few|"
        rf"many|several|two|three|four|five|six|seven|eight|nine|ten)\s+(?:years|yrs|decades?)\b|"
        rf"ever\s+since\b)(?![^.!?]{{0,40}}\b(?:trip|conference|visit|holiday|vacation|stay)\b)",
        "home",
        "Lives in {v}",
        flags=0,
    ),
    Pattern(  # "thai is hands down my favourite cuisine", "korean is my favourite food ever"
        rf"^(?P<v>{CUISINES})\s+(?:food\s+)?is\s+(?:hands\s+down\s+|by\s+far\s+|definitely\s+|"
        r"easily\s+)?my\s+(?:absolute\s+|all[- ]time\s+)?fav(?:ou|o)?rite(?:\s+(?:cuisine|food))?"
        r"(?:\s+ever|\s+by\s+far)?"
        r"(?=\s*[,.;!?—–]|\s*$)",
        "favourite:cuisine",
        "Favourite cuisine is {v}",
    ),
    living_there_as,
    Pattern(rf"{I_AM}\s+(?:originally\s+)?from\s+(?P<v>{PLACE})", "origin", "Is from {v}", flags=0),
    Pattern(  # "moved over from Cork a couple of years back"
        rf"\b(?:I\s+)?moved\s+(?:over\s+|here\s+|down\s+|up\s+|across\s+)?from\s+(?P<v>{PLACE})"
        r"(?![\w'’-])(?!(?:\s+[\w'’-]+){0,3}?\s+(?:over\s+)?to\b)",
        "origin",
        "Is from {v}",
        flags=0,
    ),
    Pattern(rf"\bI\s+grew\s+up\s+in\s+(?P<v>{PLACE})", "origin", "Is from {v}", flags=0),
    Pattern(
        rf"\bI\s+(?:originally\s+)?come\s+from\s+(?P<v>{PLACE})(?![^,.;!?]*\bto\b)",
        "origin",
        "Is from {v}",
        flags=0,
    ),
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
    Pattern(  # "im on the growth team at Canva", "I'm in the platform reliability team"
        rf"{I_AM}\s+(?:now\s+)?(?:in|on|part\s+of)\s+the\s+"
        r"(?P<v>(?!(?:same|wrong|whole|other|new|old|best|worst|first|last|main|winning|losing|"
        r"home|away|opposing|rival|dream|naughty|[a-z]|blue|red|green|yellow|white|black)\b)"
        r"[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}\s+(?:team|squad))\b",
        "team",
        "Is on the {v}",
        flags=0,
    ),
    Pattern(
        rf"\bI\s+(?:work|am\s+working|'m\s+working|’m\s+working|currently\s+work)\b(?:\s+as\s+"
        rf"[\w -]+?)?(?:\s+(?:saturdays|sundays|weekends|nights|evenings|part[- ]time|full[- ]time|"
        rf"shifts)|\s+in\s+(?!(?:a|an|the|my|our)\b)[a-z]+(?:\s+[a-z]+)?)?\s+(?:at|for)\s+"
        rf"(?P<v>{ORG}|{ORG_IN_LOWER_CASE})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(  # "I lead the payments team at Monzo"
        r"\bI\s+(?:lead|run|manage|head(?:\s+up)?)\s+the\s+(?:[\w-]+\s+){1,3}?(?:team|squad|"
        rf"department|division)\s+(?:at|for)\s+(?P<v>{ORG})",
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
        rf"(?:at|for|with)\s+(?P<v>{ORG}|{ORG_IN_LOWER_CASE})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    Pattern(  # "i teach 8th grade science at lincoln middle"
        rf"\bI\s+(?:teach|lecture)\b[^,.;!?]{{0,40}}?\s+at\s+"
        rf"(?P<v>{ORG}|{ORG_IN_LOWER_CASE})",
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
        rf"\bI\s+(?:start|begin|will\s+start|'ll\s+start|am\s+starting|'m\s+starting|"
        rf"’m\s+starting|started)\s+(?:a\s+new\s+job\s+)?(?:at|with)\s+(?P<v>{ORG})",
        "employer",
        "Works at {v}",
        flags=0,
    ),
    # Contact.
    Pattern(
        r"\b(?:my\s+(?:e-?mail|email\s+address)\s+is|reach\s+me\s+at|contact\s+me\s+at|"
        r"e-?mail\s+me\s+at|mail\s+me\s+at|send\s+(?:[\w-]+\s+){0,3}to)\s+"
        rf"(?P<v>{EMAIL})",
        "email",
        "Email address is {v}",
    ),
    Pattern(
        r"\b(?:(?:my\s+)?(?:(?:work|home|new)\s+)?(?:phone|telephone|mobile|cell|number)(?:\s+number)?"
        r"(?:'s|’s|\s+is|\s+changed,?\s+it's|:)?|call\s+me\s+on|reach\s+me\s+on|"
        r"text\s+me\s+on)\s+(?P<v>\+?\(?\d[\d\s()-]{5,}\d)",
        "phone",
        "Phone number is {v}",
    ),
    # Who and what they work with.
    Pattern(
        rf"\b[Mm]y\s+(?:new\s+)?(?:manager|boss|supervisor|line\s+manager|team\s+lead)"
        rf"(?:\s+is\s+|,\s+|\s+)(?P<v>(?>{TITLE}[A-Z][\w'’-]+(?:\s+(?:[A-Z]|[^\x00-\x7f\W])[\w'’-]+){{0,2}}))"
        r"(?!\s+(?:left|quit|retired|moved|was|used|has\s+left|is\s+leaving)\b)",
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
        rf"{I_AM}\s+(?:also\s+|now\s+|solely\s+|fully\s+)?(?:responsible\s+for|in\s+charge\s+of|"
        r"accountable\s+for)\s+"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(
        rf"(?<!\bwhen\s)(?<!\bif\s)(?<!\bwhenever\s)(?<!\band\s)"
        rf"\bI\s+(?:manage|lead|run|own|oversee|look\s+after|cover|handle|support|maintain|"
        r"coordinate|supervise)\s+"
        rf"(?P<v>the\s+{PHRASE}|our\s+{PHRASE}|all\s+(?:the\s+|our\s+)?{PHRASE}|"
        rf"a\s+team\s+of\s+{PHRASE})"
        rf"{END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "Kwame and I run the night desk", "me and Farah cover the helpdesk" (the pattern
        # above leaves "… and I run" to this one, which reads the duty alone)
        rf"(?:\band\s+(?:I|me)|\b(?:I|[Mm]e)\s+and\s+[A-Z][\w'’-]+)\s+"
        r"(?:(?:basically|mostly|mainly|usually|both|also|now|still)\s+)?"
        r"(?:run|do|handle|cover|own|manage|look\s+after|share|split|maintain|support|teach|"
        r"organi[sz]e|process|coordinate|build)\s+"
        rf"(?P<v>{_DUTY}){_DUTY_END}",
        "responsibility",
        "Is responsible for {v}",
        flags=0,
    ),
    Pattern(  # "I do the cash office every morning", "I do all the planning applications"
        r"(?<!\bwhen\s)(?<!\bif\s)(?<!\bwhenever\s)(?<!\bshould\s)(?<!\bcan\s)"
        r"(?<!\bcould\s)(?<!\bwould\s)(?<!\bhow\s)(?<!\bwhy\s)(?<!\bwhere\s)(?<!\bdo\s)"
        r"\bI\s+(?:(?:basically|mostly|mainly|usually|also|now|still|just|only)\s+)?do\s+"
        rf"(?P<v>{_DUTY}){_DUTY_END}",
        "responsibility",
        "Is responsible for {v}",
        flags=0,
    ),
    Pattern(  # "we own checkout + refunds", "we look after the referral program" (their team)
        rf"\bwe\s+(?:own|look\s+after|are\s+responsible\s+for|'re\s+responsible\s+for|"
        rf"take\s+care\s+of|maintain)\s+(?:all\s+)?"
        r"(?!(?:a|an|one|two|three|four|some|several|\d+|the\s+problem|it|this|that)\b)"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(  # "I'm Head of Customer Success at a small SaaS startup"
        rf"{I_AM}\s+(?:the\s+)?(?P<v>(?:Head|Director|VP|Vice\s+President|Chief\s+\w+\s+Officer|"
        r"General\s+Manager|Lead)\s+of\s+[A-Za-z&-]+(?:\s+[A-Za-z&-]+){0,2}?)"
        r"(?=\s+(?:at|for|in|with)\b|\s*[,.;!?—–]|\s*$)",
        "role",
        "Works as {v}",
        flags=0,
    ),
    Pattern(  # "I'm the product owner for the checkout flow", "the on-call lead for X"
        rf"{I_AM}\s+(?:the|an?)\s+(?:[\w-]+\s+){{0,2}}(?:owner|lead|maintainer)\s+(?:for|of)\s+"
        r"(?![^,.;!?]*\b(?:team|squad|group|department)\b)"
        rf"(?P<v>{PHRASE}){END}",
        "responsibility",
        "Is responsible for {v}",
    ),
    Pattern(
        r"\b(?:I|[Ww]e)(?:\s+(?:mostly\s+|mainly\s+|also\s+)?(?:use|are\s+using|am\s+using|"
        r"'re\s+using|rely\s+on)|(?:['’]ve|\s+have)\s+been\s+using)\s+(?:an?\s+|my\s+)?"
        r"(?P<v>[A-Z][\w.+#-]*(?:(?:\s*,\s*|\s+and\s+|\s+)[A-Z0-9][\w.+#-]*)*)",
        "uses",
        "Uses {v}",
        flags=0,
        many=True,
    ),
    Pattern(  # "bigger on my iPad", "I use a wheelchair most days", "I wear hearing aids"
        rf"\b(?:my\s+|I\s+(?:use|wear|have|rely\s+on|carry)\s+(?:an?\s+|my\s+)?)"
        rf"(?P<v>(?i:{AIDS_AND_DEVICES}))(?![\w-])"
        r"(?!\s+(?:user|question|interview|art|case|and\s+cheese)\b)"
        r"(?![^,.;!?]*\bfor\s+(?:my|his|her|their)\s+\w+)",
        "uses",
        "Uses {v}",
        flags=0,
    ),
    Pattern(  # "we use jira and confluence for everything", "i use vim + tmux": typed in lower case
        r"\b(?:I|[Ww]e)(?:\s+(?:mostly\s+|mainly\s+|also\s+|only\s+)?(?:use|rely\s+on)|"
        r"(?:['’]ve|\s+have)\s+been\s+using)\s+"
        rf"(?P<v>{_TOOL}(?:(?:\s*,\s*|\s*\+\s*|\s*/\s*|\s+and\s+|\s*&\s*){_TOOL}){{0,4}})"
        r"(?=\s+(?:for|at|to|in|on|with|every|all|because|bc|daily|now|these|mostly|mainly)\b|"
        r"\s*[,.;!?—–-]|\s*$)",
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
    Pattern(  # "i go bouldering every tue and thu", "just started running 3x a week"
        r"(?:\bI(?:['’]ve)?\s+(?:just\s+)?(?:started\s+|been\s+)?(?:go\s+|do\s+some\s+)?|"
        r"(?:^|,\s*|\band\s+)(?:just\s+)?started\s+)(?P<v>(?!(?:going|getting|trying|thinking|"
        r"looking|planning|working|feeling)\b)[a-z]+ing)\s+(?=(?:[a-z]+\s+)?(?:every\s+(?:day|"
        r"morning|evening|night|week|weekend|mon|tue|wed|thu|fri|sat|sun)|\d+x\s+(?:a|per)\s+"
        r"(?:week|day)|(?:once|twice|three\s+times|\w+\s+times)\s+(?:a|per)\s+(?:day|week)|daily\b))",
        "habit",
        "Goes {v}",
        flags=0,
    ),
    Pattern(  # "i drink like 5 coffees a day"
        r"\bI\s+(?:drink|have|eat|smoke)\s+(?:like\s+|about\s+|around\s+|at\s+least\s+)?"
        r"(?P<v>(?:\d+|two|three|four|five|six|a\s+few|a\s+couple\s+of)\s+[a-z]+\s+(?:a|per|every)\s+"
        r"(?:day|week|night))",
        "habit",
        "Has {v}",
        flags=0,
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
    family,
    named_in_passing,
    counted_and_named,
    said_in_brackets,
    kind_of_person,
    said_of_oneself,
    said_first,
    age_in_an_introduction,
    name_said_as_here,
    nationality_in_an_introduction,
    diet_in_an_introduction,
    ends,
    no_longer,
    _instructions,
    _call_me,
)
"""Every pattern the extractor reads a sentence with, in this order (the order decides which
of two patterns that read the same value into the same slot gives the fact): one row per
`Pattern`, then the readers whose value or slot a template cannot say."""


_READERS: tuple[Reader, ...] = tuple(
    entry.reader() if isinstance(entry, Pattern) else entry for entry in PATTERNS
)
_INTRODUCTIONS: tuple[Reader, ...] = (
    age_in_an_introduction,
    name_said_as_here,
    nationality_in_an_introduction,
    diet_in_an_introduction,
    _call_me,
)
"""The readers of an introduction's items, which a question or a request may open with too
("Hi, I'm Mehmet, 44, type 2 diabetic — is a kebab a terrible lunch?", "Ayşe here, Turkish,
living in Leiden, can you explain PERMANOVA?", "can you call me Sammy tho?"): each is anchored
at the opening that says who the user is, so the question's own words are never read."""


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


def _events(sentence: str, facts: list[Found]) -> Iterator[Found]:
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
        yield Found("event", None, clause, clause[0].upper() + clause[1:], match.start())


def extract_sentence(sentence: str, said_on: date) -> list[Extracted]:
    """Facts, events and ends of one sentence written on `said_on`."""
    if len(sentence) > MAX_SENTENCE_CHARS:
        return []
    if not keeps_open(sentence):
        introduced = [f for read in _INTRODUCTIONS for f in read(sentence)]
        return list(_owned_devices(sentence, said_on)) + _as_items(
            _drop_overlaps(introduced), [], sentence, said_on
        )
    facts = [f for read in _READERS for f in read(sentence)]
    facts = _drop_overlaps(facts)
    return _as_items(facts, list(_events(sentence, facts)), sentence, said_on)


def _as_items(
    facts: list[Found], events: list[Found], sentence: str, said_on: date
) -> list[Extracted]:
    """The sentence's facts and events as extracted items, each with the span or the day the
    sentence gives it."""
    days = SentenceDays.of(sentence, said_on)
    out: list[Extracted] = []
    for item in sorted(facts + events, key=lambda f: f.start):
        if item.kind == "fact":
            fact_span = days.span_at(item.start)
            out.append(
                Extracted(
                    kind="fact",
                    text=item.text,
                    said_on=said_on,
                    slot=item.slot,
                    value=item.value,
                    valid_from=fact_span.valid_from,
                    valid_until=fact_span.valid_until,
                )
            )
        elif item.kind == "end":
            end_span = days.span_at(item.start)
            out.append(
                Extracted(
                    kind="end",
                    text=item.text,
                    said_on=said_on,
                    slot=item.slot,
                    value=item.value or None,
                    on=end_span.on or end_span.valid_from or said_on,
                )
            )
        else:
            out.append(
                Extracted(
                    kind="event",
                    text=dated_text(item.text, days.phrases),
                    said_on=said_on,
                    value=item.value,
                    on=days.whole.on,
                )
            )
    return out


def _owned_devices(sentence: str, said_on: date) -> Iterator[Extracted]:
    """A device or aid the user names as theirs in a question or a request ("how do I make the
    writing bigger on my iPad?", "can my hearing aids pair with a TV?"): the question states
    nothing else, but that they have it lasts."""
    if _NOT_OWNED_YET.search(sentence):
        return
    for match in _OWNED_DEVICE.finditer(sentence):
        device = match.group("v")
        yield Extracted(
            kind="fact", text=f"Uses {device}", said_on=said_on, slot="uses", value=device
        )


_OWNED_DEVICE = re.compile(rf"\bmy\s+(?:old\s+)?(?P<v>(?-i:{DEVICES})|(?i:{AIDS}))(?![\w-])")
_NOT_OWNED_YET = re.compile(
    r"\b(?:buy|buying|bought|order|ordering|sell|selling|sold|worth|get|getting|new|if)\b", re.I
)
"""A device being bought, ordered or sold is not one the user has (yet, still)."""


def _drop_overlaps(facts: list[Found]) -> list[Found]:
    """Two patterns that read the same value into the same slot give one fact."""
    return _first_of_each(facts, lambda fact: (fact.kind, fact.slot, fact.value.casefold()))


def dedupe(items: list[Extracted]) -> list[Extracted]:
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
