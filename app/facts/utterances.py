"""What kind of thing a sentence says, before anything is read from it.

A message is split into sentences (an abbreviation such as "St." ends none; an emoji before a
question does), and a sentence may state a fact only when it is not a question (marked or not),
a request, a passing want or a condition; of one that is, the clauses that state something
still may ("I'm vegetarian, what should I order?"). Sentences over `MAX_SENTENCE_CHARS` are
pasted text and are not read at all.
"""

from __future__ import annotations

import re

from app.facts.clauses import clauses
from app.facts.vocabulary import I_AM, NAME

_SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+|\n+|[\U0001F1E6-\U0001F1FF\U0001F300-\U0001FAFF\u2600-\u27BF\u200d\ufe0f]+\s*"
    r"(?=(?:whats|what|how|why|where|which|who|any|is|are|can|could|should|do|does|did|pls|"
    r"please|help|anyway|but|so|just|give|tell|make|send|show|also|btw|ok|okay|thanks)\b)",
    re.IGNORECASE,
)
"""A sentence ends at its mark, a new line, or an emoji that chat uses as its mark: one before a
question, a request or a new turn ("type 1 diabetic here 🙃 whats a good breakfast"). An emoji
inside a statement ("I ❤️ sushi", "a family of 4 👨‍👩‍👧‍👦 living in Leeds") ends nothing."""


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


_PLEASE = r"(?:please|pls|plz)"


_IMPERATIVE = re.compile(
    rf"^(?:(?:hey|hi|ok(?:ay)?|so|and)\s*,?\s+)?(?:{_PLEASE}\s+)?"
    rf"(?:(?:can|could|would|will)\s+(?:you|u)\b|{_PLEASE}\b|stop\b|"
    r"(?:open|book|show|send|remind|find|draft|write|summari[sz]e|tell|give|help|make|create|"
    r"check|list|translate|explain|search|look|get|set|schedule|add|remove|delete|update|"
    r"recommend|suggest|"
    r"email|order|buy|play|turn|read|compare|plan|fix|let's|lets|go|take|print|share|"
    r"forward|reply|call)\b)",
    re.IGNORECASE,
)


_MOMENTARY = re.compile(
    r"\bI(?:'d|’d|\s+would)\s+(?:like|love)\b|\bI\s+(?:need|want|wanna)\b|"
    r"^(?:(?:so|and|but|honestly|tbh)\s+)?(?:I\s+)?wish\b(?!\s+to\s+(?:add|inform|mention|say|note|"
    r"tell|let))|"
    r"^(?:(?:so|ok|and|but|just|really|also)\s+)?(?:need|want|wanna|looking\s+for|"
    r"thinking\s+(?:about|of)|planning\s+(?:to|on)|considering|hoping\s+to|about\s+to)\b"
    r"(?!\s+(?:you\s+)?to\s+(?:know|remember|mention|say|tell|add|note)\b)"
    r"(?![^.!?]*\bI(?:['’]m|\s+am|['’]ve|\s+have)?\s)|"
    rf"{I_AM}\s+(?:looking\s+for|thinking\s+(?:about|of)|trying\s+to|about\s+to|"
    r"planning\s+to|wondering|going\s+to\s+(?:try|look|check|ask))\b|"
    r"\b(?:probably|prob|prolly|maybe|perhaps|might)\b",
    re.IGNORECASE,
)


_CONDITIONAL = re.compile(
    r"^(?:(?:and|but|so|ok(?:ay)?)\s*,?\s+)?(?:if|unless|supposing|assuming|what\s+if|in\s+case|"
    r"hypothetically|suppose\s+(?:that|I|we|you)|imagine\s+(?:if|that|I|we|you|\w+ing)|"
    r"(?:let's\s+)?say,?\s+(?:that\s+)?(?:I|we|you)\b(?!\s+(?:hi|hello)\b))\b",
    re.IGNORECASE,
)
"""A sentence that states a condition, not a fact: "If I moved to Canada, …", "say I took the
job in Denver". "Imagine Dragons is my favourite band" and "Say hi to Tom" are not."""


