"""What a user pastes is not what they say of themselves.

"convert to json: name: Ahmed Khan, email: ahmed.khan@example.com" and "what does this mean?
'Hi Anna, following up on our call…'" carry names, emails and places that belong to the task,
not to the user. Before a message is read for facts, the content it hands over is left out:

- after a colon that closes a request, a question or a pointer to what follows ("fix the
  formatting:", "getting this when I run the build:", "the following:"), the rest of the
  message;
- a quotation of four words or more ('Hi Anna, following up…', “…”).

"Quick context: I'm a nurse" and "My stack: Python and Postgres" hand nothing over and are
read whole.
"""

from __future__ import annotations

import re

_HANDS_OVER = re.compile(
    r"^(?P<before>[^:\n]{1,120}?):(?=\s*\S)",
)
_REQUEST_OR_POINTER = re.compile(
    r"^(?:(?:hey|hi|ok(?:ay)?|so|and|pls|please)\s*,?\s+)*(?:can|could|would|will)\s+you\b|"
    r"^(?:(?:hey|hi|ok(?:ay)?|so|and|pls|please)\s*,?\s+)*(?:convert|format|reformat|fix|"
    r"translate|summari[sz]e|rewrite|proofread|check|explain|parse|extract|clean|turn|"
    r"correct|shorten|edit|improve|review|debug|draft|reply|answer|sort|list|tidy)\b|"
    r"\?\s*$|\b(?:this|these|the\s+following|below)\b",
    re.IGNORECASE,
)
_QUOTATION = re.compile(r"(?<!\w)['\"“‘](?=\S)(?:[^'\"“”‘’\n]|(?<=\w)['’](?=\w))*?\S['\"”’](?!\w)")
"""A quotation, whose words may hold apostrophes ('we'll need the SOW')."""
_QUOTED_WORDS = 4


def without_pasted(text: str) -> str:
    """`text` without the content it hands over (see above)."""
    handed = _HANDS_OVER.match(text)
    if handed and _REQUEST_OR_POINTER.search(handed.group("before").strip()):
        text = handed.group("before")
    return _QUOTATION.sub(
        lambda quoted: quoted.group() if len(quoted.group().split()) < _QUOTED_WORDS else "",
        text,
    )
