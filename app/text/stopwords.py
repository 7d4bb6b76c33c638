"""Stop words, one list per purpose, each named for it.

The lists differ on purpose, and each was chosen against its own tests and benchmarks: recall
keeps words that change what a state means ("down", "not"); the engine's option matching also
drops a ticket's courtesies; forget follows the seed's exact rule for a concept's words; the
learning gate drops the few words any two statements share. Changing one changes only its user.
"""

from __future__ import annotations

RECALL_STOP_WORDS = frozenset(
    """
    a about again all also am an and any are as at be because been being both but by can
    could did do does doing during each either few for from further had has have having he
    her here hers herself him himself his how i if in into is it its itself just me more
    most my myself neither nor of on once only or other ought our ours ourselves own same
    shall she should so some such than that the their theirs them themselves then there
    these they this those through to too until very was we were what when where which while
    who whom whose why will with would you your yours yourself yourselves
    dont doesnt didnt isnt arent wasnt werent cant couldnt wont wouldnt shouldnt hasnt
    havent hadnt im ive youre youve theyre theyve weve hes shes lets
    """.split()
)
"""English function words: they are in most lines, so they should not make a line relevant.
Words that carry meaning in a state ("down", "out", "not", "no", "off", "before") are kept."""


OPTION_STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing don down during each either few
    for from further get got had has have having he her here hers herself him himself his how hi
    hello i if in into is it its itself just let me more most my myself no nor not now of off on
    once only or other our ours ourselves out over own per please same she should so some such
    than thank thanks that the their theirs them themselves then there these they this those
    through to too under until up us very via was we were what when where which while who whom
    whose why will with would yes yet you your yours yourself yourselves""".split()
)
"""Words that say nothing about which option of a question fits: the function words, plus the
courtesies and yes/no of a ticket ("hi", "thanks", "please") that any option's text may share.
Narrower than recall's list in contractions, wider in courtesies and directions."""


CONCEPT_FUNCTION_WORDS = frozenset(
    {"a", "an", "the", "of", "and", "or", "to", "in", "on", "at", "by", "for", "with", "from"}
)
"""Function words dropped from a concept when written in lowercase ("the order" → "order")."""


GATE_STOP_WORDS = frozenset(
    "a an the of and or to in on at by for with from our we us they their is are was were be "
    "has have had it its this that".split()
)
"""Words two statements share without saying the same thing, left out when the learning gate
compares what a new fact says with what memory holds."""
