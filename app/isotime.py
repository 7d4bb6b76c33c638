"""A moment in an answer, written as Python's `isoformat` ("2026-11-30T19:30:00.123456+00:00").

FastAPI wrote a `datetime` this way while routes returned dicts; pydantic's own serialiser
writes UTC as "Z". Answers typed after they were first released keep the form clients know.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import PlainSerializer

IsoDatetime = Annotated[datetime, PlainSerializer(lambda d: d.isoformat(), return_type=str)]
