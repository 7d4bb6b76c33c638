"""Operations: Prometheus metrics, structured logs with a request id, health and readiness."""
