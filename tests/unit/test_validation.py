"""The one translator from validation errors to Dossier's 422 (`app.validation`)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict

from app.engines.wire import QUESTION_TYPES
from app.errors import Invalid
from app.validation import (
    UNION_TAGS,
    field_path,
    first_problem,
    parse_body,
    request_problem,
    wire_request_problem,
)


class Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    n: int


class Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[Inner]


def test_the_union_tags_are_the_wire_question_types() -> None:
    assert set(UNION_TAGS["questions"]) == set(UNION_TAGS["answers"]) == set(QUESTION_TYPES)


def test_field_path_drops_the_union_tag_and_brackets_indexes() -> None:
    assert field_path(("questions", "team", "choice", "criteria")) == "questions.team.criteria"
    assert field_path(("state", 0, "text")) == "state[0].text"


@pytest.mark.parametrize(
    ("body", "code", "field", "message"),
    [
        ({"items": [{"n": 1, "x": 2}]}, "unknown_field", "items.0.x", "unknown field 'items.0.x'"),
        ({"items": [{"n": "a"}]}, "invalid", "items.0.n", "items.0.n: Input should be"),
        ([], "invalid", None, "the body must be a JSON object"),
    ],
)
def test_parse_body_names_the_first_problem(
    body: object, code: str, field: str | None, message: str
) -> None:
    with pytest.raises(Invalid) as caught:
        parse_body(Outer, body)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert caught.value.message.startswith(message)


def test_fastapi_errors_lose_where_the_value_came_from() -> None:
    problem = request_problem([{"loc": ("body", "when", "op"), "msg": "bad", "type": "x"}])
    assert problem.body() == {
        "error": {"code": "invalid", "message": "when.op: bad", "field": "when.op"}
    }
    invalid_json = request_problem([{"loc": ("body", 3), "msg": "x", "type": "json_invalid"}])
    assert invalid_json.code == "invalid_json"
    assert invalid_json.field is None  # the character offset is no field of the client's


@pytest.mark.parametrize("translate", [request_problem, wire_request_problem])
def test_a_body_that_is_no_object_or_absent_reads_the_same_on_every_route(translate) -> None:
    not_object = translate([{"loc": ("body",), "msg": "x", "type": "model_attributes_type"}])
    assert not_object.body() == {
        "error": {"code": "invalid", "message": "the body must be a JSON object"}
    }
    absent = translate([{"loc": ("body",), "msg": "Field required", "type": "missing"}])
    assert absent.body() == {"error": {"code": "invalid", "message": "Field required"}}


def test_the_wire_form_keeps_pydantics_message_for_unknown_fields() -> None:
    errors = [
        {"loc": ("memroy",), "msg": "Extra inputs are not permitted", "type": "extra_forbidden"}
    ]
    problem = first_problem(errors, wire=True)
    assert (problem.code, problem.field) == ("invalid", "memroy")
    assert problem.message == "memroy: Extra inputs are not permitted"
    assert first_problem([{"loc": (), "msg": "bad", "type": "x"}], wire=True).message == "body: bad"
