"""What a user makes believe is not what they say of themselves.

People ask an assistant to play a part ("you're a customs officer and I'm Diego, a tourist who
lost his passport"), to help with fiction ("in my novel the heroine is a 41-year-old firefighter
in Marseille") or to imagine ("let's pretend I'm a retiree in Florida"). The names, ages, jobs
and places that follow belong to the story. So a message is read up to where it starts to make
believe: "I'm a teacher in Leeds, write a story for my class about a dragon" still says where
the user teaches; nothing after "write a story" is read.

Others' words are left out too: a quotation in single quotes after a verb of saying ("my friend
texted 'I'm 30 tomorrow and I hate it'", "the job ad says 'must be fluent in Japanese'"), which
`app.facts.pasted` leaves in because a single quote elsewhere is as often an apostrophe.
"""

from __future__ import annotations

import re

_STORY = (
    r"story|stories|novel|screenplay|script|scene|fic|fanfic|character|monologue|campaign|"
    r"role[- ]?play|thriller|mystery|film|movie|sitcom|musical|comic|webcomic|play"
)
"""What a user writes or plays that is made up; not a poem or a song about their own dog."""
_MAKE_BELIEVE = re.compile(
    r"^\W*(?:you\s+)?be\s+(?:a|an|the|my)\b|\bI['’]ll\s+be\s+(?:your|the)\b|"
    r"\b(?:story|plot|book|film)\s+idea\b|"
    r"\blet['’]?s\s+(?:rehearse|practi[cs]e|act|play)\b|"
    r"\b(?:role[- ]?play\w*|pretend\w*|let['’]?s\s+(?:say|imagine|pretend)|"
    r"imagine\s+(?:you|I|we)\b|act(?:ing)?\s+as\b|play(?:ing)?\s+the\s+(?:role|part)\b|"
    r"you['’]re\s+[^.?!]{0,60}?\band\s+I['’]m\b|"
    rf"(?:in|for)\s+my\s+(?:\w+\s+)?(?:{_STORY})\b|"
    rf"(?:writing|write|draft(?:ing)?)\s+(?:a|an|my|the|this)\s+(?:[\w-]+\s+){{0,2}}?(?:{_STORY})\b|"
    r"my\s+(?:character|protagonist|narrator|heroine|hero)\b|narrated\s+by\b|"
    r"the\s+(?:main\s+character|protagonist|heroine|narrator)\b)",
    re.IGNORECASE,
)
_SAID = r"said|says|say|wrote|writes|texted|texts|asked|asks|replied|posted|commented|messaged"
_QUOTED_AFTER_SAYING = re.compile(
    rf"\b(?:{_SAID})\b[^'‘\n]{{0,30}}?\s['‘](?=\S)(?:[^'‘’\n]|(?<=\w)['’](?=\w))*?\S['’](?!\w)",
    re.IGNORECASE,
)


def said_of_the_user(text: str) -> str:
    """`text` up to where it starts to make believe, without what others said in quotes."""
    make_believe = _MAKE_BELIEVE.search(text)
    if make_believe is not None:
        text = text[: make_believe.start()]
    return _QUOTED_AFTER_SAYING.sub(lambda said: said.group().split("'")[0].split("‘")[0], text)
