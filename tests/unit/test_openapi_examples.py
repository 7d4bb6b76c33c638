"""The OpenAPI documentation: every operation carries an example, and the examples are valid."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from app.account.schemas import DeletionIn, DeletionOut, DeletionsList
from app.audit.routes import AuditEventOut
from app.batches.schemas import BatchFileIn, BatchIdIn, BatchIn
from app.documents.schemas import CollectionIn, CollectionOut, DocumentPatch, DocumentTextIn
from app.erasure.routes import ErasureIn, RetentionIn
from app.facts.schemas import FactsIn, PromoteIn
from app.knowledge.schemas import SettingsIn, SettingsOut
from app.learning.routes import CalibrateIn, GateIn
from app.ledger.routes import LedgerLineOut
from app.main import create_app
from app.quality.routes import QualityIn, QualityOut
from app.tenants.schemas import CreditIn, KeyCreated, StatusIn, TenantCreated, TenantOut
from ops.openapi_examples import operations_without_example


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def test_every_operation_is_documented_with_an_example(spec: dict[str, Any]) -> None:
    assert operations_without_example(spec) == []


@pytest.mark.parametrize(
    "model",
    [
        AuditEventOut,
        BatchFileIn,
        BatchIdIn,
        BatchIn,
        CalibrateIn,
        CollectionIn,
        CollectionOut,
        CreditIn,
        DeletionIn,
        DeletionOut,
        DeletionsList,
        DocumentPatch,
        DocumentTextIn,
        ErasureIn,
        FactsIn,
        GateIn,
        KeyCreated,
        LedgerLineOut,
        PromoteIn,
        QualityIn,
        QualityOut,
        RetentionIn,
        SettingsIn,
        SettingsOut,
        StatusIn,
        TenantCreated,
        TenantOut,
    ],
)
def test_a_models_examples_are_valid(model: type[BaseModel]) -> None:
    examples = model.model_json_schema()["examples"]
    assert examples
    for example in examples:
        model.model_validate(example)


def test_a_batch_is_documented_as_a_json_body_or_a_jsonl_upload(spec: dict[str, Any]) -> None:
    body = spec["paths"]["/v1/batches"]["post"]["requestBody"]
    assert body["required"] is True
    as_json = body["content"]["application/json"]
    # Dossier's requests in the body, or OpenAI's batch of an uploaded file.
    assert [schema["title"] for schema in as_json["schema"]["oneOf"]] == ["BatchIn", "BatchFileIn"]
    BatchIn.model_validate(as_json["example"])
    as_jsonl = body["content"]["application/jsonl"]
    assert as_jsonl["schema"]["type"] == "string"
    lines = [json.loads(line) for line in as_jsonl["example"].splitlines()]
    assert BatchIn.model_validate({"requests": lines}).requests == as_json["example"]["requests"]
