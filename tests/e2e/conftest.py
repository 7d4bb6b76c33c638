"""End-to-end tests use the integration fixtures: real services, the API over HTTP, a worker."""

from tests.integration.conftest import client, live_url, tenant, worker

__all__ = ["client", "live_url", "tenant", "worker"]