_STANDING_RULE = re.compile(r"\b(?:always|never)\b", re.IGNORECASE)
"""A condition on a standing instruction is part of it: "If I ask for code, always use
Python" is kept whole, as the patterns read it."""


STANDING = re.compile(
    rf"^(?:(?:and|also)\s+)?(?:{_PLEASE}\s+)?(?:always|never|don't\s+ever|do\s+not\s+ever|"
    r"from\s+now\s+on)\b|\bI\s+want\s+you\s+to\s+(?:always|never)\b|"
    rf"^(?:{_PLEASE}\s+)?(?:answer|reply|respond|write|talk|speak)\s+(?:to\s+me\s+)?"
    r"in\s+[A-Z]|"
    rf"^(?:{_PLEASE}\s+)?keep\s+(?:your\s+)?(?:answers|replies|responses)\b|"
    r"\b(?:going|moving)\s+forward\s*(?:[,.;!]|$)|"
    rf"\b(?:(?:going|moving)\s+forward|from\s+here\s+on(?:\s+out)?)\s*,?\s+"
    rf"(?:{_PLEASE}\s+)?"
    r"(?:give|use|write|answer|reply|keep|send|show|make|call|don't|do\s+not|always|never|just)\b|"
    r"\bstop\s+\w+ing\b[^.!?]{0,60}?\b(?:every|each|all|your)\s+(?:answers?|repl(?:y|ies)|"
    r"responses?)\b",
    re.IGNORECASE,
)


_ASKED_OF_YOU = rf"(?:^|[,;—–]\s*|\b(?:so|and|but)\s+)(?:{_PLEASE}\s+)?"
_ANSWERS_FORM = re.compile(
    rf"{_ASKED_OF_YOU}(?:avoid|skip|drop|leave\s+out|stop\s+using|don't\s+use|do\s+not\s+use|"
    r"no)\b[^.!?]{0,40}?\b(?:in|from)\s+(?:all\s+)?your\s+(?:answers|replies|responses|"
    r"explanations)\b|"
    rf"{_ASKED_OF_YOU}(?:avoid|skip|stop\s+using|no(?:\s+more)?)\s+(?:the\s+|any\s+)?(?:long\s+)?"
    r"(?:tables|bullet\s*points|bullets|paragraphs|jargon|emojis|headings|walls?\s+of\s+text)\b|"
    rf"{_ASKED_OF_YOU}break\s+(?:things|everything)\s+up\s+into\s+(?:small\s+)?(?:chunks|steps|bits)\b",
    re.IGNORECASE,
)
"""A request about the form of every answer, at a sentence's start or after its reason ("please
avoid tables in your answers", "I'm blind and use NVDA, please avoid tables in your answers",
"no bullet points please", "…, break things up into small chunks pls")…"""
_JUST_THIS_ONCE = re.compile(
    r"\b(?:this|these|that|below|above|tonight|today|(?<!from\s)now(?!\s+on\b)|just\s+gave|"
    r"for\s+the|in\s+the|"
    r"to\s+the|students?|class|kids)\b",
    re.IGNORECASE,
)
"""…but not one for a single answer or piece of writing ("no tables in this one please", "avoid
jargon in the email to my boss", "use bullet points for the list below"), nor one the user
passes on to others ("tell my students: no emojis in your answers")."""


def for_once(text: str) -> bool:
    """Whether a request about answers is for one answer or one piece of writing, or passed on
    to others ("no tables in this one please", "tell my students: no emojis")."""
    return bool(_JUST_THIS_ONCE.search(text))


def standing(text: str) -> bool:
    """Whether the text gives a standing instruction: a rule for every answer from now on."""
    return bool(STANDING.search(text)) or (bool(_ANSWERS_FORM.search(text)) and not for_once(text))


