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
    import socket
    import threading
    import time

    import uvicorn

    from app.main import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
