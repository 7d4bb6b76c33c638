from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support import Services, Tenant, new_tenant

pytestmark = pytest.mark.integration


@pytest.fixture(scope="session")
def client(services: Services) -> Iterator[TestClient]:
    from app.main import create_app

    with TestClient(create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def tenant(client: TestClient) -> Tenant:
    """A fresh tenant per test: tests never see each other's data."""
    return new_tenant(client)


@pytest.fixture(scope="session")
def worker(services: Services) -> Services:
    services.start_worker()
    return services


@pytest.fixture(scope="session")
def live_url(services: Services) -> Iterator[str]:
    """The API served over real HTTP by uvicorn, for concurrent clients and official SDKs."""
    from app.serving import api_in_thread

    with api_in_thread() as url:
        yield url
