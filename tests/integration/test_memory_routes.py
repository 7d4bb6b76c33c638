"""Every memory route with its errors, on real PostgreSQL and Redis."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.support import Tenant


def remember(client: TestClient, tenant: Tenant, subject: str, text: str) -> dict:
    response = client.post(
        "/v1/memory/remember", json={"subject": subject, "text": text}, headers=tenant.headers
    )
    assert response.status_code == 200, response.text
    return response.json()


def read(client: TestClient, tenant: Tenant, subject: str, lines: bool = True) -> dict:
    params = {"subject": subject, "lines": "true"} if lines else {"subject": subject}
    response = client.get("/v1/memory", params=params, headers=tenant.headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_remember_stores_one_line_per_line_skipping_blank_ones(client, tenant):
    body = remember(
        client, tenant, "acme", "ACME holds an enterprise contract.\n\n  \nRefunds go to billing."
    )
    assert body["stored"] == ["ACME holds an enterprise contract.", "Refunds go to billing."]
    assert body["line_count"] == 2
    assert body["warnings"] == []
    remember(client, tenant, "acme", "Third line.")
    memory = read(client, tenant, "acme")
    assert memory["lines"] == [
        "ACME holds an enterprise contract.",
        "Refunds go to billing.",
        "Third line.",
    ]


def test_read_without_lines_gives_counts_only(client, tenant):
    remember(client, tenant, "acme", "one\ntwo")
    memory = read(client, tenant, "acme", lines=False)
    assert memory["line_count"] == 2 and memory["rule_count"] == 0
    assert "lines" not in memory and "rules" not in memory


def test_warnings_name_the_line_and_say_to_use_a_rule(client, tenant):
    body = remember(
        client,
        tenant,
        "acme",
        "Never walk along the corridor with the gold coins.\n"
        "Orders of more than 500 euros need approval.\n"
        "Customers must not be called after 8 pm.\n"
        "ACME likes email.",
    )
    codes = [(w["code"], w["line"]) for w in body["warnings"]]
    assert ("memory_negative_rule", "Never walk along the corridor with the gold coins.") in codes
    assert ("memory_number_rule", "Orders of more than 500 euros need approval.") in codes
    assert ("memory_negative_rule", "Customers must not be called after 8 pm.") in codes
    assert all(w["line"] != "ACME likes email." for w in body["warnings"])
    assert all("rule" in w["message"] for w in body["warnings"])
    assert len(body["stored"]) == 4  # warnings never refuse a line


def test_subject_id_rules(client, tenant):
    for bad in ["", "a" * 37, "has space", "ünïcode", "semi;colon"]:
        response = client.post(
            "/v1/memory/remember", json={"subject": bad, "text": "x"}, headers=tenant.headers
        )
        assert response.status_code == 422, bad
        assert response.json()["error"]["field"] == "subject"
    remember(client, tenant, "A_b-9" + "x" * 31, "fine")


def test_a_long_line_refuses_the_whole_write(client, tenant):
    response = client.post(
        "/v1/memory/remember",
        json={"subject": "acme", "text": "short line\n" + "x" * 2001},
        headers=tenant.headers,
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "text"
    missing = client.get("/v1/memory", params={"subject": "acme"}, headers=tenant.headers)
    assert missing.status_code == 404


def test_unknown_fields_are_refused_by_name(client, tenant):
    response = client.post(
        "/v1/memory/remember",
        json={"subject": "acme", "text": "x", "colour": "red"},
        headers=tenant.headers,
    )
    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "unknown_field",
        "message": "unknown field 'colour'",
        "field": "colour",
    }


def test_unknown_subject_is_404(client, tenant):
    response = client.get("/v1/memory", params={"subject": "nobody"}, headers=tenant.headers)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_line_limit_refuses_a_write_that_would_pass_it(client, tenant):
    remember(client, tenant, "big", "\n".join(f"line {i}" for i in range(9_999)))
    response = client.post(
        "/v1/memory/remember", json={"subject": "big", "text": "a\nb"}, headers=tenant.headers
    )
    assert response.status_code == 409
    assert read(client, tenant, "big", lines=False)["line_count"] == 9_999
    remember(client, tenant, "big", "the last one")
    assert read(client, tenant, "big", lines=False)["line_count"] == 10_000


def test_rules_add_list_and_delete(client, tenant):
    created = client.post(
        "/v1/memory/rules",
        json={
            "subject": "hero",
            "text": "Never take the gold coins.",
            "pin": True,
            "exclude": {"question": "path", "options": ["gold coins corridor"]},
        },
        headers=tenant.headers,
    )
    assert created.status_code == 200, created.text
    rule = created.json()["rule"]
    assert rule["pin"] is True and rule["exclude"]["options"] == ["gold coins corridor"]
    numeric = client.post(
        "/v1/memory/rules",
        json={
            "subject": "hero",
            "text": "Big orders",
            "when": {"path": "order.total", "op": ">", "value": 500},
        },
        headers=tenant.headers,
    ).json()["rule"]
    memory = read(client, tenant, "hero")
    assert [r["text"] for r in memory["rules"]] == ["Never take the gold coins.", "Big orders"]
    assert memory["rules"][1]["when"] == {"path": "order.total", "op": ">", "value": 500.0}

    gone = client.post(
        "/v1/memory/rules/delete",
        json={"subject": "hero", "ids": [rule["id"]]},
        headers=tenant.headers,
    )
    assert gone.status_code == 200 and gone.json()["deleted"] == [rule["id"]]
    assert [r["id"] for r in read(client, tenant, "hero")["rules"]] == [numeric["id"]]


def test_rule_validation_names_the_field(client, tenant):
    bad_op = client.post(
        "/v1/memory/rules",
        json={"subject": "hero", "text": "x", "when": {"path": "a", "op": "~", "value": 1}},
        headers=tenant.headers,
    )
    assert bad_op.status_code == 422 and bad_op.json()["error"]["field"] == "when.op"
    no_options = client.post(
        "/v1/memory/rules",
        json={"subject": "hero", "text": "x", "exclude": {"options": []}},
        headers=tenant.headers,
    )
    assert (
        no_options.status_code == 422 and no_options.json()["error"]["field"] == "exclude.options"
    )


def test_deleting_a_rule_that_is_not_there_deletes_nothing(client, tenant):
    rule = client.post(
        "/v1/memory/rules", json={"subject": "hero", "text": "keep"}, headers=tenant.headers
    ).json()["rule"]
    response = client.post(
        "/v1/memory/rules/delete",
        json={"subject": "hero", "ids": [rule["id"], 999_999_999]},
        headers=tenant.headers,
    )
    assert response.status_code == 404
    assert len(read(client, tenant, "hero")["rules"]) == 1


def test_aliases_add_and_delete(client, tenant):
    added = client.post(
        "/v1/memory/aliases",
        json={"subject": "acct-1", "aliases": ["Globex Corporation", "Globex"]},
        headers=tenant.headers,
    )
    assert added.status_code == 200
    assert added.json()["aliases"] == ["Globex Corporation", "Globex"]
    removed = client.post(
        "/v1/memory/aliases/delete",
        json={"subject": "acct-1", "aliases": ["Globex Corporation", "Never Added"]},
        headers=tenant.headers,
    )
    assert removed.status_code == 200
    assert removed.json()["aliases"] == ["Globex"]  # adds none


def test_delete_removes_everything_and_counts_it(client, tenant):
    remember(client, tenant, "acme", "one\ntwo")
    client.post("/v1/memory/rules", json={"subject": "acme", "text": "r"}, headers=tenant.headers)
    client.post(
        "/v1/memory/aliases", json={"subject": "acme", "aliases": ["A"]}, headers=tenant.headers
    )
    read(client, tenant, "acme")  # fills the cache
    response = client.post("/v1/memory/delete", json={"subject": "acme"}, headers=tenant.headers)
    assert response.status_code == 200
    assert response.json()["deleted"] == {"lines": 2, "rules": 1, "aliases": 1, "batch_items": 0}
    after = client.get("/v1/memory", params={"subject": "acme"}, headers=tenant.headers)
    assert after.status_code == 404
    # A subject created again under the same name starts empty (no cache entry survives).
    remember(client, tenant, "acme", "fresh")
    assert read(client, tenant, "acme")["lines"] == ["fresh"]


def test_deleting_routes_refuse_a_query_string(client, tenant):
    remember(client, tenant, "acme", "one")
    response = client.post(
        "/v1/memory/delete?dry_run=true", json={"subject": "acme"}, headers=tenant.headers
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "dry_run"
    assert read(client, tenant, "acme")["lines"] == ["one"]


def test_a_write_is_visible_to_the_next_read_through_the_cache(client, tenant):
    remember(client, tenant, "acme", "one")
    assert read(client, tenant, "acme")["lines"] == ["one"]  # cached now
    remember(client, tenant, "acme", "two")
    assert read(client, tenant, "acme")["lines"] == ["one", "two"]
    client.post("/v1/memory/rules", json={"subject": "acme", "text": "r"}, headers=tenant.headers)
    assert [r["text"] for r in read(client, tenant, "acme")["rules"]] == ["r"]


def test_zstd_and_gzip_bodies_are_accepted(client, tenant):
    import gzip
    import json

    import zstandard

    payload = json.dumps({"subject": "acme", "text": "compressed line"}).encode()
    for encoding, data in (
        ("gzip", gzip.compress(payload)),
        ("zstd", zstandard.ZstdCompressor().compress(payload)),
    ):
        response = client.post(
            "/v1/memory/remember",
            content=data,
            headers={
                **tenant.headers,
                "content-type": "application/json",
                "content-encoding": encoding,
            },
        )
        assert response.status_code == 200, (encoding, response.text)
    assert read(client, tenant, "acme")["lines"] == ["compressed line", "compressed line"]


def test_invalid_json_is_a_422_in_the_error_shape(client, tenant):
    response = client.post(
        "/v1/memory/remember",
        content=b"{not json",
        headers={**tenant.headers, "content-type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_json"
