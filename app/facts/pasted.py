"""What a user pastes is not what they say of themselves.

"convert to json: name: Ahmed Khan, email: ahmed.khan@example.com" and "what does this mean?
'Hi Anna, following up on our call…'" carry names, emails and places that belong to the task,
not to the user. Before a message is read for facts, the content it hands over is left out:

- after a colon that closes a request, a question or a pointer to what follows ("fix the
  formatting:", "getting this when I run the build:", "the following:", "this error:"), the
  rest of the message;
- a quotation of four words or more (“Hi Anna, following up…”; in single quotes only after a
  colon or a question mark).

"Quick context: I'm a nurse", "My stack: Python and Postgres" and "This is my situation: I'm
34" hand nothing over and are read whole.
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
    r"\?\s*$|\b(?:(?:getting|got|seeing|see|saw|says?|reads?)\s+this|the\s+following|below|"
    r"this\s+(?:error|email|e-mail|message|text|code|log|output|snippet|json|list|table))\b",
    re.IGNORECASE,
)
_QUOTATION = re.compile(
    r"(?<!\w)[\"“](?=\S)[^\"“”\n]*?\S[\"”](?!\w)"
    r"|(?<=[:?])\s*['‘](?=\S)(?:[^'‘’\n]|(?<=\w)['’](?=\w))*?\S['’](?!\w)"
)
"""A quotation in double quotes, or in single quotes after a colon or a question mark ("what
does this mean? 'we'll need the SOW by Friday'"): a single quote elsewhere is as often an
apostrophe ("the '90s", "the kids' school")."""
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