_REQUEST = re.compile(
    rf"^(?:{_PLEASE}\s+no\b|(?:{_PLEASE}\s+|kindly\s+|just\s+)*(?:don'?t|don’t|do\s+not|never|"
    r"always|use|keep|skip|avoid|flag|answer|reply|respond|stop|tone|be|feel\s+free|stick|spell|"
    r"leave|assume|include|mention|remind|go\s+easy|talk|double[- ]check|warn|break)\b)",
    re.IGNORECASE,
)
"""A rule for the assistant ("please use…", "don't suggest…", "skip the…"), not a request for
one thing ("so please give me a recipe for lasagne"); "no …" only after a please ("so no dairy
for me" says what the user avoids, not how to answer)."""
_OF_THE_MOMENT = re.compile(
    r"\b(?:today|tonight|tomorrow|now|right\s+now|about\s+to|this\s+(?:morning|afternoon|"
    r"evening|week|time)|first\s+time|in\s+a\s+(?:rush|hurry)|running\s+late|later|soon|"
    r"at\s+the\s+moment|currently)\b",
    re.IGNORECASE,
)
"""A reason of the moment ("I'm about to start a night shift so answer fast", "it's my first
time driving in snow, so please be specific"): its request is for now."""
_SO_BEFORE = re.compile(r"\bso\s*,?\s*$", re.IGNORECASE)


def asked_because(sentence: str, clause: str) -> bool:
    """Whether the clause is a request the sentence gives a reason for, said after "so" ("I'm
    deaf, so please don't suggest podcasts", "I'm a GP, so use proper medical terms with me"):
    a request that follows from something lasting about the user is a rule for every answer,
    unless it is for one answer ("so keep this one short")."""
    at = sentence.find(clause)
    return (
        at > 0
        and bool(_SO_BEFORE.search(sentence[:at]))
        and not _OF_THE_MOMENT.search(sentence[:at])
        and bool(_REQUEST.match(clause))
        and not clause.endswith("?")
        and not for_once(clause)
    )


CALL_ME = re.compile(
    rf"^(?:(?:btw|so|oh|and)\s*,?\s+)?(?:[Pp]lease\s+|[Pp]ls\s+)?(?:[Jj]ust\s+|[Aa]lways\s+)?"
    r"(?:(?:[Cc]an|[Cc]ould|[Ww]ould)\s+(?:you|u)\s+(?:please\s+|pls\s+)?|[Yy]ou\s+can\s+|"
    r"I['’]d\s+(?:like|love|prefer)\s+(?:it\s+if\s+)?(?:you|u)\s+(?:to\s+)?)?"
    r"(?:[Cc]all|[Aa]ddress)\s+me\s+(?:as\s+)?"
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Tomorrow|Tonight|"
    rf"Later|Back|Now|Asap|ASAP|Uber|Taxi|Doctor|Mum|Mom|Dad|Sir|Madam)\b)({NAME}|[A-Z]{{2,3}})"
    r"(?:\s+(?:pls|please|plz|thanks|thx|tho|though|instead|from\s+now\s+on))?"
    r"(?:\s*[.!?]?$|\s*[,—–-]\s*(?!(?:and|or|if|when|at|on|tomorrow|tonight|later)\b))"
)
"""A name to be called by, said alone or before more about it ("call me Sam, not Samantha",
"pls always call me Kat", "can you call me Sammy tho", "I'd like you to call me Ren", "address
me as Sam"); not a request to ring ("call me at 5", "call me tomorrow, ok?")."""


def _is_momentary(sentence: str) -> bool:
    if standing(sentence) or CALL_ME.search(sentence.strip()):
        return False
    return bool(_IMPERATIVE.search(sentence) or _MOMENTARY.search(sentence))


