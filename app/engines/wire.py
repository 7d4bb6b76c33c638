"""The System One wire format, as `typesafe-sdk` 0.7.5 models it, plus Dossier's two fields.

Dossier speaks System One on both sides: clients built with `typesafe_sdk.TypeSafeClient` send
these requests to Dossier, and Dossier sends the same requests to a remote engine. So these models
follow the SDK's generated schema (`typesafe_sdk._schemas.models`) field for field, with the
checks its client makes before sending (a choice or score needs criteria; a noul needs
instructions or a described outcome), and add only the optional `subject` and `memory`.

Requests refuse unknown fields: a misspelt option (`"memroy"`, `"top-k"`) must be a 422 naming
it, not a silently ignored setting. Responses ignore unknown fields, so an upstream engine that
adds metadata does not break Dossier.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictFloat,
    StrictInt,
    ValidationError,
    model_serializer,
    model_validator,
)

from app.validation import first_problem

Content: TypeAlias = str | dict[str, Any] | list[Any]
"""Text, a JSON object or an array: what states, instructions and criteria may be."""

State: TypeAlias = Content
"""The content all questions of a request refer to."""

QUESTION_TYPES = ("choice", "noul", "score", "box")

SUBJECT_PATTERN = r"^[A-Za-z0-9_-]{1,36}$"
"""A subject id: letters, digits, underscore and hyphen, up to 36 characters."""


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_serializer(mode="wrap")
    def _omit_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # As the SDK does: an optional field left out stays out of the wire form, while a None
        # inside criteria ("calm": None, an option described by its name alone) is kept.
        return {key: value for key, value in handler(self).items() if value is not None}


class _Response(BaseModel):
    model_config = ConfigDict(extra="ignore")


# --- request -------------------------------------------------------------------------------------


class Asset(_Request):
    """An image the state or a question refers to by an opaque placeholder."""

    type: Literal["image"] | None = None
    format: Literal["png", "jpg", "jpeg"] | None = None
    data_base64: str | None = None
    part: str | None = None


class NoulCriteria(_Request):
    true: Content | None = None
    false: Content | None = None


class ChoiceQuestion(_Request):
    """Select one of the named options in `criteria` (option name → when it applies)."""

    type: Literal["choice"] = "choice"
    instructions: Content | None = None
    criteria: dict[str, Content | None] = Field(min_length=1)


class NoulQuestion(_Request):
    """A yes/no question or statement; the answer is the probability of yes."""

    type: Literal["noul"] = "noul"
    instructions: Content | None = None
    criteria: NoulCriteria | None = None

    @model_validator(mode="after")
    def _asks_something(self) -> NoulQuestion:
        described = self.criteria is not None and (
            self.criteria.true is not None or self.criteria.false is not None
        )
        if self.instructions is None and not described:
            raise ValueError("a noul question needs instructions or a described outcome")
        return self


class ScoreQuestion(_Request):
    """Rate against ordered levels; each level's position is its score, from zero."""

    type: Literal["score"] = "score"
    instructions: Content | None = None
    criteria: list[Content] = Field(min_length=1)


class BoxQuestion(_Request):
    """Locate what the instructions describe in the request's image."""

    type: Literal["box"] = "box"
    instructions: Content | None = None


Question: TypeAlias = Annotated[
    ChoiceQuestion | NoulQuestion | ScoreQuestion | BoxQuestion, Field(discriminator="type")
]


class MemoryOptions(_Request):
    """How Dossier uses the subject's memory for one decision.

    Strict, because a setting given as "yes" or "6" is more likely a mistake than a wish.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    use: StrictBool = True
    top_k: StrictInt = Field(6, ge=1, le=20)
    min_share: StrictFloat = Field(0.2, ge=0.05, le=1.0)
    names: StrictBool = True
    question_words: StrictBool = True
    focus: StrictBool = False
    semantic: StrictBool = True
    """Meaning as well as words (app.recall.hybrid); false: words alone, as before."""
    compare: StrictBool = False
    explain: StrictBool = False
    placebo: StrictBool = False
    learn: StrictBool = False
    passes: Literal["sync", "async"] = "sync"


class SystemOneRequest(_Request):
    model: str
    state: State
    questions: dict[str, Question] = Field(min_length=1)
    assets: dict[str, Asset] | None = Field(None, min_length=1)
    subject: str | None = Field(None, pattern=SUBJECT_PATTERN)
    memory: MemoryOptions | None = None


# --- response ------------------------------------------------------------------------------------


class ChoiceAnswer(_Response):
    type: Literal["choice"] = "choice"
    choice: str
    confidence: float
    probabilities: dict[str, float]


class NoulAnswer(_Response):
    type: Literal["noul"] = "noul"
    noul: float


class ScoreAnswer(_Response):
    type: Literal["score"] = "score"
    score: float
    confidence: float
    legend: dict[str, Content]
    """Each level's description, keyed "0", "1", … like `probabilities`."""
    probabilities: dict[str, float]


class BoxCoordinates(_Response):
    top: float
    bottom: float
    left: float
    right: float


class BoxAnswer(_Response):
    type: Literal["box"] = "box"
    box: BoxCoordinates
    confidence: float | None


Answer: TypeAlias = Annotated[
    ChoiceAnswer | NoulAnswer | ScoreAnswer | BoxAnswer, Field(discriminator="type")
]


class Usage(_Response):
    input_tokens: int
    output_tokens: int


class SystemOneResponse(_Response):
    model: str
    answers: dict[str, Answer] = Field(min_length=1)
    usage: Usage


class ModelMetadata(_Response):
    name: str
    description: str
    release_date: str


class ModelMetadataList(_Response):
    models: list[ModelMetadata]


# --- validation with the field named -------------------------------------------------------------


def parse_request(body: object) -> SystemOneRequest:
    """Validate a decoded request body, turning the first problem into a 422 that names its field
    in the wire's form (`app.validation`, `wire=True`).

    Raises:
        Invalid: with `field` as a dotted path such as `questions.team.criteria` or `memory.top_k`.
    """
    if isinstance(body, Mapping):
        body = dict(body)
    try:
        return SystemOneRequest.model_validate(body)
    except ValidationError as exc:
        raise first_problem(exc.errors(include_url=False), wire=True).error() from exc


def serialise(state: State) -> str:
    """The state as the engine reads it: a string as it is, anything else as compact JSON."""
    if isinstance(state, str):
        return state
    return json.dumps(state, ensure_ascii=False, separators=(",", ":"))
