"""Closed lists of words that are values by themselves: nationalities and languages. The
patterns match them, and the durable reader takes a nationality or language fact's values
from them ("dual citizenship, Irish and Dutch" is two nationalities)."""

from __future__ import annotations

import re

NATIONALITIES = (
    "Dutch|German|French|British|English|American|Canadian|Irish|Scottish|Welsh|Spanish|"
    "Italian|Portuguese|Swedish|Danish|Norwegian|Finnish|Polish|Czech|Austrian|Swiss|Belgian|"
    "Greek|Turkish|Indian|Chinese|Japanese|Korean|Brazilian|Mexican|Australian|Russian|"
    "Ukrainian|Romanian|Hungarian|Nigerian|Kenyan|Egyptian|Moroccan|Filipino|Vietnamese|Thai"
)
LANGUAGES = (
    "English|Spanish|French|German|Italian|Portuguese|Dutch|Swedish|Danish|Norwegian|Finnish|"
    "Polish|Czech|Slovak|Hungarian|Romanian|Greek|Turkish|Russian|Ukrainian|Arabic|Hebrew|"
    "Persian|Farsi|Hindi|Urdu|Bengali|Punjabi|Tamil|Telugu|Marathi|Gujarati|Malayalam|Kannada|"
    "Chinese|Mandarin|Cantonese|Japanese|Korean|Vietnamese|Thai|Indonesian|Malay|Tagalog|"
    "Filipino|Swahili|Yoruba|Igbo|Hausa|Amharic|Zulu|Afrikaans|Catalan|Basque|Galician|Welsh|"
    "Irish|Gaelic|Icelandic|Estonian|Latvian|Lithuanian|Serbian|Croatian|Bosnian|Slovenian|"
    "Bulgarian|Albanian|Macedonian|Georgian|Armenian|Kazakh|Uzbek|Mongolian|Nepali|Sinhala|"
    "Burmese|Khmer|Lao|Esperanto|Latin|ASL|BSL"
)
_NAMED = {
    "nationality": re.compile(rf"\b(?:{NATIONALITIES})\b", re.IGNORECASE),
    "language": re.compile(rf"\b(?:{LANGUAGES})\b", re.IGNORECASE),
}


def listed_values(slot: str, text: str) -> list[str]:
    """Every nationality or language the text names, in order, once each (as written)."""
    vocabulary = _NAMED.get(slot)
    if vocabulary is None:
        return []
    found: list[str] = []
    for match in vocabulary.finditer(text):
        if match.group().casefold() not in {value.casefold() for value in found}:
            found.append(match.group())
    return found