_OPENERS = r"^(?:(?:so|ok(?:ay)?|hey|btw|also|and|but|quick\s+q(?:uestion)?|anyway)\s*[,:]?\s+)?"


_NOT_ME_NEXT = r"(?:['’]s)?\b(?!['’])(?!\s+(?:I|I['’]m|I['’]ve|we|we['’]re|my|our|mine|me)\b)"


_ASKS_BY_TAIL = r"|\b(?:what\s+do\s+(?:you|u)\s+think|any\s+(?:tips|ideas|advice|thoughts))\W*$"


_WH = r"what|whats|how|why|where|which|who|whose"


_UNMARKED_QUESTION = re.compile(
    rf"{_OPENERS}(?:(?:{_WH}){_NOT_ME_NEXT}|(?:is|are|can|could|should|do|does|did)\s+"
    rf"(?:you|u|it|there|this|that|they|he|she|the|a|an|any|\d+)\b|"
    r"(?:are|does|should|could|would)\s+(?!(?:not|have|mention|add|say|note|be)\b)[a-z]+\s+\w+|"
    rf"(?:can|could|should|do|did)\s+(?:i|we)\s+(?!(?:not|never)\b)\w+){_ASKS_BY_TAIL}",
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


def _clause_asks(clause: str) -> bool:
    return clause.endswith("?") or bool(_ASKING_CLAUSE.search(clause))


def _last_clause_asks(sentence: str) -> bool:
    """Whether a sentence ends by asking or asking for something ("…, help me outline it")."""
    last = (clauses(sentence) or [sentence])[-1]
    return _clause_asks(last) or (
        last != sentence and bool(_IMPERATIVE.search(last)) and not standing(last)
    )


def keeps_open(sentence: str) -> bool:
    """Whether a sentence may state a fact at all: not a question, a request or a passing want
    (a sentence whose last clause asks is a question too)."""
    a_standing_rule = not sentence.endswith("?") and standing(sentence)
    return (
        (a_standing_rule or not asks(sentence))
        and not _last_clause_asks(sentence)
        and not _is_momentary(sentence)
        and not (_CONDITIONAL.search(sentence) and not _STANDING_RULE.search(sentence))
    )


def statement_clauses(sentence: str) -> list[str]:
    """The clauses of a sentence that splits into clauses, that may state a fact: not a
    question, a request or a condition themselves, not the question the sentence ends with,
    and none of a conditional sentence (its clauses are its consequence)."""
    found = clauses(sentence)
    if found == [sentence] or _CONDITIONAL.search(sentence):
        return []
    if found and _clause_asks(found[-1]):
        found = found[:-1]
    return [clause for clause in found if keeps_open(clause) and not _PREDICATE.match(clause)]


_PREDICATE = re.compile(
    r"^(?:is|was|has|does|'s|says|thinks|claims|believes|reckons|suggests|recommends)\b",
    re.IGNORECASE,
)
"""A clause that opens with a verb of the third person has its subject in another clause
("our parrot, Kiwi, is older than my marriage", "the author, dr. chen, says fasting is bad"): it
says nothing of the user alone."""


ACKNOWLEDGES = re.compile(
    r"^(?:thanks|thank\s+you|thx|ty|cheers|great|perfect|cool|nice|awesome|ok(?:ay)?|got\s+it|"
    r"sounds\s+good|lol|haha)(?=\s*[,!.:;—–-]|\s*$)",
    re.IGNORECASE,
)
"""A sentence that opens by answering the assistant ("Thanks, that helps with note 31!") is not
read whole; what follows the answer is read as a clause when the user speaks of themselves in it
("Great, I've just relocated to Gdansk for good"). "Nice is where I live" answers nothing."""


FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|me|my|mine|we|we're|our|us)\b", re.I)


MAX_SENTENCE_CHARS = 600
"""A longer sentence (about 100 words without a stop) is pasted text, not something said of
oneself: it is not read, and the patterns' work stays bounded whatever a message holds."""
