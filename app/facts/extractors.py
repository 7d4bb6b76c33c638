"""Which extractor runs: the embedded patterns (with the durable and name readers and the slot
tagger when meaning is on), or the chat endpoint's model with `DOSSIER_EXTRACTOR=llm`.

Apart from `app.facts.extraction` (what every extractor takes and gives), so the extractors
import that module and this one imports them, with no cycle between them.
"""

from __future__ import annotations

from app.chat.upstream import ChatClient
from app.facts.durable import current_reader
from app.facts.embedded import EmbeddedExtractor
from app.facts.extraction import Extractor
from app.facts.llm_extractor import LlmExtractor
from app.facts.named import current_name_reader
from app.facts.tagger import current_tagger
from app.settings import get_settings


def current_extractor() -> Extractor:
    """The configured extractor: the embedded patterns, or the chat endpoint's model."""
    settings = get_settings()
    if settings.extractor == "llm" and settings.chat_url:
        return LlmExtractor(ChatClient.from_settings(settings), model=settings.chat_model)
    return EmbeddedExtractor(current_reader(), current_name_reader(), current_tagger())
